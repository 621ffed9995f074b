// AVX-512 (F, BW, VBMI and VBMI2) and BMI2, written with masks that keep every lane: GCC 12 warns,
// maybe-uninitialized, inside the unmasked intrinsics.
//
// The near rare pairs' values become bits by a variable shift of 1 in 32-bit lanes, once for each
// 32 values, less 32 q for the q-th: a shift by 32 or more gives 0. The padding lanes repeat the
// first lane's pair, so they add no value.
//
// A scan vector holds 64 pairs (a + 63 - j, m - a - 63 + j): the partners are read forwards, and
// the first parts, the same for every heap, were reversed once. Its values are looked up in
// tables that give each wanted value a bit of a byte, its rank among the wanted (below).

#include "sparse/lone_heap.hpp"

#if defined(__x86_64__)
#include <immintrin.h>
#define SGX_HAVE_AVX512_LONE 1
#endif

#include <algorithm>
#include <array>
#include <bit>
#include <stdexcept>

#include "kernels/vector_path.hpp"

namespace sgx {

namespace {

constexpr std::size_t kNearLanes = 16;       // near rare pairs a vector of 32-bit lanes holds
constexpr std::uint64_t kNearWindow = 128;  // the bytes their partners are permuted from
// The scan takes the pairs (a, m - a) in chunks of 64 first parts a, the same for every heap.
constexpr std::uint64_t kReversedChunks = 16;  // chunks whose first parts are reversed once
constexpr std::uint64_t kStepChunks = 2;       // chunks the first two steps take of each split
constexpr std::uint64_t kMostStepChunks = 8;   // each step after takes twice as many, up to this

}  // namespace

void LoneHeaps::prepare(const MoveTable& moves, const std::vector<std::uint64_t>& rare,
                        const std::vector<Value>& rare_values, const RareMask& mask, Value values_below) {
  if (moves.rules().has_tail()) throw std::logic_error("LoneHeaps: a game with a repeating tail");
  if (values_below != 64 && values_below != 128 && values_below != kLoneValuesBelow)
    throw std::logic_error("LoneHeaps: values below 64, 128 or 256");
  words_ = static_cast<int>(values_below / 64);
  for (std::uint64_t parity = 0; parity < 2; ++parity)
    for (int w = 0; w < kLoneWordsAtMost; ++w) {
      common_[parity][w] = 0;
      for (Value v = 0; v < 64 && w < words_; ++v)
        if (!is_rare(64 * w + v, parity, mask)) common_[parity][w] |= std::uint64_t{1} << v;
    }
  for (std::uint64_t parity = 0; parity < 2; ++parity) {
    std::fill(std::begin(first_rare_[parity]), std::end(first_rare_[parity]), std::uint64_t{0});
    for (auto& table : first_rare_tables_[parity]) std::fill(std::begin(table), std::end(table), std::uint8_t{0});
    int rank = 0;
    for (Value v = 0; v < values_below && rank < 16; ++v) {
      if (!is_rare(v, parity, mask)) continue;
      first_rare_tables_[parity][rank / 8][v] = static_cast<std::uint8_t>(1u << (rank % 8));
      first_rare_[parity][v / 64] |= std::uint64_t{1} << (v % 64);
      ++rank;
    }
  }
  splits_ = moves.split_two();
  leave_one_ = moves.leave_one();
  groups_.clear();
  for (const SplitMove& split : splits_) {  // takes increase (move_table.hpp)
    if (groups_.empty() || split.take > groups_.back().deepest) groups_.push_back({split.take + 3, {}});
    groups_.back().bytes.push_back(static_cast<std::uint32_t>(groups_.back().deepest - split.take));
  }
  near_.clear();
  near_parts_.clear();
  far_.clear();
  far_parts_.clear();
  std::uint64_t largest_rare = 0;
  for (std::size_t k = 0; k < rare.size(); ++k) {
    if (rare[k] == 0) continue;  // parts are non-empty
    if (rare_values[k] >= values_below) throw std::logic_error("LoneHeaps: a rare value past values_below");
    if (rare[k] < static_cast<std::uint64_t>(kBitHeaps)) {
      near_.push_back(static_cast<std::int32_t>(rare[k]));
      near_parts_.push_back(rare_values[k]);
    } else {
      far_.push_back(rare[k]);
      far_parts_.push_back(static_cast<std::uint8_t>(rare_values[k]));
    }
    largest_rare = std::max(largest_rare, rare[k]);
  }
  // Padding lanes repeat the first pair (with none, there is nothing to pad).
  while (near_.size() % kNearLanes != 0) {
    near_.push_back(near_.front());
    near_parts_.push_back(near_parts_.front());
  }
  // G(n - deepest + b - r) lies at kNearWindow - 3 + b - r in the window that ends at
  // n - deepest + 2, for 1 <= r < 64 and b < 4: from 62 to 127.
  near_indexes_.assign(4 * (near_.size() / kNearLanes), {});
  for (std::size_t r = 0; r < near_.size(); ++r)
    for (std::size_t byte = 0; byte < 4; ++byte)
      near_indexes_[4 * (r / kNearLanes) + byte][4 * (r % kNearLanes)] =
          static_cast<std::uint8_t>(kNearWindow - 3 + byte - static_cast<std::uint64_t>(near_[r]));
  // Heap n + 1 reads nothing of heap n when each move takes at least one token besides a split's
  // parts (a part is at least 1, so the partner is at most n - 1), two to leave one heap.
  side_by_side_ = (splits_.empty() || splits_.front().take >= 1) && (leave_one_.empty() || leave_one_.front() >= 2);
  const std::uint64_t deepest = splits_.empty() ? 0 : splits_.back().take + 3;
  // Every rare r below its partner m - r (so each pair is seen from its rare part, and an unequal
  // split never meets r = m - r); every near pair's window inside the values; the scan's first
  // vector of partners, m - 64 .. m - 1, too; and past the code, where taking all is no move.
  // Below a heap n, decide() reads the far pairs' partners (for the lag heaps below the first
  // too), the near pairs' window, the scan's first vector of partners and the one-heap moves.
  const std::uint64_t lag = splits_.empty() ? 0 : splits_.back().take - splits_.front().take;
  reach_ = std::max({largest_rare + deepest + lag, deepest + kNearWindow, deepest + 64,
                     leave_one_.empty() ? std::uint64_t{0} : leave_one_.back()});
  first_heap_ = std::max({2 * largest_rare + deepest + 1, deepest + kNearWindow, deepest + 2 * 64 + 2,
                          std::uint64_t{moves.rules().finite_digits().size()} + 1});
}

#ifdef SGX_HAVE_AVX512_LONE

bool can_decide_heaps_alone() {
  static const bool has_vbmi2_bmi2 = __builtin_cpu_supports("avx512vbmi2") && __builtin_cpu_supports("bmi2");
  return vector_path() == VectorPath::Avx512 && has_vbmi2_bmi2;
}

namespace {

constexpr __mmask16 kAllDwords = 0xffff;
constexpr __mmask64 kAllBytes = ~__mmask64{0};
constexpr __mmask64 kLowBytes = 0x1111111111111111;  // the low byte of each 32-bit lane

// Values below 64 Words as bits: bit v % 64 of word v / 64.
template <std::size_t Words>
using ValueBits = std::array<std::uint64_t, Words>;

template <std::size_t Words>
bool any(const ValueBits<Words>& bits) {
  for (const std::uint64_t word : bits)
    if (word != 0) return true;
  return false;
}

// Adds value v (below 64 Words) to bits, or takes it out.
template <std::size_t Words>
void set_value(ValueBits<Words>& bits, unsigned v) {
  if constexpr (Words == 1)
    bits[0] |= std::uint64_t{1} << v;
  else
    bits[v / 64] |= std::uint64_t{1} << (v % 64);
}

template <std::size_t Words>
void clear_value(ValueBits<Words>& bits, unsigned v) {
  if constexpr (Words == 1)
    bits[0] &= ~(std::uint64_t{1} << v);
  else
    bits[v / 64] &= ~(std::uint64_t{1} << (v % 64));
}

// The least value in bits (64 Words when there is none).
template <std::size_t Words>
int least(const ValueBits<Words>& bits) {
  for (std::size_t w = 0; w < Words; ++w)
    if (bits[w] != 0) return static_cast<int>(64 * w) + std::countr_zero(bits[w]);
  return static_cast<int>(64 * Words);
}

template <std::size_t Words>
ValueBits<Words> and_not(const ValueBits<Words>& bits, const ValueBits<Words>& out) {
  ValueBits<Words> result;
  for (std::size_t w = 0; w < Words; ++w) result[w] = bits[w] & ~out[w];
  return result;
}

// The values below c.
template <std::size_t Words>
ValueBits<Words> below(int c) {
  ValueBits<Words> result;
  for (std::size_t w = 0; w < Words; ++w) {
    const int in_word = std::clamp(c - 64 * static_cast<int>(w), 0, 64);
    result[w] = in_word == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << in_word) - 1;
  }
  return result;
}

// The values of bits whose rank among them (0 for the least) is a bit of ranks.
template <std::size_t Words>
__attribute__((target("bmi2"))) ValueBits<Words> of_ranks(std::uint64_t ranks, const ValueBits<Words>& bits) {
  ValueBits<Words> result;
  for (std::size_t w = 0; w < Words; ++w) {
    result[w] = _pdep_u64(ranks, bits[w]);
    const int used = std::popcount(bits[w]);
    ranks = used >= 64 ? 0 : ranks >> used;
  }
  return result;
}

// Byte k is bit k (k < 8); the others 0. From byte r on: the rank bits of values whose ranks
// start at r.
alignas(64) constexpr std::uint8_t kRankBytes[8 + 64] = {1, 2, 4, 8, 16, 32, 64, 128};

// A table of the values below 64 Words, a vector of 64 bytes per word: each of the eight least
// values of bits holds the bit of its rank, the others 0.
template <std::size_t Words>
__attribute__((target("avx512f,avx512bw,avx512vbmi2"))) void rank_tables(const ValueBits<Words>& bits,
                                                                          __m512i table[Words]) {
  int ranked = 0;
  for (std::size_t w = 0; w < Words; ++w) {
    table[w] = _mm512_maskz_expand_epi8(bits[w], _mm512_loadu_si512(kRankBytes + std::min(ranked, 8)));
    ranked += std::popcount(bits[w]);
  }
}

// Each lane's value looked up in a rank table (zero in the lanes left out).
template <std::size_t Words>
__attribute__((target("avx512f,avx512bw,avx512vbmi"))) __m512i look_up(__mmask64 lanes, __m512i values,
                                                                       const __m512i table[Words]) {
  static_assert(Words == 1 || Words == 2 || Words == 4);
  if constexpr (Words == 1) {
    return _mm512_maskz_permutexvar_epi8(lanes, values, table[0]);
  } else if constexpr (Words == 2) {
    return _mm512_maskz_permutex2var_epi8(lanes, table[0], values, table[1]);
  } else {
    // Values from 128 (the byte's top bit) from the second pair of tables.
    const __mmask64 high = _mm512_movepi8_mask(values);
    return _mm512_or_si512(_mm512_maskz_permutex2var_epi8(lanes & ~high, table[0], values, table[1]),
                           _mm512_maskz_permutex2var_epi8(lanes & high, table[2], values, table[3]));
  }
}

// The words a rank table needs for the values of bits (1, 2 or 4, at most Words).
template <std::size_t Words>
std::size_t table_words(const ValueBits<Words>& bits) {
  std::size_t last = 0;
  for (std::size_t w = 0; w < Words; ++w)
    if (bits[w] != 0) last = w;
  return last == 0 ? 1 : last == 1 ? 2 : 4;
}

// look_up with a table of its first words words only (every value it ranks lies below 64 words):
// the lanes with a value past them give 0. One permute of one or two sources, where four words
// take two permutes of two.
template <std::size_t Words>
__attribute__((target("avx512f,avx512bw,avx512vbmi"))) __m512i look_up_in(std::size_t words, __mmask64 lanes,
                                                                         __m512i values, const __m512i table[Words]) {
  if constexpr (Words > 1) {
    if (words == 1) return look_up<1>(lanes & ~_mm512_test_epi8_mask(values, _mm512_set1_epi8(-64)), values, table);
    if constexpr (Words == 4)
      if (words == 2) return look_up<2>(lanes & ~_mm512_movepi8_mask(values), values, table);
  }
  return look_up<Words>(lanes, values, table);
}

// The OR of a vector's eight 64-bit lanes, in registers (through memory it waits for a store to
// reach eight loads).
__attribute__((target("avx512f"))) std::uint64_t or_of_lanes(__m512i words) {
  words = _mm512_or_si512(words, _mm512_maskz_shuffle_i64x2(0xff, words, words, _MM_SHUFFLE(1, 0, 3, 2)));
  words = _mm512_or_si512(words, _mm512_maskz_shuffle_i64x2(0xff, words, words, _MM_SHUFFLE(2, 3, 0, 1)));
  words = _mm512_or_si512(words, _mm512_maskz_unpackhi_epi64(0xff, words, words));
  return static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm512_maskz_extracti32x4_epi32(0xf, words, 0)));
}

