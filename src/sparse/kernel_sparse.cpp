// The rare-value ("sparse space") kernel, docs/THEORY.md section 4.
//
// With a mask m, a value is rare when popcount(v & m) is even (or, with the heap's parity, has
// the parity of n - k). A two-heap split option is common only when exactly one part is rare, so
// pairing every rare position r with its partner lists every common option value (with the
// heap's parity, which values are common depends on the parity of n: one pattern for each). The
// least common value c not listed bounds G(n); the rare values below c must still be shown
// present, by scanning split pairs from the small end until each is found. When the rare list R
// stays small, each heap costs O(|splits| |R|) instead of O(n).
//
// The scan is a coupon collector: the last few values take thousands of pairs. Two common parts
// give a rare value, and two frequent values give it most often, while the first pairs' small
// parts have small values that reach few of them. So before the scan, every heap's pairs whose
// first part holds one of the most frequent values are marked (the probe pairs, 64 heaps at
// once); the scan then marks its pairs while many values are missing and tests them against the
// few still missing, a vector of 32 or 64 at a time (pair_search.hpp).
//
// The rare pairs are the other cost: each heap pairs with every rare position. Their values are
// marked for the first few hundred; the rest are only screened, 64 heaps at a time, against each
// heap's least common values not yet seen (pair_screen.hpp), since the least common value no
// pair gives is nearly always among them.
//
// Games whose values stay below 256 and whose rare positions are few (0.167, 0.127, 0.174,
// 0.245) have their heaps decided one at a time instead (lone_heap.hpp, decide_alone): for them the blocks below
// cost more than they share out.
//
// Parallelism: heaps are taken in blocks [s, s + B). A pair whose partner lies below s is known
// before the block starts, so those pairs are listed, and each heap's scan run, for the whole
// block at once, in parallel: first the rare and probe pairs a group of heaps at a time, then
// each heap's own work (its scan, and the candidates its ordered part compares) in small tasks,
// since one heap's scan can take thousands of pairs. In order, each heap then compares its pairs
// with a rare part inside the block (few) with its candidates, and takes the first none gives; it
// looks for any rare value still missing among the pairs the parallel part could not see. That
// last look is the slow part of a heap's turn, and it almost never changes the value: where it is
// all that is left, the value is taken on speculation and the looks run after the block, in
// parallel; a wrong guess (a new rare position) takes back the values from its heap on, and the
// rest of the block is decided again.
//
// On several threads a block flows instead of going in these steps (SparseKernel::flow_block):
// one thread decides each heap in order as soon as its own work is done, while the others do the
// work of the heaps after it and confirm its speculations behind it, so no thread waits for an
// ordered part at the block's end.
//
// On tuning::kPipelineLeastThreads threads or more, past the first heaps, blocks give way to a
// pipeline (on fewer its extra work costs more than its shorter span saves): one thread
// decides heaps in order without waiting at block ends, while the others list each group's pairs
// ahead of it, as soon as the values they read are decided, and confirm its speculations behind
// it (see SparseKernel::pipeline).

#include <algorithm>
#include <atomic>
#include <bit>
#include <cassert>
#include <exception>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <thread>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <omp.h>

#include "sparse/chain_step.hpp"
#include "sparse/group_marks.hpp"
#include "kernels/kernel.hpp"
#include "sparse/lone_heap.hpp"
#include "sparse/pair_bits.hpp"
#include "sparse/pair_screen.hpp"
#include "sparse/rare_state.hpp"
#include "kernels/pair_search.hpp"
#include "sgx/stats.hpp"
#include "base/tuning.hpp"
#include "kernels/value_set.hpp"

namespace sgx {

namespace {

using RareIt = std::vector<std::uint64_t>::const_iterator;

static_assert(tuning::kSparseGroup == kScreenHeaps, "a group is screened in one go");
static_assert(tuning::kQuickCandidates <= kScreenSlots && kScreenSlots <= 16,
              "a heap's candidates are bits of 16, and screened together");

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

// A known set that lists every common value (exact_below_).
constexpr Value kExact = std::numeric_limits<Value>::max();

// The rare positions rare_.positions[first..last) whose pairs with the heaps of a group are
// screened rather than marked (pair_screen.hpp): a heap j of the group splits into parts summing
// to m_lo + j.
// Indices, not iterators: rare positions that join during the block may move the list.
struct Screened {
  const SplitMove* move;
  std::uint64_t m_lo;
  std::size_t first, last;
};

// Rare positions matter only to two-heap splits; a game without them (a subtraction game, say)
// would list almost half its positions for nothing.
bool splits_into_two(const Rules& rules) {
  for (const auto* digits : {&rules.finite_digits(), &rules.tail_digits()})
    for (const Digit& d : *digits)
      if (d.bits & kLeaveTwo) return true;
  return false;
}

class SparseKernel final : public Kernel {
 public:
  explicit SparseKernel(const Rules& rules)
      : Kernel(rules), lists_rare_(splits_into_two(rules)), split_parity_(rules.split_take_parity()) {}

  void attach(const Sequence& values) override {
    forget_probe_parts();
    rare_.clear();
    lone_ready_ = false;
    for (std::uint64_t n = 0; n < values.size(); ++n) rare_.count_value(n, values[n]);
    values.visit([this](const auto& g) { choose_mask(g); });
  }

  void attach_state(const Sequence& values, const SparseState& state) override {
    forget_probe_parts();
    rare_.load(state);
    lone_ready_ = false;
    set_reach(values);
  }

  void note_filled(const Sequence& values, std::uint64_t from) override {
    for (std::uint64_t n = from; n < values.size(); ++n) rare_.count_value(n, values[n]);
  }

  std::optional<SparseState> state() const override { return rare_.saved(); }

  void compute(Sequence& values, std::uint64_t target) override {
    set_reach(values);
    block_ = omp_get_max_threads() == 1 ? tuning::kSparseBlockOneThread : tuning::kSparseBlock;
    extend_widening(values, target, [&](auto& g) { return run(g, target); },
                    [this](std::uint64_t n, Value value) { record(n, value); });
  }

  KernelKind kind() const override { return KernelKind::Sparse; }
  std::uint64_t rare_count() const override { return rare_.positions.size(); }
  bool prefers_sweep(std::uint64_t n) const override {
    // From the rules, not the move table: that is filled only once extend() runs, and a resumed
    // run asks before.
    return lists_rare_ && auto_prefers_sweep(n, rare_.positions.size());
  }

 private:
  // A heap's least common values missing from its known set, for decide_quickly and the
  // pipeline's chain: tuning::kQuickCandidates in blocks; in the pipeline, as many as are screened.
  // given: by the bands (screen_band).
  using Candidates = HeapCandidates;

  // A heap whose full decision differs from the value taken on speculation.
  struct Miss {
    std::uint64_t heap;
    Value value;  // its true value
  };

  // The partner below which heap n's known set holds its options: its rare pairs with such a
  // partner, and its pairs (a, m - a) with a up to its scanned_to_. The rest are compared or looked
  // for when the heap is decided. In a block, the block's first heap; in the pipeline, its group's
  // first gate (limit_of_group).
  std::uint64_t known_below(std::uint64_t n) const {
    return pipelined_ ? limit_of_group((n - base_) / tuning::kSparseGroup) : base_;
  }

  // The heaps whose rare pairs are marked and screened together: a block's group, or in the
  // pipeline a part of one (its far stage runs in kFarParts tasks).
  std::uint64_t screening_unit() const { return pipelined_ ? part_heaps(0) : tuning::kSparseGroup; }
  // The screened rare pairs of the unit of heap base_ + i.
  std::vector<Screened>& screened_of(std::uint64_t i) { return screened_of_[i / screening_unit()]; }
  const std::vector<Screened>& screened_of(std::uint64_t i) const { return screened_of_[i / screening_unit()]; }

  // The working sets of one full decision, sized for rare_.bound (fit() before each use).
  struct DecideScratch {
    std::uint64_t bound = 0;
    ValueSet seen, missing;
    ValueMarks marks;

    void fit(std::uint64_t new_bound) {
      if (bound == new_bound) return;
      bound = new_bound;
      seen.reset(bound);
      missing.reset(bound);
      marks.reset(bound);
    }
  };

  // Bounded memory: which values the pairs may read (sequence.hpp). Rare values are kept apart in
  // rare_.values, so only a pair's other part must be held.
  void set_reach(const Sequence& values) {
    released_ = values.has_released();
    prefix_end_ = released_ ? values.prefix_end() : std::numeric_limits<std::uint64_t>::max();
    tail_start_ = released_ ? values.tail_start() : 0;
  }

  // The rare pairs of the block [start, end) whose partner lies below start must find their
  // partners held: a rare r with m - r released, m = n - k, stops the run.
  void check_rare_partners_held(std::uint64_t start, std::uint64_t end) const {
    if (!released_) return;
    for (const SplitMove& move : moves_.split_two()) {
      if (move.take + 2 > end - 1) continue;
      const std::uint64_t m_lo = start > move.take ? start - move.take : 0;
      const std::uint64_t m_hi = end - 1 - move.take;
      // Partner m - r in [prefix_end_, tail_start_)  <=>  m - tail_start_ < r <= m - prefix_end_.
      const std::uint64_t r_from = m_lo >= tail_start_ ? m_lo - tail_start_ + 1 : 0;
      if (m_hi < prefix_end_) continue;
      const auto r = std::lower_bound(rare_.positions.begin(), rare_.positions.end(), r_from);
      if (r != rare_.positions.end() && *r <= m_hi - prefix_end_ && *r < m_hi) {
        const std::uint64_t m = std::min(m_hi, *r + tail_start_ - 1);
        throw MemoryReachError(m + move.take, m - *r,
                               "heap " + std::to_string(m + move.take) + " pairs the rare position " +
                                   std::to_string(*r) + " with G(" + std::to_string(m - *r) + "), " +
                                   released_text(start));
      }
    }
  }

  // n: the values known so far.
  std::string released_text(std::uint64_t n) const {
    return "which was released to stay within the memory bound (kept: " +
           kept_values_text(prefix_end_, tail_start_, n) + ")";
  }

  // Computes heaps block by block until target, or until a value does not fit T (returned).
  template <class T>
  Value run(ValueVector<T>& g, std::uint64_t target) {
    while (g.size() < target) {
      const std::uint64_t before = g.size();
      if (decide_alone(g, target) > 0) {
        count_heaps(&SparseHeaps::alone, before, g.size());
        if (rare_.mask_stale) choose_mask(g);
        continue;
      }
      if (can_pipeline<T>(g.size(), target)) {
        pipeline(g, target);
        count_heaps(&SparseHeaps::pipeline, before, g.size());
        if (rare_.mask_stale) choose_mask(g);
        continue;
      }
      const std::uint64_t start = g.size();
      const std::uint64_t end = std::min(target, start + block_);
      const std::size_t rare_before_block = rare_.positions.size();
      choose_probe_parts_if_stale(g);
      check_rare_partners_held(start, end);
      rare_.start_undo_log();
      block_missed_ = false;
      bool speculate = quiet_blocks_ >= tuning::kSpeculateAfterQuietBlocks;
      // The block flows where it can (flow_block): its heaps up to from are then decided and their
      // speculations confirmed. Otherwise the ordered part decides them all.
      std::uint64_t from = start;
      std::optional<Miss> miss;
      if (can_flow(start, end)) {
        from = flow_block(g, start, end, rare_before_block, speculate);
        miss = first_miss(g);
      } else {
        enumerate_known_pairs(g, start, end);
        if (can_decide_quickly(start)) lay_out_near_rare<T>(block_);
      }
      // The ordered part, then the confirmation of the values it took on speculation; a miss
      // (the lowest heap whose full decision differs) is put right and the rest of the block
      // decided again, without speculation: where one guess was wrong, more often are (new rare
      // positions come in clusters), and each costs the rest of the block.
      for (;;) {
        if (miss) {
          block_missed_ = true;
          speculate = false;
          put_right(g, *miss);
          from = miss->heap + 1;
        }
        std::optional<Value> too_wide;
        std::exception_ptr stopped;  // a full decision that needs values released (bounded runs)
        try {
          too_wide = decide_in_order(g, from, end, rare_before_block, speculate);
        } catch (const MemoryReachError&) {
          stopped = std::current_exception();
        }
        miss = confirm_speculations(g, rare_before_block);
        if (!miss) {
          if (stopped) std::rethrow_exception(stopped);
          if (too_wide) return *too_wide;
          break;
        }
      }
      count_heaps(&SparseHeaps::blocks, start, g.size());
      quiet_blocks_ = block_missed_ ? 0 : quiet_blocks_ + 1;
      if (rare_.mask_stale) choose_mask(g);
    }
    return 0;
  }

