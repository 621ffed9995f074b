#include "sgx/period.hpp"
#include "analysis/period_long.hpp"
#include "analysis/period_search.hpp"
#include "base/pages.hpp"
#include "base/tuning.hpp"


#include <algorithm>
#include <limits>
#include <memory>
#include <new>
#include <span>
#include <stdexcept>
#include <type_traits>
#include <vector>

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

using period_search::LastValues;
using period_search::LongPeriodSearch;
using period_search::needed_values;
using period_search::ProofPlan;
using period_search::saltus_of;
using period_search::ScanValues;
using period_search::shift_tail;
using period_search::Suffix;
using period_search::Tails;

// Criterion 2 (see the top of the file): relations a repeating tail must show, and 1 / its share.
constexpr std::uint64_t kMinRelations = 16;
constexpr std::uint64_t kMinShareInverse = 4;

// Only the first exceptions are listed; a preperiod of millions is summarised by n0 alone.
constexpr std::size_t kMaxExceptions = 10000;

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
// 2 n0 + 2 p + t. needed_values (period_search.hpp) computes it.

// Stretches of R passed over in blocks, each block's compares in a loop the compiler vectorizes.
constexpr std::uint64_t kCompareBlock = 32;

// R(i) = D(M-1-i), the differences of last read backwards from its end. A difference of two
// values of T is held in a signed type twice as wide, so that the blocks' compares of 8- and
// 16-bit values run in vectors of the baseline instruction set.
template <class T>
struct ReversedDifferences {
  using Difference = std::conditional_t<sizeof(T) == 1, std::int16_t,
                                        std::conditional_t<sizeof(T) == 2, std::int32_t, std::int64_t>>;
  const T* g = nullptr;
  std::uint64_t length = 0;  // of R: the differences within last

  Difference operator()(std::uint64_t i) const { return difference(g + length - i); }

  // Whether R(j) = d for some j in [i, i + kCompareBlock), i + kCompareBlock <= length.
  bool block_holds(std::uint64_t i, Difference d) const {
    const T* block = block_start(i);
    unsigned hits = 0;
    for (std::uint64_t t = 0; t < kCompareBlock; ++t) hits += difference(block + t) == d;
    return hits != 0;
  }

  // Whether R(a + j) != R(b + j) for some j < kCompareBlock, a, b + kCompareBlock <= length.
  bool blocks_differ(std::uint64_t a, std::uint64_t b) const {
    const T* block_a = block_start(a);
    const T* block_b = block_start(b);
    unsigned misses = 0;
    for (std::uint64_t t = 0; t < kCompareBlock; ++t) misses += difference(block_a + t) != difference(block_b + t);
    return misses != 0;
  }

 private:
  static Difference difference(const T* at) {
    return static_cast<Difference>(static_cast<Difference>(at[0]) - static_cast<Difference>(at[-1]));
  }
  // R(i..i + kCompareBlock - 1) are the differences at block_start(i) + t, t < kCompareBlock, read
  // forwards (t = kCompareBlock - 1 - (j - i)).
  const T* block_start(std::uint64_t i) const { return g + length - i - (kCompareBlock - 1); }
};

// One step of the prefix function pi of R, pi(i) being the longest proper border of R(0..i): pi(i)
// from k = pi(i-1). It reads pi(j) for j < k only.
template <class T>
std::uint64_t next_border(const ReversedDifferences<T>& r, const std::uint32_t* pi, std::uint64_t k, std::uint64_t i) {
  const auto c = r(i);
  while (k > 0 && r(k) != c) k = pi[k - 1];
  if (r(k) == c) ++k;
  return k;
}

// The first j >= i with R(j) = R(0), or R's length if none: where a border of 0 grows again.
template <class T>
std::uint64_t next_start_of_border(const ReversedDifferences<T>& r, std::uint64_t i) {
  const auto first = r(0);
  while (i + kCompareBlock <= r.length && !r.block_holds(i, first)) i += kCompareBlock;
  while (i < r.length && r(i) != first) ++i;
  return i;
}

