// The exhaustive XOR-pair sweep, for games whose values leave no useful sparse space.
//
// Every two-heap split (a, m - a) of every heap is visited. A reversed copy of G lets both
// operands of G(a) ^ G(m - a) stream forwards, so the XOR loop vectorises. With AVX-512 only a
// heap's first few thousand pairs are marked; the rest are looked up, a vector of 32 or 64 at a
// time, for the values not seen yet (see sweep_known_pairs), which costs a fraction of a mark
// per pair.
// Parallelism: heaps are taken in blocks [s, s + B). Pairs whose larger part lies below s are
// known before the block starts: threads sweep those for all heaps of the block at once, and list
// each heap's least values still missing (its candidates). Only pairs touching the block (at
// most B per heap and split) are done in order, and only compared with those few candidates,
// 64 pairs to a vector instruction (decide_quickly); a heap whose candidates they all give has
// them marked (decide_fully).

#include <algorithm>
#include <bit>
#include <limits>

#include <omp.h>

#include "kernels/kernel.hpp"
#include "kernels/pair_search.hpp"
#include "base/tuning.hpp"
#include "kernels/value_set.hpp"
#include "kernels/vector_path.hpp"

namespace sgx {

namespace {

class SweepKernel final : public Kernel {
 public:
  using Kernel::Kernel;

  void attach(const Sequence& values) override { bound_ = value_bound(values); }

  void compute(Sequence& values, std::uint64_t target) override {
    extend_widening(values, target, [&](auto& g) { return run(g, target); });
  }

  KernelKind kind() const override { return KernelKind::Sweep; }

 private:
  template <class T>
  struct Reversed {
    std::vector<T> data;  // data[capacity - 1 - n] = G(n)
    std::uint64_t capacity = 0;
    std::uint64_t filled = 0;

    // The partners of m's pairs: p[a] = G(m - a), running forwards as a does.
    const T* partners_of(std::uint64_t m) const { return data.data() + (capacity - 1 - m); }
  };

  // Keeps the reversed copy in step with g, for indices < needed.
  template <class T>
  Reversed<T>& reversed(const ValueVector<T>& g, std::uint64_t needed) {
    if (!std::holds_alternative<Reversed<T>>(reversed_)) reversed_ = Reversed<T>{};  // the type widened
    auto& rev = std::get<Reversed<T>>(reversed_);
    if (rev.capacity < needed) {
      rev.capacity = std::max<std::uint64_t>(needed, tuning::kSweepReversedGrowth * rev.capacity);
      rev.data.assign(rev.capacity, 0);
      rev.filled = 0;
    }
    for (; rev.filled < g.size(); ++rev.filled) rev.data[rev.capacity - 1 - rev.filled] = g[rev.filled];
    return rev;
  }

  // Games with more two-heap splits than this mark every pair (tuning.hpp).
  static constexpr int kMaxSplits = tuning::kSweepLookupMaxSplits;

  // Marks G(a) ^ G(m - a) for a in [lo, hi] (both parts known).
  template <class T>
  static void sweep_pairs(const ValueVector<T>& g, const Reversed<T>& rev, std::uint64_t m, std::uint64_t lo,
                          std::uint64_t hi, std::vector<T>& scratch, ValueMarks& marks) {
    if (lo > hi) return;
    const std::uint64_t count = hi - lo + 1;
    if (scratch.size() < count) scratch.resize(count);
    const T* left = g.data() + lo;
    const T* right = rev.partners_of(m) + lo;  // G(m - lo), G(m - lo - 1), ...
    T* out = scratch.data();
    for (std::uint64_t i = 0; i < count; ++i) out[i] = static_cast<T>(left[i] ^ right[i]);
    // Several marks a loop turn: with one, the loop's own counting and branch cost as much as the
    // store (tuning.hpp).
#pragma GCC unroll tuning::kSweepMarkUnroll
    for (std::uint64_t i = 0; i < count; ++i) marks.insert(out[i]);
  }

