#pragma once
// One sitting of a run of a heap game: the engine computes to n, or until the period is proven,
// and the run is saved to its run file as it goes (docs/FORMAT.md). run_octal, sg_sweep's games
// with run files and the Python module's sgx.run all compute through a RunSession.
//
// Values go to disk in segment files as they are computed, written by a writer thread while the
// engine computes; every checkpoint_every seconds, and when a stop is requested, the values since
// the last checkpoint and the record of the run, marked unfinished, are written, and a later
// session continues from them. At the end the run is saved finished, with its statistics (counted
// as the values were written, milestones at every power of two included), its period and a row of
// /provenance for this sitting. Each save is written whole and renamed into place, so a kill in
// the middle of one leaves the last whole.
//
// A stop is requested with request_stop (async-signal-safe: a lock-free atomic store), or by a
// stop_requested callback the session asks between engine steps; the library installs no signal
// handlers. A bounded run (EngineOptions::value_memory) releases only values a finished write has
// put on disk, and reads them back from the file for its period analysis.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "sgx/engine.hpp"
#include "sgx/period.hpp"
#include "sgx/report.hpp"
#include "sgx/rules.hpp"
#include "sgx/sequence.hpp"
#include "sgx/store.hpp"

namespace sgx {

class RunFileSaver;  // the writer thread and its checkpoints (private to the library)

// How far a session computes.
struct RunGoal {
  // Exactly n values; until proven, at least n.
  std::uint64_t n = 0;
  // On from n until the period is proven or max_n values are computed (Engine::compute_until_proven).
  bool until_proven = false;
  std::uint64_t max_n = 0;
  // Asked between engine steps: true ends the run there as finished, its period analysed over the
  // values computed (a cap other than n, such as a sweep's limit of processor seconds).
  std::function<bool(const Engine&)> enough;
};

struct RunSessionOptions {
  EngineOptions engine;
  // Bytes the process stays near, 0 for no bound: the engine's value_memory and period_window
  // follow from it (a share of what the program leaves, tuning.hpp), and the run is bounded.
  std::uint64_t memory_limit = 0;
  // The run file, "" for a run kept in memory only (no checkpoints, no resume, not bounded).
  std::string path;
  // Seconds between checkpoints while computing; 0: only when stopped, and at the end.
  double checkpoint_every = 300;
  // This sitting's row of /provenance: the command that started it ("" for none given).
  std::string command;
  // Asked between engine steps besides request_stop: true stops the run with a checkpoint.
  std::function<bool()> stop_requested;
  // Called between engine steps once what was due is saved; checkpointed: a checkpoint finished
  // at this step (its n is saved_n()).
  std::function<void(const Progress&, bool checkpointed)> on_step;
};

// How a session's run ended.
struct RunResult {
  // Stopped by a request before its goal: a checkpoint holds the values so far, marked unfinished.
  bool stopped = false;
  // Ended as finished by RunGoal::enough before n or a proof.
  bool ended_early = false;
  // The last n worked towards: n, or max_n until proven.
  std::uint64_t target = 0;
  // The finished run's record as saved: kernels, statistics, period, provenance (empty when stopped).
  RunInfo info;
  // Whether this sitting computed any value (one that did not adds no row to /provenance, and a
  // finished run it did not extend stays in its file byte for byte).
  bool computed_any = false;
  // Seconds from the session's start to the end of its computing, before the final save.
  double seconds = 0;
};

class RunSession {
 public:
  // A session of the run of rules at options.path: a new run (stored holds only the game,
  // stored.game = rules.canonical(); a run file there is replaced at the first save), or with
  // resume the run stored there (read_run_file) continued. The engine starts from the stored
  // values. A run whose middle was released continues only bounded (std::invalid_argument, as the
  // engine's own refusals of a bound); a bounded run needs a path.
  RunSession(Rules rules, RunRecord stored, bool resume, RunSessionOptions options);
  ~RunSession();
  RunSession(const RunSession&) = delete;
  RunSession& operator=(const RunSession&) = delete;

  // Runs to the goal and saves the finished run; or, stopped, saves a checkpoint. A heap that
  // needs a released value (MemoryReachError) is rethrown after a checkpoint of the values so far.
  RunResult run(const RunGoal& goal);

  // Ends the run at its next engine step, with a checkpoint. Safe in a signal handler.
  void request_stop() noexcept { stop_.store(true, std::memory_order_relaxed); }

  const Engine& engine() const { return *engine_; }
  const Sequence& values() const { return engine_->values(); }
  const Rules& rules() const { return rules_; }
  const RunSessionOptions& options() const { return options_; }
  // False for a run continued from a version-2 file: its released values are in no file.
  bool holds_every_value() const;
  // Values the run held when this session started.
  std::uint64_t stored_n() const { return stored_n_; }
  // n of the last checkpoint finished (or of the file continued).
  std::uint64_t saved_n() const;

 private:
  bool stop_requested() const;
  // The period of every value with the middle released: a checkpoint first puts every value in the
  // file (and leaves the writer thread idle), then the released ones are read back from it.
  PeriodResult analyze_released(std::uint64_t target);
  PeriodResult period_at_end(const RunGoal& goal, std::uint64_t target, bool ended_early);

  Rules rules_;
  RunSessionOptions options_;
  bool resume_;
  bool stored_complete_;
  std::uint64_t stored_n_;
  std::chrono::steady_clock::time_point started_;
  std::atomic<bool> stop_{false};
  std::unique_ptr<RunFileSaver> saver_;  // none for a run in memory only
  std::unique_ptr<Engine> engine_;
};

// run_octal's report of a finished session: what the run file records, the session's timing and
// the process's peak memory (no b-file: the caller adds what it wrote besides the run).
RunReport run_report(const RunSession& session, const RunResult& result);

}  // namespace sgx
