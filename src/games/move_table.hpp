#pragma once
// The moves of a code, listed by kind, for the heap sizes a kernel is about to compute.
// Codes with a repeating tail have a move for every take k, so the lists grow with the heap size.
// Private to the library.

#include <cstdint>
#include <vector>

#include "sgx/rules.hpp"
#include "sgx/sequence.hpp"

namespace sgx {

struct SplitMove {
  std::uint64_t take;  // k
  bool unequal;        // parts must be pairwise distinct

  // The largest first part a of a split of m into (a, m - a), a <= m - a (a < m - a if unequal).
  std::uint64_t largest_first_part(std::uint64_t m) const { return unequal ? (m - 1) / 2 : m / 2; }
};

class MoveTable {
 public:
  explicit MoveTable(const Rules& rules) : rules_(rules) {}

  // Makes the lists hold every take k <= heap.
  void cover(std::uint64_t heap);

  const Rules& rules() const { return rules_; }
  // Takes k >= 1 that may leave one non-empty heap (digit bit 2), increasing.
  const std::vector<std::uint64_t>& leave_one() const { return leave_one_; }
  // Takes that split the rest into two / three non-empty heaps, increasing.
  const std::vector<SplitMove>& split_two() const { return split_two_; }
  const std::vector<SplitMove>& split_three() const { return split_three_; }
  // True when taking exactly n tokens, leaving nothing, is a move.
  bool takes_all(std::uint64_t n) const { return n > 0 && (rules_.digit(n).bits & kLeaveNone); }

  // Marks into seen every option value of heap n that involves no two-heap split:
  // taking all, leaving one heap, and (by enumeration) three-heap splits.
  template <class T, class Set>
  void mark_simple_options(const ValueVector<T>& g, std::uint64_t n, Set& seen) const;

 private:
  Rules rules_;
  std::uint64_t covered_ = 0;  // takes 0..covered_-1 are listed
  std::vector<std::uint64_t> leave_one_;
  std::vector<SplitMove> split_two_;
  std::vector<SplitMove> split_three_;
};

template <class T, class Set>
void MoveTable::mark_simple_options(const ValueVector<T>& g, std::uint64_t n, Set& seen) const {
  if (takes_all(n)) seen.insert(0);
  for (std::uint64_t k : leave_one_) {
    if (k >= n) break;
    seen.insert(g[n - k]);
  }
  for (const SplitMove& move : split_three_) {
    if (move.take + 3 > n) break;
    const std::uint64_t m = n - move.take;
    // Parts a <= b <= c (a < b < c when unequal), so each split is listed once.
    for (std::uint64_t a = 1; 3 * a <= m; ++a) {
      const std::uint64_t rest = m - a;  // b + c
      const std::uint64_t b_first = move.unequal ? a + 1 : a;
      const std::uint64_t b_last = move.unequal ? (rest - 1) / 2 : rest / 2;
      const T part = g[a];
      for (std::uint64_t b = b_first; b <= b_last; ++b) seen.insert(static_cast<Value>(part ^ g[b] ^ g[rest - b]));
    }
  }
}

}  // namespace sgx
