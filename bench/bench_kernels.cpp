// Values per second of each kernel on the games the literature measures, at several n and
// thread counts. Run: build/bench/bench_kernels [--benchmark_filter=grundy]

#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "sgx/engine.hpp"
#include "sgx/rules.hpp"

namespace {

using sgx::KernelKind;

struct Case {
  const char* name;
  const char* code;
  std::vector<int> log2_n;  // sizes to run, as powers of two
};

// Grundy's game and 0.6 have a sparse space; 0.16 and 0.137 are mixed; Treblecross 0.007 has none.
const std::vector<Case> kCases = {
    {"grundy", "4!.0", {14, 16, 18, 20}},
    {"0.6", "0.6", {14, 16, 18, 20}},
    {"0.16", "0.16", {14, 16, 18}},
    {"0.007", "0.007", {14, 16, 17}},
    {"0.137", "0.137", {14, 16, 17}},
};

void run_kernel(benchmark::State& state, const std::string& code, KernelKind kernel, std::uint64_t n, int threads) {
  const sgx::Rules rules = sgx::parse_rules(code);
  for (auto _ : state) {
    // No period shortcut: the kernel computes every value.
    sgx::Sequence values = sgx::compute_sequence(rules, n, kernel, threads, false);
    benchmark::DoNotOptimize(values);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
  state.counters["values/s"] =
      benchmark::Counter(static_cast<double>(state.iterations() * n), benchmark::Counter::kIsRate);
}

void register_all() {
  for (const Case& c : kCases)
    for (KernelKind kernel : {KernelKind::Auto, KernelKind::Sparse, KernelKind::Sweep, KernelKind::Naive})
      for (int log2_n : c.log2_n)
        for (int threads : {1, 2}) {
          // The naive kernel is O(n^2): past 2^16 it only shows what the others save.
          if (kernel == KernelKind::Naive && (log2_n > 16 || threads > 1)) continue;
          const std::uint64_t n = std::uint64_t{1} << log2_n;
          const std::string name = std::string(c.name) + "/" + sgx::to_string(kernel) + "/n=2^" +
                                   std::to_string(log2_n) + "/threads=" + std::to_string(threads);
          benchmark::RegisterBenchmark(name.c_str(), run_kernel, std::string(c.code), kernel, n, threads)
              ->Unit(benchmark::kMillisecond)
              ->UseRealTime()
              ->MeasureProcessCPUTime()
              ->Iterations(1);
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
