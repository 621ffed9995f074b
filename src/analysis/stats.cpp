#include "sgx/stats.hpp"

#include <algorithm>
#include <bit>
#include <cassert>
#include <stdexcept>
#include <string>
#include <utility>

namespace sgx {

namespace {

// w[m] = sum_v h[v] (-1)^popcount(v & m), in place; h.size() a power of two.
void walsh_hadamard(std::vector<std::int64_t>& w) {
  for (std::size_t len = 1; len < w.size(); len <<= 1)
    for (std::size_t i = 0; i < w.size(); i += len << 1)
      for (std::size_t j = i; j < i + len; ++j) {
        std::int64_t a = w[j], b = w[j + len];
        w[j] = a + b;
        w[j + len] = a - b;
      }
}

std::size_t transform_size(const std::vector<std::uint64_t>& histogram) {
  return std::bit_ceil(std::max<std::size_t>(histogram.size(), 1));
}

std::uint64_t total_of(const std::vector<std::uint64_t>& histogram) {
  std::uint64_t total = 0;
  for (auto h : histogram) total += h;
  return total;
}

// Counts from a transform w[m] = rare(m) - common(m), of total positions.
std::vector<std::uint64_t> rare_from_difference(const std::vector<std::int64_t>& w, std::uint64_t total) {
  std::vector<std::uint64_t> rare(w.size());
  for (std::size_t m = 0; m < w.size(); ++m)
    rare[m] = static_cast<std::uint64_t>((static_cast<std::int64_t>(total) + w[m]) / 2);
  return rare;
}

}  // namespace

std::vector<std::uint64_t> rare_counts_for_all_masks(std::vector<std::uint64_t> histogram) {
  const std::uint64_t total = total_of(histogram);
  // w[m] = rare(m) - common(m).
  std::vector<std::int64_t> w(histogram.begin(), histogram.end());
  w.resize(transform_size(histogram), 0);
  walsh_hadamard(w);
  return rare_from_difference(w, total);
}

std::vector<std::uint64_t> rare_counts_with_position(const std::vector<std::uint64_t>& histogram,
                                                     const std::vector<std::uint64_t>& odd_histogram,
                                                     bool odd_takes) {
  // One more bit in the transform, folded: the position's bit adds (-1)^(n's parity + k's), so
  // the transform of (even - odd) positions per value, signed by k's parity, is rare(m) - common(m).
  std::vector<std::int64_t> w(transform_size(histogram), 0);
  for (std::size_t v = 0; v < histogram.size(); ++v) {
    const auto odd = static_cast<std::int64_t>(v < odd_histogram.size() ? odd_histogram[v] : 0);
    const std::int64_t even = static_cast<std::int64_t>(histogram[v]) - odd;
    w[v] = odd_takes ? odd - even : even - odd;
  }
  walsh_hadamard(w);
  return rare_from_difference(w, total_of(histogram));
}

std::uint64_t best_rare_mask(const std::vector<std::uint64_t>& histogram) {
  auto rare = rare_counts_for_all_masks(histogram);
  std::uint64_t best = 0;
  for (std::uint64_t m = 1; m < rare.size(); ++m)
    if (best == 0 || rare[m] < rare[best]) best = m;
  return best;
}

RareMask best_rare_mask(const std::vector<std::uint64_t>& histogram, const std::vector<std::uint64_t>& odd_histogram,
                        SplitTakeParity splits) {
  RareMask best{best_rare_mask(histogram)};
  if (splits == SplitTakeParity::Mixed || histogram.empty()) return best;
  std::uint64_t best_count = rare_counts_for_all_masks(histogram)[best.values];
  const bool odd_takes = splits == SplitTakeParity::Odd;
  const auto rare = rare_counts_with_position(histogram, odd_histogram, odd_takes);
  for (std::uint64_t m = 0; m < rare.size(); ++m)
    if (rare[m] < best_count) {
      best = RareMask{m, true, odd_takes};
      best_count = rare[m];
    }
  return best;
}

std::uint64_t rare_count_of(const std::vector<std::uint64_t>& histogram,
                            const std::vector<std::uint64_t>& odd_histogram,
                            const RareMask& mask) {
  std::uint64_t count = 0;
  for (Value v = 0; v < histogram.size(); ++v) {
    const std::uint64_t odd = v < odd_histogram.size() ? odd_histogram[v] : 0;
    if (is_rare(v, 0, mask)) count += histogram[v] - odd;
    if (is_rare(v, 1, mask)) count += odd;
  }
  return count;
}

StatsCounter::StatsCounter(State state, SplitTakeParity splits) : splits_(splits), state_(std::move(state)) {
  const std::string fault = check_counter_state(state_);
  if (!fault.empty()) throw std::invalid_argument("the statistics counted so far do not hold together: " + fault);
}

template <class T>
void StatsCounter::count(const T* g, std::uint64_t first, std::uint64_t count) {
  State& s = state_;
  for (std::uint64_t i = 0; i < count; ++i) {
    const Value v = g[i];
    const std::uint64_t n = first + i;
    if (v >= s.histogram.size()) {
      s.histogram.resize(std::bit_ceil(std::uint64_t{v} + 1), 0);
      s.odd_histogram.resize(s.histogram.size(), 0);
      s.last_at.resize(2 * s.histogram.size(), -1);
    }
    ++s.histogram[v];
    s.odd_histogram[v] += n & 1;
    s.last_at[2 * std::uint64_t{v} + (n & 1)] = static_cast<std::int64_t>(n);
    if (v > s.max_value) {
      s.max_value = v;
      s.max_at = n;
    }
  }
  s.counted = first + count;
}

template <class T>
void StatsCounter::add(const T* g, std::uint64_t first, std::uint64_t count) {
  assert(first == state_.counted);
  const std::uint64_t end = first + count;
  while (state_.counted < end) {
    const std::uint64_t n = state_.counted;
    if (!state_.milestones.empty() && state_.milestones.back().n == n) state_.milestones.back().value_at_n = g[n - first];
    // Up to the next power of two, where the statistics so far become a milestone.
    const std::uint64_t next = std::bit_floor(n) * 2 + (n == 0 ? 1 : 0);
    const std::uint64_t stop = std::min(end, next);
    this->count(g + (n - first), n, stop - n);
    if (stop == next) state_.milestones.push_back({next, stats(), std::nullopt});
  }
}

template void StatsCounter::add(const std::uint8_t*, std::uint64_t, std::uint64_t);
template void StatsCounter::add(const std::uint16_t*, std::uint64_t, std::uint64_t);
template void StatsCounter::add(const std::uint32_t*, std::uint64_t, std::uint64_t);

void StatsCounter::add(const ValuesView& values, std::uint64_t to) {
  const std::uint64_t from = state_.counted;
  if (to <= from) return;
  values.visit([&](const auto& g) { add(g.data() + from, from, to - from); });
}

SparseStats StatsCounter::stats() const {
  const State& s = state_;
  SparseStats stats;
  stats.histogram = s.histogram;
  stats.max_value = s.max_value;
  stats.max_at = s.max_at;
  stats.rare_mask = best_rare_mask(s.histogram, s.odd_histogram, splits_);
  stats.rare_count = rare_count_of(s.histogram, s.odd_histogram, stats.rare_mask);
  for (Value v = 0; v < s.histogram.size(); ++v)
    for (std::uint64_t parity = 0; parity < 2; ++parity)
      if (is_rare(v, parity, stats.rare_mask)) stats.last_rare = std::max(stats.last_rare, s.last_at[2 * v + parity]);
  return stats;
}

std::string check_counter_state(const StatsCounter::State& state) {
  const auto sum = [](const std::vector<std::uint64_t>& counts) {
    std::uint64_t total = 0;
    for (std::uint64_t c : counts) total += c;
    return total;
  };
  const std::string counted = std::to_string(state.counted);
  if (sum(state.histogram) != state.counted)
    return "the histogram counts " + std::to_string(sum(state.histogram)) + " values, not " + counted;
  if (state.odd_histogram.size() != state.histogram.size() || state.last_at.size() != 2 * state.histogram.size())
    return "the histogram of odd positions or the last positions are not as long as the histogram";
  for (std::size_t v = 0; v < state.histogram.size(); ++v)
    if (state.odd_histogram[v] > state.histogram[v]) return "value " + std::to_string(v) + " has more odd positions than positions";
  if (state.counted > 0 &&
      (state.max_value >= state.histogram.size() || state.histogram[state.max_value] == 0 || state.max_at >= state.counted))
    return "the largest value " + std::to_string(state.max_value) + " is not one counted";
  const std::size_t expected = static_cast<std::size_t>(std::bit_width(state.counted));
  if (state.milestones.size() != expected)
    return std::to_string(state.milestones.size()) + " milestones for " + counted + " values, not " +
           std::to_string(expected) + " (one per power of two)";
  for (std::size_t k = 0; k < state.milestones.size(); ++k) {
    const Milestone& m = state.milestones[k];
    const std::string at = "the milestone at " + std::to_string(m.n);
    if (m.n != std::uint64_t{1} << k) return "milestone " + std::to_string(k) + " is at " + std::to_string(m.n) + ", not 2^" + std::to_string(k);
    if (sum(m.stats.histogram) != m.n) return at + " counts " + std::to_string(sum(m.stats.histogram)) + " values";
    if (m.value_at_n.has_value() != (m.n < state.counted))
      return at + (m.n < state.counted ? " lacks G(N)" : " has G(N), which was not counted");
  }
  return "";
}

SparseStats compute_stats(const ValuesView& values, SplitTakeParity splits) {
  StatsCounter counter(splits);
  counter.add(values, values.size());
  return counter.stats();
}

StatsCounter count_values(std::uint64_t n, const ValueReader& read, SplitTakeParity splits) {
  std::vector<Value> block(std::min(n, kValueReadBlock));
  StatsCounter counter(splits);
  for (std::uint64_t from = 0; from < n; from += kValueReadBlock) {
    const std::uint64_t count = std::min(n - from, kValueReadBlock);
    read(from, from + count, block.data());
    counter.add(block.data(), from, count);
  }
  return counter;
}

SparseStats compute_stats(std::uint64_t n, const ValueReader& read, SplitTakeParity splits) {
  return count_values(n, read, splits).stats();
}

std::vector<std::uint64_t> rare_positions(const Sequence& values, const RareMask& mask) {
  std::vector<std::uint64_t> positions;
  values.visit([&](const auto& g) {
    for (std::uint64_t n = 0; n < g.size(); ++n)
      if (is_rare(g[n], n, mask)) positions.push_back(n);
  });
  return positions;
}

}  // namespace sgx
