// The profile's task clock (src/base/task_clock.hpp): a task's time leaves out the time its thread was
// off its core.
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
  const double cpu_start = thread_cpu_seconds();
  volatile std::uint64_t spins = 0;
  while (thread_cpu_seconds() - cpu_start < 0.020) spins = spins + 1;
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

}  // namespace
}  // namespace sgx
