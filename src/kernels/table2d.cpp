#include "sgx/table2d.hpp"

#include <omp.h>

#include <algorithm>
#include <bit>
#include <limits>

#include "sgx/period.hpp"
#include "base/tuning.hpp"

// How the table is computed.
//
// Order. Both games are symmetric, so only cells i <= j of the upper triangle are computed (i, j
// are table indices, a = origin + i, b = origin + j), and each writes both G(a, b) and G(b, a).
// The triangle is cut into tiles of kTile x kTile cells; tile (I, J), I <= J, runs in wave I + J.
// The tiles of one wave run in parallel, waves one after the other, and inside a tile the cells
// run row by row, left to right. So when cell (i, j) runs, every cell (i', j') of the triangle
// with i' <= i and j' <= j has run (an earlier wave, or earlier in the same tile), and no later
// one has. Every value a cell reads is of that kind: for (a, b), a <= b, both games read G(a, y),
// y < b, and G(x, b) = G(b, x), x < a, and Wythoff's game also G(a - d, b - d).
// Tiles of one wave share no row and no diagonal: tile (I, J) holds rows in bands I and J (the
// mirror writes go to row b) and diagonals j - i within kTile of (J - I) kTile, and in one wave
// every other tile has other bands and J - I differing by at least 2. So the parallel tiles never
// touch the same row, nor the same bit set below: no locks, no atomics.
//
// Tiles rather than single anti-diagonals: a wave of single cells is a few microseconds of work,
// and with sleeping OpenMP waits (what the tools ask for) a barrier costs about as much.
//
// Wythoff's game: the mex over a row, a column and a diagonal. Every cell (a, b) adds its value to
// three growing bit sets, of row a, of row b (= column b, by symmetry) and of diagonal b - a; in
// the order above, when (a, b) runs, row a's set holds exactly G(a, 0..b-1), row b's set exactly
// G(b, 0..a-1) = G(0..a-1, b), and the diagonal's exactly G(a - d, b - d), d = 1..a. The mex is
// the first zero bit of their union, scanned a 64-bit word at a time from the first word that is
// not full in all three (each set remembers its first non-full word; sets only grow). That is
// O(n / 64) per cell instead of the O(n) options.
//
// The cutting game: the options are XORs of two values, so there is no set to grow; each cell
// marks its options in a per-thread array with a stamp (no clearing between cells) and scans for
// the first unmarked value. A mex is at most the number of options, so larger XORs are skipped.

namespace sgx {

namespace {

constexpr std::uint64_t kTile = tuning::kTableTile;

int thread_count(int threads) { return threads > 0 ? threads : omp_get_max_threads(); }

// The largest value a cell can have, known before computing: a mex is at most the number of
// options. Wythoff: a + b + min(a, b) <= 3 (n - 1). Cutting game: at most a/2 - 1 row cuts and
// b/2 - 1 column cuts that differ, so at most n.
Value value_bound(GameKind game, std::uint64_t n) {
  return static_cast<Value>(game == GameKind::Wythoff ? 3 * (n - 1) : n);
}

// Runs cell(i, j, thread) for every 0 <= i <= j < side in the order described at the top.
template <class Cell>
void run_wavefront(std::uint64_t side, int threads, const TableProgress& progress, const Cell& cell) {
  const std::uint64_t tiles = (side + kTile - 1) / kTile;
  const std::uint64_t total = side * (side + 1) / 2;
  std::uint64_t done = 0;
  for (std::uint64_t wave = 0; wave + 1 < 2 * tiles; ++wave) {
    const std::uint64_t first = wave < tiles ? 0 : wave - (tiles - 1);  // tile rows I of this wave,
    const std::uint64_t last = wave / 2;                                // I <= J = wave - I
    const auto count = static_cast<std::int64_t>(last - first + 1);
    std::uint64_t cells = 0;
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads) if (count > 1) reduction(+ : cells)
    for (std::int64_t k = 0; k < count; ++k) {
      const std::uint64_t tile_row = first + static_cast<std::uint64_t>(k), tile_column = wave - tile_row;
      const int thread = omp_get_thread_num();
      const std::uint64_t row_end = std::min(side, (tile_row + 1) * kTile);
      const std::uint64_t column_end = std::min(side, (tile_column + 1) * kTile);
      for (std::uint64_t i = tile_row * kTile; i < row_end; ++i)
        for (std::uint64_t j = std::max(i, tile_column * kTile); j < column_end; ++j) {
          cell(i, j, thread);
          ++cells;
        }
    }
    done += cells;
    if (progress) progress(done, total);
  }
}

// The bit sets of Wythoff's game (see the top of the file): sets 0..n-1 for rows, n..2n-1 for
// diagonals b - a.
class WythoffSets {
 public:
  explicit WythoffSets(std::uint64_t n, Value bound)
      : n_(n), words_(bound / 64 + 1), bits_(2 * n * words_, 0), full_(2 * n, 0) {}