  // Adds the heaps from..to - 1, decided one way, to the profile's count of that way.
  void count_heaps(std::uint64_t SparseHeaps::*way, std::uint64_t from, std::uint64_t to) {
    if (timing_tasks() && to > from) work_span_->sparse_heaps.*way += to - from;
  }

  // ---- The pipeline: heaps in groups, each task started as soon as the values it reads are decided.
  //
  // Blocks make every thread wait at each block's end while one decides its heaps in order. Past
  // the first heaps, on kPipelineLeastThreads threads or more, one thread (the chain) decides heaps
  // in order without a stop while the others work ahead of it and behind it. Each group of
  // kSparseGroup heaps from s on passes through these tasks, D running through kPipelineDistances:
  // - once the heaps below s + 64 - D[0] are decided: the group's rare pairs with the partner
  //   below that are marked or screened and its candidates listed (the common values a block's
  //   parallel part lists, with more candidates), in tuning::kFarParts tasks side by side, each
  //   for a part of the group's heaps (run_far_part; parts_of);
  // - once the heaps below s + 64 - D[k] are decided: its pairs with the rare r in [D[k], D[k-1])
  //   (the first band also up to D[0] + 64, where the far pairs of the group's last heaps start),
  //   which pair with every heap of the group, screened against the candidates (screen_band);
  //   the band before the last also lists further candidates where few are left
  //   (extend_candidates), and the last lists exactly those of the heaps it left with none
  //   (list_candidates_exactly), both in kFarParts tasks as well;
  // - the chain compares each heap's pairs with the near rare positions (r up to the last
  //   distance) and its simple options with the candidates left, as a block's ordered part does,
  //   and takes the first none gives, on speculation where a rare value below it is not known
  //   present (nearly always: no task ahead of the chain looks for rare values);
  // - behind the chain: the group's speculations are confirmed, each heap's rare values below
  //   its value looked for among its pairs, the group's probe pairs first (confirm_group).
  // The rare values are looked for behind the chain rather than ahead of it (a block's scan and
  // probe pairs): they never change a value the chain takes, only whether it stands, and ahead of
  // the chain they made the far stage three times as long (Grundy's game to 2^24 on two threads:
  // the far stage's tasks 8.5 s -> 4.3 s, the confirmations 0.33 s -> 5.5 s, the chain's waits
  // 0.133 s -> 0.088 s).
  // A band [D', D) has D - 64 heaps of slack before the chain needs it, so the chain waits for
  // none on many threads, and the span is about the chain's own time.
  // Where none of a heap's candidates stands, the chain marks all its options but those that only
  // show rare values present, and takes the least common value none gives, on speculation as well
  // (least_common_not_given). A value wider than the sets' bound and a wrong speculation (a new
  // rare position among them) stop the pipeline: the values from the first wrong one on are taken
  // back, and blocks go on.
  static constexpr int kPipelineStages = static_cast<int>(std::size(tuning::kPipelineDistances));
  static_assert(tuning::kSparseGroup % tuning::kFarParts == 0, "a group splits into equal parts");
  // The band before the last lists the further candidates (extend_candidates).
  static constexpr int kExtendingStage = kPipelineStages - 2;

  // The tasks of a stage of a group, side by side, each for a part of its heaps: the far stage, the
  // band before the last and the last, the longest tasks for their slack before the chain needs
  // them, in kFarParts; the other bands in one.
  static constexpr int parts_of(int stage) {
    return stage == 0 || stage >= kExtendingStage ? static_cast<int>(tuning::kFarParts) : 1;
  }

  // One group's progress: its stages in order, stage counting those done; a stage's parts are
  // claimed and counted as they finish. A confirmation runs alone (claimed).
  struct PipelineGroup {
    std::atomic<int> stage{0};  // kPipelineStages: its candidates are listed, the chain may take it
    std::atomic<int> parts_claimed[kPipelineStages] = {};
    std::atomic<int> parts_done[kPipelineStages] = {};
    std::atomic<bool> claimed{false};
    std::atomic<bool> confirmed{false};
    std::uint64_t speculated = 0;  // bit j: heap j's value was taken on speculation (written by the chain)
    std::optional<Miss> miss;      // its first heap whose confirmation differs
    Ticks took[kPipelineStages][tuning::kFarParts] = {};  // each task's time, for the profile
    Ticks chain_took = 0, confirm_took = 0;
  };

  // What the chain writes and what the other threads write lie on cache lines of their own: a
  // line both write would stall the chain's stores each group.
  struct Pipeline {
    explicit Pipeline(std::span<PipelineGroup> room) : groups(room) {}
    std::span<PipelineGroup> groups;
    bool timed = false;
    RegionTicks started;  // start_groups' tasks
    // Written by the chain.
    alignas(64) std::atomic<std::uint64_t> decided{0};  // heaps from base_ decided by the chain
    std::atomic<std::uint64_t> chained{0};                // groups the chain has passed
    std::atomic<std::uint64_t> nothing_to_confirm{0};     // of them, those with no speculation
    std::atomic<bool> chain_done{false};
    std::uint64_t chain_end = 0;  // the first heap not decided, once chain_done
    // Written by the others.
    alignas(64) std::atomic<std::uint64_t> confirmed{0};  // groups confirmed by a task
    std::atomic<std::uint64_t> oldest_unconfirmed{0};     // no group below it is left to confirm
    std::atomic<bool> stop{false};                        // no more tasks ahead of the chain

    // Whether every group the chain passed is confirmed (or had nothing to confirm).
    bool all_confirmed() const {
      return confirmed.load(std::memory_order_acquire) + nothing_to_confirm.load(std::memory_order_acquire) ==
             chained.load(std::memory_order_acquire);
    }
  };

  // The per-thread working sets of the tasks of the pipeline and of a flowing block.
  struct Worker {
    explicit Worker(std::uint64_t bound) : marks(bound), missing(bound) {}
    GroupMarks group;
    ValueMarks marks;
    ValueSet missing;
    DecideScratch scratch;
  };

  // Whether the heaps from start on, towards target, go through the pipeline.
  template <class T>
  bool can_pipeline(std::uint64_t start, std::uint64_t target) const {
    // Its bands are screened (so 8 or 16 bits, where screen_rare_pairs runs), it reads every
    // value (no values released), and its chain decides quickly.
    return omp_get_max_threads() >= tuning::kPipelineLeastThreads && sizeof(T) <= 2 && can_screen_pairs() &&
           !released_ && !rare_.mask_stale && start >= pipeline_from_ && start >= 2 * tuning::kPipelineDistances[0] &&
           target - start >= tuning::kPipelineLeastHeaps && quiet_blocks_ >= tuning::kPipelineAfterQuietBlocks &&
           can_decide_quickly(start);
  }

  // The partner below which a heap of group q has its pairs in its known set (known_below).
  std::uint64_t limit_of_group(std::uint64_t q) const { return pipeline_gate(q, 0); }

  // The heap from which group q's stage may run: the heaps below it are decided.
  std::uint64_t pipeline_gate(std::uint64_t q, int stage) const {
    return base_ + (q + 1) * tuning::kSparseGroup - tuning::kPipelineDistances[stage];
  }

  // Room for count groups, kept from step to step; start_groups puts them in their first state.
  std::span<PipelineGroup> pipeline_group_room(std::size_t count) {
    if (count > pipeline_group_capacity_) {
      pipeline_groups_ = std::make_unique<PipelineGroup[]>(count);
      pipeline_group_capacity_ = count;
    }
    return {pipeline_groups_.get(), count};
  }

  // The step's groups put in their first state by the threads side by side, before any task: on
  // one thread this took 5-6 ms of the 24-28 ms a 64-thread run to 2^24 spent outside its regions
  // (258 steps of 1024 groups). Every path through the step's tasks starts after it.
  static void start_groups(Pipeline& pipe) {
    static_assert(std::is_trivially_destructible_v<PipelineGroup>, "a group is overwritten in place");
    const Ticks began = pipe.timed ? begin_task() : 0;
#pragma omp for schedule(static) nowait
    for (std::size_t q = 0; q < pipe.groups.size(); ++q) std::construct_at(&pipe.groups[q]);
    if (pipe.timed) {
      const Ticks took = end_task(began);
#pragma omp critical(sgx_work_span)
      {
        pipe.started.summed += took;
        pipe.started.longest = std::max(pipe.started.longest, took);
      }
    }
#pragma omp barrier
  }

  // Decides the heaps from g.size() towards target (see above), stopping early where it must.
  template <class T>
  void pipeline(ValueVector<T>& g, std::uint64_t target) {
    const std::uint64_t start = g.size();
    choose_probe_parts_if_stale(g);
    const std::uint64_t count = target - start;
    prepare_heaps(start, count);
    pipelined_ = true;
    lay_out_near_rare<T>(tuning::kPipelineNear);
    rare_.start_undo_log();
    Pipeline pipe(pipeline_group_room((count + tuning::kSparseGroup - 1) / tuning::kSparseGroup));
    pipe.timed = timing_tasks();
    const Ticks started = pipe.timed ? read_ticks() : 0;
    g.resize(target);  // the chain writes in place, as other threads read the values below
#pragma omp parallel
    {
      start_groups(pipe);
      Worker worker(rare_.bound);
      if (omp_get_thread_num() == 0) run_chain(g, pipe, worker);
      help_pipeline(g, pipe, worker);
    }
    pipelined_ = false;
    g.resize(pipe.chain_end);
    if (pipe.timed) record_region(pipeline_ticks(pipe), started, true);
    review_screening();
    pipeline_from_ = pipe.chain_end < target ? pipe.chain_end + block_ : 0;
    for (const PipelineGroup& group : pipe.groups)
      if (group.miss) {
        quiet_blocks_ = 0;
        put_right(g, *group.miss);
        break;
      }
  }

  // The chain: each group's heaps in order, once its candidates are listed, helping with the
  // other tasks while they are not.
  template <class T>
  void run_chain(ValueVector<T>& g, Pipeline& pipe, Worker& worker) {
    const Value type_max = std::numeric_limits<T>::max();
    const std::uint64_t count = g.size() - base_;
    const NearOptions<T> near = near_options<T>();
    const bool can_compare = can_chain_decide(near);
    std::uint64_t n = base_;
    bool asked_for = false;  // the group's candidates, once its tasks were done
    for (std::uint64_t q = 0; q < pipe.groups.size(); ++q) {
      PipelineGroup& group = pipe.groups[q];
      // A wrong speculation stops the tasks ahead (and so the wait).
      while (group.stage.load(std::memory_order_acquire) < kPipelineStages &&
             !pipe.stop.load(std::memory_order_relaxed))
        if (!run_pipeline_task(g, pipe, worker)) std::this_thread::yield();
      if (pipe.stop.load(std::memory_order_relaxed)) break;
      const Ticks began = pipe.timed ? begin_task() : 0;
      // Another thread's tasks wrote the candidates: asked for a group at a time, their cache
      // lines come side by side, not one after another as the step reaches them. The next
      // group's are asked for now if its tasks are done, to arrive while this one is decided.
      if (!asked_for) prefetch_candidates(q);
      asked_for = q + 1 < pipe.groups.size() &&
                  pipe.groups[q + 1].stage.load(std::memory_order_acquire) == kPipelineStages;
      if (asked_for) prefetch_candidates(q + 1);
      const std::uint64_t end = base_ + std::min(count, (q + 1) * tuning::kSparseGroup);
      const bool compare_alone = can_compare && rare_.bound == candidates_bound_ && !takes_all_between(n, end);
      // Written to the group once: other threads read its line, looking for tasks.
      std::uint64_t speculated_here = 0;
      for (; n < end; ++n) {
        if constexpr (sizeof(T) <= 2)  // can_pipeline
          if (compare_alone) {  // while the compare settles the heaps
            std::uint64_t speculated = 0;
            const std::uint64_t stopped =
                chain_decide(g.data(), n, end, candidates_.data() + (n - base_), near, speculated);
            speculated_here |= speculated << ((n - base_) % tuning::kSparseGroup);
            for (; n < stopped; ++n) rare_.count_common(n, g[n]);
            if (n == end) break;
          }
        Value value = 0;
        // Not decide_quickly_exact: candidates listed again would miss what the bands gave. After
        // the compare, none of the heap's candidates stands.
        const Quick outcome = compare_alone ? Quick::kUndecided : decide_quickly(g, n, rare_.positions.size(), value);
        bool unsure = outcome == Quick::kSpeculative;
        if (outcome == Quick::kUndecided) {
          value = least_common_not_given(g, n, unsure);
          // A wider value changes the sets' bounds: the blocks' to record, once no task reads them.
          if (value >= rare_.bound || value > type_max) {
            pipe.stop.store(true, std::memory_order_relaxed);
            break;
          }
        }
        speculated_here |= std::uint64_t{unsure} << ((n - base_) % tuning::kSparseGroup);
        g[n] = static_cast<T>(value);
        rare_.count_common(n, value);
      }
      group.speculated = speculated_here;
      if (pipe.timed) group.chain_took = end_task(began);
      if (speculated_here == 0) {
        group.confirmed.store(true, std::memory_order_relaxed);
        // Only the chain writes it; the others read it after chained (released below).
        pipe.nothing_to_confirm.store(pipe.nothing_to_confirm.load(std::memory_order_relaxed) + 1,
                                      std::memory_order_relaxed);
      }
      pipe.decided.store(n - base_, std::memory_order_release);
      pipe.chained.store(q + 1, std::memory_order_release);
    }
    pipe.chain_end = n;
    pipe.stop.store(true, std::memory_order_relaxed);
    pipe.chain_done.store(true, std::memory_order_release);
  }

