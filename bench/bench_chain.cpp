// The least a heap's decision in order can cost: the chain a kernel on many threads cannot
// shorten (bench/HISTORY.md, "What a span under 2% needs").
//
// A heap's value past the last rare position is c, the least common value none of its options
// gives, unless a rare value below c is given by no option (a new rare position, which the
// parallel part can confirm afterwards). The common values its options give come only from its
// rare pairs (r, m - r), r rare, and its moves to one heap (for a mask without the heap's
// parity, once the heap is past twice the last rare position, so that no split has two rare
// parts). The pairs with a far rare part (r >= W) read values at least W below the heap, so many
// threads can mark them ahead, W heaps before the heap's turn; only the near pairs (r < W) and
// the one-heap moves must be read in order. This benchmark times exactly that step, heap after
// heap, each reading the values the steps before it wrote: its far pairs are marked beforehand
// (untimed) from the true values, and every value the chain gives is checked against the sparse
// kernel's. Run:
// build/bench/bench_chain

#include <benchmark/benchmark.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <immintrin.h>

#include "games/move_table.hpp"
#include "sgx/engine.hpp"
#include "sgx/rules.hpp"
#include "sgx/stats.hpp"

namespace {

constexpr int kWords = 8;  // values below 512
using Bits = std::array<std::uint64_t, kWords>;

void set_bit(Bits& bits, unsigned value) { bits[value >> 6] |= std::uint64_t{1} << (value & 63); }

// The least value in bits; 64 kWords where there is none.
unsigned least(const Bits& bits) {
  for (int w = 0; w < kWords; ++w)
    if (bits[w] != 0) return 64 * static_cast<unsigned>(w) + static_cast<unsigned>(std::countr_zero(bits[w]));
  return 64 * kWords;
}

struct Game {
  std::vector<std::uint16_t> values;  // the sparse kernel's
  sgx::RareMask mask;
  std::vector<std::uint64_t> rare;  // every rare position from 1, increasing
  std::vector<sgx::SplitMove> splits;
  std::vector<std::uint64_t> leave_one;
};

Game compute_game(const std::string& code, std::uint64_t heaps) {
  const sgx::Rules rules = sgx::parse_rules(code);
  const sgx::Sequence sequence = sgx::compute_sequence(rules, heaps, sgx::KernelKind::Sparse, 0, false);
  Game game;
  game.values.resize(heaps);
  for (std::uint64_t n = 0; n < heaps; ++n) {
    if (sequence[n] >= 64 * kWords) throw std::runtime_error(code + ": a value past the bits timed here");
    game.values[n] = static_cast<std::uint16_t>(sequence[n]);
  }
  game.mask = sgx::compute_stats(sequence, rules.split_take_parity()).rare_mask;
  if (game.mask.with_position)
    throw std::runtime_error(code + ": a rare mask with the heap's parity is not timed here");
  for (std::uint64_t n = 1; n < heaps; ++n)  // a split's parts are not empty
    if (sgx::is_rare(game.values[n], n, game.mask)) game.rare.push_back(n);
  sgx::MoveTable moves(rules);
  moves.cover(heaps);
  if (!moves.split_three().empty()) throw std::runtime_error(code + ": splits into three heaps are not timed here");
  game.splits = moves.split_two();
  game.leave_one = moves.leave_one();
  return game;
}

// The game to from + count, computed once for every window; its rare positions lie below from / 2.
const Game& game_of(const std::string& code, std::uint64_t from, std::uint64_t count) {
  static std::map<std::string, Game> games;
  if (!games.contains(code)) games.emplace(code, compute_game(code, from + count));
  const Game& game = games.at(code);
  if (!game.rare.empty() && 2 * game.rare.back() >= from)
    throw std::runtime_error(code + ": a split with two rare parts among the heaps timed");
  return game;
}

// The far pairs of heaps [from, from + count) (r >= window), as bits, from the true values.
std::vector<Bits> mark_far_pairs(const Game& game, std::uint64_t from, std::uint64_t count, std::uint64_t window) {
  std::vector<Bits> far(count);
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::uint64_t n = from + i;
    for (const sgx::SplitMove& split : game.splits) {
      const std::uint64_t m = n - split.take;
      for (const std::uint64_t r : game.rare) {
        if (r > split.largest_first_part(m)) break;
        if (r >= window) set_bit(far[i], game.values[r] ^ game.values[m - r]);
      }
    }
  }
  return far;
}

