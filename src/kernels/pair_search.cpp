// Three versions, the one vector_path() names used: AVX-512 (64 one-byte or 32 two-byte values at
// a time, with masked loads for the last pairs), AVX2 (32 or 16 at a time, the last pairs one by
// one), and a portable loop for every other case, four-byte values among them. take_pair_values
// adds, with AVX-512, a lookup of each pair's value in the wanted set.

#include "kernels/pair_search.hpp"

#include "kernels/value_set.hpp"
#include "kernels/vector_path.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <type_traits>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define SGX_HAVE_X86_PATHS 1
#endif

namespace sgx {

namespace {

// The wanted values not found yet.
template <class T>
struct Wanted {
  const T* values;
  std::uint32_t all;        // a bit per wanted value
  std::uint32_t found = 0;

  Wanted(const T* wanted, int count) : values(wanted), all(count >= 32 ? ~0u : (1u << count) - 1) {}
  bool done() const { return found == all; }
  // Notes v if it is wanted; returns whether it was newly found.
  bool note(T v) {
    for (std::uint32_t left = all & ~found; left; left &= left - 1) {
      const int i = std::countr_zero(left);
      if (values[i] == v) {
        found |= 1u << i;
        return true;
      }
    }
    return false;
  }
  // The values still wanted, repeated to fill Slots compare slots: a vector of pairs is compared
  // with every slot, so the slots must cover all of them.
  template <int Slots>
  std::array<T, Slots> in_slots() const {
    std::array<T, Slots> slots{};
    const std::uint32_t left = all & ~found;
    std::uint32_t cycle = left;
    for (T& slot : slots) {
      if (cycle == 0) cycle = left;
      slot = values[std::countr_zero(cycle)];
      cycle &= cycle - 1;
    }
    return slots;
  }
  // Notes the pairs (x + i, m - x - i) for each bit i of lanes: the lanes of a vector that held a hit.
  template <class Lanes>
  void note_lanes(const T* g, std::uint64_t m, std::uint64_t x, Lanes lanes) {
    for (; lanes; lanes &= lanes - 1) {
      const auto i = static_cast<std::uint64_t>(std::countr_zero(lanes));
      note(static_cast<T>(g[x + i] ^ g[m - x - i]));
    }
  }
};

template <class T>
std::uint32_t find_portable(const T* g, std::uint64_t m, std::uint64_t from, std::uint64_t to, Wanted<T>& wanted) {
  for (std::uint64_t x = from; x <= to && !wanted.done(); ++x) wanted.note(static_cast<T>(g[x] ^ g[m - x]));
  return wanted.found;
}

// The wanted values in [base, base + 64 * Words) as a table (base a multiple of 64; a lookup's
// values outside are never wanted), from which the lookup takes values; move_taken then moves
// those from wanted to found.
template <std::size_t Words>
struct LookupTable {
  alignas(64) std::uint64_t words[Words];
  std::size_t first_word;  // base / 64

  LookupTable(const ValueSet& wanted, Value base) : first_word(base / 64) {
    const std::size_t end = std::min(first_word + Words, wanted.word_count());
    const std::size_t copied = end > first_word ? end - first_word : 0;
    std::memcpy(words, wanted.data() + first_word, copied * 8);
    std::fill(words + copied, words + Words, 0);
  }
  // Removes the value base + offset (offset below 64 * Words) if it is still in the table,
  // without a branch; returns 1 if it was.
  std::uint64_t take(Value offset) {
    const std::uint64_t word = words[offset >> 6], held = word >> (offset & 63) & 1;
    words[offset >> 6] = word & ~(held << (offset & 63));
    return held;
  }
  void move_taken(ValueSet& wanted, ValueSet& found) const {
    const std::size_t end = std::min({first_word + Words, wanted.word_count(), found.word_count()});
    for (std::size_t w = first_word; w < end; ++w) {
      found.data()[w] |= wanted.data()[w] & ~words[w - first_word];
      wanted.data()[w] = words[w - first_word];
    }
  }
};


// The pairs a lookup goes through, x = from..to, read two ways. MirroredPairs: the partner of x
// is at m - x in g itself, so a vector of partners is loaded forwards and reversed (one more
// permute). ForwardPairs: the partners run forwards in an array of their own (a sweep keeps G
// reversed).
template <class T>
struct MirroredPairs {
  const T* g;
  std::uint64_t m;

  Value value(std::uint64_t x) const { return static_cast<Value>(g[x] ^ g[m - x]); }
#ifdef SGX_HAVE_X86_PATHS
  __attribute__((target("avx512f,avx512bw,avx512vbmi,popcnt"))) __m512i values(std::uint64_t x, __m512i reverse) const;
  // The first count values from x (fewer than a vector); the other lanes hold any values.
  __attribute__((target("avx512f,avx512bw,avx512vbmi,popcnt"))) __m512i values_last(std::uint64_t x,
                                                                                    std::uint64_t count,
                                                                                    __m512i reverse) const;
#endif
};

template <class T>
struct ForwardPairs {
  const T* parts;
  const T* partners;