// How many differences from R(b) on repeat those from R(a) on (a < b): the steps by which a
// border a of R(0..b-1) grows.
template <class T>
std::uint64_t common_length(const ReversedDifferences<T>& r, std::uint64_t a, std::uint64_t b) {
  if (r(a) != r(b)) return 0;  // the usual case without a period
  std::uint64_t s = 1;
  while (b + s + kCompareBlock <= r.length && !r.blocks_differ(a + s, b + s)) s += kCompareBlock;
  while (b + s < r.length && r(a + s) == r(b + s)) ++s;
  return s;
}

// The borders pi(0), pi(1), ... that the pass over R keeps for its steps, a step from border k
// reading pi(j) for j < k alone. The pass keeps its borders while they follow on from pi(0); it
// stops where it passes over a stretch of borders 0 (next_start_of_border). A border longer than
// those kept has them completed up to the pass by a second prefix function here, and so does a
// run of growing borders longer than the gap, the pass keeping the table complete from there.
// Without a period the borders stay short, and a window of 2^23 differences keeps a few of them
// instead of writing 32 MiB (on a virtual machine those pages' first touch cost as much as the
// pass). A periodic window keeps them all, completed once, within its first periods.
//
// The table is mapped in huge pages where the system gives them on request (transparent huge pages
// in "madvise" mode, Debian's default): a periodic window writes all of it, and 0.16 until proven
// spent about 8% of its run in the first touches of the table's 4 KiB pages.
class BorderTable {
 public:
  explicit BorderTable(std::uint64_t length)
      : bytes_(std::max<std::uint64_t>(length, 1) * sizeof(std::uint32_t)),
        table_(static_cast<std::uint32_t*>(map_pages(bytes_, PageSize::kHuge))) {}
  BorderTable(const BorderTable&) = delete;
  BorderTable& operator=(const BorderTable&) = delete;
  ~BorderTable() { unmap_pages(table_, bytes_); }

  std::uint32_t* get() const { return table_; }
  std::uint32_t& operator[](std::uint64_t i) const { return table_[i]; }

 private:
  std::size_t bytes_;
  std::uint32_t* table_;
};

template <class T>
class KnownBorders {
 public:
  // Address space only: pages are touched as borders are kept.
  explicit KnownBorders(const ReversedDifferences<T>& r) : r_(r), table_(r.length) {}

  // pi(0..count-1) for the step at i (count <= i).
  const std::uint32_t* first(std::uint64_t count, std::uint64_t i) {
    if (kept_ < count) complete_to(i);
    return table_.get();
  }

  // The pass found pi(i + s) = k + s for s < count.
  void keep(std::uint64_t i, std::uint64_t k, std::uint64_t count) {
    if (kept_ < i && count >= i - kept_) complete_to(i);
    if (kept_ != i) return;
    for (std::uint64_t s = 0; s < count; ++s) table_[i + s] = static_cast<std::uint32_t>(k + s);
    kept_ = i + count;
  }

 private:
  void complete_to(std::uint64_t i) {
    for (; kept_ < i; ++kept_) {
      const std::uint64_t border = kept_ == 0 ? 0 : next_border(r_, table_.get(), table_[kept_ - 1], kept_);
      table_[kept_] = static_cast<std::uint32_t>(border);
    }
  }

  const ReversedDifferences<T>& r_;
  BorderTable table_;
  std::uint64_t kept_ = 0;  // pi(0..kept_-1) are in the table
};

// Criterion 1 for the suffix of D of length len and least period q: a theorem proves its period
// with the values in hand.
template <class T>
class ProofCheck {
 public:
  ProofCheck(const ProofPlan& plan, const LastValues<T>& last)
      : plan_(plan), last_(last), n_(last.end()), m_(n_ - 1), possible_(!plan.theorem.empty() && n_ >= plan.take) {
    // A proof needs k max(n0, 1) + k q + t <= n values; with n0 = m - L and q = L - pi(L-1) that
    // asks at least k (m - pi(L-1)) + t <= n, a border of at least least_border. Without a
    // period the borders are short, and this spares nearly every suffix the exact test.
    if (possible_) least_border_ = m_ - std::min(m_, (n_ - plan.take) / plan.heaps);
  }

