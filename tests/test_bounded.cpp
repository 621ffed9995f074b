// Bounded memory (--memory): sequences that release their middle, and the engine that keeps only a
// prefix and a tail, against runs that keep every value.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <stdexcept>
#include <string>

#include "sparse/lone_heap.hpp"
#include "sgx/bfile.hpp"
#include "sgx/engine.hpp"
#include "sgx/period.hpp"
#include "sgx/rules.hpp"
#include "sgx/stats.hpp"
#include "sgx/store.hpp"
#include "tool_test.hpp"

namespace sgx {
namespace {

bool under_sanitizer() { return std::getenv("SGX_SANITIZED") != nullptr; }

Sequence ramp(std::uint64_t n, Value modulus) {
  Sequence s;
  s.reserve(n);
  for (std::uint64_t i = 0; i < n; ++i) s.push_back(static_cast<Value>((i * 7919) % modulus));
  return s;
}

// Every value s holds below full.size() equals the same value of full.
void expect_kept_values_equal(const Sequence& s, const Sequence& full) {
  std::uint64_t differ = 0;
  for (std::uint64_t n = 0; n < std::min(s.size(), full.size()); ++n)
    if (s.holds(n) && s[n] != full[n] && differ++ < 5) ADD_FAILURE() << "G(" << n << ") = " << s[n] << ", expected " << full[n];
  EXPECT_EQ(differ, 0u);
}

TEST(SequenceRelease, KeepsPrefixAndTailThroughWideningCopiesAndGrowth) {
  const std::uint64_t n = 1 << 20;
  Sequence s = ramp(n, 250);
  const Sequence full = ramp(n, 250);
  s.release(1000, 900000);
  EXPECT_TRUE(s.has_released());
  EXPECT_EQ(s.prefix_end(), 1000u);
  EXPECT_EQ(s.tail_start(), 900000u);
  EXPECT_TRUE(s.holds(999));
  EXPECT_FALSE(s.holds(1000));
  EXPECT_FALSE(s.holds(899999));
  EXPECT_TRUE(s.holds(900000));
  EXPECT_EQ(s.kept_count(), 1000u + (n - 900000));
  expect_kept_values_equal(s, full);

  s.release(1000, 950000);  // the tail moves up
  EXPECT_THROW(s.release(2000, 960000), std::logic_error);  // the prefix stays
  EXPECT_THROW(s.release(1000, 940000), std::logic_error);  // the tail never moves down
  EXPECT_THROW(s.max_value(), std::logic_error);
  EXPECT_THROW(s.to_vector(), std::logic_error);
  EXPECT_THROW(s.truncate(10), std::logic_error);

  const Sequence copy = s;  // copies only what is kept
  EXPECT_EQ(copy.prefix_end(), 1000u);
  EXPECT_EQ(copy.tail_start(), 950000u);
  expect_kept_values_equal(copy, full);

  s.push_back(70000);  // widens to four bytes, copying the kept values only
  EXPECT_EQ(s.bytes_per_value(), 4u);
  for (std::uint64_t i = 0; i < 3 * n; ++i) s.push_back(5);  // grows past its capacity
  expect_kept_values_equal(s, full);
  EXPECT_EQ(s[n], 70000u);
  EXPECT_EQ(s[4 * n], 5u);
}

TEST(SequenceReleaseDeathTest, ReadingAReleasedValueFailsLoudly) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  Sequence s = ramp(1 << 20, 200);
  s.release(4096, 1 << 19);
  EXPECT_DEATH(
      {
        volatile Value v = s[300000];
        (void)v;
      },
      "");
}

TEST(SequenceRelease, AppendReleasedBuildsAPrefixGapAndTail) {
  Sequence s;
  s.reserve(400000);
  for (Value v = 0; v < 500; ++v) s.push_back(v % 100);
  s.append_released(300000);
  for (Value v = 0; v < 100000; ++v) s.push_back(v % 7);
  EXPECT_EQ(s.size(), 400000u);
  EXPECT_EQ(s.prefix_end(), 500u);
  EXPECT_EQ(s.tail_start(), 300000u);
  EXPECT_EQ(s[499], 99u);
  EXPECT_EQ(s[300006], 6u);
  EXPECT_EQ(s[399999], 99999u % 7);
}

EngineOptions bounded_options(std::uint64_t bytes, int threads) {
  EngineOptions options;
  options.kernel = KernelKind::Auto;
  options.threads = threads;
  options.period_shortcut = true;
  options.value_memory = bytes;
  return options;
}

// Grundy's game keeps its rare positions below 82860 (mask 0xfe) and finds its rare values among
// small parts, so a prefix of 50000 and a tail of 150000 values decide every heap.
class BoundedGrundy : public ::testing::TestWithParam<int> {};

TEST_P(BoundedGrundy, KeepsPrefixAndTailAndMatchesTheFullRun) {
  const std::uint64_t n = under_sanitizer() ? 300000 : 1 << 19;
  const Rules rules = parse_rules("4!.0");
  const Sequence full = compute_sequence(rules, n, KernelKind::Sparse, GetParam());
  Engine engine(rules, bounded_options(400000, GetParam()));  // 200000 values at two bytes
  ASSERT_TRUE(engine.compute_to(n));
  const Sequence& kept = engine.values();
  ASSERT_EQ(kept.size(), n);
  ASSERT_TRUE(kept.has_released());
  EXPECT_EQ(kept.prefix_end(), 50000u);
  EXPECT_EQ(kept.tail_start(), n - 150000);
  expect_kept_values_equal(kept, full);
  EXPECT_EQ(engine.kernels_used(), "sparse");

  // The state the kernel kept matches statistics recounted from every value.
  const std::optional<SparseState> state = engine.sparse_state();
  ASSERT_TRUE(state);
  const SparseStats stats = compute_stats(full);
  EXPECT_EQ(state->histogram, stats.histogram);
  EXPECT_EQ(state->max_value, stats.max_value);
  EXPECT_EQ(state->max_at, stats.max_at);
  EXPECT_EQ(state->rare_positions, rare_positions(full, state->mask));
  ASSERT_EQ(state->rare_values.size(), state->rare_positions.size());
  for (std::size_t i = 0; i < state->rare_positions.size(); ++i)
    EXPECT_EQ(state->rare_values[i], full[state->rare_positions[i]]);
}

INSTANTIATE_TEST_SUITE_P(Threads, BoundedGrundy, ::testing::Values(1, 2));

TEST(BoundedEngine, ResumesFromTheKeptValuesAndState) {
  const std::uint64_t n = under_sanitizer() ? 300000 : 400000;
  const Rules rules = parse_rules("0.6");
  const Sequence full = compute_sequence(rules, n, KernelKind::Sparse, 2);
  Sequence kept;
  std::optional<SparseState> state;
  {
    Engine first(rules, bounded_options(400000, 2));
    ASSERT_TRUE(first.compute_to(n - 50000));
    ASSERT_TRUE(first.values().has_released());
    kept = first.values();
    state = first.sparse_state();
  }
  // The prefix stays what the first run chose: a bound too small for it and a tail is refused.
  EXPECT_THROW(Engine(rules, bounded_options(300000, 2), kept, state), std::invalid_argument);
  {
    // A larger bound keeps the tail where it was and lets it grow.
    Engine larger(rules, bounded_options(600000, 2), kept, state);
    ASSERT_TRUE(larger.compute_to(n));
    EXPECT_EQ(larger.values().prefix_end(), 50000u);
    EXPECT_EQ(larger.values().tail_start(), kept.tail_start());
    expect_kept_values_equal(larger.values(), full);
  }
  Engine second(rules, bounded_options(400000, 2), std::move(kept), state);
  ASSERT_TRUE(second.compute_to(n));
  EXPECT_EQ(second.values().prefix_end(), 50000u);
  EXPECT_EQ(second.values().tail_start(), n - 150000);
  expect_kept_values_equal(second.values(), full);
  const SparseStats stats = compute_stats(full);
  EXPECT_EQ(second.sparse_state()->histogram, stats.histogram);
  EXPECT_EQ(second.sparse_state()->max_at, stats.max_at);
}

TEST(BoundedEngine, StopsWhenAPairNeedsAReleasedValue) {
  // Treblecross is rare everywhere: once values are released, a rare position pairs with one.
  const Rules rules = parse_rules("0.007");
  Engine engine(rules, bounded_options(350000, 2));  // 175000 values: prefix 43750, tail 131250
  try {
    engine.compute_to(1 << 18);
    FAIL() << "expected the run to stop";
  } catch (const MemoryReachError& e) {
    EXPECT_GE(e.heap(), 175000u);
    EXPECT_GE(e.needed(), 43750u);
    EXPECT_LT(e.needed(), engine.values().tail_start());
    // The library says what happened; run_octal adds the advice in its options (--memory).
    EXPECT_NE(std::string(e.what()).find("which was released to stay within the memory bound (kept: G(0.."),
              std::string::npos)
        << e.what();
    EXPECT_EQ(std::string(e.what()).find("--"), std::string::npos) << e.what();
  }
  // What was computed before the stop is right.
  const Sequence& kept = engine.values();
  expect_kept_values_equal(kept, compute_sequence(rules, kept.size(), KernelKind::Sweep, 2));
}

// A heap whose value needs a rare value's witness among splits out of reach, once values are
// released: in 0.207 (mask 0x16 with the heap's parity), keeping 190000 values (prefix 47500),
// heap 198769 finds one only past a = 47499. Its block takes values on speculation and the heap's
// quick decision is one of them, so its full decision runs in the confirmation after the block,
// in parallel (checked with a print in the kernel when this test was written). The run must stop
// there as the ordered part would have: at that heap, the values before it kept and right, none
// after it.
TEST(BoundedEngine, StopsInTheConfirmationOfASpeculatedHeap) {
  const Rules rules = parse_rules("0.207");
  for (const int threads : {1, 2}) {
    Engine engine(rules, bounded_options(380000, threads));  // 190000 values at two bytes
    try {
      // In steps of whole blocks: values are released after each step, so with steps sized by
      // the machine's speed, what is still held when a heap is decided would vary.
      for (std::uint64_t n = 1024; n <= 250 * 1024; n += 1024) engine.compute_to(n);
      FAIL() << "expected the run to stop";
    } catch (const MemoryReachError& e) {
      EXPECT_EQ(e.heap(), 198769u);
      EXPECT_EQ(e.needed(), 47500u);
      EXPECT_NE(std::string(e.what()).find("must look for the rare value"), std::string::npos) << e.what();
    }
    const Sequence& kept = engine.values();
    EXPECT_EQ(kept.size(), 198769u) << "the values from the stopped heap on are forgotten";
    EXPECT_EQ(kept.prefix_end(), 47500u);
    expect_kept_values_equal(kept, compute_sequence(rules, kept.size(), KernelKind::Sparse, 2));
  }
}

// Sparse games with values below 256 have their heaps decided one at a time (lone_heap.hpp) under
// a memory bound too: 0.167 (values below 64, its 60 rare positions below 1304) and 0.174 (values
// below 128), keeping 200000 values. The profile's count of parallel regions tells the path: blocks
// of 1024 heaps take two or three regions each, heaps decided alone none.
TEST(BoundedEngine, DecidesHeapsAloneWithinTheBound) {
  if (!can_decide_heaps_alone()) GTEST_SKIP() << "deciding heaps alone needs AVX-512";
  const std::uint64_t n = 1 << 19;
  for (const char* code : {"0.167", "0.174"}) {
    const Rules rules = parse_rules(code);
    EngineOptions options = bounded_options(400000, 2);
    options.profile = true;
    Engine engine(rules, options);
    ASSERT_TRUE(engine.compute_to(n)) << code;
    const Sequence& kept = engine.values();
    ASSERT_TRUE(kept.has_released()) << code;
    EXPECT_EQ(kept.prefix_end(), 50000u) << code;
    expect_kept_values_equal(kept, compute_sequence(rules, n, KernelKind::Sparse, 2));
    EXPECT_LT(engine.work_span().regions, n / 1024 / 4) << code << ": the blocks took most heaps";
  }
}

TEST(BoundedEngine, RefusesWhatReadsEveryValue) {
  EXPECT_THROW(Engine(parse_rules("0.[3]"), bounded_options(1 << 24, 1)), std::invalid_argument);
  EXPECT_THROW(Engine(parse_rules("0.F"), bounded_options(1 << 24, 1)), std::invalid_argument);  // three heaps
  EngineOptions sweep = bounded_options(1 << 24, 1);
  sweep.kernel = KernelKind::Sweep;
  EXPECT_THROW(Engine(parse_rules("0.6"), sweep), std::invalid_argument);
  sweep.kernel = KernelKind::Naive;
  EXPECT_THROW(Engine(parse_rules("0.6"), sweep), std::invalid_argument);
}

TEST(BoundedEngine, WithinTheBoundEverythingIsKeptAndPeriodsAreProven) {
  Engine engine(parse_rules("0.137"), bounded_options(1 << 20, 1));
  ASSERT_TRUE(engine.compute_to(100000));
  EXPECT_FALSE(engine.values().has_released());
  ASSERT_TRUE(engine.proven_period());
  EXPECT_EQ(engine.proven_period()->period, 34u);
}

// A run until proven whose values are released before its period is proven goes on to its cap,
// where the caller's analysis reads the released values back (run_octal: from the run file). It
// stopped at the first release, a quarter of the way, saying nothing.
TEST(BoundedEngine, UntilProvenGoesOnToTheCapOnceValuesAreReleased) {
  const std::uint64_t cap = under_sanitizer() ? std::uint64_t{1} << 19 : std::uint64_t{1} << 20;
  Engine engine(parse_rules("0.16"), bounded_options(400000, 2));  // 200000 values; proven at 509622
  ASSERT_TRUE(engine.compute_until_proven(4096, cap));
  EXPECT_TRUE(engine.values().has_released());
  EXPECT_EQ(engine.values().size(), cap);
}

// With a way to read the released values back (run_octal: the run file), its looks go on and it
// stops at the proof, released values and all, as a run that kept every value does.
TEST(BoundedEngine, UntilProvenLooksThroughTheReleasedValuesAndStopsAtTheProof) {
  const std::uint64_t cap = std::uint64_t{1} << 21;
  const Rules rules = parse_rules("0.16");
  Engine every_value(rules, EngineOptions{});
  ASSERT_TRUE(every_value.compute_until_proven(4096, cap));
  const Sequence all = every_value.values();
  ASSERT_TRUE(every_value.last_period().proven);
  Engine engine(rules, bounded_options(400000, 2));
  int looks = 0;
  engine.set_released_look([&] {
    ++looks;
    const ValueReader from_elsewhere = [&](std::uint64_t from, std::uint64_t to, Value* out) {
      for (std::uint64_t i = from; i < to; ++i) out[i - from] = all[i];
    };
    return analyze_period(engine.values(), from_elsewhere, rules);
  });
  ASSERT_TRUE(engine.compute_until_proven(4096, cap));
  EXPECT_TRUE(engine.values().has_released());
  EXPECT_GT(looks, 0);
  EXPECT_EQ(engine.values().size(), all.size());
  EXPECT_EQ(engine.last_period(), every_value.last_period());
}

TEST(BoundedEngine, FillsFromAProvenPeriodInStepsAndCountsWhatItFills) {
  const Rules rules = parse_rules("0.137");
  const std::uint64_t n = 1 << 20;
  const Sequence full = compute_sequence(rules, n + 1000, KernelKind::Naive, 1, true);
  Engine first(rules, bounded_options(400000, 1));
  ASSERT_TRUE(first.compute_to(n));
  ASSERT_TRUE(first.proven_period());
  EXPECT_EQ(first.kernels_used(), "sparse+period");
  ASSERT_TRUE(first.values().has_released());
  EXPECT_EQ(first.values().tail_start(), n - 150000);
  expect_kept_values_equal(first.values(), full);
  Sequence whole = full;
  whole.truncate(n);
  EXPECT_EQ(first.sparse_state()->histogram, compute_stats(whole).histogram);

  Engine second(rules, bounded_options(400000, 1), first.values(), first.sparse_state());
  second.continue_period(*first.proven_period());
  ASSERT_TRUE(second.compute_to(n + 1000));
  expect_kept_values_equal(second.values(), full);
  EXPECT_EQ(second.values().size(), n + 1000);
}

// A solved game whose preperiod lies in the released middle: 0.56, period 144 from 326640 on
// (Gangolli & Plambeck 1989), which Guy-Smith proves from 653570 values. The run keeps 200000
// values, G(0..49999) and the last ones, and writes every value to its file as run_octal --memory
// does; the period analysis reads the released ones back from the file. (run_octal's smallest
// --memory, 128M, releases nothing below 4194304, past this preperiod.)
using BoundedRunFile = testing::ToolTest;

TEST_F(BoundedRunFile, PreperiodInTheReleasedMiddleIsFoundAndProven) {
  const Rules rules = parse_rules("0.56");
  const std::uint64_t n = 700000;
  const std::string file = path("0.56.h5");
  RunFileWriter writer = RunFileWriter::start(file, rules.canonical());
  Engine engine(rules, bounded_options(400000, 2));
  engine.set_release_limit(0);  // values are released once they are on disk
  ASSERT_TRUE(engine.compute_to(n, [&](const Progress&) {
    writer.write_complete_segments(engine.values());
    engine.set_release_limit(writer.durable_n());
    return true;
  }));
  const Sequence& kept = engine.values();
  ASSERT_TRUE(kept.has_released());
  EXPECT_EQ(kept.prefix_end(), 50000u);
  EXPECT_GT(kept.tail_start(), 326640u) << "the end of the preperiod is released";
  EXPECT_FALSE(engine.proven_period()) << "the engine does not look for periods among released values";
  RunInfo info;
  info.game = rules.canonical();
  info.target_n = n;
  info.sparse_state = engine.sparse_state();
  writer.save(info, kept);

  const ValueReader read_released = run_file_reader(file);
  const PeriodResult period = analyze_period(kept, read_released, rules);
  ASSERT_TRUE(period.found);
  EXPECT_EQ(period.period, 144u);
  EXPECT_EQ(period.preperiod, 326640u);
  EXPECT_EQ(period.saltus, 0);
  EXPECT_TRUE(period.proven);
  EXPECT_EQ(period.theorem, "guy-smith");
  EXPECT_EQ(period.proof_needs_n, 653570u);
  // Nearly every value before the preperiod is an exception: the list stops at its first 10000.
  EXPECT_EQ(period.exceptions.size(), 10000u);

  // From the file alone, and from every value in memory: the same.
  const Sequence every = read_run_file(file, LoadValues::All).values;
  const PeriodResult whole = analyze_period(every, rules);
  const PeriodResult from_file = analyze_period(n, read_released, rules);
  for (const PeriodResult* other : {&whole, &from_file}) {
    EXPECT_EQ(other->period, period.period);
    EXPECT_EQ(other->preperiod, period.preperiod);
    EXPECT_EQ(other->proven, period.proven);
    EXPECT_EQ(other->exceptions, period.exceptions);
  }

  // A b-file of the bounded run reads its released middle back from the file: the same lines as
  // from every value in memory. Without a reader the released values are refused, not made up.
  write_bfile(path("kept.txt"), "0.56", n, held_or_released(kept, read_released), "test");
  write_bfile(path("every.txt"), "0.56", n, held_or_released(every), "test");
  EXPECT_EQ(testing::read_file(path("kept.txt")), testing::read_file(path("every.txt")));
  EXPECT_TRUE(testing::contains(testing::read_file(path("kept.txt")), "\n400000 " + std::to_string(every[400000]) + "\n"));
  std::vector<Value> buffer(n);
  EXPECT_THROW(held_or_released(kept)(0, n, buffer.data()), std::invalid_argument);
}

// Through the real tool. A game without splits is fast enough to pass the bound of --memory 128M
// within a test: 32 MiB for values, 16777216 of them at two bytes, so a prefix of 4194304 and a
// tail of 12582912 values.
using BoundedCli = testing::ToolTest;
using testing::contains;
using testing::json_object;
using testing::Result;

TEST_F(BoundedCli, RunOctalKeepsPrefixAndTailAndResumesWithMemory) {
  const std::string n = "33554432";  // 2^25
  Result full = run("run_octal", {"sub:1,3,4", "--n", n, "--no-shortcut", "--print=33554400:", "--quiet", "--out",
                                  path("full.h5")});
  ASSERT_EQ(full.exit_code, 0) << full.err;
  Result bounded = run("run_octal", {"sub:1,3,4", "--n", n, "--no-shortcut", "--memory", "128M", "--json", "--out",
                                     path("b.h5")});
  ASSERT_EQ(bounded.exit_code, 0) << bounded.err;
  // The tail starts where the values on disk end when the run stopped (the file's segments of
  // 2^24 values are written whole), at most at n minus the 12582912 values of the bound.
  const nlohmann::json summary = json_object(bounded.out);
  EXPECT_EQ(summary["memory"], nlohmann::json::parse(R"({"limit_bytes": 134217728, "released": true,
      "kept_prefix": 4194304, "tail_start": 16777216})"));
  EXPECT_EQ(summary["max_value"], 3);
  EXPECT_EQ(summary["max_at"], 5);
  // The period analysis reads the released values back from the file: period 7 from 0, proven.
  EXPECT_EQ(summary["period"]["period"], 7);
  EXPECT_EQ(summary["period"]["preperiod"], 0);
  EXPECT_EQ(summary["period"]["proven"], true);

  Result tail = run("run_octal", {"sub:1,3,4", "--n", n, "--memory", "128M", "--resume", "--print=33554400:",
                                  "--quiet", "--out", path("b.h5")});
  ASSERT_EQ(tail.exit_code, 0) << tail.err;
  EXPECT_EQ(tail.out, full.out);

  // Every value is on disk: the released middle prints from the file, as the full run has it.
  Result middle = run("run_octal", {"sub:1,3,4", "--n", n, "--memory", "128M", "--resume", "--print=5000000:5000010",
                                    "--quiet", "--out", path("b.h5")});
  ASSERT_EQ(middle.exit_code, 0) << middle.err;
  Result full_middle = run("run_octal", {"sub:1,3,4", "--n", n, "--resume", "--print=5000000:5000010", "--quiet",
                                         "--out", path("full.h5")});
  EXPECT_EQ(middle.out, full_middle.out);
  EXPECT_EQ(middle.out.size(), 20u) << "ten values, one per line";
  // The report gives the limit in the units --memory takes.
  Result report = run("run_octal", {"0.77", "--n", "1000", "--memory", "128M", "--out", path("k.h5")});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  EXPECT_TRUE(contains(report.out, "\nmemory      limit 128M\n")) << report.out;
  // sg_period reads every value from the file: the same report as for the full run's file.
  Result period = run("sg_period", {path("b.h5"), "--json"});
  ASSERT_EQ(period.exit_code, 0) << period.err;
  Result full_period = run("sg_period", {path("full.h5"), "--json"});
  EXPECT_EQ(period.out.substr(0, period.out.find("\"file\"")), full_period.out.substr(0, full_period.out.find("\"file\"")));
  // sg_solve takes heaps anywhere in the file (G = n mod 7 in {0,1,0,1,2,3,2}).
  Result solve = run("sg_solve", {"sub:1,3,4", "4194300", "5", "--from", path("b.h5"), "--json"});
  ASSERT_EQ(solve.exit_code, 0) << solve.err;
  EXPECT_EQ(json_object(solve.out)["value"], 0) << solve.out;  // G(4194300) = G(5) = 3
  Result deep = run("sg_solve", {"sub:1,3,4", "10000002", "--from", path("b.h5"), "--json"});
  ASSERT_EQ(deep.exit_code, 0) << deep.err;
  EXPECT_EQ(json_object(deep.out)["value"], 3) << deep.out;  // 10000002 mod 7 = 5

  // Continuing needs --memory again, and gives the values of a run that kept them all.
  Result without = run("run_octal", {"sub:1,3,4", "--n", "34000000", "--resume", "--out", path("b.h5")});
  EXPECT_EQ(without.exit_code, 2);
  EXPECT_TRUE(contains(without.err, "continue it with --memory")) << without.err;
  Result more = run("run_octal", {"sub:1,3,4", "--n", "34000000", "--memory", "128M", "--resume",
                                  "--print=33999990:", "--quiet", "--out", path("b.h5")});
  ASSERT_EQ(more.exit_code, 0) << more.err;
  Result expected = run("run_octal", {"sub:1,3,4", "--n", "34000000", "--print=33999990:", "--quiet", "--overwrite",
                                      "--out", path("full.h5")});
  ASSERT_EQ(expected.exit_code, 0) << expected.err;
  EXPECT_EQ(more.out, expected.out);
  EXPECT_EQ(more.out.size(), 20u) << "ten values, one per line";
}

TEST_F(BoundedCli, RefusesWhatItCannotBound) {
  Result tail = run("run_octal", {"0.[3]", "--n", "1000", "--memory", "1G", "--out", path("x.h5")});
  EXPECT_EQ(tail.exit_code, 2);
  EXPECT_TRUE(contains(tail.err, "repeating tail")) << tail.err;
  Result sweep = run("run_octal", {"0.6", "--n", "1000", "--memory", "1G", "--engine", "sweep", "--out", path("x.h5")});
  EXPECT_EQ(sweep.exit_code, 2);
  EXPECT_TRUE(contains(sweep.err, "sparse kernel")) << sweep.err;
  Result small = run("run_octal", {"0.6", "--n", "1000", "--memory", "100M", "--out", path("x.h5")});
  EXPECT_EQ(small.exit_code, 2);
  EXPECT_TRUE(contains(small.err, "at least 128M")) << small.err;
  Result garbled = run("run_octal", {"0.6", "--n", "1000", "--memory", "lots", "--out", path("x.h5")});
  EXPECT_EQ(garbled.exit_code, 2);
  EXPECT_TRUE(contains(garbled.err, "--memory")) << garbled.err;
  Result table = run("run_octal", {"wythoff", "--memory", "1G", "--out", path("w.h5")});
  EXPECT_EQ(table.exit_code, 2);
  EXPECT_FALSE(std::filesystem::exists(path("x.h5")));
}

}  // namespace
}  // namespace sgx
