#pragma once
// What the rare-value method knows beyond the values it keeps (docs/FORMAT.md, /sparse). With the
// middle of a sequence released (bounded memory) it cannot be recounted, so a bounded run saves it
// in its checkpoints and resumes from it. Kept apart from the engine so that the kernels and the
// store, which both hold it, need not depend on the engine.

#include <cstdint>
#include <vector>

#include "sgx/sequence.hpp"
#include "sgx/stats.hpp"

namespace sgx {

struct SparseState {
  RareMask mask;                              // the mask in use (not always the best one)
  std::vector<std::uint64_t> histogram;       // histogram[v]: positions with value v
  std::vector<std::uint64_t> odd_histogram;   // odd positions with value v (masks with the position)
  std::vector<std::uint64_t> rare_positions;  // under mask, increasing
  std::vector<Value> rare_values;             // G at each rare position
  Value max_value = 0;
  std::uint64_t max_at = 0;                   // first position of max_value
};

}  // namespace sgx
