// The profile's task clock (src/base/task_clock.hpp): a task's time leaves out the time its thread was
// off its core, and a watched task the gaps between its notes.
#include <gtest/gtest.h>

#include <time.h>

#include <chrono>
#include <thread>

#include "base/task_clock.hpp"

namespace sgx {
namespace {

double thread_cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

// Spins for the given seconds of the thread's own CPU time, noting progress at each of its
// readings (some 0.4 us apart) when asked.
void spin(double seconds, bool noting) {
  const double start = thread_cpu_seconds();
  while (thread_cpu_seconds() - start < seconds)
    if (noting) note_task_progress();
}

double seconds_of(Ticks ticks) { return static_cast<double>(ticks) * seconds_per_tick(); }

// A thread that sleeps in a task is stopped as a thread that loses its core is: the task's time is
// its own, not the sleep's.
TEST(TaskClock, LeavesOutTheTimeTheThreadWasStopped) {
  prepare_task_clock();
  const Ticks began = begin_task();
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  const double took = seconds_of(end_task(began));
  EXPECT_LT(took, 0.005) << "a task that slept 30 ms";
}

// What was left out is counted, for the profile to report: the sleep, in one task.
TEST(TaskClock, CountsWhatItLeftOut) {
  prepare_task_clock();
  const TaskClockStops before = task_clock_stops();
  const Ticks began = begin_task();
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  const Ticks took = end_task(began);
  const TaskClockStops after = task_clock_stops();
  EXPECT_EQ(after.tasks - before.tasks, 1u);
  const double removed = seconds_of(after.ticks - before.ticks);
  EXPECT_GT(removed, 0.025) << "a task that slept 30 ms";
  EXPECT_LT(removed, 0.030 + 1.0) << "no more than the task's wall time and a margin for a slow machine";
  EXPECT_LT(seconds_of(took), 0.005);
}

// A task that runs keeps its time: here 20 ms of the thread's own CPU time, however long the
// machine let it wait.
TEST(TaskClock, KeepsTheTimeATaskRan) {
  prepare_task_clock();
  const Ticks began = begin_task();
  spin(0.020, false);
  const double took = seconds_of(end_task(began));
  EXPECT_GT(took, 0.015);
  EXPECT_LT(took, 0.025 + kStopMarkSeconds);
}

// Short tasks are timed by the time-stamp counter alone, as they were.
TEST(TaskClock, ShortTasksTakeTheirTicks) {
  prepare_task_clock();
  const Ticks began = begin_task();
  const Ticks took = end_task(began);
  EXPECT_LT(seconds_of(took), kStopMarkSeconds);
}

// A watched task whose notes stop for longer than kInterruptionSeconds lost that stretch: its
// thread was interrupted, to the watch's eye. The stretch here is the task's own spin without
// notes (a real interruption cannot be made to order), 20 times the mark: it is left out,
// counted, and the rest of the task kept.
TEST(TaskClock, WatchedTasksLeaveOutGapsBetweenTheirNotes) {
  prepare_task_clock();
  const double gap = 20 * kInterruptionSeconds;
  const TaskClockStops before = task_clock_stops();
  const Ticks began = begin_watched_task();
  spin(1e-3, true);
  spin(gap, false);
  spin(1e-3, true);
  const Ticks raw = read_ticks() - began;
  const Ticks took = end_watched_task(began);
  const TaskClockStops after = task_clock_stops();
  // The gap is an interruption; the CPU clock may have called a few microseconds of it a stop.
  EXPECT_GE(after.interruptions - before.interruptions, 1u);
  EXPECT_GE(seconds_of(after.interrupted_ticks - before.interrupted_ticks + after.ticks - before.ticks), gap);
  EXPECT_GT(seconds_of(after.interrupted_ticks - before.interrupted_ticks), gap / 2);
  EXPECT_LE(seconds_of(took), seconds_of(raw) - gap);
  EXPECT_GT(seconds_of(took), 1e-3) << "the noted spins are the task's own";
}

// Outside a watched task a note does nothing, and an unwatched task keeps a long stretch without
// notes: its own work, not an interruption.
TEST(TaskClock, OnlyWatchedTasksTakeGapsOut) {
  prepare_task_clock();
  note_task_progress();
  const TaskClockStops before = task_clock_stops();
  const Ticks began = begin_task();
  spin(20 * kInterruptionSeconds, false);
  note_task_progress();
  spin(20 * kInterruptionSeconds, false);
  const Ticks took = end_task(began);
  const TaskClockStops after = task_clock_stops();
  EXPECT_EQ(after.interruptions, before.interruptions);
  EXPECT_EQ(after.interrupted_ticks, before.interrupted_ticks);
  EXPECT_GT(seconds_of(took), 30 * kInterruptionSeconds);
}

}  // namespace
}  // namespace sgx
