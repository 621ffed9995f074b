// The sparse kernel's rare-value state (rare_state.hpp): its conversions to and from SparseState,
// what recording and taking back a value change in it, and the choice of its mask.

#include "sparse/rare_state.hpp"

#include <algorithm>
#include <bit>

#include "base/tuning.hpp"

namespace sgx {

void RareState::clear() {
  bound = 1;
  histogram.assign(1, 0);
  odd_histogram.assign(1, 0);
  positions.clear();
  values.clear();
}

void RareState::load(const SparseState& state) {
  histogram = state.histogram;
  bound = std::bit_ceil(std::max<std::uint64_t>(histogram.size(), 1));
  histogram.resize(bound, 0);
  odd_histogram = state.odd_histogram;
  odd_histogram.resize(bound, 0);
  mask = state.mask;
  positions = state.rare_positions;
  values = state.rare_values;
  mask_stale = false;
  rare_at_choice = positions.size();
  build_patterns();
}

SparseState RareState::saved() const {
  SparseState state;
  state.mask = mask;
  state.histogram = histogram;
  state.odd_histogram = odd_histogram;
  state.rare_positions = positions;
  state.rare_values = values;
  return state;
}

bool RareState::record(std::uint64_t n, Value value, bool lists_rare) {
  const std::uint64_t old_bound = bound;
  const bool was_stale = mask_stale;
  bool changed = false;
  count_value(n, value);
  if (bound != old_bound) {
    build_patterns();
    bound_grown_at.push_back({n, old_bound});
    changed = true;
  }
  if (lists_rare && is_rare(value, n, mask)) {
    positions.push_back(n);
    values.push_back(value);
    changed = true;
    if (positions.size() >= std::max(tuning::kMaskRechoiceLeast, rare_at_choice * tuning::kMaskRechoiceGrowth))
      mask_stale = true;
  }
  if (mask_stale && !was_stale) stale_since = n;
  return changed;
}

template <class T>
bool RareState::forget_from(ValueVector<T>& g, std::uint64_t n) {
  bool changed = false;
  for (std::uint64_t k = n; k < g.size(); ++k) {
    --histogram[g[k]];
    odd_histogram[g[k]] -= k & 1;
  }
  g.resize(n);
  while (!positions.empty() && positions.back() >= n) {
    positions.pop_back();
    values.pop_back();
    changed = true;
  }
  const auto grown = std::find_if(bound_grown_at.begin(), bound_grown_at.end(),
                                  [n](const auto& growth) { return growth.first >= n; });
  if (grown != bound_grown_at.end()) {
    bound = grown->second;
    histogram.resize(bound);
    odd_histogram.resize(bound);
    bound_grown_at.erase(grown, bound_grown_at.end());
    build_patterns();
    changed = true;
  }
  if (stale_since != kNever && stale_since >= n) {
    mask_stale = false;
    stale_since = kNever;
  }
  return changed;
}

template <class T>
bool RareState::choose_mask(const ValueVector<T>& g, bool released, bool lists_rare, SplitTakeParity split_parity,
                            WorkSpanTicks* work_span) {
  mask_stale = false;
  const RareMask best = best_rare_mask(histogram, odd_histogram, split_parity);
  const bool changed = best != mask && !released;
  if (changed) {
    mask = best;
    list_positions(g, lists_rare, work_span);
  }
  rare_at_choice = positions.size();
  build_patterns();
  return changed;
}

// The rare list under mask, from every value: a stretch of values a task, side by side, each
// stretch's positions in order and joined in order. On one thread, Grundy's game's values to 7.25
// million (where its mask changes) took 5.8 ms, a sixth of a two-thread run's one-thread time.
template <class T>
void RareState::list_positions(const ValueVector<T>& g, bool lists_rare, WorkSpanTicks* work_span) {
  positions.clear();
  values.clear();
  if (!lists_rare) return;
  constexpr std::uint64_t kStretch = std::uint64_t{1} << 20;
  std::vector<std::vector<std::uint64_t>> found((g.size() + kStretch - 1) / kStretch);
  run_stretches_side_by_side(g.size(), kStretch, work_span,
                             [&](std::uint64_t k, std::uint64_t begin, std::uint64_t end) {
                               for (std::uint64_t n = begin; n < end; ++n)
                                 if (is_rare(g[n], n, mask)) found[k].push_back(n);
                             });
  for (const std::vector<std::uint64_t>& stretch : found)
    for (const std::uint64_t n : stretch) {
      positions.push_back(n);
      values.push_back(g[n]);
    }
}

void RareState::build_patterns() {
  for (std::uint64_t parity = 0; parity < 2; ++parity) {
    common_patterns[parity].reset(bound);
    for (Value v = 0; v < bound; ++v)
      if (!is_rare(v, parity, mask)) common_patterns[parity].insert(v);
  }
}

#define SGX_RARE_STATE_FOR(T)                                                                                    \
  template bool RareState::forget_from(ValueVector<T>&, std::uint64_t);                                          \
  template bool RareState::choose_mask(const ValueVector<T>&, bool, bool, SplitTakeParity, WorkSpanTicks*);
SGX_RARE_STATE_FOR(std::uint8_t)
SGX_RARE_STATE_FOR(std::uint16_t)
SGX_RARE_STATE_FOR(std::uint32_t)
#undef SGX_RARE_STATE_FOR

}  // namespace sgx
