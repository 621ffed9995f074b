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
  // Erases the line.
  void finish();

 private:
  bool enabled_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace sgx::cli