  // sweep_pairs, one pair at a time; returns how many values were not marked before.
  template <class T>
  static std::uint64_t sweep_pairs_counting_new(const ValueVector<T>& g, const Reversed<T>& rev, std::uint64_t m,
                                                std::uint64_t lo, std::uint64_t hi, ValueMarks& marks) {
    std::uint64_t fresh = 0;
    const T* right = rev.partners_of(m);
#pragma GCC unroll tuning::kSweepMarkUnroll
    for (std::uint64_t a = lo; a <= hi; ++a) fresh += marks.insert_new(static_cast<Value>(g[a] ^ right[a]));
    return fresh;
  }

  // The pairs (a, m - a) of a heap with a in [lo, hi], for one two-heap split m = n - take.
  struct PairRange {
    std::uint64_t m, lo, hi;
  };
  // A heap's ranges of pairs, one per split (at most kMaxSplits where the lookup applies).
  struct PairRanges {
    PairRange ranges[kMaxSplits];
    int count = 0;
    const PairRange* begin() const { return ranges; }
    const PairRange* end() const { return ranges + count; }
  };

  // Calls f with each range of heap n's pairs known before the block starting at start (m - a < start).
  template <class F>
  void for_each_known_range(std::uint64_t n, std::uint64_t start, F&& f) const {
    for (const SplitMove& move : moves_.split_two()) {
      if (move.take + 2 > n) break;
      const std::uint64_t m = n - move.take;
      f(PairRange{m, m >= start ? m - start + 1 : 1, move.largest_first_part(m)});
    }
  }
  // The same ranges in one list, for a game of at most kMaxSplits splits.
  PairRanges known_pairs(std::uint64_t n, std::uint64_t start) const {
    PairRanges known;
    for_each_known_range(n, start, [&](PairRange r) { known.ranges[known.count++] = r; });
    return known;
  }

  template <class T>
  static void sweep_ranges(const ValueVector<T>& g, const Reversed<T>& rev, const PairRanges& ranges,
                           std::vector<T>& scratch, ValueMarks& marks, ValueSet& values) {
    for (const PairRange& r : ranges) sweep_pairs(g, rev, r.m, r.lo, r.hi, scratch, marks);
    marks.move_into(values);
  }

  // The lookup's values are those below this, for a heap whose known values lack `least` first:
  // the wanted values then span at most kLookupValues (the lookup's table starts at the word of
  // the least).
  Value lookup_limit(Value least) const {
    return static_cast<Value>(std::min<std::uint64_t>(least - least % 64 + kLookupValues, bound_));
  }

  // Looks the pairs of ranges up for the values below `below` missing from values, adding those
  // found; returns whether one is still missing (values then holds every pair value below `below`).
  template <class T>
  bool look_up(const ValueVector<T>& g, const Reversed<T>& rev, const PairRanges& ranges, Value below,
               ValueSet& values, ValueSet& wanted) const {
    std::uint64_t left = wanted.assign_missing_below(values, below);
    for (const PairRange& r : ranges) {
      if (left == 0 || r.lo > r.hi) continue;
      left = take_xor_values(g.data() + r.lo, rev.partners_of(r.m) + r.lo, r.hi - r.lo + 1, wanted, values, left);
    }
    return left > 0;
  }

  // What sweep_known_pairs learnt of a heap.
  struct KnownValues {
    Value exact_below;  // known_ holds every option value below this (kEveryValue: every one)
    bool looked_twice;  // the first lookup found every value it looked for
    bool marked_after_all = false;  // every value below the lookup's limit occurs: all pairs marked
  };

