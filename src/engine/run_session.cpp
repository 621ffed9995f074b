#include "sgx/run_session.hpp"

#include <omp.h>

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "base/tuning.hpp"
#include "engine/run_file_saver.hpp"
#include "sgx/provenance.hpp"
#include "sgx/stats.hpp"
#include "sgx/version.hpp"

namespace sgx {

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

RunSession::RunSession(Rules rules, RunRecord stored, bool resume, RunSessionOptions options)
    : rules_(std::move(rules)), options_(std::move(options)), resume_(resume), stored_complete_(stored.complete),
      stored_n_(stored.values.size()), started_(std::chrono::steady_clock::now()) {
  if (options_.memory_limit > 0) {
    // The values take a share of what the program leaves, the rest holding a checkpoint's image or
    // the period analysis, whose window is bounded too.
    EngineOptions& engine = options_.engine;
    const std::uint64_t overhead = std::min(options_.memory_limit, tuning::kMemoryOverhead);
    engine.value_memory = (options_.memory_limit - overhead) / tuning::kValueMemoryShare;
    engine.period_window = std::min(kPeriodWindow, engine.value_memory / tuning::kAnalysisMemoryShare);
  }
  const bool bounded = options_.engine.value_memory > 0;
  if (stored.values.has_released() && !bounded)
    throw std::invalid_argument("the run keeps only " + stored.values.kept_text() +
                                " in memory, its middle released: it continues only with a bound on memory");
  if (options_.path.empty() && bounded)
    throw std::invalid_argument("a run with a bound on memory needs a run file to hold the values it releases");
  if (!options_.path.empty())
    saver_ = std::make_unique<RunFileSaver>(
        options_.path, static_cast<const RunInfo&>(stored), resume, options_.checkpoint_every,
        stretch_starting(options_.command, options_.engine.threads, stored_n_), rules_.split_take_parity());
  engine_ = std::make_unique<Engine>(rules_, options_.engine, std::move(stored.values), std::move(stored.sparse_state));
  if (saver_) engine_->set_release_limit(saver_->release_limit());
  // A bounded run cannot prove its period again without its released values: it goes on from the
  // proof it saved.
  if (engine_->values().has_released() && stored.period.proven) engine_->continue_period(stored.period);
}

RunSession::~RunSession() = default;

bool RunSession::holds_every_value() const { return !saver_ || saver_->holds_every_value(); }

std::uint64_t RunSession::saved_n() const { return saver_ ? saver_->saved_n() : 0; }

bool RunSession::stop_requested() const {
  return stop_.load(std::memory_order_relaxed) || (options_.stop_requested && options_.stop_requested());
}

PeriodResult RunSession::analyze_released(std::uint64_t target) {
  if (!saver_->holds_every_value()) return engine_->proven_period().value_or(PeriodResult{});
  saver_->checkpoint(*engine_, target);
  return analyze_period(engine_->values(), run_file_reader(options_.path), rules_, options_.engine.period_window);
}

PeriodResult RunSession::period_at_end(const RunGoal& goal, std::uint64_t target, bool ended_early) {
  const Engine& engine = *engine_;
  // A run until proven that looked at its last value (in memory, or through its file) has its
  // analysis already.
  if (goal.until_proven && !ended_early && engine.last_period().checked_n == engine.values().size())
    return engine.last_period();
  if (engine.values().has_released()) return analyze_released(target);
  if (goal.until_proven && !ended_early) return engine.last_period();
  return analyze_period(engine.values(), rules_, options_.engine.period_window);
}

RunResult RunSession::run(const RunGoal& goal) {
  RunResult result;
  result.target = goal.until_proven ? std::max(goal.n, goal.max_n) : goal.n;
  const std::uint64_t target = result.target;
  // Until proven, once values are released, the engine's looks read them back from the file.
  if (goal.until_proven && saver_) engine_->set_released_look([this, target] { return analyze_released(target); });
  bool ended_early = false;
  const ProgressCallback progress = [&](const Progress& p) {
    if (stop_requested()) return false;
    if (goal.enough && goal.enough(*engine_)) {
      ended_early = true;
      return false;
    }
    const bool checkpointed = saver_ && saver_->keep_up(*engine_, p.target);
    if (options_.on_step) options_.on_step(p, checkpointed);
    return true;
  };
  bool reached = false;
  try {
    reached = goal.until_proven ? engine_->compute_until_proven(goal.n, target, progress)
                                : engine_->compute_to(goal.n, progress) || engine_->values().size() >= goal.n;
  } catch (const MemoryReachError&) {
    if (saver_) saver_->checkpoint(*engine_, goal.n);
    throw;
  }
  if (!reached && !ended_early) {
    result.stopped = true;
    if (saver_) saver_->checkpoint(*engine_, target);
    return result;
  }
  result.ended_early = ended_early;
  const PeriodResult period = period_at_end(goal, target, ended_early);
  result.seconds = seconds_since(started_);

  const Sequence& values = engine_->values();
  result.computed_any = values.size() > stored_n_;
  RunInfo& info = result.info;
  if (saver_) {
    info = saver_->info_for(*engine_);
    info.stats = saver_->final_stats(*engine_);
  } else {
    info.game = rules_.canonical();
    info.engine = engine_->kernels_used();
    info.program_version = kVersion;
    info.stats = compute_stats(values, rules_.split_take_parity());
  }
  info.complete = true;
  info.period = period;
  // A finished run that this sitting did not extend stays as it is, byte for byte.
  if (saver_ && !(stored_complete_ && resume_ && !result.computed_any)) saver_->finish(info, values);
  return result;
}

RunReport run_report(const RunSession& session, const RunResult& result) {
  const Sequence& values = session.values();
  RunReport report;
  report.game = result.info.game;
  report.n = values.size();
  report.engine = result.info.engine;
  report.threads = omp_get_max_threads();
  report.seconds = result.seconds;
  report.stats = result.info.stats;
  report.period = result.info.period;
  report.file = session.options().path;
  report.peak_rss_bytes = peak_rss_bytes();
  if (session.options().engine.profile) report.profile = session.engine().work_span();
  report.memory_limit_bytes = session.options().memory_limit;
  if (result.computed_any && !result.info.provenance.empty()) report.provenance = result.info.provenance.back();
  if (values.has_released()) {
    report.kept_prefix = values.prefix_end();
    report.tail_start = values.tail_start();
  }
  return report;
}

}  // namespace sgx
