#pragma once
// The one-line status on stderr during long runs: only when stderr is a terminal, at most a few
// times per second, erased when the run ends, so nothing of it reaches redirected output or logs.

#include <chrono>
#include <cstdint>
#include <string>

#include "sgx/engine.hpp"

namespace sgx::cli {

class StatusLine {
 public:
  explicit StatusLine(bool wanted);
  ~StatusLine() { finish(); }
  // Shows the engine's progress if enough time has passed since the last update.
  void update(const Progress& progress);
  // The same for a two-dimensional table: cells computed of all.
  void update_cells(std::uint64_t done, std::uint64_t total);
  // Erases the line.
  void finish();
  // A note shown at the end of the line from now on ("" for none), e.g. what the run waits for.
  void set_note(std::string note) { note_ = std::move(note); }

 private:
  // Whether a new line is due now; starts the clock of the next.
  bool due();
  // "n 123/456 (27.0%)  ... values/s  elapsed 1s  left 3s" with what and unit naming the counts.
  void show(const char* what, const char* unit, std::uint64_t done, std::uint64_t total, const std::string& extra);

  bool enabled_;
  bool shown_ = false;
  std::string note_;
  std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace sgx::cli
