// Wythoff's game, Fibonacci Nim and the paper-cutting game against brute-force searches of their
// game trees, written from the rules alone.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <set>
#include <vector>

#include "sgx/classic.hpp"
#include "sgx/solve.hpp"
#include "sgx/table2d.hpp"

namespace sgx {
namespace {

bool under_sanitizer() { return std::getenv("SGX_SANITIZED") != nullptr; }

std::uint64_t mex(const std::set<std::uint64_t>& seen) {
  std::uint64_t value = 0;
  while (seen.count(value)) ++value;
  return value;
}

// ---- Wythoff's game ----

using Pair = std::pair<std::uint64_t, std::uint64_t>;

// Every move of Wythoff's game from (a, b), from the rules.
std::set<Pair> wythoff_moves(std::uint64_t a, std::uint64_t b) {
  std::set<Pair> moves;
  for (std::uint64_t take = 1; take <= a; ++take) moves.insert({a - take, b});
  for (std::uint64_t take = 1; take <= b; ++take) moves.insert({a, b - take});
  for (std::uint64_t take = 1; take <= std::min(a, b); ++take) moves.insert({a - take, b - take});
  return moves;
}

class WythoffBrute {
 public:
  std::uint64_t value(std::uint64_t a, std::uint64_t b) {
    if (auto found = memo_.find({a, b}); found != memo_.end()) return found->second;
    std::set<std::uint64_t> seen;
    for (const auto& [x, y] : wythoff_moves(a, b)) seen.insert(value(x, y));
    return memo_[{a, b}] = mex(seen);
  }

