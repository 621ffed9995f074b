#pragma once
// Screening the rare pairs of a group of consecutive heaps against a few candidate values each.
//
// The sparse kernel pairs every rare position r with the heaps of a group (kernel_sparse.cpp).
// It needs from those pairs only the least common value none of them gives; after the first
// few hundred pairs have been marked, that value is nearly always among the few least values
// still unseen. So the rest of the pairs are only compared with those candidates, 64 heaps at a
// time in vector registers, where marking costs a store per pair. Private to the library.

#include <cstdint>

#include "sgx/sequence.hpp"

namespace sgx {

// Heaps screened at once, and candidate values per heap. 12 candidates keep every running minimum
// and candidate in a vector register (16 took 2 candidates from memory each pair) and, with the
// adaptive count of pairs marked first, fall back to marking about as often (7% of the heaps of
// Grundy's game and 0.6 to 2^22, against 6% and 10% with 16): best of 4 or 5
// alternating runs against 16, one thread to 2^21, Grundy's game 1.28 -> 1.26 s and 0.6 1.81 ->
// 1.64 s; two threads to 2^24, 7.03 -> 6.73 s and 8.52 -> 8.03 s. 8, 10 and 24 were slower, 14
// no faster.
inline constexpr int kScreenHeaps = 64;
inline constexpr int kScreenSlots = 12;

// Each heap's candidates: candidates[k][j] is heap j's candidate k (unused slots repeat one).
template <class T>
struct ScreenCandidates {
  alignas(64) T values[kScreenSlots][kScreenHeaps];
};

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
