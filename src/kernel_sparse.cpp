// The rare-value ("sparse space") kernel, MATH.md section 4.
//
// With a mask m, a value is rare when popcount(v & m) is even. A two-heap split option is common
// only when exactly one part is rare, so pairing every rare position r with its partner lists
// every common option value. The least common value c not listed bounds G(n); the rare values
// below c must still be shown present, by scanning split pairs from the small end until each is
// found. When the rare list R stays small, each heap costs O(|splits| |R|) instead of O(n).
//
// Most of the scan needs no value of the block being computed: the pairs (a, m - a) whose partner
// lies before the block. So each heap's scan runs in the parallel phase, against the rare values
// below the least common value not yet listed, and stops as soon as those are all present; the
// ordered phase only continues it when the block's own pairs moved c higher.
//
// Parallelism: heaps are taken in blocks [s, s + B). A pair whose partner lies below s is known
// before the block starts, so those pairs are listed for the whole block at once, in parallel.
// The few pairs whose partner lies inside the block, the mex and any scan left over run in order.

#include <algorithm>
#include <bit>
#include <limits>

#include <omp.h>

#include "kernel.hpp"
#include "sgx/stats.hpp"
#include "tuning.hpp"
#include "value_set.hpp"

namespace sgx {

namespace {

constexpr std::uint64_t kScanChunk = 32;

bool any_word_set(const std::uint64_t* words, std::size_t count) {
  std::uint64_t any = 0;
  for (std::size_t w = 0; w < count; ++w) any |= words[w];
  return any != 0;
}

class SparseKernel final : public Kernel {
 public:
  using Kernel::Kernel;

  void attach(const Sequence& values) override {
    bound_ = 1;
    histogram_.assign(1, 0);
    rare_.clear();
    for (std::uint64_t n = 0; n < values.size(); ++n) count_value(values[n]);
    values.visit([this](const auto& g) { choose_mask(g); });
  }

  void compute(Sequence& values, std::uint64_t target) override {
    extend_widening(values, target, [&](auto& g) { return run(g, target); },
                    [this](std::uint64_t n, Value value) { record(n, value); });
  }

  KernelKind kind() const override { return KernelKind::Sparse; }
  std::uint64_t rare_count() const override { return rare_.size(); }
  bool prefers_sweep(std::uint64_t n) const override {
    return moves_.split_two().size() > 0 && n >= tuning::kAutoSwitchMinHeap &&
           rare_.size() * tuning::kAutoRareFraction > n;
  }

 private:
  // Computes heaps block by block until target, or until a value does not fit T (returned).
  template <class T>
  Value run(std::vector<T>& g, std::uint64_t target) {
    const Value type_max = std::numeric_limits<T>::max();
    while (g.size() < target) {
      const std::uint64_t start = g.size();
      const std::uint64_t end = std::min(target, start + tuning::kSparseBlock);
      const std::size_t rare_before_block = rare_.size();
      enumerate_known_pairs(g, start, end);
      ValueSet seen(bound_);
      ValueMarks marks(bound_);
      for (std::uint64_t n = start; n < end; ++n) {
        if (!marks.holds(bound_)) {  // the values grew a bit wider during the block
          seen.reset(bound_);
          marks.reset(bound_);
        }
        seen.assign(known_[n - start]);
        moves_.mark_simple_options(g, n, marks);
        enumerate_pairs_inside_block(g, n, start, rare_before_block, marks);
        marks.move_into(seen);
        const Value value = decide(g, n, seen, scanned_to_[n - start]);
        if (value > type_max) return value;
        g.push_back(static_cast<T>(value));
        record(n, value);
      }
      if (mask_stale_) choose_mask(g);
    }
    return 0;
  }