 private:
  std::map<Pair, std::uint64_t> memo_;
};

TEST(Wythoff, PPositionsAreFloorKPhiAndFloorKPhiSquared) {
  const double phi = (1 + std::sqrt(5.0)) / 2;
  WythoffBrute brute;
  std::set<Pair> p_positions;
  for (std::uint64_t k = 0; k <= 24; ++k) {
    const auto kd = static_cast<double>(k);
    const Pair expected{static_cast<std::uint64_t>(std::floor(kd * phi)),
                        static_cast<std::uint64_t>(std::floor(kd * phi * phi))};
    EXPECT_EQ(wythoff_p_position(k), expected) << k;
    p_positions.insert(expected);
    p_positions.insert({expected.second, expected.first});
  }
  // Every P-position with both heaps up to 38 is among these (k = 24 has the smaller heap 38).
  for (std::uint64_t a = 0; a <= 38; ++a)
    for (std::uint64_t b = 0; b <= 38; ++b) {
      const bool p = brute.value(a, b) == 0;
      EXPECT_EQ(p, p_positions.count({a, b}) == 1) << a << "," << b;
      EXPECT_EQ(wythoff_is_p(a, b), p) << a << "," << b;
    }
}

TEST(Wythoff, WinningMovesAndTableAgreeWithBruteForce) {
  WythoffBrute brute;
  const std::uint64_t side = 30;
  const GameTable table = compute_table(GameKind::Wythoff, side + 1);
  for (std::uint64_t a = 0; a <= side; ++a)
    for (std::uint64_t b = 0; b <= side; ++b) {
      ASSERT_EQ(table.at(a, b), brute.value(a, b)) << a << "," << b;
      std::set<Pair> expected;
      for (const Pair& move : wythoff_moves(a, b))
        if (brute.value(move.first, move.second) == 0) expected.insert(move);
      const auto moves = wythoff_winning_moves(a, b);
      EXPECT_EQ(std::set<Pair>(moves.begin(), moves.end()), expected) << a << "," << b;
      EXPECT_EQ(moves.size(), expected.size());
      const auto options = wythoff_options(a, b);
      EXPECT_EQ(std::set<Pair>(options.begin(), options.end()), wythoff_moves(a, b));
    }
}

TEST(Wythoff, PPositionsAreExactForHugeHeaps) {
  __extension__ typedef unsigned __int128 Wide;
  for (std::uint64_t k : {std::uint64_t{1} << 20, std::uint64_t{123456789012}, std::uint64_t{1} << 40,
                          (std::uint64_t{1} << 61) + 12345}) {
    const auto [a, b] = wythoff_p_position(k);
    // a = floor(k phi) exactly when 2a - k < sqrt(5) k < 2a + 2 - k, checked by squaring.
    const Wide low = 2 * Wide{a} - k, high = 2 * Wide{a} + 2 - k, five_k2 = 5 * Wide{k} * k;
    EXPECT_TRUE(low * low < five_k2 && five_k2 < high * high) << k;
    EXPECT_EQ(b, a + k);
    EXPECT_TRUE(wythoff_is_p(a, b) && wythoff_is_p(b, a));
    EXPECT_FALSE(wythoff_is_p(a, b + 1) || wythoff_is_p(a + 1, b));
    // From a nearby position every listed move reaches a P-position, one per kind at most.
    for (const auto& [x, y] : wythoff_winning_moves(a + 3, b + 7)) EXPECT_TRUE(wythoff_is_p(x, y));
  }
}

TEST(Wythoff, SumsAgainstBruteForceOfTheWholeSum) {
  // Two games side by side, searched as one game of four heaps.
  std::map<std::vector<std::uint64_t>, std::uint64_t> memo;
  std::function<std::uint64_t(const std::vector<std::uint64_t>&)> value = [&](const std::vector<std::uint64_t>& h) {
    if (auto found = memo.find(h); found != memo.end()) return found->second;
    std::set<std::uint64_t> seen;
    for (const auto& [x, y] : wythoff_moves(h[0], h[1])) seen.insert(value({x, y, h[2], h[3]}));
    for (const auto& [x, y] : wythoff_moves(h[2], h[3])) seen.insert(value({h[0], h[1], x, y}));
    return memo[h] = mex(seen);
  };
  const Game game = parse_game("wythoff");
  const std::uint64_t side = under_sanitizer() ? 4 : 5;
  for (std::uint64_t a = 0; a <= side; ++a)
    for (std::uint64_t b = 0; b <= side; ++b)
      for (std::uint64_t c = 0; c <= side; ++c)
        for (std::uint64_t d = 0; d <= side; ++d) {
          const Solution solution = solve(game, {{a, b}, {c, d}}, {});
          ASSERT_EQ(*solution.value, value({a, b, c, d}));
          std::set<std::vector<std::uint64_t>> expected, listed;
          for (const auto& [x, y] : wythoff_moves(a, b))
            if (value({x, y, c, d}) == 0) expected.insert({0, x, y});
          for (const auto& [x, y] : wythoff_moves(c, d))
            if (value({a, b, x, y}) == 0) expected.insert({1, x, y});
          for (const Move& move : solution.winning_moves) listed.insert({move.index, move.to[0][0], move.to[0][1]});
          ASSERT_EQ(listed, expected);
          ASSERT_EQ(listed.size(), solution.winning_moves.size());
        }
}

TEST(Wythoff, OneLargeGameIsSolvedWithoutItsValue) {
  const Game game = parse_game("wythoff");
  const Solution solution = solve(game, {{1000000, 2000000}}, {});
  EXPECT_FALSE(solution.value.has_value());
  EXPECT_TRUE(solution.mover_wins);
  ASSERT_EQ(solution.winning_moves.size(), 1u);
  EXPECT_EQ(solution.winning_moves[0].to, (std::vector<Component>{{1000000, 1618034}}));
  EXPECT_FALSE(solve(game, {{1000000, 1618034}}, {}).mover_wins);
  EXPECT_THROW(solve(game, {{1000, 2000}, {1, 2}}, {}), SolveError);
}

// ---- Fibonacci Nim ----

// Who wins with n tokens left and at most limit to take, from the rules.
class FibonacciBrute {
 public:
  bool wins(std::uint64_t n, std::uint64_t limit) {
    limit = std::min(limit, n);
    if (auto found = memo_.find({n, limit}); found != memo_.end()) return found->second;
    bool win = false;
    for (std::uint64_t take = 1; take <= limit && !win; ++take) win = take == n || !wins(n - take, 2 * take);
    return memo_[{n, limit}] = win;
  }
  std::vector<std::uint64_t> winning_takes(std::uint64_t n, std::uint64_t limit) {
    std::vector<std::uint64_t> takes;
    for (std::uint64_t take = 1; take <= std::min(limit, n); ++take)
      if (take == n || !wins(n - take, 2 * take)) takes.push_back(take);
    return takes;
  }

