// Two-dimensional tables of Wythoff's game and the cutting game, and the additive period of their
// rows, against references written here from the rules alone, published values, and the engine.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <vector>

#include "sgx/classic.hpp"
#include "sgx/engine.hpp"
#include "sgx/period.hpp"
#include "sgx/rules.hpp"
#include "sgx/store.hpp"
#include "sgx/table2d.hpp"
#include "tool_test.hpp"

namespace sgx {
namespace {

bool under_sanitizer() { return std::getenv("SGX_SANITIZED") != nullptr; }

Value mex(const std::set<Value>& seen) {
  Value value = 0;
  while (seen.count(value)) ++value;
  return value;
}

// G(a, b) of Wythoff's game for a, b < n by the definition: every option, then the mex, in order
// of a + b (every option has a smaller sum).
std::vector<std::vector<Value>> wythoff_brute(std::uint64_t n) {
  std::vector<std::vector<Value>> g(n, std::vector<Value>(n));
  for (std::uint64_t sum = 0; sum + 1 < 2 * n; ++sum)
    for (std::uint64_t a = sum < n ? 0 : sum - n + 1; a <= sum && a < n; ++a) {
      const std::uint64_t b = sum - a;
      std::set<Value> seen;
      for (std::uint64_t x = 0; x < a; ++x) seen.insert(g[x][b]);
      for (std::uint64_t y = 0; y < b; ++y) seen.insert(g[a][y]);
      for (std::uint64_t d = 1; d <= std::min(a, b); ++d) seen.insert(g[a - d][b - d]);
      g[a][b] = mex(seen);
    }
  return g;
}

// G(a, b) of the cutting game by its rule (classic.hpp), memoised: every cut of an a x b sheet
// that leaves two sheets with both sides at least 2, both ways round (no symmetry assumed).
class CutRule {
 public:
  Value value(std::uint64_t a, std::uint64_t b) {
    if (auto found = memo_.find({a, b}); found != memo_.end()) return found->second;
    std::set<Value> seen;
    for (std::uint64_t i = 2; i + 2 <= a; ++i) seen.insert(value(i, b) ^ value(a - i, b));
    for (std::uint64_t j = 2; j + 2 <= b; ++j) seen.insert(value(a, j) ^ value(a, b - j));
    return memo_[{a, b}] = mex(seen);
  }