  Value value(std::uint64_t x) const { return static_cast<Value>(parts[x] ^ partners[x]); }
#ifdef SGX_HAVE_X86_PATHS
  __attribute__((target("avx512f,avx512bw,avx512vbmi,popcnt"))) __m512i values(std::uint64_t x,
                                                                               __m512i /*reverse*/) const {
    return _mm512_xor_si512(_mm512_loadu_si512(parts + x), _mm512_loadu_si512(partners + x));
  }
  __attribute__((target("avx512f,avx512bw,avx512vbmi,popcnt"))) __m512i values_last(std::uint64_t x,
                                                                                    std::uint64_t count,
                                                                                    __m512i /*reverse*/) const {
    if constexpr (sizeof(T) == 1) {
      const __mmask64 loaded = (__mmask64{1} << count) - 1;
      return _mm512_xor_si512(_mm512_maskz_loadu_epi8(loaded, parts + x),
                              _mm512_maskz_loadu_epi8(loaded, partners + x));
    } else {
      const __mmask32 loaded = (__mmask32{1} << count) - 1;
      return _mm512_xor_si512(_mm512_maskz_loadu_epi16(loaded, parts + x),
                              _mm512_maskz_loadu_epi16(loaded, partners + x));
    }
  }
#endif
};

template <class Pairs>
std::uint64_t take_portable(const Pairs& pairs, std::uint64_t from, std::uint64_t to, ValueSet& wanted,
                            ValueSet& found, std::uint64_t left) {
  for (std::uint64_t x = from; x <= to && left > 0; ++x) {
    const Value v = pairs.value(x);
    if (!wanted.contains(v)) continue;
    wanted.erase(v);
    found.insert(v);
    --left;
  }
  return left;
}

#ifdef SGX_HAVE_X86_PATHS

// Both vector versions share one plan. The pairs x, x + 1, ... take their partners m - x,
// m - x - 1, ...: a vector loaded forwards from m - x - (lanes - 1) is reversed to line up with
// the one loaded from x. Each vector of pairs is compared with the values still wanted, Slots of
// them at a time, until a vector holds one; that vector is read value by value and the scan
// returns the x after it, so that the next scan compares with fewer values.

// The reversal is a byte shuffle within each 128-bit half, then the halves swapped; a lane is a
// bit per byte in the compare mask, so a two-byte lane shows twice there, harmlessly.
struct Avx2Vectors {
  static constexpr std::uint64_t kBytes = 32;
  static constexpr bool kScansLastPairs = false;  // left to the portable loop

  template <class T, int Slots>
  __attribute__((target("avx2"))) static std::uint64_t scan(const T* g, std::uint64_t m, std::uint64_t x,
                                                             std::uint64_t to, Wanted<T>& wanted) {
    static_assert(sizeof(T) == 1 || sizeof(T) == 2);
    constexpr std::uint64_t kLanes = kBytes / sizeof(T);
    const __m256i reverse_in_halves =
        sizeof(T) == 1 ? _mm256_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11,
                                          10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
                       : _mm256_setr_epi8(14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1, 14, 15, 12, 13, 10,
                                          11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1);
    const std::array<T, Slots> values = wanted.template in_slots<Slots>();
    __m256i targets[Slots];
    for (int slot = 0; slot < Slots; ++slot)
      targets[slot] = sizeof(T) == 1 ? _mm256_set1_epi8(static_cast<char>(values[slot]))
                                     : _mm256_set1_epi16(static_cast<short>(values[slot]));
    for (; x + kLanes - 1 <= to; x += kLanes) {
      const __m256i left_parts = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(g + x));
      __m256i right_parts = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(g + (m - x - (kLanes - 1))));
      right_parts = _mm256_permute4x64_epi64(_mm256_shuffle_epi8(right_parts, reverse_in_halves), 0x4E);
      const __m256i v = _mm256_xor_si256(left_parts, right_parts);
      __m256i hit = _mm256_setzero_si256();
      for (int slot = 0; slot < Slots; ++slot)
        hit = _mm256_or_si256(hit, sizeof(T) == 1 ? _mm256_cmpeq_epi8(v, targets[slot])
                                                  : _mm256_cmpeq_epi16(v, targets[slot]));
      if (const auto bytes = static_cast<std::uint32_t>(_mm256_movemask_epi8(hit))) {
        for (std::uint32_t lanes = bytes; lanes; lanes &= lanes - 1) {
          const std::uint64_t i = static_cast<std::uint64_t>(std::countr_zero(lanes)) / sizeof(T);
          wanted.note(static_cast<T>(g[x + i] ^ g[m - x - i]));
        }
        return x + kLanes;
      }
    }
    return x;
  }
};

// The reversal is one lane permute (vpermb for bytes, which needs VBMI: processors with AVX-512
// BW but not VBMI keep the AVX2 version). Compares land in mask registers, a bit per lane. The
// last pairs, fewer than a vector, take one more vector through masked loads
// (MirroredPairs::values_last), because ranges seldom end on a vector's edge and up to 63 pairs
// one by one cost more than the vector saves.
struct Avx512Vectors {
  static constexpr std::uint64_t kBytes = 64;
  static constexpr bool kScansLastPairs = true;  // by the masked vector

  template <class T>
  using Lanes = std::conditional_t<sizeof(T) == 1, std::uint64_t, std::uint32_t>;

  template <class T>
  __attribute__((target("avx512f,avx512bw,avx512vbmi,popcnt"))) static __m512i reversed_lane_indices() {
    alignas(64) static constexpr auto kIndices = [] {
      constexpr std::size_t kLanes = kBytes / sizeof(T);
      std::array<T, kLanes> indices{};
      for (std::size_t i = 0; i < kLanes; ++i) indices[i] = static_cast<T>(kLanes - 1 - i);
      return indices;
    }();
    return _mm512_load_si512(kIndices.data());
  }

