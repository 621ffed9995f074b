#include "base/task_clock.hpp"

#include <time.h>

#include <algorithm>
#include <atomic>
#include <thread>

namespace sgx {

namespace {

// This thread's last reading of its CPU clock, and the ticks then.
struct CpuMark {
  Ticks ticks = 0;
  double cpu_seconds = 0;
  bool taken = false;
};
thread_local CpuMark mark;

// Summed over the threads; added to only when a task lost time, at most once per kStopMarkSeconds.
std::atomic<Ticks> stopped_ticks{0};
std::atomic<std::uint64_t> stopped_tasks{0};
std::atomic<Ticks> interrupted_ticks{0};
std::atomic<std::uint64_t> interruptions{0};

double thread_cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

Ticks mark_every() {
  static const Ticks ticks = static_cast<Ticks>(kStopMarkSeconds / seconds_per_tick());
  return ticks;
}

void take_mark(Ticks now) { mark = {now, thread_cpu_seconds(), true}; }

// The ticks a task of took ticks ending now lost while its thread was stopped (by its CPU clock).
Ticks stopped_in_task(Ticks now, Ticks took) {
  if (took <= mark_every() || !mark.taken) return 0;
  const double seconds = seconds_per_tick();
  const CpuMark before = mark;
  take_mark(now);
  const double lost = static_cast<double>(now - before.ticks) * seconds - (mark.cpu_seconds - before.cpu_seconds);
  if (lost <= 0) return 0;
  const Ticks removed = std::min(took, static_cast<Ticks>(lost / seconds));
  stopped_ticks.fetch_add(removed, std::memory_order_relaxed);
  stopped_tasks.fetch_add(1, std::memory_order_relaxed);
  return removed;
}

}  // namespace

void prepare_task_clock() { mark_every(); }

Ticks begin_task() {
  const Ticks now = read_ticks();
  if (mark.taken && now - mark.ticks <= mark_every()) return now;
  take_mark(now);
  // The task starts after the reading: a system call would make a short task look several times
  // as long (the pipeline's chain: an eighth of its time on Grundy's game to 2^24).
  return read_ticks();
}

Ticks end_task(Ticks began) {
  const Ticks now = read_ticks();
  const Ticks took = now - began;
  return took - stopped_in_task(now, took);
}

Ticks begin_watched_task() {
  const Ticks began = begin_task();
  static const Ticks gap = static_cast<Ticks>(kInterruptionSeconds / seconds_per_tick());
  interruption_watch = {true, began, gap, 0, 0};
  return began;
}

// A stop shows in both clocks (a gap between notes, and time the CPU clock did not count): the
// larger of the two is what the task lost, the watch's excess over the stop its interruptions.
Ticks end_watched_task(Ticks began) {
  note_task_progress();
  InterruptionWatch& watch = interruption_watch;
  watch.on = false;
  const Ticks now = watch.last;
  const Ticks took = now - began;
  const Ticks stopped = stopped_in_task(now, took);
  const Ticks interrupted = std::min(watch.lost > stopped ? watch.lost - stopped : 0, took - stopped);
  if (interrupted > 0) {
    if (stopped > watch.gap && watch.gaps > 0) --watch.gaps;  // the stop's own gap
    interrupted_ticks.fetch_add(interrupted, std::memory_order_relaxed);
    interruptions.fetch_add(watch.gaps, std::memory_order_relaxed);
  }
  return took - stopped - interrupted;
}

TaskClockStops task_clock_stops() {
  return {stopped_ticks.load(std::memory_order_relaxed), stopped_tasks.load(std::memory_order_relaxed),
          interrupted_ticks.load(std::memory_order_relaxed), interruptions.load(std::memory_order_relaxed)};
}

double seconds_per_tick() {
  static const double calibrated = [] {
    const auto wall_start = std::chrono::steady_clock::now();
    const Ticks tick_start = read_ticks();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    const Ticks ticks = read_ticks() - tick_start;
    const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - wall_start;
    return ticks > 0 ? wall.count() / static_cast<double>(ticks) : 0.0;
  }();
  return calibrated;
}

}  // namespace sgx
