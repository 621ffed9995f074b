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

#include "sgx/report.hpp"

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

// The games of --codes SPEC: the lines of the file SPEC when such a file exists, else the pattern.
std::vector<std::string> games_of(const std::string& spec);

// How far each game of a sweep is computed.
struct SweepSettings {
  std::uint64_t n = 0;  // compute exactly n values (when until_proven is false)
  bool until_proven = false;
  std::uint64_t start = std::uint64_t{1} << 12;  // until_proven: first size, doubled ...
  std::uint64_t cap = std::uint64_t{1} << 20;    // ... while unproven, up to this many values
  int threads = 0;                               // OpenMP threads per game; 0: all available
};

// One game's line of the sweep table.
struct SweepRow {
  std::string game;  // as the pattern or the file lists it
  std::uint64_t n = 0;
  bool period_found = false;
  std::uint64_t period = 0;
  std::uint64_t preperiod = 0;
  std::int64_t saltus = 0;
  bool proven = false;
  std::string theorem;  // the theorem that proved the period; "" unless proven
  std::uint64_t max_value = 0;
  std::uint64_t max_at = 0;
  RareMask rare_mask;
  std::uint64_t rare_count = 0;
  std::int64_t last_rare = -1;
  // The canonical code of a simpler or earlier game with the same sequence ("" if none); see
  // mark_equivalent_games.
  std::string equivalent_to;
  // 16 hex digits identifying the sequence: of the values up to the end of the first period when
  // the period is proven (so equal games agree whatever n each needed), else of all n values.
  std::string sequence_hash;
  double seconds = 0;  // wall time of this game's computation

  friend bool operator==(const SweepRow&, const SweepRow&) = default;
};

// Computes one game as the settings say and returns its row.
SweepRow sweep_game(const std::string& game, const SweepSettings& settings);

// True when a row could have come from these settings (used to refuse resuming a table that was
// made with another --n or cap).
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
// statistics as the same objects as run_octal's (docs/JSON.md).
Json sweep_row_json(const SweepRow& row);

// A Markdown table of the rows, columns padded so that it also reads well as plain text.
// seconds and sequence_hash are left out: the table is the same for every run of a sweep.
std::string markdown_table(const std::vector<SweepRow>& rows);

}  // namespace sgx
