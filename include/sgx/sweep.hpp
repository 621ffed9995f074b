#pragma once
// Batches of games: which games a sweep covers, the work done for each, and the table row it
// produces. sg_sweep runs this over many games, on one machine or across an MPI job.
//
// Games come from a pattern or from a file:
//   0.??   0.???   4.??        '?' is any octal digit 0-7
//   0.[0-3]?7   4.[137]?       [...] is a class of digits: single digits and ranges like 0-3
//   games.txt                  one heap game per line (parse_heap_game, games.hpp); '#' starts a comment
// A bracket in a pattern is always a class, never a repeating tail: list tail codes in a file.

#include <cstdint>
#include <istream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "sgx/engine.hpp"
#include "sgx/period.hpp"
#include "sgx/report.hpp"
#include "sgx/rules.hpp"
#include "sgx/stats.hpp"

namespace sgx {

// A malformed pattern or game list. The message names the place (character or line) and the reason.
class SweepInputError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// Patterns larger than this are refused: they are almost always a typo (0.??????? is 2^21 games).
inline constexpr std::uint64_t kMaxSweepGames = std::uint64_t{1} << 20;

// Every code a pattern stands for, in order (last position fastest: 0.00, 0.01, ..., 0.77).
// Each code is checked with parse_rules; errors name the character of the pattern at fault.
std::vector<std::string> expand_pattern(std::string_view pattern);

// The games listed in a text, one per line; blank lines and '#' comments are skipped. Every game
// is checked with parse_heap_game, and a game listed twice is refused. source names the text in errors.
std::vector<std::string> read_game_list(std::istream& in, const std::string& source);

// A game of a sweep: its text as the pattern or the list gives it (the row's game, the name of its
// run file) and its rules, parsed once and carried from the list to the engine.
struct SweepGame {
  std::string text;
  Rules rules;
};

// The games of --codes SPEC: the lines of the file SPEC when such a file exists, else the pattern;
// each parsed as expand_pattern and read_game_list check it.
std::vector<SweepGame> games_of(const std::string& spec);
// Their texts, in order.
std::vector<std::string> game_texts(const std::vector<SweepGame>& games);

// How far each game of a sweep is computed.
struct SweepSettings {
  std::uint64_t n = 0;  // compute exactly n values (when until_proven is false)
  // Until proven (Engine::compute_until_proven): at least start values, then on until the period
  // is proven or cap values are computed. A game no theorem can prove runs to cap.
  bool until_proven = false;
  std::uint64_t start = std::uint64_t{1} << 12;
  std::uint64_t cap = std::uint64_t{1} << 20;
  // Until proven: a game that costs about n^2 (costs_about_n_squared: no sparse space) stops after
  // this many seconds of processor time (all its threads) in one sitting; 0: no limit.
  double max_seconds = 0;
  // A directory holding one run file per game (run_octal's format, docs/FORMAT.md), saved every
  // checkpoint_every seconds and at the end: a game whose file exists continues from it. "" for none.
  std::string runs;
  double checkpoint_every = 60;
  // With runs: start every game's file anew, replacing a run file there, instead of continuing it.
  bool replace_runs = false;
  // The sweep's command line: each stretch of a game in its run file names it (/provenance).
  std::string command;
  int threads = 0;  // OpenMP threads per game; 0: all available
  // Asked between the engine's steps: true ends the game in progress with a checkpoint (in runs)
  // and throws SweepStopped. Empty: never.
  std::function<bool()> stop_requested;
  // Called after each engine step of a game, with the game and its progress. Empty: nothing.
  std::function<void(const std::string& game, const Progress& progress)> on_step;
};

// A stop request (SweepSettings::stop_requested) ended a game before it finished: its row is not
// written, and its run file (with runs) keeps a checkpoint to continue from.
class SweepStopped : public std::runtime_error {
 public:
  SweepStopped(const std::string& game, std::uint64_t n)
      : std::runtime_error(game + " stopped at n = " + std::to_string(n)), game_(game), n_(n) {}
  const std::string& game() const { return game_; }
  std::uint64_t n() const { return n_; }

