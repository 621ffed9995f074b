#pragma once
// The catalogue of games: every word the library takes for a game is recognised here and nowhere
// else, and comes back as one parsed Game that solving, tables, the engine and the tools share.
//   0.137  4!.0  sub:1,3,4  kayles ...   heap codes, subtraction sets and their names (rules.hpp)
//   bash:M                               take 1 to M from a heap: the code 0.33...3 with M threes
//   wythoff  fibonacci  cut              the classic games of classic.hpp (not heap codes)
// Adding a game is a word here plus the code that computes it (a kernel, a classic solver).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "sgx/rules.hpp"

namespace sgx {

enum class GameKind { Code, Wythoff, Fibonacci, Cut };

struct Game {
  GameKind kind = GameKind::Code;
  // What reports call the game: the canonical code ("0.77"), or "bash:3", "wythoff", "fibonacci",
  // "cut".
  std::string name;
  // For the reader: "kayles", "take 1 to 3 from a heap, the code 0.333", ... ("" when the name
  // says it all).
  std::string description;
  std::optional<Rules> rules;   // heap codes, bash:M included
  std::uint64_t bash_take = 0;  // M of bash:M, 0 for other games
  bool nim = false;             // the code is Nim (0.[3]): G(n) = n, Bouton's rules apply
};

// bash:M is built as a code with M + 1 digits, so M is limited.
inline constexpr std::uint64_t kMaxBashTake = std::uint64_t{1} << 20;

// Any game word above, in any letter case. Throws ParseError for a malformed code or bash:M.
Game parse_game(std::string_view text);

// The rules of a heap game (a code, a name, a subtraction set or bash:M), for the engine.
// Throws ParseError for a malformed text and for the classic games, which are not heap codes.
Rules parse_heap_game(std::string_view text);

// The classic game a word names, or none (the word is not parsed as a code).
std::optional<GameKind> classic_game_kind(std::string_view text);

// "wythoff", "fibonacci", "cut"; "code" for heap codes.
const char* game_kind_name(GameKind kind);

}  // namespace sgx