  // The byte permute is written with a mask that keeps every lane, the same instruction: GCC 12
  // warns (maybe-uninitialized) inside the unmasked intrinsic.
  template <class T>
  __attribute__((target("avx512f,avx512bw,avx512vbmi,popcnt"))) static __m512i permute(__m512i indices, __m512i v) {
    return sizeof(T) == 1 ? _mm512_maskz_permutexvar_epi8(~__mmask64{0}, indices, v)
                          : _mm512_permutexvar_epi16(indices, v);
  }

  // Lanes of v equal to any target, within the lanes in `within`.
  template <class T, int Slots>
  __attribute__((target("avx512f,avx512bw,avx512vbmi,popcnt"))) static Lanes<T> matching_lanes(
      __m512i v, const __m512i (&targets)[Slots], Lanes<T> within) {
    Lanes<T> lanes = 0;
    for (int slot = 0; slot < Slots; ++slot) {
      if constexpr (sizeof(T) == 1) lanes |= _mm512_cmpeq_epi8_mask(v, targets[slot]);
      else lanes |= _mm512_cmpeq_epi16_mask(v, targets[slot]);
    }
    return lanes & within;
  }

  template <class T, int Slots>
  __attribute__((target("avx512f,avx512bw,avx512vbmi,popcnt"))) static std::uint64_t scan(const T* g, std::uint64_t m,
                                                                                          std::uint64_t x,
                                                                                          std::uint64_t to,
                                                                                          Wanted<T>& wanted) {
    static_assert(sizeof(T) == 1 || sizeof(T) == 2);
    constexpr std::uint64_t kLanes = kBytes / sizeof(T);
    constexpr Lanes<T> kAllLanes = ~Lanes<T>{0};
    const __m512i reverse = reversed_lane_indices<T>();
    const std::array<T, Slots> values = wanted.template in_slots<Slots>();
    __m512i targets[Slots];
    for (int slot = 0; slot < Slots; ++slot)
      targets[slot] = sizeof(T) == 1 ? _mm512_set1_epi8(static_cast<char>(values[slot]))
                                     : _mm512_set1_epi16(static_cast<short>(values[slot]));
    for (; x + kLanes - 1 <= to; x += kLanes) {
      const __m512i left_parts = _mm512_loadu_si512(g + x);
      const __m512i right_parts = permute<T>(reverse, _mm512_loadu_si512(g + (m - x - (kLanes - 1))));
      if (const Lanes<T> lanes = matching_lanes<T>(_mm512_xor_si512(left_parts, right_parts), targets, kAllLanes)) {
        wanted.note_lanes(g, m, x, lanes);
        return x + kLanes;
      }
    }
    if (x > to) return x;
    const std::uint64_t count = to - x + 1;
    const __m512i last = MirroredPairs<T>{g, m}.values_last(x, count, reverse);
    if (const Lanes<T> lanes = matching_lanes<T>(last, targets, (Lanes<T>{1} << count) - 1))
      wanted.note_lanes(g, m, x, lanes);
    return to + 1;
  }
};

// Fewer values wanted, fewer compares per vector.
template <class Vectors, class T>
__attribute__((target("popcnt"))) std::uint32_t find_vectorised(const T* g, std::uint64_t m, std::uint64_t from,
                                                                std::uint64_t to, Wanted<T>& wanted) {
  constexpr std::uint64_t kLanes = Vectors::kBytes / sizeof(T);
  constexpr std::uint64_t kScannedPairsAtLeast = Vectors::kScansLastPairs ? 1 : kLanes;
  std::uint64_t x = from;
  while (!wanted.done() && x + kScannedPairsAtLeast - 1 <= to) {
    const int left = std::popcount(wanted.all & ~wanted.found);
    if (left <= 2) x = Vectors::template scan<T, 2>(g, m, x, to, wanted);
    else if (left <= 4) x = Vectors::template scan<T, 4>(g, m, x, to, wanted);
    else if (left <= 8) x = Vectors::template scan<T, 8>(g, m, x, to, wanted);
    else x = Vectors::template scan<T, kSearchedValues>(g, m, x, to, wanted);
  }
  return find_portable(g, m, x, to, wanted);
}

// Looking the pairs' values up in the set of wanted ones instead (take_pair_values): a cost per
// vector that does not grow with the number of values wanted. The set is held in registers
// (ByteLookup, WordLookup); a copy in memory (LookupTable) is the one values are taken from.
//
// The vectors are taken in runs of 64, and one that holds a wanted value is only noted as the
// run goes, by a bit: a branch on it would be mispredicted about as often as it is taken, and
// each miss throws away the vectors in flight (taking a value cost about 80 cycles that way,
// measured on Treblecross heaps near 2^16, where a lookup takes about a hundred values). After
// the run, take_noted goes through the noted vectors: each value is taken from the copy without
// a branch (a value noted twice is taken once), and the registers are reloaded from it.

