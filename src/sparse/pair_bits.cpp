// AVX-512 (F, BW and VBMI): a pair's 64 values are one vector of bytes; byte permutes spread each
// eight of them into the low bytes of eight 64-bit lanes, and a variable shift of 1 makes their
// bits. A shift by 64 or more gives 0, which drops a skipped heap's value. (The shift is written
// with a mask that keeps every lane, the same instruction: GCC 12 warns, maybe-uninitialized,
// inside the unmasked intrinsic.)

#include "sparse/pair_bits.hpp"

#if defined(__x86_64__)
#include <immintrin.h>
#define SGX_HAVE_AVX512_BITS 1
#endif

#include <stdexcept>

#include "kernels/vector_path.hpp"

namespace sgx {

#ifdef SGX_HAVE_AVX512_BITS

bool can_mark_pair_bits() { return vector_path() == VectorPath::Avx512; }

namespace {

__attribute__((target("avx512f,avx512bw,avx512vbmi"))) void mark_avx512(const std::vector<GroupPair>& pairs,
                                                                        std::uint64_t heaps, std::uint64_t* bits,
                                                                        unsigned word) {
  const __mmask64 lanes = heaps >= kBitHeaps ? ~__mmask64{0} : (__mmask64{1} << heaps) - 1;
  // spread[k]: byte 8k + i of a vector into the low byte of 64-bit lane i (the others zeroed by
  // the mask).
  __m512i spread[8];
  for (int k = 0; k < 8; ++k) {
    alignas(64) std::uint8_t index[64] = {};
    for (int i = 0; i < 8; ++i) index[8 * i] = static_cast<std::uint8_t>(8 * k + i);
    spread[k] = _mm512_load_si512(index);
  }
  const __mmask64 low_bytes = 0x0101010101010101ull;
  const __m512i one = _mm512_set1_epi64(1);
  const __m512i dropped = _mm512_set1_epi8(static_cast<char>(0xff));
  // The word's values less 64 word: the others wrap to 64 or more (bytes below 256), so shift out.
  const __m512i word_start = _mm512_set1_epi8(static_cast<char>(64 * word));
  __m512i words[8];
  for (int k = 0; k < 8; ++k) words[k] = _mm512_setzero_si512();
  for (const GroupPair& pair : pairs) {
    __m512i values = _mm512_xor_si512(_mm512_maskz_loadu_epi8(lanes, pair.partners),
                                      _mm512_set1_epi8(static_cast<char>(pair.part)));
    if (word != 0) values = _mm512_maskz_sub_epi8(~__mmask64{0}, values, word_start);
    if (pair.skip < kBitHeaps) values = _mm512_mask_mov_epi8(values, __mmask64{1} << pair.skip, dropped);
    for (int k = 0; k < 8; ++k) {
      const __m512i shifts = _mm512_maskz_permutexvar_epi8(low_bytes, spread[k], values);
      words[k] = _mm512_or_si512(words[k], _mm512_maskz_sllv_epi64(0xff, one, shifts));
    }
  }
  for (int k = 0; k < 8; ++k) {
    alignas(64) std::uint64_t out[8];
    _mm512_store_si512(out, words[k]);
    for (int i = 0; i < 8 && 8 * static_cast<std::uint64_t>(k) + i < heaps; ++i) bits[8 * k + i] |= out[i];
  }
}

}  // namespace

void mark_pair_bits(const std::vector<GroupPair>& pairs, std::uint64_t heaps, std::uint64_t* bits, unsigned word) {
  if (!can_mark_pair_bits()) throw std::logic_error("mark_pair_bits needs AVX-512");
  if (word >= 4) throw std::logic_error("mark_pair_bits: values are bytes, four words at most");
  mark_avx512(pairs, heaps, bits, word);
}

#else

bool can_mark_pair_bits() { return false; }

void mark_pair_bits(const std::vector<GroupPair>&, std::uint64_t, std::uint64_t*, unsigned) {
  throw std::logic_error("mark_pair_bits needs AVX-512");
}

#endif

}  // namespace sgx