  // For each heap n of the block, the values of pairs with a partner below start: (r, m - r)
  // with r rare, then (a, m - a) for a = 1, 2, ... until every rare value below the least
  // common value not listed is present. scanned_to_ says how far each heap's scan went.
  template <class T>
  void enumerate_known_pairs(const std::vector<T>& g, std::uint64_t start, std::uint64_t end) {
    const std::uint64_t count = end - start;
    size_sets(known_, count, bound_);
    scanned_to_.assign(count, 0);
    const auto& splits = moves_.split_two();
    const bool parallel = rare_.size() * count * splits.size() >= tuning::kSparseParallelMinPairs;
#pragma omp parallel if (parallel)
    {
      ValueMarks marks(bound_);
      ValueSet missing(bound_);
#pragma omp for schedule(dynamic, 4)
      for (std::uint64_t i = 0; i < count; ++i) {
        const std::uint64_t n = start + i;
        for (const SplitMove& move : splits) {
          if (move.take + 2 > n) break;
          const std::uint64_t m = n - move.take;
          // partner m - r < start  <=>  r > m - start
          auto r = m >= start ? std::upper_bound(rare_.begin(), rare_.end(), m - start) : rare_.begin();
          for (; r != rare_.end() && *r < m; ++r) {
            if (*r == 0 || (move.unequal && 2 * *r == m)) continue;
            marks.insert(static_cast<Value>(g[*r] ^ g[m - *r]));
          }
        }
        known_[i].clear();
        marks.move_into(known_[i]);
        scanned_to_[i] = scan_known_pairs(g, n, start, marks, missing, known_[i]);
      }
    }
  }

  // Lists pairs (a, m - a) with partner below start, a chunk at a time, until the rare values
  // below the least common value missing from known are all in known. Returns the last a listed.
  template <class T>
  std::uint64_t scan_known_pairs(const std::vector<T>& g, std::uint64_t n, std::uint64_t start, ValueMarks& marks,
                                 ValueSet& missing, ValueSet& known) const {
    const auto& splits = moves_.split_two();
    if (splits.empty() || splits.front().take + 2 > n) return 0;
    const std::uint64_t largest_a = splits.front().largest_first_part(n - splits.front().take);
    const Value c = known.first_missing_of(common_pattern_, static_cast<Value>(bound_));
    if (missing.assign_missing_below(known, common_pattern_, c) == 0) return 0;
    // Folding marks into bits costs about bound/8 operations: keep chunks larger than that.
    const std::uint64_t chunk = std::max<std::uint64_t>(tuning::kSparseScanChunk, bound_);
    std::uint64_t a = 1;
    while (a <= largest_a) {
      const std::uint64_t last = a + chunk - 1;
      for (const SplitMove& move : splits) {
        if (move.take + 2 > n) break;
        const std::uint64_t m = n - move.take;
        const std::uint64_t from = std::max(a, m >= start ? m - start + 1 : 1);
        const std::uint64_t to = std::min(last, move.largest_first_part(m));
        for (std::uint64_t x = from; x <= to; ++x) marks.insert(static_cast<Value>(g[x] ^ g[m - x]));
      }
      marks.move_into(known);
      a = last + 1;
      if (!missing.remove_all(known)) break;
    }
    return std::min(a - 1, largest_a);
  }

  // Pairs of heap n whose partner is inside the block: small rare r, rare positions that joined
  // during this block, and (a, m - a) for a up to m - start.
  template <class T>
  void enumerate_pairs_inside_block(const std::vector<T>& g, std::uint64_t n, std::uint64_t start,
                                    std::size_t rare_before_block, ValueMarks& seen) const {
    for (const SplitMove& move : moves_.split_two()) {
      if (move.take + 2 > n) break;
      const std::uint64_t m = n - move.take;
      auto pair = [&](std::uint64_t r) {
        if (r == 0 || r >= m || (move.unequal && 2 * r == m)) return;
        seen.insert(static_cast<Value>(g[r] ^ g[m - r]));
      };
      if (m >= start)
        for (std::size_t i = 0; i < rare_before_block && rare_[i] <= m - start; ++i) pair(rare_[i]);
      for (std::size_t i = rare_before_block; i < rare_.size(); ++i) pair(rare_[i]);
      if (m >= start) {
        const std::uint64_t last = std::min(move.largest_first_part(m), m - start);
        for (std::uint64_t a = 1; a <= last; ++a) seen.insert(static_cast<Value>(g[a] ^ g[m - a]));
      }
    }
  }

