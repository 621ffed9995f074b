#pragma once
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
//
// The class below is private to the library (make_sparse_kernel is its face). Its parts are
// defined a file each (README.md): sparse_kernel.cpp (taking up values, the loop over ways of
// deciding), rare_state.hpp (the rare-value state), pair_marking.hpp and .cpp (pairs marked,
// probed and screened before a heap's turn), decide.cpp (a heap decided in its turn, quickly or in
// full), blocks.cpp (the blocks, in steps or flowing), pipeline.cpp and pipeline_bands.cpp (the
// pipeline). Its member templates take the type of the values (8, 16 or 32 bits); each file
// instantiates those it defines for every type (SGX_SPARSE_FOR_EACH_TYPE), so that the files share
// declarations only. A member function that only its own file calls is declared inline, as it was
// when every one was defined in the class, so that the compiler weighs inlining it as it did then.

#include <atomic>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "base/task_clock.hpp"
#include "base/tuning.hpp"
#include "kernels/kernel.hpp"
#include "kernels/pair_search.hpp"
#include "kernels/value_set.hpp"
#include "sgx/stats.hpp"
#include "sparse/chain_step.hpp"
#include "sparse/group_marks.hpp"
#include "sparse/lone_heap.hpp"
#include "sparse/pair_bits.hpp"
#include "sparse/pair_screen.hpp"
#include "sparse/rare_state.hpp"

namespace sgx {

static_assert(tuning::kSparseGroup == kScreenHeaps, "a group is screened in one go");
static_assert(tuning::kQuickCandidates <= kScreenSlots && kScreenSlots <= 16,
              "a heap's candidates are bits of 16, and screened together");

// Hidden: the library's own, so that a build for a shared object (-fPIC) may still inline its
// member functions into one another inside each file, as it did when the class was one file's.
class [[gnu::visibility("hidden")]] SparseKernel final : public Kernel {
 public:
  explicit SparseKernel(const Rules& rules);
  void attach(const Sequence& values) override;
  void attach_state(const Sequence& values, const SparseState& state) override;
  void note_filled(const Sequence& values, std::uint64_t from) override;
  std::optional<SparseState> state() const override;
  void compute(Sequence& values, std::uint64_t target) override;
  KernelKind kind() const override { return KernelKind::Sparse; }
  std::uint64_t rare_count() const override { return rare_.positions.size(); }
  bool prefers_sweep(std::uint64_t n) const override {
    // From the rules, not the move table: that is filled only once extend() runs, and a resumed
    // run asks before.
    return lists_rare_ && auto_prefers_sweep(n, rare_.positions.size());
  }

 private:
  using RareIt = std::vector<std::uint64_t>::const_iterator;

  // A known set that lists every common value (exact_below_).
  static constexpr Value kExact = std::numeric_limits<Value>::max();

  // The rare positions rare_.positions[first..last) whose pairs with the heaps of a group are
  // screened rather than marked (pair_screen.hpp): a heap j of the group splits into parts summing
  // to m_lo + j. Indices, not iterators: rare positions that join during the block may move the list.
  struct Screened {
    const SplitMove* move;
    std::uint64_t m_lo;
    std::size_t first, last;
  };

  // A heap's least common values missing from its known set, for decide_quickly and the
  // pipeline's chain: tuning::kQuickCandidates in blocks; in the pipeline, as many as are screened.
  // given: by the bands (screen_band).
  using Candidates = HeapCandidates;

  // A heap whose full decision differs from the value taken on speculation.
  struct Miss {
    std::uint64_t heap;
    Value value;  // its true value
  };

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

  static constexpr int kPipelineStages = static_cast<int>(std::size(tuning::kPipelineDistances));
  static_assert(tuning::kSparseGroup % tuning::kFarParts == 0, "a group splits into equal parts");
  // The band before the last lists the further candidates (extend_candidates).
  static constexpr int kExtendingStage = kPipelineStages - 2;
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

