// The period analysis (src/period.cpp), which a run repeats each time its length doubles and once
// at its end: values per second it reads, on the values of games with and without a period. Run:
// build/bench/bench_period

#include <benchmark/benchmark.h>

#include <cstdint>
#include <stdexcept>
#include <string>

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

}  // namespace

// 0.167 and Grundy's game show no period; 0.07 (Dawson's Kayles) has period 34 from 52 on, so its
// whole window is one periodic tail.
BENCHMARK_CAPTURE(analyze, 0.167, std::string("0.167"), std::uint64_t{1} << 22)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(analyze, grundy, std::string("4!.0"), std::uint64_t{1} << 22)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(analyze, 0.07, std::string("0.07"), std::uint64_t{1} << 22)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
