// AVX-512 only: 64 one-byte or 2 x 32 two-byte lanes, one heap per lane. A full group keeps, lane
// by lane, the least XOR of its pairs' values with each candidate (least_xor_of_pairs); a short
// group (the last of a run), whose partners past its last heap are not computed yet, and the rare
// positions that skip a heap are compared with masked loads instead (compare_pairs).

#include "sparse/pair_screen.hpp"

#if defined(__x86_64__)
#include <immintrin.h>
#define SGX_HAVE_AVX512_SCREEN 1
#endif

#include <algorithm>
#include <bit>
#include <cassert>
#include <functional>
#include <limits>
#include <stdexcept>

#include "base/tuning.hpp"
#include "kernels/vector_path.hpp"

namespace sgx {

namespace {

// lay_out_candidates a value at a time, without a branch: the counts vary from heap to heap.
template <class T>
void lay_out_lane_by_lane(const HeapCandidates* heaps, std::uint64_t count, ScreenCandidates<T>& into) {
  constexpr T kUnlisted = std::numeric_limits<T>::max();
  for (std::uint64_t j = 0; j < kScreenHeaps; ++j) {
    const int listed = j < count ? heaps[j].count : 0;
    for (int k = 0; k < kScreenSlots; ++k)
      into.values[k][j] = k < listed ? static_cast<T>(heaps[j].values[k]) : kUnlisted;
  }
}

// drop_given a candidate at a time, without a branch: which are given varies from heap to heap.
void drop_given_one_by_one(HeapCandidates* heaps, std::uint64_t count) {
  for (std::uint64_t j = 0; j < count; ++j) {
    HeapCandidates& listed = heaps[j];
    int left = 0;
    std::uint16_t unsure = 0;
    for (int k = 0; k < listed.count; ++k) {
      const unsigned kept = ((listed.given >> k) & 1) ^ 1;
      listed.values[left] = listed.values[k];
      unsure |= static_cast<std::uint16_t>((((listed.unsure >> k) & 1) & kept) << left);
      left += static_cast<int>(kept);
    }
    listed.count = static_cast<std::uint8_t>(left);
    listed.unsure = static_cast<std::uint16_t>(unsure & ((1u << left) - 1));
    listed.given = 0;
  }
}

}  // namespace

#ifdef SGX_HAVE_AVX512_SCREEN

bool can_screen_pairs() { return vector_path() == VectorPath::Avx512; }

namespace {

// The lanes of heaps 0..heaps-1.
std::uint64_t lanes_of(std::uint64_t heaps) {
  return heaps >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << heaps) - 1;
}

// The lanes that pair with r: all but the heap with m = 2r when parts must differ.
std::uint64_t lanes_pairing(std::uint64_t lanes, std::uint64_t m_lo, std::uint64_t r, bool unequal_parts) {
  if (unequal_parts && 2 * r >= m_lo && 2 * r - m_lo < 64) lanes &= ~(std::uint64_t{1} << (2 * r - m_lo));
  return lanes;
}

// The rare positions [first, last) of rare[0..count) that pair with only some lanes of a full
// group: those with 2r among the group's m when parts must differ.
struct SkippingRange {
  std::uint64_t first, last;
};
SkippingRange skipping_range(std::uint64_t m_lo, std::uint64_t heaps, const std::uint64_t* rare, std::uint64_t count,
                             bool unequal_parts) {
  if (!unequal_parts) return {count, count};
  const std::uint64_t* first = std::lower_bound(rare, rare + count, (m_lo + 1) / 2);
  const std::uint64_t* last = std::lower_bound(first, rare + count, (m_lo + heaps + 1) / 2);
  return {static_cast<std::uint64_t>(first - rare), static_cast<std::uint64_t>(last - rare)};
}

// Every lane of a vector of T set to value.
template <class T>
__attribute__((target("avx512f,avx512bw"))) __m512i broadcast(Value value) {
  if constexpr (sizeof(T) == 1)
    return _mm512_set1_epi8(static_cast<char>(value));
  else
    return _mm512_set1_epi16(static_cast<short>(value));
}

// A candidate turns up in a lane once a pair's value XOR the candidate is 0 there, so each slot
// keeps, lane by lane, the least such XOR so far: two vector instructions a slot and pair, where
// a compare into a mask and an OR of masks queue for the fewer mask units.
//
// least_xor_of_pairs lowers least[k] for the pairs of rare[from..to) with a group of whole
// vectors, in vectors of lanes T from the group's lane `first_lane` on (64 bytes: 64 one-byte or
// 32 two-byte heaps); with Half, of 32 one-byte heaps, read 32 bytes at a time (the lanes past them
// are zero). Its inner loop holds only plain loads: GCC keeps an array of vectors in memory around a
// builtin that touches memory (a masked load, a prefetch), and here the minima then went to
// memory every pair. So the partners of the next rare positions are asked for once a batch.
template <class T, bool Half = false>
__attribute__((target("avx512f,avx512bw"))) void least_xor_of_pairs(const T* g, std::uint64_t m_lo,
                                                                     const std::uint64_t* rare,
                                                                     const Value* rare_values, std::uint64_t from,
                                                                     std::uint64_t to,
                                                                     const ScreenCandidates<T>& candidates,
                                                                     std::uint64_t first_lane, __m512i* least) {
  constexpr std::uint64_t kBatch = tuning::kSparsePrefetchAhead;
  __m512i running[kScreenSlots];
  __m512i wanted[kScreenSlots];
  for (int k = 0; k < kScreenSlots; ++k) {
    running[k] = least[k];
    wanted[k] = _mm512_load_si512(candidates.values[k] + first_lane);
  }
  for (std::uint64_t batch = from; batch < to; batch += kBatch) {
    const std::uint64_t batch_end = std::min(to, batch + kBatch);
    for (std::uint64_t i = batch_end; i < std::min(to, batch_end + kBatch); ++i)
      _mm_prefetch(reinterpret_cast<const char*>(g + (m_lo - rare[i] + first_lane)), _MM_HINT_T0);
    for (std::uint64_t i = batch; i < batch_end; ++i) {
      // heap j pairs rare[i] with m_lo + j - rare[i]
      const T* partners = g + (m_lo - rare[i] + first_lane);
      const __m512i loaded =
          Half ? _mm512_maskz_inserti64x4(0xff, _mm512_setzero_si512(),
                                          _mm256_loadu_si256(reinterpret_cast<const __m256i*>(partners)), 0)
               : _mm512_loadu_si512(partners);
      const __m512i v = _mm512_xor_si512(loaded, broadcast<T>(rare_values[i]));
      for (int k = 0; k < kScreenSlots; ++k) {
        if constexpr (sizeof(T) == 1)
          running[k] = _mm512_min_epu8(running[k], _mm512_xor_si512(v, wanted[k]));
        else
          running[k] = _mm512_min_epu16(running[k], _mm512_xor_si512(v, wanted[k]));
      }
    }
  }
  for (int k = 0; k < kScreenSlots; ++k) least[k] = running[k];
}

// The lanes where least (from least_xor_of_pairs) is 0.
template <class T>
__attribute__((target("avx512f,avx512bw"))) std::uint64_t zero_lanes(__m512i least) {
  if constexpr (sizeof(T) == 1)
    return _mm512_cmpeq_epi8_mask(least, _mm512_setzero_si512());
  else
    return _mm512_cmpeq_epi16_mask(least, _mm512_setzero_si512());
}

// ORs into found[k] the lanes (of lanes) where a pair of rare[from..to) gives candidate k,
// comparing: for a short group, whose partners past its last heap are not computed yet (masked
// loads), and for the rare positions that skip a lane.
template <class T>
__attribute__((target("avx512f,avx512bw"))) void compare_pairs(const T* g, std::uint64_t m_lo,
                                                                const std::uint64_t* rare, const Value* rare_values,
                                                                std::uint64_t from, std::uint64_t to,
                                                                bool unequal_parts, std::uint64_t lanes,
                                                                const ScreenCandidates<T>& candidates,
                                                                std::uint64_t* found) {
  constexpr std::uint64_t kVectorLanes = 64 / sizeof(T);
  for (std::uint64_t i = from; i < to; ++i) {
    const std::uint64_t pairing = lanes_pairing(lanes, m_lo, rare[i], unequal_parts);
    for (std::uint64_t first_lane = 0; first_lane < kScreenHeaps; first_lane += kVectorLanes) {
      const T* partners = g + (m_lo - rare[i] + first_lane);  // heap j pairs rare[i] with m_lo + j - rare[i]
      const std::uint64_t loaded = lanes >> first_lane, compared = pairing >> first_lane;
      __m512i v;
      if constexpr (sizeof(T) == 1)
        v = _mm512_maskz_loadu_epi8(loaded, partners);
      else
        v = _mm512_maskz_loadu_epi16(static_cast<__mmask32>(loaded), partners);
      v = _mm512_xor_si512(v, broadcast<T>(rare_values[i]));
      for (int k = 0; k < kScreenSlots; ++k) {
        const __m512i wanted = _mm512_load_si512(candidates.values[k] + first_lane);
        if constexpr (sizeof(T) == 1)
          found[k] |= _mm512_mask_cmpeq_epi8_mask(compared, v, wanted);
        else
          found[k] |= std::uint64_t{_mm512_mask_cmpeq_epi16_mask(static_cast<__mmask32>(compared), v, wanted)}
                      << first_lane;
      }
    }
  }
}

template <class T>
__attribute__((target("avx512f,avx512bw"))) void screen(const T* g, std::uint64_t m_lo, const std::uint64_t* rare,
                                                         const Value* rare_values, std::uint64_t count,
                                                         bool unequal_parts, std::uint64_t heaps,
                                                         const ScreenCandidates<T>& candidates, std::uint64_t* hits) {
  // A bit per heap in the hit masks; rare positions increasing (skipping_range searches them) and
  // below m_lo, so that every partner m_lo + j - rare[i] is a non-empty heap.
  assert(heaps >= 1 && heaps <= kScreenHeaps);
  assert(std::adjacent_find(rare, rare + count, std::greater_equal<>()) == rare + count);
  assert(count == 0 || rare[count - 1] < m_lo);
  const std::uint64_t lanes = lanes_of(heaps);
  std::uint64_t found[kScreenSlots] = {};
  constexpr std::uint64_t kVectorLanes = 64 / sizeof(T);
  // Whole vectors of heaps (a group, or a part of one in the pipeline's far stage), or half of one
  // of one-byte heaps; else masked loads (a short group).
  const bool half = sizeof(T) == 1 && heaps == kVectorLanes / 2;
  if (heaps % kVectorLanes != 0 && !half) {
    compare_pairs(g, m_lo, rare, rare_values, 0, count, unequal_parts, lanes, candidates, found);
  } else {
    const SkippingRange skipping = skipping_range(m_lo, heaps, rare, count, unequal_parts);
    compare_pairs(g, m_lo, rare, rare_values, skipping.first, skipping.last, unequal_parts, lanes, candidates, found);
    for (std::uint64_t first_lane = 0; first_lane < heaps; first_lane += kVectorLanes) {
      __m512i least[kScreenSlots];
      for (int k = 0; k < kScreenSlots; ++k) least[k] = _mm512_set1_epi8(-1);
      if (half) {
        least_xor_of_pairs<T, true>(g, m_lo, rare, rare_values, 0, skipping.first, candidates, first_lane, least);
        least_xor_of_pairs<T, true>(g, m_lo, rare, rare_values, skipping.last, count, candidates, first_lane, least);
      } else {
        least_xor_of_pairs(g, m_lo, rare, rare_values, 0, skipping.first, candidates, first_lane, least);
        least_xor_of_pairs(g, m_lo, rare, rare_values, skipping.last, count, candidates, first_lane, least);
      }
      for (int k = 0; k < kScreenSlots; ++k) found[k] |= zero_lanes<T>(least[k]) << first_lane;
    }
  }
  for (int k = 0; k < kScreenSlots; ++k) hits[k] |= found[k] & lanes;
}

// A heap's candidate slots, as the lanes of a vector of 16 values.
constexpr __mmask16 kSlotLanes = static_cast<__mmask16>((1u << kScreenSlots) - 1);

// lay_out_candidates for one-byte values. Four heaps to a vector, sixteen bytes each (slot k of
// heap h at byte 16h + k), are reordered slot by slot (byte 4k + h): slot k of the heaps 4q to
// 4q + 3 is then word k of quad q, and each slot's 64 lanes one gather of 16 words. Written lane
// by lane instead, the layout took longer than the screening it serves (Grundy's game to 2^23, one
// thread, the pipeline's bands: 0.22 s against 0.17 s).
__attribute__((target("avx512f,avx512bw,avx512vbmi,avx512vl"))) void lay_out_bytes(
    const HeapCandidates* heaps, std::uint64_t count, ScreenCandidates<std::uint8_t>& into) {
  static_assert(kScreenSlots <= 16 && kScreenHeaps == 64, "a heap's slots fit 16 bytes, a slot's lanes 64");
  constexpr int kQuads = kScreenHeaps / 4;
  alignas(64) std::uint8_t order[64];
  for (int b = 0; b < 64; ++b) order[b] = static_cast<std::uint8_t>(16 * (b % 4) + b / 4);
  const __m512i slot_order = _mm512_load_si512(order);
  const __m128i unlisted = _mm_set1_epi8(-1);
  alignas(64) std::uint32_t quads[kQuads][16];
  for (int q = 0; q < kQuads; ++q) {
    __m512i quad = _mm512_set1_epi8(-1);
    for (int h = 0; h < 4 && static_cast<std::uint64_t>(4 * q + h) < count; ++h) {
      const HeapCandidates& heap = heaps[4 * q + h];
      const __m128i values = _mm512_maskz_cvtepi32_epi8(0xffff, _mm512_maskz_loadu_epi32(kSlotLanes, heap.values));
      const __m128i slots = _mm_mask_mov_epi8(unlisted, static_cast<__mmask16>((1u << heap.count) - 1), values);
      quad = _mm512_mask_broadcast_i32x4(quad, static_cast<__mmask16>(0xfu << (4 * h)), slots);
    }
    _mm512_store_si512(quads[q], _mm512_maskz_permutexvar_epi8(~__mmask64{0}, slot_order, quad));
  }
  const __m512i quad_words = _mm512_mullo_epi32(_mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                                                _mm512_set1_epi32(16));
  for (int k = 0; k < kScreenSlots; ++k)
    _mm512_store_si512(into.values[k],
                       _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), 0xffff,
                                                   _mm512_add_epi32(quad_words, _mm512_set1_epi32(k)), quads, 4));
}

