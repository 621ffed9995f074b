// Positions of code games: values, outcomes and winning moves against a brute-force search of the
// whole game tree, misère play, and the sg_solve tool run for real.

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "sgx/engine.hpp"
#include "sgx/rules.hpp"
#include "sgx/solve.hpp"
#include "tool_test.hpp"

namespace sgx {
namespace {

using Heaps = std::vector<std::uint64_t>;

bool under_sanitizer() { return std::getenv("SGX_SANITIZED") != nullptr; }

// Every ordered way of writing total as parts positive numbers.
void compositions(std::uint64_t total, unsigned parts, Heaps& prefix, const std::function<void(const Heaps&)>& visit) {
  if (parts == 0) {
    if (total == 0) visit(prefix);
    return;
  }
  for (std::uint64_t first = 1; first <= total; ++first) {
    prefix.push_back(first);
    compositions(total - first, parts - 1, prefix, visit);
    prefix.pop_back();
  }
}

// The options of one heap straight from the definition of a code (docs/THEORY.md section 2): remove k,
// and leave j non-empty heaps (j = 0..3) when bit 2^j of digit k is set, the parts pairwise
// unequal under '!'. Written apart from the library's enumeration on purpose.
std::set<Heaps> brute_options(const Rules& rules, std::uint64_t heap) {
  std::set<Heaps> options;
  for (std::uint64_t k = 0; k <= heap; ++k) {
    const Digit digit = rules.digit(k);
    for (unsigned j = 0; j < 4; ++j) {
      if (!((digit.bits >> j) & 1u) || (k == 0 && j < 2)) continue;
      Heaps prefix;
      compositions(heap - k, j, prefix, [&](const Heaps& parts) {
        Heaps sorted = parts;
        std::sort(sorted.begin(), sorted.end());
        if (digit.unequal && std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) return;
        options.insert(sorted);
      });
    }
  }
  return options;
}

Heaps normalised(Heaps heaps) {
  heaps.erase(std::remove(heaps.begin(), heaps.end(), 0u), heaps.end());
  std::sort(heaps.begin(), heaps.end());
  return heaps;
}

Heaps replace_heap(const Heaps& heaps, std::size_t i, const Heaps& parts) {
  Heaps after = heaps;
  after.erase(after.begin() + static_cast<std::ptrdiff_t>(i));
  after.insert(after.end(), parts.begin(), parts.end());
  return after;
}

// The Grundy value of a whole position, the sum never split into its heaps: mex over every
// option of the position. In misère play a position with no move has value 1 (its player wins).
class BruteForce {
 public:
  BruteForce(Rules rules, bool misere) : rules_(std::move(rules)), misere_(misere) {}

  std::uint64_t value(const Heaps& position) {
    const Heaps key = normalised(position);
    if (auto found = memo_.find(key); found != memo_.end()) return found->second;
    std::set<std::uint64_t> seen;
    for (std::size_t i = 0; i < key.size(); ++i)
      for (const Heaps& parts : options(key[i])) seen.insert(value(replace_heap(key, i, parts)));
    std::uint64_t mex = 0;
    while (seen.count(mex)) ++mex;
    if (seen.empty() && misere_) mex = 1;
    memo_[key] = mex;
    return mex;
  }

  const std::set<Heaps>& options(std::uint64_t heap) {
    auto found = options_.find(heap);
    if (found == options_.end()) found = options_.emplace(heap, brute_options(rules_, heap)).first;
    return found->second;
  }

