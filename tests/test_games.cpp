// The catalogue of games: every game word gives one Game, heap games give the rules the engine
// takes, and the readers of digits elsewhere use the rules' own.

#include <gtest/gtest.h>

#include <cctype>
#include <string>

#include "sgx/games.hpp"
#include "sgx/rules.hpp"
#include "sgx/table2d.hpp"

namespace sgx {
namespace {

TEST(GameCatalogue, ClassicGamesInAnyCase) {
  for (const auto& [word, kind] : {std::pair{"wythoff", GameKind::Wythoff}, std::pair{"Fibonacci", GameKind::Fibonacci},
                                   std::pair{"CUT", GameKind::Cut}}) {
    const Game game = parse_game(word);
    EXPECT_EQ(game.kind, kind) << word;
    EXPECT_EQ(game.name, game_kind_name(kind)) << word;
    EXPECT_FALSE(game.rules.has_value()) << word;
    EXPECT_FALSE(game.description.empty()) << word;
    EXPECT_EQ(classic_game_kind(word), kind) << word;
  }
  EXPECT_EQ(classic_game_kind("0.77"), std::nullopt);
  EXPECT_EQ(classic_game_kind("cutting"), std::nullopt);
}

TEST(GameCatalogue, CodesAndNamesAreHeapGames) {
  const Game kayles = parse_game("Kayles");
  EXPECT_EQ(kayles.kind, GameKind::Code);
  EXPECT_EQ(kayles.name, "0.77");
  EXPECT_EQ(kayles.description, "kayles");
  EXPECT_EQ(*kayles.rules, parse_rules("0.77"));
  EXPECT_FALSE(kayles.nim);
  EXPECT_TRUE(parse_game("0.33[3]").nim);
  EXPECT_TRUE(parse_game("nim").nim);
  const Game code = parse_game("0.137");
  EXPECT_EQ(code.name, "0.137");
  EXPECT_EQ(code.description, "");
  EXPECT_THROW(parse_game("0.1x"), ParseError);
}

TEST(GameCatalogue, BashIsTheCodeOfThrees) {
  const Game bash = parse_game("bash:3");
  EXPECT_EQ(bash.kind, GameKind::Code);
  EXPECT_EQ(bash.name, "bash:3");
  EXPECT_EQ(bash.bash_take, 3u);
  EXPECT_EQ(*bash.rules, parse_rules("0.333"));
  EXPECT_EQ(bash.description, "take 1 to 3 from a heap, the code 0.333");
  EXPECT_EQ(parse_game("bash:20").description, "take 1 to 20 from a heap");
  EXPECT_EQ(parse_heap_game("BASH:2"), parse_rules("0.33"));
  for (const char* bad : {"bash:0", "bash:x", "bash:", "bash:-1", "bash:2097152"}) {
    try {
      parse_game(bad);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const ParseError& e) {
      EXPECT_EQ(e.position(), 5u) << bad;
      EXPECT_NE(std::string(e.what()).find("bash:M takes M"), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(parse_game("bash:1048576").bash_take, kMaxBashTake);
}

TEST(GameCatalogue, ClassicGamesAreNotHeapGames) {
  for (const char* word : {"wythoff", "fibonacci", "cut"}) {
    try {
      parse_heap_game(word);
      ADD_FAILURE() << word << " was accepted";
    } catch (const ParseError& e) {
      EXPECT_NE(std::string(e.what()).find("is not a heap game"), std::string::npos) << e.what();
    }
  }
}

TEST(GameCatalogue, TablesBelongToTheGamesOfPairs) {
  EXPECT_TRUE(has_table(GameKind::Wythoff));
  EXPECT_TRUE(has_table(GameKind::Cut));
  EXPECT_FALSE(has_table(GameKind::Fibonacci));
  EXPECT_FALSE(has_table(GameKind::Code));
  EXPECT_THROW(table_origin(GameKind::Fibonacci), std::invalid_argument);
  EXPECT_THROW(compute_table(GameKind::Code, 10), std::invalid_argument);
  EXPECT_EQ(parse_table_game("Wythoff"), GameKind::Wythoff);
  EXPECT_EQ(parse_table_game("fibonacci"), std::nullopt);
  EXPECT_EQ(parse_table_game("0.77"), std::nullopt);
  EXPECT_STREQ(game_kind_name(GameKind::Cut), "cut");
}

TEST(CodeDigits, EveryCharacter) {
  for (int c = 0; c < 256; ++c) {
    const char ch = static_cast<char>(c);
    const int value = code_digit_value(ch);
    if (!std::isxdigit(c)) {
      EXPECT_EQ(value, -1) << c;
      continue;
    }
    ASSERT_GE(value, 0) << c;
    EXPECT_EQ(value, std::stoi(std::string(1, ch), nullptr, 16)) << c;
    EXPECT_EQ(code_digit_char(static_cast<unsigned>(value)), std::toupper(c)) << c;
  }
}

}  // namespace
}  // namespace sgx