// drop_given with the values and the unsure bits each compressed by a vector instruction: the
// loop a candidate at a time took 2% of the pipeline's time on Grundy's game.
__attribute__((target("avx512f,avx512bw,avx512vl,popcnt"))) void drop_given_compressed(HeapCandidates* heaps,
                                                                                       std::uint64_t count) {
  const __m512i ones = _mm512_set1_epi32(1);
  for (std::uint64_t j = 0; j < count; ++j) {
    HeapCandidates& listed = heaps[j];
    const auto kept = static_cast<__mmask16>(((1u << listed.count) - 1) & ~unsigned{listed.given});
    const __m512i values = _mm512_maskz_loadu_epi32(kSlotLanes, listed.values);
    _mm512_mask_storeu_epi32(listed.values, kSlotLanes, _mm512_maskz_compress_epi32(kept, values));
    const __m512i unsure = _mm512_maskz_compress_epi32(kept, _mm512_maskz_mov_epi32(listed.unsure, ones));
    listed.unsure = static_cast<std::uint16_t>(_mm512_test_epi32_mask(unsure, unsure));
    listed.count = static_cast<std::uint8_t>(std::popcount(unsigned{kept}));
    listed.given = 0;
  }
}

}  // namespace

void drop_given(HeapCandidates* heaps, std::uint64_t count) {
  if (can_screen_pairs()) return drop_given_compressed(heaps, count);
  drop_given_one_by_one(heaps, count);
}

