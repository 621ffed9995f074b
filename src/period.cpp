#include "sgx/period.hpp"

#include <algorithm>
#include <limits>
#include <memory>
#include <span>

// How a periodic tail is found (one O(N) pass, no search over candidate periods).
//
// Let D(n) = G(n+1) - G(n) for n < M = N - 1. G(n+p) = G(n) + s for all n >= n0 exactly when D is
// periodic with period p from n0 on and s = G(n0+p) - G(n0): D(n+p) - D(n) = E(n+1) - E(n) with
// E(n) = G(n+p) - G(n), so a p-periodic D keeps E constant. The prefix function pi of D reversed
// gives, for every suffix of D of length L, its least period per(L) = L - pi(L). The suffix chosen
// for a period is maximal for its period (one more difference would break it), so its start in D
// is exactly the preperiod n0 of G, the last exception being n0 - 1. analyze_period still finds n0
// by a direct backward check over G, which is the definition.
//
// The criterion for "found". A suffix of D of length L qualifies in one of two ways:
//   1. proof: a theorem applies to the game, the saltus is 0 and N >= proof_length(n0, per(L)).
//      Then the period holds for ever, so the tail is reported however short it is. At most one
//      period can be proven: two proven periods would force a common smaller one.
//   2. repetition: L >= 2 per(L), i.e. the tail of G holds two full periods plus one value, so
//      every relation G(n+p) = G(n) + s of a residue class is seen at least once. Such a tail is
//      reported only if also
//        - it covers a quarter of the sequence, 4 (N - n0) >= N, and at least kMinRelations = 16
//          relations are seen, N - n0 - p >= 16: short local patterns are not periods. Grundy's
//          game, for one, repeats with period 3 over 27 values from n = 95 (N = 122), and
//          unsolved games such as 0.16 and 0.6 do the same at small N;
//        - for a finite octal code, s = 0: such games are never arithmetic-periodic (Horrocks &
//          Nowakowski), so a non-zero saltus there is a coincidence of a short prefix.
// The longest proof-qualifying suffix wins; otherwise the longest repeating one is judged.
// Two periods rather than three: Dawson's chess 0.137 shows its period 34 from 52 on by 150 values,
// only 2.9 periods of tail (64 relations), and that is a clear signal already.
// With fewer than 3 values there are fewer than two differences and nothing is found.

