// AVX-512 only (the pipeline runs only where its bands are screened, pair_screen.hpp).

#include "sparse/chain_step.hpp"

#if defined(__x86_64__)
#include <immintrin.h>
#define SGX_HAVE_AVX512_CHAIN 1
#endif

#include <algorithm>
#include <bit>
#include <cassert>

#include "kernels/vector_path.hpp"

namespace sgx {

#ifdef SGX_HAVE_AVX512_CHAIN
__attribute__((target("cldemote"))) void hand_over(CandidateCopy* copies, std::size_t count) {
  constexpr std::size_t kALine = 64 / sizeof(CandidateCopy);
  for (std::size_t i = 0; i < count; i += kALine) _cldemote(copies + i);
  if (count > 0) _cldemote(copies + count - 1);  // the last line, where copies does not start on one
}
#else
void hand_over(CandidateCopy*, std::size_t) {}
#endif

template <class T>
bool can_chain_decide(const NearOptions<T>& options) {
#ifdef SGX_HAVE_AVX512_CHAIN
  return sizeof(T) <= 2 && vector_path() == VectorPath::Avx512 && options.split_count >= 1 &&
         options.split_count <= kInOrderSplits && options.lanes == kChainLanes;
#else
  (void)options;
  return false;
#endif
}
template bool can_chain_decide(const NearOptions<std::uint8_t>&);
template bool can_chain_decide(const NearOptions<std::uint16_t>&);
template bool can_chain_decide(const NearOptions<std::uint32_t>&);

#ifdef SGX_HAVE_AVX512_CHAIN
namespace {

// Lanes of T in a vector of 64 bytes, and the operations on them.
template <class T>
struct Vec {
  static constexpr std::uint64_t kLanes = 64 / sizeof(T);

