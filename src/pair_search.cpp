// Two versions: one with AVX2 vectors (32 one-byte or 16 two-byte values at a time), chosen at
// run time when the processor has them, and a portable one for every other case.

#include "pair_search.hpp"

#include <bit>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define SGX_HAVE_AVX2_PATH 1
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
};

template <class T>
std::uint32_t find_portable(const T* g, std::uint64_t m, std::uint64_t from, std::uint64_t to, Wanted<T>& wanted) {
  for (std::uint64_t x = from; x <= to && !wanted.done(); ++x) wanted.note(static_cast<T>(g[x] ^ g[m - x]));
  return wanted.found;
}

#ifdef SGX_HAVE_AVX2_PATH

bool cpu_has_avx2() {
  static const bool has = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt");
  return has;
}

// The pairs x, x + 1, ... take their partners m - x, m - x - 1, ...: a vector loaded forwards
// from m - x - (lanes - 1) is reversed (within each 128-bit half by a byte shuffle, then the
// halves swapped) to line up with the one loaded from x. Each vector of pairs is compared with
// the values still wanted, Slots of them at a time (repeated to fill the slots), until a vector
// holds one; that vector is read value by value and the scan returns the x after it.
template <class T, int Slots>
__attribute__((target("avx2"))) std::uint64_t scan_avx2(const T* g, std::uint64_t m, std::uint64_t x,
                                                          std::uint64_t to, Wanted<T>& wanted) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2);
  constexpr std::uint64_t kLanes = 32 / sizeof(T);
  const __m256i reverse_in_halves =
      sizeof(T) == 1 ? _mm256_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10,
                                        9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
                     : _mm256_setr_epi8(14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1, 14, 15, 12, 13, 10, 11,
                                        8, 9, 6, 7, 4, 5, 2, 3, 0, 1);
  __m256i targets[Slots];
  const std::uint32_t left = wanted.all & ~wanted.found;
  std::uint32_t cycle = left;
  for (int slot = 0; slot < Slots; ++slot) {
    if (cycle == 0) cycle = left;
    const T v = wanted.values[std::countr_zero(cycle)];
    cycle &= cycle - 1;
    targets[slot] = sizeof(T) == 1 ? _mm256_set1_epi8(static_cast<char>(v)) : _mm256_set1_epi16(static_cast<short>(v));
  }
  for (; x + kLanes - 1 <= to; x += kLanes) {
    const __m256i left_parts = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(g + x));
    __m256i right_parts = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(g + (m - x - (kLanes - 1))));
    right_parts = _mm256_permute4x64_epi64(_mm256_shuffle_epi8(right_parts, reverse_in_halves), 0x4E);
    const __m256i v = _mm256_xor_si256(left_parts, right_parts);
    __m256i hit = _mm256_setzero_si256();
    for (int slot = 0; slot < Slots; ++slot)
      hit = _mm256_or_si256(hit, sizeof(T) == 1 ? _mm256_cmpeq_epi8(v, targets[slot])
                                                : _mm256_cmpeq_epi16(v, targets[slot]));
    if (auto lanes = static_cast<std::uint32_t>(_mm256_movemask_epi8(hit))) {
      for (; lanes; lanes &= lanes - 1) {  // a bit per byte: a two-byte lane shows twice, harmlessly
        const std::uint64_t i = static_cast<std::uint64_t>(std::countr_zero(lanes)) / sizeof(T);
        wanted.note(static_cast<T>(g[x + i] ^ g[m - x - i]));
      }
      return x + kLanes;
    }
  }
  return x;
}

// Fewer values wanted, fewer compares per vector.
template <class T>
__attribute__((target("avx2,popcnt"))) std::uint32_t find_avx2(const T* g, std::uint64_t m, std::uint64_t from, std::uint64_t to, Wanted<T>& wanted) {
  constexpr std::uint64_t kLanes = 32 / sizeof(T);
  std::uint64_t x = from;
  while (!wanted.done() && x + kLanes - 1 <= to) {
    const int left = std::popcount(wanted.all & ~wanted.found);
    if (left <= 2) x = scan_avx2<T, 2>(g, m, x, to, wanted);
    else if (left <= 4) x = scan_avx2<T, 4>(g, m, x, to, wanted);
    else if (left <= 8) x = scan_avx2<T, 8>(g, m, x, to, wanted);
    else x = scan_avx2<T, kSearchedValues>(g, m, x, to, wanted);
  }
  return find_portable(g, m, x, to, wanted);
}

#endif

template <class T>
std::uint32_t find(const T* g, std::uint64_t m, std::uint64_t from, std::uint64_t to, const T* values, int count) {
  Wanted<T> wanted(values, count);
#ifdef SGX_HAVE_AVX2_PATH
  if constexpr (sizeof(T) <= 2)
    if (cpu_has_avx2()) return find_avx2(g, m, from, to, wanted);
#endif
  return find_portable(g, m, from, to, wanted);
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

}  // namespace sgx