 private:
  std::map<Pair, bool> memo_;
};

TEST(FibonacciNim, LosesExactlyOnFibonacciHeaps) {
  FibonacciBrute brute;
  const std::set<std::uint64_t> fibonacci = {1, 2, 3, 5, 8, 13, 21, 34, 55, 89};
  for (std::uint64_t n = 1; n <= 60; ++n) {
    EXPECT_EQ(brute.wins(n, n - 1), fibonacci.count(n) == 0) << n;
    EXPECT_EQ(is_fibonacci(n), fibonacci.count(n) == 1) << n;
    EXPECT_EQ(fibonacci_nim_mover_wins(n, n - 1), fibonacci.count(n) == 0) << n;
  }
  for (std::uint64_t n = 61, last = under_sanitizer() ? 10000 : 100000; n <= last; ++n) EXPECT_EQ(fibonacci_nim_mover_wins(n, n - 1), !is_fibonacci(n)) << n;
  EXPECT_TRUE(is_fibonacci(12200160415121876738u));  // F(93), the largest below 2^64
}

TEST(FibonacciNim, ZeckendorfRepresentation) {
  EXPECT_EQ(zeckendorf(100), (std::vector<std::uint64_t>{3, 8, 89}));
  EXPECT_EQ(zeckendorf(1), (std::vector<std::uint64_t>{1}));
  for (std::uint64_t n = 1; n <= 2000; ++n) {
    const auto terms = zeckendorf(n);
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < terms.size(); ++i) {
      sum += terms[i];
      EXPECT_TRUE(is_fibonacci(terms[i]));
      // Increasing and never two consecutive Fibonacci numbers (those would sum to the next one).
      if (i > 0) {
        EXPECT_TRUE(terms[i] > terms[i - 1] && !is_fibonacci(terms[i] + terms[i - 1])) << n;
      }
    }
    EXPECT_EQ(sum, n);
  }
}

TEST(FibonacciNim, EveryStateAgainstBruteForce) {
  FibonacciBrute brute;
  const std::uint64_t largest = 60;
  const FibonacciNimValues table(largest);
  for (std::uint64_t n = 0; n <= largest; ++n)
    for (std::uint64_t limit = 0; limit <= n + 1; ++limit) {
      const bool wins = n > 0 && brute.wins(n, limit);
      ASSERT_EQ(fibonacci_nim_mover_wins(n, limit), wins) << n << "/" << limit;
      ASSERT_EQ(table.value(n, limit) != 0, wins) << n << "/" << limit;
      ASSERT_EQ(fibonacci_nim_winning_takes(n, limit), brute.winning_takes(n, limit)) << n << "/" << limit;
    }
}

TEST(FibonacciNim, SolveListsTheWinningTakes) {
  const Game game = parse_game("fibonacci");
  FibonacciBrute brute;
  // Within the table (value shown) and beyond it (Zeckendorf alone), one game.
  for (std::uint64_t n : {1u, 2u, 17u, 20u, 55u, 100u, 600u, 1000u, 4181u, 10000u}) {
    const Solution solution = solve(game, parse_position(game, {std::to_string(n)}), {});
    EXPECT_EQ(solution.value.has_value(), n <= 500) << n;
    EXPECT_EQ(solution.mover_wins, !is_fibonacci(n)) << n;
    std::vector<std::uint64_t> takes;
    for (const Move& move : solution.winning_moves) takes.push_back(n - (move.to.empty() ? 0 : move.to[0][0]));
    EXPECT_EQ(takes, brute.winning_takes(n, n - 1)) << n;
  }
  const std::vector<Component> later = parse_position(game, {"18/4"});
  EXPECT_EQ(later, (std::vector<Component>{{18, 4}}));
  EXPECT_EQ(component_text(game, later[0]), "18/4");
  EXPECT_EQ(component_text(game, {20, 19}), "20");
}

TEST(FibonacciNim, SumsAgainstBruteForceOfTheWholeSum) {
  using State = std::vector<std::uint64_t>;  // n1, limit1, n2, limit2
  std::map<State, std::uint64_t> memo;
  std::function<std::uint64_t(const State&)> value = [&](const State& s) {
    if (auto found = memo.find(s); found != memo.end()) return found->second;
    std::set<std::uint64_t> seen;
    for (std::uint64_t t = 1; t <= std::min(s[0], s[1]); ++t) seen.insert(value({s[0] - t, 2 * t, s[2], s[3]}));
    for (std::uint64_t t = 1; t <= std::min(s[2], s[3]); ++t) seen.insert(value({s[0], s[1], s[2] - t, 2 * t}));
    return memo[s] = mex(seen);
  };
  const Game game = parse_game("fibonacci");
  const std::uint64_t largest = under_sanitizer() ? 9 : 12;
  for (std::uint64_t a = 0; a <= largest; ++a)
    for (std::uint64_t b = 0; b <= largest; ++b) {
      const std::vector<Component> position = {{a, a == 0 ? 0 : a - 1}, {b, b == 0 ? 0 : b - 1}};
      const Solution solution = solve(game, position, {});
      ASSERT_EQ(*solution.value, value({a, position[0][1], b, position[1][1]})) << a << " " << b;
      for (const Move& move : solution.winning_moves) {
        State after = {position[0][0], position[0][1], position[1][0], position[1][1]};
        const Component left = move.to.empty() ? Component{0, 0} : move.to[0];
        after[2 * move.index] = left[0];
        after[2 * move.index + 1] = left[1];
        EXPECT_EQ(value(after), 0u);
      }
      std::uint64_t expected = 0;  // moves to value 0, counted from the brute force
      for (std::size_t i = 0; i < 2; ++i)
        for (std::uint64_t t = 1; t < position[i][0]; ++t) {
          State after = {position[0][0], position[0][1], position[1][0], position[1][1]};
          after[2 * i] -= t;
          after[2 * i + 1] = 2 * t;
          expected += value(after) == 0;
        }
      EXPECT_EQ(solution.winning_moves.size(), expected) << a << " " << b;
    }
}

// ---- Paper cutting ----

using Sheets = std::vector<Pair>;  // (rows, columns), sorted in the memo key

// The real game, from POJ 2311's rule: cut one sheet along a grid line into two; whoever cuts out
// a 1 x 1 piece wins at once. No strip rule here: every cut is tried.
class CutBrute {
 public:
  bool wins(Sheets sheets) {
    std::sort(sheets.begin(), sheets.end());
    if (auto found = memo_.find(sheets); found != memo_.end()) return found->second;
    bool win = false;
    for (std::size_t s = 0; s < sheets.size() && !win; ++s)
      for (const Sheets& pieces : cuts(sheets[s])) {
        if (wins_at_once(pieces) || !wins(replace(sheets, s, pieces))) {
          win = true;
          break;
        }
      }
    return memo_[sheets] = win;
  }

