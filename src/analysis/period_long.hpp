#pragma once
// Periods longer than half the window of the prefix-function pass (period.cpp), found in bounded
// memory however long the values and the period.
//
// A shift s is a period of the suffix of D of length T(s) (D(i) = D(i + s) for every i in it, the
// longest such suffix). The longest suffix holding two full periods has the length
// L* = max { T(s) : T(s) >= 2s }, and its least period is the least s with T(s) >= L*. The window
// pass gives this exactly for every s up to half the window W. A longer s with T(s) >= 2s has
// T(s) >= s + W/2, so the last K <= W/2 differences (the fingerprint F) occur again s earlier. The
// search therefore
//   1. streams a rolling hash of K differences backwards over the values, from s just above W/2 to
//      the longest s that could still matter (half the differences; more where a theorem can prove
//      a period from one repetition), and takes each place whose hash equals F's as a candidate s;
//   2. rejects a candidate without reading a value where a tail already known decides it: s a
//      multiple of a known period q within its tail has T(s) = T(q) exactly (the exception just
//      before q's tail breaks s there too);
//   3. reads the one pair of differences that a tail long enough to matter must hold, at the far
//      end of that tail, and rejects the candidate if they differ;
//   4. else finds T(s) exactly by the backward comparison of the values that defines it.
// No hash decides anything: a candidate is kept only by step 4's comparison of every value of its
// tail. Candidates come in increasing s, so of tails of equal length the least period is kept.
//
// The window's tails bound the stream too: a tail of least period q <= K found by the window pass
// holds the fingerprint's every occurrence at a shift up to T(q) - K, and such an occurrence is at a
// multiple of q (else F, q-periodic, would have a period dividing q, and so would the tail): those
// shifts are decided by step 2, and the stream starts past them. A periodic game's run, whose tail
// covers nearly every value, is searched over its preperiod alone; a run without a period over its
// second half.
//
// What it cannot see: a tail that a theorem proves from fewer than K differences past one period
// (only subtraction games prove from one repetition, with periods far below the window).

#include <cstdint>
#include <vector>

#include "analysis/period_search.hpp"

namespace sgx::period_search {

// Differences in the fingerprint (at most half the window). A stretch of 4096 differences that
// repeats without a period behind it is rare, so few candidates reach step 3; the stream's cost
// does not depend on it.
constexpr std::uint64_t kFingerprint = std::uint64_t{1} << 12;
// The rolling hash: sum of D(x + j) B^j over j < K, modulo 2^64. B is odd, so no difference is
// lost, and its bits are spread so that small differences mix at once. A collision only makes a
// candidate, which the comparison of values rejects.
constexpr std::uint64_t kHashBase = 0x9E3779B97F4A7C15;

template <class T>
class LongPeriodSearch {
 public:
  // tails: what the window pass found, its lengths exact (past the window where they reach it).
  LongPeriodSearch(const LastValues<T>& last, const ValueReader& read, const ProofPlan& plan, Tails& tails)
      : last_(last), read_(read), plan_(plan), tails_(tails), n_(last.end()), m_(n_ - 1),
        window_(last.values.size() - 1), fingerprint_(std::min(kFingerprint, window_ / 2)),
        low_(last, read), high_(last, read) {
    for (const Suffix& tail : {tails.repeating, tails.proven})
      if (tail.length > 0) known_.push_back(tail);
  }

  // Updates tails with the longer periods the values show.
  void run() {
    if (window_ >= m_ || window_ < 2) return;  // every difference was in the window
    const std::uint64_t k = fingerprint_;
    std::uint64_t first_shift = window_ / 2 + 1;
    for (const Suffix& tail : known_)
      if (tail.period <= k && tail.length >= k) first_shift = std::max(first_shift, tail.length - k + 1);
    const std::uint64_t last_shift = std::min(m_ - k, longest_shift());
    if (first_shift > last_shift) return;
    // x: where the stretch of K differences starts; the shift is m - K - x.
    const std::uint64_t x_high = m_ - k - first_shift;
    const std::uint64_t x_low = m_ - k - last_shift;
    const std::uint64_t target = hash_from(m_ - k);
    std::uint64_t power = 1;  // B^K
    for (std::uint64_t j = 0; j < k; ++j) power *= kHashBase;
    // G(x..x+K), the values the hash of D(x..x+K-1) spans, in a ring indexed by position: each
    // value is read once, by one backward scan, and leaves the hash K steps later.
    std::uint64_t ring_size = 1;
    while (ring_size < k + 1) ring_size *= 2;
    const std::uint64_t mask = ring_size - 1;
    std::vector<std::int64_t> ring(ring_size);
    const std::uint64_t block = std::min(kValueReadBlock, x_high + k + 1 - x_low);
    ScanValues<T> g(last_, read_, ScanValues<T>::Direction::Backward, block);
    std::uint64_t hash = 0;
    for (std::uint64_t j = k + 1; j-- > 0;) {
      ring[(x_high + j) & mask] = g(x_high + j);
      if (j < k) hash = kHashBase * hash + difference(ring, x_high + j, mask);
    }
    for (std::uint64_t x = x_high;; --x) {
      if (hash == target) consider(m_ - k - x);
      if (x == x_low) break;
      // Moving to x - 1: D(x - 1) enters, D(x - 1 + K) leaves.
      const std::int64_t value = g(x - 1);
      const auto entering = static_cast<std::uint64_t>(ring[x & mask] - value);
      const std::uint64_t leaving = difference(ring, x + k - 1, mask);
      hash = entering + kHashBase * hash - power * leaving;
      ring[(x - 1) & mask] = value;
    }
  }

