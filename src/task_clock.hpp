#pragma once
// The clock behind the work-span profile (sgx/work_span.hpp). Every task of a parallel region is
// timed, so the clock must cost far less than a task: the processor's time-stamp counter takes
// some 10 ns to read, where the system clock took 360 ns on the machines we measured (a virtual
// machine's clock source). Its ticks are turned into seconds by one calibration per process.

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

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

// What one parallel region's tasks took, gathered from its threads. A region may run rounds of
// tasks one after another (loops with a barrier between them): its longest chain is the longest
// task of each round, summed.
inline constexpr int kMaxRounds = 3;
struct RegionTicks {
  Ticks summed = 0;                  // every task's time, summed
  std::array<Ticks, kMaxRounds> longest{};  // per round, the longest task
  Ticks longest_chain() const {
    Ticks chain = 0;
    for (Ticks t : longest) chain += t;
    return chain;
  }
};

// The engine's running totals (engine.cpp turns them into a WorkSpan). A kernel adds one record
// per parallel region; the time outside its regions is one-thread work.
struct WorkSpanTicks {
  bool enabled = false;
  Ticks task_ticks = 0;     // summed over every task of every region
  Ticks longest_ticks = 0;  // summed over regions: each region's longest task
  Ticks region_ticks = 0;   // the regions' own wall time, summed

  void add_region(const RegionTicks& tasks, Ticks wall) {
    task_ticks += tasks.summed;
    longest_ticks += tasks.longest_chain();
    region_ticks += wall;
  }
};

// Times the tasks one thread runs in a region: start() before a task, stop() after it, and
// merge_into() once when the thread leaves the region (under a critical section).
class TaskTimer {
 public:
  explicit TaskTimer(bool enabled) : enabled_(enabled) {}
  void start() {
    if (enabled_) started_ = read_ticks();
  }
  // round: which round of the region's tasks this one belongs to (0 for a region of one round).
  void stop(int round = 0) {
    if (!enabled_) return;
    const Ticks took = read_ticks() - started_;
    mine_.summed += took;
    mine_.longest[round] = std::max(mine_.longest[round], took);
  }
  void merge_into(RegionTicks& region) const {
    region.summed += mine_.summed;
    for (int round = 0; round < kMaxRounds; ++round)
      region.longest[round] = std::max(region.longest[round], mine_.longest[round]);
  }

 private:
  bool enabled_;
  Ticks started_ = 0;
  RegionTicks mine_;
};

}  // namespace sgx