// A vector of pairs' values: the partners loaded forwards and reversed.
template <class T>
__attribute__((target("avx512f,avx512bw,avx512vbmi,popcnt"))) __m512i MirroredPairs<T>::values(std::uint64_t x,
                                                                                               __m512i reverse) const {
  constexpr std::uint64_t kLanes = 64 / sizeof(T);
  const __m512i partners = Avx512Vectors::permute<T>(reverse, _mm512_loadu_si512(g + (m - x - (kLanes - 1))));
  return _mm512_xor_si512(_mm512_loadu_si512(g + x), partners);
}

// The partners of the count pairs from x are loaded forwards from m - (x + count - 1), so no
// load starts before g, and the permute's indices are shifted down to reverse only the lanes
// loaded (the lanes past count hold any values: the caller masks them off).
template <class T>
__attribute__((target("avx512f,avx512bw,avx512vbmi,popcnt"))) __m512i MirroredPairs<T>::values_last(
    std::uint64_t x, std::uint64_t count, __m512i reverse) const {
  constexpr std::uint64_t kLanes = 64 / sizeof(T);
  const T* partners_from = g + (m - (x + count - 1));
  if constexpr (sizeof(T) == 1) {
    const __mmask64 loaded = (__mmask64{1} << count) - 1;
    const __m512i indices = _mm512_sub_epi8(reverse, _mm512_set1_epi8(static_cast<char>(kLanes - count)));
    const __m512i partners = Avx512Vectors::permute<T>(indices, _mm512_maskz_loadu_epi8(loaded, partners_from));
    return _mm512_xor_si512(_mm512_maskz_loadu_epi8(loaded, g + x), partners);
  } else {
    const __mmask32 loaded = (__mmask32{1} << count) - 1;
    const __m512i indices = _mm512_sub_epi16(reverse, _mm512_set1_epi16(static_cast<short>(kLanes - count)));
    const __m512i partners = Avx512Vectors::permute<T>(indices, _mm512_maskz_loadu_epi16(loaded, partners_from));
    return _mm512_xor_si512(_mm512_maskz_loadu_epi16(loaded, g + x), partners);
  }
}

// One-byte values: 64 pairs a vector. The byte of the set that holds v is fetched with a byte
// permute indexed by v >> 3, the bit within it by one indexed by v. The index v >> 3 comes from
// a 16-bit shift that leaves a stray bit above it, so the 256-bit set is held twice in the
// 64-byte register.
struct ByteLookup {
  using T = std::uint8_t;
  using Lanes = std::uint64_t;
  static constexpr std::size_t kWords = 4;
  __m512i bytes, bit_of;

  __attribute__((target("avx512f,avx512bw,avx512vbmi,popcnt")))
  ByteLookup(const std::uint64_t* words, Value /*base: 0*/) {
    bit_of = _mm512_set1_epi64(static_cast<long long>(0x8040201008040201ull));  // byte i: 1 << i % 8
    reload(words);
  }
  __attribute__((target("avx512f,avx512bw,avx512vbmi,popcnt"))) void reload(const std::uint64_t* words) {
    bytes = _mm512_maskz_broadcast_i64x4(__mmask8{0xff}, _mm256_load_si256(reinterpret_cast<const __m256i*>(words)));
  }
  // The values of v as offsets from the table's base, which is 0.
  __attribute__((target("avx512f,avx512bw,avx512vbmi,popcnt"))) __m512i offsets(__m512i v) const { return v; }
  // The lanes of offsets (from offsets()) that hold a wanted value.
  __attribute__((target("avx512f,avx512bw,avx512vbmi,popcnt"))) Lanes hits(__m512i v) const {
    const __m512i byte = Avx512Vectors::permute<std::uint8_t>(_mm512_srli_epi16(v, 3), bytes);
    const __m512i bit = Avx512Vectors::permute<std::uint8_t>(v, bit_of);
    return _mm512_test_epi8_mask(byte, bit);
  }
};

// Two-byte values: 32 pairs a vector, the set of values in [base, base + 512 * Tables) in Tables
// 64-byte registers, looked up by the offset d = v - base: the low byte of d >> 3 (bits 3-9 of
// d pick a byte of a pair of registers, bit 10 the pair). The high byte of each lane looks up
// nothing useful and is masked off, as are values outside the table (below base, d wraps round
// past it): none of them is wanted. Shifted: base may be above 0 (a subtraction more a vector;
// without it base is 0 and d is v).
template <int Tables, bool Shifted>
struct WordLookup {
  static_assert(Tables == 2 || Tables == 4);
  static_assert(512 * Tables <= kLookupValues);
  using T = std::uint16_t;
  using Lanes = std::uint32_t;
  static constexpr std::size_t kWords = 8 * Tables;
  __m512i tables[Tables];
  __m512i base, ones, sevens, table_end, second_pair;

