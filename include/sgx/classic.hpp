#pragma once
// Classic impartial games that are not heap codes: Wythoff's game, Fibonacci Nim and the
// paper-cutting game. Each has exact rules for who wins one game at any size; the tables of
// Sprague-Grundy values (mex over the options) that sums of several games need are in
// table2d.hpp for Wythoff's game and the cutting game, and here for Fibonacci Nim.
//
// Wythoff's game (W. A. Wythoff, A modification of the game of Nim, Nieuw Archief voor Wiskunde 7,
//   1907): two heaps; take any number from one heap, or the same number from both. P-positions
//   are (floor(k phi), floor(k phi^2)) and their mirror images.
// Fibonacci Nim (M. J. Whinihan, Fibonacci Nim, Fibonacci Quarterly 1, 1963): one heap; the first
//   move takes 1..n-1, every later move at most twice the previous take; whoever takes the last
//   token wins. A state is (n, limit). The mover loses exactly when limit < the smallest term of
//   n's Zeckendorf representation; so a starting heap loses exactly when n is a Fibonacci number.
// Paper cutting (the "Cutting Game", POJ 2311, from POJ Monthly by Chen Shixi): an n x m sheet; a
//   move cuts one sheet along a grid line into two; whoever first cuts out a 1 x 1 piece wins. A
//   move that leaves a sheet of width 1 (1 x k, k >= 2) lets the opponent cut a 1 x 1 piece next
//   and win, so good players never make one; leaving those moves out turns the game into normal
//   play on sheets with both sides >= 2: G(n, m) = mex of G(i, m) ^ G(n - i, m) for
//   2 <= i <= n - 2 and of G(n, j) ^ G(n, m - j) for 2 <= j <= m - 2 (no such cut: G = 0, the
//   mover must leave a strip and loses). The tests check this against the game as stated.

#include <cstdint>
#include <utility>
#include <vector>

namespace sgx {

// ---- Wythoff's game ----

// The k-th P-position (floor(k phi), floor(k phi^2)), computed exactly in integers.
std::pair<std::uint64_t, std::uint64_t> wythoff_p_position(std::uint64_t k);
// Heap sizes for which the P-position would overflow are refused by the callers; this is the limit.
inline constexpr std::uint64_t kWythoffMaxHeap = std::uint64_t{1} << 62;
bool wythoff_is_p(std::uint64_t a, std::uint64_t b);
// The moves from (a, b) to P-positions, found from the P-positions alone (any heap sizes):
// at most one per kind of move (from the first heap, from the second, from both).
std::vector<std::pair<std::uint64_t, std::uint64_t>> wythoff_winning_moves(std::uint64_t a, std::uint64_t b);
// Every move from (a, b): (a', b), (a, b'), (a - d, b - d).
std::vector<std::pair<std::uint64_t, std::uint64_t>> wythoff_options(std::uint64_t a, std::uint64_t b);

// ---- Fibonacci Nim ----

// The Zeckendorf representation of n >= 1: non-consecutive Fibonacci numbers summing to n,
// smallest first.
std::vector<std::uint64_t> zeckendorf(std::uint64_t n);
bool is_fibonacci(std::uint64_t n);
// True when the player to move wins with n tokens left and at most limit to take.
bool fibonacci_nim_mover_wins(std::uint64_t n, std::uint64_t limit);
// Every winning take: a sum of the k smallest Zeckendorf terms of n that is allowed and leaves
// the opponent a losing state (twice the take below the next term), or all n when allowed.
std::vector<std::uint64_t> fibonacci_nim_winning_takes(std::uint64_t n, std::uint64_t limit);

// ---- Fibonacci Nim's table of Sprague-Grundy values, for sums ----
// (Wythoff's game and the cutting game, symmetric in their two numbers, have theirs in
// table2d.hpp.)

// G(x, y) for 0 <= x <= max_x, 0 <= y <= max_y, by mex over the options, in increasing order.
class ValueGrid {
 public:
  ValueGrid(std::uint64_t max_x, std::uint64_t max_y);
  std::uint64_t max_x() const { return max_x_; }
  std::uint64_t max_y() const { return max_y_; }
  std::uint32_t at(std::uint64_t x, std::uint64_t y) const { return values_[x * (max_y_ + 1) + y]; }

 protected:
  void set(std::uint64_t x, std::uint64_t y, std::uint32_t value) { values_[x * (max_y_ + 1) + y] = value; }

 private:
  std::uint64_t max_x_, max_y_;
  std::vector<std::uint32_t> values_;
};

// Fibonacci Nim: G(n, limit) for limit <= n (a larger limit is the same state as limit = n).
class FibonacciNimValues : public ValueGrid {
 public:
  explicit FibonacciNimValues(std::uint64_t max_heap);
  std::uint32_t value(std::uint64_t n, std::uint64_t limit) const { return at(n, limit < n ? limit : n); }
};

// A sheet of paper: rows x columns.
using Sheet = std::pair<std::uint64_t, std::uint64_t>;

// The cuts of a sheet that leave no strip of width 1, each as the two sheets it leaves: first
// across the rows (i x columns and (rows - i) x columns, i <= rows - i), then across the columns.
std::vector<std::pair<Sheet, Sheet>> cut_options(Sheet sheet);

}  // namespace sgx