void lay_out_candidates(const HeapCandidates* heaps, std::uint64_t count, ScreenCandidates<std::uint8_t>& into) {
  assert(count <= kScreenHeaps);
  if (can_screen_pairs()) return lay_out_bytes(heaps, count, into);
  lay_out_lane_by_lane(heaps, count, into);
}

void lay_out_candidates(const HeapCandidates* heaps, std::uint64_t count, ScreenCandidates<std::uint16_t>& into) {
  assert(count <= kScreenHeaps);
  lay_out_lane_by_lane(heaps, count, into);
}

void screen_rare_pairs(const std::uint8_t* g, std::uint64_t m_lo, const std::uint64_t* rare, const Value* rare_values,
                       std::uint64_t count, bool unequal_parts, std::uint64_t heaps,
                       const ScreenCandidates<std::uint8_t>& candidates, std::uint64_t* hits) {
  screen(g, m_lo, rare, rare_values, count, unequal_parts, heaps, candidates, hits);
}

void screen_rare_pairs(const std::uint16_t* g, std::uint64_t m_lo, const std::uint64_t* rare, const Value* rare_values,
                       std::uint64_t count, bool unequal_parts, std::uint64_t heaps,
                       const ScreenCandidates<std::uint16_t>& candidates, std::uint64_t* hits) {
  screen(g, m_lo, rare, rare_values, count, unequal_parts, heaps, candidates, hits);
}

