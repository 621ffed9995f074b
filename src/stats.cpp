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

namespace {

// Values read through a ValueReader at a time by compute_stats: a read costs little per value, and
// the block little memory.
constexpr std::uint64_t kStatsReadBlock = std::uint64_t{1} << 18;

// The histograms and the largest value of values given in order, in any number of pieces.
class StatsCounter {
 public:
  // G(first..first + count - 1), the values after those given so far.
  template <class T>
  void add(const T* g, std::uint64_t first, std::uint64_t count) {
    for (std::uint64_t i = 0; i < count; ++i) {
      const Value v = g[i];
      const std::uint64_t n = first + i;
      if (v >= stats_.histogram.size()) {
        stats_.histogram.resize(std::bit_ceil(std::uint64_t{v} + 1), 0);
        odd_histogram_.resize(stats_.histogram.size(), 0);
      }
      ++stats_.histogram[v];
      odd_histogram_[v] += n & 1;
      if (v > stats_.max_value) {
        stats_.max_value = v;
        stats_.max_at = n;
      }
    }
  }

  // The statistics with the best mask and its rare count; last_rare is still to be found.
  SparseStats counted(SplitTakeParity splits) {
    stats_.rare_mask = best_rare_mask(stats_.histogram, odd_histogram_, splits);
    stats_.rare_count = rare_count_of(stats_.histogram, odd_histogram_, stats_.rare_mask);
    return std::move(stats_);
  }

 private:
  SparseStats stats_;
  std::vector<std::uint64_t> odd_histogram_;
};

// The largest n in first..first + count - 1 whose value is rare under mask, or -1.
template <class T>
std::int64_t last_rare_in(const T* g, std::uint64_t first, std::uint64_t count, const RareMask& mask) {
  for (std::uint64_t i = count; i-- > 0;)
    if (is_rare(g[i], first + i, mask)) return static_cast<std::int64_t>(first + i);
  return -1;
}

}  // namespace

SparseStats compute_stats(const ValuesView& values, SplitTakeParity splits) {
  StatsCounter counter;
  values.visit([&](const auto& g) { counter.add(g.data(), 0, g.size()); });
  SparseStats stats = counter.counted(splits);
  values.visit([&](const auto& g) { stats.last_rare = last_rare_in(g.data(), 0, g.size(), stats.rare_mask); });
  return stats;
}

SparseStats compute_stats(std::uint64_t n, const ValueReader& read, SplitTakeParity splits) {
  std::vector<Value> block(std::min(n, kStatsReadBlock));
  StatsCounter counter;
  for (std::uint64_t from = 0; from < n; from += kStatsReadBlock) {
    const std::uint64_t count = std::min(n - from, kStatsReadBlock);
    read(from, from + count, block.data());
    counter.add(block.data(), from, count);
  }
  SparseStats stats = counter.counted(splits);
  for (std::uint64_t to = n; to > 0 && stats.last_rare < 0;) {
    const std::uint64_t from = to - std::min(to, kStatsReadBlock);
    read(from, to, block.data());
    stats.last_rare = last_rare_in(block.data(), from, to - from, stats.rare_mask);
    to = from;
  }
  return stats;
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
