#pragma once
// Finding which of a few wanted values occur among the pair values G(x) ^ G(m - x).
//
// The sparse kernel's scan is a coupon collector: it lists pairs until every rare value below
// the candidate has turned up, and most of its pairs go to the last few values. Once only a few
// are missing, testing each pair against them takes a handful of vector compares per vector of
// 32 or 64 pairs, where marking every value costs a store per pair. Private to the library.
//
// Vectors of 64 (AVX-512) or 32 (AVX2) one-byte values, or half as many two-byte ones, are used
// when the processor has them; four-byte values take the portable loop.

#include <cstdint>

#include "base/tuning.hpp"
#include "kernels/value_set.hpp"

namespace sgx {

// At most this many wanted values are searched for at once (tuning.hpp).
inline constexpr int kSearchedValues = tuning::kSearchedValues;
static_assert(kSearchedValues <= 32, "find_pair_values answers in the bits of 32-bit words");

// Which of wanted[0..count-1] (count <= kSearchedValues, distinct) occur as G(x) ^ G(m - x) for
// some x in [from, to]: bit i of the result is set when wanted[i] does. Requires to <= m - to.
std::uint32_t find_pair_values(const std::uint8_t* g, std::uint64_t m, std::uint64_t from, std::uint64_t to,
                               const std::uint8_t* wanted, int count);
std::uint32_t find_pair_values(const std::uint16_t* g, std::uint64_t m, std::uint64_t from, std::uint64_t to,
                               const std::uint16_t* wanted, int count);
std::uint32_t find_pair_values(const std::uint32_t* g, std::uint64_t m, std::uint64_t from, std::uint64_t to,
                               const std::uint32_t* wanted, int count);

// Which of wanted[0..count-1] (count <= kSearchedValues, distinct) occur as
// (parts[x] ^ partners[x]) | holes[x] for some x < lanes: bit i of the result is set when
// wanted[i] does. holes[x] is 0 where lane x is a pair and all ones where it is none, so such a
// lane holds the largest value of T, which must not be wanted. The sparse kernel keeps the values
// of the small rare positions in reverse, so that a heap's pairs with them are lanes against
// its nearest partners, read forwards.
std::uint32_t find_xor_values(const std::uint8_t* parts, const std::uint8_t* partners, const std::uint8_t* holes,
                              std::uint64_t lanes, const std::uint8_t* wanted, int count);
std::uint32_t find_xor_values(const std::uint16_t* parts, const std::uint16_t* partners, const std::uint16_t* holes,
                              std::uint64_t lanes, const std::uint16_t* wanted, int count);
std::uint32_t find_xor_values(const std::uint32_t* parts, const std::uint32_t* partners, const std::uint32_t* holes,
                              std::uint64_t lanes, const std::uint32_t* wanted, int count);

// Moves from wanted to found each value G(x) ^ G(m - x) with x in [from, to] (to <= m - to),
// stopping once left (the number of values in wanted) reaches 0; returns what is left. found
// holds at least the values wanted does. With AVX-512 the pairs' values are looked up in the
// wanted set, which costs the same however many are wanted (one-byte values, and two-byte ones
// when the wanted values span fewer than kLookupValues, wherever they lie); otherwise they are
// compared with kSearchedValues of them at a time (find_pair_values), which pays only for a few
// wanted values.
inline constexpr std::uint64_t kLookupValues = 2048;
std::uint64_t take_pair_values(const std::uint8_t* g, std::uint64_t m, std::uint64_t from, std::uint64_t to,
                               ValueSet& wanted, ValueSet& found, std::uint64_t left);
std::uint64_t take_pair_values(const std::uint16_t* g, std::uint64_t m, std::uint64_t from, std::uint64_t to,
                               ValueSet& wanted, ValueSet& found, std::uint64_t left);
std::uint64_t take_pair_values(const std::uint32_t* g, std::uint64_t m, std::uint64_t from, std::uint64_t to,
                               ValueSet& wanted, ValueSet& found, std::uint64_t left);

// The same for the values parts[x] ^ partners[x] with x < count (a sweep keeps G reversed, so a
// pair's parts both run forwards and no vector needs reversing): the lookup where it applies,
// else a loop.
std::uint64_t take_xor_values(const std::uint8_t* parts, const std::uint8_t* partners, std::uint64_t count,
                              ValueSet& wanted, ValueSet& found, std::uint64_t left);
std::uint64_t take_xor_values(const std::uint16_t* parts, const std::uint16_t* partners, std::uint64_t count,
                              ValueSet& wanted, ValueSet& found, std::uint64_t left);
std::uint64_t take_xor_values(const std::uint32_t* parts, const std::uint32_t* partners, std::uint64_t count,
                              ValueSet& wanted, ValueSet& found, std::uint64_t left);

}  // namespace sgx