 private:
  std::map<std::pair<std::uint64_t, std::uint64_t>, Value> memo_;
};

// ---- The tables ----

TEST(Table2d, NamesOriginsAndSizes) {
  EXPECT_EQ(parse_table_game("wythoff"), GameKind::Wythoff);
  EXPECT_EQ(parse_table_game("Wythoff"), GameKind::Wythoff);
  EXPECT_EQ(parse_table_game("CUT"), GameKind::Cut);
  EXPECT_EQ(parse_table_game("0.137"), std::nullopt);
  EXPECT_EQ(parse_table_game("cuts"), std::nullopt);
  EXPECT_STREQ(game_kind_name(GameKind::Cut), "cut");
  EXPECT_EQ(table_origin(GameKind::Wythoff), 0u);
  EXPECT_EQ(table_origin(GameKind::Cut), 2u);

  EXPECT_THROW(check_table_n(GameKind::Wythoff, 0), TableSizeError);
  EXPECT_NO_THROW(check_table_n(GameKind::Wythoff, 1));
  EXPECT_THROW(check_table_n(GameKind::Cut, 2), TableSizeError);
  EXPECT_NO_THROW(check_table_n(GameKind::Cut, 3));
  EXPECT_NO_THROW(check_table_n(GameKind::Cut, kMaxTableN));
  EXPECT_THROW(check_table_n(GameKind::Wythoff, kMaxTableN + 1), TableSizeError);
  try {
    check_table_n(GameKind::Cut, 2);
  } catch (const TableSizeError& e) {
    EXPECT_NE(std::string(e.what()).find("sheets start at 2 x 2"), std::string::npos) << e.what();
  }
  EXPECT_THROW(GameTable(GameKind::Cut, 10, Sequence::from_vector(std::vector<Value>(100, 0))), std::invalid_argument);
  EXPECT_NO_THROW(GameTable(GameKind::Cut, 10, Sequence::from_vector(std::vector<Value>(64, 0))));

  const GameTable one = compute_table(GameKind::Wythoff, 1);
  EXPECT_EQ(one.side(), 1u);
  EXPECT_EQ(one.at(0, 0), 0u);
  const GameTable sheet = compute_table(GameKind::Cut, 3);
  EXPECT_EQ(sheet.side(), 1u);
  EXPECT_EQ(sheet.at(2, 2), 0u);  // a 2 x 2 sheet has no cut that leaves no strip
}

TEST(Table2d, WythoffEqualsTheDefinition) {
  const std::vector<std::vector<Value>> brute = wythoff_brute(under_sanitizer() ? 70 : 130);
  // Sizes around the tile edges (32), with one thread and with several.
  for (std::uint64_t n : {1u, 2u, 3u, 31u, 32u, 33u, 64u, 65u, 70u, 97u, 130u}) {
    if (n > brute.size()) continue;
    for (int threads : {1, 2, 3}) {
      const GameTable table = compute_table(GameKind::Wythoff, n, threads);
      ASSERT_EQ(table.side(), n);
      for (std::uint64_t a = 0; a < n; ++a)
        for (std::uint64_t b = 0; b < n; ++b) ASSERT_EQ(table.at(a, b), brute[a][b]) << n << ": " << a << "," << b;
    }
  }
}

// Winning Ways p. 76, OEIS A317205 (rows 0-7 up to the diagonal) and Nivasch's table (rows 10-13).
TEST(Table2d, WythoffPublishedValues) {
  const GameTable table = compute_table(GameKind::Wythoff, 20);
  const std::vector<std::vector<Value>> triangle = {
      {0}, {1, 2}, {2, 0, 1}, {3, 4, 5, 6}, {4, 5, 3, 2, 7}, {5, 3, 4, 0, 6, 8}, {6, 7, 8, 1, 9, 10, 3},
      {7, 8, 6, 9, 0, 1, 4, 5}};
  for (std::uint64_t a = 0; a < triangle.size(); ++a)
    for (std::uint64_t b = 0; b <= a; ++b) EXPECT_EQ(table.at(a, b), triangle[a][b]) << a << "," << b;
  const std::map<std::uint64_t, std::vector<Value>> rows = {
      {10, {10, 11, 9, 8, 13, 12, 0, 15, 16, 17, 14, 18, 7, 6}},
      {11, {11, 9, 10, 7, 12, 14, 2, 13, 17, 6, 18, 15, 8, 19}},
      {12, {12, 13, 14, 15, 11, 9, 16, 17, 18, 19, 7, 8, 10, 20}},
      {13, {13, 14, 12, 11, 16, 15, 17, 2, 0, 5, 6, 19, 20, 9}}};
  for (const auto& [a, values] : rows)
    for (std::uint64_t b = 0; b < values.size(); ++b) EXPECT_EQ(table.at(a, b), values[b]) << a << "," << b;
}

TEST(Table2d, WythoffIsZeroExactlyAtThePPositions) {
  const std::uint64_t n = under_sanitizer() ? 300 : 1024;
  const GameTable table = compute_table(GameKind::Wythoff, n);
  std::uint64_t zeros = 0, p_positions = 0;
  for (std::uint64_t a = 0; a < n; ++a)
    for (std::uint64_t b = 0; b < n; ++b) {
      ASSERT_EQ(table.at(a, b) == 0, wythoff_is_p(a, b)) << a << "," << b;
      zeros += table.at(a, b) == 0;
    }
  for (std::uint64_t k = 0;; ++k) {
    const auto [low, high] = wythoff_p_position(k);
    if (low >= n) break;
    p_positions += high < n ? (k == 0 ? 1 : 2) : 0;
  }
  EXPECT_EQ(zeros, p_positions);
  EXPECT_GT(zeros, n / 2);  // (0,0), then two per k with floor(k phi^2) < n: about 0.76 n
}

// Every two cells of one row, one column or one diagonal are options of each other, so their
// values differ; and no value exceeds a + b (a bound the tests see hold, not one the code uses).
TEST(Table2d, WythoffNeverRepeatsAlongALine) {
  const std::uint64_t n = under_sanitizer() ? 150 : 400;
  const GameTable table = compute_table(GameKind::Wythoff, n);
  for (std::uint64_t a = 0; a < n; ++a) {
    std::set<Value> row, column, diagonal;
    for (std::uint64_t b = 0; b < n; ++b) {
      EXPECT_TRUE(row.insert(table.at(a, b)).second) << a << "," << b;
      EXPECT_TRUE(column.insert(table.at(b, a)).second) << b << "," << a;
      EXPECT_EQ(table.at(a, b), table.at(b, a));
      EXPECT_LE(table.at(a, b), a + b);
      if (a + b < n) {
        EXPECT_TRUE(diagonal.insert(table.at(b, a + b)).second) << b << "," << a + b;
      }
    }
  }
}

TEST(Table2d, CutEqualsItsRule) {
  CutRule rule;
  const std::uint64_t largest = under_sanitizer() ? 45 : 70;
  for (std::uint64_t n : {3u, 4u, 5u, 33u, 34u, 35u, 45u, 70u}) {
    if (n > largest) continue;
    for (int threads : {1, 2, 3}) {
      const GameTable table = compute_table(GameKind::Cut, n, threads);
      ASSERT_EQ(table.origin(), 2u);
      ASSERT_EQ(table.side(), n - 2);
      for (std::uint64_t a = 2; a < n; ++a)
        for (std::uint64_t b = 2; b < n; ++b) ASSERT_EQ(table.at(a, b), rule.value(a, b)) << n << ": " << a << "x" << b;
    }
  }
}

// A 2 x b sheet can only be cut across its columns into two sheets at least 2 wide: a heap of
// b - 2 from which a move takes 2 and leaves at most two heaps, Dawson's Kayles 0.07. A 3 x b
// sheet cannot be cut across its rows either (that leaves a strip), so row 3 is row 2.
TEST(Table2d, CutRowsTwoAndThreeAreDawsonsKayles) {
  const std::uint64_t n = 256;
  const GameTable table = compute_table(GameKind::Cut, n);
  Engine engine(parse_rules("0.07"), EngineOptions{});
  engine.compute_to(n - 2);
  for (std::uint64_t b = 2; b < n; ++b) {
    EXPECT_EQ(table.at(2, b), engine.values()[b - 2]) << b;
    EXPECT_EQ(table.at(3, b), table.at(2, b)) << b;
  }
  // And the period of the row is the period of 0.07, shifted by the origin.
  const PeriodResult dawson = analyze_period(engine.values(), parse_rules("0.07"));
  ASSERT_TRUE(dawson.found);
  const std::vector<RowPeriod> rows = analyze_rows(table);
  EXPECT_EQ(rows[0], (RowPeriod{true, dawson.preperiod + 2, dawson.period, 0}));
  EXPECT_EQ(rows[0], (RowPeriod{true, 55, 34, 0}));
  EXPECT_EQ(rows[1], rows[0]);
}

TEST(Table2d, ValuesAreStoredInTheNarrowestType) {
  EXPECT_EQ(compute_table(GameKind::Wythoff, 64).cells().bytes_per_value(), 1u);   // largest below 256
  EXPECT_EQ(compute_table(GameKind::Wythoff, 300).cells().bytes_per_value(), 2u);
  EXPECT_EQ(compute_table(GameKind::Cut, 256).cells().bytes_per_value(), 1u);
  const GameTable table = compute_table(GameKind::Wythoff, 300);
  EXPECT_EQ(table.max_value(), table.cells().max_value());
  EXPECT_GT(table.max_value(), 255u);
}

TEST(Table2d, ProgressCountsEveryCellOfTheUpperTriangle) {
  std::uint64_t last_done = 0, last_total = 0, calls = 0;
  bool increasing = true;
  compute_table(GameKind::Wythoff, 100, 2, [&](std::uint64_t done, std::uint64_t total) {
    increasing = increasing && done > last_done;
    last_done = done;
    last_total = total;
    ++calls;
  });
  EXPECT_TRUE(increasing);
  EXPECT_EQ(last_done, 100u * 101 / 2);
  EXPECT_EQ(last_total, 100u * 101 / 2);
  EXPECT_EQ(calls, 7u);  // 4 tiles a side: waves 0..6
}

// ---- The rows ----

// The documented criterion, searched the slow way: for every period p, the smallest b0 with
// G(b + p) - G(b) the same for every b >= b0; a tail of two periods plus one value from the
// earliest such b0 wins (period: the least p reaching it), then it must show sixteen relations and
// cover a quarter of the row.
RowPeriod brute_row_period(const std::vector<Value>& g, std::uint64_t origin) {
  const std::uint64_t n = g.size();
  auto diff = [&g](std::uint64_t from, std::uint64_t p) {
    return static_cast<std::int64_t>(g[from + p]) - static_cast<std::int64_t>(g[from]);
  };
  std::uint64_t best_start = n, best_p = 0;
  for (std::uint64_t p = 1; p < n; ++p) {
    const std::int64_t s = diff(n - 1 - p, p);
    std::uint64_t start = n - 1 - p;
    while (start > 0 && diff(start - 1, p) == s) --start;
    if (n - start >= 2 * p + 1 && start < best_start) {
      best_start = start;
      best_p = p;
    }
  }
  if (best_p == 0) return {};
  const std::uint64_t tail = n - best_start;
  if (tail < best_p + 16 || 4 * tail < n) return {};
  return {true, origin + best_start, best_p, diff(best_start, best_p)};
}

TEST(Table2dRows, SameAsABruteForceSearchOfTheCriterion) {
  for (GameKind game : {GameKind::Wythoff, GameKind::Cut}) {
    const std::uint64_t n = under_sanitizer() ? 100 : game == GameKind::Wythoff ? 300 : 200;
    const GameTable table = compute_table(game, n);
    const std::vector<RowPeriod> rows = analyze_rows(table, 2);
    ASSERT_EQ(rows.size(), table.side());
    std::uint64_t found = 0;
    for (std::uint64_t a = table.origin(); a < n; ++a) {
      const RowPeriod& row = rows[a - table.origin()];
      EXPECT_EQ(row, brute_row_period(table.row(a), table.origin())) << game_kind_name(game) << " row " << a;
      found += row.found;
    }
    // Both outcomes occur: Wythoff's later rows need far more than n values to show a period.
    EXPECT_GT(found, 5u);
    if (game == GameKind::Wythoff) {
      EXPECT_LT(found, n / 4);
    }
  }
}

// Dress, Flammenkamp and Pink: every row of Wythoff's game is additively periodic, with
// G(a, b + p) = G(a, b) + p. Rows 0, 1 and 2 are known in closed form: G(0, b) = b; G(1, b) =
// b + 1, b + 1, b - 2 and G(2, b) = b + 2, b - 1, b - 1 as b = 0, 1, 2 mod 3.
TEST(Table2dRows, WythoffRowsAreAdditivelyPeriodicWithSaltusEqualToPeriod) {
  const std::uint64_t n = under_sanitizer() ? 512 : 1024;
  const GameTable table = compute_table(GameKind::Wythoff, n);
  for (std::uint64_t b = 0; b < n; ++b) {
    ASSERT_EQ(table.at(0, b), b);
    ASSERT_EQ(table.at(1, b), b % 3 == 2 ? b - 2 : b + 1) << b;
    ASSERT_EQ(table.at(2, b), b % 3 == 0 ? b + 2 : b - 1) << b;
  }
  const std::vector<RowPeriod> rows = analyze_rows(table);
  EXPECT_EQ(rows[0], (RowPeriod{true, 0, 1, 1}));
  EXPECT_EQ(rows[1], (RowPeriod{true, 0, 3, 3}));
  EXPECT_EQ(rows[2], (RowPeriod{true, 0, 3, 3}));
  std::uint64_t found = 0;
  for (std::uint64_t a = 0; a < n; ++a) {
    const RowPeriod& row = rows[a];
    if (!row.found) continue;
    ++found;
    EXPECT_EQ(row.saltus, static_cast<std::int64_t>(row.period)) << "row " << a;
    // The relation holds from b0 to the end of the row, and fails just before b0.
    for (std::uint64_t b = row.preperiod; b + row.period < n; ++b)
      ASSERT_EQ(table.at(a, b + row.period), table.at(a, b) + row.period) << "row " << a << ", b " << b;
    if (row.preperiod > 0) {
      EXPECT_NE(table.at(a, row.preperiod - 1 + row.period), table.at(a, row.preperiod - 1) + row.period) << a;
    }
  }
  // A row with a longer preperiod or period needs more values; these are all that 1024 values show
  // (and 512 under the sanitizers, which see rows 0..12).
  EXPECT_EQ(found, n == 1024 ? 16u : 13u);
  for (std::uint64_t a = 0; a < found; ++a) EXPECT_TRUE(rows[a].found) << "row " << a;
}

// A row found with n values is found the same with more: the criterion does not report a pattern
// that more values break (for these games and sizes).
TEST(Table2dRows, FoundRowsStayTheSameWithMoreValues) {
  for (GameKind game : {GameKind::Wythoff, GameKind::Cut}) {
    // The cutting game costs O(n^3): 1024 for it, 2048 for Wythoff's game.
    const std::uint64_t small = under_sanitizer() ? 128 : 256;
    const std::uint64_t large = under_sanitizer() ? 512 : game == GameKind::Wythoff ? 2048 : 1024;
    const std::vector<RowPeriod> fewer = analyze_rows(compute_table(game, small));
    const std::vector<RowPeriod> more = analyze_rows(compute_table(game, large));
    std::uint64_t compared = 0;
    for (std::size_t i = 0; i < fewer.size(); ++i)
      if (fewer[i].found) {
        EXPECT_EQ(fewer[i], more[i]) << game_kind_name(game) << " row " << i + table_origin(game);
        ++compared;
      }
    EXPECT_GT(compared, 5u);
  }
}

// What the analysis finds in the first rows of Wythoff's game (the same from 1024 to 4096
// values): periods 3 * 2^k, saltus equal to the period, preperiods growing quickly.
TEST(Table2dRows, WythoffFirstRowsAsFound) {
  if (under_sanitizer()) GTEST_SKIP() << "1024 values a row: slow under the sanitizers";
  const std::vector<RowPeriod> rows = analyze_rows(compute_table(GameKind::Wythoff, 1024));
  const std::vector<RowPeriod> expected = {
      {true, 0, 1, 1},       {true, 0, 3, 3},       {true, 0, 3, 3},       {true, 8, 6, 6},
      {true, 9, 12, 12},     {true, 27, 24, 24},    {true, 37, 12, 12},    {true, 92, 24, 24},
      {true, 102, 24, 24},   {true, 127, 24, 24},   {true, 224, 24, 24},   {true, 277, 48, 48},
      {true, 347, 48, 48},   {true, 382, 96, 96},   {true, 613, 96, 96},   {true, 693, 96, 96}};
  for (std::size_t a = 0; a < expected.size(); ++a) EXPECT_EQ(rows[a], expected[a]) << "row " << a;
  EXPECT_FALSE(rows[16].found);
}

// ---- Through the real tools ----

using testing::contains;
using testing::json_object;
using testing::read_file;
using testing::Result;
using TableToolTest = testing::ToolTest;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// The words of the text report's table line for row a ("a b0 p s", or "a - - -").
std::vector<std::string> report_row(const std::string& text, std::uint64_t a) {
  for (const std::string& line : lines_of(text)) {
    std::istringstream words(line);
    std::vector<std::string> w;
    for (std::string word; words >> word;) w.push_back(word);
    if (w.size() == 4 && w[0] == std::to_string(a)) return w;
  }
  return {};
}

TEST_F(TableToolTest, WythoffFromRunOctalToSgPeriod) {
  Result r = run("run_octal", {"wythoff", "--n", "64", "--out", path("w.h5"), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
  const nlohmann::json report = json_object(r.out);
  EXPECT_EQ(report["game"], "wythoff");
  EXPECT_EQ(report["kind"], "table2d");
  EXPECT_EQ(report["n"], 64);
  EXPECT_EQ(report["origin"], 0);
  EXPECT_EQ(report["values"], 4096);
  const GameTable expected = compute_table(GameKind::Wythoff, 64);
  const std::vector<RowPeriod> rows = analyze_rows(expected);
  const auto found = std::count_if(rows.begin(), rows.end(), [](const RowPeriod& p) { return p.found; });
  EXPECT_EQ(found, 5);  // rows 0-4; row 5 (b0 27, p 24) needs 76 values, row 6 (b0 37, p 12) 65
  EXPECT_EQ(report["max_value"], expected.max_value());
  EXPECT_EQ(report["rows_found"], 5);
  ASSERT_EQ(report["rows"].size(), 64u);
  const auto row = [](const char* text) { return nlohmann::json::parse(text); };
  EXPECT_EQ(report["rows"][0], row(R"({"a": 0, "found": true, "preperiod": 0, "period": 1, "saltus": 1})"));
  EXPECT_EQ(report["rows"][1], row(R"({"a": 1, "found": true, "preperiod": 0, "period": 3, "saltus": 3})"));
  EXPECT_EQ(report["rows"][3], row(R"({"a": 3, "found": true, "preperiod": 8, "period": 6, "saltus": 6})"));
  EXPECT_EQ(report["rows"][63], row(R"({"a": 63, "found": false, "preperiod": null, "period": null, "saltus": null})"));

  // The file holds the table and the rows, exactly.
  const TableRecord stored = read_table_file(path("w.h5"));
  EXPECT_EQ(stored.table.game(), GameKind::Wythoff);
  EXPECT_EQ(stored.table.n(), 64u);
  EXPECT_TRUE(stored.table.cells() == expected.cells());
  EXPECT_EQ(stored.rows, rows);

  // sg_period finds the file's kind and reports the same rows.
  Result p = run("sg_period", {path("w.h5"), "--json"});
  ASSERT_EQ(p.exit_code, 0) << p.err;
  const nlohmann::json stored_report = json_object(p.out);
  EXPECT_EQ(stored_report["rows_found"], report["rows_found"]);
  EXPECT_EQ(stored_report["rows"], report["rows"]);
  EXPECT_EQ(stored_report["file"], path("w.h5"));
  EXPECT_FALSE(stored_report.contains("seconds")) << "a stored table is not timed: " << p.out;

  // One thread computes the same table.
  Result one = run("run_octal", {"wythoff", "--n", "64", "--threads", "1", "--out", path("w1.h5"), "--json"});
  ASSERT_EQ(one.exit_code, 0) << one.err;
  EXPECT_TRUE(read_table_file(path("w1.h5")).table.cells() == expected.cells());
  EXPECT_EQ(json_object(one.out)["threads"], 1) << one.out;
}

TEST_F(TableToolTest, CutReportIsTheSameFromRunOctalAndSgPeriod) {
  Result r = run("run_octal", {"cut", "--n", "160", "--out", path("c.h5")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "table       G(a, b) for 2 <= a, b < 160, 24964 values (a side below 2 is no position)"))
      << r.out;
  EXPECT_EQ(report_row(r.out, 2), (std::vector<std::string>{"2", "55", "34", "0"})) << r.out;
  EXPECT_EQ(report_row(r.out, 3), (std::vector<std::string>{"3", "55", "34", "0"})) << r.out;
  EXPECT_TRUE(report_row(r.out, 22).empty()) << "only the first 20 rows are listed: " << r.out;
  EXPECT_TRUE(contains(r.out, "(the first 20 rows of 158; --json lists every row)")) << r.out;
  Result p = run("sg_period", {path("c.h5")});
  ASSERT_EQ(p.exit_code, 0) << p.err;
  // The same report, without the time the computation took.
  std::string without_time;
  for (const std::string& line : lines_of(r.out))
    if (line.rfind("time ", 0) != 0) without_time.append(line).append("\n");
  EXPECT_EQ(p.out, without_time);
  EXPECT_TRUE(contains(r.out, "\ntime        ")) << r.out;
}

TEST_F(TableToolTest, WythoffReportNamesTheRowsNotFound) {
  Result r = run("run_octal", {"wythoff", "--n", "300", "--out", path("w.h5")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // Rows 0-10 show their period within 300 values: row 10 (b0 224, p 24) needs 273 values and its
  // tail of 76 is just over a quarter; row 11 starts at 277 with period 48.
  EXPECT_TRUE(contains(r.out, "rows        11 of 300 additively periodic")) << r.out;
  EXPECT_TRUE(contains(r.out, "not found   11-299 (289 rows:")) << r.out;
  EXPECT_EQ(report_row(r.out, 10), (std::vector<std::string>{"10", "224", "24", "24"})) << r.out;
  EXPECT_EQ(report_row(r.out, 11), (std::vector<std::string>{"11", "-", "-", "-"})) << r.out;
}

TEST_F(TableToolTest, DefaultsAndPrint) {
  Result w = run("run_octal", {"wythoff", "--quiet"});
  ASSERT_EQ(w.exit_code, 0) << w.err;
  EXPECT_TRUE(w.out.empty()) << w.out;
  EXPECT_EQ(read_table_file(path("results/wythoff.h5")).table.n(), 1024u);
  Result c = run("run_octal", {"cut", "--quiet"});
  ASSERT_EQ(c.exit_code, 0) << c.err;
  EXPECT_EQ(read_table_file(path("results/cut.h5")).table.n(), 256u);

  // The corner of Wythoff's table (Winning Ways p. 76), and of the cutting game's, whose first
  // row is Dawson's Kayles.
  Result corner = run("run_octal", {"wythoff", "--n", "10", "--print=0:5", "--quiet", "--out", path("w.h5")});
  ASSERT_EQ(corner.exit_code, 0) << corner.err;
  EXPECT_EQ(corner.out, "0 1 2 3 4\n1 2 0 4 5\n2 0 1 5 3\n3 4 5 6 2\n4 5 3 2 7\n");
  Result sheets = run("run_octal", {"cut", "--n", "12", "--print", "--quiet", "--out", path("c.h5")});
  ASSERT_EQ(sheets.exit_code, 0) << sheets.err;
  const std::vector<std::string> rows = lines_of(sheets.out);
  ASSERT_EQ(rows.size(), 10u) << sheets.out;
  Engine dawson(parse_rules("0.07"), EngineOptions{});
  dawson.compute_to(10);
  std::string first_row;
  for (std::uint64_t k = 0; k < 10; ++k) first_row.append(k ? " " : "").append(std::to_string(dawson.values()[k]));
  EXPECT_EQ(rows[0], first_row);
  EXPECT_EQ(rows[1], first_row);  // 3 x b sheets: row 3 is row 2
  // With the text report too, the values come first.
  Result both = run("run_octal", {"wythoff", "--n", "10", "--print=0:2", "--out", path("w.h5"), "--overwrite"});
  EXPECT_EQ(both.out.rfind("0 1\n1 2\ngame        wythoff\n", 0), 0u) << both.out;
}

TEST_F(TableToolTest, BadInputGetsOneLineAndExitTwoAndWritesNothing) {
  const std::vector<std::vector<std::string>> cases = {
      {"wythoff", "--n", "0"},       {"wythoff", "--n", "16385"},      {"wythoff", "--n", "1e9"},
      {"cut", "--n", "2"},           {"wythoff", "--n", "-5"},         {"wythoff", "--n", "2.5"},
      {"wythoff", "--resume"},       {"cut", "--engine", "sweep"},     {"cut", "--checkpoint-every", "5"},
      {"wythoff", "--no-shortcut"},  {"wythoff", "--max-n", "2^20"},   {"cut", "--print=0:5"},
      {"cut", "--n", "10", "--print=2:11"}, {"wythoff", "--print=3:3"}, {"wythoff", "--print", "--json"},
      {"wythoff", "--threads", "-1"},
  };
  for (const auto& args : cases) {
    Result r = run("run_octal", args);
    std::string shown;
    for (const auto& a : args) shown.append("[").append(a).append("] ");
    EXPECT_EQ(r.exit_code, 2) << shown << r.err;
    EXPECT_EQ(lines_of(r.err).size(), 1u) << shown << r.err;
    EXPECT_EQ(r.err.rfind("run_octal: ", 0), 0u) << shown << r.err;
    EXPECT_TRUE(r.out.empty()) << shown << r.out;
  }
  EXPECT_FALSE(std::filesystem::exists(dir_ / "results")) << "nothing is written for bad input";
  Result big = run("run_octal", {"wythoff", "--n", "16385"});
  EXPECT_TRUE(contains(big.err, "at most 16384")) << big.err;
  Result resume = run("run_octal", {"cut", "--resume"});
  EXPECT_TRUE(contains(resume.err, "--resume: the two-dimensional table of cut has no checkpoints")) << resume.err;
  Result small = run("run_octal", {"cut", "--n", "2"});
  EXPECT_TRUE(contains(small.err, "sheets start at 2 x 2")) << small.err;
}

TEST_F(TableToolTest, TablesAndRunsKeepToTheirOwnFiles) {
  ASSERT_EQ(run("run_octal", {"wythoff", "--n", "40", "--quiet", "--out", path("w.h5")}).exit_code, 0);
  const std::string table_bytes = read_file(path("w.h5"));
  // A heap game cannot resume from a table file, and leaves it as it is.
  Result resume = run("run_octal", {"0.137", "--n", "100", "--resume", "--out", path("w.h5")});
  EXPECT_EQ(resume.exit_code, 1);
  EXPECT_TRUE(contains(resume.err, "holds a two-dimensional table of wythoff, not the values of a heap game"))
      << resume.err;
  EXPECT_EQ(read_file(path("w.h5")), table_bytes);
  // sg_period --table lists heap games only.
  Result table = run("sg_period", {path("w.h5"), "--table"});
  EXPECT_EQ(table.exit_code, 2);
  EXPECT_TRUE(contains(table.err, "holds a two-dimensional table")) << table.err;
  // A table does not replace an unfinished run: one forgotten option must not cost its values.
  RunRecord unfinished;
  unfinished.game = "0.137";
  unfinished.complete = false;
  unfinished.target_n = 1000;
  unfinished.values = Sequence::from_vector({0, 0, 1, 1});
  write_run_file(path("run.h5"), unfinished);
  const std::string run_bytes = read_file(path("run.h5"));
  Result over = run("run_octal", {"wythoff", "--n", "40", "--out", path("run.h5")});
  EXPECT_EQ(over.exit_code, 1);
  EXPECT_EQ(over.err, "run_octal: " + path("run.h5") + " holds an unfinished run of 0.137 (4 of 1000 values), not the "
                      "table of wythoff: replace it with --overwrite, or choose another --out\n");
  EXPECT_EQ(read_file(path("run.h5")), run_bytes);
  // An unwritable place fails before any work, as for heap games.
  Result nowhere = run("run_octal", {"cut", "--out", path("no/such/dir/c.h5")});
  EXPECT_EQ(nowhere.exit_code, 1);
  EXPECT_TRUE(contains(nowhere.err, "directory does not exist")) << nowhere.err;
  // And a run file still reads as before next to a table.
  ASSERT_EQ(run("run_octal", {"0.137", "--n", "500", "--quiet", "--out", path("d.h5")}).exit_code, 0);
  Result both = run("sg_period", {path("d.h5"), path("w.h5")});
  ASSERT_EQ(both.exit_code, 0) << both.err;
  EXPECT_TRUE(contains(both.out, "period      period 34, preperiod 52, proven (guy-smith)")) << both.out;
  EXPECT_TRUE(contains(both.out, "game        wythoff")) << both.out;
}

TEST_F(TableToolTest, H5dumpShowsTheTableRunOctalWrote) {
  if (std::system("command -v h5dump >/dev/null 2>&1") != 0) GTEST_SKIP() << "h5dump is not installed";
  ASSERT_EQ(run("run_octal", {"wythoff", "--n", "64", "--quiet", "--out", path("w.h5")}).exit_code, 0);
  std::string command = "h5dump -H -p ";
  command.append(testing::quote(path("w.h5"))).append(" >").append(testing::quote(path("h.txt")));
  ASSERT_EQ(std::system(command.c_str()), 0);
  const std::string header = read_file(path("h.txt"));
  for (const char* part : {"DATASET \"table\"", "H5T_STD_U8LE", "DATASPACE  SIMPLE { ( 64, 64 ) / ( 64, 64 ) }",
                           "FLETCHER32", "GROUP \"rows\"", "DATASET \"period\"", "ATTRIBUTE \"origin\""})
    EXPECT_TRUE(contains(header, part)) << "missing " << part << " in\n" << header;
}

// The h5py snippet for tables in docs/FORMAT.md, as written there, on a file run_octal wrote.
TEST_F(TableToolTest, TheDocumentedH5pySnippetReadsATable) {
  if (std::system("/usr/bin/python3 -c 'import h5py' 2>/dev/null") != 0)
    GTEST_SKIP() << "/usr/bin/python3 has no h5py (apt-get install python3-h5py)";
  ASSERT_EQ(run("run_octal", {"cut", "--quiet"}).exit_code, 0);  // results/cut.h5, as in the snippet
  const std::string doc = read_file(std::filesystem::path(SGX_SOURCE_DIR) / "docs" / "FORMAT.md");
  const std::string open = "```python\n";
  std::string snippet;
  for (auto start = doc.find(open); start != std::string::npos; start = doc.find(open, start + 1)) {
    const auto body = start + open.size();
    snippet = doc.substr(body, doc.find("```", body) - body);
    if (contains(snippet, "table2d")) break;
    snippet.clear();
  }
  ASSERT_FALSE(snippet.empty()) << "no python snippet for tables in docs/FORMAT.md";
  std::ofstream(path("read.py")) << snippet;
  std::string command = "cd ";
  command.append(testing::quote(dir_.string())).append(" && /usr/bin/python3 read.py >py.txt 2>&1");
  EXPECT_EQ(std::system(command.c_str()), 0) << read_file(path("py.txt"));
  // A 4 x 2 sheet has one cut, into two 2 x 2 sheets of value 0; every row 4 sheet is worth 1.
  EXPECT_EQ(read_file(path("py.txt")), "G(4, 2) = 1\nrow 4 preperiod 2 period 1 saltus 0\n");
}

}  // namespace
}  // namespace sgx
