// The exhaustive XOR-pair sweep, for games whose values leave no useful sparse space.
//
// Every two-heap split (a, m - a) of every heap is visited. A reversed copy of G lets both
// operands of G(a) ^ G(m - a) stream forwards, so the XOR loop vectorises.
// Parallelism: heaps are taken in blocks [s, s + B). Pairs whose larger part lies below s are
// known before the block starts: threads sweep those for all heaps of the block at once. Only
// pairs touching the block (at most B per heap and split) are done in order.

#include <algorithm>
#include <bit>
#include <limits>

#include <omp.h>

#include "kernel.hpp"
#include "tuning.hpp"
#include "value_set.hpp"

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
  };

  // Keeps the reversed copy in step with g, for indices < needed.
  template <class T>
  Reversed<T>& reversed(const ValueVector<T>& g, std::uint64_t needed) {
    if (!std::holds_alternative<Reversed<T>>(reversed_)) reversed_ = Reversed<T>{};  // the type widened
    auto& rev = std::get<Reversed<T>>(reversed_);
    if (rev.capacity < needed) {
      rev.capacity = std::max<std::uint64_t>(needed, 2 * rev.capacity);
      rev.data.assign(rev.capacity, 0);
      rev.filled = 0;
    }
    for (; rev.filled < g.size(); ++rev.filled) rev.data[rev.capacity - 1 - rev.filled] = g[rev.filled];
    return rev;
  }

  // Marks G(a) ^ G(m - a) for a in [lo, hi] (both parts known).
  template <class T>
  static void sweep_pairs(const ValueVector<T>& g, const Reversed<T>& rev, std::uint64_t m, std::uint64_t lo,
                          std::uint64_t hi, std::vector<T>& scratch, ValueMarks& seen) {
    if (lo > hi) return;
    const std::uint64_t count = hi - lo + 1;
    if (scratch.size() < count) scratch.resize(count);
    const T* left = g.data() + lo;
    const T* right = rev.data.data() + (rev.capacity - 1 - (m - lo));  // G(m - lo), G(m - lo - 1), ...
    T* out = scratch.data();
    for (std::uint64_t i = 0; i < count; ++i) out[i] = static_cast<T>(left[i] ^ right[i]);
    for (std::uint64_t i = 0; i < count; ++i) seen.insert(out[i]);
  }

  template <class T>
  Value run(ValueVector<T>& g, std::uint64_t target) {
    const Value type_max = std::numeric_limits<T>::max();
    const auto& splits = moves_.split_two();
    while (g.size() < target) {
      const std::uint64_t start = g.size();
      const std::uint64_t end = std::min(target, start + tuning::kSweepBlock);
      auto& rev = reversed(g, target);
      const std::uint64_t count = end - start;
      size_sets(known_, count, bound_);
      // Pairs (a, m - a) with a <= m - a < start, for every heap of the block.
#pragma omp parallel if (start >= tuning::kSweepParallelMinHeap && !splits.empty())
      {
        std::vector<T> scratch;
        ValueMarks marks(bound_);
#pragma omp for schedule(dynamic, 4)
        for (std::uint64_t i = 0; i < count; ++i) {
          const std::uint64_t n = start + i;
          for (const SplitMove& move : splits) {
            if (move.take + 2 > n) break;
            const std::uint64_t m = n - move.take;
            std::uint64_t lo = m >= start ? m - start + 1 : 1;  // m - a < start
            sweep_pairs(g, rev, m, lo, move.largest_first_part(m), scratch, marks);
          }
          known_[i].clear();
          marks.move_into(known_[i]);
        }
      }
      ValueSet seen(bound_);
      ValueMarks seen_marks(bound_);
      for (std::uint64_t n = start; n < end; ++n) {
        if (!seen_marks.holds(bound_)) {
          seen.reset(bound_);
          seen_marks.reset(bound_);
        }
        seen.assign(known_[n - start]);
        auto& marks = seen_marks;
        moves_.mark_simple_options(g, n, marks);
        for (const SplitMove& move : splits) {  // pairs whose larger part is inside the block
          if (move.take + 2 > n) break;
          const std::uint64_t m = n - move.take;
          std::uint64_t hi = std::min(move.largest_first_part(m), m >= start ? m - start : 0);
          for (std::uint64_t a = 1; a <= hi; ++a) marks.insert(static_cast<Value>(g[a] ^ g[m - a]));
        }
        marks.move_into(seen);
        const Value value = seen.first_missing();
        while (value >= bound_) bound_ *= 2;
        if (value > type_max) return value;
        g.push_back(static_cast<T>(value));
        rev.data[rev.capacity - 1 - n] = g[n];
        rev.filled = n + 1;
      }
    }
    return 0;
  }

  std::uint64_t bound_ = 1;
  std::variant<Reversed<std::uint8_t>, Reversed<std::uint16_t>, Reversed<std::uint32_t>> reversed_{
      Reversed<std::uint8_t>{}};
  std::vector<ValueSet> known_;

};

}  // namespace

std::unique_ptr<Kernel> make_sweep_kernel(const Rules& rules) { return std::make_unique<SweepKernel>(rules); }

}  // namespace sgx
