#pragma once
// The sparse kernel's rare-value state, held once: the mask, the histograms it is chosen from, the
// rare positions and their values, the bound above every value and the common patterns built from
// them, with the log that lets a block take its values back. A checkpoint and the store keep the
// same state as a SparseState (sgx/sparse_state.hpp); saved() and load() are the only places it
// is converted, one each way, so the kernel never holds it twice.

#include <cstdint>
#include <limits>
#include <span>
#include <utility>
#include <vector>

#include "base/task_clock.hpp"
#include "kernels/value_set.hpp"
#include "sgx/rules.hpp"
#include "sgx/sequence.hpp"
#include "sgx/sparse_state.hpp"
#include "sgx/stats.hpp"

namespace sgx {

// Hidden, as SparseKernel is (sparse_kernel.hpp).
struct [[gnu::visibility("hidden")]] RareState {
  static constexpr std::uint64_t kNever = std::numeric_limits<std::uint64_t>::max();

  std::uint64_t bound = 1;                  // a power of two above every value so far
  RareMask mask;                            // {0}: every value is rare (the naive method)
  bool mask_stale = true;                   // the mask is to be chosen again (choose_mask)
  std::uint64_t rare_at_choice = 0;         // rare positions when the mask was chosen
  std::vector<std::uint64_t> histogram;     // histogram[v]: positions with value v, bound entries
  std::vector<std::uint64_t> odd_histogram;  // odd_histogram[v]: odd positions with value v
  std::vector<std::uint64_t> positions;     // rare positions, increasing
  std::vector<Value> values;                // G at each rare position (kept when the values are released)
  ValueSet common_patterns[2];              // the common values below bound for even and odd heaps
  // What record() changed since start_undo_log(), for forget_from().
  std::vector<std::pair<std::uint64_t, std::uint64_t>> bound_grown_at;  // (heap, bound before)
  std::uint64_t stale_since = kNever;  // the heap whose record made mask_stale true

  // Nothing counted yet (a fresh attach counts the values given).
  void clear();
  // The state a checkpoint kept, and the state to keep in one (max_value and max_at are the
  // engine's to fill).
  void load(const SparseState& state);
  SparseState saved() const;

  // Counts G(n) = value, widening the bound (the mask goes stale) where the value needs it.
  void count_value(std::uint64_t n, Value value) {
    while (value >= bound) {
      bound *= 2;
      mask_stale = true;
    }
    if (histogram.size() < bound) {
      histogram.resize(bound, 0);
      odd_histogram.resize(bound, 0);
    }
    count_common(n, value);
  }
  // Counts G(n) = value, common and within the histogram's bound: all that record() does then.
  void count_common(std::uint64_t n, Value value) {
    ++histogram[value];
    odd_histogram[value] += n & 1;
  }
  // Adds the counts of a caller that counts many values in a row (the pipeline's chain), kept by
  // the heaps' parity: by_parity[p * size + v] values v at heaps of parity p, v < size <= bound,
  // one increment a value where count_common takes two.
  void add_counts_by_parity(std::span<const std::uint64_t> by_parity) {
    const std::size_t size = by_parity.size() / 2;
    for (std::size_t v = 0; v < size; ++v) {
      histogram[v] += by_parity[v] + by_parity[size + v];
      odd_histogram[v] += by_parity[size + v];
    }
  }
  // Counts G(n) = value and, with lists_rare, lists n if it is rare. Returns whether the bound or
  // the rare list changed (what the heaps decided alone were prepared for).
  bool record(std::uint64_t n, Value value, bool lists_rare);
  // Starts the log of what record() changes, for forget_from().
  void start_undo_log() {
    bound_grown_at.clear();
    stale_since = mask_stale ? 0 : kNever;
  }
  // Takes back the values from heap n on (after start_undo_log()), as if they had never been
  // recorded, and cuts g there. Returns whether the bound or the rare list changed.
  template <class T>
  bool forget_from(ValueVector<T>& g, std::uint64_t n);
  // Picks the mask with the fewest rare positions so far (Walsh-Hadamard of the histograms) and
  // lists the rare positions again if it changed. With values released the list cannot be
  // listed again: the mask in use stays (any mask gives the right values; a worse one only pairs
  // more). Returns whether the mask changed.
  template <class T>
  bool choose_mask(const ValueVector<T>& g, bool released, bool lists_rare, SplitTakeParity split_parity,
                   WorkSpanTicks* work_span);

  // The values a heap's rare pairs list: not rare for it (docs/THEORY.md section 4).
  void build_patterns();
  const ValueSet& common_pattern(std::uint64_t n) const { return common_patterns[n & 1]; }

 private:
  template <class T>
  void list_positions(const ValueVector<T>& g, bool lists_rare, WorkSpanTicks* work_span);
};

}  // namespace sgx