  // The pipeline's shared progress (pipeline.cpp).
  struct Pipeline;
  // The per-thread working sets of the tasks of the pipeline and of a flowing block.
  struct Worker {
    explicit Worker(std::uint64_t bound) : marks(bound), missing(bound) {}
    GroupMarks group;
    ValueMarks marks;
    ValueSet missing;
    DecideScratch scratch;
  };

  // The band pairs' end (r_high) for the further candidates: up to the far pairs of the group's
  // last heaps.
  static constexpr std::uint64_t kBandsEnd = tuning::kPipelineDistances[0] + tuning::kSparseGroup;

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

  static constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();
  // The rare pairs of a group's heaps (parts summing to m_lo + j, j < heaps) with the partner in
  // [low, high): the r in [every_first, every_last) pair with every heap; the few r in
  // [low_first, every_first) and [every_last, high_last) with some (the edges).
  struct GroupRare {
    RareIt low_first, every_first, every_last, high_last;
  };

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

  // The rare positions r <= W (W = near_) laid out in reverse: lane j holds G(r) for
  // r = W - j, or is a hole where W - j is not rare. A heap's pairs (r, m - r) with such r are then
  // the lanes against its partners m - W + j read forwards (find_xor_values).
  template <class T>
  struct NearRare {
    std::vector<T> parts = std::vector<T>(tuning::kSparseBlock);
    std::vector<T> holes = std::vector<T>(tuning::kSparseBlock);
  };

  // What decide_quickly settled.
  enum class Quick {
    kUndecided,   // nothing: the full decision must run
    kDecided,     // G(n)
    kSpeculative  // G(n) unless a rare value below it is given by no option (then the least such)
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

  // The tasks of a stage of a group, side by side, each for a part of its heaps: the far stage, the
  // band before the last and the last, the longest tasks for their slack before the chain needs
  // them, in kFarParts; the other bands in one.
  static constexpr int parts_of(int stage) {
    return stage == 0 || stage >= kExtendingStage ? static_cast<int>(tuning::kFarParts) : 1;
  }

  // The partner below which a heap of group q has its pairs in its known set (known_below).
  std::uint64_t limit_of_group(std::uint64_t q) const { return pipeline_gate(q, 0); }

  // The heap from which group q's stage may run: the heaps below it are decided.
  std::uint64_t pipeline_gate(std::uint64_t q, int stage) const {
    return base_ + (q + 1) * tuning::kSparseGroup - tuning::kPipelineDistances[stage];
  }

  // The heaps of each part of a stage's task.
  static constexpr std::uint64_t part_heaps(int stage) {
    return tuning::kSparseGroup / static_cast<std::uint64_t>(parts_of(stage));
  }

  // The rare positions r in [low, high).
  std::pair<RareIt, RareIt> rare_between(std::uint64_t low, std::uint64_t high) const {
    const auto first = std::lower_bound(rare_.positions.begin(), rare_.positions.end(), low);
    return {first, std::lower_bound(first, rare_.positions.end(), std::max(low, high))};
  }

  // Whether a group's pairs are marked as bits (pair_bits.hpp): while every value lies below 64.
  bool marks_as_bits() const { return rare_.bound <= kOneWordValues && can_mark_pair_bits(); }

  // The bound on candidates: the largest T marks a hole (find_xor_values), so it is never one.
  template <class T>
  Value candidates_below() const {
    return std::min<Value>(static_cast<Value>(rare_.bound), static_cast<Value>(std::numeric_limits<T>::max()));
  }

  // Whether decide_quickly may be used for the block from start (can_compare_candidates): then
  // the near rare positions (r <= block_) pair with every heap, r < m / 2.
  bool can_decide_quickly(std::uint64_t start) const { return lists_rare_ && can_compare_candidates(start, block_); }

  template <class T>
  const NearRare<T>& near_rare() const {
    return std::get<NearRare<T>>(near_rare_);
  }

  template <class T>
  NearRare<T>& near_rare() {
    return std::get<NearRare<T>>(near_rare_);
  }