// The OR of a vector's 64 bytes.
__attribute__((target("avx512f"))) std::uint64_t or_of_bytes(__m512i bytes) {
  std::uint64_t x = or_of_lanes(bytes);
  x |= x >> 32;
  x |= x >> 16;
  x |= x >> 8;
  return x & 0xff;
}

// The values of wanted that no split pair (a, m - a) of heap n with a <= last_part gives, pair by
// pair.
template <std::size_t Words>
ValueBits<Words> look_for_each(const std::uint8_t* g, std::uint64_t n, const std::vector<SplitMove>& splits,
                               std::uint64_t last_part, ValueBits<Words> wanted) {
  for (const SplitMove& split : splits) {
    const std::uint64_t m = n - split.take;
    const std::uint64_t largest = std::min(split.largest_first_part(m), last_part);
    for (std::uint64_t a = 1; a <= largest && any(wanted); ++a) {
      clear_value(wanted, g[a] ^ g[m - a]);
    }
  }
  return wanted;
}

// A heap's split pairs, 64 a vector, for its scan: lane j of chunk k holds the pair
// (a + 63 - j, m - a - 63 + j), a = 1 + 64 k, for each split's m.
struct ScanPairs {
  const std::uint8_t* g;
  const std::vector<SplitMove>& splits;
  std::uint64_t last_part;         // the largest first part whose vector is held (bounded memory)
  __m512i reverse;                 // byte j from byte 63 - j
  const __m512i* reversed_firsts;  // the first parts of the first chunks, reversed once
  std::uint64_t reversed_chunks;
};

