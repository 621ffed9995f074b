// Periods longer than half the analysis window (src/analysis/period_long.hpp): synthetic sequences with
// periods of millions, each found exactly with two full periods after its preperiod and not with
// one value less, from memory and through a reader; and real games' periods past a small window.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "sgx/engine.hpp"
#include "sgx/period.hpp"
#include "sgx/rules.hpp"
#include "sgx/sequence.hpp"

namespace {

using sgx::analyze_period;
using sgx::parse_rules;
using sgx::PeriodResult;
using sgx::Sequence;
using sgx::Value;

// n values: a random preperiod of n0, then a random block of p values repeated, each repetition
// saltus more than the one before. The block's first value occurs nowhere else in it, so p is its
// least period; G(n0 - 1) is set to break the period, so n0 is exact.
std::vector<Value> planted(std::uint64_t seed, std::uint64_t n0, std::uint64_t p, std::uint64_t n, Value saltus) {
  std::mt19937_64 rng(seed);
  constexpr Value kMarker = 199;
  std::vector<Value> g(n);
  for (std::uint64_t i = 0; i < std::min(n, n0 + p); ++i) g[i] = static_cast<Value>(rng() % kMarker);
  if (n > n0) g[n0] = kMarker;
  for (std::uint64_t i = n0 + p; i < n; ++i) g[i] = g[i - p] + saltus;
  if (n0 > 0 && n > n0 - 1 + p && g[n0 - 1] + saltus == g[n0 - 1 + p]) g[n0 - 1] = g[n0 - 1 + p] + saltus + 1;
  return g;
}

std::string shown(const PeriodResult& r) {
  return "found " + std::to_string(r.found) + " p " + std::to_string(r.period) + " n0 " + std::to_string(r.preperiod) +
         " s " + std::to_string(r.saltus) + " proven " + std::to_string(r.proven) + " needs " +
         std::to_string(r.proof_needs_n) + " exceptions " + std::to_string(r.exceptions.size());
}

struct LongCase {
  std::uint64_t period;
  std::uint64_t preperiod;
  Value saltus;
  const char* code;  // games whose rules allow the saltus and (for 0.77) prove the period
};

// Found exactly with two full periods and one value (the tail's differences hold two periods),
// not found with one value less; the result the same through a reader of the values.
void expect_found_from_two_periods_on(const LongCase& c, bool through_reader) {
  const std::string what = "period " + std::to_string(c.period) + " from " + std::to_string(c.preperiod);
  const std::uint64_t n = c.preperiod + 2 * c.period + 1;
  const std::vector<Value> g = planted(c.period, c.preperiod, c.period, n, c.saltus);
  const sgx::Rules rules = parse_rules(c.code);
  Sequence values = Sequence::from_vector(g);
  const PeriodResult r = analyze_period(values, rules);
  ASSERT_TRUE(r.found) << what;
  EXPECT_EQ(r.period, c.period) << what;
  EXPECT_EQ(r.preperiod, c.preperiod) << what;
  EXPECT_EQ(r.saltus, static_cast<std::int64_t>(c.saltus)) << what;
  EXPECT_EQ(r.checked_n, n) << what;
  if (c.preperiod > 0) {  // the first 10000 of the random preperiod's many exceptions
    ASSERT_EQ(r.exceptions.size(), std::min<std::uint64_t>(c.preperiod, 10000)) << what;
    EXPECT_TRUE(std::is_sorted(r.exceptions.begin(), r.exceptions.end())) << what;
    EXPECT_LT(r.exceptions.back(), c.preperiod) << what;
  }
  if (through_reader) {
    std::uint64_t largest = 0, total = 0;
    const sgx::ValueReader read = [&](std::uint64_t from, std::uint64_t to, Value* out) {
      largest = std::max(largest, to - from);
      total += to - from;
      std::copy(g.begin() + static_cast<std::ptrdiff_t>(from), g.begin() + static_cast<std::ptrdiff_t>(to), out);
    };
    EXPECT_EQ(analyze_period(n, read, rules), r) << what << " through a reader";
    // A block at a time besides the window, and each value read a few times at most.
    EXPECT_LE(largest, sgx::period_window_values(n, sgx::kPeriodWindow)) << what;
    EXPECT_LE(total, 6 * n) << what;
  }
  values.truncate(n - 1);
  EXPECT_FALSE(analyze_period(values, rules).found) << what << ", one value less";
}

TEST(PeriodLong, PeriodsOfMillionsFoundExactlyFromTwoPeriodsOn) {
  expect_found_from_two_periods_on({(std::uint64_t{1} << 22) + 1, 0, 0, "4!.0"}, false);
  expect_found_from_two_periods_on({(std::uint64_t{1} << 23) + 3, 2500001, 2, "0.[3]"}, false);
  expect_found_from_two_periods_on({5000011, 3000017, 0, "4!.0"}, true);
  expect_found_from_two_periods_on({(std::uint64_t{1} << 25) + 7, 1999993, 3, "4.[3]"}, false);
}

TEST(PeriodLong, PeriodOneAndShortPeriodsStillFoundBesideTheLongSearch) {
  // Period 1 with a saltus: G(n) = n - c from a few million on.
  const std::uint64_t n0 = 3000017, n = 2 * n0;
  const std::vector<Value> g = planted(1, n0, 1, n, 1);
  const PeriodResult r = analyze_period(Sequence::from_vector(g), parse_rules("0.[3]"));
  ASSERT_TRUE(r.found);
  EXPECT_EQ(r.period, 1u);
  EXPECT_EQ(r.saltus, 1);
  EXPECT_EQ(r.preperiod, n0);
  // A short period whose tail covers nearly everything: the long search reads only the preperiod,
  // and multiples of the period found are never taken for periods of their own.
  const std::vector<Value> h = planted(2, 1000, 34, std::uint64_t{1} << 24, 0);
  const PeriodResult s = analyze_period(Sequence::from_vector(h), parse_rules("0.137"));
  ASSERT_TRUE(s.found);
  EXPECT_EQ(s.period, 34u);
  EXPECT_EQ(s.preperiod, 1000u);
  EXPECT_TRUE(s.proven);
}

// The longer search against the prefix function over every difference, on sequences built to
// give it work: periods from just past half the least window to a few thousand, tails broken here
// and there, stretches that repeat once without a period, sequences without a period, saltus or
// none, games with and without a theorem (one that proves from one repetition among them). Every
// tail of two full periods is found alike.
TEST(PeriodLong, SmallWindowGivesWhatTheWholeWindowGives) {
  const char* codes[] = {"4!.0", "0.77", "sub:1,3,4", "0.[3]"};
  int found = 0, proven = 0, unseen = 0;
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    std::mt19937_64 rng(seed);
    const std::uint64_t p = sgx::kMinPeriodWindow / 2 + 1 + rng() % 3000;
    const std::uint64_t n0 = rng() % 5000;
    const std::uint64_t n = n0 + p + rng() % (4 * p + 2000);
    std::vector<Value> g = planted(seed, n0, p, n, seed % 4 == 0 ? 1 : 0);
    if (seed % 5 == 0)  // a stretch repeated once, far from the end
      for (std::uint64_t i = 0; i + 300 < n / 2; ++i) g[n / 2 + i] = g[i];
    if (seed % 7 == 0) g[n0 + rng() % (n - n0)] += 3;  // a tail broken
    if (seed % 11 == 0)
      for (auto& v : g) v = static_cast<Value>(rng() % 4);  // no period, few values
    const sgx::Rules rules = parse_rules(codes[seed % 4]);
    const Sequence values = Sequence::from_vector(g);
    const PeriodResult whole = analyze_period(values, rules, n);
    const PeriodResult least = analyze_period(values, rules, sgx::kMinPeriodWindow);
    // What the longer search cannot see (period_long.hpp): a subtraction game's proof from fewer
    // than K = 64 differences past one period, here of random values that the theorem would
    // "prove" from t = 4 relations.
    const std::uint64_t fingerprint = sgx::kMinPeriodWindow / 2;
    if (whole.found && whole.period > fingerprint && n - 1 - whole.preperiod < whole.period + fingerprint) {
      EXPECT_EQ(rules.max_heaps_left(), 1u) << "seed " << seed;
      ++unseen;
      continue;
    }
    EXPECT_TRUE(least == whole) << "seed " << seed << " " << codes[seed % 4] << " p " << p << " n0 " << n0 << " n " << n
                                << ": " << shown(least) << " against " << shown(whole);
    found += whole.found;
    proven += whole.proven;
  }
  EXPECT_GT(found, 100);  // both kinds of answer were compared often
  EXPECT_LT(found, 290);
  EXPECT_GT(proven, 20);
  EXPECT_LT(unseen, 15);
}

