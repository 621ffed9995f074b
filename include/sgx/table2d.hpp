#pragma once
// Two-dimensional tables of Sprague-Grundy values, G(a, b) over pairs of numbers, for the games of
// classic.hpp whose positions are pairs: Wythoff's game (two heaps) and the cutting game (a sheet
// of a x b squares), and the additive periodicity of every row: G(a, b + p) = G(a, b) + s for
// b >= b0. Dress, Flammenkamp and Pink (Additive periodicity of the Sprague-Grundy function of
// certain Nim games, Adv. Appl. Math. 22, 1999) proved that every row of Wythoff's game is
// additively periodic; the analysis here finds the period of each row from the values alone.
//
// What the table holds. Wythoff's game: every pair 0 <= a, b < n. The cutting game: only sheets
// with both sides at least 2, 2 <= a, b < n (the rule of classic.hpp: a sheet with a side of 1 is
// never played to, so it has no value). The smallest side held is the table's origin (0 or 2).
//
// Both games are symmetric, G(a, b) = G(b, a), and every option of (a, b) has a smaller a + b: the
// table is computed on the upper triangle only, in tiles along anti-diagonals (table2d.cpp).

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "sgx/games.hpp"
#include "sgx/sequence.hpp"

namespace sgx {

// The games of the catalogue (games.hpp) that have a table of pairs: Wythoff's game and the cutting
// game. The functions below take only these; game_kind_name gives the name in files and reports.
bool has_table(GameKind kind);
// The game a word names ("wythoff" or "cut", in any case) when it has a table; nothing otherwise.
std::optional<GameKind> parse_table_game(std::string_view text);
// The smallest side in the table: 0 for Wythoff's game, 2 for the cutting game.
std::uint64_t table_origin(GameKind game);

// The largest n a table is computed for: n^2 values of 16 bits (the bound below) are 512 MiB at
// 2^14, and Wythoff's game at 2^14 takes minutes, the cutting game (O(n^3)) far longer.
inline constexpr std::uint64_t kMaxTableN = std::uint64_t{1} << 14;

// An n a table cannot be computed for. The message says why, without naming any option.
class TableSizeError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// Throws TableSizeError unless origin < n <= kMaxTableN (a table with at least one position).
void check_table_n(GameKind game, std::uint64_t n);

// G(a, b) for origin <= a, b < n, row by row, in the narrowest unsigned type that holds them.
class GameTable {
 public:
  // cells: side() x side() values, row-major: cells[(a - origin) * side + (b - origin)] = G(a, b).
  // Throws std::invalid_argument when their number does not fit n.
  GameTable(GameKind game, std::uint64_t n, Sequence cells);

  GameKind game() const { return game_; }
  std::uint64_t n() const { return n_; }
  std::uint64_t origin() const { return origin_; }
  std::uint64_t side() const { return n_ - origin_; }  // rows held, and values in each row
  const Sequence& cells() const { return cells_; }

  // G(a, b); origin <= a, b < n.
  Value at(std::uint64_t a, std::uint64_t b) const { return cells_[(a - origin_) * side() + (b - origin_)]; }
  // Row a, G(a, origin..n-1), as a std::vector<Value>.
  std::vector<Value> row(std::uint64_t a) const;
  Value max_value() const { return cells_.max_value(); }

 private:
  GameKind game_;
  std::uint64_t n_;
  std::uint64_t origin_;
  Sequence cells_;
};

// Called now and then while a table is computed: cells done and cells in all (upper triangle).
using TableProgress = std::function<void(std::uint64_t done, std::uint64_t total)>;

// Computes the table of game for sides below n; threads 0 uses OpenMP's default. Throws
// TableSizeError for an n check_table_n refuses.
GameTable compute_table(GameKind game, std::uint64_t n, int threads = 0, const TableProgress& progress = {});

// The additive period of one row a, G(a, b + period) = G(a, b) + saltus for b >= preperiod, found
// by find_additive_period (period.hpp: two full periods plus sixteen relations, in the last quarter
// of the row at least). preperiod is a value of b (for the cutting game at least 2).
struct RowPeriod {
  bool found = false;
  std::uint64_t preperiod = 0;
  std::uint64_t period = 0;
  std::int64_t saltus = 0;
  friend bool operator==(const RowPeriod&, const RowPeriod&) = default;
};

// One RowPeriod per row, rows origin..n-1 in order.
std::vector<RowPeriod> analyze_rows(const GameTable& table, int threads = 0);

}  // namespace sgx