  // The chain's full decision of heap n, where none of its candidates stands: the least common value
  // no option gives, every option marked but the pairs that only show rare values present. Unsure
  // where a rare value below it is not known present: the search for such values, the most of a
  // full decision, is left to the group's confirmation, as for the values the compare takes (it
  // finds a new rare position there too). Grundy's game to 2^24: 18710 heaps, at 2.3-3.3
  // microseconds each in full, a quarter of the chain's time.
  template <class T>
  Value least_common_not_given(const ValueVector<T>& g, std::uint64_t n, bool& unsure) {
    const std::uint64_t i = n - base_;
    DecideScratch& scratch = ordered_scratch_;
    mark_options_left(g, n, rare_.positions.size(), scratch);
    ValueSet& seen = scratch.seen;
    const ValueSet& common = rare_.common_pattern(n);
    Value least = seen.first_missing_of(common, static_cast<Value>(rare_.bound));
    // The known set lists every common value only below exact_below_: past it, the screened pairs.
    if (least >= exact_below_[i]) {
      mark_screened_pairs(g, i, scratch.marks);
      seen.merge(known_[i]);
      least = seen.first_missing_of(common, static_cast<Value>(rare_.bound));
    }
    unsure = scratch.missing.assign_missing_below(seen, common, least) != 0;
    return least;
  }

  // Asks for the cache lines of group q's candidates.
  void prefetch_candidates(std::uint64_t q) const {
    const std::uint64_t first = std::min(heap_count_, q * tuning::kSparseGroup);
    const std::uint64_t last = std::min(heap_count_, first + tuning::kSparseGroup);
    const char* const begin = reinterpret_cast<const char*>(candidates_.data() + first);
    const char* const end = reinterpret_cast<const char*>(candidates_.data() + last);
    for (const char* line = begin; line < end; line += 64) __builtin_prefetch(line);
  }

  // Runs tasks until the chain is done and every group it passed is confirmed.
  template <class T>
  void help_pipeline(const ValueVector<T>& g, Pipeline& pipe, Worker& worker) {
    for (;;) {
      if (run_pipeline_task(g, pipe, worker)) continue;
      if (pipe.chain_done.load(std::memory_order_acquire) && pipe.all_confirmed()) return;
      std::this_thread::yield();
    }
  }

  // Claims and runs one task: the oldest confirmation behind the chain first (a wrong
  // speculation makes the work after it void), then the nearest to the chain ahead of it.
  // Returns false if none was ready.
  template <class T>
  bool run_pipeline_task(const ValueVector<T>& g, Pipeline& pipe, Worker& worker) {
    const std::uint64_t decided = base_ + pipe.decided.load(std::memory_order_acquire);
    const std::uint64_t chained = pipe.chained.load(std::memory_order_acquire);
    auto claim = [](PipelineGroup& group) { return !group.claimed.exchange(true, std::memory_order_acquire); };
    auto release = [](PipelineGroup& group) { group.claimed.store(false, std::memory_order_release); };
    std::uint64_t oldest = pipe.oldest_unconfirmed.load(std::memory_order_relaxed);
    while (oldest < chained && pipe.groups[oldest].confirmed.load(std::memory_order_acquire))
      pipe.oldest_unconfirmed.compare_exchange_weak(oldest, oldest + 1, std::memory_order_relaxed);
    for (std::uint64_t q = oldest; q < chained; ++q) {
      PipelineGroup& group = pipe.groups[q];
      if (group.confirmed.load(std::memory_order_acquire) || !claim(group)) continue;
      if (!group.confirmed.load(std::memory_order_acquire)) {
        const Ticks began = pipe.timed ? begin_task() : 0;
        confirm_group(g, q, group, worker);
        if (pipe.timed) group.confirm_took = end_task(began);
        if (group.miss) pipe.stop.store(true, std::memory_order_relaxed);
        group.confirmed.store(true, std::memory_order_release);
        pipe.confirmed.fetch_add(1, std::memory_order_release);
        release(group);
        return true;
      }
      release(group);
    }
    if (!pipe.stop.load(std::memory_order_relaxed)) {
      const std::uint64_t ahead = tuning::kPipelineDistances[0] / tuning::kSparseGroup + 1;
      for (std::uint64_t q = chained; q < std::min<std::uint64_t>(pipe.groups.size(), chained + ahead); ++q) {
        PipelineGroup& group = pipe.groups[q];
        const int stage = group.stage.load(std::memory_order_acquire);
        if (stage >= kPipelineStages || pipeline_gate(q, stage) > decided ||
            group.parts_claimed[stage].load(std::memory_order_relaxed) >= parts_of(stage))
          continue;
        const int part = group.parts_claimed[stage].fetch_add(1, std::memory_order_acquire);
        if (part >= parts_of(stage)) continue;
        const Ticks began = pipe.timed ? begin_task() : 0;
        const std::uint64_t first = q * tuning::kSparseGroup + static_cast<std::uint64_t>(part) * part_heaps(stage);
        const std::uint64_t last = std::min(heap_count_, first + part_heaps(stage));
        if (first < last) {  // the last group may be short
          if (stage == 0)
            run_far_part(g, q, first, last, worker);
          else
            run_band(g, stage, first, last, worker);
        }
        if (pipe.timed) group.took[stage][part] = end_task(began);
        if (group.parts_done[stage].fetch_add(1, std::memory_order_acq_rel) + 1 == parts_of(stage))
          group.stage.store(stage + 1, std::memory_order_release);
        return true;
      }
    }
    return false;
  }

  // The heaps of each part of a stage's task.
  static constexpr std::uint64_t part_heaps(int stage) {
    return tuning::kSparseGroup / static_cast<std::uint64_t>(parts_of(stage));
  }

  // A band stage's task (stage > 0; see the pipeline's comment) for the heaps base_ + i, i in
  // [first, last), of one group.
  template <class T>
  void run_band(const ValueVector<T>& g, int stage, std::uint64_t first, std::uint64_t last, Worker& worker) {
    if constexpr (sizeof(T) <= 2) {  // screened (can_pipeline)
      // The first band reaches a group past the first distance: the far pairs of its last heaps
      // start there (their partner below the first gate).
      const std::uint64_t r_high = tuning::kPipelineDistances[stage - 1] + (stage == 1 ? tuning::kSparseGroup : 0);
      screen_band(g, first, last, tuning::kPipelineDistances[stage], r_high);
      if (stage == kExtendingStage) extend_candidates(g, first, last, tuning::kPipelineDistances[stage], worker);
      // A heap the last band left without a candidate would be decided in full on the chain.
      if (stage == kPipelineStages - 1)
        for (std::uint64_t i = first; i < last; ++i)
          if (candidates_[i].count == count_bits(candidates_[i].given) && needs_more_candidates(i))
            list_candidates_exactly(g, i, tuning::kPipelineDistances[stage], worker);
      // The chain compares only candidates none of the bands gave. They are dropped here once the
      // band before the last is done, then once the last (near the chain) is.
      if (stage >= kExtendingStage) drop_given(candidates_.data() + first, last - first);
    }
  }

  // A far stage's task for the heaps base_ + i, i in [first, last), of group q: their rare pairs
  // with the partner below the first gate marked or screened, and their candidates listed.
  template <class T>
  void run_far_part(const ValueVector<T>& g, std::uint64_t q, std::uint64_t first, std::uint64_t last,
                    Worker& worker) {
    reset_heaps(first, last);
    mark_known_pairs_of_group(g, first, last, limit_of_group(q), worker.group, true, false);
    for (std::uint64_t i = first; i < last; ++i) {
      mark_if_screening_failed(g, i, worker.marks);
      list_candidates<T>(base_ + i, kScreenSlots);
    }
  }

  // Compares the pairs of the heaps base_ + i, i in [first, last) (one group), with the rare r in
  // [r_low, r_high) with their candidates, noting those given (Candidates::given). Every such r
  // pairs with every heap of the group (r is far below the heaps), so the band is screened 64
  // heaps at a time, with no edges.
  template <class T>
  void screen_band(const ValueVector<T>& g, std::uint64_t first, std::uint64_t last, std::uint64_t r_low,
                   std::uint64_t r_high) {
    const auto band = rare_between(r_low, r_high);
    if (band.first == band.second) return;
    const std::uint64_t heaps = last - first;
    ScreenCandidates<T> screened;
    lay_out_candidates(candidates_.data() + first, heaps, screened);
    std::uint64_t hits[kScreenSlots] = {};
    screen_rare_range(g, first, heaps, band, screened, hits);
    for_each_hit(hits, [&](int k, std::uint64_t j) {
      Candidates& listed = candidates_[first + j];
      if (k < listed.count) listed.given |= static_cast<std::uint16_t>(1u << k);
    });
  }

  // The rare positions r in [low, high).
  std::pair<RareIt, RareIt> rare_between(std::uint64_t low, std::uint64_t high) const {
    const auto first = std::lower_bound(rare_.positions.begin(), rare_.positions.end(), low);
    return {first, std::lower_bound(first, rare_.positions.end(), std::max(low, high))};
  }

  // Screens the pairs of the heaps base_ + first + j, j < heaps, with the rare r of band (from
  // rare_between), every one of which pairs with all of them, against candidates, into hits
  // (screen_rare_pairs).
  template <class T>
  void screen_rare_range(const ValueVector<T>& g, std::uint64_t first, std::uint64_t heaps,
                         std::pair<RareIt, RareIt> band, const ScreenCandidates<T>& candidates,
                         std::uint64_t* hits) const {
    if (band.first == band.second) return;
    const auto r_index = static_cast<std::size_t>(band.first - rare_.positions.begin());
    for (const SplitMove& move : moves_.split_two())
      screen_rare_pairs(g.data(), base_ + first - move.take, rare_.positions.data() + r_index,
                        rare_.values.data() + r_index,
                        static_cast<std::uint64_t>(band.second - band.first), move.unequal, heaps, candidates, hits);
  }

  // Where the bands from r_low on left a heap of group q (heaps base_ + first..last - 1) fewer
  // than three candidates (the last band takes some of them too), and its known set misses more
  // common values past its list (screen_group cut the list short), lists the next ones: the
  // group's screened far pairs and those bands are screened against them, 64 heaps at a time
  // (marking the screened pairs of each such heap instead cost a quarter of the pipeline's work
  // on Grundy's game). Those a far pair gives join the known set; those a band gives are noted as
  // given. Without it, the chain would decide such heaps in full (7% of them on Grundy's game).
  // The few heaps whose next values the far pairs all gave (1 in 50 on Grundy's game) are then
  // listed one by one from their pairs marked (list_candidates_exactly): a second round for the
  // whole group cost as much as the first.
  template <class T>
  void extend_candidates(const ValueVector<T>& g, std::uint64_t first, std::uint64_t last, std::uint64_t r_low,
                         Worker& worker) {
    if (!list_more_candidates(g, first, last, r_low)) return;
    for (std::uint64_t i = first; i < last; ++i)
      if (needs_more_candidates(i)) list_candidates_exactly(g, i, r_low, worker);
  }

  // Whether heap base_ + i has fewer than three candidates not given, while its known set may
  // miss common values past its list.
  bool needs_more_candidates(std::uint64_t i) const {
    const Candidates& listed = candidates_[i];
    const int left = listed.count - static_cast<int>(count_bits(listed.given));
    return left < 3 && (exact_below_[i] != kExact || listed.count == kScreenSlots);
  }