// The proof of a long period: Guy-Smith's bound 2 max(n0, 1) + 2p + t, exact, past 2^22.
TEST(PeriodLong, LongPeriodProvenAtExactlyWhatItsProofNeeds) {
  const std::uint64_t p = (std::uint64_t{1} << 22) + 1;
  const std::uint64_t needs = 2 * 1 + 2 * p + 2;  // 0.77: t = 2, k = 2, n0 = 0
  const std::vector<Value> g = planted(5, 0, p, needs, 0);
  Sequence values = Sequence::from_vector(g);
  const PeriodResult proven = analyze_period(values, parse_rules("0.77"));
  ASSERT_TRUE(proven.found);
  EXPECT_EQ(proven.period, p);
  EXPECT_EQ(proven.preperiod, 0u);
  EXPECT_TRUE(proven.proven);
  EXPECT_EQ(proven.theorem, "guy-smith");
  EXPECT_EQ(proven.proof_needs_n, needs);
  values.truncate(needs - 1);
  const PeriodResult seen = analyze_period(values, parse_rules("0.77"));
  ASSERT_TRUE(seen.found);
  EXPECT_EQ(seen.period, p);
  EXPECT_FALSE(seen.proven);
  EXPECT_EQ(seen.proof_needs_n, needs);
  EXPECT_EQ(sgx::next_proof_target(seen, needs - 1, std::uint64_t{1} << 30), needs);
}