  // The cuts of one sheet, each as its two pieces.
  static std::vector<Sheets> cuts(const Pair& sheet) {
    std::vector<Sheets> out;
    for (std::uint64_t i = 1; i < sheet.first; ++i) out.push_back({{i, sheet.second}, {sheet.first - i, sheet.second}});
    for (std::uint64_t j = 1; j < sheet.second; ++j) out.push_back({{sheet.first, j}, {sheet.first, sheet.second - j}});
    return out;
  }
  static bool wins_at_once(const Sheets& pieces) {
    return std::any_of(pieces.begin(), pieces.end(), [](const Pair& p) { return p.first == 1 && p.second == 1; });
  }
  static Sheets replace(const Sheets& sheets, std::size_t s, const Sheets& pieces) {
    Sheets after = sheets;
    after.erase(after.begin() + static_cast<std::ptrdiff_t>(s));
    after.insert(after.end(), pieces.begin(), pieces.end());
    return after;
  }

 private:
  std::map<Sheets, bool> memo_;
};

std::vector<Component> as_position(const Sheets& sheets) {
  std::vector<Component> position;
  for (const auto& [rows, columns] : sheets) position.push_back({rows, columns});
  return position;
}

// The real game's winning moves from sheets of at least 2 x 2, against sg_solve's list.
void check_cut_position(CutBrute& brute, const Game& game, const Sheets& sheets) {
  const Solution solution = solve(game, as_position(sheets), {});
  ASSERT_EQ(solution.mover_wins, brute.wins(sheets)) << ::testing::PrintToString(sheets);
  std::set<std::pair<std::size_t, Sheets>> expected, listed;
  for (std::size_t s = 0; s < sheets.size(); ++s)
    for (Sheets pieces : CutBrute::cuts(sheets[s])) {
      if (CutBrute::wins_at_once(pieces) || brute.wins(CutBrute::replace(sheets, s, pieces))) continue;
      std::sort(pieces.begin(), pieces.end());
      expected.insert({s, pieces});
    }
  for (const Move& move : solution.winning_moves) {
    Sheets pieces;
    for (const Component& c : move.to) pieces.push_back({c[0], c[1]});
    std::sort(pieces.begin(), pieces.end());
    listed.insert({move.index, pieces});
  }
  ASSERT_EQ(listed, expected) << ::testing::PrintToString(sheets);
}

TEST(Cut, ThePojSamples) {
  const Game game = parse_game("cut");
  EXPECT_FALSE(solve(game, {{2, 2}}, {}).mover_wins);
  EXPECT_FALSE(solve(game, {{3, 2}}, {}).mover_wins);
  EXPECT_TRUE(solve(game, {{4, 2}}, {}).mover_wins);
}

TEST(Cut, OneSheetAgainstTheRealGame) {
  CutBrute brute;
  const Game game = parse_game("cut");
  const std::uint64_t side = under_sanitizer() ? 6 : 8;
  for (std::uint64_t rows = 2; rows <= side; ++rows)
    for (std::uint64_t columns = 2; columns <= side; ++columns) check_cut_position(brute, game, {{rows, columns}});
}

TEST(Cut, TwoSheetsAgainstTheRealGame) {
  CutBrute brute;
  const Game game = parse_game("cut");
  const std::uint64_t side = under_sanitizer() ? 4 : 5;
  for (std::uint64_t r1 = 2; r1 <= side; ++r1)
    for (std::uint64_t c1 = 2; c1 <= side; ++c1)
      for (std::uint64_t r2 = 2; r2 <= side; ++r2)
        for (std::uint64_t c2 = 2; c2 <= side; ++c2) check_cut_position(brute, game, {{r1, c1}, {r2, c2}});
}

TEST(Cut, TableIsSymmetricAndSheetsStartAtTwo) {
  const GameTable table = compute_table(GameKind::Cut, 41);
  for (std::uint64_t r = 2; r <= 40; ++r)
    for (std::uint64_t c = 2; c <= 40; ++c) EXPECT_EQ(table.at(r, c), table.at(c, r));
  const Game game = parse_game("cut");
  EXPECT_THROW(parse_position(game, {"1x5"}), SolveError);
  EXPECT_THROW(parse_position(game, {"4*7"}), SolveError);
  EXPECT_EQ(parse_position(game, {"4x7", "2X3"}), (std::vector<Component>{{4, 7}, {2, 3}}));
}

}  // namespace
}  // namespace sgx
