// Heaps decided alone (src/sparse/lone_heap.hpp), the sparse kernel's one-thread path for games with few
// rare positions and values below 256: heaps per second on 0.167 (60 rare positions, values below
// 64), 0.174 and 0.336 (below 128) and 0.245 (below 256), each heap given every value below it, so
// that only the decisions are timed. Run:
// build/bench/bench_lone_heaps

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "sparse/lone_heap.hpp"
#include "games/move_table.hpp"
#include "sgx/engine.hpp"
#include "sgx/rules.hpp"
#include "sgx/stats.hpp"

namespace {

// Decides heaps [from, from + count) of the game again and again, from its true values below.
void decide_heaps(benchmark::State& state, const std::string& code, std::uint64_t from, std::uint64_t count) {
  if (!sgx::can_decide_heaps_alone()) {
    state.SkipWithError("needs AVX-512");
    return;
  }
  const sgx::Rules rules = sgx::parse_rules(code);
  const sgx::Sequence sequence = sgx::compute_sequence(rules, from + count, sgx::KernelKind::Sparse, 0, false);
  std::vector<std::uint8_t> g(from + count);
  for (std::uint64_t n = 0; n < g.size(); ++n) g[n] = static_cast<std::uint8_t>(sequence[n]);
  const sgx::RareMask mask = sgx::compute_stats(sequence, rules.split_take_parity()).rare_mask;
  std::vector<std::uint64_t> rare;
  std::vector<sgx::Value> rare_values;
  for (std::uint64_t n = 0; n < from; ++n)
    if (sgx::is_rare(g[n], n, mask)) {
      rare.push_back(n);
      rare_values.push_back(g[n]);
    }
  sgx::MoveTable moves(rules);
  moves.cover(from + count);
  // One, two or four words of bits, as the sparse kernel chooses them.
  const sgx::Value largest = *std::max_element(g.begin(), g.end());
  const sgx::Value values_below = largest < 64 ? 64 : largest < 128 ? 128 : sgx::kLoneValuesBelow;
  sgx::LoneHeaps lone;
  lone.prepare(moves, rare, rare_values, mask, values_below);
  const std::vector<std::uint8_t> truth = g;
  for (auto _ : state) {
    if (lone.decide(g.data(), from, from + count) != count || g != truth)
      throw std::runtime_error("decided values differ from the sparse kernel's");
  }
  state.counters["values/s"] =
      benchmark::Counter(static_cast<double>(state.iterations() * count), benchmark::Counter::kIsRate);
  state.counters["vectors/heap"] =
      static_cast<double>(lone.scanned_vectors()) / static_cast<double>(state.iterations() * count);
}

}  // namespace

BENCHMARK_CAPTURE(decide_heaps, 0.167, std::string("0.167"), std::uint64_t{1} << 21, std::uint64_t{1} << 20)
    ->Unit(benchmark::kMillisecond);
// Values below 128: 0.174 (57 rare positions), 0.336 (223).
BENCHMARK_CAPTURE(decide_heaps, 0.174, std::string("0.174"), std::uint64_t{1} << 21, std::uint64_t{1} << 20)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(decide_heaps, 0.336, std::string("0.336"), std::uint64_t{1} << 21, std::uint64_t{1} << 20)
    ->Unit(benchmark::kMillisecond);

// Values below 256: 0.245 (151 rare positions, values up to 138).
BENCHMARK_CAPTURE(decide_heaps, 0.245, std::string("0.245"), std::uint64_t{1} << 21, std::uint64_t{1} << 20)
    ->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