  // The band pairs' end (r_high) for the further candidates: up to the far pairs of the group's
  // last heaps.
  static constexpr std::uint64_t kBandsEnd = tuning::kPipelineDistances[0] + tuning::kSparseGroup;

  // The round of extend_candidates for the whole group; says whether any heap had more
  // candidates listed.
  template <class T>
  bool list_more_candidates(const ValueVector<T>& g, std::uint64_t first, std::uint64_t last, std::uint64_t r_low) {
    const std::uint64_t heaps = last - first;
    const Value limit = candidates_below<T>();
    ScreenCandidates<T> next{};  // the slots past a heap's next values are not read
    int next_count[kScreenHeaps] = {};
    std::uint64_t extended = 0;  // bit j: heap first + j has next candidates
    for (std::uint64_t j = 0; j < heaps; ++j) {
      if (!needs_more_candidates(first + j)) continue;
      const Candidates& listed = candidates_[first + j];
      const Value from = listed.count > 0 ? listed.values[listed.count - 1] + 1 : 0;
      const int count = list_unseen(first + j, from, limit, next, j);
      next_count[j] = count;
      extended |= static_cast<std::uint64_t>(count > 0) << j;
    }
    if (extended == 0) return false;
    std::uint64_t far_hits[kScreenSlots] = {}, band_hits[kScreenSlots] = {};
    screen_screened_pairs(g, first, last, next, far_hits);
    screen_rare_range(g, first, heaps, rare_between(r_low, kBandsEnd), next, band_hits);
    struct GivenBy {
      unsigned far = 0, band = 0;  // bit k: next value k given by a far pair, by a band pair
    } given_by[kScreenHeaps];
    for_each_hit(far_hits, [&](int k, std::uint64_t j) { given_by[j].far |= 1u << k; });
    for_each_hit(band_hits, [&](int k, std::uint64_t j) { given_by[j].band |= 1u << k; });
    for (std::uint64_t bits = extended; bits != 0; bits &= bits - 1) {
      const auto j = static_cast<std::uint64_t>(std::countr_zero(bits));
      const unsigned next_listed = (1u << next_count[j]) - 1;  // the slots past them hold no value
      const unsigned far = given_by[j].far & next_listed, band = given_by[j].band;
      ValueSet& known = known_[first + j];
      for (unsigned given = far; given != 0; given &= given - 1) known.insert(next.values[std::countr_zero(given)][j]);
      Candidates& listed = candidates_[first + j];
      drop_given(&listed, 1);
      const unsigned unseen = ~far & next_listed;
      for (unsigned kept = unseen; kept != 0 && listed.count < kScreenSlots; kept &= kept - 1) {
        const int k = std::countr_zero(kept);
        listed.given |= static_cast<std::uint16_t>(((band >> k) & 1) << listed.count);
        listed.values[listed.count++] = next.values[k][j];
      }
      exact_below_[first + j] = next_count[j] == kScreenSlots ? next.values[kScreenSlots - 1][j] + Value{1} : kExact;
      note_unsure(listed, known, rare_.common_pattern(base_ + first + j));
    }
    return true;
  }

  // Screens the screened rare pairs of the heaps base_ + i, i in [first, last) (a group or a part of
  // one), against candidates (lane j: heap first + j) into hits, a part at a time (screening_unit):
  // each has its own ranges.
  template <class T>
  void screen_screened_pairs(const ValueVector<T>& g, std::uint64_t first, std::uint64_t last,
                             const ScreenCandidates<T>& candidates, std::uint64_t* hits) const {
    const std::uint64_t unit = screening_unit();
    for (std::uint64_t part_first = first; part_first < last; part_first += unit) {
      const std::uint64_t heaps = std::min(unit, last - part_first), lane = part_first - first;
      ScreenCandidates<T> shifted{};  // a later part's candidates from lane 0
      if (lane > 0)
        for (int k = 0; k < kScreenSlots; ++k) std::copy_n(candidates.values[k] + lane, heaps, shifted.values[k]);
      const ScreenCandidates<T>& part_candidates = lane > 0 ? shifted : candidates;
      std::uint64_t part_hits[kScreenSlots] = {};
      for (const Screened& range : screened_of(part_first))
        screen_rare_pairs(g.data(), range.m_lo, rare_.positions.data() + range.first, rare_.values.data() + range.first,
                          range.last - range.first, range.move->unequal, heaps, part_candidates, part_hits);
      for (int k = 0; k < kScreenSlots; ++k) hits[k] |= part_hits[k] << lane;
    }
  }

  // extend_candidates for one heap, base_ + i: its screened far pairs marked into its known set
  // (exact then, as where a block's screening failed), its candidates listed on past those the
  // bands left, each noted as given where one of its pairs with the rare r in [r_low, kBandsEnd)
  // gives it.
  template <class T>
  void list_candidates_exactly(const ValueVector<T>& g, std::uint64_t i, std::uint64_t r_low, Worker& worker) {
    const std::uint64_t n = base_ + i;
    worker.scratch.fit(rare_.bound);
    ValueMarks& marks = worker.scratch.marks;
    if (exact_below_[i] != kExact) mark_screened_pairs(g, i, marks);  // leaves the marks clear
    const auto [r_first, r_last] = rare_between(r_low, kBandsEnd);
    for (const SplitMove& move : moves_.split_two()) mark_pairs(g, move, n - move.take, r_first, r_last, marks);
    ValueSet& band = worker.scratch.seen;
    band.clear();
    marks.move_into(band);
    Candidates& listed = candidates_[i];
    Candidates merged = listed;
    drop_given(&merged, 1);
    // The known set is exact now: the values it misses past the list are the next candidates.
    const Value from = listed.count > 0 ? listed.values[listed.count - 1] + 1 : 0;
    const Value limit = candidates_below<T>();
    const ValueSet& common = rare_.common_pattern(n);
    known_[i].for_each_missing_of(common, limit, [&](Value v) {
      if (v < from) return true;
      merged.given |= static_cast<std::uint16_t>(static_cast<unsigned>(band.contains(v)) << merged.count);
      merged.values[merged.count++] = v;
      return merged.count < kScreenSlots;
    });
    note_unsure(merged, known_[i], common);
    listed = merged;
  }

  // Confirms the values group q's heaps took on speculation, noting the first wrong one. Every
  // partner is decided now, so the group's probe pairs, whose partners lie near the heaps, are
  // marked for all its heaps at once before each heap's own search.
  template <class T>
  void confirm_group(const ValueVector<T>& g, std::uint64_t q, PipelineGroup& group, Worker& worker) const {
    const std::uint64_t first = q * tuning::kSparseGroup;
    const std::uint64_t last = std::min(heap_count_, first + tuning::kSparseGroup);
    worker.group.prepare(last - first, rare_.bound, sizeof(T) == 1 && marks_as_bits());
    mark_probe_pairs_of_group(g, first, last, base_ + last, worker.group);
    worker.scratch.fit(rare_.bound);
    ValueSet& found = worker.scratch.seen;
    for (std::uint64_t i = first; i < last; ++i) {
      const bool confirming = !group.miss && ((group.speculated >> (i - first)) & 1) != 0;
      if (confirming) found.assign(known_[i]);
      worker.group.move_row_into(i - first, found);  // every row, so that they are left clear
      if (!confirming) continue;
      const std::uint64_t n = base_ + i;
      const Value value = confirmed_value(g, n, rare_.positions.size(), worker, found);
      if (value != g[n]) group.miss = Miss{n, value};
    }
  }

  // The true value of heap n, which the chain took on speculation: its value g[n] is given by no
  // option and every common value below it is, so it stands unless a rare value below it is
  // given by no option either. found holds the options known (its known set, its probe pairs);
  // the rare values below g[n] not in it are looked for where a full decision would, among the
  // simple options and the pairs, those with the partner from known_below(n) on first; only where
  // one is not found does the full decision run, and say the value. rare_before_block: as for
  // decide_fully.
  template <class T>
  Value confirmed_value(const ValueVector<T>& g, std::uint64_t n, std::size_t rare_before_block, Worker& worker,
                        ValueSet& found) const {
    const Value value = g[n];
    if (moves_.split_three().empty()) moves_.mark_simple_options(g, n, found);
    ValueSet& missing = worker.missing;
    if (missing.assign_missing_below(found, rare_.common_pattern(n), value) == 0) return value;
    const std::uint64_t floor = known_below(n);
    collect_missing(g, n, 1, floor, n, worker.marks, missing, found);
    if (missing.first_present(value) >= value) return value;
    collect_missing(g, n, 1, 0, floor, worker.marks, missing, found);
    if (missing.first_present(value) >= value) return value;
    return decide_fully(g, n, rare_before_block, worker.scratch);
  }

  // The true value of heap n of a block, taken on speculation: confirmed_value from its known set.
  template <class T>
  Value confirm_speculation(const ValueVector<T>& g, std::uint64_t n, std::size_t rare_before_block,
                            Worker& worker) const {
    worker.scratch.fit(rare_.bound);
    worker.scratch.seen.assign(known_[n - base_]);
    return confirmed_value(g, n, rare_before_block, worker, worker.scratch.seen);
  }

  // The pipeline's work (every task's time) and span: the longest path through its tasks, each
  // waiting for the one before it in its group, for the decided heaps it reads (its gate), and the
  // chain's for the group before it, all after the groups' start.
  RegionTicks pipeline_ticks(const Pipeline& pipe) const {
    RegionTicks ticks;
    std::vector<Ticks> chain_finish(pipe.groups.size(), 0);
    auto decided_at = [&](std::uint64_t heap) -> Ticks {  // when the chain had decided the heaps below heap
      if (heap <= base_) return 0;
      const std::uint64_t q = (heap - base_ + tuning::kSparseGroup - 1) / tuning::kSparseGroup - 1;
      return q < chain_finish.size() ? chain_finish[q] : chain_finish.back();
    };
    for (std::uint64_t q = 0; q < pipe.groups.size(); ++q) {
      const PipelineGroup& group = pipe.groups[q];
      Ticks finish = 0;
      for (int stage = 0; stage < kPipelineStages; ++stage) {
        // A stage's parts run side by side: the longest is on the path.
        const Ticks* took = group.took[stage];
        finish =
            std::max(finish, decided_at(pipeline_gate(q, stage))) + *std::max_element(took, took + tuning::kFarParts);
        for (int part = 0; part < parts_of(stage); ++part) ticks.summed += took[part];
      }
      chain_finish[q] = std::max(finish, q > 0 ? chain_finish[q - 1] : 0) + group.chain_took;
      ticks.longest = std::max(ticks.longest, chain_finish[q] + group.confirm_took);
      ticks.summed += group.chain_took + group.confirm_took;
    }
    // Every path starts once the groups are (start_groups).
    ticks.summed += pipe.started.summed;
    ticks.longest += pipe.started.longest;
    return ticks;
  }

  // Heaps decided one at a time (lone_heap.hpp) from g.size() on, towards target, for games whose
  // values lie below 256 and whose rare positions are not too many. Whatever the threads: on one
  // thread blocks gain nothing, and for such games the blocks on two threads ran at a third of
  // this path's rate on one (0.167, 0.127, 0.205 and 0.106 to 2^21), while their span (30 to
  // 53% of the work on 0.167) keeps them below it on any number of cores. Under bounded memory
  // too, reading only held values: a heap whose scan would pass them is left to the blocks, which
  // stop the run if it really needs one. Stops where a heap cannot be decided so, and after a new
  // rare position or a stale mask (the caller chooses the mask again). Returns the heaps decided;
  // 0 leaves them to the blocks.
  template <class T>
  std::uint64_t decide_alone(ValueVector<T>& g, std::uint64_t target) {
    if constexpr (!std::is_same_v<T, std::uint8_t>) {
      return 0;
    } else {
      if (!lists_rare_ || rare_.bound > kLoneValuesBelow || rare_.mask_stale ||
          moves_.rules().has_tail() || !moves_.split_three().empty() || moves_.split_two().empty() ||
          rare_.positions.size() > lone_rare_at_most() || !can_decide_heaps_alone())
        return 0;
      // Past the code, the move lists are whole (extend() covers the heaps below target).
      const std::uint64_t start = g.size();
      if (start <= moves_.rules().finite_digits().size()) return 0;
      // One word of bits while the values lie below 64, two below 128, four below 256.
      const Value values_below = std::max<Value>(static_cast<Value>(rare_.bound), kOneWordValues);
      if (!lone_ready_) {
        lone_heaps_.prepare(moves_, rare_.positions, rare_.values, rare_.mask, values_below);
        lone_ready_ = true;
      }
      if (start < lone_heaps_.first_heap()) return 0;
      // Bounded memory: the pairs' partners must be held (else the blocks say which is not).
      if (start < tail_start_ + lone_heaps_.reach()) return 0;
      // Room for the values, a stretch at a time (the target may be far beyond memory).
      const std::uint64_t to = std::min(target, start + tuning::kLoneStretch);
      g.resize(to);
      const std::uint64_t decided = lone_heaps_.decide(g.data(), start, to, prefix_end_, tail_start_);
      g.resize(start + decided);
      rare_.start_undo_log();
      record_decided_alone(g, start, start + decided);
      return decided;
    }
  }

