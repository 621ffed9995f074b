#pragma once
// Sparse-space statistics of a sequence: value histogram, the best rare mask, rare positions.
// "Rare" for a mask m: popcount(value & m) is even (docs/THEORY.md section 4).

#include <cstdint>
#include <vector>

#include "sgx/sequence.hpp"

namespace sgx {

inline bool is_rare(Value value, std::uint64_t mask) {
  // Parity rather than a population count: it compiles to a few instructions on every x86-64,
  // where a count without the POPCNT instruction is a library call.
  return __builtin_parityll(value & mask) == 0;
}

// rare_count[m] for every mask m < histogram.size() (a power of two): the number of positions
// whose value is rare under m, by one Walsh-Hadamard transform of the histogram.
std::vector<std::uint64_t> rare_counts_for_all_masks(std::vector<std::uint64_t> histogram);

// The non-zero mask with the fewest rare positions; ties go to the smallest mask.
// Returns 0 only when the histogram has fewer than two entries.
std::uint64_t best_rare_mask(const std::vector<std::uint64_t>& histogram);

struct SparseStats {
  std::uint64_t rare_mask = 0;
  std::uint64_t rare_count = 0;
  std::int64_t last_rare = -1;  // largest rare position, -1 if none
  Value max_value = 0;
  std::uint64_t max_at = 0;     // first index of the largest value
  std::vector<std::uint64_t> histogram;  // histogram[v] = positions with value v

  friend bool operator==(const SparseStats&, const SparseStats&) = default;
};

// One pass over the values: histogram, largest value, best mask, rare positions under it.
SparseStats compute_stats(const Sequence& values);

// Positions whose value is rare under mask, in increasing order.
std::vector<std::uint64_t> rare_positions(const Sequence& values, std::uint64_t mask);

}  // namespace sgx
