#include "sgx/stats.hpp"

#include <bit>

namespace sgx {

std::vector<std::uint64_t> rare_counts_for_all_masks(std::vector<std::uint64_t> histogram) {
  std::size_t size = std::bit_ceil(std::max<std::size_t>(histogram.size(), 1));
  std::uint64_t total = 0;
  for (auto h : histogram) total += h;
  // Walsh-Hadamard: w[m] = sum_v h[v] (-1)^popcount(v & m) = rare(m) - common(m).
  std::vector<std::int64_t> w(histogram.begin(), histogram.end());
  w.resize(size, 0);
  for (std::size_t len = 1; len < size; len <<= 1)
    for (std::size_t i = 0; i < size; i += len << 1)
      for (std::size_t j = i; j < i + len; ++j) {
        std::int64_t a = w[j], b = w[j + len];
        w[j] = a + b;
        w[j + len] = a - b;
      }
  std::vector<std::uint64_t> rare(size);
  for (std::size_t m = 0; m < size; ++m)
    rare[m] = static_cast<std::uint64_t>((static_cast<std::int64_t>(total) + w[m]) / 2);
  return rare;
}

std::uint64_t best_rare_mask(const std::vector<std::uint64_t>& histogram) {
  auto rare = rare_counts_for_all_masks(histogram);
  std::uint64_t best = 0;
  for (std::uint64_t m = 1; m < rare.size(); ++m)
    if (best == 0 || rare[m] < rare[best]) best = m;
  return best;
}

SparseStats compute_stats(const Sequence& values) {
  SparseStats stats;
  values.visit([&stats](const auto& g) {
    for (std::uint64_t n = 0; n < g.size(); ++n) {
      Value v = g[n];
      if (v >= stats.histogram.size()) stats.histogram.resize(std::bit_ceil(std::uint64_t{v} + 1), 0);
      ++stats.histogram[v];
      if (v > stats.max_value) {
        stats.max_value = v;
        stats.max_at = n;
      }
    }
  });
  stats.rare_mask = best_rare_mask(stats.histogram);
  if (!stats.histogram.empty()) stats.rare_count = rare_counts_for_all_masks(stats.histogram)[stats.rare_mask];
  values.visit([&stats](const auto& g) {
    for (std::uint64_t n = g.size(); n-- > 0;)
      if (is_rare(g[n], stats.rare_mask)) {
        stats.last_rare = static_cast<std::int64_t>(n);
        break;
      }
  });
  return stats;
}

std::vector<std::uint64_t> rare_positions(const Sequence& values, std::uint64_t mask) {
  std::vector<std::uint64_t> positions;
  values.visit([&](const auto& g) {
    for (std::uint64_t n = 0; n < g.size(); ++n)
      if (is_rare(g[n], mask)) positions.push_back(n);
  });
  return positions;
}

}  // namespace sgx