  // Fills known with the values of heap n's known pairs. Where the lookup applies, the first
  // pairs are marked, in chunks while a chunk still shows new values often enough; the rest are
  // looked up (take_xor_values) for the values not seen yet, a fraction of a mark's cost a pair.
  // A value found by the lookup costs far more (its vector is gone through again), and
  // most values wanted lie above the mex, where finding them is wasted: so the lookup first
  // looks for the least lookup_rank_ of them only. If all of those turn up, the mex lies above
  // them and the pairs are looked up again for the rest; if those too, every pair is marked.
  template <class T>
  KnownValues sweep_known_pairs(const ValueVector<T>& g, const Reversed<T>& rev, std::uint64_t n,
                                std::uint64_t start, std::vector<T>& scratch, ValueMarks& marks, ValueSet& known,
                                ValueSet& wanted) const {
    known.clear();
    if (!looks_up_) {
      for_each_known_range(n, start, [&](PairRange r) { sweep_pairs(g, rev, r.m, r.lo, r.hi, scratch, marks); });
      marks.move_into(known);
      return {kEveryValue, false};
    }
    PairRanges rest = known_pairs(n, start);  // what the marking leaves
    for (int i = 0; i < rest.count; ++i) {
      PairRange& r = rest.ranges[i];
      while (r.lo <= r.hi) {  // a chunk, the last kSweepSample pairs counting the values new to them
        const std::uint64_t to = std::min(r.hi, r.lo + tuning::kSweepMarkChunk - 1);
        const std::uint64_t sample_from = to + 1 - std::min(to + 1 - r.lo, tuning::kSweepSample);
        sweep_pairs(g, rev, r.m, r.lo, sample_from - 1, scratch, marks);
        const std::uint64_t fresh = sweep_pairs_counting_new(g, rev, r.m, sample_from, to, marks);
        r.lo = to + 1;
        if (fresh * tuning::kSweepLookupCost < to + 1 - sample_from) break;
      }
    }
    marks.move_into(known);
    if (std::all_of(rest.begin(), rest.end(), [](const PairRange& r) { return r.lo > r.hi; }))
      return {kEveryValue, false};  // a small heap: every pair marked
    const Value limit = lookup_limit(known.first_missing());
    wanted.assign_missing_below(known, limit);
    const Value first_limit = wanted.nth_present(lookup_rank_, limit);
    if (look_up(g, rev, rest, first_limit, known, wanted)) return {first_limit, false};
    if (first_limit < limit && look_up(g, rev, rest, limit, known, wanted)) return {limit, true};
    // Every value below the limit occurs, so the mex lies beyond it: mark every value after all.
    sweep_ranges(g, rev, rest, scratch, marks, known);
    return {kEveryValue, first_limit < limit, true};
  }

  // Marks the values of heap n's pairs that touch the block starting at start, and of its moves to
  // a single heap: the options not in known_ (the in-block pairs need the values just computed).
  template <class T>
  void mark_in_block_options(const ValueVector<T>& g, std::uint64_t n, std::uint64_t start,
                             ValueMarks& marks) const {
    moves_.mark_simple_options(g, n, marks);
    for (const SplitMove& move : moves_.split_two()) {
      if (move.take + 2 > n) break;
      const std::uint64_t m = n - move.take;
      const std::uint64_t hi = std::min(move.largest_first_part(m), m >= start ? m - start : 0);
      for (std::uint64_t a = 1; a <= hi; ++a) marks.insert(static_cast<Value>(g[a] ^ g[m - a]));
    }
  }