 private:
  std::string game_;
  std::uint64_t n_;
};

// What stopped an unproven game (SweepRow::stopped_by); a proven game has "".
inline constexpr const char* kStoppedByMaxN = "max-n";
inline constexpr const char* kStoppedByMaxSeconds = "max-seconds";

// One game's line of the sweep table.
struct SweepRow {
  std::string game;  // as the pattern or the file lists it
  std::uint64_t n = 0;
  // The period as analyze_period gives it, less what a row does not keep: exceptions,
  // applicable_theorem and checked_n (n says it) are left empty.
  PeriodResult period;
  // The rare-value statistics and the largest value, less the histogram.
  SparseStats stats;
  std::string stopped_by;  // "" when proven (or with --n), else kStoppedByMaxN or kStoppedByMaxSeconds
  // The canonical code of a simpler or earlier game with the same sequence ("" if none); see
  // mark_equivalent_games.
  std::string equivalent_to;
  // 16 hex digits identifying the sequence: of the values up to the end of the first period when
  // the period is proven (so equal games agree whatever n each needed), else of all n values.
  std::string sequence_hash;
  double seconds = 0;  // wall time of this game's computation, in the sitting that finished it
  // Values the game's run file held when this sitting continued it (0: computed from the start).
  // Not a column of the CSV: a row is the same however many sittings it took.
  std::uint64_t resumed_from = 0;

  friend bool operator==(const SweepRow&, const SweepRow&) = default;
};

// Computes one game as the settings say and returns its row, through a RunSession (run_session.hpp)
// as run_octal does. With settings.runs, the game's run file is continued if it exists (it must
// hold this game; settings.replace_runs starts it anew instead) and saved as the game goes.
SweepRow sweep_game(const SweepGame& game, const SweepSettings& settings);
// The same for a game's text (parse_heap_game).
SweepRow sweep_game(const std::string& game, const SweepSettings& settings);

// Whether the engine's game costs about n^2 to go on with: from 2^16 values on, it runs the sweep
// kernel, or more than 1/256 of its positions are rare and rare positions still come in the second
// half of its values (each heap is paired with every rare position). The time cap
// SweepSettings::max_seconds applies to such games only; sparse games run to the cap of values.
bool costs_about_n_squared(const Engine& engine);

// The run file of game in settings.runs.
std::string game_run_path(const std::string& runs, const std::string& game);

// True when a row could have come from these settings (used to refuse resuming a table that was
// made with another --n or --max-n).
bool row_fits_settings(const SweepRow& row, const SweepSettings& settings);

// The canonical code of game when the game is not written canonically (0.70 -> 0.7), else "".
std::string canonical_equivalent(const std::string& game);

// Fills equivalent_to for rows given in sweep order: the canonical code when a row's game is not
// written canonically, else the canonical code of the first earlier row with the same
// sequence_hash. Rows are marked, never merged or dropped.
void mark_equivalent_games(std::vector<SweepRow>& rows);

// The table as CSV: a header line, then one line per row; seconds is the last column so that
// tables of different runs compare equal once it is cut off.
const std::string& sweep_csv_header();
std::string to_csv_line(const SweepRow& row);  // without the newline
// Parses one line written by to_csv_line. Throws SweepInputError when it is not such a line.
SweepRow parse_csv_line(std::string_view line);

// The row as sg_sweep --json prints it: the CSV's columns, with the period and the rare-value
// statistics as the same objects as run_octal's (docs/JSON.md), and resumed_from when not 0.
Json sweep_row_json(const SweepRow& row);

// A Markdown table of the rows, columns padded so that it also reads well as plain text.
// seconds and sequence_hash are left out: the table is the same for every run of a sweep.
std::string markdown_table(const std::vector<SweepRow>& rows);

}  // namespace sgx