// The common values of an even and an odd heap.
std::array<Bits, 2> common_values(const sgx::RareMask& mask) {
  std::array<Bits, 2> common{};
  for (unsigned v = 0; v < 64 * kWords; ++v)
    for (int parity = 0; parity < 2; ++parity)
      if (!sgx::is_rare(v, static_cast<std::uint64_t>(parity), mask)) set_bit(common[parity], v);
  return common;
}

// The values below from, and room for the chain's.
template <class T>
std::vector<T> values_below(const Game& game, std::uint64_t from, std::uint64_t count) {
  std::vector<T> out(from + count);
  for (std::uint64_t n = 0; n < from; ++n) out[n] = static_cast<T>(game.values[n]);
  return out;
}

template <class T>
void check(const std::string& code, const std::vector<T>& out, const Game& game) {
  for (std::uint64_t n = 0; n < out.size(); ++n)
    if (out[n] != game.values[n])
      throw std::runtime_error(code + ": the chain's value of heap " + std::to_string(n) + " is " +
                               std::to_string(out[n]) + ", the sparse kernel's " + std::to_string(game.values[n]));
}

void count_values(benchmark::State& state, std::uint64_t count) {
  state.counters["values/s"] =
      benchmark::Counter(static_cast<double>(state.iterations() * count), benchmark::Counter::kIsRate);
}

// The step a pair at a time: each near pair's value set as a bit, then the least common value
// not set.
template <class T>
void chain_pair_by_pair(benchmark::State& state, const std::string& code, std::uint64_t from, std::uint64_t count) {
  const std::uint64_t window = static_cast<std::uint64_t>(state.range(0));
  const Game& game = game_of(code, from, count);
  const std::array<Bits, 2> common = common_values(game.mask);
  const std::vector<Bits> far = mark_far_pairs(game, from, count, window);
  std::vector<std::uint64_t> near;
  std::vector<T> near_values;
  for (const std::uint64_t r : game.rare)
    if (r < window) {
      near.push_back(r);
      near_values.push_back(static_cast<T>(game.values[r]));
    }
  std::vector<T> out = values_below<T>(game, from, count);
  for (auto _ : state) {
    T* g = out.data();
    for (std::uint64_t n = from; n < from + count; ++n) {
      Bits given = far[n - from];
      for (const std::uint64_t k : game.leave_one) set_bit(given, g[n - k]);
      for (const sgx::SplitMove& split : game.splits) {
        const std::uint64_t m = n - split.take;
        for (std::size_t j = 0; j < near.size(); ++j) set_bit(given, near_values[j] ^ g[m - near[j]]);
      }
      Bits free;
      for (int w = 0; w < kWords; ++w) free[w] = common[n & 1][w] & ~given[w];
      g[n] = static_cast<T>(least(free));
    }
    benchmark::DoNotOptimize(out.data());
    check(code, out, game);
  }
  count_values(state, count);
  state.counters["near pairs/heap"] = static_cast<double>(near.size() * game.splits.size());
}

// Vector operations on lanes of T: bytes, or 16-bit words.
template <class T>
struct Lanes {
  static constexpr std::uint64_t kCount = 64 / sizeof(T);  // lanes a vector
  static __m512i __attribute__((target("avx512f,avx512bw,avx512vbmi"))) permute(__m512i low, __m512i index,
                                                                               __m512i high) {
    if constexpr (sizeof(T) == 1) return _mm512_permutex2var_epi8(low, index, high);
    else return _mm512_permutex2var_epi16(low, index, high);
  }
  static __mmask64 __attribute__((target("avx512f,avx512bw"))) equal(__mmask64 lanes, __m512i a, __m512i b) {
    if constexpr (sizeof(T) == 1) return _mm512_mask_cmpeq_epi8_mask(lanes, a, b);
    else return _mm512_mask_cmpeq_epi16_mask(static_cast<__mmask32>(lanes), a, b);
  }
  // b's lanes where lanes says so, a's elsewhere.
  static __m512i __attribute__((target("avx512f,avx512bw"))) blend(__mmask64 lanes, __m512i a, __m512i b) {
    if constexpr (sizeof(T) == 1) return _mm512_mask_blend_epi8(lanes, a, b);
    else return _mm512_mask_blend_epi16(static_cast<__mmask32>(lanes), a, b);
  }
  static __m512i __attribute__((target("avx512f,avx512bw"))) broadcast(unsigned value) {
    if constexpr (sizeof(T) == 1) return _mm512_set1_epi8(static_cast<char>(value));
    else return _mm512_set1_epi16(static_cast<short>(value));
  }
};

