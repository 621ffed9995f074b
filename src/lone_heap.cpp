// AVX-512 (F, BW, VBMI and VBMI2) and BMI2, written with masks that keep every lane: GCC 12 warns,
// maybe-uninitialized, inside the unmasked intrinsics.
//
// The near rare pairs' values become bits by a variable shift of 1 in 32-bit lanes, once for the
// values below 32 and once, less 32, for the others: a shift by 32 or more gives 0, which also
// drops the padding lanes (their bytes are 0x80 or more).
//
// A scan vector holds 64 pairs (a + 63 - j, m - a - 63 + j): the partners are read forwards, and
// the first parts, the same for every heap, were reversed once. Its values are looked up in
// tables that give each wanted value a bit of a byte, its rank among the wanted (below).

#include "lone_heap.hpp"

#if defined(__x86_64__)
#include <immintrin.h>
#define SGX_HAVE_AVX512_LONE 1
#endif

#include <algorithm>
#include <bit>
#include <stdexcept>

#include "vector_path.hpp"

namespace sgx {

namespace {

constexpr std::size_t kGatherLanes = 16;
constexpr std::uint32_t kPaddingPart = 0x80808080u;
// The scan takes the pairs (a, m - a) in chunks of 64 first parts a, the same for every heap.
constexpr std::uint64_t kReversedChunks = 16;  // chunks whose first parts are reversed once
constexpr std::uint64_t kStepChunks = 2;       // chunks a step takes of each split

}  // namespace

void LoneHeaps::prepare(const MoveTable& moves, const std::vector<std::uint64_t>& rare,
                        const std::vector<Value>& rare_values, const RareMask& mask) {
  if (moves.rules().has_tail()) throw std::logic_error("LoneHeaps: a game with a repeating tail");
  for (std::uint64_t parity = 0; parity < 2; ++parity) {
    common_[parity] = 0;
    for (Value v = 0; v < 64; ++v)
      if (!is_rare(v, parity, mask)) common_[parity] |= std::uint64_t{1} << v;
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
    if (rare_values[k] >= 64) throw std::logic_error("LoneHeaps: a rare value of 64 or more");
    if (rare[k] < static_cast<std::uint64_t>(kBitHeaps)) {
      near_.push_back(static_cast<std::int32_t>(rare[k]));
      near_parts_.push_back(rare_values[k] * 0x01010101u);
    } else {
      far_.push_back(rare[k]);
      far_parts_.push_back(static_cast<std::uint8_t>(rare_values[k]));
    }
    largest_rare = std::max(largest_rare, rare[k]);
  }
  while (near_.size() % kGatherLanes != 0) {
    near_.push_back(near_.empty() ? 1 : near_.front());
    near_parts_.push_back(kPaddingPart);
  }
  // Heap n + 1 reads nothing of heap n when each move takes at least one token besides a split's
  // parts (a part is at least 1, so the partner is at most n - 1), two to leave one heap.
  side_by_side_ = (splits_.empty() || splits_.front().take >= 1) && (leave_one_.empty() || leave_one_.front() >= 2);
  const std::uint64_t deepest = splits_.empty() ? 0 : splits_.back().take + 3;
  // Every rare r below its partner m - r (so each pair is seen from its rare part, and an unequal
  // split never meets r = m - r); every gather inside the values; the scan's first vector of
  // partners, m - 64 .. m - 1, too; and past the code, where taking all is no move.
  first_heap_ = std::max({2 * largest_rare + deepest + 1, deepest + 2 * 64 + 2,
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

// The values of wanted that no split pair (a, m - a) of heap n gives, pair by pair.
std::uint64_t look_for_each(const std::uint8_t* g, std::uint64_t n, const std::vector<SplitMove>& splits,
                            std::uint64_t wanted) {
  for (const SplitMove& split : splits) {
    const std::uint64_t m = n - split.take;
    const std::uint64_t largest = split.largest_first_part(m);
    for (std::uint64_t a = 1; a <= largest && wanted != 0; ++a) wanted &= ~(std::uint64_t{1} << (g[a] ^ g[m - a]));
  }
  return wanted;
}

// LoneHeaps::decide for the heaps from..to - 1 (at most 64), their far rare pairs marked in
// far_bits, the rest of its data passed in.
__attribute__((target("avx512f,avx512bw,avx512vbmi,avx512vbmi2,bmi2"))) std::uint64_t decide_avx512(
    const std::vector<LoneHeaps::GatherGroup>& groups, const std::vector<SplitMove>& splits,
    const std::vector<std::uint64_t>& leave_one, const std::vector<std::int32_t>& near,
    const std::vector<std::uint32_t>& near_parts, bool side_by_side, std::uint8_t* g, std::uint64_t from,
    std::uint64_t to, const std::uint64_t* far_bits, const std::uint64_t common[2], std::uint64_t& scanned) {
  // Counted in a local: the counter behind scanned may alias g (a byte pointer), so it would be
  // loaded and stored for every vector.
  std::uint64_t vectors = 0;
  const __m512i one = _mm512_set1_epi32(1);
  const __m512i thirty_two = _mm512_set1_epi32(32);
  const __m512i low_byte = _mm512_set1_epi32(0xff);
  alignas(64) std::uint8_t reverse_index[64];
  for (int j = 0; j < 64; ++j) reverse_index[j] = static_cast<std::uint8_t>(63 - j);
  const __m512i reverse = _mm512_load_si512(reverse_index);
  // The first parts of a scan's first steps, the same for every heap: reversed once.
  const std::uint64_t reversed_chunks = std::min<std::uint64_t>(kReversedChunks, (from - 1) / 64);
  __m512i reversed_firsts[kReversedChunks];
  for (std::uint64_t chunk = 0; chunk < reversed_chunks; ++chunk)
    reversed_firsts[chunk] = _mm512_maskz_permutexvar_epi8(kAllBytes, reverse, _mm512_loadu_si512(g + 1 + 64 * chunk));
  // Byte k of the first eight: bit k, the rank of a wanted value in a table.
  alignas(64) std::uint8_t rank_bytes[64] = {};
  for (int k = 0; k < 8; ++k) rank_bytes[k] = static_cast<std::uint8_t>(1u << k);
  const __m512i rank_bits = _mm512_load_si512(rank_bytes);

  // Two heaps at a time where the second reads nothing of the first (side_by_side): their chains
  // of lookups then overlap.
  for (std::uint64_t n = from; n < to;) {
    const int width = side_by_side && n + 1 < to ? 2 : 1;
    std::uint64_t wanted[2] = {}, skipped[2] = {};
    int c[2] = {};
    bool open[2] = {false, false};  // whether its scan has pairs left
    int started = 0;
    for (int i = 0; i < width; ++i) {
      const std::uint64_t heap = n + i;
      // The common values: the far rare pairs' (marked already), the near ones' and the one-heap
      // moves'.
      std::uint64_t options = far_bits[heap - from];
      for (const std::uint64_t k : leave_one) options |= std::uint64_t{1} << g[heap - k];
      __m512i low_bits = _mm512_setzero_si512();
      __m512i high_bits = _mm512_setzero_si512();
      for (const LoneHeaps::GatherGroup& group : groups) {
        const __m512i base = _mm512_set1_epi32(static_cast<std::int32_t>(heap - group.deepest));
        for (std::size_t r = 0; r < near.size(); r += kGatherLanes) {
          const __m512i at = _mm512_sub_epi32(base, _mm512_loadu_si512(near.data() + r));
          const __m512i values_of_pairs =
              _mm512_xor_si512(_mm512_mask_i32gather_epi32(_mm512_setzero_si512(), kAllDwords, at, g, 1),
                               _mm512_loadu_si512(near_parts.data() + r));
          for (const std::uint32_t byte : group.bytes) {
            const __m512i values = _mm512_and_si512(
                _mm512_maskz_srlv_epi32(kAllDwords, values_of_pairs, _mm512_set1_epi32(static_cast<int>(8 * byte))),
                low_byte);
            low_bits = _mm512_or_si512(low_bits, _mm512_maskz_sllv_epi32(kAllDwords, one, values));
            high_bits = _mm512_or_si512(
                high_bits, _mm512_maskz_sllv_epi32(kAllDwords, one, _mm512_sub_epi32(values, thirty_two)));
          }
        }
      }
      options |= or_of_lanes(_mm512_or_si512(_mm512_maskz_unpacklo_epi32(kAllDwords, low_bits, high_bits),
                                             _mm512_maskz_unpackhi_epi32(kAllDwords, low_bits, high_bits)));
      const std::uint64_t common_here = common[heap & 1];
      const std::uint64_t free_common = common_here & ~options;
      if (free_common == 0) break;  // declined: the heaps before it are decided below
      c[i] = std::countr_zero(free_common);
      wanted[i] = ~common_here & ~options & ((std::uint64_t{1} << c[i]) - 1);
      open[i] = true;
      started = i + 1;
    }

    // The rare values below c, looked for among the split pairs. A step takes 64 pairs of each
    // split. Its tables give each of the (up to) eight least values wanted, and each of the next
    // eight, a bit of a byte (their rank among the wanted, laid out by a byte expand); a pair's
    // lookup is then that byte, the lookups of a step are ORed together, and the byte of bits
    // found goes back to the values by a bit deposit. Values past the sixteenth wait for a later
    // step, so a value that no step finds may have missed the first pairs: those are looked for
    // once more, pair by pair (a new rare position, seldom).
    for (std::uint64_t step = 0;; ++step) {
      bool more = false;
      for (int i = 0; i < started; ++i) {
        if (wanted[i] == 0 || !open[i]) continue;
        const std::uint64_t heap = n + i;
        const std::uint64_t first_eight = _pdep_u64(0xff, wanted[i]);
        const std::uint64_t rest = wanted[i] & ~first_eight;
        const std::uint64_t next_eight = _pdep_u64(0xff, rest);
        skipped[i] |= rest & ~next_eight;
        const __m512i low_table = _mm512_maskz_expand_epi8(wanted[i], rank_bits);
        const __m512i high_table = _mm512_maskz_expand_epi8(rest, rank_bits);
        __m512i low_found = _mm512_setzero_si512();
        __m512i high_found = _mm512_setzero_si512();
        bool any = false;
        for (std::uint64_t chunk = kStepChunks * step; chunk < kStepChunks * (step + 1); ++chunk) {
          const std::uint64_t a = 1 + 64 * chunk;
          for (const SplitMove& split : splits) {
            const std::uint64_t m = heap - split.take;
            const std::uint64_t largest = split.largest_first_part(m);
            if (a > largest) continue;
            any = true;
            ++vectors;
            // Lane j: the pair (a + 63 - j, m - a - 63 + j).
            const __m512i firsts = chunk < reversed_chunks
                                       ? reversed_firsts[chunk]
                                       : _mm512_maskz_permutexvar_epi8(kAllBytes, reverse, _mm512_loadu_si512(g + a));
            const __m512i values = _mm512_xor_si512(firsts, _mm512_loadu_si512(g + m - a - 63));
            const __mmask64 lanes = largest - a < 63 ? kAllBytes << (a + 63 - largest) : kAllBytes;
            low_found = _mm512_or_si512(low_found, _mm512_maskz_permutexvar_epi8(lanes, values, low_table));
            if (rest != 0)
              high_found = _mm512_or_si512(high_found, _mm512_maskz_permutexvar_epi8(lanes, values, high_table));
          }
        }
        if (!any) {
          open[i] = false;
          continue;
        }
        wanted[i] &= ~_pdep_u64(or_of_bytes(low_found), wanted[i]);
        if (rest != 0) wanted[i] &= ~_pdep_u64(or_of_bytes(high_found), rest);
        more |= wanted[i] != 0;
      }
      if (!more) break;
    }
    for (int i = 0; i < started; ++i) {
      const std::uint64_t heap = n + i;
      if ((wanted[i] & skipped[i]) != 0) wanted[i] = look_for_each(g, heap, splits, wanted[i]);
      // A rare value below c that no pair gives is G(n): a new rare position, where the caller
      // takes over (a second heap decided beside it did not know it).
      if (wanted[i] != 0) {
        g[heap] = static_cast<std::uint8_t>(std::countr_zero(wanted[i]));
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

std::uint64_t LoneHeaps::decide(std::uint8_t* g, std::uint64_t from, std::uint64_t to) {
  if (!can_decide_heaps_alone()) throw std::logic_error("LoneHeaps::decide needs AVX-512");
  if (from < first_heap_) throw std::logic_error("LoneHeaps::decide: a heap below first_heap()");
  // The far rare pairs: the pair (r, m - r) of a split taking t gives heap n the value
  // G(r) ^ G(n - t - r), which the split taking the least, t0, gave heap n - (t - t0). So only
  // that split's pairs are marked, as bits of each heap (history: the lag heaps below n, then the
  // 64 at hand), and each other split ORs in the bits of the heap t - t0 below.
  const std::uint64_t least_take = splits_.empty() ? 0 : splits_.front().take;
  const std::uint64_t lag = splits_.empty() ? 0 : splits_.back().take - least_take;  // takes increase
  far_pairs_.clear();
  for (std::size_t i = 0; i < far_.size() && !splits_.empty(); ++i)
    far_pairs_.push_back(GroupPair{g + (from - lag - least_take - far_[i]), far_parts_[i], kBitHeaps});
  far_history_.assign(lag + kBitHeaps, 0);
  for (std::uint64_t done = 0; done < lag && !far_pairs_.empty();) {
    const std::uint64_t heaps = std::min<std::uint64_t>(kBitHeaps, lag - done);
    mark_pair_bits(far_pairs_, heaps, far_history_.data() + done);
    for (GroupPair& pair : far_pairs_) pair.partners += heaps;
    done += heaps;
  }
  std::uint64_t n = from;
  while (n < to) {
    // The far rare pairs of the next 64 heaps: every partner lies below n.
    const std::uint64_t heaps = std::min<std::uint64_t>(kBitHeaps, to - n);
    std::uint64_t* marked = far_history_.data() + lag;
    std::fill(marked, marked + kBitHeaps, std::uint64_t{0});
    if (!far_pairs_.empty()) mark_pair_bits(far_pairs_, heaps, marked);
    std::uint64_t far_bits[kBitHeaps] = {};
    for (const SplitMove& split : splits_) {
      const std::uint64_t* below = marked - (split.take - least_take);
      for (std::uint64_t j = 0; j < heaps; ++j) far_bits[j] |= below[j];
    }
    const std::uint64_t decided = decide_avx512(groups_, splits_, leave_one_, near_, near_parts_, side_by_side_, g,
                                                n, n + heaps, far_bits, common_, scanned_vectors_);
    n += decided;
    if (decided < heaps) break;
    for (GroupPair& pair : far_pairs_) pair.partners += heaps;
    std::copy(far_history_.end() - static_cast<std::ptrdiff_t>(lag), far_history_.end(), far_history_.begin());
  }
  return n - from;
}

#else

bool can_decide_heaps_alone() { return false; }

std::uint64_t LoneHeaps::decide(std::uint8_t*, std::uint64_t, std::uint64_t) {
  throw std::logic_error("LoneHeaps::decide needs AVX-512");
}

#endif

}  // namespace sgx
