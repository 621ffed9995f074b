#pragma once
// What the two searches of the period analysis share (private to the library): the values they
// read, the tails they find, what a proof of a period needs, and the exact start of a periodic
// tail. period.cpp searches the last differences by their prefix function (periods up to half its
// window); period_long.hpp searches the rest of the values for longer periods.

#include <algorithm>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "sgx/rules.hpp"
#include "sgx/sequence.hpp"

namespace sgx::period_search {

// What the proof bound needs from the rules, looked up once.
struct ProofPlan {
  std::string theorem;      // "" when no theorem applies
  std::uint64_t heaps = 1;  // k: most heaps a move leaves (1 for games without splits or moves)
  std::uint64_t take = 0;   // t: largest take
};

// Values needed to prove period p from n0 (docs/THEORY.md section 3, derived in period.cpp):
// k max(n0, 1) + k p + t, saturated at the largest count rather than wrapped round.
inline std::uint64_t needed_values(const ProofPlan& plan, std::uint64_t preperiod, std::uint64_t period) {
  constexpr std::uint64_t kMost = std::numeric_limits<std::uint64_t>::max();
  const std::uint64_t start = std::max<std::uint64_t>(preperiod, 1);
  if (start > (kMost - plan.take) / plan.heaps - period) return kMost;
  return plan.heaps * (start + period) + plan.take;
}

// A suffix of the differences D(n) = G(n+1) - G(n): its length L and a period of it (the least
// one, as the searches report it). Length 0 where there is none.
struct Suffix {
  std::uint64_t length = 0;
  std::uint64_t period = 0;
};

// The suffixes of D the criteria of period.cpp choose among:
struct Tails {
  Suffix repeating;  // the longest holding two full periods (criterion 2)
  Suffix proven;     // the longest whose period a theorem proves (criterion 1)
};

// The analysis reads the values in three ways, so that it never needs them all in memory:
//   - the prefix function and the choice of the tail read the last window + 1 values at random:
//     LastValues, a view of values in memory (no copy) or, for values on disk, one buffer read once;
//   - the backward check for n0, the list of exceptions and the search for long periods run over
//     the values in order: ScanValues, which reads the values outside the last ones a block at a time;
//   - the long search checks a few values of each candidate period at random: PointValues.
// All give exactly the values a whole sequence in memory gives, so the result is the same.

// G(first..first + values.size() - 1), the last values of a sequence of first + values.size().
template <class T>
struct LastValues {
  std::span<const T> values;
  std::uint64_t first = 0;
  std::int64_t operator()(std::uint64_t n) const { return static_cast<std::int64_t>(values[n - first]); }
  std::uint64_t end() const { return first + values.size(); }
};

// G(i) for a scan that moves one way through the values: from the last values where they hold it,
// else from a block of values read through read, the one that holds i and the values the scan asks
// for next (kValueReadBlock of them; fewer for PointValues, which asks around i).
template <class T>
class ScanValues {
 public:
  enum class Direction { Forward, Backward, Around };
  ScanValues(const LastValues<T>& last, const ValueReader& read, Direction direction,
             std::uint64_t block = kValueReadBlock)
      : last_(last), read_(read), direction_(direction), block_size_(block) {}

  std::int64_t operator()(std::uint64_t i) {
    if (i >= last_.first) return last_(i);
    if (i < block_first_ || i - block_first_ >= block_.size()) load(i);
    return static_cast<std::int64_t>(block_[i - block_first_]);
  }

 private:
  // A scan's blocks start at multiples of their size, as the file's chunks do (kValueReadBlock).
  void load(std::uint64_t i) {
    std::uint64_t from = i / block_size_ * block_size_;
    if (direction_ == Direction::Around) from = i - std::min(i, block_size_ / 2);
    const std::uint64_t to = std::min(from + block_size_, last_.first);
    block_.resize(to - from);
    read_(from, to, block_.data());
    block_first_ = from;
  }

  const LastValues<T>& last_;
  const ValueReader& read_;
  Direction direction_;
  std::uint64_t block_size_;
  std::vector<Value> block_;
  std::uint64_t block_first_ = 0;
};

// G(i) at random, a few at a time: a small block around each, kept while the next ones fall in it.
constexpr std::uint64_t kPointBlock = 256;
template <class T>
struct PointValues : ScanValues<T> {
  PointValues(const LastValues<T>& last, const ValueReader& read)
      : ScanValues<T>(last, read, ScanValues<T>::Direction::Around, kPointBlock) {}
};

// Last n with G(n+p) != G(n) + s, plus one: the preperiod by its definition, the relation being
// known to hold from holds_from on. One backward pass, two positions a step.
template <class T>
std::uint64_t exact_preperiod(const LastValues<T>& last, const ValueReader& read, std::uint64_t p, std::int64_t s,
                              std::uint64_t holds_from) {
  ScanValues<T> low(last, read, ScanValues<T>::Direction::Backward);
  ScanValues<T> high(last, read, ScanValues<T>::Direction::Backward);
  for (std::uint64_t n = holds_from; n-- > 0;)
    if (high(n + p) - low(n) != s) return n + 1;
  return 0;
}

// G(m) - G(m - p), m = n - 1: the saltus of a tail of period p.
template <class T>
std::int64_t saltus_of(const LastValues<T>& last, const ValueReader& read, std::uint64_t p) {
  const std::uint64_t m = last.end() - 1;
  return last(m) - (m - p >= last.first ? last(m - p) : PointValues<T>(last, read)(m - p));
}

// The suffix of D on which the shift p holds, G(n + p) - G(n) being the same for every n in it:
// from the exact preperiod to the end. Its length is that of D's suffix, n - 1 - n0. The relation
// is known to hold from holds_from on (n - p when nothing is known).
template <class T>
Suffix shift_tail(const LastValues<T>& last, const ValueReader& read, std::uint64_t p, std::uint64_t holds_from) {
  const std::uint64_t m = last.end() - 1;
  return {m - exact_preperiod(last, read, p, saltus_of(last, read, p), holds_from), p};
}

}  // namespace sgx::period_search
