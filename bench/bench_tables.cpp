// Cells per second of the two-dimensional tables (table2d.hpp), and the time the rows' analysis
// adds. Run: build/bench/bench_tables [--benchmark_filter=wythoff]

#include <benchmark/benchmark.h>

#include <string>
#include <utility>
#include <vector>

#include "sgx/table2d.hpp"

namespace {

using sgx::GameKind;

void compute(benchmark::State& state, GameKind game, std::uint64_t n, int threads) {
  for (auto _ : state) {
    sgx::GameTable table = sgx::compute_table(game, n, threads);
    benchmark::DoNotOptimize(table);
  }
  const double cells = static_cast<double>(n * n);
  state.counters["cells/s"] = benchmark::Counter(cells * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

void analyze(benchmark::State& state, GameKind game, std::uint64_t n) {
  const sgx::GameTable table = sgx::compute_table(game, n);
  for (auto _ : state) {
    auto rows = sgx::analyze_rows(table);
    benchmark::DoNotOptimize(rows);
  }
}

void register_all() {
  // Wythoff's game costs about n^3 / 64 word operations, the cutting game n^3 / 4 XORs.
  const std::pair<GameKind, std::vector<std::uint64_t>> sizes[] = {{GameKind::Wythoff, {1024, 4096, 8192}},
                                                                   {GameKind::Cut, {256, 1024, 2048}}};
  for (const auto& [game, ns] : sizes)
    for (std::uint64_t n : ns) {
      for (int threads : {1, 2}) {
        const std::string name = std::string(sgx::game_kind_name(game)) + "/n=" + std::to_string(n) +
                                 "/threads=" + std::to_string(threads);
        benchmark::RegisterBenchmark(name.c_str(), compute, game, n, threads)
            ->Unit(benchmark::kMillisecond)
            ->UseRealTime()
            ->MeasureProcessCPUTime()
            ->Iterations(1);
      }
      const std::string name = std::string(sgx::game_kind_name(game)) + "/rows/n=" + std::to_string(n);
      benchmark::RegisterBenchmark(name.c_str(), analyze, game, n)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);
    }
}

}  // namespace

int main(int argc, char** argv) {
  register_all();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
