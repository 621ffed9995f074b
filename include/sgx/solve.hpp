#pragma once
// Positions of impartial games: the value, who wins, and every winning move.
//
// The games are those of the catalogue (games.hpp, parse_game). A position is a list of
// components played side by side (a move changes exactly one):
//   code games (kayles, 0.137, bash:M, ...)  a heap {h}
//   wythoff                                  a pair of heaps {a, b}
//   fibonacci                                a heap and the most the mover may take {n, limit}
//   cut                                      a sheet {rows, columns}
// Normal play (the player who cannot move loses): by Sprague-Grundy the value of the position is
// the XOR of the components' values, and a move is winning exactly when it leaves value 0. Note
// that a winning option of component i has value G(i) ^ total, and that value may be larger than
// G(i) as well as smaller (options can have values above their heap's own), so every option is
// examined, never only the smaller values.
// Misere play (whoever makes the last move, taking the last token, loses): no XOR shortcut in general
// (Conway, On Numbers and Games ch. 12; Plambeck's misere quotients), so positions are searched
// whole, memoised over multisets of heaps, up to a size limit. Nim has Bouton's exact rule.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "sgx/games.hpp"
#include "sgx/rules.hpp"
#include "sgx/sequence.hpp"

namespace sgx {

// A position this module cannot solve as asked (a heap beyond a limit, a rule that does not
// apply). The message says what was asked and which limit or rule stands in the way; the tools
// treat it as bad input, and the two kinds below carry their numbers, for the advice a caller
// can give (run_octal for more values, a file of them).
class SolveError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// A heap of a code game beyond the values given in SolveOptions::stored_values: they hold
// G(0..stored_n - 1).
class HeapBeyondStoredValuesError : public SolveError {
 public:
  HeapBeyondStoredValuesError(std::uint64_t heap, std::uint64_t stored_n, const std::string& what)
      : SolveError(what), heap_(heap), stored_n_(stored_n) {}
  std::uint64_t heap() const { return heap_; }
  std::uint64_t stored_n() const { return stored_n_; }

 private:
  std::uint64_t heap_;
  std::uint64_t stored_n_;
};

// A heap of a code game beyond what solve computes on the spot when no values are given: heaps
// up to limit (kMaxComputedHeap, or kMaxComputedHeapWithTail for codes with a repeating tail).
class HeapBeyondComputedValuesError : public SolveError {
 public:
  HeapBeyondComputedValuesError(std::uint64_t heap, std::uint64_t limit, const std::string& what)
      : SolveError(what), heap_(heap), limit_(limit) {}
  std::uint64_t heap() const { return heap_; }
  std::uint64_t limit() const { return limit_; }

 private:
  std::uint64_t heap_;
  std::uint64_t limit_;
};

// Heaps whose values solve computes on the spot with the engine; larger ones need stored values.
// Codes with a repeating tail have moves at every take, so they cost far more.
inline constexpr std::uint64_t kMaxComputedHeap = std::uint64_t{1} << 20;
inline constexpr std::uint64_t kMaxComputedHeapWithTail = std::uint64_t{1} << 12;

// One component of a position (see the table at the top of this file).
using Component = std::vector<std::uint64_t>;

// The command-line words of a position: heaps for code games and fibonacci (a fibonacci heap at
// the start is "20", later "18/4" for 18 tokens of which at most 4 may be taken), pairs of heaps
// for wythoff (two words per game), sheets "4x7" for cut. Throws SolveError naming the word.
std::vector<Component> parse_position(const Game& game, const std::vector<std::string>& words);

// One component as text: "3", "(3, 5)", "18/4", "4x7".
std::string component_text(const Game& game, const Component& component);

struct Move {
  std::size_t index = 0;  // which component, counting from 0
  Component from;
  std::vector<Component> to;  // what the move leaves in its place (nothing when a heap is taken)
  friend bool operator==(const Move&, const Move&) = default;
};

// A move as the tools print it, counting components from 1: "heap 1: 3 -> 1", "heap 2: 7 -> 2 + 3",
// "pair 1: (4, 7) -> (3, 5)", "sheet 1: 4x7 -> 2x7 + 2x7", "heap 1: 20 -> 19/1  (take 1)".
std::string move_text(const Game& game, const Move& move);

struct Solution {
  // Normal play: the Sprague-Grundy value of the position. Misere play: the misere Grundy value of
  // the whole position, G-(terminal) = 1 (not a XOR of anything). Empty when not computed (a
  // single Fibonacci Nim or Wythoff game too large for the value table; its outcome is exact).
  std::optional<std::uint64_t> value;
  bool mover_wins = false;
  std::vector<Move> winning_moves;  // ordered by component, then as the moves are enumerated
  std::string method;               // how the answer was found, for the reader
};

struct SolveOptions {
  bool misere = false;
  // Normal-play values of a code game stored in a run file, used instead of the engine.
  const Sequence* stored_values = nullptr;
  std::string stored_name;  // the file, for messages
};

Solution solve(const Game& game, const std::vector<Component>& position, const SolveOptions& options);

// ---- Code games, one heap at a time ----

// Calls visit with every option of one heap (the heaps left, non-empty, increasing), each
// distinct multiset once: taking all, one heap, two heaps a <= b (a < b with '!'), three heaps.
void for_each_option(const Rules& rules, std::uint64_t heap,
                     const std::function<void(const std::vector<std::uint64_t>&)>& visit);

// The options of for_each_option, listed.
std::vector<std::vector<std::uint64_t>> heap_options(const Rules& rules, std::uint64_t heap);

// Misere play, Bouton: with some heap >= 2 the player to move wins exactly when the nim-sum is
// non-zero; with every heap <= 1, exactly when the number of heaps of one is even. The misere
// Grundy value is the nim-sum, or the nim-sum ^ 1 when every heap is <= 1 (Nim is tame).
std::uint64_t misere_nim_value(const std::vector<std::uint64_t>& heaps);

// Misere Grundy values of code-game positions by a search over sorted multisets of heaps, memoised.
// Refuses (SolveError) positions of more than token_limit tokens or searches beyond entry_limit.
class MisereSearch {
 public:
  static constexpr std::uint64_t kDefaultTokenLimit = 40;
  static constexpr std::uint64_t kDefaultEntryLimit = 2'000'000;

  explicit MisereSearch(Rules rules, std::uint64_t token_limit = kDefaultTokenLimit,
                        std::uint64_t entry_limit = kDefaultEntryLimit);
  ~MisereSearch();
  MisereSearch(const MisereSearch&) = delete;
  MisereSearch& operator=(const MisereSearch&) = delete;

  std::uint64_t value(const std::vector<std::uint64_t>& heaps);
  std::uint64_t positions_searched() const;

 private:
  struct Memo;
  std::uint64_t search(const std::string& state);  // state: sorted heap sizes, one byte each

  Rules rules_;
  std::uint64_t token_limit_;
  std::uint64_t entry_limit_;
  std::unique_ptr<Memo> memo_;
};

}  // namespace sgx