  __attribute__((target("avx512f,avx512bw,avx512vbmi,popcnt")))
  WordLookup(const std::uint64_t* words, Value table_base) {
    base = _mm512_set1_epi16(static_cast<short>(table_base));
    ones = _mm512_set1_epi16(1);
    sevens = _mm512_set1_epi16(7);
    table_end = _mm512_set1_epi16(static_cast<short>(512 * Tables));
    second_pair = _mm512_set1_epi8(static_cast<char>(0x80));
    reload(words);
  }
  __attribute__((target("avx512f,avx512bw,avx512vbmi,popcnt"))) void reload(const std::uint64_t* words) {
    for (int t = 0; t < Tables; ++t) tables[t] = _mm512_load_si512(words + 8 * t);
  }
  // The values of v as offsets from the table's base.
  __attribute__((target("avx512f,avx512bw,avx512vbmi,popcnt"))) __m512i offsets(__m512i v) const {
    if constexpr (Shifted) return _mm512_sub_epi16(v, base);
    return v;
  }
  // The lanes of offsets (from offsets()) that hold a wanted value.
  __attribute__((target("avx512f,avx512bw,avx512vbmi,popcnt"))) Lanes hits(__m512i v) const {
    const __m512i index = _mm512_srli_epi16(v, 3);
    __m512i byte = _mm512_permutex2var_epi8(tables[0], index, tables[1]);
    if constexpr (Tables == 4)
      byte = _mm512_mask_blend_epi8(_mm512_test_epi8_mask(index, second_pair), byte,
                                    _mm512_permutex2var_epi8(tables[2], index, tables[3]));
    const __m512i bit = _mm512_sllv_epi16(ones, _mm512_and_si512(v, sevens));  // 1 << v % 8
    const __mmask32 in_table = _mm512_cmplt_epu16_mask(v, table_end);
    return _mm512_mask_test_epi16_mask(in_table, byte, bit);
  }
};

// Takes from table the values of offsets (from Lookup::offsets()) in the lanes of hits.
template <class Lookup>
__attribute__((target("avx512f,avx512bw,avx512vbmi,popcnt"))) std::uint64_t take_lanes(
    __m512i offsets, typename Lookup::Lanes hits, LookupTable<Lookup::kWords>& table) {
  alignas(64) typename Lookup::T values[64 / sizeof(typename Lookup::T)];
  _mm512_store_si512(values, offsets);
  std::uint64_t taken = 0;
  for (; hits; hits &= hits - 1) taken += table.take(values[std::countr_zero(hits)]);
  return taken;
}

// Takes the wanted values of the vectors at from + lanes * i, i each bit of noted, from table
// (the lookup's registers may still hold values taken since they were loaded: each is taken
// once); returns what is left. The lookup is a copy: one passed by reference would keep the
// caller's registers in memory.
template <class Lookup, class Pairs>
__attribute__((target("avx512f,avx512bw,avx512vbmi,popcnt"))) std::uint64_t take_noted(
    const Lookup lookup, const Pairs& pairs, __m512i reverse, std::uint64_t from, std::uint64_t noted,
    LookupTable<Lookup::kWords>& table, std::uint64_t left) {
  constexpr std::uint64_t kLanes = 64 / sizeof(typename Lookup::T);
  for (; noted; noted &= noted - 1) {
    const __m512i v =
        lookup.offsets(pairs.values(from + kLanes * static_cast<std::uint64_t>(std::countr_zero(noted)), reverse));
    left -= take_lanes<Lookup>(v, lookup.hits(v), table);
  }
  return left;
}

// Notes the vectors from x on with a wanted value, at most 64 and up to the last whole one before
// to; returns the bits and moves x past the vectors gone through. FewLeft: a lookup for at most
// kSearchedValues values (the sparse kernel's, which mostly finds them soon) stops once the noted
// vectors have as many lanes with a wanted value as values are left, as they may hold them all.
template <bool FewLeft, class Lookup, class Pairs>
__attribute__((target("avx512f,avx512bw,avx512vbmi,popcnt"))) std::uint64_t note_run(
    const Lookup& lookup, const Pairs& pairs, __m512i reverse, std::uint64_t& x, std::uint64_t to, std::uint64_t left) {
  constexpr std::uint64_t kLanes = 64 / sizeof(typename Lookup::T);
  const std::uint64_t vectors = std::min<std::uint64_t>(64, (to + 1 - x) / kLanes);
  std::uint64_t noted = 0, i = 0;
  if constexpr (FewLeft) {
    for (std::uint64_t lanes_noted = 0; i < vectors && lanes_noted < left; ++i) {
      const auto hits = lookup.hits(lookup.offsets(pairs.values(x + kLanes * i, reverse)));
      noted |= std::uint64_t{hits != 0} << i;
      lanes_noted += static_cast<std::uint64_t>(std::popcount(hits));
    }
  } else {
    for (; i < vectors; ++i)
      noted |= std::uint64_t{lookup.hits(lookup.offsets(pairs.values(x + kLanes * i, reverse))) != 0} << i;
  }
  x += kLanes * i;
  return noted;
}

template <bool FewLeft, class Lookup, class Pairs>
__attribute__((target("avx512f,avx512bw,avx512vbmi,popcnt"))) std::uint64_t take_in_runs(
    const Pairs& pairs, std::uint64_t from, std::uint64_t to, Value base, ValueSet& wanted, ValueSet& found,
    std::uint64_t left) {
  constexpr std::uint64_t kLanes = 64 / sizeof(typename Lookup::T);
  const __m512i reverse = Avx512Vectors::reversed_lane_indices<typename Lookup::T>();
  LookupTable<Lookup::kWords> table(wanted, base);
  Lookup lookup(table.words, base);
  std::uint64_t x = from;
  while (left > 0 && x + kLanes - 1 <= to) {
    const std::uint64_t run_from = x;
    if (const std::uint64_t noted = note_run<FewLeft>(lookup, pairs, reverse, x, to, left)) {
      left = take_noted(lookup, pairs, reverse, run_from, noted, table, left);
      lookup.reload(table.words);
    }
  }
  if (left > 0 && x <= to) {  // the last pairs, fewer than a vector: one more, partly loaded
    const std::uint64_t count = to + 1 - x;
    const __m512i v = lookup.offsets(pairs.values_last(x, count, reverse));
    const auto loaded = static_cast<typename Lookup::Lanes>((typename Lookup::Lanes{1} << count) - 1);
    left -= take_lanes<Lookup>(v, lookup.hits(v) & loaded, table);
  }
  table.move_taken(wanted, found);
  return left;
}