// Looks the pairs of heap in chunks [first_chunk, first_chunk + chunks) up in low_table (and, with
// Both, in high_table), tables of words words, ORing what they find into low_found and high_found.
// Returns the vectors it looked at.
template <std::size_t Words, bool Both>
[[gnu::always_inline]] inline __attribute__((target("avx512f,avx512bw,avx512vbmi"))) std::uint64_t look_up_pairs(
    const ScanPairs& scan, std::uint64_t heap, std::uint64_t first_chunk, std::uint64_t chunks, std::size_t words,
    const __m512i low_table[Words], const __m512i high_table[Words], __m512i& low_found, __m512i& high_found) {
  std::uint64_t vectors = 0;
  for (std::uint64_t chunk = first_chunk; chunk < first_chunk + chunks; ++chunk) {
    const std::uint64_t a = 1 + 64 * chunk;
    for (const SplitMove& split : scan.splits) {
      const std::uint64_t m = heap - split.take;
      const std::uint64_t largest = std::min(split.largest_first_part(m), scan.last_part);
      if (a > largest) continue;
      ++vectors;
      const __m512i firsts =
          chunk < scan.reversed_chunks
              ? scan.reversed_firsts[chunk]
              : _mm512_maskz_permutexvar_epi8(kAllBytes, scan.reverse, _mm512_loadu_si512(scan.g + a));
      const __m512i values = _mm512_xor_si512(firsts, _mm512_loadu_si512(scan.g + m - a - 63));
      const __mmask64 lanes = largest - a < 63 ? kAllBytes << (a + 63 - largest) : kAllBytes;
      low_found = _mm512_or_si512(low_found, look_up_in<Words>(words, lanes, values, low_table));
      if constexpr (Both)
        high_found = _mm512_or_si512(high_found, look_up_in<Words>(words, lanes, values, high_table));
    }
  }
  return vectors;
}

