// The sparse kernel's entry points (sparse_kernel.hpp): taking up values or a saved rare-value
// state, extending the values, and the loop that hands each stretch of heaps to one way of deciding
// them: alone (lone_heap.hpp), in the pipeline (pipeline.cpp), or in blocks (blocks.cpp), whose
// wrong speculations it puts right before the next block starts. Bounded memory's checks that a
// block's pairs find their partners held are here too, since they stop a run before a block.

#include "sparse/sparse_kernel.hpp"

#include <algorithm>
#include <exception>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>

#include <omp.h>

namespace sgx {

namespace {

// Rare positions matter only to two-heap splits; a game without them (a subtraction game, say)
// would list almost half its positions for nothing.
bool splits_into_two(const Rules& rules) {
  for (const auto* digits : {&rules.finite_digits(), &rules.tail_digits()})
    for (const Digit& d : *digits)
      if (d.bits & kLeaveTwo) return true;
  return false;
}

}  // namespace

SparseKernel::SparseKernel(const Rules& rules)
    : Kernel(rules), lists_rare_(splits_into_two(rules)), split_parity_(rules.split_take_parity()) {}

void SparseKernel::attach(const Sequence& values) {
  forget_probe_parts();
  rare_.clear();
  lone_ready_ = false;
  for (std::uint64_t n = 0; n < values.size(); ++n) rare_.count_value(n, values[n]);
  values.visit([this](const auto& g) { choose_mask(g); });
}

void SparseKernel::attach_state(const Sequence& values, const SparseState& state) {
  forget_probe_parts();
  rare_.load(state);
  lone_ready_ = false;
  set_reach(values);
}

void SparseKernel::note_filled(const Sequence& values, std::uint64_t from) {
  for (std::uint64_t n = from; n < values.size(); ++n) rare_.count_value(n, values[n]);
}

std::optional<SparseState> SparseKernel::state() const { return rare_.saved(); }

void SparseKernel::compute(Sequence& values, std::uint64_t target) {
  set_reach(values);
  block_ = omp_get_max_threads() == 1 ? tuning::kSparseBlockOneThread : tuning::kSparseBlock;
  extend_widening(values, target, [&](auto& g) { return run(g, target); },
                  [this](std::uint64_t n, Value value) { record(n, value); });
}

// Bounded memory: which values the pairs may read (sequence.hpp). Rare values are kept apart in
// rare_.values, so only a pair's other part must be held.
inline void SparseKernel::set_reach(const Sequence& values) {
  released_ = values.has_released();
  prefix_end_ = released_ ? values.prefix_end() : std::numeric_limits<std::uint64_t>::max();
  tail_start_ = released_ ? values.tail_start() : 0;
}

// The rare pairs of the block [start, end) whose partner lies below start must find their
// partners held: a rare r with m - r released, m = n - k, stops the run.
inline void SparseKernel::check_rare_partners_held(std::uint64_t start, std::uint64_t end) const {
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
std::string SparseKernel::released_text(std::uint64_t n) const {
  return "which was released to stay within the memory bound (kept: " +
         kept_values_text(prefix_end_, tail_start_, n) + ")";
}

// Computes heaps block by block until target, or until a value does not fit T (returned).
template <class T>
inline Value SparseKernel::run(ValueVector<T>& g, std::uint64_t target) {
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
inline void SparseKernel::count_heaps(std::uint64_t SparseHeaps::*way, std::uint64_t from, std::uint64_t to) {
  if (timing_tasks() && to > from) work_span_->sparse_heaps.*way += to - from;
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
inline std::uint64_t SparseKernel::decide_alone(ValueVector<T>& g, std::uint64_t target) {
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
inline std::size_t SparseKernel::lone_rare_at_most() const {
  if (rare_.bound <= kOneWordValues) return tuning::kLoneRareAtMost;
  return rare_.bound <= 2 * kOneWordValues ? tuning::kLoneRareAtMostTwoWords : tuning::kLoneRareAtMostFourWords;
}

// record() for the heaps from..to - 1 decided alone: only the last may be rare (decide() stops
// after a new rare position), and none widens the bound, so the rest are only counted.
template <class T>
inline void SparseKernel::record_decided_alone(const ValueVector<T>& g, std::uint64_t from, std::uint64_t to) {
  for (std::uint64_t n = from; n < to; ++n) {
    const Value value = g[n];
    if (value >= rare_.bound || value >= rare_.histogram.size() || is_rare(value, n, rare_.mask)) {
      record(n, value);
      continue;
    }
    rare_.count_common(n, value);
  }
}

std::unique_ptr<Kernel> make_sparse_kernel(const Rules& rules) { return std::make_unique<SparseKernel>(rules); }

}  // namespace sgx