  template <class T>
  Value run(ValueVector<T>& g, std::uint64_t target) {
    const Value type_max = std::numeric_limits<T>::max();
    looks_up_ = lookups_pay_ && sizeof(T) <= 2 && sweep_looks_up() &&
                moves_.split_two().size() <= std::size_t{kMaxSplits};
    while (g.size() < target) {
      const std::uint64_t start = g.size();
      const std::uint64_t end = std::min(target, start + tuning::kSweepBlock);
      auto& rev = reversed(g, target);
      const std::uint64_t count = end - start;
      size_sets(known_, count, bound_);
      exact_below_.resize(count);
      std::uint64_t looked_twice = 0, marked_after_all = 0;
      const bool parallel = start >= tuning::kSweepParallelMinHeap && !moves_.split_two().empty();
      const bool quick = can_compare_candidates(start, tuning::kSweepBlock);
      candidates_.resize(count);
      const bool timed = timing_tasks();
      const Ticks region_started = timed ? read_ticks() : 0;
      RegionTicks tasks;
#pragma omp parallel if (parallel)
      {
        std::vector<T> scratch;
        ValueMarks marks(bound_);
        ValueSet wanted(bound_);
        TaskTimer timer(timed);  // a heap is a task: chunks of a few only save scheduling
#pragma omp for schedule(dynamic, tuning::kSweepHeapsPerTask) reduction(+ : looked_twice, marked_after_all)
        for (std::uint64_t i = 0; i < count; ++i) {
          timer.start();
          const KnownValues known = sweep_known_pairs(g, rev, start + i, start, scratch, marks, known_[i], wanted);
          exact_below_[i] = known.exact_below;
          if (quick) list_candidates<T>(i);
          looked_twice += known.looked_twice;
          marked_after_all += known.marked_after_all;
          timer.stop();
        }
        if (timed) {
#pragma omp critical(sgx_work_span)
          timer.merge_into(tasks);
        }
      }
      if (timed) record_region(tasks, region_started, parallel);
      ValueSet seen(bound_);
      ValueMarks seen_marks(bound_);
      std::vector<T> scratch;
      for (std::uint64_t n = start; n < end; ++n) {
        Value value = 0;
        if (!(quick && decide_quickly(g, n, start, value)))
          value = decide_fully(g, rev, n, start, seen, seen_marks, scratch, marked_after_all);
        while (value >= bound_) bound_ *= 2;
        if (value > type_max) return value;
        g.push_back(static_cast<T>(value));
        rev.data[rev.capacity - 1 - n] = g[n];
        rev.filled = n + 1;
      }
      adapt_lookups(count, looked_twice, marked_after_all);
    }
    return 0;
  }

  // Lists, in the parallel part, the least values missing from heap i's known set below where it
  // is exact: G(n) is the first of them that no option the parallel part could not see gives.
  template <class T>
  void list_candidates(std::uint64_t i) {
    Candidates& listed = candidates_[i];
    const Value limit = std::min<Value>(exact_below_[i], static_cast<Value>(bound_));
    listed.count = 0;
    known_[i].for_each_missing(limit, [&](Value v) {
      listed.values[listed.count] = v;
      return ++listed.count < tuning::kQuickCandidates;
    });
  }

  // G(n) when one of its candidates is given by none of the options the parallel part could not see
  // (its pairs with a partner inside the block, a vector compare of up to a block's lanes, and its
  // moves to one heap): the first such candidate. Where every candidate is given, the full decision
  // marks those options instead, a store each.
  template <class T>
  bool decide_quickly(const ValueVector<T>& g, std::uint64_t n, std::uint64_t start, Value& value) const {
    const Candidates& listed = candidates_[n - start];
    if (listed.count == 0) return false;
    T wanted[tuning::kQuickCandidates];
    for (int k = 0; k < listed.count; ++k) wanted[k] = static_cast<T>(listed.values[k]);
    CandidatesGiven options{listed.values, listed.count};
    for (const SplitMove& move : moves_.split_two()) {
      const std::uint64_t m = n - move.take;
      if (m > start) options.given |= find_pair_values(g.data(), m, 1, m - start, wanted, listed.count);
    }
    moves_.mark_simple_options(g, n, options);
    const int chosen = options.first_not_given();
    if (chosen < 0) return false;
    value = listed.values[chosen];
    return true;
  }