// The data of LoneHeaps that decide_avx512 reads.
struct LoneData {
  const std::vector<LoneHeaps::TakeGroup>& groups;
  const std::vector<SplitMove>& splits;
  const std::vector<std::uint64_t>& leave_one;
  const std::vector<std::int32_t>& near;
  const std::vector<std::uint32_t>& near_parts;
  const std::vector<std::array<std::uint8_t, 64>>& near_indexes;
  bool side_by_side;
  const std::uint64_t (&common)[2][kLoneWordsAtMost];
  const std::uint8_t (&first_rare_tables)[2][2][kLoneValuesBelow];
  const std::uint64_t (&first_rare)[2][kLoneWordsAtMost];
};

// LoneHeaps::decide for the heaps from..to - 1 (at most 64), values below 64 Words, the far rare
// pairs' values marked in far_bits (word w of heap from + j at far_bits[w][j]).
template <std::size_t Words>
__attribute__((target("avx512f,avx512bw,avx512vbmi,avx512vbmi2,bmi2"))) std::uint64_t decide_avx512(
    const LoneData& data, std::uint8_t* g, std::uint64_t from, std::uint64_t to,
    const std::uint64_t (&far_bits)[kLoneWordsAtMost][kBitHeaps], std::uint64_t last_part, std::uint64_t& scanned) {
  // Counted in a local: the counter behind scanned may alias g (a byte pointer), so it would be
  // loaded and stored for every vector.
  std::uint64_t vectors = 0;
  const std::vector<SplitMove>& splits = data.splits;
  const __m512i one = _mm512_set1_epi32(1);
  alignas(64) std::uint8_t reverse_index[64];
  for (int j = 0; j < 64; ++j) reverse_index[j] = static_cast<std::uint8_t>(63 - j);
  const __m512i reverse = _mm512_load_si512(reverse_index);
  // The first parts of a scan's first steps, the same for every heap: reversed once.
  const std::uint64_t held_chunks = last_part == 0 ? 0 : (last_part - 1) / 64 + 1;
  const std::uint64_t reversed_chunks = std::min({kReversedChunks, (from - 1) / 64, held_chunks});
  __m512i reversed_firsts[kReversedChunks];
  for (std::uint64_t chunk = 0; chunk < reversed_chunks; ++chunk)
    reversed_firsts[chunk] = _mm512_maskz_permutexvar_epi8(kAllBytes, reverse, _mm512_loadu_si512(g + 1 + 64 * chunk));
  const ScanPairs scan{g, splits, last_part, reverse, reversed_firsts, reversed_chunks};

  // Two heaps at a time where the second reads nothing of the first (side_by_side): their chains
  // of lookups then overlap.
  for (std::uint64_t n = from; n < to;) {
    const int width = data.side_by_side && n + 1 < to ? 2 : 1;
    ValueBits<Words> wanted[2] = {}, skipped[2] = {};
    int c[2] = {};
    bool open[2] = {false, false};  // whether its scan has pairs left
    bool first_step_done[2] = {false, false};
    ValueBits<Words> found_first[2] = {};
    int started = 0;
    for (int i = 0; i < width; ++i) {
      const std::uint64_t heap = n + i;
      {
        // The scan's first step for the sixteen least rare values, which needs nothing of this
        // heap's options, so that it runs beside the work that finds c.
        ValueBits<Words> first_rare;
        for (std::size_t w = 0; w < Words; ++w) first_rare[w] = data.first_rare[heap & 1][w];
        const std::size_t words = table_words(first_rare);
        __m512i low_table[Words], high_table[Words];
        for (std::size_t w = 0; w < Words; ++w) {
          low_table[w] = _mm512_load_si512(data.first_rare_tables[heap & 1][0] + 64 * w);
          high_table[w] = _mm512_load_si512(data.first_rare_tables[heap & 1][1] + 64 * w);
        }
        __m512i low_found = _mm512_setzero_si512();
        __m512i high_found = _mm512_setzero_si512();
        vectors +=
            look_up_pairs<Words, true>(scan, heap, 0, kStepChunks, words, low_table, high_table, low_found, high_found);
        found_first[i] = of_ranks(or_of_bytes(low_found) | (or_of_bytes(high_found) << 8), first_rare);
      }
      // The common values: the far rare pairs' (marked already), the near ones' and the one-heap
      // moves'.
      ValueBits<Words> options;
      for (std::size_t w = 0; w < Words; ++w) options[w] = far_bits[w][heap - from];
      for (const std::uint64_t k : data.leave_one) set_value(options, g[heap - k]);
      // Bits of the values from 32 q, q < 2 Words, in 32-bit lanes: a shift by 32 or more (a
      // value below 32 q wraps) gives 0.
      __m512i bits[2 * Words];
      for (__m512i& part : bits) part = _mm512_setzero_si512();
      for (const LoneHeaps::TakeGroup& group : data.groups) {
        // The 128 bytes that end at heap - deepest + 2, the highest a near pair of the group reads.
        const std::uint8_t* window = g + (heap - group.deepest + 3 - kNearWindow);
        const __m512i window_low = _mm512_loadu_si512(window);
        const __m512i window_high = _mm512_loadu_si512(window + 64);
        for (std::size_t r = 0; r < data.near.size(); r += kNearLanes) {
          const __m512i parts = _mm512_loadu_si512(data.near_parts.data() + r);
          const std::array<std::uint8_t, 64>* indexes = data.near_indexes.data() + 4 * (r / kNearLanes);
          for (const std::uint32_t byte : group.bytes) {
            // Each partner's byte into the low byte of its 32-bit lane, the others 0.
            const __m512i partners = _mm512_maskz_permutex2var_epi8(
                kLowBytes, window_low, _mm512_loadu_si512(indexes[byte].data()), window_high);
            const __m512i values = _mm512_xor_si512(partners, parts);
            for (std::size_t q = 0; q < 2 * Words; ++q) {
              const __m512i shifts = _mm512_sub_epi32(values, _mm512_set1_epi32(32 * static_cast<int>(q)));
              bits[q] = _mm512_or_si512(bits[q], _mm512_maskz_sllv_epi32(kAllDwords, one, shifts));
            }
          }
        }
      }
      for (std::size_t w = 0; w < Words; ++w) {
        const __m512i low = bits[2 * w], high = bits[2 * w + 1];
        options[w] |= or_of_lanes(_mm512_or_si512(_mm512_maskz_unpacklo_epi32(kAllDwords, low, high),
                                                  _mm512_maskz_unpackhi_epi32(kAllDwords, low, high)));
      }
      ValueBits<Words> common_here;
      for (std::size_t w = 0; w < Words; ++w) common_here[w] = data.common[heap & 1][w];
      const ValueBits<Words> free_common = and_not(common_here, options);
      if (!any(free_common)) break;  // declined: the heaps before it are decided below
      c[i] = least(free_common);
      const ValueBits<Words> under_c = below<Words>(c[i]);
      for (std::size_t w = 0; w < Words; ++w) wanted[i][w] = ~common_here[w] & ~options[w] & under_c[w];
      // The first step is done where every rare value wanted was among the sixteen looked for.
      first_step_done[i] = true;
      for (std::size_t w = 0; w < Words; ++w) {
        first_step_done[i] &= (wanted[i][w] & ~data.first_rare[heap & 1][w]) == 0;
        wanted[i][w] &= ~found_first[i][w];
      }
      open[i] = true;
      started = i + 1;
    }

    // The rare values below c, looked for among the split pairs. The first two steps take 128
    // pairs of each split, each step after twice as many up to 512, so that a heap that needs many
    // pairs (0.336: about a thousand) waits for fewer steps' tables. A step's tables give each of
    // the (up to) eight least values wanted, and each of the next eight, a bit of a byte (their
    // rank among the wanted, laid out by a byte expand); a pair's lookup is then that byte, the
    // lookups of a step are ORed together, and the byte of bits found goes back to the values by
    // a bit deposit. Values past the sixteenth wait for a later step, so a value that no step
    // finds may have missed the first pairs: those are looked for once more, pair by pair (a new
    // rare position, seldom).
    for (std::uint64_t step = 0, first_chunk = 0, chunks = kStepChunks;; ++step, first_chunk += chunks) {
      if (step >= 2) chunks = std::min(2 * chunks, kMostStepChunks);
      bool more = false;
      for (int i = 0; i < started; ++i) {
        if (!any(wanted[i]) || !open[i]) continue;
        if (step == 0 && first_step_done[i]) {
          more = true;
          continue;
        }
        const std::uint64_t heap = n + i;
        const ValueBits<Words> rest = and_not(wanted[i], of_ranks(0xff, wanted[i]));
        const bool has_rest = any(rest);
        const ValueBits<Words> past_sixteenth = and_not(rest, of_ranks(0xff, rest));
        for (std::size_t w = 0; w < Words; ++w) skipped[i][w] |= past_sixteenth[w];
        __m512i low_table[Words], high_table[Words];
        rank_tables(wanted[i], low_table);
        rank_tables(rest, high_table);
        const std::size_t words = table_words(and_not(wanted[i], past_sixteenth));
        __m512i low_found = _mm512_setzero_si512();
        __m512i high_found = _mm512_setzero_si512();
        const std::uint64_t looked_at =
            has_rest ? look_up_pairs<Words, true>(scan, heap, first_chunk, chunks, words, low_table, high_table,
                                                  low_found, high_found)
                     : look_up_pairs<Words, false>(scan, heap, first_chunk, chunks, words, low_table, high_table,
                                                   low_found, high_found);
        vectors += looked_at;
        if (looked_at == 0) {
          open[i] = false;
          continue;
        }
        wanted[i] = and_not(wanted[i], of_ranks(or_of_bytes(low_found), wanted[i]));
        if (has_rest) wanted[i] = and_not(wanted[i], of_ranks(or_of_bytes(high_found), rest));
        more |= any(wanted[i]);
      }
      if (!more) break;
    }
    for (int i = 0; i < started; ++i) {
      const std::uint64_t heap = n + i;
      bool missed_some = false;
      for (std::size_t w = 0; w < Words; ++w) missed_some |= (wanted[i][w] & skipped[i][w]) != 0;
      if (missed_some) wanted[i] = look_for_each(g, heap, splits, last_part, wanted[i]);
      // Bounded memory: a rare value not found may lie among pairs past the values held, so the
      // heap is left undecided.
      if (any(wanted[i]))
        for (const SplitMove& split : splits)
          if (split.largest_first_part(heap - split.take) > last_part) {
            scanned += vectors;
            return heap - from;
          }
      // A rare value below c that no pair gives is G(n): a new rare position, where the caller
      // takes over (a second heap decided beside it did not know it).
      if (any(wanted[i])) {
        g[heap] = static_cast<std::uint8_t>(least(wanted[i]));
        scanned += vectors;
        return heap + 1 - from;
      }
      g[heap] = static_cast<std::uint8_t>(c[i]);
    }
    n += started;
    if (started < width) {
      scanned += vectors;
      return n - from;
    }
  }
  scanned += vectors;
  return to - from;
}

}  // namespace

