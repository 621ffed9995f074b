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
  // The vector whose lane i is start + i.
  static __attribute__((target("avx512f,avx512bw,avx512vbmi"))) __m512i counting(std::uint64_t start) {
    alignas(64) T lanes[kLanes];
    for (std::uint64_t i = 0; i < kLanes; ++i) lanes[i] = static_cast<T>(start + i);
    return _mm512_load_si512(lanes);
  }
};

constexpr int kXorThenOr = 0xBE;  // (a ^ b) | c

// The step's slow path, for a heap whose first candidate an option gives (1 in 20): the first of
// its candidates that none of its near options gives, or -1, reading every partner from memory
// (g holds every value below n).
template <class T, int Splits>
__attribute__((target("avx512f,avx512bw,avx512vbmi"), noinline)) int first_not_given(
    const T* g, std::uint64_t n, const HeapCandidates& listed, const NearOptions<T>& options) {
  using V = Vec<T>;
  constexpr std::uint64_t kLanes = V::kLanes;
  constexpr std::uint64_t kVectors = kChainLanes / kLanes;  // a split's
  __m512i pairs[Splits * kVectors];
  for (int s = 0; s < Splits; ++s) {
    const T* partners = g + (n - options.splits[s].take - kChainLanes);
    for (std::uint64_t v = 0; v < kVectors; ++v)
      pairs[s * kVectors + v] = _mm512_ternarylogic_epi32(_mm512_loadu_si512(options.parts + v * kLanes),
                                                          _mm512_loadu_si512(partners + v * kLanes),
                                                          _mm512_loadu_si512(options.holes + v * kLanes), kXorThenOr);
  }
  for (int k = 0; k < listed.count; ++k) {
    const Value candidate = listed.values[k];
    const __m512i target = V::broadcast(candidate);
    bool hit = false;
    for (const __m512i& pair : pairs) hit |= V::any_equal(pair, target);
    for (std::size_t j = 0; j < options.leave_one_count; ++j) hit |= g[n - options.leave_one[j]] == candidate;
    if (!hit) return k;
  }
  return -1;
}

