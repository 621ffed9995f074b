// The period analyzer on synthetic sequences: planted periods and saltuses recovered exactly,
// random values without one, the exception list capped, and plain values (rows of tables).

#include "period_test_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "sgx/period.hpp"
#include "sgx/report.hpp"
#include "sgx/rules.hpp"
#include "sgx/sequence.hpp"

namespace {

using namespace period_test;

// ---------------------------------------------------------------------------------------------
// Edge cases and synthetic sequences.

TEST(PeriodEdge, TinySequencesAreNotFound) {
  for (std::size_t n = 0; n <= 2; ++n) {
    const PeriodResult r = analyze(std::vector<Value>(n, 0), "0.0");
    EXPECT_FALSE(r.found) << n;
    EXPECT_FALSE(r.proven) << n;
    EXPECT_EQ(r.checked_n, n);
  }
}

TEST(PeriodSynthetic, PlantedPeriodIsRecoveredExactly) {
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    std::mt19937_64 rng(seed);
    const std::uint64_t p = 1 + rng() % 60;
    const std::uint64_t n0 = rng() % 300;
    const std::uint64_t n = n0 + std::max({3 * p + 1, n0, p + 16}) + rng() % 2000;
    const Value limit = seed % 3 == 0 ? 200 : seed % 3 == 1 ? 4000 : 100000;
    const Planted planted = plant(rng, n0, p, n, limit, 0);
    const PeriodResult r = analyze(planted.values, "4!.0");
    ASSERT_TRUE(r.found) << "seed " << seed;
    EXPECT_EQ(r.period, p) << "seed " << seed;
    EXPECT_EQ(r.preperiod, n0) << "seed " << seed;
    EXPECT_EQ(r.saltus, 0) << "seed " << seed;
    EXPECT_EQ(r.exceptions, tail_misfits(planted.values, p, n0)) << "seed " << seed;
    if (n0 > 0) {
      EXPECT_EQ(r.exceptions.back(), n0 - 1);
    }
  }
}

TEST(PeriodSynthetic, PlantedSaltusIsRecoveredForRepeatingTails) {
  for (std::uint64_t seed = 100; seed < 120; ++seed) {
    std::mt19937_64 rng(seed);
    const std::uint64_t p = 1 + rng() % 30;
    const std::uint64_t n0 = rng() % 100;
    const Value s = 1 + static_cast<Value>(rng() % 5);
    const Planted planted = plant(rng, n0, p, n0 + 5 * p + 500, 50, s);
    const PeriodResult r = analyze(planted.values, "0.[3]");
    ASSERT_TRUE(r.found) << "seed " << seed;
    EXPECT_EQ(r.period, p) << "seed " << seed;
    EXPECT_EQ(r.preperiod, n0) << "seed " << seed;
    EXPECT_EQ(r.saltus, static_cast<std::int64_t>(s)) << "seed " << seed;
    EXPECT_FALSE(r.proven);
  }
}

TEST(PeriodSynthetic, RandomValuesHaveNoPeriod) {
  std::mt19937_64 rng(7);
  std::vector<Value> g(50000);
  for (auto& v : g) v = static_cast<Value>(rng() % 16);
  g[g.size() - 2] = g.back();  // a period 1 at the very end is a coincidence
  EXPECT_FALSE(analyze(g, "0.77").found);
}

TEST(PeriodSynthetic, ExceptionListIsCapped) {
  std::vector<Value> g(200000);
  for (std::size_t i = 0; i < 40000; ++i) g[i] = static_cast<Value>(i % 2 + 1);  // every n is an exception
  const PeriodResult r = analyze(g, "0.77");
  ASSERT_TRUE(r.found);
  EXPECT_EQ(r.period, 1u);
  EXPECT_EQ(r.preperiod, 40000u);
  EXPECT_EQ(r.exceptions.size(), 10000u);
}

// ---- Plain values (rows of two-dimensional tables): the same detection without a game ----

template <class T>
std::vector<T> narrowed(const std::vector<Value>& values) {
  std::vector<T> out;
  for (Value v : values) out.push_back(static_cast<T>(v));
  return out;
}

