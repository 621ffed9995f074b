#pragma once
// The engine: computes G(0..n-1) of a heap game with one of several kernels.
//   naive   the textbook loop with a bitset mex; the reference the tests trust
//   sparse  the rare-value method (docs/THEORY.md section 4), exact for every code
//   sweep   exhaustive XOR-pair sweep, block-parallel, for games with no useful sparse space
//   auto    sparse while the rare list is sparse, sweep while it is not (checked as n grows)
// The engine looks for the period as it goes, at the sizes next_proof_target names (period.hpp):
// once a period is proven the remaining values follow from it, unless the shortcut is turned off,
// and compute_until_proven stops there. On more than one thread, a look at a million values or
// more runs beside the kernels, and its result is taken a step or so later.

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "sgx/kernel_kind.hpp"
#include "sgx/period.hpp"
#include "sgx/rules.hpp"
#include "sgx/sequence.hpp"
#include "sgx/sparse_state.hpp"
#include "sgx/work_span.hpp"

namespace sgx {

struct EngineOptions {
  KernelKind kernel = KernelKind::Auto;
  int threads = 0;             // 0: all available (OpenMP default)
  bool period_shortcut = true; // fill values from a proven period
  // Bounded memory (run_octal --memory): bytes the kept values may take, 0 for no bound. Once the
  // values outgrow it, only a prefix and a tail are kept (sequence.hpp); see Engine.
  std::uint64_t value_memory = 0;
  // Time every task of the kernels' parallel regions for work_span() (run_octal --profile). Costs
  // two reads of the time-stamp counter per task of thousands of pairs.
  bool profile = false;
  // Differences the period analysis compares at most (analyze_period; less under --memory).
  std::uint64_t period_window = kPeriodWindow;
};

// What the engine reports while it runs; return false from the callback to stop early.
struct Progress {
  std::uint64_t n = 0;         // values computed so far
  std::uint64_t target = 0;
  Value max_value = 0;
  std::uint64_t rare_count = 0;  // under the best mask of the values so far (the sparse kernel's own)
  KernelKind kernel = KernelKind::Sparse;  // computing now: its work a heap sets how long the rest takes
};
using ProgressCallback = std::function<bool(const Progress&)>;

class Kernel;  // one kernel's state (kernel.hpp, private to the library)
struct WorkSpanTicks;  // the work-span profile's running totals (task_clock.hpp)

// Bounded memory: with options.value_memory set, the engine keeps every value while they fit in
// it, then only G(0..P-1) and the last T values, P + T fitting it at two bytes a value (P = 1/4
// of it). Only the sparse kernel runs bounded: it reads G(r) for rare r (kept apart), partners near
// n (the tail) and small parts (the prefix); the mask no longer changes once values are released,
// and the engine no longer looks for a period to fill values from (the period analysis of such
// values reads the released ones from the run's file: period.hpp). A value that needs a released
// one stops compute_to with
// MemoryReachError. Games with repeating tails or three-heap splits read every value and are
// refused (std::invalid_argument).
class Engine {
 public:
  Engine(Rules rules, EngineOptions options);
  // Continues from values already known (a resumed run). A bounded run whose values were released
  // also needs the rare-value state saved with them.
  Engine(Rules rules, EngineOptions options, Sequence known_values,
         std::optional<SparseState> sparse_state = std::nullopt);
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Extends the sequence to n values. Returns false if the callback asked to stop. The callback
  // runs between steps sized to take a fraction of a second each (at most 65536 values).
  bool compute_to(std::uint64_t n, const ProgressCallback& progress = {});
  // Computes at least min_n values, then on until the period is proven or max_n values are
  // computed (min_n <= max_n), looking for it at the sizes next_proof_target names: twice the
  // last, or at once what the proof of a period seen needs. Each look is one pass over the values,
  // so all of them together cost about two passes over the last size. It stops at min_n when
  // nothing can be proven: no theorem applies to the game, or values were released (bounded runs).
  // Returns false if the callback asked to stop. Afterwards last_period() analyses every value
  // computed (unless values were released).
  bool compute_until_proven(std::uint64_t min_n, std::uint64_t max_n, const ProgressCallback& progress = {});

