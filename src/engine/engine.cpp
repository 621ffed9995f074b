#include "sgx/engine.hpp"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstring>
#include <future>
#include <limits>
#include <memory>
#include <stdexcept>

#include <omp.h>

#include "kernels/kernel.hpp"
#include "sgx/stats.hpp"
#include "base/task_clock.hpp"
#include "base/tuning.hpp"

namespace sgx {

std::unique_ptr<Kernel> make_naive_kernel(const Rules& rules);
std::unique_ptr<Kernel> make_sparse_kernel(const Rules& rules);
std::unique_ptr<Kernel> make_sweep_kernel(const Rules& rules);

std::unique_ptr<Kernel> make_kernel(KernelKind kind, const Rules& rules) {
  switch (kind) {
    case KernelKind::Naive: return make_naive_kernel(rules);
    case KernelKind::Sweep: return make_sweep_kernel(rules);
    case KernelKind::Auto:
    case KernelKind::Sparse: return make_sparse_kernel(rules);
  }
  throw std::logic_error("unknown kernel kind");
}

KernelKind parse_kernel_kind(const std::string& name) {
  if (name == "auto") return KernelKind::Auto;
  if (name == "naive") return KernelKind::Naive;
  if (name == "sparse") return KernelKind::Sparse;
  if (name == "sweep") return KernelKind::Sweep;
  throw std::invalid_argument("unknown engine '" + name + "': choose auto, sparse, sweep or naive");
}

std::string to_string(KernelKind kind) {
  switch (kind) {
    case KernelKind::Auto: return "auto";
    case KernelKind::Naive: return "naive";
    case KernelKind::Sparse: return "sparse";
    case KernelKind::Sweep: return "sweep";
  }
  return "?";
}

namespace {

// A repeating split digit pairs every rare position with every take, so the sparse method loses
// its edge there; everywhere else it is the better start.
KernelKind auto_kernel(const Rules& rules) {
  for (const Digit& d : rules.tail_digits())
    if (d.bits & (kLeaveTwo | kLeaveThree)) return KernelKind::Sweep;
  return KernelKind::Sparse;
}

// Bounded runs read only a prefix, a tail and the rare positions; these games read more.
void check_can_bound(const Rules& rules, KernelKind kernel) {
  if (kernel != KernelKind::Auto && kernel != KernelKind::Sparse)
    throw std::invalid_argument("bounded memory needs the sparse kernel: the " + to_string(kernel) +
                                " kernel reads every value");
  if (rules.has_tail())
    throw std::invalid_argument("bounded memory needs a game whose moves take at most a fixed number of tokens; " +
                                rules.canonical() + " has a repeating tail, so every value stays in use");
  if (rules.max_heaps_left() > 2)
    throw std::invalid_argument("bounded memory needs a game that splits a heap into at most two; " +
                                rules.canonical() + " splits into three, which reads every value");
}

}  // namespace

Engine::Engine(Rules rules, EngineOptions options) : Engine(std::move(rules), options, Sequence{}) {}

Engine::Engine(Rules rules, EngineOptions options, Sequence known_values, std::optional<SparseState> sparse_state)
    : rules_(std::move(rules)),
      options_(options),
      values_(std::move(known_values)),
      next_period_check_(tuning::kFirstPeriodCheck),
      step_(tuning::kEngineFirstStep),
      work_span_ticks_(std::make_unique<WorkSpanTicks>()) {
  work_span_ticks_->enabled = options_.profile;
  if (options_.profile) prepare_task_clock();
  if (options_.threads > 0) omp_set_num_threads(options_.threads);
  if (bounded()) {
    check_can_bound(rules_, options_.kernel);
    check_bounded_tail();
  }
  if (values_.has_released() && (!sparse_state || !bounded()))
    throw std::invalid_argument("values with a released middle continue only bounded, from the rare-value state saved with them");
  if (sparse_state) {
    kernel_ = make_kernel(KernelKind::Sparse, rules_);
    kernel_->set_work_span(work_span_ticks_.get());
    kernel_->attach_state(values_, *sparse_state);
    active_ = KernelKind::Sparse;
    kernels_used_ = to_string(KernelKind::Sparse);
    max_value_ = sparse_state->max_value;
    max_at_ = sparse_state->max_at;
    note_largest(values_.has_released() ? values_.tail_start() : 0);
  } else {
    use_kernel(bounded() ? KernelKind::Sparse : options_.kernel == KernelKind::Auto ? auto_kernel(rules_) : options_.kernel);
    switch_kernel_if_better();  // a resumed run may be past the point where auto switched
    note_largest(0);
  }
}

Engine::~Engine() = default;

// kernels_used_ names each kernel that computed values, in order: one replaced before it computed
// any (a resumed run switching at once) is not named.
void Engine::use_kernel(KernelKind kind) {
  kernel_ = make_kernel(kind, rules_);
  kernel_->set_work_span(work_span_ticks_.get());
  kernel_->attach(values_);
  active_ = kind;
  if (!kernels_used_.empty() && values_.size() == kernel_started_at_) {
    const auto plus = kernels_used_.rfind('+');
    kernels_used_.erase(plus == std::string::npos ? 0 : plus);
  }
  if (!kernels_used_.empty()) kernels_used_ += '+';
  kernels_used_ += to_string(kind);
  kernel_started_at_ = values_.size();
}

// The auto kernel follows the rare share: sparse while few positions are rare, sweep while many
// are. The share can fall again as n grows (Treblecross: 21% rare at 2^16, 8% at 2^18), so a
// sweep is checked each time n passes a power of two and gives way to sparse below a lower share.
void Engine::switch_kernel_if_better() {
  if (options_.kernel != KernelKind::Auto || bounded()) return;
  const std::uint64_t n = values_.size();
  if (active_ == KernelKind::Sparse && kernel_->prefers_sweep(n)) {
    use_kernel(KernelKind::Sweep);
    next_sparse_check_ = std::bit_ceil(n + 1);
  } else if (active_ == KernelKind::Sweep && auto_kernel(rules_) == KernelKind::Sparse && n >= next_sparse_check_) {
    next_sparse_check_ = std::bit_ceil(n + 1);
    if (auto_prefers_sparse(n, compute_stats(values_, rules_.split_take_parity()).rare_count))
      use_kernel(KernelKind::Sparse);
  }
}

// Sizes the next step to take about kEngineStepSeconds at the rate just seen, growing at most
// kEngineStepGrowth-fold per step (tuning.hpp).
void Engine::adapt_step(std::uint64_t values_done, double seconds) {
  const double rate = static_cast<double>(values_done) / std::max(seconds, 1e-6);
  const auto wanted = static_cast<std::uint64_t>(std::min(rate * tuning::kEngineStepSeconds, 1e18));
  step_ = std::clamp(wanted, tuning::kEngineMinStep,
                     std::min(tuning::kEngineStepGrowth * step_, tuning::kEngineStep));
}

std::string Engine::kernels_used() const { return kernels_used_; }

std::uint64_t Engine::live_rare_count() const {
  if (!kernel_) return 0;
  if (active_ == KernelKind::Sparse) return kernel_->rare_count();
  return live_counter_ ? live_counter_->stats().rare_count : 0;
}

void Engine::count_new_values() {
  if (!kernel_ || active_ == KernelKind::Sparse) return;
  // The other kernels keep no rare list: the values are counted as they come, before any is
  // released, a pass over each new one, which costs nothing beside the sweep's pairs (a heap of n
  // has n / 2).
  if (!live_counter_) live_counter_.emplace(rules_.split_take_parity());
  live_counter_->add(values_, values_.size());
}

std::optional<SparseState> Engine::sparse_state() const {
  std::optional<SparseState> state = kernel_->state();
  if (state) {
    state->max_value = max_value_;
    state->max_at = max_at_;
  }
  return state;
}

// The values a bounded run keeps: how many in all at the current width, and the prefix.
std::uint64_t Engine::bounded_capacity() const {
  return options_.value_memory / std::max(2u, values_.bytes_per_value());
}

std::uint64_t Engine::bounded_prefix() const {
  return values_.has_released() ? values_.prefix_end() : bounded_capacity() / tuning::kBoundedPrefixShare;
}

void Engine::check_bounded_tail() const {
  const std::uint64_t capacity = bounded_capacity();
  const std::uint64_t prefix = bounded_prefix();
  if (capacity < prefix + tuning::kBoundedMinTail + rules_.largest_take())
    throw std::invalid_argument("bounded memory: " + std::to_string(options_.value_memory) + " bytes for values leave " +
                                "too short a tail after the prefix of " + std::to_string(prefix) +
                                " values; allow more memory");
}

// Keeps G(0..P-1) and the last T values, P + T values filling value_memory at two bytes each (or
// four, once values need them), P a share of it (kBoundedPrefixShare: why, in tuning.hpp).
void Engine::release_if_over_budget() {
  const std::uint64_t n = values_.size();
  if (n <= bounded_capacity()) return;
  check_bounded_tail();  // values may have grown wider
  const std::uint64_t prefix = bounded_prefix();
  const std::uint64_t tail = bounded_capacity() - prefix;
  // The tail never moves down: a resumed run with a larger bound keeps what it has. Nor does it
  // pass the values not on disk yet.
  const std::uint64_t tail_start = std::min(n - tail, std::max(release_limit_, prefix));
  if (tail_start > prefix) values_.release(prefix, std::max(tail_start, values_.tail_start()));
}

WorkSpan Engine::work_span() const {
  const WorkSpanTicks& ticks = *work_span_ticks_;
  const double seconds = seconds_per_tick();
  // Time outside the kernels' parallel regions ran on one thread: it is work and span alike.
  const Ticks one_thread = profiled_ticks_ - std::min(profiled_ticks_, ticks.region_ticks);
  WorkSpan result;
  result.work_seconds = static_cast<double>(ticks.task_ticks + one_thread) * seconds;
  result.span_seconds = static_cast<double>(ticks.longest_ticks + one_thread) * seconds;
  result.one_thread_seconds = static_cast<double>(one_thread) * seconds;
  result.wall_seconds = static_cast<double>(profiled_ticks_) * seconds;
  result.threads = options_.threads > 0 ? options_.threads : omp_get_max_threads();
  result.regions = ticks.team_regions;
  result.sparse_heaps = ticks.sparse_heaps;
  result.stopped_seconds = static_cast<double>(ticks.stopped.ticks) * seconds;
  result.stopped_tasks = ticks.stopped.tasks;
  result.interrupted_seconds = static_cast<double>(ticks.stopped.interrupted_ticks) * seconds;
  result.interruptions = ticks.stopped.interruptions;
  const double team_seconds = static_cast<double>(ticks.team_wall_ticks) * seconds * result.threads;
  result.region_idle_seconds = std::max(0.0, team_seconds - static_cast<double>(ticks.team_task_ticks) * seconds);
  return result;
}

bool Engine::compute_to(std::uint64_t target, const ProgressCallback& progress) {
  if (!work_span_ticks_->enabled) return compute_steps(target, progress);
  // The profile times compute_to but not the callbacks (status lines, checkpoints).
  Ticks in_callbacks = 0;
  const ProgressCallback timed_progress = [&](const Progress& p) {
    const Ticks started = read_ticks();
    const bool go_on = !progress || progress(p);
    in_callbacks += read_ticks() - started;
    return go_on;
  };
  const TaskClockStops stops_before = task_clock_stops();
  const Ticks started = read_ticks();
  const bool finished = compute_steps(target, timed_progress);
  profiled_ticks_ += read_ticks() - started - in_callbacks;
  // The process's stops over the run: another engine profiled at the same time would add its own.
  work_span_ticks_->stopped.add_since(stops_before, task_clock_stops());
  return finished;
}

bool Engine::compute_until_proven(std::uint64_t min_n, std::uint64_t max_n, const ProgressCallback& progress) {
  // False when the callback stopped the engine before target.
  const auto reached = [&](std::uint64_t target) { return compute_to(target, progress) || values_.size() >= target; };
  if (!reached(min_n)) return false;
  if (!proof_theorem(rules_).empty() && (!values_.has_released() || released_look_) && !last_period_.proven) {
    stop_when_proven_ = true;
    bool finished = false;
    try {
      finished = reached(max_n) || last_period_.proven;
    } catch (...) {
      stop_when_proven_ = false;
      throw;
    }
    stop_when_proven_ = false;
    if (!finished) return false;
  }
  if (last_period_.checked_n != values_.size()) look_for_period(true);
  return true;
}

bool Engine::compute_steps(std::uint64_t target, const ProgressCallback& progress) {
  const bool finished = compute_steps_beside_looks(target, progress);
  take_look_beside(true);
  return finished;
}

bool Engine::compute_steps_beside_looks(std::uint64_t target, const ProgressCallback& progress) {
  if (values_.size() >= target) return true;
  // A run until proven may stop far below its cap: it grows as it goes, unless bounded: growing
  // would copy its released values, which are not there (reserving the cap takes address space
  // only; PageAllocator).
  if (!stop_when_proven_ || bounded()) values_.reserve(target);
  while (values_.size() < target) {
    take_look_beside(false);
    if (looking_for_period()) look_for_period();
    // Once values are released the engine looks only through set_released_look; without it a
    // run until proven goes on to its cap (it stopped here, at the first release, as if it had
    // reached the cap).
    if (stop_when_proven_ && last_period_.proven) return true;
    if (proven_period_ && !bounded()) {
      fill_from_period(target);
      break;
    }
    if (proven_period_) {  // in steps, releasing as it goes
      fill_from_period(std::min(target, values_.size() + tuning::kEngineStep));
      release_if_over_budget();
      if (progress && !progress(Progress{values_.size(), target, max_value_, live_rare_count(), active_})) return false;
      continue;
    }
    const std::uint64_t step_start = values_.size();
    std::uint64_t step_end = std::min(target, step_start + step_);
    if (looking_for_period()) step_end = std::min(step_end, next_period_check_);
    const auto started = std::chrono::steady_clock::now();
    kernel_->extend(values_, step_end);
    note_largest(step_start);
    count_new_values();
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - started;
    adapt_step(step_end - step_start, took.count());
    switch_kernel_if_better();
    if (bounded()) release_if_over_budget();
    if (progress) {
      Progress p{values_.size(), target, max_value_, live_rare_count(), active_};
      if (!progress(p)) return false;
    }
  }
  return true;
}

void Engine::note_largest(std::uint64_t from) {
  values_.visit([this, from](const auto& g) {
    if (from >= g.size()) return;
    // The largest first, in a loop the compiler vectorizes; its first place only when it is new.
    auto largest = g[from];
    for (std::uint64_t n = from + 1; n < g.size(); ++n) largest = std::max(largest, g[n]);
    if (largest <= max_value_ && from > 0) return;
    max_value_ = largest;
    max_at_ = from;
    while (g[max_at_] != largest) ++max_at_;
  });
}

// A look is one pass over the values (analyze_period). Without a theorem nothing can be proven,
// so only a forced look (the final analysis of a run) reads them; released values cannot be read.
void Engine::look_for_period(bool forced) {
  const std::uint64_t n = values_.size();
  if (!forced && n < next_period_check_) return;
  take_look_beside(true);
  next_period_check_ = std::numeric_limits<std::uint64_t>::max();
  if (values_.has_released()) {
    // Only a run until proven reads released values back: a shortcut is not worth a pass over
    // the run file at every doubling, and the caller analyses the values at the end anyway.
    if (stop_when_proven_ && released_look_) use_look(released_look_(), n);
    return;
  }
  if (!forced && proof_theorem(rules_).empty()) return;
  // A look the run does not stop for runs beside the kernels, on more than one thread.
  if (!forced && !stop_when_proven_ && !bounded() && n >= tuning::kLookBesideFrom && omp_get_max_threads() > 1) {
    start_look_beside(n);
    return;
  }
  use_look(analyze_period(values_, rules_, options_.period_window), n);
}

void Engine::use_look(const PeriodResult& look, std::uint64_t n) {
  last_period_ = look;
  if (look.proven && options_.period_shortcut) proven_period_ = look;
  const std::uint64_t next = next_proof_target(look, n, std::numeric_limits<std::uint64_t>::max());
  if (next > n) next_period_check_ = next;
}

namespace {

// Copies count values from source to target, a stretch a task side by side (timed into work_span):
// the copy's pages are first touched here, and in a virtual machine that costs more than the copy
// itself (4 to 6 ms for 2^21 values on one thread).
template <class T>
void copy_side_by_side(const T* source, std::uint64_t count, T* target, WorkSpanTicks& work_span) {
  run_stretches_side_by_side(count, std::uint64_t{1} << 18, &work_span,
                             [&](std::uint64_t, std::uint64_t begin, std::uint64_t end) {
                               std::memcpy(target + begin, source + begin, (end - begin) * sizeof(T));
                             });
}

}  // namespace

// A look for the period at n, beside the kernels. The prefix function over the last differences
// (period.cpp) cannot be shared out, and a run's looks took 0.07 s of its 0.1 s on one thread (0.6
// to 2^24). It reads a copy of the last values, which the kernels cannot move (a wider value moves
// them all) and which is all a look reads unless it sees a period: then it says so, and the look is
// made again on the values themselves. It does not search the values before its copy for periods
// longer than half the window (LongPeriods::Skipped): such a period is found by the look that ends
// the run, which reads every value, and only the shortcut of filling from it is missed. Its result
// is taken at a later step, so the run may pass n before a period proven at n fills the rest; the
// values are the same.
struct Engine::LookBeside {
  struct Outcome {
    PeriodResult look;
    bool needs_older = false;  // it read values older than its copy: it must be made again
    Ticks took = 0;
  };
  std::uint64_t n = 0;
  std::future<Outcome> outcome;
};

void Engine::start_look_beside(std::uint64_t n) {
  look_beside_ = std::make_unique<LookBeside>();
  look_beside_->n = n;
  // As many as the look reads at random (period.cpp): the window's differences and one more value.
  const std::uint64_t first = n - period_window_values(n, options_.period_window);
  values_.visit([&](const auto& g) {
    using T = typename std::decay_t<decltype(g)>::value_type;
    std::unique_ptr<T[]> last = std::make_unique_for_overwrite<T[]>(n - first);
    copy_side_by_side(g.data() + first, n - first, last.get(), *work_span_ticks_);
    look_beside_->outcome = std::async(std::launch::async, [rules = rules_, window = options_.period_window, n, first,
                                                            last = std::move(last)] {
      const Ticks began = begin_task();
      LookBeside::Outcome outcome;
      const ValueReader read = [&](std::uint64_t from, std::uint64_t to, Value* out) {
        if (from < first) {
          outcome.needs_older = true;
          std::fill(out, out + (to - from), Value{0});
          return;
        }
        std::copy(last.get() + (from - first), last.get() + (to - first), out);
      };
      outcome.look = analyze_period(n, read, rules, window, LongPeriods::Skipped);
      outcome.took = end_task(began);
      return outcome;
    });
  });
}

void Engine::take_look_beside(bool wait) {
  if (!look_beside_) return;
  if (!wait && look_beside_->outcome.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return;
  const LookBeside::Outcome outcome = look_beside_->outcome.get();
  const std::uint64_t n = look_beside_->n;
  look_beside_.reset();
  if (work_span_ticks_->enabled) work_span_ticks_->add_beside(outcome.took);
  if (!outcome.needs_older) {
    use_look(outcome.look, n);
    return;
  }
  // Made again on G(0..n-1), as the look on one thread is.
  use_look(analyze_period(n, held_or_released(values_), rules_, options_.period_window), n);
}

void Engine::fill_from_period(std::uint64_t target) {
  const std::uint64_t p = proven_period_->period;
  const std::int64_t s = proven_period_->saltus;
  const std::uint64_t from = values_.size();
  if (from < p || !values_.holds(from - p))
    throw MemoryReachError(from, from - std::min(from, p),
                           "the period " + std::to_string(p) +
                               " reaches back past the values kept within the memory bound");
  values_.resize(target);
  values_.visit([&](auto& g) {
    using T = typename std::decay_t<decltype(g)>::value_type;
    for (std::uint64_t n = from; n < target; ++n) g[n] = static_cast<T>(static_cast<std::int64_t>(g[n - p]) + s);
  });
  note_largest(from);
  count_new_values();
  // A bounded run may release these values, and its saved state must then count them.
  if (bounded()) kernel_->note_filled(values_, from);
  if (!filled_from_period_) kernels_used_ += "+period";
  filled_from_period_ = true;
}

void Engine::continue_period(const PeriodResult& proven) {
  if (!proven.proven) throw std::invalid_argument("only a proven period can fill values");
  proven_period_ = proven;
}

Sequence compute_sequence(const Rules& rules, std::uint64_t n, KernelKind kernel, int threads, bool period_shortcut) {
  Engine engine(rules, EngineOptions{kernel, threads, period_shortcut});
  engine.compute_to(n);
  return engine.values();
}

}  // namespace sgx