  // Rare positions the heaps decided alone may have at most, by the words of bits their values
  // take (the far rare pairs are marked once for each).
  std::size_t lone_rare_at_most() const {
    if (rare_.bound <= kOneWordValues) return tuning::kLoneRareAtMost;
    return rare_.bound <= 2 * kOneWordValues ? tuning::kLoneRareAtMostTwoWords : tuning::kLoneRareAtMostFourWords;
  }

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
  std::optional<Value> decide_in_order(ValueVector<T>& g, std::uint64_t from, std::uint64_t end,
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

  // Heap n's value in its turn, its options below it all decided: compared with its candidates
  // (quick), or in full where they do not settle it. With speculate, a value that stands unless a
  // rare value below it is given by no option is taken as it is (speculated).
  template <class T>
  Value decide_in_turn(const ValueVector<T>& g, std::uint64_t n, std::size_t rare_before_block, bool quick,
                       bool speculate, bool& speculated) {
    Value value = 0;
    const Quick outcome =
        quick ? decide_quickly_exact(g, n, rare_before_block, value, ordered_scratch_) : Quick::kUndecided;
    speculated = outcome == Quick::kSpeculative && speculate;
    if (speculated || outcome == Quick::kDecided) return value;
    const Value guess = value;
    value = decide_fully(g, n, rare_before_block, ordered_scratch_);
    if (outcome == Quick::kSpeculative && value != guess) block_missed_ = true;
    return value;
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
  static constexpr std::uint64_t kFlowTasks = tuning::kSparseBlock / tuning::kSparseHeapsPerTask;
  static constexpr std::uint64_t kFlowGroups = tuning::kSparseBlock / tuning::kSparseGroup;
  // Speculations a confirmation task takes: most are settled in a few hundred nanoseconds.
  static constexpr std::uint64_t kConfirmationsPerTask = 8;

  // Where the block's flow stands, and (timed) what each task took, for the profile. Cleared for
  // each block (start).
  struct BlockFlow {
    std::uint64_t heaps = 0, groups = 0, tasks = 0;
    bool quick = false, screening = false, timed = false;
    std::atomic<std::uint8_t> group_marked[kFlowGroups] = {};
    int marked_by[kFlowGroups] = {};  // the thread, once group_marked
    std::atomic<std::uint8_t> task_done[kFlowTasks] = {};
    // Claimed by every thread.
    alignas(64) std::atomic<std::uint64_t> next_group{0};
    std::atomic<std::uint32_t> tasks_claimed[kFlowGroups] = {};  // each group's heap tasks, from its first
    alignas(64) std::atomic<std::uint64_t> confirmations_claimed{0}, confirmations_done{0};
    // Written by the chain.
    alignas(64) std::uint64_t chained = 0;           // heap tasks the chain has decided
    std::atomic<std::uint64_t> speculations{0};      // speculated_[0..speculations) may be confirmed
    std::atomic<bool> chain_done{false};
    std::uint64_t chain_end = 0;                     // the first heap not decided, once chain_done
    // The profile's: each task's time, and each confirmation task's with its last heap.
    Ticks mark_took[kFlowGroups] = {}, task_took[kFlowTasks] = {}, chain_took[kFlowTasks] = {};
    std::vector<std::pair<Ticks, std::uint64_t>> confirmation_took;
    std::atomic<std::uint64_t> confirmation_tasks{0};

    void start(std::uint64_t block_heaps, bool is_quick, bool is_screening, bool is_timed) {
      heaps = block_heaps;
      groups = (heaps + tuning::kSparseGroup - 1) / tuning::kSparseGroup;
      tasks = (heaps + tuning::kSparseHeapsPerTask - 1) / tuning::kSparseHeapsPerTask;
      quick = is_quick;
      screening = is_screening;
      timed = is_timed;
      for (std::uint64_t q = 0; q < groups; ++q) {
        group_marked[q].store(0, std::memory_order_relaxed);
        tasks_claimed[q].store(0, std::memory_order_relaxed);
      }
      for (std::uint64_t h = 0; h < tasks; ++h) task_done[h].store(0, std::memory_order_relaxed);
      next_group.store(0, std::memory_order_relaxed);
      confirmations_claimed.store(0, std::memory_order_relaxed);
      confirmations_done.store(0, std::memory_order_relaxed);
      chained = 0;
      speculations.store(0, std::memory_order_relaxed);
      chain_done.store(false, std::memory_order_relaxed);
      chain_end = 0;
      if (timed) {
        std::fill(chain_took, chain_took + tasks, 0);
        confirmation_took.resize(heaps);
        confirmation_tasks.store(0, std::memory_order_relaxed);
      }
    }

    // Whether every task is done: the chain's, the confirmations and the heaps' (the chain passed
    // them all, or the ordered part needs those it did not).
    bool finished() const {
      if (!chain_done.load(std::memory_order_acquire) ||
          confirmations_done.load(std::memory_order_acquire) != speculations.load(std::memory_order_acquire))
        return false;
      for (std::uint64_t h = chained; h < tasks; ++h)
        if (!task_done[h].load(std::memory_order_acquire)) return false;
      return true;
    }
  };

  // Whether the block [start, end) flows: on several threads, with every value readable, and with
  // pairs enough to share.
  bool can_flow(std::uint64_t start, std::uint64_t end) const {
    return omp_get_max_threads() > 1 && !released_ &&
           rare_.positions.size() * (end - start) * moves_.split_two().size() >= tuning::kSparseParallelMinPairs;
  }

  // Decides the block [start, end) as it flows (see above), returning the first heap it did not
  // decide (end, unless the chain stopped). The values it speculated are in speculated_, their
  // full decisions in confirmed_.
  template <class T>
  std::uint64_t flow_block(ValueVector<T>& g, std::uint64_t start, std::uint64_t end, std::size_t rare_before_block,
                           bool speculate) {
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
  bool advance_chain(ValueVector<T>& g, BlockFlow& flow, std::size_t rare_before_block, bool speculate) {
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
  bool changes_shared_state(std::uint64_t n, Value value) const {
    return value >= rare_.bound || value >= rare_.histogram.size() || (lists_rare_ && is_rare(value, n, rare_.mask));
  }

  // Claims a heap task of a marked group, the lowest this thread marked first: the task reads what
  // the marking wrote, still in this core's cache (on two threads, Grundy's game to 2^23, the heap
  // tasks took 1.23-1.25 s instead of 1.30-1.33 s, as on one thread). Returns flow.tasks if none
  // is ready.
  static std::uint64_t claim_heap_task(BlockFlow& flow) {
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
  bool run_flow_task(const ValueVector<T>& g, BlockFlow& flow, Worker& worker) {
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
  RegionTicks flow_ticks(const BlockFlow& flow) const {
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
  std::optional<Miss> confirm_speculations(ValueVector<T>& g, std::size_t rare_before_block) {
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

  static constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();

  // The lowest heap of speculated_ whose full decision (confirmed_) differs from its value, and
  // empties the list. A full decision stopped (first_stopped, by stopped) below it is rethrown.
  template <class T>
  std::optional<Miss> first_miss(ValueVector<T>& g, std::size_t first_stopped = kNone,
                                 const std::exception_ptr& stopped = nullptr) {
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
  void enumerate_known_pairs(const ValueVector<T>& g, std::uint64_t start, std::uint64_t end) {
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
  // parallel: it is sized for every heap left to its target, of which it may reach few.
  void prepare_heaps(std::uint64_t base, std::uint64_t count) {
    base_ = base;
    heap_count_ = count;
    if (known_.size() < count) known_.resize(count);
    scanned_to_.resize(std::max<std::size_t>(scanned_to_.size(), count));
    exact_below_.resize(std::max<std::size_t>(exact_below_.size(), count));
    remark_.resize(std::max<std::size_t>(remark_.size(), count));
    screened_of_.resize((count + part_heaps(0) - 1) / part_heaps(0));  // the smaller unit
    candidates_.resize(count);
    candidates_bound_ = rare_.bound;
  }

  // Clears the state of the heaps base_ + i, i in [first, last): nothing known of them yet.
  void reset_heaps(std::uint64_t first, std::uint64_t last) {
    for (std::uint64_t i = first; i < last; ++i) size_set(known_[i], rare_.bound);
    std::fill(scanned_to_.begin() + first, scanned_to_.begin() + last, 0);
    std::fill(exact_below_.begin() + first, exact_below_.begin() + last, kExact);
    std::fill(remark_.begin() + first, remark_.begin() + last, 0);
  }

  // Puts into the known sets of the heaps base_ + i, i in [first, last) (one group), their rare
  // pairs and (with probes) probe pairs with the partner below limit, the rare pairs marked or
  // (with screening) screened.
  template <class T>
  void mark_known_pairs_of_group(const ValueVector<T>& g, std::uint64_t first, std::uint64_t last, std::uint64_t limit,
                                 GroupMarks& group, bool screening, bool probes) {
    std::vector<Screened>& screened = screened_of(first);
    screened.clear();
    mark_rare_pairs_of_group(g, first, last, 0, limit, group, screening ? &screened : nullptr);
    if (probes) mark_probe_pairs_of_group(g, first, last, limit, group);
    for (std::uint64_t i = first; i < last; ++i) {
      known_[i].clear();
      group.move_row_into(i - first, known_[i]);
    }
    if constexpr (sizeof(T) <= 2)
      if (!screened.empty()) screen_group(g, first, last);
  }

  // A heap task of the block: the own work of the heaps base_ + i, i in [first, last), before their
  // turn: their scans and, where the ordered part decides quickly, their candidates.
  template <class T>
  void run_heap_task(const ValueVector<T>& g, std::uint64_t first, std::uint64_t last, bool quick, ValueMarks& marks,
                     ValueSet& missing) {
    for (std::uint64_t i = first; i < last; ++i) {
      scan_known_pairs(g, i, base_, marks, missing);
      if (quick) list_candidates<T>(base_ + i);
    }
  }

  // Heap base_ + i's own part of what is known before it is decided: the screened pairs where its
  // screening failed, then its scan for the rare values below its least common value not known,
  // among the pairs with the partner below limit (scanned_to_).
  template <class T>
  void scan_known_pairs(const ValueVector<T>& g, std::uint64_t i, std::uint64_t limit, ValueMarks& marks,
                        ValueSet& missing) {
    mark_if_screening_failed(g, i, marks);
    const ValueSet& common = rare_.common_pattern(base_ + i);
    const Value c = known_[i].first_missing_of(common, static_cast<Value>(rare_.bound));
    if (missing.assign_missing_below(known_[i], common, c) > 0)
      scanned_to_[i] = collect_missing(g, base_ + i, 1, 0, limit, marks, missing, known_[i]).listed_to;
  }

  // Marks heap base_ + i's screened pairs into its known set where their screening failed.
  template <class T>
  void mark_if_screening_failed(const ValueVector<T>& g, std::uint64_t i, ValueMarks& marks) {
    if (remark_[i]) mark_screened_pairs(g, i, marks);
  }

  // The rare r whose partner m - r lies in [low, high): m - high < r <= m - low, and as parts are
  // non-empty, 1 <= r < m.
  std::pair<RareIt, RareIt> rare_partnered(std::uint64_t m, std::uint64_t low, std::uint64_t high) const {
    if (low > m) return {rare_.positions.end(), rare_.positions.end()};
    const auto first = std::upper_bound(rare_.positions.begin(), rare_.positions.end(), m >= high ? m - high : 0);
    return {first, std::max(first, std::lower_bound(first, rare_.positions.end(), std::min(m, m - low + 1)))};
  }

  // Marks G(r) ^ G(m - r) for the rare r whose partner m - r lies in [low, high).
  template <class T, class Marks>
  void mark_rare_pairs(const ValueVector<T>& g, const SplitMove& move, std::uint64_t m, std::uint64_t low,
                       std::uint64_t high, Marks& marks) const {
    const auto [first, last] = rare_partnered(m, low, high);
    mark_pairs(g, move, m, first, last, marks);
  }

  // The rare pairs of a group's heaps (parts summing to m_lo + j, j < heaps) with the partner in
  // [low, high): the r in [every_first, every_last) pair with every heap; the few r in
  // [low_first, every_first) and [every_last, high_last) with some (the edges).
  struct GroupRare {
    RareIt low_first, every_first, every_last, high_last;
  };
  GroupRare group_rare(std::uint64_t m_lo, std::uint64_t heaps, std::uint64_t low, std::uint64_t high) const {
    const std::uint64_t m_hi = m_lo + heaps - 1;
    GroupRare rare;
    rare.low_first = rare_partnered(m_lo, 0, high).first;
    rare.every_first = rare_partnered(m_hi, 0, high).first;
    rare.every_last = std::max(rare.every_first, rare_partnered(m_lo, low, high).second);
    rare.high_last = std::max(rare.every_last, rare_partnered(m_hi, low, high).second);
    return rare;
  }

  // Marks heap m's pairs with the rare r at its group's edges (group_rare) whose partner lies in
  // [low, high): a test for each, where finding the bounds heap by heap took two binary searches.
  template <class T, class Marks>
  void mark_edge_pairs(const ValueVector<T>& g, const SplitMove& move, std::uint64_t m, std::uint64_t low,
                       std::uint64_t high, const GroupRare& rare, Marks& marks) const {
    auto mark = [&](RareIt from, RareIt to) {
      for (RareIt r = from; r != to; ++r)
        if (*r + high > m && *r + low <= m && *r < m && !(move.unequal && 2 * *r == m))
          marks.insert(
              static_cast<Value>(rare_.values[static_cast<std::size_t>(r - rare_.positions.begin())] ^ g[m - *r]));
    };
    mark(rare.low_first, rare.every_first);
    mark(rare.every_last, rare.high_last);
  }

  // Marks G(r) ^ G(m - r) for the rare r in [first, last), all below m. Called for every heap of
  // a group, a few pairs each: kept inline (as a call, 0.167 took 2% more instructions).
  template <class T, class Marks>
  [[gnu::always_inline]] void mark_pairs(const ValueVector<T>& g, const SplitMove& move, std::uint64_t m,
                                         RareIt first, RareIt last, Marks& marks) const {
    auto mark = [&](RareIt from, RareIt to) {
      const Value* part = rare_.values.data() + (from - rare_.positions.begin());
      if constexpr (std::is_same_v<Marks, ValueSet>)
        if (rare_.bound <= kOneWordValues) {
          WordMarks word;
          for (RareIt r = from; r != to; ++r, ++part) word.insert(static_cast<Value>(*part ^ g[m - *r]));
          marks.insert_below_64(word.bits);
          return;
        }
      if constexpr (std::is_same_v<Marks, ValueMarks>) {
        marks.insert_each(0, static_cast<std::uint64_t>(to - from),
                          [&](std::uint64_t i) { return part[i] ^ g[m - from[i]]; });
        return;
      }
      for (RareIt r = from; r != to; ++r, ++part) marks.insert(static_cast<Value>(*part ^ g[m - *r]));
    };
    if (move.unequal && m % 2 == 0) {  // the split (m/2, m/2) is not a move
      auto half = std::lower_bound(first, last, m / 2);
      mark(first, half);
      if (half != last && *half == m / 2) ++half;
      mark(half, last);
    } else {
      mark(first, last);
    }
  }

  // Marks, for the heaps base_ + i with i in [first, last) (at most kSparseGroup), the values of
  // their rare pairs with the partner in [low, high) into one row of marks per heap. A rare r that
  // pairs with every heap of the group meets the partners G(m - r) of consecutive heaps in
  // consecutive places, so its values are one vectorised XOR and a plain store per heap (or, below
  // 64, bits for 64 heaps at once: GroupMarks); only the few r at the edges are paired heap by heap.
  //
  // With screened given, only the first screen_marked_ such r of a long run are marked; the rest
  // are left to screen_group, listed in screened.
  template <class T>
  void mark_rare_pairs_of_group(const ValueVector<T>& g, std::uint64_t first, std::uint64_t last, std::uint64_t low,
                                std::uint64_t high, GroupMarks& group, std::vector<Screened>* screened) const {
    const std::uint64_t heaps = last - first;
    group.prepare(heaps, rare_.bound, sizeof(T) == 1 && marks_as_bits());
    for (const SplitMove& move : moves_.split_two()) {
      const std::uint64_t n_lo = base_ + first;
      if (move.take + 2 > n_lo || n_lo - move.take <= heaps) {  // small heaps: one at a time
        for (std::uint64_t j = 0; j < heaps; ++j) {
          if (move.take + 2 > n_lo + j) continue;
          group.mark_heap(j, [&](auto& marks) { mark_rare_pairs(g, move, n_lo + j - move.take, low, high, marks); });
        }
        continue;
      }
      const std::uint64_t m_lo = n_lo - move.take;
      const GroupRare rare = group_rare(m_lo, heaps, low, high);
      const RareIt every_first = rare.every_first, every_last = rare.every_last;
      RareIt marked_last = every_last;
      if (screened && every_last - every_first > screen_marked_ + tuning::kScreenMinPairs) {
        marked_last = every_first + screen_marked_;
        screened->push_back(Screened{&move, m_lo, static_cast<std::size_t>(marked_last - rare_.positions.begin()),
                                     static_cast<std::size_t>(every_last - rare_.positions.begin())});
      }
      mark_pairs_with_every_heap(g, move, m_lo, heaps, every_first, marked_last, group);
      for (std::uint64_t j = 0; j < heaps; ++j) {  // the edges
        const std::uint64_t m = m_lo + j;
        group.mark_heap(j, [&](auto& marks) { mark_edge_pairs(g, move, m, low, high, rare, marks); });
      }
    }
  }

  // Marks the pairs of the rare r in [first, last) with each of the heaps of a group, whose parts
  // sum to m_lo + j for heap j, into its rows. Kept out of line, as is mark_probe_pairs_of_group:
  // inlined into the group's task, the marking loop lost its registers to the rest (a load from
  // the stack every pair), and Grundy's game was 4% slower on one thread.
  template <class T>
  [[gnu::noinline]] void mark_pairs_with_every_heap(const ValueVector<T>& g, const SplitMove& move, std::uint64_t m_lo,
                                                    std::uint64_t heaps, RareIt first, RareIt last,
                                                    GroupMarks& group) const {
    const std::uint64_t m_hi = m_lo + heaps - 1;
    for (RareIt r = first; r != last; ++r) {
      const T part = static_cast<T>(rare_.values[static_cast<std::size_t>(r - rare_.positions.begin())]);
      const T* partners = g.data() + (m_lo - *r);  // heap j pairs r with m_lo + j - r
      // The partners of successive r lie far apart once n outgrows the caches: ask for those of
      // a later r now, so that they arrive while this one is marked.
      if (last - r > tuning::kSparsePrefetchAhead) {
        const char* ahead = reinterpret_cast<const char*>(g.data() + (m_lo - r[tuning::kSparsePrefetchAhead]));
        for (std::uint64_t byte = 0; byte < heaps * sizeof(T); byte += 64) __builtin_prefetch(ahead + byte);
      }
      // With unequal parts, the heap with m = 2r has no split (r, r).
      const std::uint64_t skip = move.unequal && 2 * *r >= m_lo && 2 * *r <= m_hi ? 2 * *r - m_lo : heaps;
      group.mark_pair_values(part, partners, heaps, skip);
    }
  }

  // Marks the probe pairs (a, m - a), a in probe_parts_, of the heaps base_ + i, i in [first,
  // last), into their rows: for a given a the partners m - a of a group's heaps are consecutive,
  // so each a is one vectorised XOR and a store per heap, as for a rare position. Only the a that
  // pair every heap of the group with a partner below limit are taken, and while values are
  // released only those with both parts held: a in the prefix (parts chosen before the release
  // may lie past it; choose_probe_parts takes later ones there), every partner in the tail. The
  // probe parts being the first places of values, their partners lie near n, well inside the
  // tail (at least kBoundedMinTail values).
  template <class T>
  [[gnu::noinline]] void mark_probe_pairs_of_group(const ValueVector<T>& g, std::uint64_t first, std::uint64_t last,
                                                   std::uint64_t limit, GroupMarks& group) const {
    const std::uint64_t heaps = last - first;
    for (const SplitMove& move : moves_.split_two()) {
      if (move.take + 2 > base_ + first) continue;
      const std::uint64_t m_lo = base_ + first - move.take, m_hi = m_lo + heaps - 1;
      if (m_lo < tail_start_) continue;
      // Partner m - a below limit for the largest m; a first part of the smallest m, its partner
      // m_lo - a (the least of the group) held.
      const std::uint64_t least = m_hi >= limit ? m_hi - limit + 1 : 1;
      const std::uint64_t most = std::min({move.largest_first_part(m_lo), m_lo - tail_start_,
                                          prefix_end_ > 0 ? prefix_end_ - 1 : 0});
      for (auto a = std::lower_bound(probe_parts_.begin(), probe_parts_.end(), least);
           a != probe_parts_.end() && *a <= most; ++a)
        group.mark_pair_values(g[*a], g.data() + (m_lo - *a), heaps, heaps);  // heap j: partner m_lo + j - *a
    }
  }

  // Whether a group's pairs are marked as bits (pair_bits.hpp): while every value lies below 64.
  bool marks_as_bits() const { return rare_.bound <= kOneWordValues && can_mark_pair_bits(); }

  void forget_probe_parts() {
    probe_parts_.clear();
    probes_chosen_at_ = 0;
  }

  // Picks the probe parts again once the values have grown kProbeRechoiceGrowth times since, or
  // are marked otherwise (marks_as_bits).
  template <class T>
  void choose_probe_parts_if_stale(const ValueVector<T>& g) {
    if (g.size() >= tuning::kProbeRechoiceGrowth * probes_chosen_at_ || probes_as_bits_ != marks_as_bits())
      choose_probe_parts(g);
  }

  // Picks the probe parts: the first kProbePositions (kProbePositionsAsBits) positions a >= 1 of
  // each of the kProbeValues most frequent values so far, below kProbeScanReach (and in the
  // prefix, while values are released).
  template <class T>
  void choose_probe_parts(const ValueVector<T>& g) {
    probe_parts_.clear();
    probes_chosen_at_ = std::max<std::uint64_t>(g.size(), 1);
    probes_as_bits_ = marks_as_bits();
    const std::uint64_t positions = probes_as_bits_ ? tuning::kProbePositionsAsBits : tuning::kProbePositions;
    std::vector<Value> values;
    for (Value v = 0; v < rare_.histogram.size(); ++v)
      if (rare_.histogram[v] > 0) values.push_back(v);
    const std::size_t chosen = std::min<std::size_t>(values.size(), tuning::kProbeValues);
    std::partial_sort(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(chosen), values.end(),
                      [this](Value x, Value y) { return rare_.histogram[x] > rare_.histogram[y]; });
    std::vector<std::uint64_t> wanted(rare_.histogram.size(), 0);
    for (std::size_t i = 0; i < chosen; ++i) wanted[values[i]] = positions;
    std::uint64_t left = chosen * positions;
    const std::uint64_t scan_end = std::min({g.size(), prefix_end_, tuning::kProbeScanReach});
    for (std::uint64_t a = 1; a < scan_end && left > 0; ++a)
      if (wanted[g[a]] > 0) {
        --wanted[g[a]];
        --left;
        probe_parts_.push_back(a);
      }
  }

  // Lists into lane j of into the values in [from, limit) that heap base_ + i's known set misses
  // among its common ones, the least first, up to kScreenSlots; returns how many.
  template <class T>
  int list_unseen(std::uint64_t i, Value from, Value limit, ScreenCandidates<T>& into, std::uint64_t j) const {
    int count = 0;
    known_[i].for_each_missing_of(rare_.common_pattern(base_ + i), from, limit, [&](Value v) {
      into.values[count++][j] = static_cast<T>(v);
      return count < kScreenSlots;
    });
    return count;
  }

  // Finishes the known sets of the heaps base_ + i, i in [first, last), from the rare pairs left
  // screened (screened_of): each heap's kScreenSlots least common values not yet seen are its
  // candidates, and the pairs say which of them they give. A heap whose candidates all turn up must have its pairs
  // marked after all (its least unseen common value lies past them): remark_ says so, and
  // mark_screened_pairs does it; exact_below_ says where each set stops being exact.
  template <class T>
  void screen_group(const ValueVector<T>& g, std::uint64_t first, std::uint64_t last) {
    const std::uint64_t heaps = last - first;
    ScreenCandidates<T> candidates{};  // the hits past a heap's list are not read
    int listed[kScreenHeaps] = {};
    for (std::uint64_t j = 0; j < heaps; ++j) {
      listed[j] = list_unseen(first + j, 0, static_cast<Value>(rare_.bound), candidates, j);
      if (listed[j] == kScreenSlots) exact_below_[first + j] = candidates.values[kScreenSlots - 1][j] + Value{1};
    }
    std::uint64_t hits[kScreenSlots] = {};
    std::uint64_t remarked = 0;
    screen_screened_pairs(g, first, last, candidates, hits);
    for_each_hit(hits, [&](int k, std::uint64_t j) {
      if (k < listed[j]) known_[first + j].insert(candidates.values[k][j]);
    });
    for (std::uint64_t j = 0; j < heaps; ++j) {
      const ValueSet& known = known_[first + j];
      if (exact_below_[first + j] == kExact ||
          known.first_missing_of(rare_.common_pattern(base_ + first + j), static_cast<Value>(rare_.bound)) <
              exact_below_[first + j])
        continue;
      remark_[first + j] = 1;
      ++remarked;
    }
#pragma omp atomic
    screened_heaps_ += heaps;
#pragma omp atomic
    remarked_heaps_ += remarked;
  }

  // Marks the screened rare pairs of heap base_ + i whose screening failed (remark_) into its
  // known set, which is then exact.
  template <class T>
  void mark_screened_pairs(const ValueVector<T>& g, std::uint64_t i, ValueMarks& marks) {
    const std::uint64_t j = i % screening_unit();
    for (const Screened& range : screened_of(i))
      mark_pairs(g, *range.move, range.m_lo + j, rare_.positions.begin() + static_cast<std::ptrdiff_t>(range.first),
                 rare_.positions.begin() + static_cast<std::ptrdiff_t>(range.last), marks);
    marks.move_into(known_[i]);
    exact_below_[i] = kExact;
  }

  // Lists, for the ordered part's quick decision of heap n, the least common values missing from
  // its known set, and which of them have a rare value below them that is not known present
  // either. Done in the parallel part, so that the ordered part only compares.
  template <class T>
  void list_candidates(std::uint64_t n, int most = tuning::kQuickCandidates) {
    Candidates& listed = candidates_[n - base_];
    const ValueSet& known = known_[n - base_];
    const ValueSet& common = rare_.common_pattern(n);
    const Value limit = std::min(exact_below_[n - base_], candidates_below<T>());
    listed.count = 0;
    listed.given = 0;
    known.for_each_missing_of(common, limit, [&](Value v) {
      listed.values[listed.count] = v;
      return ++listed.count < most;
    });
    note_unsure(listed, known, common);
  }

  // The bound on candidates: the largest T marks a hole (find_xor_values), so it is never one.
  template <class T>
  Value candidates_below() const {
    return std::min<Value>(static_cast<Value>(rare_.bound), static_cast<Value>(std::numeric_limits<T>::max()));
  }

  // Sets listed.unsure: bit k where a rare value below candidate k is missing from known.
  static void note_unsure(Candidates& listed, const ValueSet& known, const ValueSet& common) {
    assert(std::is_sorted(listed.values, listed.values + listed.count));
    const Value largest = listed.count > 0 ? listed.values[listed.count - 1] : 0;
    // One search: a rare value is missing below candidate k exactly when the least one is.
    const Value least_rare_missing = known.first_missing_outside(common, largest);
    listed.unsure = 0;
    for (int k = 0; k < listed.count; ++k)
      listed.unsure |= static_cast<std::uint16_t>(static_cast<unsigned>(least_rare_missing < listed.values[k]) << k);
  }

  // Adapts screen_marked_ to how often screening failed (tuning.hpp).
  void review_screening() {
    if (screened_heaps_ < tuning::kScreenReviewHeaps) return;
    if (remarked_heaps_ * tuning::kScreenRemarkHigh > screened_heaps_)
      screen_marked_ *= tuning::kScreenMarkedStep;
    else if (remarked_heaps_ * tuning::kScreenRemarkLow < screened_heaps_)
      screen_marked_ = std::max(tuning::kScreenMarkedLeast, screen_marked_ / tuning::kScreenMarkedStep);
    screened_heaps_ = remarked_heaps_ = 0;
  }

  // Looks among the pairs (a, m - a) of every two-heap split of heap n, from a = first on and
  // with partner_floor <= m - a < partner_limit, for the values in missing, moving each one found
  // to found. While many are missing, whole chunks of pairs are marked: a store per pair, and every
  // value counts. Once few are left (the long tail of collecting them all), the pairs are only
  // tested against those few, a vector at a time (take_pair_values). Says up to which a every pair went
  // into found, whatever its value, and whether released values cut the search short.
  struct Collected {
    std::uint64_t listed_to;
    bool cut_short = false;  // pairs past reach_a were needed but not held (bounded memory)
    std::uint64_t reach_a = 0;
  };
  template <class T>
  Collected collect_missing(const ValueVector<T>& g, std::uint64_t n, std::uint64_t first,
                            std::uint64_t partner_floor, std::uint64_t partner_limit, ValueMarks& marks,
                            ValueSet& missing, ValueSet& found) const {
    const auto& splits = moves_.split_two();
    if (splits.empty() || splits.front().take + 2 > n) return {first - 1};
    // The first split takes the fewest tokens, so it has the most pairs.
    const std::uint64_t most_m = n - splits.front().take;
    if (most_m < partner_floor) return {first - 1};
    const std::uint64_t wanted_a = std::min(splits.front().largest_first_part(most_m), most_m - partner_floor);
    // Bounded memory: a pair (a, m - a) is read only with a in the prefix and m - a in the tail,
    // for the split taking the most as well (its m is the smallest).
    std::uint64_t reach_a = wanted_a;
    if (released_) {
      std::uint64_t least_m = most_m;
      for (const SplitMove& move : splits)
        if (move.take + 2 <= n) least_m = n - move.take;
      reach_a = std::min({reach_a, prefix_end_ - 1, least_m >= tail_start_ ? least_m - tail_start_ : 0});
    }
    const std::uint64_t largest_a = reach_a;
    auto range = [&](const SplitMove& move, std::uint64_t a, std::uint64_t last) {
      const std::uint64_t m = n - move.take;
      const std::uint64_t lowest = m >= partner_limit ? m - partner_limit + 1 : 1;
      const std::uint64_t highest = m >= partner_floor ? std::min(move.largest_first_part(m), m - partner_floor) : 0;
      return std::pair{std::max(a, lowest), std::min({last, highest, largest_a})};
    };
    std::uint64_t left = missing.remove_all(found);
    // Folding marks into bits costs about bound/8 operations: keep chunks larger than that.
    const std::uint64_t chunk = std::max<std::uint64_t>(tuning::kSparseScanChunk, rare_.bound);
    std::uint64_t a = first;
    while (left > kSearchedValues && a <= largest_a) {
      const std::uint64_t last = a + chunk - 1;
      for (const SplitMove& move : splits) {
        if (move.take + 2 > n) break;
        const std::uint64_t m = n - move.take;
        const auto [from, to] = range(move, a, last);
        marks.insert_each(from, to + 1, [&](std::uint64_t x) { return g[x] ^ g[m - x]; });
      }
      marks.move_into(found);
      a = last + 1;
      left = missing.remove_all(found);
    }
    const std::uint64_t listed_to = std::min(a - 1, largest_a);
    // Chunks grow, so that a long search takes few rounds. The lookup stops as soon as it may have
    // found every value, so a first chunk of many vectors costs little when they turn up early
    // (one of 16 times the marked chunk: the lookups of Grundy's game and 0.6 to 2^21 took 8% and
    // 14% less time than starting at the marked chunk's size, counted on one thread).
    for (std::uint64_t search_chunk = tuning::kSparseSearchChunks * chunk; left > 0 && a <= largest_a;
         search_chunk *= 2) {
      const std::uint64_t last = a + search_chunk - 1;
      for (const SplitMove& move : splits) {
        if (move.take + 2 > n || left == 0) break;
        const auto [from, to] = range(move, a, last);
        if (from <= to) left = take_pair_values(g.data(), n - move.take, from, to, missing, found, left);
      }
      a = last + 1;
    }
    return {listed_to, left > 0 && reach_a < wanted_a, reach_a};
  }

  // Pairs of heap n with a rare part and the partner from limit on: small rare r, and rare
  // positions that joined during this block. (Pairs of two common parts give rare values only:
  // decide() looks for those when it needs them.)
  template <class T>
  void enumerate_pairs_inside_block(const ValueVector<T>& g, std::uint64_t n, std::uint64_t limit,
                                    std::size_t rare_before_block, ValueSet& seen) const {
    const RareIt before_block = rare_.positions.begin() + static_cast<std::ptrdiff_t>(rare_before_block);
    // Parts are non-empty.
    const RareIt first = std::lower_bound(rare_.positions.begin(), before_block, std::uint64_t{1});
    // Not before_block itself: the first block (from 0) lists heap 0, an empty part, among its own.
    const RareIt first_new = std::lower_bound(before_block, rare_.positions.end(), std::uint64_t{1});
    for (const SplitMove& move : moves_.split_two()) {
      if (move.take + 2 > n) break;
      const std::uint64_t m = n - move.take;
      // Rare r from before the block whose partner m - r is limit or more: 1 <= r <= m - limit.
      if (m >= limit)
        mark_pairs(g, move, m, first, std::upper_bound(first, before_block, std::min(m - limit, m - 1)), seen);
      mark_pairs(g, move, m, first_new, std::lower_bound(first_new, rare_.positions.end(), m), seen);
    }
  }

  // G(n) from the listed options: the least common value not seen, unless a rare value below it
  // turns out to be missing too. Pairs that can still show one present: those with the partner
  // from limit (known_below) on, and those past scanned_to.
  // Common values from exact_below on may have been seen without being listed (screen_group): if
  // the least unseen one lies there, the rare pairs with partner below limit are listed again.
  template <class T>
  Value decide(const ValueVector<T>& g, std::uint64_t n, std::uint64_t limit, ValueSet& seen, std::uint64_t scanned_to,
               Value exact_below, DecideScratch& scratch) const {
    const ValueSet& common = rare_.common_pattern(n);
    ValueSet& missing = scratch.missing;
    Value c = seen.first_missing_of(common, static_cast<Value>(rare_.bound));
    if (c >= exact_below) {
      for (const SplitMove& move : moves_.split_two())
        if (move.take + 2 <= n) mark_rare_pairs(g, move, n - move.take, 0, limit, scratch.marks);
      scratch.marks.move_into(seen);
      c = seen.first_missing_of(common, static_cast<Value>(rare_.bound));
    }
    if (missing.assign_missing_below(seen, common, c) == 0) return c;
    collect_missing(g, n, 1, limit, n, scratch.marks, missing, seen);
    if (missing.first_present(c) < c) {
      const Collected scan = collect_missing(g, n, scanned_to + 1, 0, n, scratch.marks, missing, seen);
      if (scan.cut_short)
        throw MemoryReachError(n, scan.reach_a + 1,
                               "heap " + std::to_string(n) + " must look for the rare value " +
                                   std::to_string(missing.first_present(c)) + " among splits (a, m - a) with a > " +
                                   std::to_string(scan.reach_a) + ", " + released_text(n));
    }
    return missing.first_present(c);
  }

  // G(n) from every option: the pairs listed for it in the parallel part, its simple options and
  // its rare pairs with a partner from known_below(n) on, then decide(). Reads only the values
  // below n.
  template <class T>
  Value decide_fully(const ValueVector<T>& g, std::uint64_t n, std::size_t rare_before_block,
                     DecideScratch& scratch) const {
    mark_options_left(g, n, rare_before_block, scratch);
    return decide(g, n, known_below(n), scratch.seen, scanned_to_[n - base_], exact_below_[n - base_], scratch);
  }

  // Puts into scratch.seen (fitted to rare_.bound) heap n's options listed before its turn (its known
  // set), its simple options and its rare pairs with a partner from known_below(n) on: all but
  // the pairs a full decision marks or scans for itself.
  template <class T>
  void mark_options_left(const ValueVector<T>& g, std::uint64_t n, std::size_t rare_before_block,
                         DecideScratch& scratch) const {
    scratch.fit(rare_.bound);
    ValueSet& seen = scratch.seen;
    seen.assign(known_[n - base_]);
    if (moves_.split_three().empty()) {
      moves_.mark_simple_options(g, n, seen);
    } else {  // three-heap splits have many options: marked, then folded
      moves_.mark_simple_options(g, n, scratch.marks);
      scratch.marks.move_into(seen);
    }
    enumerate_pairs_inside_block(g, n, known_below(n), rare_before_block, seen);
  }

  // Whether decide_quickly may be used for the block from start (can_compare_candidates): then
  // the near rare positions (r <= block_) pair with every heap, r < m / 2.
  bool can_decide_quickly(std::uint64_t start) const { return lists_rare_ && can_compare_candidates(start, block_); }

  // The rare positions r <= W (W = near_) laid out in reverse: lane j holds G(r) for
  // r = W - j, or is a hole where W - j is not rare. A heap's pairs (r, m - r) with such r are then
  // the lanes against its partners m - W + j read forwards (find_xor_values).
  template <class T>
  struct NearRare {
    std::vector<T> parts = std::vector<T>(tuning::kSparseBlock);
    std::vector<T> holes = std::vector<T>(tuning::kSparseBlock);
  };
  template <class T>
  const NearRare<T>& near_rare() const {
    return std::get<NearRare<T>>(near_rare_);
  }
  template <class T>
  NearRare<T>& near_rare() {
    return std::get<NearRare<T>>(near_rare_);
  }
  template <class T>
  void lay_out_near_rare(std::uint64_t lanes) {
    near_ = lanes;
    NearRare<T>& near = near_rare<T>();
    std::fill(near.parts.begin(), near.parts.end(), T{0});
    std::fill(near.holes.begin(), near.holes.end(), std::numeric_limits<T>::max());
    for (std::size_t k = 0; k < rare_.positions.size() && rare_.positions[k] <= near_; ++k)
      if (rare_.positions[k] > 0) {
        near.parts[near_ - rare_.positions[k]] = static_cast<T>(rare_.values[k]);
        near.holes[near_ - rare_.positions[k]] = 0;
      }
  }

  // The near options as the chain's step compares them (chain_step.hpp): every lane.
  // first_not_given compares only the lanes whose partner lies from known_below(n) on, which in the
  // pipeline are all of them (its known sets stop more than near_ below every heap).
  template <class T>
  NearOptions<T> near_options() const {
    const NearRare<T>& near = near_rare<T>();
    return {near.parts.data(),      near.holes.data(),        near_, moves_.split_two().data(),
            moves_.split_two().size(), moves_.leave_one().data(), moves_.leave_one().size()};
  }

  // Whether a heap in [from, to) may be taken whole (an option of value 0 that chain_decide does
  // not compare).
  bool takes_all_between(std::uint64_t from, std::uint64_t to) const {
    // Past the finite digits the tail repeats: its first period says all.
    const Rules& rules = moves_.rules();
    const std::uint64_t digits = rules.finite_digits().size();
    to = std::min(to, rules.has_tail() ? std::max(from, digits) + rules.tail_digits().size() : digits);
    for (std::uint64_t n = from; n < to; ++n)
      if (moves_.takes_all(n)) return true;
    return false;
  }

  // What decide_quickly settled.
  enum class Quick {
    kUndecided,   // nothing: the full decision must run
    kDecided,     // G(n)
    kSpeculative  // G(n) unless a rare value below it is given by no option (then the least such)
  };

  // G(n) when it follows from little: the heap's least common values missing from its known set
  // (the candidates) are compared with the options the parallel part could not see, its pairs
  // with a partner inside the block and its simple options; the first candidate c none of them
  // gives is G(n) if every rare value below it is known present. If one is not, c is taken on
  // speculation: every common value below c is given, so G(n) differs from c only when one of
  // those rare values is given by no option at all, a new rare position (few past the first
  // thousands of heaps).
  template <class T>
  Quick decide_quickly(const ValueVector<T>& g, std::uint64_t n, std::size_t rare_before_block, Value& value) const {
    if (rare_.bound != candidates_bound_) return Quick::kUndecided;  // the values grew wider
    const Candidates& listed = candidates_[n - base_];
    assert(listed.given == 0);  // the pipeline drops those its bands gave (drop_given)
    // A few at a time, in order.
    for (int next = 0; next < listed.count; next += tuning::kQuickCandidates) {
      const int chosen = first_not_given<T>(g, n, rare_before_block, listed.values + next,
                                            std::min(tuning::kQuickCandidates, listed.count - next));
      if (chosen >= 0) {
        value = listed.values[next + chosen];
        return (listed.unsure >> (next + chosen)) & 1 ? Quick::kSpeculative : Quick::kDecided;
      }
    }
    return Quick::kUndecided;
  }

  // The first of candidates[0..count) that none of heap n's options left to the ordered part
  // gives (its pairs with the near rare positions and with rare positions new in the block, and its
  // simple options), or -1.
  template <class T>
  int first_not_given(const ValueVector<T>& g, std::uint64_t n, std::size_t rare_before_block, const Value* compared,
                      int count) const {
    const std::uint64_t start = known_below(n);
    T candidates[tuning::kQuickCandidates];
    for (int k = 0; k < count; ++k) candidates[k] = static_cast<T>(compared[k]);
    CandidatesGiven options{compared, count};
    const NearRare<T>& near = near_rare<T>();
    for (const SplitMove& move : moves_.split_two()) {
      const std::uint64_t m = n - move.take;
      if (m > start) {
        // Partners start..m-1 are the last m - start lanes. Lanes before them pair r with a
        // partner below start, options already known, so whole vectors of 64 bytes are taken.
        constexpr std::uint64_t kVectorLanes = 64 / sizeof(T);
        const std::uint64_t lanes = std::min(near_, (m - start + kVectorLanes - 1) / kVectorLanes * kVectorLanes);
        const std::uint64_t first_lane = near_ - lanes;
        options.given |= find_xor_values(near.parts.data() + first_lane, g.data() + (m - lanes),
                                         near.holes.data() + first_lane, lanes, candidates, count);
      }
      for (std::size_t k = rare_before_block; k < rare_.positions.size(); ++k) {  // rare positions new in the block
        const std::uint64_t r = rare_.positions[k];
        if (r < m && !(move.unequal && 2 * r == m)) options.insert(static_cast<Value>(rare_.values[k] ^ g[m - r]));
      }
    }
    moves_.mark_simple_options(g, n, options);
    return options.first_not_given();
  }


  // decide_quickly, and where it cannot settle the value because the screening left the heap's
  // known set exact only below a few candidates, all of which the options it alone sees give: the
  // heap's screened rare pairs marked (its known set is then exact), its candidates listed again,
  // and decide_quickly once more. That marking is most of what a full decision costs, but the heap
  // is then settled by the compare: on Grundy's game to 2^22, 8559 full decisions are left of
  // 72617.
  template <class T>
  Quick decide_quickly_exact(const ValueVector<T>& g, std::uint64_t n, std::size_t rare_before_block, Value& value,
                             DecideScratch& scratch) {
    const Quick outcome = decide_quickly(g, n, rare_before_block, value);
    if (outcome != Quick::kUndecided || rare_.bound != candidates_bound_ || exact_below_[n - base_] == kExact)
      return outcome;
    scratch.fit(rare_.bound);
    mark_screened_pairs(g, n - base_, scratch.marks);
    list_candidates<T>(n);
    return decide_quickly(g, n, rare_before_block, value);
  }

  // Records G(n) = value in the rare-value state; the heaps decided alone are prepared again once
  // the bound or the rare list changes.
  void record(std::uint64_t n, Value value) {
    if (rare_.record(n, value, lists_rare_)) lone_ready_ = false;
  }

  // record() for the heaps from..to - 1 decided alone: only the last may be rare (decide() stops
  // after a new rare position), and none widens the bound, so the rest are only counted.
  template <class T>
  void record_decided_alone(const ValueVector<T>& g, std::uint64_t from, std::uint64_t to) {
    for (std::uint64_t n = from; n < to; ++n) {
      const Value value = g[n];
      if (value >= rare_.bound || value >= rare_.histogram.size() || is_rare(value, n, rare_.mask)) {
        record(n, value);
        continue;
      }
      rare_.count_common(n, value);
    }
  }

  // Puts a wrong speculation right: the values from its heap on taken back, its true value
  // recorded in their place.
  template <class T>
  void put_right(ValueVector<T>& g, const Miss& miss) {
    forget_from(g, miss.heap);
    g.push_back(static_cast<T>(miss.value));
    record(miss.heap, miss.value);
  }

  // Takes back the values from heap n on (n within the block, after rare_.start_undo_log()): as if
  // they had never been recorded.
  template <class T>
  void forget_from(ValueVector<T>& g, std::uint64_t n) {
    if (rare_.forget_from(g, n)) lone_ready_ = false;
  }

  // Picks the mask again (RareState::choose_mask).
  template <class T>
  void choose_mask(const ValueVector<T>& g) {
    if (rare_.choose_mask(g, released_, lists_rare_, split_parity_, work_span_)) lone_ready_ = false;
  }

  std::uint64_t block_ = tuning::kSparseBlock;  // heaps a block: chosen from the threads (tuning.hpp)
  std::uint64_t near_ = tuning::kSparseBlock;   // the near rare positions' lanes (lay_out_near_rare)
  std::uint64_t base_ = 0;             // the heap of the per-heap state's first entry (known_ and the rest)
  std::uint64_t heap_count_ = 0;       // its heaps (known_ may hold more sets: it only grows)
  bool pipelined_ = false;             // the per-heap state is the pipeline's (known_below)
  std::uint64_t pipeline_from_ = 0;    // the pipeline waits for this heap after it stopped early
  RareState rare_;                     // the rare-value state (rare_state.hpp)
  const bool lists_rare_;              // whether rare_.positions is kept (the game splits into two heaps)
  const SplitTakeParity split_parity_;  // whether the mask may use the heap's parity
  bool released_ = false;              // bounded memory: G(prefix_end_..tail_start_-1) may not be read
  std::uint64_t prefix_end_ = 0;
  std::uint64_t tail_start_ = 0;
  DecideScratch ordered_scratch_;      // the ordered part's full decisions (and the flowing chain's)
  BlockFlow flow_;                     // the flowing block's state (flow_block)
  std::vector<std::uint64_t> speculated_;  // heaps of the block whose value was taken on speculation
  std::vector<Value> confirmed_;       // their full decisions
  bool block_missed_ = false;          // whether a guess in this block was (or would have been) wrong
  std::uint64_t quiet_blocks_ = 0;     // blocks in a row without such a miss
  std::vector<ValueSet> known_;        // per heap from base_: pairs known before it is decided (known_below)
  std::vector<std::uint64_t> scanned_to_;  // per heap of the block: pairs (a, m - a) listed up to a
  std::vector<Value> exact_below_;     // per heap of the block: known_ holds every common value below it
  std::vector<std::uint8_t> remark_;   // per heap of the block: its screening failed (screen_group)
  std::vector<std::vector<Screened>> screened_of_;  // per group (a far part in the pipeline): its screened rare pairs
  std::vector<Candidates> candidates_;  // per heap of the block
  std::unique_ptr<PipelineGroup[]> pipeline_groups_;  // pipeline_group_room
  std::size_t pipeline_group_capacity_ = 0;
  std::uint64_t candidates_bound_ = 0;  // rare_.bound when they were listed
  std::tuple<NearRare<std::uint8_t>, NearRare<std::uint16_t>, NearRare<std::uint32_t>> near_rare_;
  std::vector<std::uint64_t> probe_parts_;  // first parts of the probe pairs, increasing
  std::uint64_t probes_chosen_at_ = 0;      // the values known when they were chosen
  bool probes_as_bits_ = false;             // marks_as_bits() when they were chosen
  std::ptrdiff_t screen_marked_ = tuning::kScreenMarkedFirst;  // rare pairs marked before screening
  std::uint64_t screened_heaps_ = 0;   // since the last review_screening()
  std::uint64_t remarked_heaps_ = 0;   // of them, marked after all
  // Heaps decided alone (decide_alone), and whether they were prepared for the rare list, mask and
  // bound now in use (every change of any of them clears it).
  LoneHeaps lone_heaps_;
  bool lone_ready_ = false;
};

}  // namespace

std::unique_ptr<Kernel> make_sparse_kernel(const Rules& rules) { return std::make_unique<SparseKernel>(rules); }

}  // namespace sgx