// Same finding as analyze_period for a game with a repeating tail (no theorem, any saltus), in
// every storage width: one algorithm, not two.
TEST(PeriodPlainValues, SameAsTheGameAnalysisWithoutATheorem) {
  const Rules tail_game = parse_rules("0.[3]");
  int found = 0;
  for (std::uint64_t seed = 300; seed < 360; ++seed) {
    std::mt19937_64 rng(seed);
    const std::uint64_t p = 1 + rng() % 40;
    const std::uint64_t n0 = rng() % 200;
    const Value s = static_cast<Value>(seed % 4 == 0 ? 0 : rng() % 4);
    // Tails from too short to plenty: some are found and some not, by both. (plant needs one
    // period and a value past the prefix.)
    const std::uint64_t n = n0 + p + 1 + rng() % (5 * p + 60);
    const std::vector<Value> g = plant(rng, n0, p, n, 60, s).values;
    const PeriodResult expected = analyze_period(Sequence::from_vector(g), tail_game);
    found += expected.found;
    for (const PeriodResult& r : {sgx::find_additive_period(std::span<const std::uint32_t>(g)),
                                  sgx::find_additive_period(std::span<const std::uint16_t>(narrowed<std::uint16_t>(g))),
                                  sgx::find_additive_period(std::span<const std::uint8_t>(narrowed<std::uint8_t>(g)))}) {
      EXPECT_EQ(r.found, expected.found) << "seed " << seed;
      EXPECT_EQ(r.period, expected.period) << "seed " << seed;
      EXPECT_EQ(r.preperiod, expected.preperiod) << "seed " << seed;
      EXPECT_EQ(r.saltus, expected.saltus) << "seed " << seed;
      EXPECT_EQ(r.exceptions, expected.exceptions) << "seed " << seed;
      EXPECT_EQ(r.checked_n, g.size());
      EXPECT_FALSE(r.proven);
      EXPECT_EQ(r.theorem, "");
    }
  }
  EXPECT_GT(found, 10);
  EXPECT_LT(found, 55);
}

// The criterion, at its edges: two full periods plus one value, sixteen relations, a quarter.
TEST(PeriodPlainValues, EnoughRepetitionsAndNoMore) {
  auto found_with_tail = [](std::uint64_t n0, std::uint64_t p, std::uint64_t tail, Value saltus) {
    std::mt19937_64 rng(n0 * 1000 + p);
    const std::vector<Value> g = plant(rng, n0, p, n0 + tail, 1000, saltus).values;
    const PeriodResult r = sgx::find_additive_period(std::span<const std::uint32_t>(g));
    if (r.found) {
      EXPECT_EQ(r.period, p);
      EXPECT_EQ(r.preperiod, n0);
      EXPECT_EQ(r.saltus, static_cast<std::int64_t>(saltus));
    }
    return r.found;
  };
  // Two periods plus one value: p = 20 needs 41 values from the preperiod on.
  EXPECT_TRUE(found_with_tail(60, 20, 41, 7));
  EXPECT_FALSE(found_with_tail(60, 20, 40, 7));
  // Sixteen relations G(n + p) = G(n) + s: p = 3 needs 19 values, though 7 hold two periods.
  EXPECT_TRUE(found_with_tail(30, 3, 19, 3));
  EXPECT_FALSE(found_with_tail(30, 3, 18, 3));
  // A quarter of the values: after a preperiod of 300, 100 values, not 99.
  EXPECT_TRUE(found_with_tail(300, 10, 100, 10));
  EXPECT_FALSE(found_with_tail(300, 10, 99, 10));
}

// The repeating tail by its definition, for short sequences: the least period of every suffix of
// the differences by direct comparison, the longest suffix holding two periods, then the
// preperiod, saltus and the criterion's extra conditions (a quarter of the values, sixteen
// relations) as period.cpp states them, any saltus allowed.
struct DefinedTail {
  bool found = false;
  std::uint64_t period = 0;
  std::uint64_t preperiod = 0;
  std::int64_t saltus = 0;
};

DefinedTail tail_by_definition(const std::vector<Value>& g) {
  const std::uint64_t n = g.size();
  const std::uint64_t m = n - 1;  // differences D(0..m-1)
  auto d = [&](std::uint64_t i) { return static_cast<std::int64_t>(g[i + 1]) - static_cast<std::int64_t>(g[i]); };
  auto least_period = [&](std::uint64_t length) {  // of D(m - length..m - 1)
    for (std::uint64_t p = 1; p < length; ++p) {
      bool holds = true;
      for (std::uint64_t j = m - length; j + p < m && holds; ++j) holds = d(j) == d(j + p);
      if (holds) return p;
    }
    return length;
  };
  DefinedTail tail;
  std::uint64_t longest = 0, p = 0;
  for (std::uint64_t length = 1; length <= m; ++length)
    if (const std::uint64_t q = least_period(length); length >= 2 * q) {
      longest = length;
      p = q;
    }
  if (longest == 0) return tail;
  const std::int64_t s = static_cast<std::int64_t>(g[m - longest + p]) - static_cast<std::int64_t>(g[m - longest]);
  std::uint64_t n0 = 0;
  for (std::uint64_t i = n - p; i-- > 0;)
    if (static_cast<std::int64_t>(g[i + p]) - static_cast<std::int64_t>(g[i]) != s) {
      n0 = i + 1;
      break;
    }
  if (4 * (n - n0) >= n && n - n0 >= p + 16) tail = {true, p, n0, s};
  return tail;
}