// The step as the parallel part would leave it: each heap's four least common values its far
// pairs do not give (its candidates) listed beforehand, and the last Registers x 64 bytes of
// values held in vector registers, so that the near pairs and the one-heap moves are a permute
// (two and a blend from four registers) and four compares a vector of lanes, and the chain never
// waits for a store to reach a load. The first candidate none gives is the value; where all four
// are given (counted), it is found from bits.
template <class T, int Registers>
__attribute__((target("avx512f,avx512bw,avx512vbmi"))) void chain_compared(benchmark::State& state,
                                                                           const std::string& code,
                                                                           std::uint64_t from,
                                                                           std::uint64_t count) {
  static_assert(Registers == 2 || Registers == 4);
  using L = Lanes<T>;
  constexpr std::uint64_t kHeld = Registers * L::kCount;  // values held in the registers
  constexpr std::uint64_t kVectors = 2;                   // vectors of lanes, at most
  const std::uint64_t window = static_cast<std::uint64_t>(state.range(0));
  const Game& game = game_of(code, from, count);
  const std::array<Bits, 2> common = common_values(game.mask);
  const std::vector<Bits> far = mark_far_pairs(game, from, count, window);
  std::vector<std::array<T, 4>> candidates(count);
  for (std::uint64_t i = 0; i < count; ++i) {
    Bits free;
    for (int w = 0; w < kWords; ++w) free[w] = common[(from + i) & 1][w] & ~far[i][w];
    for (std::size_t j = 0; j < 4; ++j) {
      const unsigned c = least(free);
      if (c >= 64 * kWords) throw std::runtime_error(code + ": fewer than four candidates");
      candidates[i][j] = static_cast<T>(c);
      free[c >> 6] &= ~(std::uint64_t{1} << (c & 63));
    }
  }
  // Lane i reads entry index[i] of the kHeld values below the heap (the last: G(n - 1)) and XORs
  // it with parts[i]: the near pairs of every split, then the one-heap moves (part 0).
  alignas(64) T index[kVectors * L::kCount] = {}, parts[kVectors * L::kCount] = {};
  std::uint64_t lanes = 0;
  auto add_lane = [&](std::uint64_t below, unsigned part) {
    if (lanes == kVectors * L::kCount || below == 0 || below > kHeld)
      throw std::runtime_error(code + ": near pairs past the values held, or too many");
    index[lanes] = static_cast<T>(kHeld - below);
    parts[lanes++] = static_cast<T>(part);
  };
  for (const sgx::SplitMove& split : game.splits)
    for (const std::uint64_t r : game.rare)
      if (r < window) add_lane(split.take + r, game.values[r]);
  for (const std::uint64_t k : game.leave_one) add_lane(k, 0);
  const std::uint64_t vectors = (lanes + L::kCount - 1) / L::kCount;
  __mmask64 used[kVectors], upper[kVectors] = {};  // upper: lanes read from the second pair of registers
  __m512i index_vector[kVectors], parts_vector[kVectors];
  for (std::uint64_t v = 0; v < kVectors; ++v) {
    const std::uint64_t in_vector = std::min(L::kCount, lanes - std::min(lanes, v * L::kCount));
    used[v] = in_vector == 64 ? ~__mmask64{0} : (__mmask64{1} << in_vector) - 1;
    for (std::uint64_t j = 0; j < L::kCount; ++j)
      if (index[v * L::kCount + j] >= 2 * L::kCount) upper[v] |= __mmask64{1} << j;
    index_vector[v] = _mm512_load_si512(index + v * L::kCount);
    parts_vector[v] = _mm512_load_si512(parts + v * L::kCount);
  }
  alignas(64) T shift[L::kCount];
  for (std::uint64_t j = 0; j < L::kCount; ++j) shift[j] = static_cast<T>(j + 1);  // the last from the next source
  const __m512i shift_vector = _mm512_load_si512(shift);
  std::vector<T> out = values_below<T>(game, from, count);
  std::uint64_t all_given = 0;
  for (auto _ : state) {
    T* g = out.data();
    __m512i held[Registers];
    for (int i = 0; i < Registers; ++i) held[i] = _mm512_loadu_si512(g + from - kHeld + i * L::kCount);
    for (std::uint64_t n = from; n < from + count; ++n) {
      const std::array<T, 4>& cand = candidates[n - from];
      __m512i values[kVectors];
      unsigned given = 0;
      for (std::uint64_t v = 0; v < vectors; ++v) {
        __m512i partners = L::permute(held[0], index_vector[v], held[1]);
        if constexpr (Registers == 4)
          partners = L::blend(upper[v], partners, L::permute(held[2], index_vector[v], held[3]));
        values[v] = _mm512_xor_si512(partners, parts_vector[v]);
        for (unsigned j = 0; j < 4; ++j)
          given |= static_cast<unsigned>(L::equal(used[v], values[v], L::broadcast(cand[j])) != 0) << j;
      }
      unsigned value;
      if (given != 0xf) {
        value = cand[static_cast<std::size_t>(std::countr_one(given))];
      } else {
        ++all_given;
        Bits set = far[n - from];
        alignas(64) T lane_values[kVectors * L::kCount];
        for (std::uint64_t v = 0; v < vectors; ++v) _mm512_store_si512(lane_values + v * L::kCount, values[v]);
        for (std::uint64_t j = 0; j < lanes; ++j) set_bit(set, lane_values[j]);
        Bits free;
        for (int w = 0; w < kWords; ++w) free[w] = common[n & 1][w] & ~set[w];
        value = least(free);
      }
      g[n] = static_cast<T>(value);
      for (int i = 0; i + 1 < Registers; ++i) held[i] = L::permute(held[i], shift_vector, held[i + 1]);
      held[Registers - 1] = L::permute(held[Registers - 1], shift_vector, L::broadcast(value));
    }
    benchmark::DoNotOptimize(out.data());
    check(code, out, game);
  }
  count_values(state, count);
  state.counters["near pairs/heap"] = static_cast<double>(lanes - game.leave_one.size());
  state.counters["all given"] = static_cast<double>(all_given) / static_cast<double>(state.iterations() * count);
}

