#pragma once
// Progress on stderr during long runs. On a terminal, a one-line status redrawn a few times per
// second and erased when the run ends (StatusLine). Anywhere else (a batch job's log file), plain
// lines, no carriage returns or escape codes, every so many seconds and at every checkpoint
// (ProgressLog). Each shows itself only where the other does not.

#include <chrono>
#include <cstdint>
#include <string>

#include "sgx/engine.hpp"

namespace sgx::cli {

// The work of heaps 0..n-1 under a kernel, in heaps of the sparse kernel's fixed cost: the sparse
// kernel's heaps cost about the same each (its rare pairs and scan do not grow with n), while a
// heap of n has n / 2 pairs for the sweep and the naive kernel, so their work to n grows as n^2.
double work_to(KernelKind kernel, std::uint64_t n);

// The time a run has left, from the rate of work measured since the kernel computing now took over:
// at a quadratic kernel's 25%, three quarters of the values are fifteen sixteenths of the work.
class WorkClock {
 public:
  // Seconds left at elapsed seconds into the run; -1 while the rate is not known yet.
  double seconds_left(const Progress& progress, double elapsed);

 private:
  bool started_ = false;
  KernelKind kernel_ = KernelKind::Sparse;
  std::uint64_t n0_ = 0;
  double t0_ = 0;
};

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
  // left: seconds, -1 for unknown.
  void show(const char* what, const char* unit, std::uint64_t done, std::uint64_t total, double left,
            const std::string& extra);

  bool enabled_;
  WorkClock clock_;
  bool shown_ = false;
  std::string note_;
  std::chrono::steady_clock::time_point start_, last_;
};

// Plain progress lines for logs, when wanted and stderr is not a terminal:
//   run_octal: 2026-11-25 14:40:01 n 123456789/268435456 (46.0%)  2.1e+06 values/s  left 1m09s
//     resident 310M  file 96.0M
// with the resident memory of the process and the size of the output file.
class ProgressLog {
 public:
  // every_seconds: a line at most this often (0: only at checkpoints); first_n: values the run
  // started from (a resumed run's stored values), so that the rate counts this run's only.
  ProgressLog(const char* tool, bool wanted, double every_seconds, std::string file, std::uint64_t first_n);
  // A line if every_seconds have passed since the last.
  void update(const Progress& progress);
  // A line after a checkpoint of saved_n values: progress as of now (the engine may have gone on
  // while the checkpoint was written), " checkpoint of N values" added.
  void checkpoint(const Progress& progress, std::uint64_t saved_n);
  // A note added to every line from now on ("" for none), e.g. what the run waits for.
  void set_note(std::string note) { note_ = std::move(note); }
  // The last line of a run that reached its end, in a log that has lines already (a run too short
  // for a progress line stays silent): n, the values computed, time, rate, largest value and rare
  // positions, resident memory and the file's size.
  void finish(std::uint64_t n, const SparseStats& stats);

 private:
  void write(const Progress& progress, const std::string& event);

  const char* tool_;
  bool enabled_;
  double every_seconds_;
  std::string file_;
  std::string note_;
  std::uint64_t first_n_;
  WorkClock clock_;
  std::uint64_t lines_ = 0;  // written so far
  std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace sgx::cli
