// Three versions, the best one the processor runs chosen at run time: AVX-512 (64 one-byte or 32
// two-byte values at a time, with masked loads for the last pairs), AVX2 (32 or 16 at a time, the
// last pairs one by one), and a portable loop for every other case, four-byte values among them.

#include "pair_search.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
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

std::atomic<PairSearchPath> path_limit{PairSearchPath::Avx512};

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
// last pairs, fewer than a vector, take one more vector through masked loads, because ranges
// seldom end on a vector's edge and up to 63 pairs one by one cost more than the vector saves:
// the partners are loaded forwards from m - to, so no load starts before g, and the permute's
// indices are shifted down to reverse only the lanes loaded.
struct Avx512Vectors {
  static constexpr std::uint64_t kBytes = 64;
  static constexpr bool kScansLastPairs = true;  // by the masked vector

  template <class T>
  using Lanes = std::conditional_t<sizeof(T) == 1, std::uint64_t, std::uint32_t>;

  template <class T>
  __attribute__((target("avx512f,avx512bw,avx512vbmi"))) static __m512i reversed_lane_indices() {
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
  __attribute__((target("avx512f,avx512bw,avx512vbmi"))) static __m512i permute(__m512i indices, __m512i v) {
    return sizeof(T) == 1 ? _mm512_maskz_permutexvar_epi8(~__mmask64{0}, indices, v)
                          : _mm512_permutexvar_epi16(indices, v);
  }

  // Lanes of v equal to any target, within the lanes in `within`.
  template <class T, int Slots>
  __attribute__((target("avx512f,avx512bw,avx512vbmi"))) static Lanes<T> matching_lanes(
      __m512i v, const __m512i (&targets)[Slots], Lanes<T> within) {
    Lanes<T> lanes = 0;
    for (int slot = 0; slot < Slots; ++slot) {
      if constexpr (sizeof(T) == 1) lanes |= _mm512_cmpeq_epi8_mask(v, targets[slot]);
      else lanes |= _mm512_cmpeq_epi16_mask(v, targets[slot]);
    }
    return lanes & within;
  }

  template <class T, int Slots>
  __attribute__((target("avx512f,avx512bw,avx512vbmi"))) static std::uint64_t scan(const T* g, std::uint64_t m,
                                                                                    std::uint64_t x, std::uint64_t to,
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
    const std::uint64_t pairs = to - x + 1;
    const Lanes<T> loaded = (Lanes<T>{1} << pairs) - 1;
    __m512i left_parts, right_parts;
    if constexpr (sizeof(T) == 1) {
      left_parts = _mm512_maskz_loadu_epi8(loaded, g + x);
      right_parts = _mm512_maskz_loadu_epi8(loaded, g + (m - to));
    } else {
      left_parts = _mm512_maskz_loadu_epi16(loaded, g + x);
      right_parts = _mm512_maskz_loadu_epi16(loaded, g + (m - to));
    }
    const __m512i shift = sizeof(T) == 1 ? _mm512_set1_epi8(static_cast<char>(kLanes - pairs))
                                         : _mm512_set1_epi16(static_cast<short>(kLanes - pairs));
    const __m512i reverse_loaded = sizeof(T) == 1 ? _mm512_sub_epi8(reverse, shift) : _mm512_sub_epi16(reverse, shift);
    right_parts = permute<T>(reverse_loaded, right_parts);
    if (const Lanes<T> lanes = matching_lanes<T>(_mm512_xor_si512(left_parts, right_parts), targets, loaded))
      wanted.note_lanes(g, m, x, lanes);
    return to + 1;
  }
};

PairSearchPath best_path_of_this_cpu() {
  if (!__builtin_cpu_supports("popcnt")) return PairSearchPath::Portable;
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512vbmi"))
    return PairSearchPath::Avx512;
  if (__builtin_cpu_supports("avx2")) return PairSearchPath::Avx2;
  return PairSearchPath::Portable;
}

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

#else

PairSearchPath best_path_of_this_cpu() { return PairSearchPath::Portable; }

#endif

template <class T>
std::uint32_t find(const T* g, std::uint64_t m, std::uint64_t from, std::uint64_t to, const T* values, int count) {
  Wanted<T> wanted(values, count);
#ifdef SGX_HAVE_X86_PATHS
  if constexpr (sizeof(T) <= 2) {
    switch (std::min(best_pair_search_path(), path_limit.load(std::memory_order_relaxed))) {
      case PairSearchPath::Avx512: return find_vectorised<Avx512Vectors>(g, m, from, to, wanted);
      case PairSearchPath::Avx2: return find_vectorised<Avx2Vectors>(g, m, from, to, wanted);
      case PairSearchPath::Portable: break;
    }
  }
#endif
  return find_portable(g, m, from, to, wanted);
}

}  // namespace

PairSearchPath best_pair_search_path() {
  static const PairSearchPath best = best_path_of_this_cpu();
  return best;
}

void limit_pair_search_path(PairSearchPath limit) { path_limit.store(limit, std::memory_order_relaxed); }

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
