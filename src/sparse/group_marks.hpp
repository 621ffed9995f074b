#pragma once
// The value marks of a group of consecutive heaps, one row per heap, as the sparse kernel fills
// them (pair_marking.cpp): a part's pairs with every heap of the group, then each row moved into
// the heap's known set. Private to the library.

#include <algorithm>
#include <cstdint>
#include <vector>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "sparse/pair_bits.hpp"
#include "base/tuning.hpp"
#include "kernels/value_set.hpp"

namespace sgx {

static_assert(tuning::kSparseGroup <= kBitHeaps, "a group's pairs are marked as bits in one go");

// Values below 64 marked as the bits of one word: a local one stays in a register, where
// inserting into a ValueSet loads and stores its word for every value, each waiting for the one
// before.
struct WordMarks {
  std::uint64_t bits = 0;
  void insert(Value v) { bits |= std::uint64_t{1} << v; }
};

// One row of value marks per heap of a group, side by side; with values below 64 (and
// can_mark_pair_bits), one word of bits per heap instead, and a part's pairs with the whole group
// listed as they come and marked when the rows are read (pair_bits.hpp).
class GroupMarks {
 public:
  // Rows for heaps heaps, each holding values 0..bound; as_bits: one-byte values below 64, kept as
  // bits (marks_as_bits). The rows are clear: move_row_into leaves them so.
  void prepare(std::uint64_t heaps, std::uint64_t bound, bool as_bits) {
    stride_ = ValueMarks::bytes_for(bound);
    if (bytes_.size() < heaps * stride_) bytes_.assign(heaps * stride_, 0);
    heaps_ = heaps;
    as_bits_ = as_bits;
    pairs_.clear();
  }
  // Hands mark (a callable taking marks with insert(Value)) the marks of heap j of the group.
  template <class F>
  void mark_heap(std::uint64_t j, F&& mark) {
    if (as_bits_) {
      WordMarks word;
      mark(word);
      bits_[j] |= word.bits;
    } else {
      Row row{bytes_.data() + j * stride_};
      mark(row);
    }
  }
  // Marks part ^ partners[j] in row j, for every j < heaps (the group's heaps) but skip: the
  // pairs of one part with the consecutive partners of a group's heaps. The XOR is vectorised
  // into a row of values, then each is a plain store; as bits, the part is only listed.
  template <class T>
  void mark_pair_values(T part, const T* partners, std::uint64_t heaps, std::uint64_t skip) {
    if constexpr (sizeof(T) == 1)
      if (as_bits_) return list_pair(part, partners, skip);
    // The stride in a local: read from the member, it was loaded again after every store (a byte
    // store may alias it).
    const std::uint64_t stride = stride_;
    std::uint8_t* base = bytes_.data();
#ifdef __SSE2__
    if (heaps % (16 / sizeof(T)) == 0) {  // whole vectors: a group, or a part of one
      // A skipped heap (a split into equal parts, one rare position of a group) is tested for; else
      // the rows' stride for the bounds of one- and two-byte values is known at compile time: each
      // store's offset is then a constant, and a value costs its extraction and its store. Grundy's
      // game to 2^23, one thread: the rare pairs with every heap 14.5% -> 9.8% of the time (perf);
      // the probe pairs, bound by their stores, level.
      if (skip < heaps) return mark_whole_group<0, true>(base, stride, heaps, part, partners, skip);
      switch (stride) {
        case ValueMarks::bytes_for(128): return mark_whole_group<ValueMarks::bytes_for(128)>(base, stride, heaps, part, partners);
        case ValueMarks::bytes_for(256): return mark_whole_group<ValueMarks::bytes_for(256)>(base, stride, heaps, part, partners);
        case ValueMarks::bytes_for(512): return mark_whole_group<ValueMarks::bytes_for(512)>(base, stride, heaps, part, partners);
        case ValueMarks::bytes_for(1024): return mark_whole_group<ValueMarks::bytes_for(1024)>(base, stride, heaps, part, partners);
        default: return mark_whole_group<0>(base, stride, heaps, part, partners);
      }
    }
#endif
    for (std::uint64_t j = 0; j < heaps; ++j, base += stride)
      if (j != skip) base[static_cast<T>(part ^ partners[j])] = 1;
  }
#ifdef __SSE2__
  // mark_pair_values for heaps heaps (a multiple of a 16-byte vector's lanes), but skip where
  // Skips: rows kStride apart (or stride, where kStride is 0). The values stay in registers, a word
  // of them at a time. Written to the stack and read back between the stores, a read waited on
  // them where the addresses shared their last 12 bits, which moves with the layout of the code
  // and the stack: the probe pairs of Grundy's game to 2^22 took 2.5 times as long in a build
  // that changed another function.
  template <std::uint64_t kStride, bool Skips = false, class T>
  static void mark_whole_group(std::uint8_t* base, std::uint64_t stride, std::uint64_t heaps, T part,
                               const T* partners, std::uint64_t skip = 0) {
    constexpr std::uint64_t kPerVector = 16 / sizeof(T), kPerWord = 8 / sizeof(T);
    constexpr std::uint64_t kMask = sizeof(T) == 1 ? 0xff : 0xffff;
    const std::uint64_t row = kStride != 0 ? kStride : stride;
    const __m128i parts =
        sizeof(T) == 1 ? _mm_set1_epi8(static_cast<char>(part)) : _mm_set1_epi16(static_cast<short>(part));
#pragma GCC unroll 8
    for (std::uint64_t j = 0; j < heaps; j += kPerVector) {
      const __m128i vector = _mm_xor_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(partners + j)), parts);
      std::uint64_t low = static_cast<std::uint64_t>(_mm_cvtsi128_si64(vector));
      std::uint64_t high = static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(vector, vector)));
      std::uint8_t* rows = base + j * row;