  const Sequence& values() const { return values_; }
  const Rules& rules() const { return rules_; }
  // The proven period, once found (looked for while the shortcut is on, or compute_until_proven runs).
  const std::optional<PeriodResult>& proven_period() const { return proven_period_; }
  // The latest look for the period, proven or not (checked_n says over how many values; 0 before
  // the first look). proof_wait_text(last_period()) says what a run until proven waits for.
  const PeriodResult& last_period() const { return last_period_; }
  // The kernel computing now.
  KernelKind active_kernel() const { return active_; }
  // Fills further values from a period proven earlier (a resumed bounded run, which cannot prove
  // it again without its released values).
  void continue_period(const PeriodResult& proven);
  // Kernels used so far, e.g. "sparse" or "sparse+sweep" or "sparse+period".
  std::string kernels_used() const;
  // Rare positions under the best mask so far: the running sparse kernel's rare list, or for the
  // other kernels, which keep none, counted from the values as the engine goes.
  std::uint64_t live_rare_count() const;
  // The running sparse kernel's state with the largest value so far (nothing for other kernels).
  std::optional<SparseState> sparse_state() const;
  bool bounded() const { return options_.value_memory > 0; }
  // The work and span of every compute_to so far (the callbacks' time left out), and the threads
  // they had; all zero unless options.profile is set. See sgx/work_span.hpp.
  WorkSpan work_span() const;
  // Bounded runs: values from n on are not released (they are not on disk yet); the run's file
  // writer raises it as it writes. No limit until called.
  void set_release_limit(std::uint64_t n) { release_limit_ = n; }
  // Bounded runs until proven: how a look for the period is made once values are released, the
  // caller reading them back (run_octal: from the run file, after a checkpoint). Without it such a
  // run cannot look again and goes on to its cap, where the caller analyses every value.
  void set_released_look(std::function<PeriodResult()> look) { released_look_ = std::move(look); }

 private:
  bool compute_steps(std::uint64_t n, const ProgressCallback& progress);
  bool compute_steps_beside_looks(std::uint64_t n, const ProgressCallback& progress);
  void use_kernel(KernelKind kind);
  void switch_kernel_if_better();
  void adapt_step(std::uint64_t values_done, double seconds);
  // Looks for the period when a look is due (next_period_check_), or when forced; sets
  // proven_period_ once proven. On more than one thread a look that is due runs beside the
  // kernels (start_look_beside), and its result is taken at a later step (take_look_beside).
  void look_for_period(bool forced = false);
  void start_look_beside(std::uint64_t n);
  // Takes the look running beside the kernels once it is done, or waits for it with wait.
  void take_look_beside(bool wait);
  void use_look(const PeriodResult& look, std::uint64_t n);
  bool looking_for_period() const { return options_.period_shortcut || stop_when_proven_; }
  // Keeps max_value_ up to date with the values from index from on.
  void note_largest(std::uint64_t from);
  void fill_from_period(std::uint64_t target);
  // Under a kernel without a rare list, counts the values computed since the last call
  // (live_rare_count).
  void count_new_values();
  // Bounded runs: releases the middle of the values once they outgrow options_.value_memory.
  void release_if_over_budget();
  std::uint64_t bounded_capacity() const;
  std::uint64_t bounded_prefix() const;
  // Throws std::invalid_argument if the bound leaves too short a tail after the prefix.
  void check_bounded_tail() const;

  Rules rules_;
  EngineOptions options_;
  std::uint64_t release_limit_ = std::numeric_limits<std::uint64_t>::max();
  std::function<PeriodResult()> released_look_;  // set_released_look
  Sequence values_;
  std::unique_ptr<Kernel> kernel_;
  KernelKind active_ = KernelKind::Naive;
  std::string kernels_used_;
  std::uint64_t kernel_started_at_ = 0;  // values_.size() when the active kernel took over
  std::optional<PeriodResult> proven_period_;
  Value max_value_ = 0;  // largest value so far, for progress reports
  std::optional<StatsCounter> live_counter_;  // live_rare_count under kernels without a rare list
  std::uint64_t max_at_ = 0;  // its first position
  PeriodResult last_period_;
  std::uint64_t next_period_check_;  // the first look (set from tuning.hpp), then as next_proof_target says
  struct LookBeside;  // a look for the period running beside the kernels (engine.cpp)
  std::unique_ptr<LookBeside> look_beside_;
  bool stop_when_proven_ = false;  // inside compute_until_proven
  bool filled_from_period_ = false;
  std::uint64_t next_sparse_check_ = 0;  // auto: when a sweep next asks whether sparse would do
  std::uint64_t step_;  // values per step of compute_to, adapted to the kernel's speed
  std::unique_ptr<WorkSpanTicks> work_span_ticks_;  // the kernels' parallel regions, timed
  std::uint64_t profiled_ticks_ = 0;  // compute_to's own time, callbacks left out
};

// Convenience: G(0..n-1) with the given kernel.
Sequence compute_sequence(const Rules& rules, std::uint64_t n, KernelKind kernel = KernelKind::Auto,
                          int threads = 0, bool period_shortcut = false);

}  // namespace sgx
