// The engine against the naive reference on many random codes, and against published values.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "sgx/engine.hpp"
#include "sgx/rules.hpp"
#include "base/tuning.hpp"
#include "kernels/vector_path.hpp"

namespace sgx {
namespace {

std::vector<Value> values_of(const std::string& code, std::uint64_t n, KernelKind kind = KernelKind::Naive,
                             int threads = 1) {
  return compute_sequence(parse_rules(code), n, kind, threads).to_vector();
}

bool under_sanitizer() { return std::getenv("SGX_SANITIZED") != nullptr; }

// A random code of every shape the parser accepts: octal and hexadecimal digits, d0 = 0, 4, 8
// or C, '!' on split digits, and sometimes a repeating tail.
std::string random_code(std::mt19937_64& rng) {
  auto chance = [&rng](double p) { return std::uniform_real_distribution<double>(0, 1)(rng) < p; };
  auto pick = [&rng](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  auto hex = [](int v) { return "0123456789ABCDEF"[v]; };
  // Three-heap splits (bit 8) cost O(n^2) per heap in every kernel: keep them to a few codes.
  const bool three_heaps = chance(0.08);
  auto digit = [&](bool allow_three) {
    int v = pick(0, 7);
    if (allow_three && chance(0.4)) v |= 8;
    std::string d(1, hex(v));
    if ((v & 12) && chance(0.25)) d += '!';
    return d;
  };
  std::string code;
  const int d0 = pick(0, 9);
  if (d0 < 6) {
    code = chance(0.3) ? "" : "0";
  } else {
    const int v = d0 < 8 ? 4 : (three_heaps ? (d0 == 8 ? 8 : 12) : 4);
    code = std::string(1, hex(v));
    if (chance(0.3)) code += '!';
  }
  code += '.';
  const int digits = pick(1, 4);
  for (int i = 0; i < digits; ++i) code += digit(three_heaps);
  if (chance(0.15)) {
    code += '[';
    for (int i = pick(1, 2); i > 0; --i) {
      int v = chance(0.8) ? pick(0, 3) : pick(4, 7);  // split tails make every kernel O(n^2) per heap
      code += hex(v);
      if (v >= 4 && chance(0.25)) code += '!';
    }
    code += ']';
  }
  return code;
}

// 320 random codes in eight shards (so that ctest can run them side by side), each code
// computed to 2000 values by every kernel with one and two threads.
constexpr int kShards = 8;
constexpr int kCodesPerShard = 40;

class EngineRandomCodes : public ::testing::TestWithParam<int> {};

TEST_P(EngineRandomCodes, EveryKernelEqualsNaive) {
  std::mt19937_64 rng(20261121 + static_cast<std::uint64_t>(GetParam()));
  const int codes = under_sanitizer() ? kCodesPerShard / 4 : kCodesPerShard;
  const std::uint64_t n = 2000;
  for (int i = 0; i < codes; ++i) {
    const std::string code = random_code(rng);
    const auto reference = values_of(code, n);
    for (KernelKind kind : {KernelKind::Sparse, KernelKind::Sweep, KernelKind::Auto})
      for (int threads : {1, 2})
        ASSERT_EQ(values_of(code, n, kind, threads), reference)
            << "code " << code << " kernel " << to_string(kind) << " threads " << threads;
  }
}

INSTANTIATE_TEST_SUITE_P(Shards, EngineRandomCodes, ::testing::Range(0, kShards));

TEST(EngineRandomCodeGenerator, CoversEveryShape) {
  int with_tail = 0, with_unequal = 0, with_three = 0, with_split_d0 = 0, hexadecimal = 0;
  for (int shard = 0; shard < kShards; ++shard) {
    std::mt19937_64 rng(20261121 + static_cast<std::uint64_t>(shard));
    for (int i = 0; i < kCodesPerShard; ++i) {
      const Rules rules = parse_rules(random_code(rng));
      with_tail += rules.has_tail();
      with_unequal += rules.has_unequal_splits();
      with_three += rules.max_heaps_left() >= 3;
      with_split_d0 += rules.digit(0).bits != 0;
      hexadecimal += !rules.is_octal();
    }
  }
  const int codes = kShards * kCodesPerShard;
  EXPECT_GT(with_tail, codes / 20);
  EXPECT_GT(with_unequal, codes / 10);
  EXPECT_GT(with_three, codes / 40);
  EXPECT_GT(with_split_d0, codes / 10);
  EXPECT_GT(hexadecimal, codes / 40);
}

TEST(EngineLarger, GrundysGameTo20000) {
  const auto reference = values_of("4!.0", 20000);
  for (KernelKind kind : {KernelKind::Sparse, KernelKind::Sweep, KernelKind::Auto})
    for (int threads : {1, 2}) EXPECT_EQ(values_of("4!.0", 20000, kind, threads), reference) << to_string(kind);
}

TEST(EngineLarger, LargerHeapsUseTheParallelPaths) {
  // Big enough that the block-parallel parts of sparse and sweep run with two threads.
  const std::uint64_t n = under_sanitizer() ? 6000 : 20000;
  for (const char* code : {"0.007", "0.6", "0.16", "4.0", "0.4!4"}) {
    const auto reference = values_of(code, n);
    for (KernelKind kind : {KernelKind::Sparse, KernelKind::Sweep, KernelKind::Auto})
      EXPECT_EQ(values_of(code, n, kind, 2), reference) << code << " " << to_string(kind);
  }
}

// The work-span profile (run_octal --profile) times the kernels' tasks; it must not change a value,
// and its figures must hang together: the span is part of the work, and the predicted speedup
// grows with the threads but never past them. The naive kernel has no parallel region, so all of
// its work is one chain.
std::vector<Value> profiled_values(const char* code, std::uint64_t n, KernelKind kind, int threads, WorkSpan& profile) {
  EngineOptions options{kind, threads, false};
  options.profile = true;
  Engine engine(parse_rules(code), options);
  engine.compute_to(n);
  profile = engine.work_span();
  return engine.values().to_vector();
}

TEST(EngineProfile, TimesTasksWithoutChangingValues) {
  const std::uint64_t n = under_sanitizer() ? 6000 : 30000;
  for (const char* code : {"4!.0", "0.6", "0.007"})
    for (KernelKind kind : {KernelKind::Sparse, KernelKind::Sweep}) {
      WorkSpan profile;
      EXPECT_EQ(profiled_values(code, n, kind, 2, profile), values_of(code, n, kind, 2)) << code;
      EXPECT_GT(profile.work_seconds, 0) << code;
      EXPECT_GT(profile.span_seconds, 0) << code;
      EXPECT_LT(profile.span_seconds, profile.work_seconds) << code << " " << to_string(kind) << ": tasks ran side by side";
      EXPECT_GT(profile.wall_seconds, 0) << code;
      EXPECT_GT(profile.one_thread_seconds, 0) << code << ": blocks end in an ordered part";
      EXPECT_LT(profile.one_thread_seconds, profile.span_seconds) << code;
      EXPECT_EQ(profile.threads, 2);
      // A block's regions ran on both threads; each starts and ends, so some thread time in them
      // went to no task, and never more than the regions' wall time on both threads.
      EXPECT_GT(profile.regions, 0u) << code;
      EXPECT_GT(profile.region_idle_seconds, 0) << code;
      EXPECT_LT(profile.region_idle_seconds, 2 * profile.wall_seconds) << code;
      EXPECT_DOUBLE_EQ(profile.predicted_speedup(1), 1.0);
      double before = 1.0;
      for (int p : {2, 4, 8, 16, 32, 64, 128}) {
        const double speedup = profile.predicted_speedup(p);
        EXPECT_GE(speedup, before) << code << " on " << p;
        EXPECT_LE(speedup, p) << code << " on " << p;
        EXPECT_LE(speedup, profile.work_seconds / profile.span_seconds * (1 + 1e-12)) << code << ": the span bounds it";
        before = speedup;
      }
    }
}

TEST(EngineProfile, NaiveKernelIsOneChainAndOffMeansNothing) {
  WorkSpan profile;
  profiled_values("0.77", 3000, KernelKind::Naive, 2, profile);
  EXPECT_GT(profile.work_seconds, 0);
  EXPECT_DOUBLE_EQ(profile.span_seconds, profile.work_seconds);
  EXPECT_NEAR(profile.predicted_speedup(64), 1.0, 1e-12);
  EXPECT_EQ(profile.regions, 0u);

  Engine engine(parse_rules("4!.0"), EngineOptions{KernelKind::Sparse, 2, false});
  engine.compute_to(20000);
  EXPECT_EQ(engine.work_span().work_seconds, 0.0);
  EXPECT_EQ(engine.work_span().span_seconds, 0.0);
}

// The sparse kernel under each version of its vector loops this processor has (vector_path.hpp):
// rare pairs screened or all marked, the scan's values looked up or compared, one- and two-byte
// values, one and two threads.
class EngineVectorPaths : public ::testing::TestWithParam<VectorPath> {
 protected:
  void SetUp() override {
    if (GetParam() > best_vector_path()) GTEST_SKIP() << "this processor lacks the instructions of " << GetParam();
    limit_vector_path(GetParam());
  }
  void TearDown() override { limit_vector_path(VectorPath::Avx512); }
};

TEST_P(EngineVectorPaths, SparseEqualsNaive) {
  // 0.6 passes 255 at n = 18855 and 4.47 at 5488: the sparse kernel then runs on two-byte values,
  // and its rare list is long (1584 and 504 positions). Grundy's game has runs of rare positions
  // long enough to be screened; Treblecross (0.007) has thousands of rare positions. 0.167 stays
  // below 64, where a group's pairs are marked as bits (pair_bits.hpp) and, with AVX-512, heaps
  // are decided alone (lone_heap.hpp); 0.174 passes 64 at 746 and stays below 128, where heaps
  // decided alone take two words of bits; 0.245 passes 128 at 1328 (four words).
  const std::pair<const char*, std::uint64_t> runs[] = {{"4!.0", 20000},
                                                        {"0.6", 20000},
                                                        {"4.47", under_sanitizer() ? 8000 : 24000},
                                                        {"0.007", 12000},
                                                        {"0.167", 20000},
                                                        {"0.174", 20000},
                                                        {"0.245", 20000}};
  for (const auto& [code, n] : runs) {
    const auto reference = values_of(code, n);
    if (std::string(code) == "0.167") {
      ASSERT_LT(*std::max_element(reference.begin(), reference.end()), 64u) << code;
    } else if (std::string(code) == "0.174" || std::string(code) == "0.245") {
      const Value largest = *std::max_element(reference.begin(), reference.end());
      ASSERT_GE(largest, code == std::string("0.174") ? 64u : 128u) << code;
      ASSERT_LT(largest, code == std::string("0.174") ? 128u : 256u) << code;
    } else if (std::string(code) != "4!.0" && std::string(code) != "0.007") {
      ASSERT_GT(*std::max_element(reference.begin(), reference.end()), 255u) << code;
    }
    for (int threads : {1, 2}) EXPECT_EQ(values_of(code, n, KernelKind::Sparse, threads), reference) << code;
  }
}

TEST_P(EngineVectorPaths, SweepEqualsNaive) {
  // With AVX-512 the sweep looks most pairs up: on one-byte values, on two-byte ones (0.6, 4.47
  // and Treblecross pass 255), with the first lookup's rank adapting, a second lookup, marking
  // after all when the values pass a power of two, and again in order when the pairs inside a
  // block fill the values the lookup missed. Kayles (0.77) has two splits. Lasker's Nim (G(n)
  // about n, the moves to one heap giving every value below it) marks nearly every heap in full
  // and stops looking up.
  const std::pair<const char*, std::uint64_t> runs[] = {{"0.6", 20000},
                                                        {"4.47", under_sanitizer() ? 8000 : 24000},
                                                        {"0.007", under_sanitizer() ? 8000 : 16000},
                                                        {"0.77", 6000},
                                                        {"0.16", 6000},
                                                        {"lasker", 9000}};
  for (const auto& [code, n] : runs) {
    const auto reference = values_of(code, n);
    for (int threads : {1, 2}) EXPECT_EQ(values_of(code, n, KernelKind::Sweep, threads), reference) << code;
  }
}

INSTANTIATE_TEST_SUITE_P(Paths, EngineVectorPaths,
                         ::testing::Values(VectorPath::Portable, VectorPath::Avx2, VectorPath::Avx512),
                         [](const ::testing::TestParamInfo<VectorPath>& instance) {
                           return ::testing::PrintToString(instance.param);
                         });

// The values do not depend on the number of threads, however many more there are than cores
// and however they split a block's groups. The games: Grundy's game and 0.6 (sparse, wide
// values), Treblecross 0.007 (the sweep), 0.167 (very few rare positions), 0.127 (a rare mask
// with the heap's parity) and the hexadecimal 0.b, whose three-heap splits cost n^2 a heap and
// keep it short.
TEST(EngineThreadCounts, ValuesIdenticalForEveryThreadCount) {
  struct Case {
    const char* code;
    std::uint64_t n;
  };
  const bool small = under_sanitizer();
  const Case cases[] = {{"4!.0", small ? 1u << 14 : 1u << 18}, {"0.6", small ? 1u << 14 : 1u << 18},
                        {"0.007", small ? 1u << 13 : 1u << 18}, {"0.167", small ? 1u << 14 : 1u << 18},
                        {"0.127", small ? 1u << 14 : 1u << 18}, {"0.b", small ? 1u << 9 : 1u << 11}};
  for (const Case& c : cases) {
    auto values_with = [&](int threads) {
      Engine engine(parse_rules(c.code), EngineOptions{KernelKind::Auto, threads, false});
      engine.compute_to(c.n);
      return engine.values().to_vector();
    };
    const auto reference = values_with(1);
    ASSERT_EQ(reference.size(), c.n);
    for (int threads : {2, 3, 8, 16, 64}) EXPECT_EQ(values_with(threads), reference) << c.code << " threads " << threads;
  }
}

// The sparse kernel's ordered part takes a value on speculation where only a rare value below it
// is not yet known present, and confirms those values after the block; a wrong guess (a new rare
// position) is put right and the rest of the block decided again. Wrong guesses happen among the
// first tens of thousands of heaps: Grundy's game at 2165, 27936, 30877, 32986 and 36041, 0.6 at
// 3076 and 20627, 0.127 (a rare mask with the heap's parity) at 7655, 0.007 at 3072. On more
// than one thread the blocks flow: the chain stops before each new rare position and wider value,
// its speculations are confirmed behind it, and the ordered part takes the rest of such a block
// (on every game here, even at the sanitizers' sizes). The values must equal the naive kernel's
// for every thread count.
TEST(EngineSpeculation, WrongGuessesPutRightForEveryThreadCount) {
  struct Case {
    const char* code;
    std::uint64_t n;
  };
  const bool small = under_sanitizer();
  const Case cases[] = {{"4!.0", small ? 1u << 12 : 1u << 16},
                        {"0.6", small ? 1u << 12 : 1u << 15},
                        {"0.127", 1u << 13},
                        {"0.007", 1u << 12}};
  for (const Case& c : cases) {
    const auto reference = values_of(c.code, c.n);
    for (int threads : {1, 2, 3, 8})
      EXPECT_EQ(values_of(c.code, c.n, KernelKind::Sparse, threads), reference) << c.code << " threads " << threads;
  }
}

// On tuning::kPipelineLeastThreads threads or more the sparse kernel's pipeline takes over from
// its blocks past the first heaps (from 45120 on Grundy's game, 32768 on 0.6, 35840 on 0.127).
// Grundy's game's last rare position, 82860, comes while it runs: its speculation there is wrong,
// found by a confirmation behind the chain, and the values from it on are taken back and decided
// again. Fewer threads decide in blocks.
// 0.66 has two two-heap splits (taking one token or two), each with its own pairs.
TEST(EnginePipeline, ValuesAsOnOneThreadThroughANewRarePosition) {
  const bool small = under_sanitizer();
  for (const char* code : {"4!.0", "0.6", "0.127", "0.66"}) {
    const auto reference = values_of(code, 1u << 17, KernelKind::Sparse, 1);
    for (int threads : small ? std::vector<int>{tuning::kPipelineLeastThreads} : std::vector<int>{2, 3, 4, 8})
      EXPECT_EQ(values_of(code, 1u << 17, KernelKind::Sparse, threads), reference) << code << " threads " << threads;
  }
}

// The pipeline's chain counts its values apart (by the heaps' parity) and hands the counts to the
// rare state after each step, before a wrong speculation takes values back: the histograms a
// checkpoint keeps must be one thread's, through Grundy's game's new rare position at 82860.
TEST(EnginePipeline, CountsTheValuesAsOnOneThread) {
  for (const char* code : {"4!.0", "0.6"}) {
    auto state_on = [&](int threads) {
      Engine engine(parse_rules(code), EngineOptions{KernelKind::Sparse, threads});
      engine.compute_to(1u << 17);
      return engine.sparse_state();
    };
    const auto one = state_on(1), piped = state_on(tuning::kPipelineLeastThreads);
    ASSERT_TRUE(one && piped) << code;
    std::uint64_t counted = 0;
    for (const std::uint64_t count : one->histogram) counted += count;
    EXPECT_EQ(counted, 1u << 17) << code;
    EXPECT_EQ(piped->histogram, one->histogram) << code;
    EXPECT_EQ(piped->odd_histogram, one->odd_histogram) << code;
    EXPECT_EQ(piped->rare_positions, one->rare_positions) << code;
  }
}

// On more than one thread a look for the period from tuning::kLookBesideFrom values on runs beside
// the kernels, on a copy of the last values (its window and one more). Its result is the one a look
// on one thread makes: on 0.6, which shows no period; and on the subtraction game {1, 1048575}
// (the largest take allowed), whose period 2 from 0 is proven at 1048578 values (max(n0, 1) + p +
// t): with a window of 4096 differences, the look there follows the period back past its copy to
// 0, and is made again on the values themselves.
TEST(EngineLookBeside, FindsWhatALookOnOneThreadFinds) {
  struct Case {
    const char* code;
    std::uint64_t n, window;
    bool proven;
  };
  for (const Case& c : {Case{"0.6", tuning::kLookBesideFrom + 5000, kPeriodWindow, false},
                        Case{"sub:1,1048575", 1048578 + 5000, 4096, true}}) {
    auto run = [&](int threads) {
      EngineOptions options{KernelKind::Auto, threads, true};
      options.period_window = c.window;
      Engine engine(parse_rules(c.code), options);
      engine.compute_to(c.n);
      return std::pair{engine.values().to_vector(), engine.last_period()};
    };
    const auto [values, look] = run(1);
    EXPECT_GE(look.checked_n, tuning::kLookBesideFrom) << c.code;
    EXPECT_EQ(look.proven, c.proven) << c.code;
    const auto [values_beside, look_beside] = run(2);
    EXPECT_EQ(values_beside, values) << c.code;
    EXPECT_EQ(look_beside, look) << c.code;
  }
}

TEST(EnginePublished, GrundysGameFirstValues) {
  const std::vector<Value> expected = {0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0};
  EXPECT_EQ(values_of("grundy", 21), expected);
  EXPECT_EQ(values_of("4!.0", 21, KernelKind::Sparse), expected);
}

TEST(EnginePublished, SubtractionGame134) {
  const std::vector<Value> expected = {0, 1, 0, 1, 2, 3, 2, 0, 1};
  EXPECT_EQ(values_of("0.3033", 9), expected);
  EXPECT_EQ(values_of("sub:1,3,4", 9, KernelKind::Auto), expected);
}

TEST(EnginePublished, KaylesPeriod12FromPreperiod71) {
  const auto g = values_of("kayles", 3000, KernelKind::Auto, 2);
  for (std::size_t n = 71; n + 12 < g.size(); ++n) ASSERT_EQ(g[n], g[n + 12]) << n;
  EXPECT_NE(g[70], g[82]);  // 70 is the last exception
  const std::vector<Value> start = {0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7};
  EXPECT_EQ(std::vector<Value>(g.begin(), g.begin() + 24), start);
}

TEST(EnginePublished, DawsonsChessExceptions) {
  const auto g = values_of("0.137", 3000, KernelKind::Auto, 2);
  // An exception differs from the value the period takes there eventually (n + 34k past 52).
  std::vector<std::size_t> exceptions;
  for (std::size_t n = 0; n < 52; ++n)
    if (g[n] != g[n + 34 * ((52 - n + 33) / 34)]) exceptions.push_back(n);
  for (std::size_t n = 52; n + 34 < g.size(); ++n) ASSERT_EQ(g[n], g[n + 34]) << n;
  EXPECT_EQ(exceptions, (std::vector<std::size_t>{0, 14, 16, 17, 31, 34, 51}));
}

TEST(EnginePublished, DawsonsKaylesIsDawsonsChessShiftedByOne) {
  const auto chess = values_of("dawson", 2000, KernelKind::Sparse);
  const auto kayles = values_of("dawson-kayles", 2001, KernelKind::Sparse);
  for (std::size_t n = 0; n < chess.size(); ++n) ASSERT_EQ(kayles[n + 1], chess[n]) << n;
}

TEST(EnginePublished, NimAndLaskersNimAndBash) {
  for (KernelKind kind : {KernelKind::Naive, KernelKind::Sparse, KernelKind::Sweep}) {
    const auto nim = values_of("nim", 700, kind);  // passes 255: the value type widens
    for (std::size_t n = 0; n < nim.size(); ++n) ASSERT_EQ(nim[n], n);
    const auto lasker = values_of("lasker", 700, kind);
    for (std::size_t n = 1; n < lasker.size(); ++n) {
      // Lasker's Nim: G(4k+1) = 4k+1, G(4k+2) = 4k+2, G(4k+3) = 4k+4, G(4k+4) = 4k+3.
      const std::size_t expected = n % 4 == 3 ? n + 1 : n % 4 == 0 ? n - 1 : n;
      ASSERT_EQ(lasker[n], expected) << n;
    }
    const auto bash = values_of("sub:1,2,3", 100, kind);
    for (std::size_t n = 0; n < bash.size(); ++n) ASSERT_EQ(bash[n], n % 4);
  }
}

TEST(EngineResume, ContinuingFromKnownValuesEqualsOneRun) {
  for (const char* code : {"4!.0", "0.007", "0.77", "0.[3]"}) {
    const Rules rules = parse_rules(code);
    const auto whole = values_of(code, 5000);
    for (KernelKind kind : {KernelKind::Sparse, KernelKind::Sweep, KernelKind::Naive}) {
      Sequence prefix = compute_sequence(rules, 1234, kind);
      Engine engine(rules, EngineOptions{kind, 2, false}, prefix);
      engine.compute_to(5000);
      EXPECT_EQ(engine.values().to_vector(), whole) << code << " " << to_string(kind);
    }
  }
}

TEST(EngineAuto, SwitchesToSweepWhenRareValuesAreCommon) {
  // 0.76 has no useful sparse space (two positions in five are rare whatever the mask): the auto
  // kernel must leave the sparse method.
  Engine engine(parse_rules("0.76"), EngineOptions{KernelKind::Auto, 2, false});
  engine.compute_to(40000);
  EXPECT_NE(engine.kernels_used().find("sweep"), std::string::npos) << engine.kernels_used();
  // Grundy's game has one: it stays sparse.
  Engine grundy(parse_rules("grundy"), EngineOptions{KernelKind::Auto, 2, false});
  grundy.compute_to(40000);
  EXPECT_EQ(grundy.kernels_used(), "sparse");
}

// The auto kernel's run of code to n, with a sweep that marks every pair (as without AVX-512) or
// with the best this processor has.
struct AutoRun {
  std::string kernels_used;
  std::vector<Value> values;
};
AutoRun auto_run(const char* code, std::uint64_t n, bool marking_sweep) {
  if (marking_sweep) limit_vector_path(VectorPath::Avx2);
  Engine engine(parse_rules(code), EngineOptions{KernelKind::Auto, 2, false});
  engine.compute_to(n);
  limit_vector_path(VectorPath::Avx512);
  return {engine.kernels_used(), engine.values().to_vector()};
}

TEST(EngineAuto, ReturnsToSparseWhenRareValuesThinOut) {
  // Treblecross: over a fifth of its first 20000 positions are rare, 8% of the first 2^18. With a
  // sweep that marks every pair (no AVX-512), the auto kernel sweeps from about 20000 and goes
  // back to the sparse method just past 2^17 (the first power of two where fewer than a sixth
  // are rare), with the same values. A sweep that looks pairs up is kept down to one in twenty.
  const std::uint64_t n = 200000;
  const AutoRun marking = auto_run("treblecross", n, true);
  EXPECT_EQ(marking.kernels_used, "sparse+sweep+sparse");
  EXPECT_EQ(marking.values, compute_sequence(parse_rules("treblecross"), n, KernelKind::Sparse, 2).to_vector());
  if (best_vector_path() != VectorPath::Avx512) GTEST_SKIP() << "the sweep looks pairs up only with AVX-512";
  const AutoRun looking_up = auto_run("treblecross", n, false);
  EXPECT_EQ(looking_up.kernels_used, "sparse+sweep");
  EXPECT_EQ(looking_up.values, marking.values);
}

TEST(EngineAuto, SweepsFromOneRareInSixteenWhenItLooksPairsUp) {
  // 0.15: one position in ten is rare. A sweep that marks every pair does not pay there; one that
  // looks pairs up does, and takes over from 2^16.
  const AutoRun marking = auto_run("0.15", 70000, true);
  EXPECT_EQ(marking.kernels_used, "sparse");
  if (best_vector_path() != VectorPath::Avx512) GTEST_SKIP() << "the sweep looks pairs up only with AVX-512";
  const AutoRun looking_up = auto_run("0.15", 70000, false);
  EXPECT_EQ(looking_up.kernels_used, "sparse+sweep");
  EXPECT_EQ(looking_up.values, marking.values);
}

TEST(EngineShortcut, ProvenPeriodFillsTheRestExactly) {
  const Rules rules = parse_rules("0.137");
  Engine engine(rules, EngineOptions{KernelKind::Auto, 2, true});
  engine.compute_to(30000);
  ASSERT_TRUE(engine.proven_period().has_value());
  EXPECT_EQ(engine.proven_period()->period, 34u);
  EXPECT_NE(engine.kernels_used().find("period"), std::string::npos);
  EXPECT_EQ(engine.values().to_vector(), values_of("0.137", 30000, KernelKind::Sweep, 2));
}

TEST(EngineShortcut, NeverTakenWithoutATheorem) {
  // Grundy's game (unequal splits) has no periodicity theorem: every value is computed.
  Engine engine(parse_rules("grundy"), EngineOptions{KernelKind::Auto, 1, true});
  engine.compute_to(5000);
  EXPECT_FALSE(engine.proven_period().has_value());
  EXPECT_EQ(engine.kernels_used().find("period"), std::string::npos);
}

// The one loop of run_octal and sg_sweep: looks at twice the last size, or at once at what the
// proof of a period seen needs, and stops there.
TEST(EngineUntilProven, StopsWhereTheProofIsComplete) {
  // 0.127: period 4 after 46578 values, seen at 2^16; its proof needs 93167 values.
  Engine engine(parse_rules("0.127"), EngineOptions{KernelKind::Auto, 1, true});
  ASSERT_TRUE(engine.compute_until_proven(4096, 1u << 20));
  EXPECT_EQ(engine.values().size(), 93167u);
  EXPECT_TRUE(engine.last_period().proven);
  EXPECT_EQ(engine.last_period().preperiod, 46578u);
  EXPECT_EQ(engine.last_period().period, 4u);
  EXPECT_EQ(engine.last_period().checked_n, 93167u);

  // Without the shortcut it looks all the same, and stops at the same place.
  Engine every_value(parse_rules("0.127"), EngineOptions{KernelKind::Auto, 1, false});
  ASSERT_TRUE(every_value.compute_until_proven(4096, 1u << 20));
  EXPECT_EQ(every_value.values().size(), 93167u);
  EXPECT_EQ(every_value.kernels_used().find("period"), std::string::npos);
}

TEST(EngineUntilProven, StopsAtTheCapOrAtOnceWithoutATheorem) {
  Engine capped(parse_rules("0.127"), EngineOptions{KernelKind::Auto, 1, true});
  ASSERT_TRUE(capped.compute_until_proven(4096, 50000));
  EXPECT_EQ(capped.values().size(), 50000u);
  EXPECT_FALSE(capped.last_period().proven);
  EXPECT_EQ(capped.last_period().checked_n, 50000u) << "the values computed are analysed";
  // Grundy's game: nothing can be proven, so it stops at the first size, analysed.
  Engine grundy(parse_rules("grundy"), EngineOptions{KernelKind::Auto, 1, true});
  ASSERT_TRUE(grundy.compute_until_proven(3000, 1u << 20));
  EXPECT_EQ(grundy.values().size(), 3000u);
  EXPECT_EQ(grundy.last_period().checked_n, 3000u);
  // A callback that says stop is obeyed.
  Engine stopped(parse_rules("0.127"), EngineOptions{KernelKind::Auto, 1, true});
  EXPECT_FALSE(stopped.compute_until_proven(4096, 1u << 20, [](const Progress& p) { return p.n < 20000; }));
  EXPECT_LT(stopped.values().size(), 93167u);
}

}  // namespace
}  // namespace sgx