 private:
  Rules rules_;
  bool misere_;
  std::map<Heaps, std::uint64_t> memo_;
  std::map<std::uint64_t, std::set<Heaps>> options_;
};

// Every multiset of positive heaps with total tokens, largest first.
void partitions(std::uint64_t total, std::uint64_t largest, Heaps& prefix,
                const std::function<void(const Heaps&)>& visit) {
  if (total == 0) {
    visit(prefix);
    return;
  }
  for (std::uint64_t part = std::min(total, largest); part >= 1; --part) {
    prefix.push_back(part);
    partitions(total - part, part, prefix, visit);
    prefix.pop_back();
  }
}

std::vector<Component> components(const Heaps& heaps) {
  std::vector<Component> position;
  for (std::uint64_t h : heaps) position.push_back({h});
  return position;
}

using MoveKey = std::pair<std::size_t, Heaps>;  // heap index, the heaps it leaves (sorted)

std::set<MoveKey> listed_moves(const Solution& solution) {
  std::set<MoveKey> moves;
  for (const Move& move : solution.winning_moves) {
    Heaps left;
    for (const Component& c : move.to) left.push_back(c[0]);
    moves.insert({move.index, left});
  }
  EXPECT_EQ(moves.size(), solution.winning_moves.size()) << "a winning move is listed twice";
  return moves;
}

// Checks solve() on every position of up to max_total tokens against the brute force: the value,
// the outcome, and that the listed moves are exactly the options that leave value 0.
void check_against_brute_force(const std::string& code, std::uint64_t max_total, bool misere) {
  const Game game = parse_game(code);
  BruteForce brute(*game.rules, misere);
  SolveOptions options;
  options.misere = misere;
  std::uint64_t positions = 0;
  for (std::uint64_t total = 1; total <= max_total; ++total) {
    Heaps prefix;
    partitions(total, total, prefix, [&](const Heaps& heaps) {
      ++positions;
      const Solution solution = solve(game, components(heaps), options);
      const std::uint64_t value = brute.value(heaps);
      ASSERT_TRUE(solution.value.has_value());
      ASSERT_EQ(*solution.value, value) << code << " position " << ::testing::PrintToString(heaps);
      ASSERT_EQ(solution.mover_wins, value != 0);
      std::set<MoveKey> expected;
      for (std::size_t i = 0; i < heaps.size(); ++i)
        for (const Heaps& parts : brute.options(heaps[i]))
          if (brute.value(replace_heap(heaps, i, parts)) == 0) expected.insert({i, parts});
      ASSERT_EQ(listed_moves(solution), expected) << code << " position " << ::testing::PrintToString(heaps);
    });
  }
  EXPECT_GT(positions, max_total);
}

std::uint64_t brute_total(std::uint64_t full) { return under_sanitizer() ? full * 3 / 4 : full; }

TEST(Solve, NimThreeFourFiveHasValueTwoAndOneWinningMove) {
  const Game nim = parse_game("nim");
  const Solution solution = solve(nim, {{3}, {4}, {5}}, {});
  ASSERT_TRUE(solution.value.has_value());
  EXPECT_EQ(*solution.value, 2u);
  EXPECT_TRUE(solution.mover_wins);
  ASSERT_EQ(solution.winning_moves.size(), 1u);
  EXPECT_EQ(solution.winning_moves[0], (Move{0, {3}, {{1}}}));
}

TEST(Solve, KaylesAgainstBruteForceUpToTwentyTokens) { check_against_brute_force("kayles", brute_total(20), false); }

TEST(Solve, DawsonsChessAgainstBruteForceUpToTwentyTokens) {
  check_against_brute_force("dawson", brute_total(20), false);
}

TEST(Solve, MoreCodesAgainstBruteForce) {
  // Unequal splits, three-heap splits, splits without a take, repeating tails, Bash.
  for (const char* code :
       {"grundy", "0.07", "0.F7", "4.07", "0.4!4", "8.0", "0.8!", "lasker", "nim", "0.3[1]", "sub:1,3,4", "bash:3"})
    check_against_brute_force(code, brute_total(12), false);
}

TEST(Solve, AWinningOptionMayHaveAValueAboveItsHeaps) {
  // Kayles 4 + 2: G(4) = 1, G(2) = 2, so heap 1 must go to value 1 ^ 3 = 2, above G(4): taking
  // two pins from the end of the row of four leaves 2 + 2.
  const Solution solution = solve(parse_game("kayles"), {{4}, {2}}, {});
  EXPECT_EQ(*solution.value, 3u);
  EXPECT_EQ(listed_moves(solution), (std::set<MoveKey>{{0, {2}}, {1, {1}}}));
}

TEST(Solve, LargeHeapsListExactlyTheMovesToValueZero) {
  // Beyond brute force: every option of every heap, its value from the engine.
  for (const char* code : {"dawson", "kayles", "0.16", "grundy"}) {
    const Game game = parse_game(code);
    const std::uint64_t largest = under_sanitizer() ? 1000 : 3000;
    const Heaps heaps = {largest, 777, 234};
    const Sequence g = compute_sequence(*game.rules, largest + 1, KernelKind::Auto, 0, true);
    const Solution solution = solve(game, components(heaps), {});
    const std::uint64_t total = g[largest] ^ g[777] ^ g[234];
    EXPECT_EQ(*solution.value, total) << code;
    std::set<MoveKey> expected;
    for (std::size_t i = 0; i < heaps.size(); ++i) {
      for (const Heaps& parts : heap_options(*game.rules, heaps[i])) {
        std::uint64_t after = total ^ g[heaps[i]];
        for (std::uint64_t part : parts) after ^= g[part];
        if (after == 0) expected.insert({i, parts});
      }
    }
    EXPECT_EQ(listed_moves(solution), expected) << code;
    EXPECT_EQ(solution.mover_wins, !expected.empty()) << code;
  }
}

TEST(Solve, NimAndBashHaveNoSizeLimit) {
  const std::uint64_t big = std::uint64_t{1} << 60;
  const Solution nim = solve(parse_game("nim"), {{big + 5}, {12345678901}, {7}}, {});
  const std::uint64_t total = (big + 5) ^ 12345678901u ^ 7u;
  EXPECT_EQ(*nim.value, total);
  ASSERT_EQ(nim.winning_moves.size(), 1u);  // only the heap holding the top bit of the nim-sum
  EXPECT_EQ(nim.winning_moves[0], (Move{0, {big + 5}, {{(big + 5) ^ total}}}));

  const Solution bash = solve(parse_game("bash:5"), {{big + 3}}, {});
  EXPECT_EQ(*bash.value, (big + 3) % 6);
  ASSERT_EQ(bash.winning_moves.size(), 1u);
  EXPECT_EQ(bash.winning_moves[0].to, (std::vector<Component>{{big + 3 - (big + 3) % 6}}));
}

TEST(Solve, BashLosesExactlyOnMultiplesOfMPlusOne) {
  for (std::uint64_t m = 1; m <= 6; ++m) {
    const Game bash = parse_game("bash:" + std::to_string(m));
    EXPECT_EQ(bash.name, "bash:" + std::to_string(m));
    for (std::uint64_t n = 0; n <= 100; ++n) {
      const Solution solution = solve(bash, {{n}}, {});
      EXPECT_EQ(solution.mover_wins, n % (m + 1) != 0) << "bash:" << m << " heap " << n;
      if (solution.mover_wins) {
        ASSERT_EQ(solution.winning_moves.size(), 1u);
        const std::vector<Component> left =
            n % (m + 1) == n ? std::vector<Component>{} : std::vector<Component>{{n - n % (m + 1)}};
        EXPECT_EQ(solution.winning_moves[0].to, left);
      }
    }
  }
}

TEST(Solve, BashIsTheSubtractionCodeWithItsOwnName) {
  const Game bash = parse_game("bash:3");
  const Game code = parse_game("sub:1,2,3");
  EXPECT_EQ(*bash.rules, *code.rules);
  EXPECT_EQ(code.name, "0.333");
  for (std::uint64_t a = 0; a < 30; a += 3)
    for (std::uint64_t b = 0; b < 30; b += 2) {
      const Solution x = solve(bash, {{a}, {b}}, {}), y = solve(code, {{a}, {b}}, {});
      EXPECT_EQ(x.value, y.value);
      EXPECT_EQ(x.winning_moves, y.winning_moves);
    }
}

TEST(Solve, StoredValuesAreUsedAndTheirEndIsRefused) {
  const Game kayles = parse_game("kayles");
  const Sequence stored = compute_sequence(*kayles.rules, 100);
  SolveOptions options;
  options.stored_values = &stored;
  options.stored_name = "k.h5";
  const Solution from_file = solve(kayles, {{99}, {50}, {7}}, options);
  const Solution from_engine = solve(kayles, {{99}, {50}, {7}}, {});
  EXPECT_EQ(from_file.value, from_engine.value);
  EXPECT_EQ(from_file.winning_moves, from_engine.winning_moves);
  try {
    solve(kayles, {{100}}, options);
    FAIL() << "heap 100 is not stored";
  } catch (const SolveError& e) {
    EXPECT_NE(std::string(e.what()).find("k.h5"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("n = 100"), std::string::npos) << e.what();
  }
}

// ---- Misère play ----

TEST(Misere, NimAgainstBruteForce) { check_against_brute_force("nim", brute_total(16), true); }

TEST(Misere, CodesAgainstBruteForce) {
  for (const char* code : {"kayles", "dawson", "0.07", "grundy", "bash:2", "0.F7"})
    check_against_brute_force(code, brute_total(13), true);
}

TEST(Misere, BoutonsRuleAtAnySize) {
  const std::uint64_t big = std::uint64_t{1} << 50;
  EXPECT_EQ(misere_nim_value({1, 1, 1}), 0u);  // odd number of single tokens: the mover loses
  EXPECT_EQ(misere_nim_value({1, 1}), 1u);
  EXPECT_EQ(misere_nim_value({}), 1u);          // the opponent took the last token and lost
  EXPECT_EQ(misere_nim_value({big, big}), 0u);  // heaps >= 2: as in normal play
  const Solution solution = solve(parse_game("nim"), {{big}, {1}}, SolveOptions{true, nullptr, ""});
  EXPECT_TRUE(solution.mover_wins);
  // Leaving (1, 1) hands the opponent an even count of single tokens, a win in misère play;
  // leaving (0, 1) an odd count, a loss: the only winning move empties the big heap.
  ASSERT_EQ(solution.winning_moves.size(), 1u);
  EXPECT_EQ(solution.winning_moves[0], (Move{0, {big}, {}}));
}

TEST(Misere, SearchNamesItsLimit) {
  const Game kayles = parse_game("kayles");
  try {
    solve(kayles, {{20}, {21}}, SolveOptions{true, nullptr, ""});
    FAIL() << "41 tokens is past the limit";
  } catch (const SolveError& e) {
    EXPECT_NE(std::string(e.what()).find("at most 40 tokens here (this position has 41)"), std::string::npos)
        << e.what();
  }
  MisereSearch small(*kayles.rules, 50, 10);
  EXPECT_THROW(small.value({30}), SolveError);
}

TEST(Misere, DeadHeapsChangeNothing) {
  // In 0.07 a heap of one token has no move; the search drops such heaps.
  MisereSearch search(parse_rules("0.07"), 40);
  for (std::uint64_t n = 0; n < 15; ++n) EXPECT_EQ(search.value({n}), search.value({n, 1, 1, 1})) << n;
}

// ---- Positions as typed ----

TEST(SolveInput, HeapsAreWholeNumbers) {
  const Game nim = parse_game("nim");
  EXPECT_EQ(parse_position(nim, {"3", "1e3", "2^10", "0"}), (std::vector<Component>{{3}, {1000}, {1024}, {0}}));
  for (const char* bad : {"-3", "abc", "2.5", "1e400", ""}) EXPECT_THROW(parse_position(nim, {bad}), SolveError) << bad;
  EXPECT_THROW(parse_position(nim, {}), SolveError);
  EXPECT_THROW(parse_game("bash:0"), ParseError);
  EXPECT_THROW(parse_game("bash:x"), ParseError);
  EXPECT_THROW(parse_game("0.1x"), ParseError);
}

TEST(SolveInput, HeapOptionsListEachMultisetOnce) {
  EXPECT_EQ(heap_options(parse_rules("kayles"), 4), (std::vector<Heaps>{{3}, {1, 2}, {2}, {1, 1}}));
  EXPECT_EQ(heap_options(parse_rules("grundy"), 6), (std::vector<Heaps>{{1, 5}, {2, 4}}));
  EXPECT_EQ(heap_options(parse_rules("0.8"), 6), (std::vector<Heaps>{{1, 1, 3}, {1, 2, 2}}));
  EXPECT_EQ(heap_options(parse_rules("0.8!"), 7), (std::vector<Heaps>{{1, 2, 3}}));
  EXPECT_TRUE(heap_options(parse_rules("0.07"), 1).empty());
}

// ---- sg_solve, run for real ----

using sgx::testing::contains;
using sgx::testing::json_object;
using sgx::testing::quote;
using sgx::testing::read_file;
using sgx::testing::Result;

std::size_t line_count(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

class SolveCli : public sgx::testing::ToolTest {
 protected:
  Result solve_tool(const std::vector<std::string>& args) { return run("sg_solve", args); }
};

TEST_F(SolveCli, NimThreeFourFiveAsTextAndJson) {
  Result text = solve_tool({"nim", "3", "4", "5"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_TRUE(contains(text.out, "value     2\n")) << text.out;
  EXPECT_TRUE(contains(text.out, "outcome   N: the player to move wins\n")) << text.out;
  EXPECT_TRUE(contains(text.out, "winning moves (1):\n  heap 1: 3 -> 1\n")) << text.out;
  Result json = solve_tool({"nim", "3", "4", "5", "--json"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_EQ(json_object(json.out), nlohmann::json::parse(R"({"game": "0.[3]", "misere": false, "heaps": [3, 4, 5],
      "value": 2, "outcome": "N", "winning_moves": [{"heap_index": 1, "from": 3, "to": [1]}], "count": 1})"));
}

TEST_F(SolveCli, SplitsTakingAllAndLosingPositions) {
  Result split = solve_tool({"kayles", "3", "4", "5", "--json"});
  const nlohmann::json split_json = json_object(split.out);
  EXPECT_EQ(split_json["value"], 6);
  EXPECT_EQ(split_json["winning_moves"], nlohmann::json::parse(R"([{"heap_index": 3, "from": 5, "to": [1, 3]}])"));
  Result all = solve_tool({"nim", "3", "0"});
  EXPECT_TRUE(contains(all.out, "heap 1: 3 -> 0\n")) << all.out;
  Result all_json = solve_tool({"nim", "3", "--json"});
  EXPECT_EQ(json_object(all_json.out)["winning_moves"][0]["to"], nlohmann::json::array()) << all_json.out;
  Result lost = solve_tool({"nim", "1", "2", "3"});
  EXPECT_TRUE(contains(lost.out, "P: the player to move loses")) << lost.out;
  EXPECT_TRUE(contains(lost.out, "winning moves: none")) << lost.out;
}

TEST_F(SolveCli, MisereNim) {
  Result r = solve_tool({"nim", "1", "1", "1", "--misere", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json misere = json_object(r.out);
  EXPECT_EQ(misere["misere"], true);
  EXPECT_EQ(misere["outcome"], "P");
  Result text = solve_tool({"kayles", "5", "6", "--misere"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_TRUE(contains(text.out, "misère search over")) << text.out;
}

TEST_F(SolveCli, BadPositionsGetExitTwoAndOneLine) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"nim", "-3"}, "negative"},
      {{"nim", "3", "abc"}, "'abc' is not a number"},
      {{"nim", "2.5"}, "not a whole number"},
      {{"kayles", "1e400"}, "too large"},
      {{"kayles", "3", "--bogus"}, "bogus"},
      {{"nim"}, "no position given"},
      {{}, "no game given"},
      {{"0.1x", "3"}, "at character"},
      {{"kayles", "20", "21", "--misere"}, "at most 40 tokens here (this position has 41)"},
      {{"kayles", "5000000"}, "--from"},
      {{"wythoff", "3"}, "pairs"},
      {{"cut", "1x5"}, "side below 2"},
      {{"cut", "4by7"}, "ROWSxCOLUMNS"},
      {{"cut", "400x3"}, "up to 300"},
      {{"wythoff", "3", "5", "--misere"}, "misère play is offered for heap codes"},
      {{"bash:0", "3"}, "bash:M"},
  };
  for (const auto& [args, message] : cases) {
    Result r = solve_tool(args);
    std::string shown;
    for (const auto& a : args) shown.append("[").append(a).append("] ");
    EXPECT_EQ(r.exit_code, 2) << shown << r.err;
    EXPECT_EQ(line_count(r.err), 1u) << shown << r.err;
    EXPECT_EQ(r.err.rfind("sg_solve: ", 0), 0u) << shown << r.err;
    EXPECT_TRUE(contains(r.err, message)) << shown << r.err;
    EXPECT_TRUE(r.out.empty()) << shown << r.out;
  }
}

TEST_F(SolveCli, ValuesFromAStoredRun) {
  ASSERT_EQ(run("run_octal", {"kayles", "--n", "100", "--quiet", "--out", path("k.h5")}).exit_code, 0);
  Result stored = solve_tool({"kayles", "99", "50", "7", "--from", path("k.h5"), "--json"});
  ASSERT_EQ(stored.exit_code, 0) << stored.err;
  Result engine = solve_tool({"kayles", "99", "50", "7", "--json"});
  EXPECT_EQ(json_object(stored.out), json_object(engine.out));
  Result beyond = solve_tool({"kayles", "100", "--from", path("k.h5")});
  EXPECT_EQ(beyond.exit_code, 2);
  EXPECT_TRUE(contains(beyond.err, "n = 100")) << beyond.err;
  Result other = solve_tool({"dawson", "10", "--from", path("k.h5")});
  EXPECT_EQ(other.exit_code, 2);
  EXPECT_TRUE(contains(other.err, "holds the values of 0.77, not of 0.137")) << other.err;
  Result missing = solve_tool({"kayles", "10", "--from", path("none.h5")});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_TRUE(contains(missing.err, "none.h5")) << missing.err;
}

TEST_F(SolveCli, ClassicGamesByName) {
  Result wythoff = solve_tool({"wythoff", "3", "5"});
  EXPECT_TRUE(contains(wythoff.out, "P: the player to move loses")) << wythoff.out;
  Result sum = solve_tool({"wythoff", "3", "5", "1", "1", "--json"});
  const nlohmann::json sum_json = json_object(sum.out);
  EXPECT_EQ(sum_json["heaps"], nlohmann::json::parse("[[3, 5], [1, 1]]"));
  EXPECT_TRUE(std::ranges::count(sum_json["winning_moves"],
                                 nlohmann::json::parse(R"({"heap_index": 2, "from": [1, 1], "to": [[0, 0]]})")) == 1)
      << sum.out;
  Result fibonacci = solve_tool({"fibonacci", "20"});
  EXPECT_TRUE(contains(fibonacci.out, "heap 1: 20 -> 18/4  (take 2)")) << fibonacci.out;
  Result cut = solve_tool({"cut", "4x2", "--json"});
  EXPECT_EQ(json_object(cut.out)["winning_moves"],
            nlohmann::json::parse(R"([{"heap_index": 1, "from": [4, 2], "to": [[2, 2], [2, 2]]}])"));
  Result bash = solve_tool({"bash:3", "7"});
  EXPECT_TRUE(contains(bash.out, "game      bash:3 (take 1 to 3 from a heap, the code 0.333)")) << bash.out;
  EXPECT_TRUE(contains(bash.out, "heap 1: 7 -> 4")) << bash.out;
}

TEST_F(SolveCli, HelpAndVersion) {
  Result help = solve_tool({"--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_TRUE(contains(help.out, "Usage: sg_solve")) << help.out;
  EXPECT_TRUE(contains(help.out, "Examples:")) << help.out;
  Result version = solve_tool({"--version"});
  EXPECT_TRUE(contains(version.out, "(sgx)")) << version.out;
}

}  // namespace
}  // namespace sgx