  Value mex(std::uint64_t a, std::uint64_t b) const {
    const std::uint64_t* row_a = set(a);
    const std::uint64_t* row_b = set(b);
    const std::uint64_t* diagonal = set(n_ + b - a);
    std::uint64_t w = std::max({full_[a], full_[b], full_[n_ + b - a]});
    std::uint64_t seen = row_a[w] | row_b[w] | diagonal[w];
    while (seen == ~std::uint64_t{0}) {
      ++w;
      seen = row_a[w] | row_b[w] | diagonal[w];
    }
    return static_cast<Value>(64 * w + static_cast<std::uint64_t>(std::countr_one(seen)));
  }

  void add(std::uint64_t a, std::uint64_t b, Value value) {
    insert(a, value);
    if (b != a) insert(b, value);
    insert(n_ + b - a, value);
  }

 private:
  const std::uint64_t* set(std::uint64_t k) const { return bits_.data() + k * words_; }
  void insert(std::uint64_t k, Value value) {
    std::uint64_t* words = bits_.data() + k * words_;
    words[value / 64] |= std::uint64_t{1} << (value % 64);
    while (full_[k] < words_ && words[full_[k]] == ~std::uint64_t{0}) ++full_[k];
  }

  std::uint64_t n_;
  std::uint64_t words_;  // per set: values up to the bound, and a zero bit past it
  std::vector<std::uint64_t> bits_;
  std::vector<std::uint64_t> full_;  // per set: its words before this one are all ones
};

template <class T>
void fill_wythoff(T* cells, std::uint64_t n, int threads, const TableProgress& progress) {
  WythoffSets sets(n, value_bound(GameKind::Wythoff, n));
  run_wavefront(n, threads, progress, [&](std::uint64_t a, std::uint64_t b, int) {
    const Value value = sets.mex(a, b);
    sets.add(a, b, value);
    cells[a * n + b] = cells[b * n + a] = static_cast<T>(value);
  });
}

// The "seen" marks of one thread for the cutting game: value v is seen in the current cell when
// stamp[v] == current.
struct StampedMarks {
  std::vector<std::uint32_t> stamp;
  std::uint32_t current = 0;
};

template <class T>
void fill_cut(T* cells, std::uint64_t n, int threads, const TableProgress& progress) {
  constexpr std::uint64_t origin = 2;
  const std::uint64_t side = n - origin;
  // At most side^2 / 2 < 2^27 cells per thread: the stamps never wrap.
  std::vector<StampedMarks> marks(static_cast<std::size_t>(threads));
  for (auto& m : marks) m.stamp.assign(n + 1, 0);
  run_wavefront(side, threads, progress, [&](std::uint64_t i, std::uint64_t j, int thread) {
    const std::uint64_t a = origin + i, b = origin + j;
    // G(a, x) = row_a[x - 2] (the table is held in full, both halves).
    const T* row_a = cells + i * side;
    const T* row_b = cells + j * side;
    StampedMarks& m = marks[static_cast<std::size_t>(thread)];
    const std::uint32_t now = ++m.current;
    const std::uint64_t options = (a / 2 >= 2 ? a / 2 - 1 : 0) + (b / 2 >= 2 ? b / 2 - 1 : 0);
    // Cuts across the rows, i x b and (a - i) x b: G(i, b) = G(b, i) is in row b.
    for (std::uint64_t x = 2; 2 * x <= a; ++x) {
      const std::uint64_t v = row_b[x - origin] ^ row_b[a - x - origin];
      if (v <= options) m.stamp[v] = now;
    }
    // Cuts across the columns, a x j and a x (b - j).
    for (std::uint64_t y = 2; 2 * y <= b; ++y) {
      const std::uint64_t v = row_a[y - origin] ^ row_a[b - y - origin];
      if (v <= options) m.stamp[v] = now;
    }
    std::uint64_t value = 0;
    while (m.stamp[value] == now) ++value;
    cells[i * side + j] = cells[j * side + i] = static_cast<T>(value);
  });
}

// The same values in the narrowest type that holds the largest.
Sequence narrowest(Sequence cells) {
  Sequence narrow;
  narrow.widen_to_hold(cells.max_value());
  if (narrow.bytes_per_value() == cells.bytes_per_value()) return cells;
  narrow.resize(cells.size());
  narrow.visit([&cells](auto& out) {
    using Out = typename std::decay_t<decltype(out)>::value_type;
    cells.visit([&out](const auto& in) {
      std::transform(in.begin(), in.end(), out.begin(), [](auto v) { return static_cast<Out>(v); });
    });
  });
  return narrow;
}

}  // namespace