#pragma GCC unroll 8
      for (std::uint64_t lane = 0; lane < kPerWord; ++lane, low >>= 8 * sizeof(T))
        if (!Skips || j + lane != skip) rows[lane * row + (low & kMask)] = 1;
      rows += kPerWord * row;
#pragma GCC unroll 8
      for (std::uint64_t lane = 0; lane < kPerWord; ++lane, high >>= 8 * sizeof(T))
        if (!Skips || j + kPerWord + lane != skip) rows[lane * row + (high & kMask)] = 1;
    }
  }
#endif
  // Kept out of line: inlined into the marking loops, it made Grundy's game (values past 64, so
  // marked as bytes) 22% slower (one thread to 2^21, 2.77 s against 2.27 s).
  [[gnu::noinline]] void list_pair(std::uint8_t part, const std::uint8_t* partners, std::uint64_t skip) {
    pairs_.push_back(GroupPair{partners, part, static_cast<std::uint8_t>(std::min<std::uint64_t>(skip, kBitHeaps))});
  }
  // Adds row j's marks to set and clears the row.
  void move_row_into(std::uint64_t j, ValueSet& set) {
    if (!as_bits_) return ValueMarks::move_marks_into(bytes_.data() + j * stride_, stride_, set);
    if (!pairs_.empty()) {
      mark_pair_bits(pairs_, heaps_, bits_);
      pairs_.clear();
    }
    set.insert_below_64(bits_[j]);
    bits_[j] = 0;
  }

 private:
  struct Row {
    std::uint8_t* bytes;
    void insert(Value v) { bytes[v] = 1; }
  };

  std::uint64_t stride_ = 0;
  std::vector<std::uint8_t> bytes_;
  std::uint64_t heaps_ = 0;
  bool as_bits_ = false;
  std::vector<GroupPair> pairs_;
  std::uint64_t bits_[kBitHeaps] = {};
};

}  // namespace sgx