// Sequences whose differences give the pass every kind of stretch: long runs of border 0, borders
// growing over many compare blocks, repeats of the first differences broken off, small alphabets
// where borders rise and fall at every step. Every width of storage the values fit.
TEST(PeriodPlainValues, TailsAsTheirDefinitionGivesThem) {
  int found = 0;
  for (std::uint64_t seed = 1; seed <= 240; ++seed) {
    std::mt19937_64 rng(seed);
    const std::uint64_t n = 3 + rng() % 260;
    const int kind = static_cast<int>(seed % 4);
    const Value alphabet = kind == 0 ? 2 + static_cast<Value>(rng() % 3) : 200;
    // Periods about the pass's compare blocks of 32 differences, and any others.
    const std::uint64_t near_blocks[] = {31, 32, 33, 63, 64, 65};
    const std::uint64_t p = seed % 3 == 0 ? std::min(near_blocks[rng() % 6], 1 + n / 3) : 1 + rng() % (1 + n / 3);
    const std::uint64_t n0 = rng() % n;
    const Value saltus = kind == 3 ? static_cast<Value>(rng() % 3) : 0;
    std::vector<Value> block(p);
    for (Value& v : block) v = static_cast<Value>(rng() % alphabet);
    std::vector<Value> g(n);
    for (std::uint64_t i = 0; i < n; ++i) {
      const bool in_tail = kind != 0 && i >= n0;
      g[i] = in_tail ? block[(i - n0) % p] + saltus * static_cast<Value>((i - n0) / p)
                     : static_cast<Value>(rng() % alphabet);
      if (kind == 2 && rng() % 40 == 0) g[i] = static_cast<Value>(rng() % alphabet);  // a tail broken here and there
    }
    const DefinedTail expected = tail_by_definition(g);
    found += expected.found;
    std::vector<PeriodResult> results{sgx::find_additive_period(std::span<const std::uint32_t>(g))};
    if (*std::max_element(g.begin(), g.end()) < 256)
      results.push_back(sgx::find_additive_period(std::span<const std::uint8_t>(narrowed<std::uint8_t>(g))));
    for (const PeriodResult& r : results) {
      EXPECT_EQ(r.found, expected.found) << "seed " << seed;
      if (!r.found || !expected.found) continue;
      EXPECT_EQ(r.period, expected.period) << "seed " << seed;
      EXPECT_EQ(r.preperiod, expected.preperiod) << "seed " << seed;
      EXPECT_EQ(r.saltus, expected.saltus) << "seed " << seed;
    }
  }
  EXPECT_GT(found, 40);
  EXPECT_LT(found, 200);
}

TEST(PeriodPlainValues, NegativeSaltusAndTinyInputs) {
  std::vector<std::uint16_t> falling;
  for (int i = 0; i < 200; ++i) falling.push_back(static_cast<std::uint16_t>(1000 - 5 * (i / 2) + i % 2));
  const PeriodResult r = sgx::find_additive_period(std::span<const std::uint16_t>(falling));
  ASSERT_TRUE(r.found);
  EXPECT_EQ(r.period, 2u);
  EXPECT_EQ(r.saltus, -5);
  EXPECT_EQ(r.preperiod, 0u);
  for (std::size_t n = 0; n <= 2; ++n)
    EXPECT_FALSE(sgx::find_additive_period(std::span<const std::uint8_t>(std::vector<std::uint8_t>(n, 4))).found);
}

// Large input: checks the results only; speed is measured in bench/, never asserted here.
TEST(PeriodSynthetic, LargePeriodicSequence) {
  std::mt19937_64 rng(2024);
  const std::uint64_t n = std::uint64_t{1} << 22;
  const Planted planted = plant(rng, 123457, 1009, n, 256, 0);
  const Sequence seq = Sequence::from_vector(planted.values);
  ASSERT_EQ(seq.bytes_per_value(), 1u);
  const PeriodResult r = analyze_period(seq, parse_rules("0.77"));
  EXPECT_TRUE(r.found);
  EXPECT_EQ(r.period, 1009u);
  EXPECT_EQ(r.preperiod, 123457u);
  EXPECT_EQ(r.checked_n, n);
  EXPECT_TRUE(r.proven);  // 2 n0 + 2 p + t is far below n: Guy-Smith applies to these rules
}

}  // namespace
