#pragma once
// Marking the pairs of a group of consecutive heaps as bits, when every value lies below 64.
//
// The sparse kernel pairs a part with the heaps of a group (pair_marking.cpp): a rare position,
// or a probe part, meets the partners of consecutive heaps in consecutive places. Where values
// need more than six bits, each pair's value is a store into the heap's row of byte marks. Below
// 64 a heap's whole set of values is one 64-bit word, so the values of 64 heaps are eight vectors
// of words held in registers over all the group's pairs: a pair costs a fraction of an
// instruction instead of a store. Private to the library.

#include <cstdint>
#include <vector>

namespace sgx {

// Heaps of a group marked at once: one 64-bit word each.
inline constexpr int kBitHeaps = 64;

// One part's pairs with a group: heap j takes the value part ^ partners[j], except heap skip
// (its split would have equal parts; kBitHeaps or more skips none).
struct GroupPair {
  const std::uint8_t* partners;
  std::uint8_t part;
  std::uint8_t skip;
};

// Whether mark_pair_bits runs here (vector_path() is Avx512); where it does not, the kernel marks
// bytes.
bool can_mark_pair_bits();

// ORs into bits[j], for each heap j < heaps (at most kBitHeaps), the bit of each of its pairs'
// values v with 64 word <= v < 64 (word + 1) (bit v - 64 word), word < 4; values elsewhere are
// left out. Reads partners[j] only for j < heaps.
void mark_pair_bits(const std::vector<GroupPair>& pairs, std::uint64_t heaps, std::uint64_t* bits,
                    unsigned word = 0);

}  // namespace sgx