  static __attribute__((target("avx512f,avx512bw,avx512vbmi"))) __m512i broadcast(Value v) {
    if constexpr (sizeof(T) == 1) return _mm512_set1_epi8(static_cast<char>(v));
    else return _mm512_set1_epi16(static_cast<short>(v));
  }
  // Lane i: lane index[i] of low (below kLanes) or of high (from kLanes on).
  static __attribute__((target("avx512f,avx512bw,avx512vbmi"))) __m512i permute(__m512i low, __m512i index,
                                                                               __m512i high) {
    if constexpr (sizeof(T) == 1) return _mm512_permutex2var_epi8(low, index, high);
    else return _mm512_permutex2var_epi16(low, index, high);
  }
  static __attribute__((target("avx512f,avx512bw,avx512vbmi"))) bool any_equal(__m512i a, __m512i b) {
    if constexpr (sizeof(T) == 1) return _mm512_cmpeq_epi8_mask(a, b) != 0;
    else return _mm512_cmpeq_epi16_mask(a, b) != 0;
  }
  static __attribute__((target("avx512f,avx512bw,avx512vbmi"))) __m512i min(__m512i a, __m512i b) {
    if constexpr (sizeof(T) == 1) return _mm512_min_epu8(a, b);
    else return _mm512_min_epu16(a, b);
  }
  // The lanes below `lanes` (at most kLanes) as a mask.
  static std::uint64_t lanes_below(std::uint64_t lanes) {
    return lanes >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << lanes) - 1;
  }
  // The lanes of `mask` read from memory, the others 0 (and not read: they may lie past the end).
  static __attribute__((target("avx512f,avx512bw,avx512vbmi"))) __m512i load_lanes(std::uint64_t mask,
                                                                                  const T* from) {
    if constexpr (sizeof(T) == 1) return _mm512_maskz_loadu_epi8(mask, from);
    else return _mm512_maskz_loadu_epi16(static_cast<__mmask32>(mask), from);
  }
  // The same, with the other lanes all ones.
  static __attribute__((target("avx512f,avx512bw,avx512vbmi"))) __m512i load_lanes_else_ones(std::uint64_t mask,
                                                                                             const T* from) {
    const __m512i ones = _mm512_set1_epi32(-1);
    if constexpr (sizeof(T) == 1) return _mm512_mask_loadu_epi8(ones, mask, from);
    else return _mm512_mask_loadu_epi16(ones, static_cast<__mmask32>(mask), from);
  }
  // The lanes of `mask` where a and b are equal.
  static __attribute__((target("avx512f,avx512bw,avx512vbmi"))) std::uint64_t equal_lanes(std::uint64_t mask,
                                                                                         __m512i a, __m512i b) {
    if constexpr (sizeof(T) == 1) return _mm512_mask_cmpeq_epi8_mask(mask, a, b);
    else return _mm512_mask_cmpeq_epi16_mask(static_cast<__mmask32>(mask), a, b);
  }
  // The vector whose lane i is start + i.
  static __attribute__((target("avx512f,avx512bw,avx512vbmi"))) __m512i counting(std::uint64_t start) {
    alignas(64) T lanes[kLanes];
    for (std::uint64_t i = 0; i < kLanes; ++i) lanes[i] = static_cast<T>(start + i);
    return _mm512_load_si512(lanes);
  }
};

constexpr int kXorThenOr = 0xBE;  // (a ^ b) | c

// The values the step holds in registers at heap n's turn: lane p of (low, high) is
// G(n - 1 - 2 * kLanes + p), the heaps up to n - 2, and previous is G(n - 1) (see decide_avx512).
template <class T>
struct HeldValues {
  __m512i low, high;
  T previous;
};

// The step's slow path, for a heap whose first candidate an option gives (1 in 20): the first of
// its other candidates that none of its near options gives (1 for `second`, else from its whole
// list), or -1. Partners are read from memory but the newest, which are taken from the registers
// (a wide load of values just stored waits until the stores have reached the cache); the pair of
// distance 1 is last_pair, as the step computed it.
template <class T, int Splits>
__attribute__((target("avx512f,avx512bw,avx512vbmi"), noinline)) int first_not_given(
    const T* g, std::uint64_t n, const CandidateCopy& second, const HeapCandidates& listed,
    const NearOptions<T>& options, const HeldValues<T>& held, T last_pair) {
  using V = Vec<T>;
  constexpr std::uint64_t kLanes = V::kLanes;
  constexpr std::uint64_t kVectors = kChainLanes / kLanes;  // a split's
  // The last lane of the last vector is r = 1, whose partner for a split taking nothing is
  // previous: last_pair.
  const __m512i last_lane_hole =
      _mm512_mask_set1_epi8(_mm512_setzero_si512(), std::uint64_t{(1u << sizeof(T)) - 1} << (64 - sizeof(T)), -1);
  __m512i pairs[Splits * kVectors];
  for (int s = 0; s < Splits; ++s) {
    const std::uint64_t take = options.splits[s].take;
    const T* partners = g + (n - take - kChainLanes);
    for (std::uint64_t v = 0; v < kVectors; ++v) {
      __m512i partner, holes = _mm512_loadu_si512(options.holes + v * kLanes);
      if (v + 1 == kVectors && take <= kLanes) {
        // Its partners G(n - take - kLanes + i) are lanes kLanes + 1 - take + i of the registers.
        partner = V::permute(held.low, V::counting(kLanes + 1 - take), held.high);
        if (take == 0) holes = _mm512_or_si512(holes, last_lane_hole);
      } else {
        partner = _mm512_loadu_si512(partners + v * kLanes);
      }
      pairs[s * kVectors + v] =
          _mm512_ternarylogic_epi32(_mm512_loadu_si512(options.parts + v * kLanes), partner, holes, kXorThenOr);
    }
  }
  // The list is read only past the second candidate (its count too).
  for (int k = 1; k == 1 ? second.listed : k < listed.count; ++k) {
    const Value candidate = k == 1 ? second.value : listed.values[k];
    const __m512i target = V::broadcast(candidate);
    bool hit = candidate == last_pair;
    for (const __m512i& pair : pairs) hit |= V::any_equal(pair, target);
    for (std::size_t j = 0; j < options.leave_one_count; ++j) hit |= g[n - options.leave_one[j]] == candidate;
    if (!hit) return k;
  }
  return -1;
}

// The first candidates of the heaps from + i, i < count (at most 64), lane i of 64 values:
// vectors[0] (bytes) or vectors[0] and [1] (16 bits).
template <class T>
__attribute__((target("avx512f,avx512bw,avx512vbmi"))) void first_candidate_lanes(const CandidateCopy* firsts,
                                                                                 std::uint64_t count,
                                                                                 __m512i* vectors) {
  // Each is 32 bits with the value in the low ones: narrowed, 16 heaps make 16 bytes or 32 bytes.
  __m512i sixteen[4];
  for (std::uint64_t k = 0; k < 4; ++k) {
    const std::uint64_t in = count > 16 * k ? std::min<std::uint64_t>(16, count - 16 * k) : 0;
    sixteen[k] = _mm512_maskz_loadu_epi32(static_cast<__mmask16>((1u << in) - 1), firsts + 16 * k);
  }
  // (The masked forms: GCC 12 warns of the undefined lanes the plain ones start from.)
  constexpr __mmask16 kAll = 0xffff;
  if constexpr (sizeof(T) == 1) {
    __m512i v = _mm512_zextsi128_si512(_mm512_maskz_cvtepi32_epi8(kAll, sixteen[0]));
    v = _mm512_maskz_inserti32x4(kAll, v, _mm512_maskz_cvtepi32_epi8(kAll, sixteen[1]), 1);
    v = _mm512_maskz_inserti32x4(kAll, v, _mm512_maskz_cvtepi32_epi8(kAll, sixteen[2]), 2);
    vectors[0] = _mm512_maskz_inserti32x4(kAll, v, _mm512_maskz_cvtepi32_epi8(kAll, sixteen[3]), 3);
  } else {
    for (std::uint64_t h = 0; h < 2; ++h) {
      const __m512i low =
          _mm512_maskz_inserti64x4(0xff, _mm512_setzero_si512(), _mm512_maskz_cvtepi32_epi16(kAll, sixteen[2 * h]), 0);
      vectors[h] = _mm512_maskz_inserti64x4(0xff, low, _mm512_maskz_cvtepi32_epi16(kAll, sixteen[2 * h + 1]), 1);
    }
  }
}

// Bit i set where heap from + i's first candidate (lane i of first_values) is given by one of its
// near pairs whose partner lies below from, i < count: for each split and each near rare r, the
// partners of consecutive heaps lie side by side, so a vector compares them for a vector of heaps.
template <class T, int Splits>
__attribute__((target("avx512f,avx512bw,avx512vbmi"))) std::uint64_t given_below(
    const T* g, std::uint64_t from, std::uint64_t count, const __m512i* first_values, const NearOptions<T>& options) {
  using V = Vec<T>;
  constexpr std::uint64_t kLanes = V::kLanes;
  constexpr std::uint64_t kHeapVectors = 64 / kLanes;  // of first_values
  std::uint64_t given = 0;
  for (std::uint64_t v = 0; v < kChainLanes / kLanes; ++v) {
    const std::uint64_t lanes = v * kLanes;
    // The rare r among lanes j: holes[j] is 0 there.
    std::uint64_t rare = V::equal_lanes(V::lanes_below(kLanes), _mm512_loadu_si512(options.holes + lanes),
                                        _mm512_setzero_si512());
    for (; rare != 0; rare &= rare - 1) {
      const std::uint64_t j = lanes + static_cast<std::uint64_t>(std::countr_zero(rare));
      const __m512i part = V::broadcast(options.parts[j]);
      for (int s = 0; s < Splits; ++s) {
        // Heap from + i meets partner from + i - d, below from while i < d.
        const std::uint64_t d = options.splits[s].take + (kChainLanes - j);
        const std::uint64_t below = std::min(d, count);
        for (std::uint64_t w = 0; w < kHeapVectors && w * kLanes < below; ++w) {
          const std::uint64_t valid = V::lanes_below(below - w * kLanes);
          const __m512i partners = V::load_lanes(valid, g + from + w * kLanes - d);
          given |= V::equal_lanes(valid, _mm512_xor_si512(partners, part), first_values[w]) << (w * kLanes);
        }
      }
    }
  }
  return given;
}

// The step for Splits splits, in two parts.
//
// First, for all the heaps at once, each heap's near pairs whose partner lies below from are
// compared with its first candidate (given_below). A heap's own step then compares only the pairs
// whose partner may lie among the heaps just decided, those with the distance d = take + r of 65
// or less (a heap lies at most 63 past from), nearly always with its first candidate alone.
//
// A heap's value is all the next heap waits for, and among that heap's near options only those at
// distance 1 (the pair of a split taking nothing with r = 1, the move to heap n - 1) read it. So
// the values held in registers lag one heap behind: they are the 64 heaps up to n - 2, and the
// previous value is compared on its own, as a scalar. The next heap's vector compares then need
// nothing from this one and run beside it; the registers take the previous value in once the heap
// is decided.
template <class T, int Splits>
__attribute__((target("avx512f,avx512bw,avx512vbmi"))) std::uint64_t decide_avx512(
    T* g, std::uint64_t from, std::uint64_t to, const HeapCandidates* candidates, LeadingCandidates leading,
    const NearOptions<T>& options, std::uint64_t& speculated) {
  using V = Vec<T>;
  constexpr std::uint64_t kLanes = V::kLanes;
  constexpr std::uint64_t kHeld = 64;                     // values held: distances 2 to kHeld + 1
  constexpr std::uint64_t kHeldVectors = kHeld / kLanes;  // 1 (bytes) or 2
  constexpr std::uint64_t kLast = kChainLanes - 1;        // the lane of r = 1
  const std::uint64_t count = to - from;
  assert(options.lanes == kChainLanes && options.split_count == Splits && count <= kHeld);
  assert(from > 2 * (kChainLanes + options.splits[Splits - 1].take));
  __m512i first_values[kHeldVectors];
  first_candidate_lanes<T>(leading.first, count, first_values);
  const std::uint64_t given_early = given_below<T, Splits>(g, from, count, first_values, options);
  // Those heaps read their second candidates (written by another thread, so not in this core's
  // cache): asked for now, they arrive while the heaps before them are decided.
  for (std::uint64_t early = given_early; early != 0; early &= early - 1)
    __builtin_prefetch(leading.second + std::countr_zero(early));
  // The values held (HeldValues): lane p of held.high is G(n - d), d = kLanes + 1 - p, and of
  // held.low d = 2 * kLanes + 1 - p. The heap's own compares take those of distance 2 to kHeld + 1,
  // vectors[v] of (held.low, held.high) from kFirstHeld on; for a split taking t lane p of such a
  // vector is its pair with r = d - t, lane j = kChainLanes - r of the options' (r from 1 to
  // kChainLanes).
  constexpr std::uint64_t kFirstHeld = 2 - kHeldVectors;
  HeldValues<T> held{_mm512_loadu_si512(g + from - 1 - 2 * kLanes), _mm512_loadu_si512(g + from - 1 - kLanes),
                     g[from - 1]};
  const __m512i next_value = V::counting(1);  // shifted by one, the last lane from the second source
  // Everything the loop reads but the values, in registers: a store to g (bytes) may alias
  // anything, so the compiler would read them again each heap.
  __m512i parts[Splits][kHeldVectors], holes[Splits][kHeldVectors];
  bool previous_pairs = false;  // a split taking nothing pairs r = 1, if rare, with G(n - 1)
  for (int s = 0; s < Splits; ++s) {
    const std::uint64_t take = options.splits[s].take;
    previous_pairs |= take == 0;
    for (std::uint64_t v = 0; v < kHeldVectors; ++v) {
      const std::uint64_t j = kChainLanes - kHeld - 1 + take + v * kLanes;  // lane p = 0's
      const std::uint64_t valid = j < kChainLanes ? V::lanes_below(kChainLanes - j) : 0;  // r >= 1
      parts[s][v] = V::load_lanes(valid, options.parts + std::min(j, kChainLanes));
      holes[s][v] = V::load_lanes_else_ones(valid, options.holes + std::min(j, kChainLanes));
    }
  }
  // The pair of r = 1 with G(n - 1) is last_part ^ previous, or no value where r = 1 is not rare.
  const T last_part = options.parts[kLast], last_hole = previous_pairs ? options.holes[kLast] : T(~T{0});
  bool leaves_previous = false;  // a move to one heap leaves n - 1
  for (std::size_t j = 0; j < options.leave_one_count; ++j) leaves_previous |= options.leave_one[j] == 1;
  const std::uint64_t* const leave_one = options.leave_one;
  const std::size_t leave_one_count = options.leave_one_count;
  std::uint64_t unsure_taken = 0;  // speculated's bits from `from` on
  for (std::uint64_t n = from; n < to; ++n) {
    const CandidateCopy listed_first = leading.first[n - from];
    // The first candidate nearly always stands (for 95% of the heaps of Grundy's game and 94% of
    // 0.6's, to 2^22), so it is tested alone, on a branch: the next heap then starts from it at once,
    // on the prediction, instead of waiting for the compares.
    const Value first = listed_first.value;
    const __m512i target = V::broadcast(first);
    __m512i least = _mm512_set1_epi32(-1);
    const __m512i newest[2] = {held.low, held.high};
    for (int s = 0; s < Splits; ++s)
      for (std::uint64_t v = 0; v < kHeldVectors; ++v) {
        const __m512i pairs = _mm512_ternarylogic_epi32(parts[s][v], newest[kFirstHeld + v], holes[s][v], kXorThenOr);
        least = V::min(least, _mm512_xor_si512(pairs, target));
      }
    bool given = ((given_early >> (n - from)) & 1) != 0 || V::any_equal(least, _mm512_setzero_si512());
    const T last_pair = static_cast<T>((last_part ^ held.previous) | last_hole);
    given |= first == last_pair || (leaves_previous && first == held.previous);
    for (std::size_t j = 0; j < leave_one_count; ++j)
      if (leave_one[j] != 1) given |= g[n - leave_one[j]] == first;
    T chosen_value = static_cast<T>(first);
    bool unsure = listed_first.unsure;
    if (__builtin_expect(given || !listed_first.listed, 0)) {
      const CandidateCopy second = leading.second[n - from];
      const HeapCandidates& listed = candidates[n - from];  // read only past the second
      const int chosen =
          listed_first.listed ? first_not_given<T, Splits>(g, n, second, listed, options, held, last_pair) : -1;
      if (chosen < 0) {
        speculated |= unsure_taken;
        return n;
      }
      chosen_value = static_cast<T>(chosen == 1 ? second.value : listed.values[chosen]);
      unsure = chosen == 1 ? second.unsure : ((listed.unsure >> chosen) & 1u) != 0;
    }
    unsure_taken |= std::uint64_t{unsure} << (n - from);
    held.low = V::permute(held.low, next_value, held.high);
    held.high = V::permute(held.high, next_value, V::broadcast(held.previous));
    held.previous = chosen_value;
    g[n] = chosen_value;
  }
  speculated |= unsure_taken;
  return to;
}

// decide_avx512 for the options' count of splits.
template <class T>
std::uint64_t decide(T* g, std::uint64_t from, std::uint64_t to, const HeapCandidates* candidates,
                     LeadingCandidates leading, const NearOptions<T>& options, std::uint64_t& speculated) {
  static_assert(kInOrderSplits == 4);
  switch (options.split_count) {
    case 1: return decide_avx512<T, 1>(g, from, to, candidates, leading, options, speculated);
    case 2: return decide_avx512<T, 2>(g, from, to, candidates, leading, options, speculated);
    case 3: return decide_avx512<T, 3>(g, from, to, candidates, leading, options, speculated);
    case 4: return decide_avx512<T, 4>(g, from, to, candidates, leading, options, speculated);
    default: return from;  // not here (can_chain_decide)
  }
}

}  // namespace

std::uint64_t chain_decide(std::uint8_t* g, std::uint64_t from, std::uint64_t to, const HeapCandidates* candidates,
                           LeadingCandidates leading, const NearOptions<std::uint8_t>& options,
                           std::uint64_t& speculated) {
  return decide(g, from, to, candidates, leading, options, speculated);
}
std::uint64_t chain_decide(std::uint16_t* g, std::uint64_t from, std::uint64_t to, const HeapCandidates* candidates,
                           LeadingCandidates leading, const NearOptions<std::uint16_t>& options,
                           std::uint64_t& speculated) {
  return decide(g, from, to, candidates, leading, options, speculated);
}
#else
std::uint64_t chain_decide(std::uint8_t*, std::uint64_t from, std::uint64_t, const HeapCandidates*,
                           LeadingCandidates, const NearOptions<std::uint8_t>&, std::uint64_t&) {
  return from;
}
std::uint64_t chain_decide(std::uint16_t*, std::uint64_t from, std::uint64_t, const HeapCandidates*,
                           LeadingCandidates, const NearOptions<std::uint16_t>&, std::uint64_t&) {
  return from;
}
#endif

}  // namespace sgx