  // G(n) from every option: its known set, with its pairs inside the block and its moves to one
  // heap marked.
  template <class T>
  Value decide_fully(const ValueVector<T>& g, const Reversed<T>& rev, std::uint64_t n, std::uint64_t start,
                     ValueSet& seen, ValueMarks& seen_marks, std::vector<T>& scratch,
                     std::uint64_t& marked_after_all) const {
    if (!seen_marks.holds(bound_)) {
      seen.reset(bound_);
      seen_marks.reset(bound_);
    }
    seen.assign(known_[n - start]);
    mark_in_block_options(g, n, start, seen_marks);
    seen_marks.move_into(seen);
    const Value value = seen.first_missing();
    if (value < exact_below_[n - start]) return value;
    // The pairs inside the block or the moves to one heap gave the values known_ lacked below its
    // limit, so the mex may lie past it: mark every known pair (0.5% of the heaps of Treblecross;
    // every heap of Lasker's Nim, where adapt_lookups soon stops looking up). Only a lookup leaves
    // exact_below_ short of every value, so the game has at most kMaxSplits splits.
    sweep_ranges(g, rev, known_pairs(n, start), scratch, seen_marks, seen);
    ++marked_after_all;
    return seen.first_missing();
  }

  // Looks for more values at first when more than 1/kSweepTwiceHigh of the heaps were looked up
  // twice, fewer when fewer than 1/kSweepTwiceLow were (judged every kSweepReviewHeaps). Stops
  // looking up for good when most heaps had all their pairs marked after all, their mex lying
  // past what the lookup covers: kLookupValues past the first value not seen, or the moves to one
  // heap giving every value below the heap's mex (Lasker's Nim, whose G(n) is about n).
  void adapt_lookups(std::uint64_t heaps, std::uint64_t looked_twice, std::uint64_t marked_after_all) {
    reviewed_heaps_ += heaps;
    looked_twice_ += looked_twice;
    marked_after_all_ += marked_after_all;
    if (reviewed_heaps_ < tuning::kSweepReviewHeaps) return;
    if (looked_twice_ * tuning::kSweepTwiceHigh > reviewed_heaps_)
      lookup_rank_ += lookup_rank_ / tuning::kSweepRankGrowthShare;
    else if (looked_twice_ * tuning::kSweepTwiceLow < reviewed_heaps_)
      lookup_rank_ = std::max(tuning::kSweepLeastRank, lookup_rank_ - lookup_rank_ / tuning::kSweepRankShrinkShare);
    if (marked_after_all_ * tuning::kSweepLookupGiveUpShare > reviewed_heaps_) lookups_pay_ = false;
    reviewed_heaps_ = looked_twice_ = marked_after_all_ = 0;
  }

  // known_ holds every value (see sweep_known_pairs).
  static constexpr Value kEveryValue = std::numeric_limits<Value>::max();

  std::uint64_t bound_ = 1;
  std::variant<Reversed<std::uint8_t>, Reversed<std::uint16_t>, Reversed<std::uint32_t>> reversed_{
      Reversed<std::uint8_t>{}};
  std::vector<ValueSet> known_;
  std::vector<Value> exact_below_;  // known_[i] holds every option value below exact_below_[i]
  // A heap's least values missing from its known set (list_candidates).
  struct Candidates {
    Value values[tuning::kQuickCandidates];
    int count = 0;
  };
  std::vector<Candidates> candidates_;  // per heap of the block
  bool looks_up_ = false;           // whether sweep_known_pairs may look pairs up
  bool lookups_pay_ = true;         // see adapt_lookups
  std::uint64_t lookup_rank_ = tuning::kSweepFirstRank;  // how many values the first lookup wants
  std::uint64_t reviewed_heaps_ = 0, looked_twice_ = 0, marked_after_all_ = 0;  // since adapt_lookups judged
};

}  // namespace

bool sweep_looks_up() { return vector_path() == VectorPath::Avx512; }

std::unique_ptr<Kernel> make_sweep_kernel(const Rules& rules) { return std::make_unique<SweepKernel>(rules); }

}  // namespace sgx