  // G(n) from the listed options: the least common value not seen, unless a rare value below it
  // turns out to be missing too.
  template <class T>
  Value decide(const std::vector<T>& g, std::uint64_t n, const ValueSet& seen, std::uint64_t scanned_to) {
    const Value c = seen.first_missing_of(common_pattern_, static_cast<Value>(bound_));
    if (missing_.assign_missing_below(seen, common_pattern_, c) == 0) return c;
    // Only pairs past the scan so far are left unlisted. Go on with them in chunks, striking
    // values off without branching (a struck value that was never missing costs nothing), and
    // stop once nothing below c is missing.
    const auto& splits = moves_.split_two();
    std::uint64_t* missing = missing_.data();
    const std::size_t words = c / 64 + 1;
    for (std::uint64_t chunk = scanned_to + 1; any_word_set(missing, words); chunk += kScanChunk) {
      bool pairs_left = false;
      for (const SplitMove& move : splits) {
        if (move.take + 2 > n) break;
        const std::uint64_t m = n - move.take;
        const std::uint64_t last = std::min(chunk + kScanChunk - 1, move.largest_first_part(m));
        for (std::uint64_t a = chunk; a <= last; ++a) {
          const Value v = static_cast<Value>(g[a] ^ g[m - a]);
          missing[v >> 6] &= ~(std::uint64_t{1} << (v & 63));
        }
        pairs_left |= last >= chunk + kScanChunk - 1;
      }
      if (!pairs_left) break;
    }
    return missing_.first_present(c);
  }

  void count_value(Value value) {
    while (value >= bound_) {
      bound_ *= 2;
      mask_stale_ = true;
    }
    if (histogram_.size() < bound_) histogram_.resize(bound_, 0);
    ++histogram_[value];
  }

  void record(std::uint64_t n, Value value) {
    const std::uint64_t old_bound = bound_;
    count_value(value);
    if (bound_ != old_bound) build_patterns();
    if (is_rare(value, mask_)) {
      rare_.push_back(n);
      if (rare_.size() >= std::max<std::uint64_t>(16, rare_at_choice_ * tuning::kMaskRechoiceGrowth))
        mask_stale_ = true;
    }
  }

  // Picks the mask with the fewest rare positions so far (Walsh-Hadamard of the histogram) and
  // rebuilds the rare list if it changed.
  template <class T>
  void choose_mask(const std::vector<T>& g) {
    mask_stale_ = false;
    const std::uint64_t best = best_rare_mask(histogram_);
    if (best != mask_) {
      mask_ = best;
      rare_.clear();
      for (std::uint64_t n = 0; n < g.size(); ++n)
        if (is_rare(g[n], mask_)) rare_.push_back(n);
    }
    rare_at_choice_ = rare_.size();
    build_patterns();
  }

  void build_patterns() {
    common_pattern_.reset(bound_);
    missing_.reset(bound_);
    for (Value v = 0; v < bound_; ++v)
      if (!is_rare(v, mask_)) common_pattern_.insert(v);
  }

  std::uint64_t bound_ = 1;            // a power of two above every value so far
  std::uint64_t mask_ = 0;             // 0: every value is rare (the naive method)
  bool mask_stale_ = true;
  std::uint64_t rare_at_choice_ = 0;
  std::vector<std::uint64_t> histogram_;
  std::vector<std::uint64_t> rare_;    // rare positions, increasing
  ValueSet common_pattern_;            // the common values below bound_
  ValueSet missing_;
  std::vector<ValueSet> known_;        // per heap of the block: pairs known before the block
  std::vector<std::uint64_t> scanned_to_;  // per heap of the block: pairs (a, m - a) listed up to a
};

}  // namespace

std::unique_ptr<Kernel> make_sparse_kernel(const Rules& rules) { return std::make_unique<SparseKernel>(rules); }

}  // namespace sgx