  // Whether a suffix with this border may be proven; false also for every shorter border.
  bool may_prove(std::uint64_t border) const { return possible_ && border >= least_border_; }
  // Whether the values in hand are enough for the proof; false also for every shorter suffix
  // of the same period (it starts later).
  bool enough_values(std::uint64_t len, std::uint64_t q) const { return needed_values(plan_, m_ - len, q) <= n_; }
  // Whether its period has saltus 0.
  bool repeats_exactly(std::uint64_t len, std::uint64_t q) const {
    const std::uint64_t n0 = m_ - len;
    return last_(n0 + q) == last_(n0);
  }

 private:
  const ProofPlan& plan_;
  const LastValues<T>& last_;
  std::uint64_t n_;
  std::uint64_t m_;
  bool possible_;
  std::uint64_t least_border_ = 0;
};

// Both in one pass over the prefix function of R: the suffix of D of length L = i + 1 has least
// period L - pi(i), and holds two periods when 2 pi(i) >= L. The prefix function of a prefix is
// the prefix of the prefix function, so a window over the last differences gives exactly the least
// periods of the suffixes up to its length: it costs no exactness for periods up to half of it.
// At most one period can be proven (two would force a common smaller one), and the longest suffix
// with a property is the last the pass meets. The pass goes by stretches: borders of 0 until R
// repeats R(0), runs of borders growing by one while R goes on repeating its prefix (a periodic
// window is one such run), and single steps between them.
template <class T>
Tails find_tails(const LastValues<T>& last, const ProofPlan& plan) {
  const ReversedDifferences<T> r{last.values.data(), last.values.size() - 1};
  const ProofCheck<T> proof(plan, last);
  KnownBorders<T> borders(r);
  Tails tails;
  // Steps i..i+count-1 with borders k..k+count-1: their suffixes share the period q. Two periods
  // hold from some step of the run on, so its last step says. A proof is looked for from the last
  // step back; a border or a count of values too small for it stays too small further back.
  auto note = [&](std::uint64_t i, std::uint64_t k, std::uint64_t count) {
    borders.keep(i, k, count);
    const std::uint64_t q = i - k + 1;
    if (2 * (k + count - 1) >= i + count) tails.repeating = {i + count, q};
    for (std::uint64_t s = count; s-- > 0;) {
      const std::uint64_t len = i + s + 1;
      if (!proof.may_prove(k + s) || !proof.enough_values(len, q)) break;
      if (proof.repeats_exactly(len, q)) {
        tails.proven = {len, q};
        break;
      }
    }
  };
  note(0, 0, 1);  // R(0..0) has no proper border
  // Without a period nearly every border is 0, and a suffix of border 0 has neither two periods
  // nor, where a proof needs a longer border, a proof: those stretches are only searched through.
  const bool pass_zero_borders = !proof.may_prove(0);
  std::uint64_t k = 0;  // pi(i-1)
  for (std::uint64_t i = 1; i < r.length;) {
    if (k == 0 && pass_zero_borders) {
      i = next_start_of_border(r, i);
      if (i == r.length) break;
    }
    if (const std::uint64_t run = common_length(r, k, i); run > 0) {
      note(i, k + 1, run);
      k += run;
      i += run;
      continue;
    }
    k = next_border(r, borders.first(k, i), k, i);
    note(i, k, 1);
    ++i;
  }
  return tails;
}

// Criterion 2's extra conditions (see the top of the file). saltus_allowed is false for finite
// octal codes.
bool worth_reporting(std::uint64_t n, std::uint64_t preperiod, std::uint64_t period, std::int64_t saltus,
                     bool saltus_allowed) {
  const std::uint64_t tail = n - preperiod;
  if (kMinShareInverse * tail < n || tail < period + kMinRelations) return false;
  return saltus == 0 || saltus_allowed;
}

