#pragma once
// The clock behind the work-span profile (sgx/work_span.hpp). Every task of a parallel region is
// timed, so the clock must cost far less than a task: the processor's time-stamp counter takes
// some 10 ns to read, where the system clock took 360 ns on the machines we measured (a virtual
// machine's clock source). Its ticks are turned into seconds by one calibration per process.

#include <algorithm>
#include <chrono>
#include <cstdint>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

#include "sgx/work_span.hpp"

namespace sgx {

using Ticks = std::uint64_t;

inline Ticks read_ticks() {
#if defined(__x86_64__) || defined(__i386__)
  return __rdtsc();
#else
  return static_cast<Ticks>(std::chrono::steady_clock::now().time_since_epoch().count());
#endif
}

// Seconds per tick, measured once against the steady clock over 20 ms.
double seconds_per_tick();

// A task's time, less the time its thread was stopped in it: a thread that loses its core for a
// scheduler's slice (milliseconds: another process, or the host of a virtual machine) makes a task
// of microseconds look a thousand times longer, which is neither the run's work nor its span.
// The thread's own CPU clock tells, but reading it is a system call (some 370 ns where the
// time-stamp counter takes 10), too dear for every task. So begin_task() reads it only when its
// last reading is older than kStopMarkSeconds, and end_task() only after a task longer than that:
// the time lost since the reading, all of it put on that task, is at most kStopMarkSeconds more
// than the task's own loss. The reading itself lies outside the tasks. Call prepare_task_clock()
// before the first task, outside any (it calibrates the ticks, seconds_per_tick).
// Shorter stops are common too: with every task checked, the pipeline's chain waited for its tasks
// 0.050 s instead of 0.029 s (Grundy's game to 2^24, two threads). At 25 microseconds the span
// fell from 1.84-1.88% of the work to 1.80-1.82% against 100 (three rounds alternating), with at
// most one reading per 25 microseconds of a thread's tasks, some 1.5% of the run's time.
inline constexpr double kStopMarkSeconds = 25e-6;
void prepare_task_clock();
Ticks begin_task();
Ticks end_task(Ticks began);

// Interruptions. The CPU clock charges a thread with the time its core spent on an interrupt or
// in the host of a virtual machine, though the thread did not run: on the virtual machines we
// measured, a running core was taken for 16-128 us some 350 times a second (bench/interruptions),
// where a bare machine takes a few. A pipeline task ahead of the chain (15 us) that caught such a
// gap looked three times as long, and with less slack than that the chain waited for it in the
// profile though the program would not: Grundy's game to 2^24 on 64 threads, the chain's waits
// 0.09 s, the predicted speedup 26-27. So those tasks are watched (begin_watched_task): they note
// their progress (note_task_progress) at least every few microseconds of their own work, and two
// notes further apart than kInterruptionSeconds mean the thread was not running between them; the
// interval is left out of the task (with the little work of its own in it). The same run: notes
// 0.4-6.4 us apart but for 0.01% (6.4-12.8 us), then few up to 25 us and the gaps from 25 us on;
// the chain's waits 0.019 s, the prediction 30-31. Unwatched tasks, and tasks whose notes may be
// far apart, must not be watched: their own work would be taken for gaps.
inline constexpr double kInterruptionSeconds = 15e-6;

struct InterruptionWatch {
  bool on = false;
  Ticks last = 0;       // the last note
  Ticks gap = 0;        // kInterruptionSeconds, in ticks
  Ticks lost = 0;       // in gaps since the task began
  std::uint64_t gaps = 0;
};
inline thread_local InterruptionWatch interruption_watch;

inline void note_task_progress() {
  InterruptionWatch& watch = interruption_watch;
  if (!watch.on) return;
  const Ticks now = read_ticks();
  if (now - watch.last > watch.gap) {
    watch.lost += now - watch.last;
    ++watch.gaps;
  }
  watch.last = now;
}

Ticks begin_watched_task();
Ticks end_watched_task(Ticks began);

// What end_task() has left out so far in this process, on every thread: the ticks its threads
// were stopped in tasks, and in how many tasks; and what watched tasks left out beyond that, in
// gaps between their notes. A profile reports the difference over its run.
struct TaskClockStops {
  Ticks ticks = 0;
  std::uint64_t tasks = 0;
  Ticks interrupted_ticks = 0;
  std::uint64_t interruptions = 0;

