#pragma once
// Sets of small non-negative values: the "seen" set of one mex. Private to the library.
//   ValueSet    one bit per value (64-bit words): fast to search, merge and compare
//   ValueMarks  one byte per value: marking is a plain store with no read-modify-write, so
//               the hot loops that list option values run at one value per cycle; the marks
//               are then folded into a ValueSet once per heap

#include <algorithm>
#include <bit>
#include <cassert>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "sgx/sequence.hpp"

namespace sgx {

// The number of bits set: std::popcount where the POPCNT instruction may be used, else a few
// shifts and adds. Without POPCNT, std::popcount is a library call, slower than these, and the
// kernels count bits for every heap.
inline std::uint64_t count_bits(std::uint64_t x) {
#ifdef __POPCNT__
  return static_cast<std::uint64_t>(std::popcount(x));
#else
  x -= (x >> 1) & 0x5555555555555555ull;
  x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
  x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
  return (x * 0x0101010101010101ull) >> 56;
#endif
}

// Values below this fit the bits of one 64-bit word (ValueSet::insert_below_64).
inline constexpr Value kOneWordValues = 64;

class ValueSet {
 public:
  // Holds values 0..bound (inclusive: the mex of values below bound can be bound itself).
  explicit ValueSet(std::uint64_t bound = 64) { reset(bound); }

  void reset(std::uint64_t bound) { words_.assign(bound / 64 + 1, 0); }
  void clear() { std::fill(words_.begin(), words_.end(), 0); }

  // Adds the values below kOneWordValues whose bits are set in bits.
  void insert_below_64(std::uint64_t bits) { words_[0] |= bits; }
  // Every value must lie within the bound the set was made for (checked in Debug builds).
  void insert(Value v) {
    assert(v / 64 < words_.size());
    words_[v >> 6] |= std::uint64_t{1} << (v & 63);
  }
  bool contains(Value v) const {
    assert(v / 64 < words_.size());
    return (words_[v >> 6] >> (v & 63)) & 1;
  }
  void erase(Value v) {
    assert(v / 64 < words_.size());
    words_[v >> 6] &= ~(std::uint64_t{1} << (v & 63));
  }

  // The least value not in the set (the mex).
  Value first_missing() const {
    for (std::size_t w = 0; w < words_.size(); ++w)
      if (~words_[w]) return static_cast<Value>(w * 64 + std::countr_zero(~words_[w]));
    return static_cast<Value>(words_.size() * 64);
  }
  // The least value v not in the set with the bit of v set in pattern (a set of the same size);
  // returns limit when there is none below limit.
  Value first_missing_of(const ValueSet& pattern, Value limit) const {
    for (std::size_t w = 0; w < words_.size() && w * 64 < limit; ++w)
      if (std::uint64_t free = ~words_[w] & pattern.words_[w]) {
        Value v = static_cast<Value>(w * 64 + std::countr_zero(free));
        return v < limit ? v : limit;
      }
    return limit;
  }

  // Calls f(v) for each value v in [from, limit) not in the set with the bit of v set in pattern,
  // in increasing order, until f returns false.
  template <class F>
  void for_each_missing_of(const ValueSet& pattern, Value from, Value limit, F&& f) const {
    std::uint64_t below_from = (std::uint64_t{1} << (from % 64)) - 1;  // bits of the first word skipped
    for (std::size_t w = from / 64; w < words_.size() && w * 64 < limit; ++w, below_from = 0)
      for (std::uint64_t free = ~words_[w] & pattern.words_[w] & ~below_from; free; free &= free - 1) {
        const auto v = static_cast<Value>(w * 64 + std::countr_zero(free));
        if (v >= limit || !f(v)) return;
      }
  }
  template <class F>
  void for_each_missing_of(const ValueSet& pattern, Value limit, F&& f) const {
    for_each_missing_of(pattern, 0, limit, std::forward<F>(f));
  }

  // Calls f(v) for each value v below limit not in the set, in increasing order, until f returns
  // false.
  template <class F>
  void for_each_missing(Value limit, F&& f) const {
    for (std::size_t w = 0; w < words_.size() && w * 64 < limit; ++w)
      for (std::uint64_t free = ~words_[w]; free; free &= free - 1) {
        const auto v = static_cast<Value>(w * 64 + std::countr_zero(free));
        if (v >= limit || !f(v)) return;
      }
  }

