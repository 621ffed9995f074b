#include "sgx/classic.hpp"

#include <algorithm>
#include <cmath>

namespace sgx {

namespace {

__extension__ typedef unsigned __int128 Wide;  // k^2 of a 62-bit k; __extension__ keeps -Wpedantic quiet

// floor(sqrt(v)), exactly: a floating-point guess, then corrected by at most a step or two.
std::uint64_t isqrt(Wide v) {
  auto root = static_cast<Wide>(std::sqrt(static_cast<long double>(v)));
  while (root * root > v) --root;
  while ((root + 1) * (root + 1) <= v) ++root;
  return static_cast<std::uint64_t>(root);
}

// floor(k phi) = floor((k + sqrt(5 k^2)) / 2): sqrt(5) k is irrational for k > 0, so flooring it
// first does not change the result.
std::uint64_t wythoff_lower(std::uint64_t k) {
  const Wide k_wide = k;
  return (k + isqrt(5 * k_wide * k_wide)) / 2;
}

// The smallest k >= 1 with f(k) >= x for an increasing f, searching 1..x.
template <class F>
std::uint64_t first_reaching(std::uint64_t x, F f) {
  std::uint64_t low = 1, high = x;
  while (low < high) {
    const std::uint64_t mid = low + (high - low) / 2;
    if (f(mid) >= x)
      high = mid;
    else
      low = mid + 1;
  }
  return low;
}

// The other heap of the P-position that contains x (every x >= 1 is in exactly one: the lower
// and upper Beatty sequences of phi and phi^2 partition the positive integers).
std::uint64_t wythoff_partner(std::uint64_t x) {
  if (x == 0) return 0;
  const std::uint64_t k = first_reaching(x, wythoff_lower);
  if (wythoff_lower(k) == x) return x + k;
  const std::uint64_t j = first_reaching(x, [](std::uint64_t i) { return wythoff_lower(i) + i; });
  return x - j;
}

// Fibonacci numbers 1, 2, 3, 5, ... up to the largest below 2^64.
const std::vector<std::uint64_t>& fibonacci_numbers() {
  static const std::vector<std::uint64_t> numbers = [] {
    std::vector<std::uint64_t> f = {1, 2};
    while (f.back() <= UINT64_MAX - f[f.size() - 2]) f.push_back(f.back() + f[f.size() - 2]);
    return f;
  }();
  return numbers;
}

// The "seen" set of a mex over values that may be larger than the number of options.
class SeenValues {
 public:
  void clear() { seen_.assign(seen_.size(), false); }
  void insert(std::uint64_t value) {
    if (value >= seen_.size()) seen_.resize(2 * value + 2, false);
    seen_[value] = true;
  }
  std::uint32_t mex() const {
    std::uint32_t value = 0;
    while (value < seen_.size() && seen_[value]) ++value;
    return value;
  }

 private:
  std::vector<bool> seen_;
};

}  // namespace

std::pair<std::uint64_t, std::uint64_t> wythoff_p_position(std::uint64_t k) {
  const std::uint64_t lower = wythoff_lower(k);
  return {lower, lower + k};
}

bool wythoff_is_p(std::uint64_t a, std::uint64_t b) {
  const auto [small, large] = std::minmax(a, b);
  return wythoff_lower(large - small) == small;
}

std::vector<std::pair<std::uint64_t, std::uint64_t>> wythoff_winning_moves(std::uint64_t a, std::uint64_t b) {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> moves;
  if (const std::uint64_t a2 = wythoff_partner(b); a2 < a) moves.emplace_back(a2, b);
  if (const std::uint64_t b2 = wythoff_partner(a); b2 < b) moves.emplace_back(a, b2);
  // Taking the same from both keeps the difference, and one P-position has each difference.
  const std::uint64_t small = std::min(a, b);
  if (const std::uint64_t target = wythoff_lower(std::max(a, b) - small); target < small)
    moves.emplace_back(a - (small - target), b - (small - target));
  return moves;
}

std::vector<std::pair<std::uint64_t, std::uint64_t>> wythoff_options(std::uint64_t a, std::uint64_t b) {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> options;
  for (std::uint64_t x = a; x-- > 0;) options.emplace_back(x, b);
  for (std::uint64_t y = b; y-- > 0;) options.emplace_back(a, y);
  for (std::uint64_t d = 1; d <= std::min(a, b); ++d) options.emplace_back(a - d, b - d);
  return options;
}

std::vector<std::uint64_t> zeckendorf(std::uint64_t n) {
  std::vector<std::uint64_t> terms;
  const auto& fib = fibonacci_numbers();
  // Greedy from the largest: what is left is below the next smaller Fibonacci number, so no two
  // terms are consecutive.
  for (auto it = fib.rbegin(); it != fib.rend() && n > 0; ++it) {
    if (*it <= n) {
      terms.push_back(*it);
      n -= *it;
    }
  }
  std::reverse(terms.begin(), terms.end());
  return terms;
}

bool is_fibonacci(std::uint64_t n) { return n > 0 && zeckendorf(n).size() == 1; }

bool fibonacci_nim_mover_wins(std::uint64_t n, std::uint64_t limit) { return n > 0 && limit >= zeckendorf(n).front(); }

std::vector<std::uint64_t> fibonacci_nim_winning_takes(std::uint64_t n, std::uint64_t limit) {
  // A take x leaves r = n - x with the opponent limited to 2x; that loses for the opponent when
  // 2x < (smallest term of r). Then x is below every term of r with room for the Zeckendorf gap,
  // so the terms of n are those of r and those of x: x is a sum of the smallest terms of n.
  std::vector<std::uint64_t> takes;
  const std::vector<std::uint64_t> terms = n == 0 ? std::vector<std::uint64_t>{} : zeckendorf(n);
  std::uint64_t take = 0;
  for (std::size_t i = 0; i < terms.size(); ++i) {
    take += terms[i];
    if (take > limit) break;
    const bool takes_all = i + 1 == terms.size();
    if (takes_all || take < terms[i + 1] - take) takes.push_back(take);
  }
  return takes;
}

ValueGrid::ValueGrid(std::uint64_t max_x, std::uint64_t max_y)
    : max_x_(max_x), max_y_(max_y), values_((max_x + 1) * (max_y + 1), 0) {}

FibonacciNimValues::FibonacciNimValues(std::uint64_t max_heap) : ValueGrid(max_heap, max_heap) {
  SeenValues seen;
  for (std::uint64_t n = 1; n <= max_heap; ++n) {
    // Raising the limit by one adds one option (take = limit): the seen set only grows.
    seen.clear();
    for (std::uint64_t limit = 1; limit <= n; ++limit) {
      const std::uint64_t left = n - limit;
      seen.insert(value(left, 2 * limit));
      set(n, limit, seen.mex());
    }
  }
}

std::vector<std::pair<Sheet, Sheet>> cut_options(Sheet sheet) {
  const auto [rows, columns] = sheet;
  std::vector<std::pair<Sheet, Sheet>> options;
  for (std::uint64_t i = 2; i + 2 <= rows && i <= rows - i; ++i) options.push_back({{i, columns}, {rows - i, columns}});
  for (std::uint64_t j = 2; j + 2 <= columns && j <= columns - j; ++j)
    options.push_back({{rows, j}, {rows, columns - j}});
  return options;
}

}  // namespace sgx
