#pragma once
// The kernels behind Engine: each extends a Sequence from its current size towards a target.
// Private to the library; the public face is engine.hpp.

#include <bit>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>

#include "games/move_table.hpp"
#include "base/task_clock.hpp"
#include "base/tuning.hpp"
#include "sgx/kernel_kind.hpp"
#include "sgx/rules.hpp"
#include "sgx/sequence.hpp"
#include "sgx/sparse_state.hpp"

namespace sgx {

class Kernel {
 public:
  explicit Kernel(const Rules& rules) : moves_(rules) {}
  virtual ~Kernel() = default;

  // Takes up a sequence whose first values are already known (a fresh run passes an empty one,
  // a resumed run or a kernel switch passes what is there). Called once before extend().
  virtual void attach(const Sequence& values) = 0;
  // attach() for values with a released middle: the rare-value state comes from the checkpoint.
  virtual void attach_state(const Sequence& /*values*/, const SparseState& /*state*/) {
    throw std::logic_error("only the sparse kernel continues from a saved rare-value state");
  }
  // Values from index from on were filled from a proven period, not computed: a bounded run's
  // state counts them in its histogram (its rare list stops growing: no kernel runs after a proof).
  virtual void note_filled(const Sequence& /*values*/, std::uint64_t /*from*/) {}
  // The sparse kernel's state (max_value and max_at are the engine's to fill).
  virtual std::optional<SparseState> state() const { return std::nullopt; }
  // Computes values until values.size() == target. Widens the storage when a value needs it.
  void extend(Sequence& values, std::uint64_t target) {
    if (values.size() >= target) return;
    moves_.cover(target - 1);
    compute(values, target);
  }

  // Where the kernel records its parallel regions for the work-span profile (engine.cpp).
  void set_work_span(WorkSpanTicks* work_span) { work_span_ = work_span; }

  virtual KernelKind kind() const = 0;
  // For the sparse kernel: the rare-list size, and whether an exhaustive sweep would now be faster.
  virtual std::uint64_t rare_count() const { return 0; }
  virtual bool prefers_sweep(std::uint64_t /*n*/) const { return false; }

 protected:
  // extend() once the moves for heaps below target are listed.
  virtual void compute(Sequence& values, std::uint64_t target) = 0;

  bool timing_tasks() const { return work_span_ != nullptr && work_span_->enabled; }

  // Whether a block's ordered part may decide a heap by comparing its options with a few
  // candidate values (both kernels' decide_quickly): moves few enough to compare one by one, and
  // heaps from start on large enough that every pair with a partner inside a block of block heaps
  // has its first part below the block and below m / 2.
  bool can_compare_candidates(std::uint64_t start, std::uint64_t block) const {
    if (!moves_.split_three().empty() || moves_.split_two().empty() ||
        moves_.split_two().size() > tuning::kQuickMovesAtMost || moves_.leave_one().size() > tuning::kQuickMovesAtMost)
      return false;
    return start > 2 * block + moves_.split_two().back().take + 1;
  }
  // Records one parallel region (WorkSpanTicks::record_region).
  void record_region(RegionTicks tasks, Ticks started, bool ran_parallel) {
    work_span_->record_region(tasks, started, ran_parallel);
  }

  MoveTable moves_;
  WorkSpanTicks* work_span_ = nullptr;
};

std::unique_ptr<Kernel> make_kernel(KernelKind kind, const Rules& rules);

// Whether the sweep kernel looks most pairs up instead of marking them (with AVX-512): several
// times faster, so the auto kernel prefers it from a lower rare share.
bool sweep_looks_up();

// The auto kernel's rule (engine.cpp, tuning.hpp), from n heaps of which rare are rare: whether a
// sparse run should give way to the sweep, and a sweep to the sparse method. A sweep that looks
// pairs up takes over from a lower rare share, once n is large enough to judge it by.
inline bool auto_prefers_sweep(std::uint64_t n, std::uint64_t rare) {
  if (n >= tuning::kAutoSwitchMinHeap && rare * tuning::kAutoRareFraction > n) return true;
  return sweep_looks_up() && n >= tuning::kAutoLookupSwitchMinHeap && rare * tuning::kAutoLookupRareFraction > n;
}
inline bool auto_prefers_sparse(std::uint64_t n, std::uint64_t rare) {
  return rare * (sweep_looks_up() ? tuning::kAutoLookupReturnFraction : tuning::kAutoReturnFraction) < n;
}

// Which of a few candidate values the options inserted give: bit k of given for candidates[k].
// A set for MoveTable::mark_simple_options where only those few values matter.
struct CandidatesGiven {
  const Value* candidates;
  int count;
  std::uint32_t given = 0;

  void insert(Value v) {
    for (int k = 0; k < count; ++k) given |= std::uint32_t{candidates[k] == v} << k;
  }
  // The index of the first candidate no option gives, or -1 when every one is given.
  int first_not_given() const {
    const std::uint32_t not_given = ~given & ((std::uint32_t{1} << count) - 1);
    return not_given == 0 ? -1 : std::countr_zero(not_given);
  }
};

// The loop every kernel's extend() runs: run(g) computes on the typed values g until they reach
// target, or returns early with a value too wide for their type; that value is appended (the
// storage widens) and handed to on_wide, and run goes on with the wider type.
template <class Run, class OnWide = void (*)(std::uint64_t, Value)>
void extend_widening(Sequence& values, std::uint64_t target, Run&& run,
                     OnWide&& on_wide = [](std::uint64_t, Value) {}) {
  while (values.size() < target) {
    const Value wide = values.visit(run);
    if (values.size() < target) {
      values.push_back(wide);
      on_wide(values.size() - 1, wide);
    }
  }
}

// The least power of two above every value so far: every option value lies below it.
inline std::uint64_t value_bound(const Sequence& values) {
  return std::bit_ceil(std::uint64_t{values.max_value()} + 1);
}

}  // namespace sgx