// The step for Splits splits, its vectors of near lanes known when compiled, so that they stay in
// registers.
//
// A heap's value is all the next heap waits for, and among that heap's near options only the pair
// of a split taking nothing with r = 1 (partner n - 1) and the move to heap n - 1 read it. So the
// values held in registers lag one heap behind: the vectors read the heaps up to n - 2, that one
// lane is a hole there, and the previous value is compared on its own, as a scalar. The next
// heap's vector compares then need nothing from this one and run beside it; the registers take the
// previous value in once the heap is decided.
template <class T, int Splits>
__attribute__((target("avx512f,avx512bw,avx512vbmi"))) std::uint64_t decide_avx512(
    T* g, std::uint64_t from, std::uint64_t to, const HeapCandidates* candidates, const NearOptions<T>& options,
    std::uint64_t& speculated) {
  using V = Vec<T>;
  constexpr std::uint64_t kLanes = V::kLanes;
  constexpr std::uint64_t kHeld = 2 * kLanes;  // values held in held_low and held_high
  constexpr std::uint64_t kVectors = kChainLanes / kLanes;  // a split's
  constexpr std::uint64_t kLast = kChainLanes - 1;          // the lane of r = 1
  assert(options.lanes == kChainLanes && options.split_count == Splits && from > 2 * kHeld && to - from <= 64);
  // At heap n's turn, g[n - 1 - kHeld + p] is lane p of (held_low, held_high), and previous is
  // g[n - 1]. A split taking t <= kLanes finds its newest partners, G(n - t - kLanes + i), at
  // p = kLanes + 1 - t + i; for t = 0 the last, G(n - 1), is previous instead.
  __m512i held_low = _mm512_loadu_si512(g + from - 1 - kHeld), held_high = _mm512_loadu_si512(g + from - 1 - kLanes);
  T previous = g[from - 1];
  const __m512i next_value = V::counting(1);  // shifted by one, the last lane from the second source
  __m512i newest_index[Splits], newest_holes[Splits];
  const __m512i last_lane_hole =
      _mm512_mask_set1_epi8(_mm512_setzero_si512(), std::uint64_t{(1u << sizeof(T)) - 1} << (64 - sizeof(T)), -1);
  // Everything the loop reads but the values, in registers: a store to g (bytes) may alias
  // anything, so the compiler would read them again each heap.
  __m512i parts[kVectors], holes[kVectors];
  for (std::uint64_t v = 0; v < kVectors; ++v) {
    parts[v] = _mm512_loadu_si512(options.parts + v * kLanes);
    holes[v] = _mm512_loadu_si512(options.holes + v * kLanes);
  }
  std::uint64_t takes[Splits];
  bool previous_pairs = false;  // a split taking nothing pairs r = 1, if rare, with G(n - 1)
  for (int s = 0; s < Splits; ++s) {
    const std::uint64_t take = takes[s] = options.splits[s].take;
    newest_index[s] = V::counting(kLanes + 1 - std::min(take, kLanes));
    newest_holes[s] = holes[kVectors - 1];
    if (take == 0) {
      newest_holes[s] = _mm512_or_si512(newest_holes[s], last_lane_hole);
      previous_pairs = true;
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
    const HeapCandidates& listed = candidates[n - from];
    assert(listed.given == 0);
    __m512i pairs[Splits * kVectors];
    for (int s = 0; s < Splits; ++s) {
      const T* partners = g + (n - takes[s] - kChainLanes);
      for (std::uint64_t v = 0; v < kVectors; ++v) {
        const bool last = v + 1 == kVectors;
        const __m512i partner = last && takes[s] <= kLanes ? V::permute(held_low, newest_index[s], held_high)
                                                           : _mm512_loadu_si512(partners + v * kLanes);
        pairs[s * kVectors + v] =
            _mm512_ternarylogic_epi32(parts[v], partner, last ? newest_holes[s] : holes[v], kXorThenOr);
      }
    }
    // The first candidate nearly always stands (for 95% of the heaps of Grundy's game and 94% of
    // 0.6's, to 2^22), so it is tested alone, on a branch: the next heap then starts from it at once,
    // on the prediction, instead of waiting for the compares.
    const Value first = listed.values[0];
    const __m512i target = V::broadcast(first);
    __m512i least = _mm512_xor_si512(pairs[0], target);
    for (std::uint64_t i = 1; i < Splits * kVectors; ++i) least = V::min(least, _mm512_xor_si512(pairs[i], target));
    bool given = V::any_equal(least, _mm512_setzero_si512());
    given |= first == static_cast<T>((last_part ^ previous) | last_hole) || (leaves_previous && first == previous);
    for (std::size_t j = 0; j < leave_one_count; ++j)
      if (leave_one[j] != 1) given |= g[n - leave_one[j]] == first;
    int chosen = 0;
    if (__builtin_expect(given || listed.count == 0, 0)) chosen = first_not_given<T, Splits>(g, n, listed, options);
    if (chosen < 0) {
      speculated |= unsure_taken;
      return n;
    }
    unsure_taken |= std::uint64_t{(listed.unsure >> chosen) & 1u} << (n - from);
    held_low = V::permute(held_low, next_value, held_high);
    held_high = V::permute(held_high, next_value, V::broadcast(previous));
    previous = static_cast<T>(listed.values[chosen]);
    g[n] = previous;
  }
  speculated |= unsure_taken;
  return to;
}

// decide_avx512 for the options' count of splits.
template <class T>
std::uint64_t decide(T* g, std::uint64_t from, std::uint64_t to, const HeapCandidates* candidates,
                     const NearOptions<T>& options, std::uint64_t& speculated) {
  static_assert(kInOrderSplits == 4);
  switch (options.split_count) {
    case 1: return decide_avx512<T, 1>(g, from, to, candidates, options, speculated);
    case 2: return decide_avx512<T, 2>(g, from, to, candidates, options, speculated);
    case 3: return decide_avx512<T, 3>(g, from, to, candidates, options, speculated);
    case 4: return decide_avx512<T, 4>(g, from, to, candidates, options, speculated);
    default: return from;  // not here (can_chain_decide)
  }
}

}  // namespace

std::uint64_t chain_decide(std::uint8_t* g, std::uint64_t from, std::uint64_t to, const HeapCandidates* candidates,
                              const NearOptions<std::uint8_t>& options, std::uint64_t& speculated) {
  return decide(g, from, to, candidates, options, speculated);
}
std::uint64_t chain_decide(std::uint16_t* g, std::uint64_t from, std::uint64_t to, const HeapCandidates* candidates,
                              const NearOptions<std::uint16_t>& options, std::uint64_t& speculated) {
  return decide(g, from, to, candidates, options, speculated);
}
#else
std::uint64_t chain_decide(std::uint8_t*, std::uint64_t from, std::uint64_t, const HeapCandidates*,
                              const NearOptions<std::uint8_t>&, std::uint64_t&) {
  return from;
}
std::uint64_t chain_decide(std::uint16_t*, std::uint64_t from, std::uint64_t, const HeapCandidates*,
                              const NearOptions<std::uint16_t>&, std::uint64_t&) {
  return from;
}
#endif

}  // namespace sgx