// The positions n < n0 whose value breaks the pattern of the tail: G(n) != G(r) - k s, r = n + k p
// being the first position of n's residue class in the tail. This is the Winning Ways list
// (0.137: 0 14 16 17 31 34 51); comparing with G(n + p) alone would miss 17 (G(17) = G(51), but
// 51 is itself exceptional) and report 0 and 34 differently. n0 - 1 is always on the list.
// One forward pass over G(0..n0-1); the positions r cycle through G(n0..n0+p-1).
template <class T>
std::vector<std::uint64_t> list_exceptions(const LastValues<T>& last, const ValueReader& read, std::uint64_t p,
                                           std::int64_t s, std::uint64_t preperiod) {
  ScanValues<T> before(last, read, ScanValues<T>::Direction::Forward);
  ScanValues<T> in_tail(last, read, ScanValues<T>::Direction::Forward);
  std::vector<std::uint64_t> out;
  for (std::uint64_t n = 0; n < preperiod && out.size() < kMaxExceptions; ++n) {
    const std::uint64_t k = (preperiod - n + p - 1) / p;
    if (in_tail(n + k * p) - before(n) != static_cast<std::int64_t>(k) * s) out.push_back(n);
  }
  return out;
}

// The window's tails reach back to its first difference when the values repeat all through it:
// followed back to their exact start, reading the values before the window through read.
template <class T>
void extend_past_window(const LastValues<T>& last, const ValueReader& read, Tails& tails) {
  const std::uint64_t window = last.values.size() - 1;
  if (last.first == 0) return;  // the window holds every difference
  const std::uint64_t holds_from = last.end() - 1 - window;
  if (tails.repeating.length == window) tails.repeating = shift_tail(last, read, tails.repeating.period, holds_from);
  // Usually the same tail (a proof holds two periods): followed once.
  if (tails.proven.length == window)
    tails.proven = tails.proven.period == tails.repeating.period
                       ? tails.repeating
                       : shift_tail(last, read, tails.proven.period, holds_from);
}

// Fills found, period, saltus, preperiod and exceptions of G(0..last.end()-1). plan.theorem is
// empty when no theorem applies (then only criterion 2 can find a period). The prefix function
// compares the differences within last (find_tails): periods up to half of them, and tails that
// begin before them followed back to their start. Longer periods are looked for over the values
// before last (period_long.hpp), read through read.
template <class T>
void detect(const LastValues<T>& last, const ValueReader& read, const ProofPlan& plan, bool saltus_allowed,
            PeriodResult& result, LongPeriods long_periods = LongPeriods::Searched) {
  const std::uint64_t n = last.end();
  const std::uint64_t m = n - 1;
  Tails tails = find_tails(last, plan);
  extend_past_window(last, read, tails);
  if (long_periods == LongPeriods::Searched) LongPeriodSearch<T>(last, read, plan, tails).run();
  const bool by_proof = tails.proven.length > 0;
  const Suffix tail = by_proof ? tails.proven : tails.repeating;
  if (tail.length == 0) return;
  const std::uint64_t p = tail.period;
  const std::int64_t s = saltus_of(last, read, p);
  const std::uint64_t n0 = m - tail.length;
  if (!by_proof && !worth_reporting(n, n0, p, s, saltus_allowed)) return;
  result.found = true;
  result.period = p;
  result.saltus = s;
  result.preperiod = n0;
  result.exceptions = list_exceptions(last, read, p, s, n0);
}

// detect for values all in memory (no copy of them is made).
template <class T>
void detect_in_memory(std::span<const T> g, const ProofPlan& plan, bool saltus_allowed, std::uint64_t window,
                      PeriodResult& result) {
  const std::uint64_t count = period_window_values(g.size(), window);
  const LastValues<T> last{g.last(count), g.size() - count};
  const ValueReader read = [g](std::uint64_t from, std::uint64_t to, Value* out) {
    std::copy(g.begin() + static_cast<std::ptrdiff_t>(from), g.begin() + static_cast<std::ptrdiff_t>(to), out);
  };
  detect(last, read, plan, saltus_allowed, result);
}

// detect for values read through read: the last ones are read once into a buffer.
void detect_from_reader(std::uint64_t n, const ValueReader& read, const ProofPlan& plan, bool saltus_allowed,
                        std::uint64_t window, PeriodResult& result, LongPeriods long_periods = LongPeriods::Searched) {
  const std::uint64_t count = period_window_values(n, window);
  std::vector<Value> buffer(count);
  read(n - count, n, buffer.data());
  const LastValues<Value> last{std::span<const Value>(buffer), n - count};
  detect(last, read, plan, saltus_allowed, result, long_periods);
}

