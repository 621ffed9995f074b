// AVX-512 only: 64 one-byte or 2 x 32 two-byte lanes, one heap per lane. Masked loads keep a
// short group (the last of a run) from reading values that are not computed yet.

#include "pair_screen.hpp"

#if defined(__x86_64__)
#include <immintrin.h>
#define SGX_HAVE_AVX512_SCREEN 1
#endif

#include <stdexcept>

#include "tuning.hpp"
#include "vector_path.hpp"

namespace sgx {

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

__attribute__((target("avx512f,avx512bw"))) void screen_bytes(const std::uint8_t* g, std::uint64_t m_lo,
                                                               const std::uint64_t* rare, const Value* rare_values,
                                                               std::uint64_t count, bool unequal_parts,
                                                               std::uint64_t heaps,
                                                               const ScreenCandidates<std::uint8_t>& candidates,
                                                               std::uint64_t* hits) {
  __m512i wanted[kScreenSlots];
  __mmask64 found[kScreenSlots];
  for (int k = 0; k < kScreenSlots; ++k) {
    wanted[k] = _mm512_load_si512(candidates.values[k]);
    found[k] = 0;
  }
  const std::uint64_t lanes = lanes_of(heaps);
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::uint8_t* partners = g + (m_lo - rare[i]);  // heap j pairs rare[i] with m_lo + j - rare[i]
    if (i + tuning::kSparsePrefetchAhead < count)
      _mm_prefetch(reinterpret_cast<const char*>(g + (m_lo - rare[i + tuning::kSparsePrefetchAhead])), _MM_HINT_T0);
    const __m512i v = _mm512_xor_si512(_mm512_maskz_loadu_epi8(lanes, partners),
                                       _mm512_set1_epi8(static_cast<char>(rare_values[i])));
    const __mmask64 pairing = lanes_pairing(lanes, m_lo, rare[i], unequal_parts);
    for (int k = 0; k < kScreenSlots; ++k) found[k] |= _mm512_mask_cmpeq_epi8_mask(pairing, v, wanted[k]);
  }
  for (int k = 0; k < kScreenSlots; ++k) hits[k] |= found[k];
}

__attribute__((target("avx512f,avx512bw"))) void screen_words(const std::uint16_t* g, std::uint64_t m_lo,
                                                               const std::uint64_t* rare, const Value* rare_values,
                                                               std::uint64_t count, bool unequal_parts,
                                                               std::uint64_t heaps,
                                                               const ScreenCandidates<std::uint16_t>& candidates,
                                                               std::uint64_t* hits) {
  __m512i wanted_low[kScreenSlots], wanted_high[kScreenSlots];
  std::uint64_t found[kScreenSlots];
  for (int k = 0; k < kScreenSlots; ++k) {
    wanted_low[k] = _mm512_load_si512(candidates.values[k]);
    wanted_high[k] = _mm512_load_si512(candidates.values[k] + 32);
    found[k] = 0;
  }
  const std::uint64_t lanes = lanes_of(heaps);
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::uint16_t* partners = g + (m_lo - rare[i]);
    if (i + tuning::kSparsePrefetchAhead < count) {
      const char* ahead = reinterpret_cast<const char*>(g + (m_lo - rare[i + tuning::kSparsePrefetchAhead]));
      _mm_prefetch(ahead, _MM_HINT_T0);
      _mm_prefetch(ahead + 64, _MM_HINT_T0);
    }
    const __m512i part = _mm512_set1_epi16(static_cast<short>(rare_values[i]));
    const __m512i low = _mm512_xor_si512(_mm512_maskz_loadu_epi16(static_cast<__mmask32>(lanes), partners), part);
    const __m512i high =
        _mm512_xor_si512(_mm512_maskz_loadu_epi16(static_cast<__mmask32>(lanes >> 32), partners + 32), part);
    const std::uint64_t pairing = lanes_pairing(lanes, m_lo, rare[i], unequal_parts);
    const auto pairing_low = static_cast<__mmask32>(pairing), pairing_high = static_cast<__mmask32>(pairing >> 32);
    for (int k = 0; k < kScreenSlots; ++k)
      found[k] |= std::uint64_t{_mm512_mask_cmpeq_epi16_mask(pairing_low, low, wanted_low[k])} |
                  std::uint64_t{_mm512_mask_cmpeq_epi16_mask(pairing_high, high, wanted_high[k])} << 32;
  }
  for (int k = 0; k < kScreenSlots; ++k) hits[k] |= found[k];
}

}  // namespace

void screen_rare_pairs(const std::uint8_t* g, std::uint64_t m_lo, const std::uint64_t* rare, const Value* rare_values,
                       std::uint64_t count, bool unequal_parts, std::uint64_t heaps,
                       const ScreenCandidates<std::uint8_t>& candidates, std::uint64_t* hits) {
  screen_bytes(g, m_lo, rare, rare_values, count, unequal_parts, heaps, candidates, hits);
}

void screen_rare_pairs(const std::uint16_t* g, std::uint64_t m_lo, const std::uint64_t* rare, const Value* rare_values,
                       std::uint64_t count, bool unequal_parts, std::uint64_t heaps,
                       const ScreenCandidates<std::uint16_t>& candidates, std::uint64_t* hits) {
  screen_words(g, m_lo, rare, rare_values, count, unequal_parts, heaps, candidates, hits);
}

#else

bool can_screen_pairs() { return false; }

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