#else

bool can_screen_pairs() { return false; }

void drop_given(HeapCandidates* heaps, std::uint64_t count) { drop_given_one_by_one(heaps, count); }

void lay_out_candidates(const HeapCandidates* heaps, std::uint64_t count, ScreenCandidates<std::uint8_t>& into) {
  lay_out_lane_by_lane(heaps, count, into);
}

void lay_out_candidates(const HeapCandidates* heaps, std::uint64_t count, ScreenCandidates<std::uint16_t>& into) {
  lay_out_lane_by_lane(heaps, count, into);
}

void screen_rare_pairs(const std::uint8_t*, std::uint64_t, const std::uint64_t*, const Value*, std::uint64_t, bool,
                       std::uint64_t, const ScreenCandidates<std::uint8_t>&, std::uint64_t*) {
  throw std::logic_error("screen_rare_pairs needs AVX-512 (check can_screen_pairs first)");
}

void screen_rare_pairs(const std::uint16_t*, std::uint64_t, const std::uint64_t*, const Value*, std::uint64_t, bool,
                       std::uint64_t, const ScreenCandidates<std::uint16_t>&, std::uint64_t*) {
  throw std::logic_error("screen_rare_pairs needs AVX-512 (check can_screen_pairs first)");
}

#endif

}  // namespace sgx