template <class T>
PeriodResult additive_period_of(std::span<const T> values) {
  PeriodResult result;
  result.checked_n = values.size();
  if (values.size() >= 3) detect_in_memory(values, ProofPlan{}, true, kPeriodWindow, result);
  return result;
}

// What every analysis of a heap game's sequence shares: the plan, the criterion, the proof.
template <class Detect>
PeriodResult analyze_game(std::uint64_t n, const Rules& rules, Detect detect_values) {
  PeriodResult result;
  result.checked_n = n;
  const ProofPlan plan = plan_for(rules);
  result.applicable_theorem = plan.theorem;
  if (n < 3) return result;
  // Finite octal codes are never arithmetic-periodic (see the top of the file).
  const bool saltus_allowed = rules.has_tail() || !rules.is_octal();
  detect_values(plan, saltus_allowed, result);
  // The theorems prove ordinary periods only: an arithmetic one (saltus != 0) gets no count of
  // values, which no run could reach.
  if (result.found && !plan.theorem.empty() && result.saltus == 0) {
    result.proof_needs_n = needed_values(plan, result.preperiod, result.period);
    result.proven = n >= result.proof_needs_n;
    if (result.proven) result.theorem = plan.theorem;
  }
  return result;
}

}  // namespace

std::uint64_t period_window_values(std::uint64_t n, std::uint64_t window) {
  const std::uint64_t limit = std::numeric_limits<std::uint32_t>::max();
  return std::min(n, std::clamp<std::uint64_t>(window, kMinPeriodWindow, limit) + 1);
}

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
  const std::uint64_t next = period.found && period.proof_needs_n > done ? period.proof_needs_n : tuning::kPeriodCheckGrowth * done;
  return std::min(next, cap);
}

std::string proof_wait_text(const PeriodResult& period) {
  if (!period.found) return "no period seen in " + std::to_string(period.checked_n) + " values";
  if (period.saltus != 0)
    return "period " + std::to_string(period.period) + " with saltus " + std::to_string(period.saltus) +
           " seen from " + std::to_string(period.preperiod) + "; no theorem here proves it";
  return "period " + std::to_string(period.period) + " seen from " + std::to_string(period.preperiod) +
         "; the proof needs " + std::to_string(period.proof_needs_n) + " values";
}

PeriodResult analyze_period(const Sequence& values, const Rules& rules, std::uint64_t window) {
  if (values.has_released())
    throw std::logic_error("the period analysis of " + values.kept_text() +
                           " needs a reader of the released values (a run file)");
  return analyze_game(values.size(), rules, [&](const ProofPlan& plan, bool saltus_allowed, PeriodResult& result) {
    values.visit([&](const auto& g) {
      detect_in_memory(std::span(g.data(), g.size()), plan, saltus_allowed, window, result);
    });
  });
}

PeriodResult analyze_period(const Sequence& values, const ValueReader& read_released, const Rules& rules,
                            std::uint64_t window) {
  if (!values.has_released()) return analyze_period(values, rules, window);
  const std::uint64_t n = values.size();
  const ValueReader read = held_or_released(values, read_released);
  return analyze_game(n, rules, [&](const ProofPlan& plan, bool saltus_allowed, PeriodResult& result) {
    // The last values are viewed where memory holds them all (a bounded run's tail), else read.
    const std::uint64_t count = period_window_values(n, window);
    if (values.tail_start() > n - count) return detect_from_reader(n, read, plan, saltus_allowed, window, result);
    values.visit([&](const auto& g) {
      using T = typename std::decay_t<decltype(g)>::value_type;
      const LastValues<T> last{std::span<const T>(g.data() + (n - count), count), n - count};
      detect(last, read, plan, saltus_allowed, result);
    });
  });
}

PeriodResult analyze_period(std::uint64_t n, const ValueReader& read, const Rules& rules, std::uint64_t window,
                            LongPeriods long_periods) {
  return analyze_game(n, rules, [&](const ProofPlan& plan, bool saltus_allowed, PeriodResult& result) {
    detect_from_reader(n, read, plan, saltus_allowed, window, result, long_periods);
  });
}

}  // namespace sgx
