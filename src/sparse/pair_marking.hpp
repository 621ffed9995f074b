#pragma once
// The sparse kernel's pairs of one heap with rare positions, marked into any set of values
// (ValueSet, ValueMarks, a row of GroupMarks): the helpers every way of deciding a heap calls for a
// few pairs at a time, so they are defined here, inline, for every file that marks pairs.

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "sparse/sparse_kernel.hpp"

namespace sgx {

// The rare r whose partner m - r lies in [low, high): m - high < r <= m - low, and as parts are
// non-empty, 1 <= r < m.
inline std::pair<SparseKernel::RareIt, SparseKernel::RareIt> SparseKernel::rare_partnered(
    std::uint64_t m, std::uint64_t low, std::uint64_t high) const {
  if (low > m) return {rare_.positions.end(), rare_.positions.end()};
  const auto first = std::upper_bound(rare_.positions.begin(), rare_.positions.end(), m >= high ? m - high : 0);
  return {first, std::max(first, std::lower_bound(first, rare_.positions.end(), std::min(m, m - low + 1)))};
}

// Marks G(r) ^ G(m - r) for the rare r whose partner m - r lies in [low, high).
template <class T, class Marks>
inline void SparseKernel::mark_rare_pairs(const ValueVector<T>& g, const SplitMove& move, std::uint64_t m,
                                          std::uint64_t low, std::uint64_t high, Marks& marks) const {
  const auto [first, last] = rare_partnered(m, low, high);
  mark_pairs(g, move, m, first, last, marks);
}

// The rare positions of a group's pairs (GroupRare).
inline SparseKernel::GroupRare SparseKernel::group_rare(std::uint64_t m_lo, std::uint64_t heaps, std::uint64_t low,
                                                        std::uint64_t high) const {
  const std::uint64_t m_hi = m_lo + heaps - 1;
  GroupRare rare;
  rare.low_first = rare_partnered(m_lo, 0, high).first;
  rare.every_first = rare_partnered(m_hi, 0, high).first;
  rare.every_last = std::max(rare.every_first, rare_partnered(m_lo, low, high).second);
  rare.high_last = std::max(rare.every_last, rare_partnered(m_hi, low, high).second);
  return rare;
}

// Marks heap m's pairs with the rare r at its group's edges (group_rare) whose partner lies in
// [low, high): a test for each, where finding the bounds heap by heap took two binary searches.
template <class T, class Marks>
inline void SparseKernel::mark_edge_pairs(const ValueVector<T>& g, const SplitMove& move, std::uint64_t m,
                                          std::uint64_t low, std::uint64_t high, const GroupRare& rare,
                                          Marks& marks) const {
  auto mark = [&](RareIt from, RareIt to) {
    for (RareIt r = from; r != to; ++r)
      if (*r + high > m && *r + low <= m && *r < m && !(move.unequal && 2 * *r == m))
        marks.insert(
            static_cast<Value>(rare_.values[static_cast<std::size_t>(r - rare_.positions.begin())] ^ g[m - *r]));
  };
  mark(rare.low_first, rare.every_first);
  mark(rare.every_last, rare.high_last);
}

// Marks G(r) ^ G(m - r) for the rare r in [first, last), all below m. Called for every heap of
// a group, a few pairs each: kept inline (as a call, 0.167 took 2% more instructions).
template <class T, class Marks>
inline void SparseKernel::mark_pairs(const ValueVector<T>& g, const SplitMove& move, std::uint64_t m,
                                     RareIt first, RareIt last, Marks& marks) const {
  auto mark = [&](RareIt from, RareIt to) {
    const Value* part = rare_.values.data() + (from - rare_.positions.begin());
    if constexpr (std::is_same_v<Marks, ValueSet>)
      if (rare_.bound <= kOneWordValues) {
        WordMarks word;
        for (RareIt r = from; r != to; ++r, ++part) word.insert(static_cast<Value>(*part ^ g[m - *r]));
        marks.insert_below_64(word.bits);
        return;
      }
    if constexpr (std::is_same_v<Marks, ValueMarks>) {
      marks.insert_each(0, static_cast<std::uint64_t>(to - from),
                        [&](std::uint64_t i) { return part[i] ^ g[m - from[i]]; });
      return;
    }
    for (RareIt r = from; r != to; ++r, ++part) marks.insert(static_cast<Value>(*part ^ g[m - *r]));
  };
  if (move.unequal && m % 2 == 0) {  // the split (m/2, m/2) is not a move
    auto half = std::lower_bound(first, last, m / 2);
    mark(first, half);
    if (half != last && *half == m / 2) ++half;
    mark(half, last);
  } else {
    mark(first, last);
  }
}

}  // namespace sgx