bool has_table(GameKind kind) { return kind == GameKind::Wythoff || kind == GameKind::Cut; }

std::optional<GameKind> parse_table_game(std::string_view text) {
  const std::optional<GameKind> kind = classic_game_kind(text);
  if (kind && has_table(*kind)) return kind;
  return std::nullopt;
}

std::uint64_t table_origin(GameKind game) {
  if (!has_table(game)) throw std::invalid_argument(std::string(game_kind_name(game)) + " has no table of pairs");
  return game == GameKind::Wythoff ? 0 : 2;
}

void check_table_n(GameKind game, std::uint64_t n) {
  if (n <= table_origin(game)) {
    throw TableSizeError(game == GameKind::Wythoff
                             ? std::string("a table of Wythoff's game needs n of at least 1")
                             : "a table of the cutting game needs n of at least 3: sheets start at 2 x 2, so n = " +
                                   std::to_string(n) + " holds none");
  }
  if (n > kMaxTableN) {
    std::string message = "n = ";
    message.append(std::to_string(n))
        .append(" is too large for a two-dimensional table: at most ")
        .append(std::to_string(kMaxTableN))
        .append(" (2^14, whose n^2 values take 512 MiB)");
    throw TableSizeError(message);
  }
}

GameTable::GameTable(GameKind game, std::uint64_t n, Sequence cells)
    : game_(game), n_(n), origin_(table_origin(game)), cells_(std::move(cells)) {
  if (n_ <= origin_ || cells_.size() != side() * side())
    throw std::invalid_argument("a table of " + std::string(game_kind_name(game)) + " for n = " + std::to_string(n) +
                                " needs " + std::to_string(n_ > origin_ ? side() * side() : 0) + " values, not " +
                                std::to_string(cells_.size()));
}

std::vector<Value> GameTable::row(std::uint64_t a) const {
  std::vector<Value> out(side());
  for (std::uint64_t b = origin_; b < n_; ++b) out[b - origin_] = at(a, b);
  return out;
}

GameTable compute_table(GameKind game, std::uint64_t n, int threads, const TableProgress& progress) {
  check_table_n(game, n);
  const std::uint64_t side = n - table_origin(game);
  Sequence cells;
  cells.widen_to_hold(value_bound(game, n));
  cells.resize(side * side);
  const int workers = thread_count(threads);
  cells.visit([&](auto& v) {
    if (game == GameKind::Wythoff)
      fill_wythoff(v.data(), n, workers, progress);
    else
      fill_cut(v.data(), n, workers, progress);
  });
  return GameTable(game, n, narrowest(std::move(cells)));
}

std::vector<RowPeriod> analyze_rows(const GameTable& table, int threads) {
  const std::uint64_t side = table.side();
  std::vector<RowPeriod> rows(side);
  table.cells().visit([&](const auto& v) {
#pragma omp parallel for schedule(dynamic, tuning::kTableRowsPerTask) num_threads(thread_count(threads))
    for (std::int64_t k = 0; k < static_cast<std::int64_t>(side); ++k) {
      const auto i = static_cast<std::uint64_t>(k);
      const PeriodResult p = find_additive_period(std::span(v.data() + i * side, side));
      if (p.found) rows[i] = {true, table.origin() + p.preperiod, p.period, p.saltus};
    }
  });
  return rows;
}

}  // namespace sgx