template <class Lookup, class Pairs>
std::uint64_t take_vectors(const Pairs& pairs, std::uint64_t from, std::uint64_t to, Value base, ValueSet& wanted,
                           ValueSet& found, std::uint64_t left) {
  return left <= kSearchedValues ? take_in_runs<true, Lookup>(pairs, from, to, base, wanted, found, left)
                                 : take_in_runs<false, Lookup>(pairs, from, to, base, wanted, found, left);
}

#endif

template <class T>
std::uint32_t find(const T* g, std::uint64_t m, std::uint64_t from, std::uint64_t to, const T* values, int count) {
  // The answer has a bit per wanted value, and every pair's second part lies at or past its first.
  assert(count >= 0 && count <= kSearchedValues);
  assert(from > to || (to <= m && to <= m - to));
  Wanted<T> wanted(values, count);
#ifdef SGX_HAVE_X86_PATHS
  if constexpr (sizeof(T) <= 2) {
    switch (vector_path()) {
      case VectorPath::Avx512: return find_vectorised<Avx512Vectors>(g, m, from, to, wanted);
      case VectorPath::Avx2: return find_vectorised<Avx2Vectors>(g, m, from, to, wanted);
      case VectorPath::Portable: break;
    }
  }
#endif
  return find_portable(g, m, from, to, wanted);
}

// The lookup, where it applies: with AVX-512, for one-byte values, and for two-byte ones when the
// wanted values span fewer than kLookupValues (two table registers when under half of that), the
// table starting at 0 or else at the word of the least. Says whether it applied; left is then
// what is left.
template <class T, class Pairs>
bool take_looked_up(const Pairs& pairs, std::uint64_t from, std::uint64_t to, ValueSet& wanted, ValueSet& found,
                    std::uint64_t& left) {
#ifdef SGX_HAVE_X86_PATHS
  if (vector_path() == VectorPath::Avx512) {
    if constexpr (sizeof(T) == 1)
      return left = take_vectors<ByteLookup>(pairs, from, to, Value{0}, wanted, found, left), true;
    if constexpr (sizeof(T) == 2) {  // the fewest instructions a vector first
      const Value least = wanted.first_present(0), base = least - least % 64, last = wanted.last_present(least);
      if (last < kLookupValues / 2)
        return left = take_vectors<WordLookup<2, false>>(pairs, from, to, 0, wanted, found, left), true;
      if (last - base < kLookupValues / 2)
        return left = take_vectors<WordLookup<2, true>>(pairs, from, to, base, wanted, found, left), true;
      if (last < kLookupValues)
        return left = take_vectors<WordLookup<4, false>>(pairs, from, to, 0, wanted, found, left), true;
      if (last - base < kLookupValues)
        return left = take_vectors<WordLookup<4, true>>(pairs, from, to, base, wanted, found, left), true;
    }
  }
#endif
  (void)pairs, (void)from, (void)to, (void)wanted, (void)found, (void)left;
  return false;
}

// take_pair_values: the lookup where it applies, else compares with kSearchedValues values at a
// time, each batch over the whole range.
template <class T>
std::uint64_t take(const T* g, std::uint64_t m, std::uint64_t from, std::uint64_t to, ValueSet& wanted,
                   ValueSet& found, std::uint64_t left) {
  assert(from > to || (to <= m && to <= m - to));
  if (take_looked_up<T>(MirroredPairs<T>{g, m}, from, to, wanted, found, left)) return left;
  T batch[kSearchedValues];
  Value next = 0;  // batches go through the wanted values in increasing order
  while (left > 0) {
    int count = 0;
    wanted.for_each([&](Value v) {
      if (v >= next) batch[count++] = static_cast<T>(v);
      return count < kSearchedValues;
    });
    if (count == 0) break;
    next = static_cast<Value>(batch[count - 1]) + 1;
    for (std::uint32_t hits = find(g, m, from, to, batch, count); hits; hits &= hits - 1) {
      const Value v = batch[std::countr_zero(hits)];
      wanted.erase(v);
      found.insert(v);
      --left;
    }
  }
  return left;
}

// take_xor_values: the lookup where it applies, else a loop.
template <class T>
std::uint64_t take_xor(const T* parts, const T* partners, std::uint64_t count, ValueSet& wanted,
                       ValueSet& found, std::uint64_t left) {
  if (count == 0) return left;
  const ForwardPairs<T> pairs{parts, partners};
  if (take_looked_up<T>(pairs, 0, count - 1, wanted, found, left)) return left;
  return take_portable(pairs, 0, count - 1, wanted, found, left);
}