  // The least value in the set, or none_value when it is empty.
  Value first_present(Value none_value) const {
    for (std::size_t w = 0; w < words_.size(); ++w)
      if (words_[w]) return static_cast<Value>(w * 64 + std::countr_zero(words_[w]));
    return none_value;
  }

  // The greatest value in the set, or none_value when it is empty.
  Value last_present(Value none_value) const {
    for (std::size_t w = words_.size(); w-- > 0;)
      if (words_[w]) return static_cast<Value>(w * 64 + 63 - std::countl_zero(words_[w]));
    return none_value;
  }

  // The value with k values of the set below it (k = 0: the least), or none_value when the set
  // holds at most k values.
  Value nth_present(std::uint64_t k, Value none_value) const {
    for (std::size_t w = 0; w < words_.size(); ++w) {
      std::uint64_t bits = words_[w];
      const std::uint64_t here = count_bits(bits);
      if (k >= here) {
        k -= here;
        continue;
      }
      for (; k > 0; --k) bits &= bits - 1;
      return static_cast<Value>(w * 64 + std::countr_zero(bits));
    }
    return none_value;
  }

  // Whether the set holds a value at or above v.
  bool holds_from(Value v) const {
    for (std::size_t w = v / 64; w < words_.size(); ++w)
      if (w == v / 64 ? words_[w] >> (v % 64) : words_[w]) return true;
    return false;
  }

  // Becomes a copy of other, which may be smaller (values it cannot hold are absent).
  void assign(const ValueSet& other) {
    std::size_t common = std::min(words_.size(), other.words_.size());
    std::copy(other.words_.begin(), other.words_.begin() + static_cast<std::ptrdiff_t>(common), words_.begin());
    std::fill(words_.begin() + static_cast<std::ptrdiff_t>(common), words_.end(), 0);
  }

  // Becomes the set of values below limit that are in neither a nor b (all three of one size);
  // returns how many there are.
  std::uint64_t assign_missing_below(const ValueSet& a, const ValueSet& b, Value limit) {
    std::uint64_t count = 0;
    for (std::size_t w = 0; w < words_.size(); ++w) {
      std::uint64_t free = 0;
      if (w * 64 < limit) {
        free = ~a.words_[w] & ~b.words_[w];
        if (limit - w * 64 < 64) free &= (std::uint64_t{1} << (limit - w * 64)) - 1;
      }
      words_[w] = free;
      count += count_bits(free);
    }
    return count;
  }
  // The same with one set: the values below limit not in present.
  std::uint64_t assign_missing_below(const ValueSet& present, Value limit) {
    return assign_missing_below(present, present, limit);
  }

  // The least value in neither this set nor pattern (both of one size); limit when there is none
  // below limit.
  Value first_missing_outside(const ValueSet& pattern, Value limit) const {
    for (std::size_t w = 0; w < words_.size() && w * 64 < limit; ++w)
      if (std::uint64_t free = ~words_[w] & ~pattern.words_[w]) {
        const auto v = static_cast<Value>(w * 64 + std::countr_zero(free));
        return v < limit ? v : limit;
      }
    return limit;
  }

  // Removes every value of other (a set of the same size); returns how many values are left.
  std::uint64_t remove_all(const ValueSet& other) {
    std::uint64_t left = 0;
    for (std::size_t w = 0; w < words_.size(); ++w)
      left += count_bits(words_[w] &= ~other.words_[w]);
    return left;
  }

  // Calls f(v) for each value v in the set, in increasing order, until f returns false.
  template <class F>
  void for_each(F&& f) const {
    for (std::size_t w = 0; w < words_.size(); ++w)
      for (std::uint64_t bits = words_[w]; bits; bits &= bits - 1)
        if (!f(static_cast<Value>(w * 64 + std::countr_zero(bits)))) return;
  }

  void merge(const ValueSet& other) {
    for (std::size_t w = 0; w < words_.size(); ++w) words_[w] |= other.words_[w];
  }

  std::uint64_t* data() { return words_.data(); }
  const std::uint64_t* data() const { return words_.data(); }
  std::size_t word_count() const { return words_.size(); }