  // Adds what was left out between two readings of task_clock_stops().
  void add_since(const TaskClockStops& before, const TaskClockStops& after) {
    ticks += after.ticks - before.ticks;
    tasks += after.tasks - before.tasks;
    interrupted_ticks += after.interrupted_ticks - before.interrupted_ticks;
    interruptions += after.interruptions - before.interruptions;
  }
};
TaskClockStops task_clock_stops();

// What one parallel region's tasks took, gathered from its threads.
struct RegionTicks {
  Ticks summed = 0;   // every task's time, summed
  Ticks longest = 0;  // the longest task
};

// The engine's running totals (engine.cpp turns them into a WorkSpan). A kernel adds one record
// per parallel region; the time outside its regions is one-thread work.
struct WorkSpanTicks {
  bool enabled = false;
  Ticks task_ticks = 0;     // summed over every task of every region
  Ticks longest_ticks = 0;  // summed over regions: each region's longest task
  Ticks region_ticks = 0;   // the regions' own wall time, summed
  // Of them, the regions that ran on the whole team: how many, their wall time and their tasks'.
  std::uint64_t team_regions = 0;
  Ticks team_wall_ticks = 0;
  Ticks team_task_ticks = 0;
  SparseHeaps sparse_heaps;  // counted by the sparse kernel
  TaskClockStops stopped;    // left out of the tasks above: their threads were not running

  // A task that ran beside the regions, off the path the run waits on (the engine's looks for the
  // period): work, not span.
  void add_beside(Ticks took) { task_ticks += took; }
  void add_region(const RegionTicks& tasks, Ticks wall, bool ran_on_team) {
    task_ticks += tasks.summed;
    longest_ticks += tasks.longest;
    region_ticks += wall;
    if (!ran_on_team) return;
    ++team_regions;
    team_wall_ticks += wall;
    team_task_ticks += tasks.summed;
  }
  // One parallel region: its tasks' times and its wall time since started. A region that ran on
  // one thread (too small to share) is one-thread work: its longest chain is the sum.
  void record_region(RegionTicks tasks, Ticks started, bool ran_parallel) {
    if (!ran_parallel) tasks.longest = tasks.summed;
    add_region(tasks, read_ticks() - started, ran_parallel);
  }
};

// Times the tasks one thread runs in a region: start() before a task, stop() after it, and
// merge_into() once when the thread leaves the region (under a critical section).
class TaskTimer {
 public:
  explicit TaskTimer(bool enabled) : enabled_(enabled) {}
  void start() {
    if (enabled_) started_ = begin_task();
  }
  void stop() {
    if (!enabled_) return;
    const Ticks took = end_task(started_);
    mine_.summed += took;
    mine_.longest = std::max(mine_.longest, took);
  }
  void merge_into(RegionTicks& region) const {
    region.summed += mine_.summed;
    region.longest = std::max(region.longest, mine_.longest);
  }

 private:
  bool enabled_;
  Ticks started_ = 0;
  RegionTicks mine_;
};

// Runs task(k, begin, end) for each stretch k, [begin, end) = [k * stretch, min(count, (k + 1) *
// stretch)), the stretches side by side (on one thread where there is only one), each timed as a
// task of one region into work_span where it is given and enabled.
template <class Task>
void run_stretches_side_by_side(std::uint64_t count, std::uint64_t stretch, WorkSpanTicks* work_span, Task&& task) {
  const std::uint64_t stretches = (count + stretch - 1) / stretch;
  const bool parallel = stretches > 1;
  const bool timed = work_span != nullptr && work_span->enabled;
  const Ticks started = timed ? read_ticks() : 0;
  RegionTicks tasks;
#pragma omp parallel if (parallel)
  {
    TaskTimer timer(timed);
#pragma omp for schedule(dynamic)
    for (std::uint64_t k = 0; k < stretches; ++k) {
      timer.start();
      task(k, k * stretch, std::min(count, (k + 1) * stretch));
      timer.stop();
    }
    if (timed) {
#pragma omp critical(sgx_work_span)
      timer.merge_into(tasks);
    }
  }
  if (timed) work_span->record_region(tasks, started, parallel);
}

}  // namespace sgx
