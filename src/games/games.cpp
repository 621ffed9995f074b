#include "sgx/games.hpp"

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "sgx/numbers.hpp"

namespace sgx {

namespace {

constexpr std::string_view kBashPrefix = "bash:";

std::string lower_case(std::string_view text) {
  std::string lower(text);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return lower;
}

Game bash_game(std::string_view text) {
  Game game;
  try {
    game.bash_take = parse_count(text.substr(kBashPrefix.size()), kMaxBashTake);
  } catch (const NumberError& e) {
    throw ParseError(std::string(text), kBashPrefix.size(),
                     std::string("bash:M takes M, the most one move may take: ") + e.what());
  }
  std::vector<Digit> digits(game.bash_take + 1, Digit{kLeaveNone | kLeaveOne, false});
  digits[0] = Digit{};
  game.rules = Rules(std::move(digits), {});
  game.name = std::string(kBashPrefix) + std::to_string(game.bash_take);
  game.description = "take 1 to " + std::to_string(game.bash_take) + " from a heap";
  if (game.bash_take <= 8) game.description.append(", the code ").append(game.rules->canonical());
  return game;
}

// The games that are not heap codes: their word, which is also their name in reports, and what
// they are, for the reader.
struct ClassicGame {
  GameKind kind;
  const char* word;
  const char* description;
};
constexpr ClassicGame kClassicGames[] = {
    {GameKind::Wythoff, "wythoff", "take any number from one heap of a pair, or the same number from both"},
    {GameKind::Fibonacci, "fibonacci", "the first move may not take the whole heap, then at most twice the last take"},
    {GameKind::Cut, "cut", "cut a sheet in two along a grid line; whoever first cuts out a 1 x 1 piece wins"},
};

const ClassicGame* classic_game(GameKind kind) {
  for (const ClassicGame& game : kClassicGames)
    if (game.kind == kind) return &game;
  return nullptr;
}

// The classic game whose word is lower (lower case), or none.
const ClassicGame* classic_game_named(std::string_view lower) {
  for (const ClassicGame& game : kClassicGames)
    if (lower == game.word) return &game;
  return nullptr;
}

}  // namespace

std::optional<GameKind> classic_game_kind(std::string_view text) {
  const ClassicGame* classic = classic_game_named(lower_case(text));
  return classic ? std::optional(classic->kind) : std::nullopt;
}

const char* game_kind_name(GameKind kind) {
  const ClassicGame* game = classic_game(kind);
  return game ? game->word : "code";
}

Game parse_game(std::string_view text) {
  const std::string lower = lower_case(text);
  if (lower.rfind(kBashPrefix, 0) == 0) return bash_game(text);
  Game game;
  if (const ClassicGame* classic = classic_game_named(lower)) {
    game.kind = classic->kind;
    game.name = classic->word;
    game.description = classic->description;
    return game;
  }
  game.rules = parse_rules(text);
  game.name = game.rules->canonical();
  game.nim = game.name == "0.[3]";
  for (const auto& named : named_games())
    if (lower == named.name) game.description = named.name;
  return game;
}

Rules parse_heap_game(std::string_view text) {
  Game game = parse_game(text);
  if (!game.rules)
    throw ParseError(std::string(text), 0,
                     game.name + " is not a heap game: it has no sequence of heap values to compute");
  return std::move(*game.rules);
}

}  // namespace sgx
