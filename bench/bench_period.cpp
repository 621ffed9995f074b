// The period analysis (src/analysis/period.cpp, src/analysis/period_long.hpp), which a run repeats each time its
// length doubles and once at its end: values per second it reads, on the values of games with and
// without a period, and past its window. Run:
// build/bench/bench_period

#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "sgx/engine.hpp"
#include "sgx/period.hpp"
#include "sgx/rules.hpp"

namespace {

// Analyses the first n values of the game again and again.
void analyze(benchmark::State& state, const std::string& code, std::uint64_t n) {
  const sgx::Rules rules = sgx::parse_rules(code);
  const sgx::Sequence values = sgx::compute_sequence(rules, n, sgx::KernelKind::Sparse, 0, true);
  if (values.size() != n) throw std::runtime_error("the sequence of " + code + " is short");
  std::uint64_t found = 0;
  for (auto _ : state) {
    const sgx::PeriodResult result = sgx::analyze_period(values, rules);
    found += result.found ? 1 : 0;
    benchmark::DoNotOptimize(result.preperiod);
  }
  state.counters["values/s"] =
      benchmark::Counter(static_cast<double>(state.iterations() * n), benchmark::Counter::kIsRate);
  state.counters["found"] = static_cast<double>(found) / static_cast<double>(state.iterations());
}

// A random preperiod of 2^21 values, then a random block of period values repeated up to n: a
// period longer than half the window, found by the longer search (period_long.hpp).
void analyze_long_period(benchmark::State& state, std::uint64_t period, std::uint64_t n) {
  std::mt19937_64 rng(period);
  const std::uint64_t preperiod = std::uint64_t{1} << 21;
  std::vector<sgx::Value> g(n);
  for (std::uint64_t i = 0; i < preperiod + period; ++i) g[i] = static_cast<sgx::Value>(rng() % 200);
  for (std::uint64_t i = preperiod + period; i < n; ++i) g[i] = g[i - period];
  g[preperiod - 1] = g[preperiod - 1 + period] + 1;
  const sgx::Sequence values = sgx::Sequence::from_vector(g);
  const sgx::Rules rules = sgx::parse_rules("4!.0");
  for (auto _ : state) {
    const sgx::PeriodResult result = sgx::analyze_period(values, rules);
    if (!result.found || result.period != period) throw std::runtime_error("the planted period was not found");
    benchmark::DoNotOptimize(result.preperiod);
  }
  state.counters["values/s"] =
      benchmark::Counter(static_cast<double>(state.iterations() * n), benchmark::Counter::kIsRate);
}

}  // namespace

// 0.167 and Grundy's game show no period; 0.07 (Dawson's Kayles) has period 34 from 52 on, so its
// whole window is one periodic tail.
BENCHMARK_CAPTURE(analyze, 0.167, std::string("0.167"), std::uint64_t{1} << 22)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(analyze, grundy, std::string("4!.0"), std::uint64_t{1} << 22)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(analyze, 0.07, std::string("0.07"), std::uint64_t{1} << 22)->Unit(benchmark::kMillisecond);
// Past the window: 0.167 to 2^25 searches its second half for a long period and finds none; a
// planted period of 2^23 + 3 is found from 2^21 on.
BENCHMARK_CAPTURE(analyze, 0.167_long, std::string("0.167"), std::uint64_t{1} << 25)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(analyze_long_period, planted, (std::uint64_t{1} << 23) + 3, std::uint64_t{1} << 25)
    ->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