// BENCHMARK_CAPTURE takes no template arguments.
void pair_by_pair_bytes(benchmark::State& state, const std::string& code, std::uint64_t from, std::uint64_t count) {
  chain_pair_by_pair<std::uint8_t>(state, code, from, count);
}
void pair_by_pair_words(benchmark::State& state, const std::string& code, std::uint64_t from, std::uint64_t count) {
  chain_pair_by_pair<std::uint16_t>(state, code, from, count);
}
// The compared step only where the processor has its instructions (checked before any runs).
bool can_compare(benchmark::State& state) {
  if (__builtin_cpu_supports("avx512vbmi")) return true;
  state.SkipWithError("needs AVX-512 VBMI");
  return false;
}
// Two registers of values while every near pair's partner lies in them, four past that.
template <class T>
void compared(benchmark::State& state, const std::string& code, std::uint64_t from, std::uint64_t count) {
  if (!can_compare(state)) return;
  const Game& game = game_of(code, from, count);
  std::uint64_t deepest = game.leave_one.empty() ? 0 : game.leave_one.back();  // takes increase
  if (!game.splits.empty()) deepest = std::max(deepest, game.splits.back().take + state.range(0) - 1);
  if (deepest <= 2 * Lanes<T>::kCount)
    chain_compared<T, 2>(state, code, from, count);
  else
    chain_compared<T, 4>(state, code, from, count);
}
void compared_bytes(benchmark::State& state, const std::string& code, std::uint64_t from, std::uint64_t count) {
  compared<std::uint8_t>(state, code, from, count);
}
void compared_words(benchmark::State& state, const std::string& code, std::uint64_t from, std::uint64_t count) {
  compared<std::uint16_t>(state, code, from, count);
}

}  // namespace

// Grundy's game (1274 rare positions, the last at 82860; values below 256) and 0.6 (1584, the last
// at 20627; values up to 319), from heap 2^21; near windows of 64 to 1024 heaps, and for the
// compared step as far as four registers of values reach (256 bytes, 128 16-bit values).
BENCHMARK_CAPTURE(pair_by_pair_bytes, grundy, std::string("4!.0"), std::uint64_t{1} << 21,
                  std::uint64_t{1} << 20)
    ->RangeMultiplier(2)
    ->Range(64, 1024)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(compared_bytes, grundy, std::string("4!.0"), std::uint64_t{1} << 21,
                  std::uint64_t{1} << 20)
    ->RangeMultiplier(2)
    ->Range(64, 256)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(pair_by_pair_words, 0.6, std::string("0.6"), std::uint64_t{1} << 21,
                  std::uint64_t{1} << 20)
    ->RangeMultiplier(2)
    ->Range(32, 1024)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(compared_words, 0.6, std::string("0.6"), std::uint64_t{1} << 21,
                  std::uint64_t{1} << 20)
    ->Arg(32)
    ->Arg(63)
    ->Arg(127)
    ->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