// The bound saturates rather than wrapping round for periods and preperiods past 2^62.
TEST(PeriodLong, ProofLengthPastTwoToTheThirtyTwo) {
  const sgx::Rules kayles = parse_rules("0.77");
  const std::uint64_t p = (std::uint64_t{1} << 33) + 5, n0 = (std::uint64_t{1} << 34) + 1;
  EXPECT_EQ(sgx::proof_length(kayles, n0, p), 2 * n0 + 2 * p + 2);
  EXPECT_EQ(sgx::proof_length(kayles, std::uint64_t{1} << 63, 5), UINT64_MAX);
  EXPECT_EQ(sgx::proof_length(parse_rules("0.F"), UINT64_MAX / 4, UINT64_MAX / 4), UINT64_MAX);
}

// Real games whose periods are longer than half of a small window: found and proven until
// proven just as with the full window, the long search doing the work.
TEST(PeriodLong, UntilProvenWithASmallWindowGivesTheSameProof) {
  for (const char* code : {"0.16", "0.56"}) {
    const sgx::Rules rules = parse_rules(code);
    sgx::EngineOptions wide;
    sgx::EngineOptions narrow;
    narrow.period_window = sgx::kMinPeriodWindow;
    sgx::Engine a(rules, wide), b(rules, narrow);
    ASSERT_TRUE(a.compute_until_proven(1000, std::uint64_t{1} << 20, {}));
    ASSERT_TRUE(b.compute_until_proven(1000, std::uint64_t{1} << 20, {}));
    EXPECT_TRUE(a.last_period().proven) << code;
    EXPECT_EQ(b.last_period(), a.last_period()) << code;
    EXPECT_EQ(b.values(), a.values()) << code;
  }
}

}  // namespace