namespace sgx {

namespace {

// Criterion 2 (see the top of the file): relations a repeating tail must show, and 1 / its share.
constexpr std::uint64_t kMinRelations = 16;
constexpr std::uint64_t kMinShareInverse = 4;

// Only the first exceptions are listed; a preperiod of millions is summarised by n0 alone.
constexpr std::size_t kMaxExceptions = 10000;

// What the proof bound needs from the rules, looked up once.
struct ProofPlan {
  std::string theorem;
  std::uint64_t heaps = 1;  // k: most heaps a move leaves (1 for games without splits or moves)
  std::uint64_t take = 0;   // t: largest take
};

ProofPlan plan_for(const Rules& rules) {
  ProofPlan plan;
  plan.theorem = proof_theorem(rules);
  plan.heaps = std::max(1u, rules.max_heaps_left());
  plan.take = rules.largest_take();
  return plan;
}

// Values needed to prove period p from n0 (docs/THEORY.md section 3), derived for k heaps:
// if G(n+p) = G(n) for n0 <= n < k n0 + (k-1) p + t, then for n >= k n0 + (k-1) p + t every option
// of n + p (take j <= t, split n + p - j >= k n0 + k p into at most k parts) has a largest part
// b >= n0 + p, and replacing b by b - p gives the options of n one for one, so G(n+p) = G(n) by
// induction. The last relation used reads G(k n0 + k p + t - 1), hence k n0 + k p + t values.
// n0 is taken as at least 1: b - p must stay a non-empty heap, and without splits the take of
// the whole heap (digit bit 1) exists at n = t but not at n + p, so the window must start past t.
// The literal bound fails for n0 = 0: 0.4 starts 0 0 0 1, and its first 2p + t = 3 values
// "prove" period 1 from 0. (A search over all codes of up to three octal digits, and two
// hexadecimal ones, found no failure of the bound as used here.)
// For k = 1 this is the subtraction window max(n0, 1) + p + t; for k = 2 it is Guy-Smith's
// 2 n0 + 2 p + t.
std::uint64_t needed_values(const ProofPlan& plan, std::uint64_t preperiod, std::uint64_t period) {
  const std::uint64_t start = std::max<std::uint64_t>(preperiod, 1);
  return plan.heaps * start + plan.heaps * period + plan.take;
}

// The values are read through a span so that a heap game's sequence and a row of a two-dimensional
// table go through the same code.
template <class T>
std::int64_t difference(std::span<const T> g, std::uint64_t from, std::uint64_t to) {
  return static_cast<std::int64_t>(g[to]) - static_cast<std::int64_t>(g[from]);
}

// pi[i] = longest proper border of R(0..i), R(i) = D(M-1-i) the differences read backwards, for
// i < length. The prefix function of a prefix is the prefix of the prefix function, so stopping at
// length gives exactly the least periods of the suffixes up to that length: a window over the last
// differences costs no exactness for periods up to half its length, only memory.
// Index is uint32 when it can hold M, halving the only large array.
template <class Index, class T>
std::unique_ptr<Index[]> reversed_borders(std::span<const T> g, std::uint64_t length) {
  const std::uint64_t m = g.size() - 1;
  auto r = [&g, m](std::uint64_t i) { return difference(g, m - 1 - i, m - i); };
  auto pi = std::make_unique_for_overwrite<Index[]>(length);
  pi[0] = 0;
  std::uint64_t k = 0;
  for (std::uint64_t i = 1; i < length; ++i) {
    const std::int64_t c = r(i);
    while (k > 0 && r(k) != c) k = pi[k - 1];
    if (r(k) == c) ++k;
    pi[i] = static_cast<Index>(k);
  }
  return pi;
}

// A suffix of D: its length L and least period.
struct Suffix {
  std::uint64_t length = 0;
  std::uint64_t period = 0;
};

// The longest suffix of at most length differences holding two full periods (criterion 2), or
// length 0. When the true one is longer, this is its last length differences, with the same period.
template <class Index>
Suffix longest_repeating(const Index* pi, std::uint64_t length) {
  for (std::uint64_t len = length; len >= 2; --len) {
    const std::uint64_t q = len - pi[len - 1];
    if (len >= 2 * q) return {len, q};
  }
  return {};
}

// The longest suffix of at most length differences whose period a theorem proves with these
// values (criterion 1), or length 0.
template <class Index, class T>
Suffix longest_proven(const Index* pi, std::uint64_t length, std::span<const T> g, const ProofPlan& plan) {
  if (plan.theorem.empty()) return {};
  const std::uint64_t n = g.size();
  const std::uint64_t m = n - 1;
  for (std::uint64_t len = length; len >= 1; --len) {
    const std::uint64_t n0 = m - len;
    // Shorter suffixes start later and need even more values: stop.
    if (needed_values(plan, n0, 1) > n) break;
    const std::uint64_t q = len - pi[len - 1];
    if (needed_values(plan, n0, q) <= n && g[n0 + q] == g[n0]) return {len, q};
  }
  return {};
}

// Criterion 2's extra conditions (see the top of the file). saltus_allowed is false for finite
// octal codes.
bool worth_reporting(std::uint64_t n, std::uint64_t preperiod, std::uint64_t period, std::int64_t saltus,
                     bool saltus_allowed) {
  const std::uint64_t tail = n - preperiod;
  if (kMinShareInverse * tail < n || tail < period + kMinRelations) return false;
  return saltus == 0 || saltus_allowed;
}

// Last n with G(n+p) != G(n) + s, plus one: the preperiod by its definition.
template <class T>
std::uint64_t exact_preperiod(std::span<const T> g, std::uint64_t p, std::int64_t s) {
  for (std::uint64_t n = g.size() - p; n-- > 0;)
    if (difference(g, n, n + p) != s) return n + 1;
  return 0;
}

// The positions n < n0 whose value breaks the pattern of the tail: G(n) != G(r) - k s, r = n + k p
// being the first position of n's residue class in the tail. This is the Winning Ways list
// (0.137: 0 14 16 17 31 34 51); comparing with G(n + p) alone would miss 17 (G(17) = G(51), but
// 51 is itself exceptional) and report 0 and 34 differently. n0 - 1 is always on the list.
template <class T>
std::vector<std::uint64_t> list_exceptions(std::span<const T> g, std::uint64_t p, std::int64_t s,
                                           std::uint64_t preperiod) {
  std::vector<std::uint64_t> out;
  for (std::uint64_t n = 0; n < preperiod && out.size() < kMaxExceptions; ++n) {
    const std::uint64_t k = (preperiod - n + p - 1) / p;
    if (difference(g, n, n + k * p) != static_cast<std::int64_t>(k) * s) out.push_back(n);
  }
  return out;
}

// Fills found, period, saltus, preperiod and exceptions. plan.theorem is empty when no theorem
// applies (then only criterion 2 can find a period).
// Only the last window differences are compared (see reversed_borders): a longer periodic tail is
// found from its last window differences, and exact_preperiod then follows it back to its start.
template <class Index, class T>
void detect(std::span<const T> g, const ProofPlan& plan, bool saltus_allowed, std::uint64_t window,
            PeriodResult& result) {
  const std::uint64_t n = g.size();
  const std::uint64_t m = n - 1;
  const std::uint64_t length = std::min(m, window);
  const auto pi = reversed_borders<Index>(g, length);
  Suffix tail = longest_proven(pi.get(), length, g, plan);
  const bool by_proof = tail.length > 0;
  if (!by_proof) tail = longest_repeating(pi.get(), length);
  if (tail.length == 0) return;
  const std::uint64_t p = tail.period;
  const std::int64_t s = difference(g, m - tail.length, m - tail.length + p);
  const std::uint64_t n0 = exact_preperiod(g, p, s);
  if (!by_proof && !worth_reporting(n, n0, p, s, saltus_allowed)) return;
  result.found = true;
  result.period = p;
  result.saltus = s;
  result.preperiod = n0;
  result.exceptions = list_exceptions(g, p, s, n0);
}

// detect with the narrower index type whenever it can hold the length.
template <class T>
void detect_any_length(std::span<const T> g, const ProofPlan& plan, bool saltus_allowed, std::uint64_t window,
                       PeriodResult& result) {
  if (g.size() - 1 <= std::numeric_limits<std::uint32_t>::max())
    detect<std::uint32_t>(g, plan, saltus_allowed, window, result);
  else
    detect<std::uint64_t>(g, plan, saltus_allowed, window, result);
}

template <class T>
PeriodResult additive_period_of(std::span<const T> values) {
  PeriodResult result;
  result.checked_n = values.size();
  if (values.size() >= 3) detect_any_length(values, ProofPlan{}, true, kPeriodWindow, result);
  return result;
}

}  // namespace

PeriodResult find_additive_period(std::span<const std::uint8_t> values) { return additive_period_of(values); }
PeriodResult find_additive_period(std::span<const std::uint16_t> values) { return additive_period_of(values); }
PeriodResult find_additive_period(std::span<const std::uint32_t> values) { return additive_period_of(values); }

std::string proof_theorem(const Rules& rules) {
  // Repeating tails have unbounded takes, and unequal parts break the shift-by-p argument.
  if (rules.has_tail() || rules.has_unequal_splits()) return "";
  const unsigned heaps = rules.max_heaps_left();
  if (heaps <= 1) return "subtraction-window";
  if (heaps == 2) return "guy-smith";
  return "guy-smith-k-heap";
}

std::uint64_t proof_length(const Rules& rules, std::uint64_t preperiod, std::uint64_t period) {
  const ProofPlan plan = plan_for(rules);
  if (plan.theorem.empty()) return 0;
  return needed_values(plan, preperiod, period);
}

std::uint64_t next_proof_target(const PeriodResult& period, std::uint64_t done, std::uint64_t cap) {
  if (period.proven || period.applicable_theorem.empty() || done >= cap) return 0;
  // A period seen is proven, if it is the period, at exactly what its proof needs: look there.
  const std::uint64_t next = period.found && period.proof_needs_n > done ? period.proof_needs_n : 2 * done;
  return std::min(next, cap);
}

std::string proof_wait_text(const PeriodResult& period) {
  if (!period.found) return "no period seen in " + std::to_string(period.checked_n) + " values";
  return "period " + std::to_string(period.period) + " seen from " + std::to_string(period.preperiod) +
         "; the proof needs " + std::to_string(period.proof_needs_n) + " values";
}

PeriodResult analyze_period(const Sequence& values, const Rules& rules, std::uint64_t window) {
  PeriodResult result;
  const std::uint64_t n = values.size();
  result.checked_n = n;
  const ProofPlan plan = plan_for(rules);
  result.applicable_theorem = plan.theorem;
  if (n < 3) return result;
  // Finite octal codes are never arithmetic-periodic (see the top of the file).
  const bool saltus_allowed = rules.has_tail() || !rules.is_octal();
  values.visit([&](const auto& g) {
    detect_any_length(std::span(g.data(), g.size()), plan, saltus_allowed, std::max<std::uint64_t>(window, 2), result);
  });
  if (result.found && !plan.theorem.empty()) {
    result.proof_needs_n = needed_values(plan, result.preperiod, result.period);
    result.proven = result.saltus == 0 && n >= result.proof_needs_n;
    if (result.proven) result.theorem = plan.theorem;
  }
  return result;
}

}  // namespace sgx
