#include "sgx/stats.hpp"

#include <algorithm>
#include <bit>
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

template <class T>
void StatsCounter::add(const T* g, std::uint64_t first, std::uint64_t count) {
  for (std::uint64_t i = 0; i < count; ++i) {
    const Value v = g[i];
    const std::uint64_t n = first + i;
    if (v >= histogram_.size()) {
      histogram_.resize(std::bit_ceil(std::uint64_t{v} + 1), 0);
      odd_histogram_.resize(histogram_.size(), 0);
      last_at_.resize(2 * histogram_.size(), -1);
    }
    ++histogram_[v];
    odd_histogram_[v] += n & 1;
    last_at_[2 * std::uint64_t{v} + (n & 1)] = static_cast<std::int64_t>(n);
    if (v > max_value_) {
      max_value_ = v;
      max_at_ = n;
    }
  }
  counted_ = first + count;
}

template void StatsCounter::add(const std::uint8_t*, std::uint64_t, std::uint64_t);
template void StatsCounter::add(const std::uint16_t*, std::uint64_t, std::uint64_t);
template void StatsCounter::add(const std::uint32_t*, std::uint64_t, std::uint64_t);

void StatsCounter::add(const ValuesView& values, std::uint64_t to) {
  const std::uint64_t from = counted_;
  if (to <= from) return;
  values.visit([&](const auto& g) { add(g.data() + from, from, to - from); });
}

SparseStats StatsCounter::stats(SplitTakeParity splits) const {
  SparseStats stats;
  stats.histogram = histogram_;
  stats.max_value = max_value_;
  stats.max_at = max_at_;
  stats.rare_mask = best_rare_mask(histogram_, odd_histogram_, splits);
  stats.rare_count = rare_count_of(histogram_, odd_histogram_, stats.rare_mask);
  for (Value v = 0; v < histogram_.size(); ++v)
    for (std::uint64_t parity = 0; parity < 2; ++parity)
      if (is_rare(v, parity, stats.rare_mask)) stats.last_rare = std::max(stats.last_rare, last_at_[2 * v + parity]);
  return stats;
}

SparseStats compute_stats(const ValuesView& values, SplitTakeParity splits) {
  StatsCounter counter;
  counter.add(values, values.size());
  return counter.stats(splits);
}

SparseStats compute_stats(std::uint64_t n, const ValueReader& read, SplitTakeParity splits) {
  std::vector<Value> block(std::min(n, kValueReadBlock));
  StatsCounter counter;
  for (std::uint64_t from = 0; from < n; from += kValueReadBlock) {
    const std::uint64_t count = std::min(n - from, kValueReadBlock);
    read(from, from + count, block.data());
    counter.add(block.data(), from, count);
  }
  return counter.stats(splits);
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