 private:
  // D(i) from the ring of values, as the hash adds it.
  static std::uint64_t difference(const std::vector<std::int64_t>& ring, std::uint64_t i, std::uint64_t mask) {
    return static_cast<std::uint64_t>(ring[(i + 1) & mask] - ring[i & mask]);
  }

  // The hash of D(x..x+K-1).
  std::uint64_t hash_from(std::uint64_t x) {
    ScanValues<T> g(last_, read_, ScanValues<T>::Direction::Around, 2 * fingerprint_ + 2);
    std::uint64_t hash = 0;
    for (std::uint64_t j = fingerprint_; j-- > 0;)
      hash = kHashBase * hash + static_cast<std::uint64_t>(g(x + j + 1) - g(x + j));
    return hash;
  }

  // The longest shift that could give a tail worth having: two periods fit in the differences, or
  // a theorem proves a period with n0 = 0.
  std::uint64_t longest_shift() const {
    std::uint64_t longest = tails_.repeating.length < m_ ? m_ / 2 : 0;
    if (const std::uint64_t start = most_proof_start(); start >= 1) longest = std::max(longest, start - 1);
    return longest;
  }

  // The largest max(n0, 1) + p a proof can have with the values in hand (0 if no theorem applies):
  // k (max(n0, 1) + p) + t <= n.
  std::uint64_t most_proof_start() const {
    if (plan_.theorem.empty() || n_ < plan_.take) return 0;
    return (n_ - plan_.take) / plan_.heaps;
  }

  // The least tail length that would make shift s worth having, past m if none.
  std::uint64_t needed_length(std::uint64_t s) const {
    std::uint64_t need = m_ + 1;
    if (2 * s <= m_) need = std::max(2 * s, tails_.repeating.length + 1);
    if (const std::uint64_t start = most_proof_start(); start >= s + 1) {
      const std::uint64_t latest_n0 = std::min(m_, start - s);
      need = std::min(need, std::max(m_ - latest_n0, tails_.proven.length + 1));
    }
    return std::max(need, s + 1);
  }

  void consider(std::uint64_t s) {
    for (const Suffix& tail : known_)
      if (s % tail.period == 0 && s <= tail.length) return;  // step 2
    const std::uint64_t need = needed_length(s);
    if (need > m_) return;
    const std::uint64_t i = m_ - need;  // step 3: D(i) = D(i + s) must hold
    if (low_(i + 1) - low_(i) != high_(i + s + 1) - high_(i + s)) return;
    const Suffix tail = shift_tail(last_, read_, s, n_ - s);  // step 4
    known_.push_back(tail);
    if (2 * s <= tail.length && tail.length > tails_.repeating.length) tails_.repeating = tail;
    if (tail.length > tails_.proven.length && proves(tail)) tails_.proven = tail;
  }

  // Whether a theorem proves the tail's period with the values in hand.
  bool proves(const Suffix& tail) {
    if (plan_.theorem.empty()) return false;
    const std::uint64_t n0 = m_ - tail.length;
    return needed_values(plan_, n0, tail.period) <= n_ && high_(m_) == high_(m_ - tail.period);
  }

  const LastValues<T>& last_;
  const ValueReader& read_;
  const ProofPlan& plan_;
  Tails& tails_;
  const std::uint64_t n_;
  const std::uint64_t m_;
  const std::uint64_t window_;       // differences the window pass compared
  const std::uint64_t fingerprint_;  // K
  PointValues<T> low_;
  PointValues<T> high_;
  std::vector<Suffix> known_;  // tails known exactly: the window's and every candidate compared
};

}  // namespace sgx::period_search
