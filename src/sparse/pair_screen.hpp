#pragma once
// Screening the rare pairs of a group of consecutive heaps against a few candidate values each.
//
// The sparse kernel pairs every rare position r with the heaps of a group (pair_marking.cpp).
// It needs from those pairs only the least common value none of them gives; after the first
// few hundred pairs have been marked, that value is nearly always among the few least values
// still unseen. So the rest of the pairs are only compared with those candidates, 64 heaps at a
// time in vector registers, where marking costs a store per pair. Private to the library.

#include <bit>
#include <cstdint>

#include "sgx/sequence.hpp"
#include "base/tuning.hpp"

namespace sgx {

// Heaps screened at once: one bit each in the 64-bit hit masks below, one lane each of a vector
// of 64 bytes. Candidate values per heap: tuning::kScreenSlots (tuning.hpp says why 12).
inline constexpr int kScreenHeaps = 64;
inline constexpr int kScreenSlots = tuning::kScreenSlots;

// A heap's candidates: the least common values that no option known before its turn gives, in
// increasing order.
struct HeapCandidates {
  Value values[kScreenSlots] = {};
  std::uint8_t count = 0;
  std::uint16_t unsure = 0;  // bit k: a rare value below values[k] is not known present
  std::uint16_t given = 0;   // bit k: values[k] is given by pairs compared beforehand
};

// Removes from the lists of heaps[j], j < count, the candidates marked given, keeping the others
// in order with their unsure bits; given is then clear.
void drop_given(HeapCandidates* heaps, std::uint64_t count);

// Each heap's candidates: candidates[k][j] is heap j's candidate k (the slots past a heap's list
// hold what its filler chooses; their hits are not read).
template <class T>
struct ScreenCandidates {
  alignas(64) T values[kScreenSlots][kScreenHeaps];
};

// The candidates of heaps[j], j < count (at most kScreenHeaps), laid out for screening: lane j of
// slot k holds heaps[j].values[k] for k < heaps[j].count; every other slot and lane holds the
// largest T, which seldom hits a pair (the hits are then few, and taken bit by bit), and whose hits
// past a heap's count are not read.
void lay_out_candidates(const HeapCandidates* heaps, std::uint64_t count, ScreenCandidates<std::uint8_t>& into);
void lay_out_candidates(const HeapCandidates* heaps, std::uint64_t count, ScreenCandidates<std::uint16_t>& into);

// Calls f(k, j) for each bit j set in hits[k], slot by slot: the hits are few, and a test for
// each heap and slot went either way for about a third of them.
template <class F>
void for_each_hit(const std::uint64_t* hits, F&& f) {
  for (int k = 0; k < kScreenSlots; ++k)
    for (std::uint64_t bits = hits[k]; bits != 0; bits &= bits - 1)
      f(k, static_cast<std::uint64_t>(std::countr_zero(bits)));
}

// Whether screen_rare_pairs runs here (vector_path() is Avx512); where it does not, the kernel
// marks every pair instead.
bool can_screen_pairs();

// For the heaps j < heaps (at most kScreenHeaps) of a group whose split parts sum to m_lo + j,
// and each rare position rare[i] (value rare_values[i]) with i < count, all of whose partners
// m_lo + j - rare[i] are computed values: ORs into hits[k] bit j when rare_values[i] ^
// G(m_lo + j - rare[i]) equals candidates.values[k][j]. With unequal_parts, the heap whose m is
// 2 rare[i] is skipped for that r (its split (r, r) is not a move). T is 8 or 16 bits wide.
void screen_rare_pairs(const std::uint8_t* g, std::uint64_t m_lo, const std::uint64_t* rare, const Value* rare_values,
                       std::uint64_t count, bool unequal_parts, std::uint64_t heaps,
                       const ScreenCandidates<std::uint8_t>& candidates, std::uint64_t* hits);
void screen_rare_pairs(const std::uint16_t* g, std::uint64_t m_lo, const std::uint64_t* rare, const Value* rare_values,
                       std::uint64_t count, bool unequal_parts, std::uint64_t heaps,
                       const ScreenCandidates<std::uint16_t>& candidates, std::uint64_t* hits);

}  // namespace sgx
