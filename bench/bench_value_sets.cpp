// The "seen" set of a mex, three ways, in the naive kernel's loop over every two-heap split:
// the library's ValueMarks (a byte per value, a plain store per option), its ValueSet (a bit per
// value) and boost::dynamic_bitset (a bit per value). It answers why the kernels use their own
// value sets rather than dynamic_bitset (src/README.md).
// Run: build/bench/bench_value_sets

#include <benchmark/benchmark.h>

#include <boost/dynamic_bitset.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/value_set.hpp"

namespace {

using sgx::Value;

// A game whose only moves are two-heap splits after taking `take` tokens (and, with leave_one,
// taking `take` and leaving the rest whole): enough to write Grundy's game and 0.6.
struct SplitGame {
  const char* name;
  std::uint64_t take;
  bool leave_one;
  bool unequal;
};

const SplitGame kGames[] = {{"grundy", 0, false, true}, {"0.6", 1, true, false}};

// A power of two above every value of these games below 2^15 (Grundy's game reaches 195, 0.6
// 284), as the naive kernel keeps its bound.
constexpr std::uint64_t kBound = 512;

// The three sets behind one interface: insert, the mex, clear.
struct Marks {
  sgx::ValueMarks set{kBound};
  void insert(Value v) { set.insert(v); }
  Value mex() const { return set.first_missing(); }
  void clear() { set.clear(); }
};
struct Bits {
  sgx::ValueSet set{kBound};
  void insert(Value v) { set.insert(v); }
  Value mex() const { return set.first_missing(); }
  void clear() { set.clear(); }
};
struct DynamicBitset {
  boost::dynamic_bitset<std::uint64_t> set{kBound + 1};
  void insert(Value v) { set.set(v); }
  Value mex() const { return static_cast<Value>((~set).find_first()); }
  void clear() { set.reset(); }
};

// G(0..n-1) of the game by the naive loop, with Set as the seen set.
template <class Set>
std::vector<std::uint16_t> naive_values(const SplitGame& game, std::uint64_t n) {
  std::vector<std::uint16_t> g{0};
  Set seen;
  for (std::uint64_t heap = 1; heap < n; ++heap) {
    seen.clear();
    if (game.leave_one && heap > game.take) seen.insert(g[heap - game.take]);
    if (heap >= game.take + 2) {
      const std::uint64_t m = heap - game.take;
      const std::uint64_t last = game.unequal ? (m - 1) / 2 : m / 2;
      for (std::uint64_t a = 1; a <= last; ++a) seen.insert(static_cast<Value>(g[a] ^ g[m - a]));
    }
    g.push_back(static_cast<std::uint16_t>(seen.mex()));
  }
  return g;
}

template <class Set>
void run(benchmark::State& state, const SplitGame& game, std::uint64_t n) {
  // The three sets must agree, or the timing means nothing.
  if (naive_values<Set>(game, 4096) != naive_values<Marks>(game, 4096)) {
    state.SkipWithError("the sets disagree");
    return;
  }
  for (auto _ : state) {
    auto values = naive_values<Set>(game, n);
    benchmark::DoNotOptimize(values);
  }
  state.counters["values/s"] =
      benchmark::Counter(static_cast<double>(state.iterations() * n), benchmark::Counter::kIsRate);
}

void register_all() {
  const std::uint64_t n = std::uint64_t{1} << 15;
  for (const SplitGame& game : kGames) {
    const std::string prefix = std::string(game.name) + "/n=2^15/";
    benchmark::RegisterBenchmark((prefix + "ValueMarks").c_str(), run<Marks>, game, n)->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark((prefix + "ValueSet").c_str(), run<Bits>, game, n)->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark((prefix + "dynamic_bitset").c_str(), run<DynamicBitset>, game, n)
        ->Unit(benchmark::kMillisecond);
  }
}

}  // namespace

int main(int argc, char** argv) {
  register_all();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