 private:
  std::vector<std::uint64_t> words_;
};

class ValueMarks {
 public:
  explicit ValueMarks(std::uint64_t bound = 64) { reset(bound); }

  // Holds values 0..bound; every mark cleared.
  void reset(std::uint64_t bound) { bytes_.assign(bytes_for(bound), 0); }
  bool holds(std::uint64_t bound) const { return bytes_.size() > bound; }

  void insert(Value v) {
    assert(v < bytes_.size());
    bytes_[v] = 1;
  }
  // insert(), saying whether v is new.
  bool insert_new(Value v) {
    assert(v < bytes_.size());
    const bool fresh = bytes_[v] == 0;
    bytes_[v] = 1;
    return fresh;
  }
  std::uint8_t* data() { return bytes_.data(); }
  // Marks value_of(i) for each i in [first, last). The stores go through a local pointer: a byte
  // store may alias the marks' own pointer, which was then loaded again after every store.
  template <class ValueOf>
  void insert_each(std::uint64_t first, std::uint64_t last, ValueOf&& value_of) {
    std::uint8_t* bytes = bytes_.data();
    for (std::uint64_t i = first; i < last; ++i) bytes[value_of(i)] = 1;
  }

  // The least value not marked.
  Value first_missing() const {
    const auto* p = static_cast<const std::uint8_t*>(std::memchr(bytes_.data(), 0, bytes_.size()));
    return p ? static_cast<Value>(p - bytes_.data()) : static_cast<Value>(bytes_.size());
  }

  void clear() { std::fill(bytes_.begin(), bytes_.end(), 0); }

  // Adds every marked value to set (which must hold as many values) and clears the marks.
  void move_into(ValueSet& set) { move_marks_into(bytes_.data(), bytes_.size(), set); }

  // The same for marks kept elsewhere: count bytes (a multiple of 64), each 0 or 1.
  static void move_marks_into(std::uint8_t* marks, std::size_t count, ValueSet& set) {
    assert(count % 64 == 0);
    std::uint64_t* words = set.data();
    const std::size_t word_count = std::min(count / 64, set.word_count());
    // The marks may hold more values than the set, but none may be marked there: it would be lost.
    assert(std::all_of(marks + word_count * 64, marks + count, [](std::uint8_t mark) { return mark == 0; }));
    for (std::size_t w = 0; w < word_count; ++w) {
      std::uint64_t bits = 0;
#ifdef __SSE2__
      // Sixteen marks at a time: each byte's low bit shifted to its top, where movemask reads it.
      for (int group = 0; group < 4; ++group) {
        const __m128i sixteen = _mm_loadu_si128(reinterpret_cast<const __m128i*>(marks + w * 64 + group * 16));
        bits |= static_cast<std::uint64_t>(static_cast<std::uint16_t>(_mm_movemask_epi8(_mm_slli_epi16(sixteen, 7))))
                << (group * 16);
      }
#else
      for (int group = 0; group < 8; ++group) {
        std::uint64_t eight;  // eight marks, each byte 0 or 1
        std::memcpy(&eight, marks + w * 64 + group * 8, 8);
        // The multiply gathers the low bit of each byte into the top byte, first byte lowest.
        bits |= ((eight * 0x0102040810204080ull) >> 56) << (group * 8);
      }
#endif
      words[w] |= bits;
    }
    std::memset(marks, 0, count);
  }

  // Bytes that hold marks for values 0..bound.
  static constexpr std::size_t bytes_for(std::uint64_t bound) { return (bound / 64 + 1) * 64; }

 private:
  std::vector<std::uint8_t> bytes_;
};

// Makes set able to hold values 0..bound.
inline void size_set(ValueSet& set, std::uint64_t bound) {
  if (set.word_count() * 64 <= bound) set.reset(bound);
}

// Makes sets hold at least count sets, the first count of them able to hold values 0..bound.
inline void size_sets(std::vector<ValueSet>& sets, std::uint64_t count, std::uint64_t bound) {
  if (sets.size() < count) sets.resize(count);
  for (std::uint64_t i = 0; i < count; ++i) size_set(sets[i], bound);
}

}  // namespace sgx
