// Tests for the period analyzer. The sequences come from a brute-force generator in this file,
// independent of the engine, so the analyzer is checked against plain mex over every move.


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
// The generator itself against published values (docs/THEORY.md section 2).

TEST(PeriodBruteForce, MatchesPublishedStarts) {
  EXPECT_EQ(brute_force("sub:1,3,4", 9), (std::vector<Value>{0, 1, 0, 1, 2, 3, 2, 0, 1}));
  EXPECT_EQ(brute_force("4!.0", 21),
            (std::vector<Value>{0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0}));
  EXPECT_EQ(brute_force("0.[3]", 6), (std::vector<Value>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(brute_force("0.77", 12), (std::vector<Value>{0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6}));
  // Lasker's Nim: G(4k+1) = 4k+1, G(4k+2) = 4k+2, G(4k+3) = 4k+4, G(4k+4) = 4k+3.
  EXPECT_EQ(brute_force("4.[3]", 9), (std::vector<Value>{0, 1, 2, 4, 3, 5, 6, 8, 7}));
}

// ---------------------------------------------------------------------------------------------
// Games with known periods.

TEST(PeriodKnown, KaylesProvenByGuySmith) {
  const auto g = brute_force("0.77", 1000);
  const PeriodResult r = analyze(g, "0.77");
  EXPECT_TRUE(r.found);
  EXPECT_EQ(r.period, 12u);
  EXPECT_EQ(r.preperiod, 71u);
  EXPECT_EQ(r.saltus, 0);
  EXPECT_EQ(r.theorem, "guy-smith");
  EXPECT_EQ(r.proof_needs_n, 2u * 71 + 2 * 12 + 2);
  EXPECT_TRUE(r.proven);
  EXPECT_EQ(r.checked_n, 1000u);
  // The exceptional values Winning Ways lists for Kayles.
  EXPECT_EQ(r.exceptions, (std::vector<std::uint64_t>{0, 3, 6, 9, 11, 15, 18, 21, 22, 28, 34, 39, 57, 70}));
}

TEST(PeriodKnown, KaylesProofBoundIsExact) {
  const auto g = brute_force("0.77", 168);
  const PeriodResult enough = analyze(g, "0.77");
  EXPECT_TRUE(enough.proven);
  EXPECT_EQ(enough.period, 12u);
  EXPECT_EQ(enough.preperiod, 71u);
  const PeriodResult short_by_one = analyze(prefix(g, 167), "0.77");
  EXPECT_TRUE(short_by_one.found);
  EXPECT_FALSE(short_by_one.proven);
  EXPECT_EQ(short_by_one.proof_needs_n, 168u);
}

TEST(PeriodKnown, DawsonsChess) {
  const PeriodResult r = analyze(brute_force("0.137", 1000), "0.137");
  EXPECT_TRUE(r.found);
  EXPECT_EQ(r.period, 34u);
  EXPECT_EQ(r.preperiod, 52u);
  EXPECT_EQ(r.exceptions, (std::vector<std::uint64_t>{0, 14, 16, 17, 31, 34, 51}));
  EXPECT_TRUE(r.proven);
  EXPECT_EQ(r.theorem, "guy-smith");
}

TEST(PeriodKnown, DawsonsChessStoppedAt150IsFoundButNotProven) {
  const PeriodResult r = analyze(brute_force("0.137", 150), "0.137");
  EXPECT_TRUE(r.found);
  EXPECT_EQ(r.period, 34u);
  EXPECT_EQ(r.preperiod, 52u);
  EXPECT_FALSE(r.proven);
  EXPECT_EQ(r.theorem, "") << "no theorem is named for a period it has not proven";
  EXPECT_EQ(r.applicable_theorem, "guy-smith");
  EXPECT_EQ(r.proof_needs_n, 2u * 52 + 2 * 34 + 3);
  EXPECT_EQ(r.exceptions, (std::vector<std::uint64_t>{0, 14, 16, 17, 31, 34, 51}));
}

TEST(PeriodKnown, DawsonsKaylesIsDawsonsChessShifted) {
  const PeriodResult r = analyze(brute_force("0.07", 600), "0.07");
  EXPECT_TRUE(r.found);
  EXPECT_EQ(r.period, 34u);
  EXPECT_EQ(r.preperiod, 53u);
  EXPECT_TRUE(r.proven);
}

TEST(PeriodKnown, Guiles) {
  const PeriodResult r = analyze(brute_force("0.15", 500), "0.15");
  EXPECT_TRUE(r.found);
  EXPECT_EQ(r.period, 10u);
  EXPECT_EQ(r.preperiod, 1u);
  EXPECT_TRUE(r.proven);
}

// Solved games whose period and preperiod the brute-force values show; each is cross-checked
// against the naive search and proven by the theorem named.
struct Solved {
  const char* code;
  std::uint64_t period;
  std::uint64_t preperiod;
  const char* theorem;
};

void PrintTo(const Solved& game, std::ostream* os) { *os << game.code; }

class PeriodSolved : public ::testing::TestWithParam<Solved> {};

TEST_P(PeriodSolved, MatchesNaiveSearchAndIsProven) {
  const Solved& game = GetParam();
  const auto g = brute_force(game.code, 800);
  const Naive naive = naive_period(g);
  ASSERT_EQ(naive.period, game.period) << "the table entry disagrees with the direct search";
  ASSERT_EQ(naive.preperiod, game.preperiod);
  const PeriodResult r = analyze(g, game.code);
  EXPECT_TRUE(r.found);
  EXPECT_EQ(r.period, game.period);
  EXPECT_EQ(r.preperiod, game.preperiod);
  EXPECT_EQ(r.saltus, 0);
  EXPECT_EQ(r.theorem, game.theorem);
  EXPECT_EQ(r.proof_needs_n, sgx::proof_length(parse_rules(game.code), game.preperiod, game.period));
  EXPECT_TRUE(r.proven);
  EXPECT_EQ(r.exceptions, tail_misfits(g, game.period, game.preperiod));
  if (game.preperiod > 0) {
    ASSERT_FALSE(r.exceptions.empty());
    EXPECT_EQ(r.exceptions.back(), game.preperiod - 1);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Games, PeriodSolved,
    ::testing::Values(Solved{"0.1", 1, 2, "subtraction-window"}, Solved{"0.2", 2, 1, "subtraction-window"},
                      Solved{"0.3", 2, 0, "subtraction-window"}, Solved{"0.33", 3, 0, "subtraction-window"},
                      Solved{"0.4", 34, 54, "guy-smith"}, Solved{"0.51", 1, 1, "guy-smith"},
                      Solved{"0.52", 4, 4, "guy-smith"}, Solved{"0.53", 9, 11, "guy-smith"},
                      Solved{"0.71", 2, 3, "guy-smith"}, Solved{"0.72", 4, 1, "guy-smith"},
                      Solved{"0.75", 2, 1, "guy-smith"}, Solved{"0.12", 4, 1, "subtraction-window"},
                      Solved{"0.13", 4, 0, "subtraction-window"}, Solved{"0.34", 8, 7, "guy-smith"},
                      Solved{"0.35", 6, 1, "guy-smith"}, Solved{"0.44", 24, 143, "guy-smith"},
                      Solved{"4.0", 2, 1, "guy-smith"}, Solved{"sub:1,3,4", 7, 0, "subtraction-window"},
                      Solved{"sub:2,5", 7, 0, "subtraction-window"}, Solved{"0.F", 2, 0, "guy-smith-k-heap"}),
    [](const ::testing::TestParamInfo<Solved>& game) {
      std::string name;
      for (const char c : std::string(game.param.code))
        name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
      return name;
    });

// ---------------------------------------------------------------------------------------------
// Arithmetic periodicity and games no theorem covers.

TEST(PeriodSaltus, NimIsArithmeticPeriodicButNeverProven) {
  const PeriodResult r = analyze(brute_force("0.[3]", 300), "0.[3]");
  EXPECT_TRUE(r.found);
  EXPECT_EQ(r.period, 1u);
  EXPECT_EQ(r.preperiod, 0u);
  EXPECT_EQ(r.saltus, 1);
  EXPECT_EQ(r.theorem, "");
  EXPECT_EQ(r.proof_needs_n, 0u);
  EXPECT_FALSE(r.proven);
}

TEST(PeriodSaltus, LaskersNim) {
  const PeriodResult r = analyze(brute_force("4.[3]", 300), "4.[3]");
  EXPECT_TRUE(r.found);
  EXPECT_EQ(r.period, 4u);
  EXPECT_EQ(r.saltus, 4);
  EXPECT_EQ(r.preperiod, 1u);  // G(4) - G(0) = 3, every later G(n+4) - G(n) = 4
  EXPECT_EQ(r.exceptions, (std::vector<std::uint64_t>{0}));
  EXPECT_FALSE(r.proven);
}

// 0.8 (take one, leave three heaps) is a hexadecimal game: arithmetic periodicity is allowed
// there, reported, but the theorem only proves ordinary periods.
TEST(PeriodSaltus, HexadecimalGameWithSaltusIsFoundNotProven) {
  const auto g = brute_force("0.8", 400);
  const PeriodResult r = analyze(g, "0.8");
  EXPECT_TRUE(r.found);
  EXPECT_EQ(r.period, 3u);
  EXPECT_EQ(r.saltus, 1);
  EXPECT_EQ(r.preperiod, 1u);
  for (std::uint64_t n = 1; n + 3 < g.size(); ++n) ASSERT_EQ(g[n + 3], g[n] + 1) << n;
  EXPECT_EQ(r.applicable_theorem, "guy-smith-k-heap");
  EXPECT_EQ(r.theorem, "");
  EXPECT_FALSE(r.proven);
  // No count of values proves it, so none is named (it once said "needs 13 values" at 400).
  EXPECT_EQ(r.proof_needs_n, 0u);
  EXPECT_EQ(period_text(r), "period 3, preperiod 1, saltus 1, periodic so far, not proven: "
                            "no theorem here proves a period with a saltus");
  EXPECT_EQ(proof_wait_text(r), "period 3 with saltus 1 seen from 1; no theorem here proves it");
}

// Taking 1..40 gives G(n) = n for n <= 40, which looks like Nim; a finite octal code cannot be
// arithmetic-periodic, so nothing is reported, while the same values of Nim itself are.
TEST(PeriodSaltus, FiniteOctalCodeNeverReportsASaltus) {
  const std::string take_up_to_40 = "0." + std::string(40, '3');
  const auto g = brute_force(take_up_to_40, 41);
  ASSERT_EQ(g.back(), 40u);
  const PeriodResult r = analyze(g, take_up_to_40);
  EXPECT_FALSE(r.found);
  EXPECT_FALSE(r.proven);
  const PeriodResult nim = analyze(g, "0.[3]");
  EXPECT_TRUE(nim.found);
  EXPECT_EQ(nim.saltus, 1);
}

TEST(PeriodUnsolved, GrundysGameIsNeitherFoundNorProven) {
  const auto g = brute_force("4!.0", 20000);
  for (const std::size_t n : {std::size_t{5000}, std::size_t{20000}}) {
    const PeriodResult r = analyze(prefix(g, n), "4!.0");
    EXPECT_FALSE(r.found) << n << " values: period " << r.period << " from " << r.preperiod;
    EXPECT_FALSE(r.proven);
    EXPECT_EQ(r.theorem, "");
    EXPECT_EQ(r.proof_needs_n, 0u);
    EXPECT_EQ(r.checked_n, n);
  }
}

TEST(PeriodUnsolved, ThreeDigitGamesStillOpen) {
  for (const char* code : {"0.6", "0.14", "0.36", "0.007"}) {
    const PeriodResult r = analyze(brute_force(code, 3000), code);
    EXPECT_FALSE(r.found) << code << ": period " << r.period << " from " << r.preperiod;
  }
}

// ---------------------------------------------------------------------------------------------
// Proof bounds.

TEST(PeriodProof, TheoremNames) {
  EXPECT_EQ(sgx::proof_theorem(parse_rules("0.77")), "guy-smith");
  EXPECT_EQ(sgx::proof_theorem(parse_rules("4.0")), "guy-smith");
  EXPECT_EQ(sgx::proof_theorem(parse_rules("0.F")), "guy-smith-k-heap");
  EXPECT_EQ(sgx::proof_theorem(parse_rules("8.0")), "guy-smith-k-heap");
  EXPECT_EQ(sgx::proof_theorem(parse_rules("sub:1,3,4")), "subtraction-window");
  EXPECT_EQ(sgx::proof_theorem(parse_rules("0.31")), "subtraction-window");
  EXPECT_EQ(sgx::proof_theorem(parse_rules("4!.0")), "");
  EXPECT_EQ(sgx::proof_theorem(parse_rules("0.4!4")), "");
  EXPECT_EQ(sgx::proof_theorem(parse_rules("0.[3]")), "");
  EXPECT_EQ(sgx::proof_theorem(parse_rules("4.[3]")), "");
}

TEST(PeriodProof, Lengths) {
  using sgx::proof_length;
  EXPECT_EQ(proof_length(parse_rules("0.77"), 71, 12), 168u);
  EXPECT_EQ(proof_length(parse_rules("0.137"), 52, 34), 175u);
  EXPECT_EQ(proof_length(parse_rules("0.F"), 5, 2), 3u * 5 + 3 * 2 + 1);
  EXPECT_EQ(proof_length(parse_rules("sub:1,3,4"), 3, 7), 3u + 7 + 4);
  EXPECT_EQ(proof_length(parse_rules("4!.0"), 3, 7), 0u);
  EXPECT_EQ(proof_length(parse_rules("0.[3]"), 0, 1), 0u);
}

// With n0 = 0 the window starts at 1: 0.4 has G = 0 0 0 1 ..., and the 2p + t = 3 values
// 0 0 0 agree with period 1 from 0, which is false.
TEST(PeriodProof, PreperiodZeroCountsAsOne) {
  using sgx::proof_length;
  EXPECT_EQ(proof_length(parse_rules("0.4"), 0, 1), 2u * 1 + 2 * 1 + 1);
  EXPECT_EQ(proof_length(parse_rules("0.3"), 0, 2), 1u + 2 + 1);
  for (std::size_t n = 3; n <= 5; ++n) EXPECT_FALSE(analyze(brute_force("0.4", n), "0.4").proven) << n;
}

// A subtraction game is proven by one repeated window even before two periods are visible.
TEST(PeriodProof, SubtractionWindowProvesShortSequences) {
  const auto g = brute_force("sub:1,2,3", 8);  // 0 1 2 3 0 1 2 3
  const PeriodResult r = analyze(g, "sub:1,2,3");
  EXPECT_TRUE(r.found);
  EXPECT_TRUE(r.proven);
  EXPECT_EQ(r.period, 4u);
  EXPECT_EQ(r.preperiod, 0u);
  EXPECT_EQ(r.theorem, "subtraction-window");
  EXPECT_EQ(r.proof_needs_n, 8u);
  EXPECT_FALSE(analyze(prefix(g, 7), "sub:1,2,3").found);
}

TEST(PeriodProof, GameWithoutMovesIsAllZero) {
  const PeriodResult r = analyze(brute_force("0.0", 1000), "0.0");
  EXPECT_TRUE(r.found);
  EXPECT_EQ(r.period, 1u);
  EXPECT_EQ(r.preperiod, 0u);
  EXPECT_TRUE(r.exceptions.empty());
  EXPECT_TRUE(r.proven);
  EXPECT_EQ(r.theorem, "subtraction-window");
  EXPECT_EQ(r.proof_needs_n, 2u);
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// The window: only the last differences are compared, so that 2^30 values fit in memory.

void expect_same_analysis(const PeriodResult& windowed, const PeriodResult& full, const std::string& what) {
  EXPECT_EQ(windowed.found, full.found) << what;
  EXPECT_EQ(windowed.period, full.period) << what;
  EXPECT_EQ(windowed.preperiod, full.preperiod) << what;
  EXPECT_EQ(windowed.saltus, full.saltus) << what;
  EXPECT_EQ(windowed.proven, full.proven) << what;
  EXPECT_EQ(windowed.exceptions, full.exceptions) << what;
}

TEST(PeriodWindow, PeriodsUpToHalfTheWindowAreFoundAsWithoutIt) {
  int longer_than_window = 0;
  for (std::uint64_t seed = 200; seed < 260; ++seed) {
    std::mt19937_64 rng(seed);
    const std::uint64_t p = 1 + rng() % 40;
    const std::uint64_t n0 = rng() % 3000;
    const std::uint64_t n = n0 + std::max({3 * p + 1, n0, p + 16}) + rng() % 3000;
    const Planted planted = plant(rng, n0, p, n, seed % 2 ? 300 : 60, 0);
    const Sequence values = Sequence::from_vector(planted.values);
    const PeriodResult full = analyze_period(values, parse_rules("4!.0"));
    ASSERT_TRUE(full.found) << seed;
    for (std::uint64_t window : {2 * p, 4 * p + 7, std::uint64_t{100}}) {
      if (2 * p > window) continue;
      expect_same_analysis(analyze_period(values, parse_rules("4!.0"), window), full,
                           "seed " + std::to_string(seed) + " window " + std::to_string(window));
      if (n - n0 > window) ++longer_than_window;
    }
  }
  EXPECT_GT(longer_than_window, 50);  // the tail was mostly far longer than what was compared
}

TEST(PeriodWindow, ProvenGamesAndUnsolvedOnesAlike) {
  // Kayles, 0.44 and Dawson's chess prove their periods (12, 24, 34) from tails much longer than
  // the window, which only needs to hold two periods; Grundy's game and 0.6 show none either way.
  for (const char* code : {"0.77", "0.44", "0.137", "4!.0", "0.6"}) {
    const Sequence values = Sequence::from_vector(brute_force(code, 3000));
    const PeriodResult full = analyze_period(values, parse_rules(code));
    for (std::uint64_t window : {70u, 500u}) {
      const PeriodResult windowed = analyze_period(values, parse_rules(code), window);
      expect_same_analysis(windowed, full, std::string(code) + " window " + std::to_string(window));
    }
  }
  EXPECT_TRUE(analyze_period(Sequence::from_vector(brute_force("0.77", 3000)), parse_rules("0.77"), 24).proven);
  // Past half the window the longer search sees it: Dawson's chess (34) beside the least window.
  const Sequence dawson = Sequence::from_vector(brute_force("0.137", 3000));
  expect_same_analysis(analyze_period(dawson, parse_rules("0.137"), 64), analyze_period(dawson, parse_rules("0.137")),
                       "0.137 least window");
}

// Computing until proven: the sizes run_octal looks at without --n.
TEST(PeriodProof, NextProofTargetDoublesJumpsToTheProofAndStops) {
  PeriodResult seen;  // 0.376 at 2^22: period 4 from 2268248, not proven yet
  seen.found = true;
  seen.preperiod = 2268248;
  seen.period = 4;
  seen.applicable_theorem = "guy-smith";
  seen.proof_needs_n = 4536507;
  const std::uint64_t cap = std::uint64_t{1} << 24;
  EXPECT_EQ(sgx::next_proof_target(seen, std::uint64_t{1} << 20, cap), 4536507u) << "straight to what the proof needs";
  EXPECT_EQ(sgx::next_proof_target(seen, std::uint64_t{1} << 22, cap), 4536507u) << "even when doubling goes further";
  EXPECT_EQ(sgx::next_proof_target(seen, 5000000, cap), 10000000u) << "else doubling";
  EXPECT_EQ(sgx::next_proof_target(seen, std::uint64_t{1} << 20, 3000000), 3000000u) << "never past the cap";
  EXPECT_EQ(sgx::next_proof_target(seen, cap, cap), 0u);
  EXPECT_EQ(sgx::proof_wait_text(seen), "period 4 seen from 2268248; the proof needs 4536507 values");

  PeriodResult none;  // no period seen yet: doubling all the same
  none.applicable_theorem = "guy-smith";
  none.checked_n = 1000;
  EXPECT_EQ(sgx::next_proof_target(none, 1000, cap), 2000u);
  EXPECT_EQ(sgx::proof_wait_text(none), "no period seen in 1000 values");

  PeriodResult proven = seen;
  proven.proven = true;
  EXPECT_EQ(sgx::next_proof_target(proven, 1 << 23, cap), 0u);
  PeriodResult unprovable;  // Grundy's game: no theorem applies, more values cannot prove anything
  EXPECT_EQ(sgx::next_proof_target(unprovable, 1000, cap), 0u);
}

// ---------------------------------------------------------------------------------------------
// Streaming: the same analysis from values read in pieces (a run file), and from a bounded run's
// values with a released middle, as from every value in memory.

namespace {

// Reads G(from..to-1) of values as a run file would give them, and counts what was asked for.
struct CountingReader {
  const std::vector<Value>* values = nullptr;
  std::uint64_t calls = 0, total = 0, largest = 0;

  sgx::ValueReader reader() {
    return [this](std::uint64_t from, std::uint64_t to, Value* out) {
      EXPECT_LE(from, to);
      EXPECT_LE(to, values->size());
      ++calls;
      total += to - from;
      largest = std::max(largest, to - from);
      std::copy(values->begin() + static_cast<std::ptrdiff_t>(from), values->begin() + static_cast<std::ptrdiff_t>(to),
                out);
    };
  }
};

// values with G(prefix_end..tail_start-1) released, built as a bounded run's file is read back:
// the released values were never written to memory, so reading one there gives no right value.
Sequence released(const std::vector<Value>& values, std::uint64_t prefix_end, std::uint64_t tail_start) {
  Sequence s = Sequence::from_vector(prefix(values, prefix_end));
  s.append_released(tail_start);
  for (std::uint64_t i = tail_start; i < values.size(); ++i) s.push_back(values[i]);
  return s;
}

void expect_same_result(const PeriodResult& streamed, const PeriodResult& in_memory, const std::string& what) {
  expect_same_analysis(streamed, in_memory, what);
  EXPECT_EQ(streamed.theorem, in_memory.theorem) << what;
  EXPECT_EQ(streamed.applicable_theorem, in_memory.applicable_theorem) << what;
  EXPECT_EQ(streamed.proof_needs_n, in_memory.proof_needs_n) << what;
  EXPECT_EQ(streamed.checked_n, in_memory.checked_n) << what;
}

// The analysis of g from memory, from a reader alone and from released middles, each compared.
// Returns the in-memory result.
PeriodResult expect_streaming_agrees(const std::vector<Value>& g, const std::string& code, std::uint64_t window,
                                     std::mt19937_64& rng, const std::string& what) {
  const Rules rules = parse_rules(code);
  const PeriodResult in_memory = analyze_period(Sequence::from_vector(g), rules, window);
  CountingReader file{&g};
  expect_same_result(analyze_period(g.size(), file.reader(), rules, window), in_memory, what + " from a reader");
  // Never the whole sequence at once, and each value read a few times at most: the last values
  // once, then two scans of two positions each (the scan of the tail's residues may start a block
  // again when it wraps round).
  const std::uint64_t last = sgx::period_window_values(g.size(), window);
  EXPECT_LE(file.largest, std::max<std::uint64_t>(last, sgx::kValueReadBlock)) << what;
  EXPECT_LE(file.total, last + 5 * g.size()) << what;
  if (g.size() < 4) return in_memory;
  // A released middle anywhere: the tail may hold the last values (viewed in memory) or not (read).
  for (int trial = 0; trial < 3; ++trial) {
    const std::uint64_t prefix_end = 1 + rng() % (g.size() - 2);
    const std::uint64_t tail_start = prefix_end + 1 + rng() % (g.size() - prefix_end - 1);
    const Sequence bounded = released(g, prefix_end, tail_start);
    EXPECT_TRUE(bounded.has_released()) << what;
    CountingReader middle{&g};
    const PeriodResult r = analyze_period(bounded, middle.reader(), rules, window);
    expect_same_result(r, in_memory,
                       what + " released " + std::to_string(prefix_end) + ".." + std::to_string(tail_start));
  }
  return in_memory;
}

}  // namespace

TEST(PeriodStream, SameAsInMemoryOnRandomSequencesAndCodes) {
  // A theorem of each kind, none, and a repeating tail (any saltus).
  const std::vector<std::string> codes = {"0.77", "0.137", "sub:1,3,4", "0.F", "4!.0", "0.[3]", "4.F"};
  int found = 0, proven = 0, total = 0;
  for (std::uint64_t seed = 500; seed < 620; ++seed) {
    std::mt19937_64 rng(seed);
    const std::uint64_t p = 1 + rng() % 50;
    const std::uint64_t n0 = rng() % 2000;
    const Value saltus = seed % 5 == 0 ? static_cast<Value>(1 + rng() % 3) : 0;
    const std::uint64_t n = n0 + 1 + p + rng() % 4000;
    std::vector<Value> g = plant(rng, n0, p, n, seed % 2 ? 200 : 70000, saltus).values;
    if (seed % 7 == 0)  // no period at all
      for (auto& v : g) v = static_cast<Value>(rng() % 8);
    const std::string& code = codes[seed % codes.size()];
    for (std::uint64_t window : {std::uint64_t{2}, 2 * p + 3, std::uint64_t{300}, sgx::kPeriodWindow}) {
      const PeriodResult r = expect_streaming_agrees(g, code, window, rng,
                                                     "seed " + std::to_string(seed) + " " + code + " window " +
                                                         std::to_string(window));
      found += r.found;
      proven += r.proven;
      ++total;
    }
  }
  // Both kinds of result were compared often.
  EXPECT_GT(found, total / 3);
  EXPECT_LT(found, total);
  EXPECT_GT(proven, total / 10);
}

TEST(PeriodStream, SameAsInMemoryOnGamesSequences) {
  std::mt19937_64 rng(77);
  for (const char* code : {"0.77", "0.137", "0.44", "4!.0", "0.6", "sub:1,3,4", "0.[3]", "4.[3]", "0.3[1]"}) {
    const std::vector<Value> g = brute_force(code, 2500);
    for (std::uint64_t length : {3, 100, 170, 2500})
      for (std::uint64_t window : {70u, 500u, 100000u})
        expect_streaming_agrees(prefix(g, length), code, window, rng,
                                std::string(code) + " n " + std::to_string(length) + " window " + std::to_string(window));
  }
}

// Long enough that the scans cross many blocks of the reader: a period of 37 from 400000 on, with a
// few exceptions far apart in the preperiod, and a small window, so nearly everything is read.
TEST(PeriodStream, LongPreperiodAcrossReadBlocks) {
  const std::uint64_t n = 1200000, n0 = 400000, p = 37;
  std::mt19937_64 rng(91);
  std::vector<Value> block(p);
  for (auto& v : block) v = static_cast<Value>(rng() % 30);
  std::vector<Value> g(n);
  for (std::uint64_t i = 0; i < n; ++i) g[i] = block[i % p];
  std::vector<std::uint64_t> exceptions = {0, 5, 262143, 262144, 300001, n0 - 1};
  for (std::uint64_t e : exceptions) g[e] += 100;
  const Rules rules = parse_rules("0.77");
  CountingReader file{&g};
  const PeriodResult streamed = analyze_period(n, file.reader(), rules, 1000);
  ASSERT_TRUE(streamed.found);
  EXPECT_EQ(streamed.period, p);
  EXPECT_EQ(streamed.preperiod, n0);
  EXPECT_EQ(streamed.exceptions, exceptions);
  EXPECT_TRUE(streamed.proven);  // 2 n0 + 2 p + 2 <= n
  expect_same_result(streamed, analyze_period(Sequence::from_vector(g), rules, 1000), "from a reader");
  EXPECT_LE(file.largest, sgx::kValueReadBlock);
  const Sequence bounded = released(g, 50000, n - 150000);
  CountingReader middle{&g};
  expect_same_result(analyze_period(bounded, middle.reader(), rules, 1000), streamed, "released middle");
  EXPECT_LE(middle.total, 4 * n);
}

TEST(PeriodStream, ReleasedValuesNeedAReader) {
  const Sequence bounded = released(brute_force("0.77", 500), 100, 300);
  EXPECT_THROW(analyze_period(bounded, parse_rules("0.77")), std::logic_error);
}