// find_xor_values. Every lane is compared with every wanted value (Slots of them, repeating the
// list to fill the slots): the ranges are short (a block's rare positions) and the answer is
// needed whole, so there is no early stop.
template <class T>
std::uint32_t find_masked_xor_portable(const T* parts, const T* partners, const T* holes, std::uint64_t lanes,
                                       Wanted<T>& wanted) {
  for (std::uint64_t x = 0; x < lanes && !wanted.done(); ++x)
    wanted.note(static_cast<T>((parts[x] ^ partners[x]) | holes[x]));
  return wanted.found;
}

#ifdef SGX_HAVE_X86_PATHS

// Slot s holds wanted value s % count; a slot's hit counts for that value. Folded a count of slots
// at a time: a division per hit cost more than the compares on short ranges.
inline std::uint32_t slot_hits_to_values(std::uint32_t slot_hits, int count) {
  const std::uint32_t values = (std::uint32_t{1} << count) - 1;
  std::uint32_t found = 0;
  for (; slot_hits; slot_hits >>= count) found |= slot_hits & values;
  return found;
}

// Lowers, lane by lane within `within`, least[slot] to the XOR of v with targets[slot]: a lane
// gives the slot's value where that XOR is 0. Kept as vectors, as in pair_screen.cpp: masks
// ORed into an array of words were kept in memory and read back as a vector, a read that waited
// on the writes (a quarter of this function's time on the sparse kernel's chain).
template <class T, int Slots, class Lanes>
__attribute__((target("avx512f,avx512bw"))) void lower_slots(__m512i v, Lanes within, const __m512i (&targets)[Slots],
                                                            __m512i (&least)[Slots]) {
  for (int slot = 0; slot < Slots; ++slot) {
    const __m512i x = _mm512_xor_si512(v, targets[slot]);
    if constexpr (sizeof(T) == 1) least[slot] = _mm512_mask_min_epu8(least[slot], within, least[slot], x);
    else least[slot] = _mm512_mask_min_epu16(least[slot], within, least[slot], x);
  }
}

template <class T, int Slots>
__attribute__((target("avx512f,avx512bw"))) std::uint32_t find_masked_xor_avx512(const T* parts, const T* partners,
                                                                               const T* holes, std::uint64_t lanes,
                                                                               const T* values, int count) {
  constexpr std::uint64_t kLanes = 64 / sizeof(T);
  using Lanes = std::conditional_t<sizeof(T) == 1, std::uint64_t, std::uint32_t>;
  __m512i targets[Slots], least[Slots];
  for (int slot = 0, k = 0; slot < Slots; ++slot, k = k + 1 == count ? 0 : k + 1) {  // k = slot % count
    targets[slot] = sizeof(T) == 1 ? _mm512_set1_epi8(static_cast<char>(values[k]))
                                   : _mm512_set1_epi16(static_cast<short>(values[k]));
    least[slot] = _mm512_set1_epi8(-1);
  }
  constexpr int kXorThenOr = 0xBE;  // (a ^ b) | c
  std::uint64_t x = 0;
  for (; x + kLanes <= lanes; x += kLanes)
    lower_slots<T, Slots>(_mm512_ternarylogic_epi32(_mm512_loadu_si512(parts + x), _mm512_loadu_si512(partners + x),
                                                    _mm512_loadu_si512(holes + x), kXorThenOr),
                          ~Lanes{0}, targets, least);
  if (x < lanes) {  // the last lanes, fewer than a vector: loaded under a mask
    const auto loaded = static_cast<Lanes>((Lanes{1} << (lanes - x)) - 1);
    __m512i p, q, h;
    if constexpr (sizeof(T) == 1) {
      p = _mm512_maskz_loadu_epi8(loaded, parts + x);
      q = _mm512_maskz_loadu_epi8(loaded, partners + x);
      h = _mm512_maskz_loadu_epi8(loaded, holes + x);
    } else {
      p = _mm512_maskz_loadu_epi16(loaded, parts + x);
      q = _mm512_maskz_loadu_epi16(loaded, partners + x);
      h = _mm512_maskz_loadu_epi16(loaded, holes + x);
    }
    lower_slots<T, Slots>(_mm512_ternarylogic_epi32(p, q, h, kXorThenOr), loaded, targets, least);
  }
  std::uint32_t slot_hits = 0;
  for (int slot = 0; slot < Slots; ++slot) {
    const bool hit = sizeof(T) == 1 ? _mm512_cmpeq_epi8_mask(least[slot], _mm512_setzero_si512()) != 0
                                    : _mm512_cmpeq_epi16_mask(least[slot], _mm512_setzero_si512()) != 0;
    slot_hits |= std::uint32_t{hit} << slot;
  }
  return slot_hits_to_values(slot_hits, count);
}

