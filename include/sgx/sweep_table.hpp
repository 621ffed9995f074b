#pragma once
// The CSV file of a sweep, written as games finish so that a killed sweep loses only the games in
// progress. Each row is appended in one write and flushed to disk (fsync) before the next game is
// counted as done. Resuming reads the rows back, drops a trailing line cut short by the kill, and
// reports which games are already done so that none is computed or written twice.
// When the sweep is complete, the file is rewritten once (temporary file, fsync, rename) in sweep
// order with the equivalences marked.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "sgx/sweep.hpp"

namespace sgx {

// Why a table file cannot serve the sweep at hand. Each is a SweepInputError whose message says
// what the file holds; the fields let a tool advise in its own terms (its options).

// A new table was asked for where a sweep's table exists already (its message says how many rows
// it holds, and of which games).
class SweepTableExistsError : public SweepInputError {
 public:
  SweepTableExistsError(const std::string& path, const std::string& what) : SweepInputError(what), path_(path) {}
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Line line of the table holds game, which is not one of the sweep's games.
class SweepTableOtherGameError : public SweepInputError {
 public:
  SweepTableOtherGameError(std::size_t line, const std::string& game, const std::string& what)
      : SweepInputError(what), line_(line), game_(game) {}
  std::size_t line() const { return line_; }
  const std::string& game() const { return game_; }

 private:
  std::size_t line_;
  std::string game_;
};

// Line line of the table holds game computed to n values, which the sweep's settings would not
// give (another n, or another cap for a sweep until proven).
class SweepTableOtherSettingsError : public SweepInputError {
 public:
  SweepTableOtherSettingsError(std::size_t line, const std::string& game, std::uint64_t n, const std::string& what)
      : SweepInputError(what), line_(line), game_(game), n_(n) {}
  std::size_t line() const { return line_; }
  const std::string& game() const { return game_; }
  std::uint64_t n() const { return n_; }

 private:
  std::size_t line_;
  std::string game_;
  std::uint64_t n_;
};

// What a new SweepTable does with a file already at its path.
enum class ExistingTable {
  Refuse,   // a table may hold a long sweep: it is continued or replaced only when asked
  Resume,   // continue it (or start the table when there is none)
  Replace,  // replace a sweep's table by a new one; anything else is still refused
};

class SweepTable {
 public:
  // Opens path for the sweep over games, doing with an existing file what existing says. Throws
  // SweepInputError when the file is not this sweep's table (a file that is no sweep's table, whatever
  // existing says; a damaged line, a game twice; the kinds above for an existing table not resumed,
  // a game outside the sweep, rows made with other settings) and std::runtime_error when it cannot
  // be read or written. A file refused is left as it is.
  SweepTable(std::string path, const std::vector<std::string>& games, const SweepSettings& settings,
             ExistingTable existing);
  ~SweepTable();
  SweepTable(const SweepTable&) = delete;
  SweepTable& operator=(const SweepTable&) = delete;

  // Rows already in the file, indexed like games (game empty where not done yet).
  const std::vector<SweepRow>& rows() const { return rows_; }
  // Indices of the games still to compute, in sweep order.
  std::vector<std::size_t> pending() const;
  // The rows found in the file when it was opened, and whether a cut-short line was dropped.
  std::size_t resumed_rows() const { return resumed_rows_; }
  bool dropped_partial_line() const { return dropped_partial_line_; }

  // Appends the row of game index, durably. A game already in the table is a logic error.
  void append(std::size_t index, const SweepRow& row);
  // True when every game has its row.
  bool complete() const;
  // Rewrites the file in sweep order with the equivalences marked, and returns those rows.
  std::vector<SweepRow> finish();

 private:
  void read_existing(const std::vector<std::string>& games, const SweepSettings& settings);
  void start_new(ExistingTable existing);
  void write_line(const std::string& line);

  std::string path_;
  int fd_ = -1;
  std::vector<SweepRow> rows_;
  std::vector<bool> done_;
  std::size_t resumed_rows_ = 0;
  bool dropped_partial_line_ = false;
};

}  // namespace sgx
