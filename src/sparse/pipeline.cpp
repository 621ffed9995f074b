// The sparse kernel's pipeline: heaps in groups, each task started as soon as the values it reads
// are decided. Its tasks ahead of the chain are in pipeline_bands.cpp.
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
// none on many threads, and the span is about the chain's own time. The tasks ahead of the chain
// are watched for interruptions (task_clock.hpp): they note their progress every few microseconds,
// here and in pipeline_bands.cpp and pair_marking.cpp.
// Where none of a heap's candidates stands, the chain marks all its options but those that only
// show rare values present, and takes the least common value none gives, on speculation as well
// (least_common_not_given). A value wider than the sets' bound and a wrong speculation (a new
// rare position among them) stop the pipeline: the values from the first wrong one on are taken
// back, and blocks go on.

#include "sparse/sparse_kernel.hpp"

#include <algorithm>
#include <atomic>
#include <limits>
#include <memory>
#include <span>
#include <thread>
#include <type_traits>
#include <vector>

#include <omp.h>

namespace sgx {

// What the chain writes and what the other threads write lie on cache lines of their own: a
// line both write would stall the chain's stores each group.
struct SparseKernel::Pipeline {
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

// Whether the heaps from start on, towards target, go through the pipeline.
template <class T>
bool SparseKernel::can_pipeline(std::uint64_t start, std::uint64_t target) const {
  // Its bands are screened (so 8 or 16 bits, where screen_rare_pairs runs), it reads every
  // value (no values released), and its chain decides quickly.
  return omp_get_max_threads() >= tuning::kPipelineLeastThreads && sizeof(T) <= 2 && can_screen_pairs() &&
         !released_ && !rare_.mask_stale && start >= pipeline_from_ && start >= 2 * tuning::kPipelineDistances[0] &&
         target - start >= tuning::kPipelineLeastHeaps && quiet_blocks_ >= tuning::kPipelineAfterQuietBlocks &&
         can_decide_quickly(start);
}

// Room for count groups, kept from step to step; start_groups puts them in their first state.
inline std::span<SparseKernel::PipelineGroup> SparseKernel::pipeline_group_room(std::size_t count) {
  if (count > pipeline_group_capacity_) {
    pipeline_groups_ = std::make_unique<PipelineGroup[]>(count);
    pipeline_group_capacity_ = count;
  }
  return {pipeline_groups_.get(), count};
}

// The step's groups put in their first state by the threads side by side, before any task: on
// one thread this took 5-6 ms of the 24-28 ms a 64-thread run to 2^24 spent outside its regions
// (258 steps of 1024 groups). Every path through the step's tasks starts after it.
inline void SparseKernel::start_groups(Pipeline& pipe) {
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
void SparseKernel::pipeline(ValueVector<T>& g, std::uint64_t target) {
  const std::uint64_t start = g.size();
  choose_probe_parts_if_stale(g);
  const std::uint64_t count = target - start;
  prepare_heaps(start, count);
  pipelined_ = true;
  lay_out_near_rare<T>(tuning::kPipelineNear);
  rare_.start_undo_log();
  chain_counts_.assign(2 * rare_.bound, 0);
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
  rare_.add_counts_by_parity(chain_counts_);  // before put_right takes any back
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
inline void SparseKernel::run_chain(ValueVector<T>& g, Pipeline& pipe, Worker& worker) {
  const Value type_max = std::numeric_limits<T>::max();
  const std::uint64_t count = g.size() - base_;
  const NearOptions<T> near = near_options<T>();
  const bool can_compare = can_chain_decide(near);
  std::uint64_t n = base_;
  prefetch_candidates(0);
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
    // group's are asked for now, to arrive while this one is decided, whether or not its tasks
    // are done: looking first read the line of its stage, which another core writes, on the
    // chain's path (Grundy's game to 2^24, 64 threads, four rounds alternating: span
    // 0.325-0.336 s looking, 0.319-0.326 s not); lines asked for too early are fetched again.
    if (q + 1 < pipe.groups.size()) prefetch_candidates(q + 1);
    const std::uint64_t end = base_ + std::min(count, (q + 1) * tuning::kSparseGroup);
    const bool compare_alone = can_compare && rare_.bound == candidates_bound_ && !takes_all_between(n, end);
    // Written to the group once: other threads read its line, looking for tasks.
    std::uint64_t speculated_here = 0;
    for (; n < end; ++n) {
      if constexpr (sizeof(T) <= 2)  // can_pipeline
        if (compare_alone) {  // while the compare settles the heaps
          std::uint64_t speculated = 0;
          const std::uint64_t stopped =
              chain_decide(g.data(), n, end, candidates_.data() + (n - base_),
                           {first_candidates_.data() + (n - base_), second_candidates_.data() + (n - base_)}, near,
                           speculated);
          speculated_here |= speculated << ((n - base_) % tuning::kSparseGroup);
          for (; n < stopped; ++n) count_on_chain(n, g[n]);
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
      count_on_chain(n, value);
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
inline Value SparseKernel::least_common_not_given(const ValueVector<T>& g, std::uint64_t n, bool& unsure) {
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

// Asks for the cache lines of the chain's copies of group q's first candidates (the rest is read
// only for the few heaps whose first candidate an option gives).
inline void SparseKernel::prefetch_candidates(std::uint64_t q) const {
  const std::uint64_t first = std::min(heap_count_, q * tuning::kSparseGroup);
  const std::uint64_t last = std::min(heap_count_, first + tuning::kSparseGroup);
  const char* const begin = reinterpret_cast<const char*>(first_candidates_.data() + first);
  const char* const end = reinterpret_cast<const char*>(first_candidates_.data() + last);
  for (const char* line = begin; line < end; line += 64) __builtin_prefetch(line);
}

// Runs tasks until the chain is done and every group it passed is confirmed.
template <class T>
inline void SparseKernel::help_pipeline(const ValueVector<T>& g, Pipeline& pipe, Worker& worker) {
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
inline bool SparseKernel::run_pipeline_task(const ValueVector<T>& g, Pipeline& pipe, Worker& worker) {
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
      const Ticks began = pipe.timed ? begin_watched_task() : 0;
      const std::uint64_t first = q * tuning::kSparseGroup + static_cast<std::uint64_t>(part) * part_heaps(stage);
      const std::uint64_t last = std::min(heap_count_, first + part_heaps(stage));
      if (first < last) {  // the last group may be short
        if (stage == 0)
          run_far_part(g, q, first, last, worker);
        else
          run_band(g, stage, first, last, worker);
      }
      if (pipe.timed) group.took[stage][part] = end_watched_task(began);
      if (group.parts_done[stage].fetch_add(1, std::memory_order_acq_rel) + 1 == parts_of(stage))
        group.stage.store(stage + 1, std::memory_order_release);
      return true;
    }
  }
  return false;
}

// Confirms the values group q's heaps took on speculation, noting the first wrong one. Every
// partner is decided now, so the group's probe pairs, whose partners lie near the heaps, are
// marked for all its heaps at once before each heap's own search.
template <class T>
inline void SparseKernel::confirm_group(const ValueVector<T>& g, std::uint64_t q, PipelineGroup& group,
                                        Worker& worker) const {
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

// The pipeline's work (every task's time) and span: the longest path through its tasks, each
// waiting for the one before it in its group, for the decided heaps it reads (its gate), and the
// chain's for the group before it, all after the groups' start.
inline RegionTicks SparseKernel::pipeline_ticks(const Pipeline& pipe) const {
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

// Instantiated here for every type of values: the other files see only the declarations.
#define SGX_SPARSE_INSTANTIATE(T) \
  template bool SparseKernel::can_pipeline<T>(std::uint64_t start, std::uint64_t target) const; \
  template void SparseKernel::pipeline<T>(ValueVector<T>& g, std::uint64_t target);
SGX_SPARSE_FOR_EACH_TYPE(SGX_SPARSE_INSTANTIATE)
#undef SGX_SPARSE_INSTANTIATE

}  // namespace sgx