std::uint64_t LoneHeaps::decide(std::uint8_t* g, std::uint64_t from, std::uint64_t to, std::uint64_t prefix_end,
                                std::uint64_t tail_start) {
  if (!can_decide_heaps_alone()) throw std::logic_error("LoneHeaps::decide needs AVX-512");
  if (from < first_heap_) throw std::logic_error("LoneHeaps::decide: a heap below first_heap()");
  if (from < tail_start + reach_) throw std::logic_error("LoneHeaps::decide: a heap reaching released values");
  // The largest first part a scan's vector may start at: its 64 first parts held (below
  // prefix_end), and its partners m - a - 63 .. m - a too (from tail_start on), for the least m.
  const std::uint64_t least_m = splits_.empty() ? from : from - splits_.back().take;
  const std::uint64_t last_part =
      std::min(prefix_end > 64 ? prefix_end - 64 : 0, least_m >= tail_start + 63 ? least_m - 63 - tail_start : 0);
  // The far rare pairs: the pair (r, m - r) of a split taking t gives heap n the value
  // G(r) ^ G(n - t - r), which the split taking the least, t0, gave heap n - (t - t0). So only
  // that split's pairs are marked, as bits of each heap (history: the lag heaps below n, then the
  // 64 at hand, for each word of values), and each other split ORs in the bits of the heap
  // t - t0 below.
  const std::uint64_t least_take = splits_.empty() ? 0 : splits_.front().take;
  const std::uint64_t lag = splits_.empty() ? 0 : splits_.back().take - least_take;  // takes increase
  far_pairs_.clear();
  for (std::size_t i = 0; i < far_.size() && !splits_.empty(); ++i)
    far_pairs_.push_back(GroupPair{g + (from - lag - least_take - far_[i]), far_parts_[i], kBitHeaps});
  for (int w = 0; w < words_; ++w) far_history_[w].assign(lag + kBitHeaps, 0);
  for (std::uint64_t done = 0; done < lag && !far_pairs_.empty();) {
    const std::uint64_t heaps = std::min<std::uint64_t>(kBitHeaps, lag - done);
    for (int w = 0; w < words_; ++w)
      mark_pair_bits(far_pairs_, heaps, far_history_[w].data() + done, static_cast<unsigned>(w));
    for (GroupPair& pair : far_pairs_) pair.partners += heaps;
    done += heaps;
  }
  const LoneData data{groups_,      splits_,       leave_one_, near_, near_parts_, near_indexes_,
                      side_by_side_, common_, first_rare_tables_, first_rare_};
  std::uint64_t n = from;
  while (n < to) {
    // The far rare pairs of the next 64 heaps: every partner lies below n.
    const std::uint64_t heaps = std::min<std::uint64_t>(kBitHeaps, to - n);
    std::uint64_t far_bits[kLoneWordsAtMost][kBitHeaps] = {};
    for (int w = 0; w < words_; ++w) {
      std::uint64_t* marked = far_history_[w].data() + lag;
      std::fill(marked, marked + kBitHeaps, std::uint64_t{0});
      if (!far_pairs_.empty()) mark_pair_bits(far_pairs_, heaps, marked, static_cast<unsigned>(w));
      for (const SplitMove& split : splits_) {
        const std::uint64_t* below_heap = marked - (split.take - least_take);
        for (std::uint64_t j = 0; j < heaps; ++j) far_bits[w][j] |= below_heap[j];
      }
    }
    const std::uint64_t decided =
        words_ == 1   ? decide_avx512<1>(data, g, n, n + heaps, far_bits, last_part, scanned_vectors_)
        : words_ == 2 ? decide_avx512<2>(data, g, n, n + heaps, far_bits, last_part, scanned_vectors_)
                      : decide_avx512<4>(data, g, n, n + heaps, far_bits, last_part, scanned_vectors_);
    n += decided;
    if (decided < heaps) break;
    for (GroupPair& pair : far_pairs_) pair.partners += heaps;
    for (int w = 0; w < words_; ++w)
      std::copy(far_history_[w].end() - static_cast<std::ptrdiff_t>(lag), far_history_[w].end(),
                far_history_[w].begin());
  }
  return n - from;
}

#else

bool can_decide_heaps_alone() { return false; }

std::uint64_t LoneHeaps::decide(std::uint8_t*, std::uint64_t, std::uint64_t, std::uint64_t, std::uint64_t) {
  throw std::logic_error("LoneHeaps::decide needs AVX-512");
}

#endif

}  // namespace sgx
