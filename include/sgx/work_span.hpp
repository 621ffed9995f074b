#pragma once
// How a run would scale, measured from inside it (run_octal --profile). The engine's work is a
// graph of tasks: a kernel's parallel regions (their tasks run side by side) and the parts between
// them that run on one thread. Two numbers bound its time on p threads (the work-span model that
// Cilkscale reports):
//   work T1    the time of every task and every one-thread part, summed: one thread's time;
//   span Tinf  the longest chain that must run one after another: each parallel region's longest
//              task, plus every one-thread part.
// No schedule beats T1 / p or Tinf, and a greedy one (OpenMP's dynamic schedule) takes at most
// (T1 - Tinf) / p + Tinf (Brent; Graham): the span's chain on one thread, the rest shared. So
// T1 / ((T1 - Tinf) / p + Tinf) is the speedup p threads are sure to give; it is 1 on one
// thread and tends to T1 / Tinf. (The looser T1 / (T1 / p + Tinf) counts the span twice.)
// Only meaningful where the machine has a core for every thread: a task's time leaves out the time
// its thread was stopped (src/base/task_clock.hpp), but not what other work on the machine costs it
// (caches, memory bandwidth, a core's other hardware thread).

#include <cstdint>

namespace sgx {

// The sparse kernel's heaps by how they were decided. Its blocks and its pipeline predict
// differently: the pipeline (from tuning::kPipelineLeastThreads threads on) has a seventh of the
// blocks' span for a third more work, so a run on fewer threads predicts the blocks' speedup, and
// a prediction for many cores needs a run on that many threads (which need not have the cores:
// bench/README).
struct SparseHeaps {
  std::uint64_t blocks = 0;
  std::uint64_t pipeline = 0;
  std::uint64_t alone = 0;  // one at a time (lone_heap.hpp)

  std::uint64_t total() const { return blocks + pipeline + alone; }
};

struct WorkSpan {
  double work_seconds = 0;  // T1
  double span_seconds = 0;  // Tinf
  double one_thread_seconds = 0;  // of both, the parts outside parallel regions (the ordered parts)
  double wall_seconds = 0;  // the measured time of the same computation
  int threads = 1;          // threads it ran with
  // What the model leaves out: the parallel regions that ran on all the threads, and the thread
  // time inside them spent in no task (threads x their wall time - their tasks' time): starting
  // and ending each region, and threads waiting for the last task. Divided by regions x threads,
  // the cost of a region on this machine with this many threads.
  std::uint64_t regions = 0;
  double region_idle_seconds = 0;
  SparseHeaps sparse_heaps;  // the prediction is for the decomposition these say
  // Left out of work and span: the time tasks' threads were not running (another thread or
  // process held the core), read from each thread's CPU clock (src/base/task_clock.hpp), and in
  // how many tasks. Without it the span would grow with the machine's other load.
  double stopped_seconds = 0;
  std::uint64_t stopped_tasks = 0;
  // Left out as well, beyond the stops: gaps in the pipeline's tasks ahead of its chain where
  // their thread, though it held the core, did not run (an interrupt, or the host of a virtual
  // machine), found between the notes those tasks take every few microseconds; and how many.
  double interrupted_seconds = 0;
  std::uint64_t interruptions = 0;

  // T1 / ((T1 - Tinf) / p + Tinf): the speedup on p threads the work and span allow (1 when
  // nothing ran).
  double predicted_speedup(int p) const {
    const double bound = (work_seconds - span_seconds) / p + span_seconds;
    return bound > 0 ? work_seconds / bound : 1.0;
  }
};

}  // namespace sgx