template <class T, int Slots>
__attribute__((target("avx2"))) std::uint32_t find_masked_xor_avx2(const T* parts, const T* partners,
                                                                   const T* holes, std::uint64_t lanes,
                                                                   const T* values, int count) {
  constexpr std::uint64_t kLanes = 32 / sizeof(T);
  __m256i targets[Slots], hit[Slots];
  for (int slot = 0, k = 0; slot < Slots; ++slot, k = k + 1 == count ? 0 : k + 1) {  // k = slot % count
    const T value = values[k];
    targets[slot] = sizeof(T) == 1 ? _mm256_set1_epi8(static_cast<char>(value))
                                   : _mm256_set1_epi16(static_cast<short>(value));
    hit[slot] = _mm256_setzero_si256();
  }
  std::uint64_t x = 0;
  for (; x + kLanes <= lanes; x += kLanes) {
    const __m256i v = _mm256_or_si256(
        _mm256_xor_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(parts + x)),
                         _mm256_loadu_si256(reinterpret_cast<const __m256i*>(partners + x))),
        _mm256_loadu_si256(reinterpret_cast<const __m256i*>(holes + x)));
    for (int slot = 0; slot < Slots; ++slot)
      hit[slot] = _mm256_or_si256(hit[slot], sizeof(T) == 1 ? _mm256_cmpeq_epi8(v, targets[slot])
                                                            : _mm256_cmpeq_epi16(v, targets[slot]));
  }
  std::uint32_t slot_hits = 0;
  for (int slot = 0; slot < Slots; ++slot)
    slot_hits |= std::uint32_t{_mm256_movemask_epi8(hit[slot]) != 0} << slot;
  Wanted<T> wanted(values, count);
  wanted.found = slot_hits_to_values(slot_hits, count);
  return find_masked_xor_portable(parts + x, partners + x, holes + x, lanes - x, wanted);  // the last lanes
}

#endif

template <class T>
std::uint32_t find_masked_xor(const T* parts, const T* partners, const T* holes, std::uint64_t lanes,
                              const T* values, int count) {
  assert(count >= 0 && count <= kSearchedValues);
  if (count == 0) return 0;
#ifdef SGX_HAVE_X86_PATHS
  if constexpr (sizeof(T) <= 2) {
    switch (vector_path()) {
      case VectorPath::Avx512:
        if (count <= 4) return find_masked_xor_avx512<T, 4>(parts, partners, holes, lanes, values, count);
        if (count <= 8) return find_masked_xor_avx512<T, 8>(parts, partners, holes, lanes, values, count);
        break;
      case VectorPath::Avx2:
        if (count <= 4) return find_masked_xor_avx2<T, 4>(parts, partners, holes, lanes, values, count);
        if (count <= 8) return find_masked_xor_avx2<T, 8>(parts, partners, holes, lanes, values, count);
        break;
      case VectorPath::Portable: break;
    }
  }
#endif
  Wanted<T> wanted(values, count);
  return find_masked_xor_portable(parts, partners, holes, lanes, wanted);
}

}  // namespace

std::uint32_t find_pair_values(const std::uint8_t* g, std::uint64_t m, std::uint64_t from, std::uint64_t to,
                               const std::uint8_t* wanted, int count) {
  return find(g, m, from, to, wanted, count);
}

std::uint32_t find_pair_values(const std::uint16_t* g, std::uint64_t m, std::uint64_t from, std::uint64_t to,
                               const std::uint16_t* wanted, int count) {
  return find(g, m, from, to, wanted, count);
}

std::uint32_t find_pair_values(const std::uint32_t* g, std::uint64_t m, std::uint64_t from, std::uint64_t to,
                               const std::uint32_t* wanted, int count) {
  return find(g, m, from, to, wanted, count);
}

std::uint64_t take_pair_values(const std::uint8_t* g, std::uint64_t m, std::uint64_t from, std::uint64_t to,
                               ValueSet& wanted, ValueSet& found, std::uint64_t left) {
  return take(g, m, from, to, wanted, found, left);
}
std::uint64_t take_pair_values(const std::uint16_t* g, std::uint64_t m, std::uint64_t from, std::uint64_t to,
                               ValueSet& wanted, ValueSet& found, std::uint64_t left) {
  return take(g, m, from, to, wanted, found, left);
}
std::uint64_t take_pair_values(const std::uint32_t* g, std::uint64_t m, std::uint64_t from, std::uint64_t to,
                               ValueSet& wanted, ValueSet& found, std::uint64_t left) {
  return take(g, m, from, to, wanted, found, left);
}

std::uint64_t take_xor_values(const std::uint8_t* parts, const std::uint8_t* partners, std::uint64_t count,
                              ValueSet& wanted, ValueSet& found, std::uint64_t left) {
  return take_xor(parts, partners, count, wanted, found, left);
}
std::uint64_t take_xor_values(const std::uint16_t* parts, const std::uint16_t* partners, std::uint64_t count,
                              ValueSet& wanted, ValueSet& found, std::uint64_t left) {
  return take_xor(parts, partners, count, wanted, found, left);
}
std::uint64_t take_xor_values(const std::uint32_t* parts, const std::uint32_t* partners, std::uint64_t count,
                              ValueSet& wanted, ValueSet& found, std::uint64_t left) {
  return take_xor(parts, partners, count, wanted, found, left);
}

std::uint32_t find_xor_values(const std::uint8_t* parts, const std::uint8_t* partners, const std::uint8_t* holes,
                              std::uint64_t lanes, const std::uint8_t* wanted, int count) {
  return find_masked_xor(parts, partners, holes, lanes, wanted, count);
}
std::uint32_t find_xor_values(const std::uint16_t* parts, const std::uint16_t* partners, const std::uint16_t* holes,
                              std::uint64_t lanes, const std::uint16_t* wanted, int count) {
  return find_masked_xor(parts, partners, holes, lanes, wanted, count);
}
std::uint32_t find_xor_values(const std::uint32_t* parts, const std::uint32_t* partners, const std::uint32_t* holes,
                              std::uint64_t lanes, const std::uint32_t* wanted, int count) {
  return find_masked_xor(parts, partners, holes, lanes, wanted, count);
}

}  // namespace sgx