  // Records G(n) = value in the rare-value state; the heaps decided alone are prepared again once
  // the bound or the rare list changes.
  void record(std::uint64_t n, Value value) {
    if (rare_.record(n, value, lists_rare_)) lone_ready_ = false;
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

  // ---- sparse_kernel.cpp: the run over heaps, bounded memory's reach, the heaps decided alone.
  inline void set_reach(const Sequence& values);
  inline void check_rare_partners_held(std::uint64_t start, std::uint64_t end) const;
  std::string released_text(std::uint64_t n) const;
  template <class T>
  inline Value run(ValueVector<T>& g, std::uint64_t target);
  inline void count_heaps(std::uint64_t SparseHeaps::*way, std::uint64_t from, std::uint64_t to);
  template <class T>
  inline std::uint64_t decide_alone(ValueVector<T>& g, std::uint64_t target);
  inline std::size_t lone_rare_at_most() const;
  template <class T>
  inline void record_decided_alone(const ValueVector<T>& g, std::uint64_t from, std::uint64_t to);

  // ---- pair_marking.hpp: a heap's pairs with rare positions, marked.
  std::pair<RareIt, RareIt> rare_partnered(std::uint64_t m, std::uint64_t low, std::uint64_t high) const;
  template <class T, class Marks>
  void mark_rare_pairs(const ValueVector<T>& g, const SplitMove& move, std::uint64_t m, std::uint64_t low,
                       std::uint64_t high, Marks& marks) const;
  GroupRare group_rare(std::uint64_t m_lo, std::uint64_t heaps, std::uint64_t low, std::uint64_t high) const;
  template <class T, class Marks>
  void mark_edge_pairs(const ValueVector<T>& g, const SplitMove& move, std::uint64_t m, std::uint64_t low,
                       std::uint64_t high, const GroupRare& rare, Marks& marks) const;
  template <class T, class Marks>
  [[gnu::always_inline]] void mark_pairs(const ValueVector<T>& g, const SplitMove& move, std::uint64_t m,
                                         RareIt first, RareIt last, Marks& marks) const;

  // ---- pair_marking.cpp: a group's pairs marked and screened before its turn; the probe parts.
  template <class T>
  void screen_rare_range(const ValueVector<T>& g, std::uint64_t first, std::uint64_t heaps,
                         std::pair<RareIt, RareIt> band, const ScreenCandidates<T>& candidates,
                         std::uint64_t* hits) const;
  template <class T>
  void screen_screened_pairs(const ValueVector<T>& g, std::uint64_t first, std::uint64_t last,
                             const ScreenCandidates<T>& candidates, std::uint64_t* hits) const;
  template <class T>
  void mark_known_pairs_of_group(const ValueVector<T>& g, std::uint64_t first, std::uint64_t last, std::uint64_t limit,
                                 GroupMarks& group, bool screening, bool probes);
  template <class T>
  void mark_if_screening_failed(const ValueVector<T>& g, std::uint64_t i, ValueMarks& marks);
  template <class T>
  inline void mark_rare_pairs_of_group(const ValueVector<T>& g, std::uint64_t first, std::uint64_t last,
                                       std::uint64_t low, std::uint64_t high, GroupMarks& group,
                                       std::vector<Screened>* screened) const;
  template <class T>
  [[gnu::noinline]] void mark_pairs_with_every_heap(const ValueVector<T>& g, const SplitMove& move, std::uint64_t m_lo,
                                                    std::uint64_t heaps, RareIt first, RareIt last,
                                                    GroupMarks& group) const;
  template <class T>
  [[gnu::noinline]] void mark_probe_pairs_of_group(const ValueVector<T>& g, std::uint64_t first, std::uint64_t last,
                                                   std::uint64_t limit, GroupMarks& group) const;
  void forget_probe_parts();
  template <class T>
  void choose_probe_parts_if_stale(const ValueVector<T>& g);
  template <class T>
  inline void choose_probe_parts(const ValueVector<T>& g);
  template <class T>
  int list_unseen(std::uint64_t i, Value from, Value limit, ScreenCandidates<T>& into, std::uint64_t j) const;
  template <class T>
  inline void screen_group(const ValueVector<T>& g, std::uint64_t first, std::uint64_t last);
  template <class T>
  void mark_screened_pairs(const ValueVector<T>& g, std::uint64_t i, ValueMarks& marks);
  void review_screening();

  // ---- decide.cpp: a heap decided in its turn, quickly or in full; speculations confirmed.
  template <class T>
  Value confirmed_value(const ValueVector<T>& g, std::uint64_t n, std::size_t rare_before_block, Worker& worker,
                        ValueSet& found) const;
  template <class T>
  Value confirm_speculation(const ValueVector<T>& g, std::uint64_t n, std::size_t rare_before_block,
                            Worker& worker) const;
  template <class T>
  Value decide_in_turn(const ValueVector<T>& g, std::uint64_t n, std::size_t rare_before_block, bool quick,
                       bool speculate, bool& speculated);
  template <class T>
  void list_candidates(std::uint64_t n, int most = tuning::kQuickCandidates);
  static void note_unsure(Candidates& listed, const ValueSet& known, const ValueSet& common);
  template <class T>
  Collected collect_missing(const ValueVector<T>& g, std::uint64_t n, std::uint64_t first,
                            std::uint64_t partner_floor, std::uint64_t partner_limit, ValueMarks& marks,
                            ValueSet& missing, ValueSet& found) const;
  template <class T>
  inline void enumerate_pairs_inside_block(const ValueVector<T>& g, std::uint64_t n, std::uint64_t limit,
                                           std::size_t rare_before_block, ValueSet& seen) const;
  template <class T>
  Value decide(const ValueVector<T>& g, std::uint64_t n, std::uint64_t limit, ValueSet& seen, std::uint64_t scanned_to,
               Value exact_below, DecideScratch& scratch) const;
  template <class T>
  inline Value decide_fully(const ValueVector<T>& g, std::uint64_t n, std::size_t rare_before_block,
                            DecideScratch& scratch) const;
  template <class T>
  void mark_options_left(const ValueVector<T>& g, std::uint64_t n, std::size_t rare_before_block,
                         DecideScratch& scratch) const;
  template <class T>
  void lay_out_near_rare(std::uint64_t lanes);
  template <class T>
  NearOptions<T> near_options() const;
  bool takes_all_between(std::uint64_t from, std::uint64_t to) const;
  template <class T>
  Quick decide_quickly(const ValueVector<T>& g, std::uint64_t n, std::size_t rare_before_block, Value& value) const;
  template <class T>
  inline int first_not_given(const ValueVector<T>& g, std::uint64_t n, std::size_t rare_before_block,
                             const Value* compared, int count) const;
  template <class T>
  inline Quick decide_quickly_exact(const ValueVector<T>& g, std::uint64_t n, std::size_t rare_before_block,
                                    Value& value, DecideScratch& scratch);

  // ---- blocks.cpp: the blocks, in steps or flowing.
  template <class T>
  std::optional<Value> decide_in_order(ValueVector<T>& g, std::uint64_t from, std::uint64_t end,
                                       std::size_t rare_before_block, bool speculate);
  bool can_flow(std::uint64_t start, std::uint64_t end) const;
  template <class T>
  std::uint64_t flow_block(ValueVector<T>& g, std::uint64_t start, std::uint64_t end, std::size_t rare_before_block,
                           bool speculate);
  template <class T>
  inline bool advance_chain(ValueVector<T>& g, BlockFlow& flow, std::size_t rare_before_block, bool speculate);
  inline bool changes_shared_state(std::uint64_t n, Value value) const;
  static inline std::uint64_t claim_heap_task(BlockFlow& flow);
  template <class T>
  inline bool run_flow_task(const ValueVector<T>& g, BlockFlow& flow, Worker& worker);
  inline RegionTicks flow_ticks(const BlockFlow& flow) const;
  template <class T>
  std::optional<Miss> confirm_speculations(ValueVector<T>& g, std::size_t rare_before_block);
  template <class T>
  std::optional<Miss> first_miss(ValueVector<T>& g, std::size_t first_stopped = kNone,
                                 const std::exception_ptr& stopped = nullptr);
  template <class T>
  void enumerate_known_pairs(const ValueVector<T>& g, std::uint64_t start, std::uint64_t end);
  void prepare_heaps(std::uint64_t base, std::uint64_t count);
  void reset_heaps(std::uint64_t first, std::uint64_t last);
  template <class T>
  inline void run_heap_task(const ValueVector<T>& g, std::uint64_t first, std::uint64_t last, bool quick,
                            ValueMarks& marks, ValueSet& missing);
  template <class T>
  inline void scan_known_pairs(const ValueVector<T>& g, std::uint64_t i, std::uint64_t limit, ValueMarks& marks,
                               ValueSet& missing);

  // ---- pipeline.cpp: the pipeline's steps, its chain and its confirmations.
  template <class T>
  bool can_pipeline(std::uint64_t start, std::uint64_t target) const;
  inline std::span<PipelineGroup> pipeline_group_room(std::size_t count);
  static inline void start_groups(Pipeline& pipe);
  template <class T>
  void pipeline(ValueVector<T>& g, std::uint64_t target);
  template <class T>
  inline void run_chain(ValueVector<T>& g, Pipeline& pipe, Worker& worker);
  template <class T>
  inline Value least_common_not_given(const ValueVector<T>& g, std::uint64_t n, bool& unsure);
  inline void prefetch_candidates(std::uint64_t q) const;
  // Counts G(n) = value, decided by the chain, into chain_counts_ (rare_ takes them after the
  // pipeline): one increment where RareState::count_common takes two (its two were a twelfth of
  // the chain's time on Grundy's game to 2^24).
  void count_on_chain(std::uint64_t n, Value value) { ++chain_counts_[(n & 1) * rare_.bound + value]; }
  template <class T>
  inline void help_pipeline(const ValueVector<T>& g, Pipeline& pipe, Worker& worker);
  template <class T>
  inline bool run_pipeline_task(const ValueVector<T>& g, Pipeline& pipe, Worker& worker);
  template <class T>
  inline void confirm_group(const ValueVector<T>& g, std::uint64_t q, PipelineGroup& group, Worker& worker) const;
  inline RegionTicks pipeline_ticks(const Pipeline& pipe) const;

  // ---- pipeline_bands.cpp: the pipeline's far stage and bands.
  template <class T>
  void run_band(const ValueVector<T>& g, int stage, std::uint64_t first, std::uint64_t last, Worker& worker);
  template <class T>
  void run_far_part(const ValueVector<T>& g, std::uint64_t q, std::uint64_t first, std::uint64_t last,
                    Worker& worker);
  template <class T>
  inline void screen_band(const ValueVector<T>& g, std::uint64_t first, std::uint64_t last, std::uint64_t r_low,
                          std::uint64_t r_high);
  template <class T>
  inline void extend_candidates(const ValueVector<T>& g, std::uint64_t first, std::uint64_t last, std::uint64_t r_low,
                                Worker& worker);
  inline bool needs_more_candidates(std::uint64_t i) const;
  template <class T>
  inline bool list_more_candidates(const ValueVector<T>& g, std::uint64_t first, std::uint64_t last,
                                   std::uint64_t r_low);
  template <class T>
  inline void list_candidates_exactly(const ValueVector<T>& g, std::uint64_t i, std::uint64_t r_low, Worker& worker);

  // ---- Its state.
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
  // Per heap of the pipeline: its chain's copies of the first two candidates (chain_step.hpp).
  std::vector<CandidateCopy> first_candidates_, second_candidates_;
  std::unique_ptr<PipelineGroup[]> pipeline_groups_;  // pipeline_group_room
  std::vector<std::uint64_t> chain_counts_;            // the chain's values by parity (count_on_chain)
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

// Calls X(T) for each type of values, and for those that are screened (8 or 16 bits).
#define SGX_SPARSE_FOR_EACH_TYPE(X) X(std::uint8_t) X(std::uint16_t) X(std::uint32_t)
#define SGX_SPARSE_FOR_NARROW_TYPES(X) X(std::uint8_t) X(std::uint16_t)

}  // namespace sgx
