// The sparse kernel's blocks: heaps taken B at a time, their pairs with a partner below the block
// listed in parallel (a group's marking, then each heap's own scan and candidates), then decided in
// order, each value that waits only on its rare values' scan taken on speculation and confirmed
// after the block in parallel (confirm_speculations). On several threads a block flows instead
// (flow_block): one thread decides each heap as soon as its own work is done, while the others do
// the work of the heaps after it and confirm its speculations behind it.

#include "sparse/sparse_kernel.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include <omp.h>

namespace sgx {

namespace {

// How a thread with nothing to do waits for the others: a pause instruction at first, since under
// a hypervisor a yield() may give the processor away for microseconds (a flowing block's threads
// lost 18 microseconds a block that way, on Grundy's game to 2^23 on two threads); after a
// while a yield(), in case a waited-for thread needs the processor (more threads than
// processors, as --profile may run).
class IdleWait {
 public:
  void wait() {
    if (++idle_ < kPausesBeforeYield) {
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#endif
    } else {
      std::this_thread::yield();
    }
  }
  void reset() { idle_ = 0; }

 private:
  static constexpr int kPausesBeforeYield = 1024;
  int idle_ = 0;
};

}  // namespace

// The ordered part of the block from start, for heaps from..end - 1: each heap's options that the
// parallel part could not see, in order. It runs on one thread while the others wait, so it does
// as little as it can: those few options are only compared with the heap's least common values
// not yet seen (decide_quickly, after making the known set exact where its screening cut the
// candidates short: decide_quickly_exact), and with speculate, a value that then stands unless
// a rare value below it is given by no option is taken on speculation (listed in speculated_,
// confirmed after the block in parallel). Only where that does not settle the value are all
// options put in a set (the full decision); there a guess that would have been wrong counts as a
// miss too (block_missed_). Stops early, returning it, at a value that does not fit T.
template <class T>
std::optional<Value> SparseKernel::decide_in_order(ValueVector<T>& g, std::uint64_t from, std::uint64_t end,
                                                   std::size_t rare_before_block, bool speculate) {
  const Value type_max = std::numeric_limits<T>::max();
  const bool quick = can_decide_quickly(base_);
  for (std::uint64_t n = from; n < end; ++n) {
    bool speculated = false;
    const Value value = decide_in_turn(g, n, rare_before_block, quick, speculate, speculated);
    if (speculated) speculated_.push_back(n);
    if (value > type_max) return value;
    g.push_back(static_cast<T>(value));
    record(n, value);
  }
  return std::nullopt;
}

// ---- A block on several threads, decided as its heaps' tasks finish.
//
// Decided in steps, a block makes its threads wait three times: for its groups' marking, for
// its heaps' tasks, and for the ordered part, which one thread runs alone (on Grundy's game to
// 2^23 on two threads, 0.34 s of 2.6). Flowing, it runs in one region: the threads take the
// groups' markings, then the heaps' tasks (each once its group is marked); one of them, the
// chain, decides each heap as soon as its task is done, taking tasks itself while the next is
// not; and the confirmations of its speculations are taken behind it. The chain stops before
// a value that would change what the other threads read (a new rare position, or a value past
// the bound or the type); the ordered part decides the rest of the block.

// Whether the block [start, end) flows: on several threads, with every value readable, and with
// pairs enough to share.
bool SparseKernel::can_flow(std::uint64_t start, std::uint64_t end) const {
  return omp_get_max_threads() > 1 && !released_ &&
         rare_.positions.size() * (end - start) * moves_.split_two().size() >= tuning::kSparseParallelMinPairs;
}

// Decides the block [start, end) as it flows (see above), returning the first heap it did not
// decide (end, unless the chain stopped). The values it speculated are in speculated_, their
// full decisions in confirmed_.
template <class T>
std::uint64_t SparseKernel::flow_block(ValueVector<T>& g, std::uint64_t start, std::uint64_t end,
                                       std::size_t rare_before_block, bool speculate) {
  const std::uint64_t count = end - start;
  prepare_heaps(start, count);
  reset_heaps(0, count);
  const bool quick = can_decide_quickly(start);
  if (quick) lay_out_near_rare<T>(block_);
  BlockFlow& flow = flow_;
  flow.start(count, quick, sizeof(T) <= 2 && can_screen_pairs(), timing_tasks());
  speculated_.resize(count);
  confirmed_.resize(count);
  const Ticks started = flow.timed ? read_ticks() : 0;
  g.resize(end);  // the chain writes in place, as other threads read the values below
#pragma omp parallel
  {
    Worker worker(rare_.bound);
    const bool chain = omp_get_thread_num() == 0;
    IdleWait idle;
    for (;;) {
      if ((chain && !flow.chain_done.load(std::memory_order_relaxed) &&
           advance_chain(g, flow, rare_before_block, speculate)) ||
          run_flow_task(g, flow, worker)) {
        idle.reset();
        continue;
      }
      if (flow.finished()) break;
      idle.wait();
    }
  }
  g.resize(flow.chain_end);
  const std::uint64_t speculations = flow.speculations.load(std::memory_order_relaxed);
  speculated_.resize(speculations);
  confirmed_.resize(speculations);
  if (flow.timed) record_region(flow_ticks(flow), started, true);
  review_screening();
  return flow.chain_end;
}

// The chain's step: decides the heaps of the next heap task if it is done, and says whether it
// was. Stops the chain (chain_done) after the block's last heap, or before a value that would
// change what the other threads read.
template <class T>
inline bool SparseKernel::advance_chain(ValueVector<T>& g, BlockFlow& flow, std::size_t rare_before_block,
                                        bool speculate) {
  const std::uint64_t h = flow.chained;
  if (!flow.task_done[h].load(std::memory_order_acquire)) return false;
  const Ticks began = flow.timed ? begin_task() : 0;
  const std::uint64_t first = base_ + h * tuning::kSparseHeapsPerTask;
  const std::uint64_t last = std::min(base_ + flow.heaps, first + tuning::kSparseHeapsPerTask);
  std::uint64_t speculations = flow.speculations.load(std::memory_order_relaxed);
  std::uint64_t n = first;
  for (; n < last; ++n) {
    bool speculated = false;
    const Value value = decide_in_turn(g, n, rare_before_block, flow.quick, speculate, speculated);
    if (changes_shared_state(n, value)) break;
    g[n] = static_cast<T>(value);
    rare_.count_common(n, value);
    if (speculated) speculated_[speculations++] = n;
  }
  flow.speculations.store(speculations, std::memory_order_release);
  if (flow.timed) flow.chain_took[h] = end_task(began);
  flow.chained = h + 1;
  if (n < last || flow.chained == flow.tasks) {
    flow.chain_end = n;
    flow.chain_done.store(true, std::memory_order_release);
  }
  return true;
}

// Whether recording G(n) = value would change what the block's other threads read: the sets'
// bound (and with it the common patterns), the histogram's size, or the rare positions. A value
// too wide for T is past the bound too.
inline bool SparseKernel::changes_shared_state(std::uint64_t n, Value value) const {
  return value >= rare_.bound || value >= rare_.histogram.size() || (lists_rare_ && is_rare(value, n, rare_.mask));
}

// Claims a heap task of a marked group, the lowest this thread marked first: the task reads what
// the marking wrote, still in this core's cache (on two threads, Grundy's game to 2^23, the heap
// tasks took 1.23-1.25 s instead of 1.30-1.33 s, as on one thread). Returns flow.tasks if none
// is ready.
inline std::uint64_t SparseKernel::claim_heap_task(BlockFlow& flow) {
  constexpr std::uint64_t kTasksAGroup = tuning::kSparseGroup / tuning::kSparseHeapsPerTask;
  const int me = omp_get_thread_num();
  for (const bool mine_only : {true, false})
    for (std::uint64_t q = 0; q < flow.groups; ++q) {
      const std::uint64_t tasks = std::min(kTasksAGroup, flow.tasks - q * kTasksAGroup);
      if (flow.tasks_claimed[q].load(std::memory_order_relaxed) >= tasks ||
          !flow.group_marked[q].load(std::memory_order_acquire) || (mine_only && flow.marked_by[q] != me))
        continue;
      const std::uint64_t j = flow.tasks_claimed[q].fetch_add(1, std::memory_order_relaxed);
      if (j < tasks) return q * kTasksAGroup + j;
    }
  return flow.tasks;
}

// Claims and runs one of the flow's tasks other than the chain's: a group's marking, else a heap
// task (claim_heap_task), else confirmations behind the chain. Returns false if none was ready.
template <class T>
inline bool SparseKernel::run_flow_task(const ValueVector<T>& g, BlockFlow& flow, Worker& worker) {
  if (flow.next_group.load(std::memory_order_relaxed) < flow.groups) {
    const std::uint64_t q = flow.next_group.fetch_add(1, std::memory_order_relaxed);
    if (q < flow.groups) {
      const Ticks began = flow.timed ? begin_task() : 0;
      const std::uint64_t first = q * tuning::kSparseGroup;
      mark_known_pairs_of_group(g, first, std::min(flow.heaps, first + tuning::kSparseGroup), base_, worker.group,
                                flow.screening, true);
      if (flow.timed) flow.mark_took[q] = end_task(began);
      flow.marked_by[q] = omp_get_thread_num();
      flow.group_marked[q].store(1, std::memory_order_release);
      return true;
    }
  }
  if (const std::uint64_t h = claim_heap_task(flow); h < flow.tasks) {
    const Ticks began = flow.timed ? begin_task() : 0;
    const std::uint64_t first = h * tuning::kSparseHeapsPerTask;
    run_heap_task(g, first, std::min(flow.heaps, first + tuning::kSparseHeapsPerTask), flow.quick, worker.marks,
                  worker.missing);
    if (flow.timed) flow.task_took[h] = end_task(began);
    flow.task_done[h].store(1, std::memory_order_release);
    return true;
  }
  std::uint64_t first = flow.confirmations_claimed.load(std::memory_order_relaxed);
  const std::uint64_t published = flow.speculations.load(std::memory_order_acquire);
  if (first >= published) return false;
  // Halves what is left, so that the block's last confirmations are shared out too.
  const std::uint64_t last = first + std::clamp<std::uint64_t>((published - first) / 2, 1, kConfirmationsPerTask);
  if (!flow.confirmations_claimed.compare_exchange_strong(first, last, std::memory_order_relaxed)) return true;
  const Ticks began = flow.timed ? begin_task() : 0;
  for (std::uint64_t k = first; k < last; ++k)
    confirmed_[k] = confirm_speculation(g, speculated_[k], rare_.positions.size(), worker);
  if (flow.timed)
    flow.confirmation_took[flow.confirmation_tasks.fetch_add(1, std::memory_order_relaxed)] = {
        end_task(began), speculated_[last - 1]};
  flow.confirmations_done.fetch_add(last - first, std::memory_order_release);
  return true;
}

// The flow's work and span: with threads enough, every group is marked at once, each heap
// task runs as soon as its group is, the chain takes each task once both it and the task before
// are done, and a confirmation task runs as soon as the chain has passed its last heap.
inline RegionTicks SparseKernel::flow_ticks(const BlockFlow& flow) const {
  RegionTicks ticks;
  std::vector<Ticks> chained_at(flow.tasks);
  Ticks chain = 0;
  for (std::uint64_t q = 0; q < flow.groups; ++q) ticks.summed += flow.mark_took[q];
  for (std::uint64_t h = 0; h < flow.tasks; ++h) {
    const Ticks ready = flow.mark_took[h * tuning::kSparseHeapsPerTask / tuning::kSparseGroup] + flow.task_took[h];
    chain = std::max(chain, ready) + flow.chain_took[h];
    chained_at[h] = chain;
    ticks.summed += flow.task_took[h] + flow.chain_took[h];
  }
  ticks.longest = chain;
  for (std::uint64_t c = 0; c < flow.confirmation_tasks.load(std::memory_order_relaxed); ++c) {
    const auto [took, last_heap] = flow.confirmation_took[c];
    ticks.summed += took;
    ticks.longest =
        std::max(ticks.longest, chained_at[(last_heap - base_) / tuning::kSparseHeapsPerTask] + took);
  }
  return ticks;
}

// Runs the full decision of every heap in speculated_, in parallel (each reads only the values
// below its heap, all in g), and empties the list. Returns the lowest heap whose value was wrong.
// A full decision that needs released values (MemoryReachError) below any miss is rethrown,
// once the values from its heap on are forgotten, as the ordered part would have thrown it.
template <class T>
std::optional<SparseKernel::Miss> SparseKernel::confirm_speculations(ValueVector<T>& g, std::size_t rare_before_block) {
  const std::size_t count = speculated_.size();
  if (count == 0) return std::nullopt;
  confirmed_.resize(count);
  std::size_t first_stopped = kNone;
  std::exception_ptr stopped;
  const bool parallel = count > 1;
  const bool timed = timing_tasks();
  const Ticks region_started = timed ? read_ticks() : 0;
  RegionTicks tasks;
#pragma omp parallel if (parallel)
  {
    Worker worker(rare_.bound);
    TaskTimer timer(timed);
#pragma omp for schedule(dynamic)  // heaps as tasks: most take a short scan, a few a long one
    for (std::size_t i = 0; i < count; ++i) {
      timer.start();
      try {
        confirmed_[i] = confirm_speculation(g, speculated_[i], rare_before_block, worker);
      } catch (const MemoryReachError&) {
#pragma omp critical(sgx_confirm_stopped)
        if (i < first_stopped) {
          first_stopped = i;
          stopped = std::current_exception();
        }
      }
      timer.stop();
    }
    if (timed) {
#pragma omp critical(sgx_work_span)
      timer.merge_into(tasks);
    }
  }
  if (timed) record_region(tasks, region_started, parallel);
  return first_miss(g, first_stopped, stopped);
}

// The lowest heap of speculated_ whose full decision (confirmed_) differs from its value, and
// empties the list. A full decision stopped (first_stopped, by stopped) below it is rethrown.
template <class T>
std::optional<SparseKernel::Miss> SparseKernel::first_miss(ValueVector<T>& g, std::size_t first_stopped,
                                                           const std::exception_ptr& stopped) {
  std::optional<Miss> miss;
  for (std::size_t i = 0; i < speculated_.size() && !miss; ++i) {
    const std::uint64_t n = speculated_[i];
    if (i == first_stopped) {
      speculated_.clear();
      forget_from(g, n);
      std::rethrow_exception(stopped);
    }
    if (confirmed_[i] != g[n]) miss = Miss{n, confirmed_[i]};
  }
  speculated_.clear();
  return miss;
}

// For each heap n of the block, the values of pairs with a partner below start: (r, m - r)
// with r rare, the probe pairs, then (a, m - a) for a = 1, 2, ... until every rare value below
// the least common value not listed is present. scanned_to_ says up to which a every pair was
// listed.
template <class T>
void SparseKernel::enumerate_known_pairs(const ValueVector<T>& g, std::uint64_t start, std::uint64_t end) {
  const std::uint64_t count = end - start;
  prepare_heaps(start, count);
  reset_heaps(0, count);
  const bool quick = can_decide_quickly(start);
  const bool parallel = rare_.positions.size() * count * moves_.split_two().size() >= tuning::kSparseParallelMinPairs;
  const bool screening = sizeof(T) <= 2 && can_screen_pairs();
  const bool timed = timing_tasks();
  Ticks region_started = timed ? read_ticks() : 0;
  RegionTicks marking, by_heap;
#pragma omp parallel if (parallel)
  {
    ValueMarks marks(rare_.bound);
    ValueSet missing(rare_.bound);
    GroupMarks group;
    TaskTimer mark_timer(timed), heap_timer(timed);
#pragma omp for schedule(dynamic, 1)  // one group a task: their costs differ (tuning.hpp, kSparseBlock)
    for (std::uint64_t first = 0; first < count; first += tuning::kSparseGroup) {
      mark_timer.start();
      mark_known_pairs_of_group(g, first, std::min(count, first + tuning::kSparseGroup), start, group, screening,
                                true);
      mark_timer.stop();
    }
    // Then each heap's own work, a few heaps a task: the pairs of a heap whose screening failed,
    // its scan for rare values (either may take thousands of pairs, and inside its group's task
    // made that the block's longest), and its candidates for the ordered part.
    if (timed) {
#pragma omp critical(sgx_work_span)
      mark_timer.merge_into(marking);
#pragma omp barrier
#pragma omp single
      {
        record_region(marking, region_started, parallel);
        region_started = read_ticks();
      }
    }
#pragma omp for schedule(dynamic, 1)
    for (std::uint64_t first = 0; first < count; first += tuning::kSparseHeapsPerTask) {
      heap_timer.start();
      run_heap_task(g, first, std::min(count, first + tuning::kSparseHeapsPerTask), quick, marks, missing);
      heap_timer.stop();
    }
    if (timed) {
#pragma omp critical(sgx_work_span)
      heap_timer.merge_into(by_heap);
    }
  }
  if (timed) record_region(by_heap, region_started, parallel);
  review_screening();
}

// Sizes the per-heap state (known_ and the rest) for count heaps from base on; reset_heaps
// clears each heap's before its first use. The pipeline leaves that to each heap's far stage, in
// parallel: it is sized for every heap left to its target, of which it may reach few. Each part
// only grows, and is written before it is read (the candidates are listed, the screened pairs
// cleared): a run goes from blocks of 1024 heaps to pipeline steps of 65536 and back, and sizing
// the candidates down and up again cleared 3.6 MB each time (2.8 ms of the 25 ms Grundy's game
// to 2^24 spent on one thread outside the regions, on 64 threads).
void SparseKernel::prepare_heaps(std::uint64_t base, std::uint64_t count) {
  base_ = base;
  heap_count_ = count;
  auto grow = [count](auto& per_heap, std::size_t size) {
    if (per_heap.size() < size) per_heap.resize(size);
  };
  grow(known_, count);
  grow(scanned_to_, count);
  grow(exact_below_, count);
  grow(remark_, count);
  grow(screened_of_, (count + part_heaps(0) - 1) / part_heaps(0));  // the smaller unit
  grow(candidates_, count);
  grow(first_candidates_, count);  // the pipeline's
  grow(second_candidates_, count);
  candidates_bound_ = rare_.bound;
}

// Clears the state of the heaps base_ + i, i in [first, last): nothing known of them yet.
void SparseKernel::reset_heaps(std::uint64_t first, std::uint64_t last) {
  for (std::uint64_t i = first; i < last; ++i) size_set(known_[i], rare_.bound);
  std::fill(scanned_to_.begin() + first, scanned_to_.begin() + last, 0);
  std::fill(exact_below_.begin() + first, exact_below_.begin() + last, kExact);
  std::fill(remark_.begin() + first, remark_.begin() + last, 0);
}

// A heap task of the block: the own work of the heaps base_ + i, i in [first, last), before their
// turn: their scans and, where the ordered part decides quickly, their candidates.
template <class T>
inline void SparseKernel::run_heap_task(const ValueVector<T>& g, std::uint64_t first, std::uint64_t last, bool quick,
                                        ValueMarks& marks, ValueSet& missing) {
  for (std::uint64_t i = first; i < last; ++i) {
    scan_known_pairs(g, i, base_, marks, missing);
    if (quick) list_candidates<T>(base_ + i);
  }
}

// Heap base_ + i's own part of what is known before it is decided: the screened pairs where its
// screening failed, then its scan for the rare values below its least common value not known,
// among the pairs with the partner below limit (scanned_to_).
template <class T>
inline void SparseKernel::scan_known_pairs(const ValueVector<T>& g, std::uint64_t i, std::uint64_t limit,
                                           ValueMarks& marks, ValueSet& missing) {
  mark_if_screening_failed(g, i, marks);
  const ValueSet& common = rare_.common_pattern(base_ + i);
  const Value c = known_[i].first_missing_of(common, static_cast<Value>(rare_.bound));
  if (missing.assign_missing_below(known_[i], common, c) > 0)
    scanned_to_[i] = collect_missing(g, base_ + i, 1, 0, limit, marks, missing, known_[i]).listed_to;
}

// Instantiated here for every type of values: the other files see only the declarations.
#define SGX_SPARSE_INSTANTIATE(T) \
  template std::optional<Value> SparseKernel::decide_in_order<T>(ValueVector<T>& g, std::uint64_t from, \
      std::uint64_t end, std::size_t rare_before_block, bool speculate); \
  template std::uint64_t SparseKernel::flow_block<T>(ValueVector<T>& g, std::uint64_t start, std::uint64_t end, \
      std::size_t rare_before_block, bool speculate); \
  template std::optional<SparseKernel::Miss> SparseKernel::confirm_speculations<T>(ValueVector<T>& g, \
      std::size_t rare_before_block); \
  template std::optional<SparseKernel::Miss> SparseKernel::first_miss<T>(ValueVector<T>& g, \
      std::size_t first_stopped, const std::exception_ptr& stopped); \
  template void SparseKernel::enumerate_known_pairs<T>(const ValueVector<T>& g, std::uint64_t start, \
      std::uint64_t end);
SGX_SPARSE_FOR_EACH_TYPE(SGX_SPARSE_INSTANTIATE)
#undef SGX_SPARSE_INSTANTIATE

}  // namespace sgx
