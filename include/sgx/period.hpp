#pragma once
// Eventual (arithmetic) periodicity of a nim-sequence, and its proof where a theorem allows.
//
// Detection is exact and O(N): the first differences D(n) = G(n+1) - G(n) are periodic from n0
// with period p exactly when G(n + p) = G(n) + s for n >= n0, s being the sum of D over one
// period (the saltus; 0 for ordinary periodicity). The least period of every suffix of the last
// differences comes from one prefix-function pass over them reversed; periods longer than half of
// them from a rolling hash of the last differences streamed over the values before, each candidate
// confirmed by comparing the values (period.cpp, period_long.hpp).
//
// Proofs (docs/THEORY.md section 3), named in PeriodResult::applicable_theorem (and in theorem
// once proven), each needing the values G(0 .. B-1) with n0' = max(n0, 1) and t the largest take:
//   "guy-smith"           finite octal code, splits into at most two heaps, no '!':
//                         B = 2 n0' + 2p + t
//   "guy-smith-k-heap"    finite code leaving up to k heaps, no '!': B = k n0' + k p + t
//   "subtraction-window"  no splits at all (subtraction-like codes): B = n0' + p + t
//   ""                    no theorem applies (unequal splits, repeating tails): never proven

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "sgx/rules.hpp"
#include "sgx/sequence.hpp"

namespace sgx {

struct PeriodResult {
  bool found = false;          // a periodic tail with enough repetitions to be worth reporting
  std::uint64_t preperiod = 0; // n0: last exception + 1
  std::uint64_t period = 0;    // p
  std::int64_t saltus = 0;     // s: G(n + p) = G(n) + s for n >= n0
  bool proven = false;
  // The theorem that proved the period: "" unless proven, so that no report names a theorem for
  // a period it did not prove.
  std::string theorem;
  // The theorem that applies to this game ("" if none), whether or not it has proven anything yet.
  std::string applicable_theorem;
  // Values a proof needs (G(0..proof_needs_n-1)); 0 when no theorem applies to the game or to
  // the period seen (one with a saltus: the theorems prove ordinary periods only).
  std::uint64_t proof_needs_n = 0;
  std::vector<std::uint64_t> exceptions;  // n < n0 with G(n) != G(n + p) + ... (see period.cpp)
  std::uint64_t checked_n = 0;  // how many values the analysis looked at

  friend bool operator==(const PeriodResult&, const PeriodResult&) = default;
};

// How many of the last differences the prefix-function pass compares at most. Their borders take
// up to 4 bytes each (16 MiB, for a periodic window; a few without a period), and so does each of
// the values it reads from a file rather than memory (see analyze_period). Periods up to half of
// it are found by that pass; longer ones by a search over the values before it that holds a few
// blocks of values at a time (period_long.hpp), so that a period of any length is found in a few
// tens of megabytes besides the values. Less under run_octal --memory, never below
// kMinPeriodWindow (the longer search looks for the last half window's differences again).
inline constexpr std::uint64_t kPeriodWindow = std::uint64_t{1} << 22;
inline constexpr std::uint64_t kMinPeriodWindow = 128;

// How many of the last values an analysis of n values with this window reads at random (window + 1
// within its bounds, at most n): what a caller that hands it a copy of the last values must copy.
std::uint64_t period_window_values(std::uint64_t n, std::uint64_t window);

// Whether an analysis searches the values before its window for periods longer than half of it.
// Skipped only by a look that must not read those values (Engine's look beside the kernels).
enum class LongPeriods { Searched, Skipped };

// Analyses G(0..values.size()-1) of the game with these rules: every eventual period the values
// show (at least two full periods after the preperiod, or one that a theorem proves), the least of
// the longest tail, whatever its length. window only trades memory for time (tests pass a small one
// to cross the two searches' border). The values are read where they are, never copied; a sequence
// with a released middle is refused (std::logic_error): see below.
PeriodResult analyze_period(const Sequence& values, const Rules& rules, std::uint64_t window = kPeriodWindow);

// The same analysis, for values that are not all in memory. It reads the last window + 1 values
// at random and every value a few times in order, a block of 2^18 at a time, so that it holds
// neither the whole sequence nor a second copy of it.
// The values it does not hold come through a ValueReader (sequence.hpp).
// A bounded run's values (run_octal --memory): those held from memory, the released middle through
// read_released. The last values are read from memory when it holds them, as it does in a run.
PeriodResult analyze_period(const Sequence& values, const ValueReader& read_released, const Rules& rules,
                            std::uint64_t window = kPeriodWindow);
// G(0..n-1) read through read alone (a run file): the last window + 1 values once into a buffer
// of 4 bytes each, the rest in blocks.
PeriodResult analyze_period(std::uint64_t n, const ValueReader& read, const Rules& rules,
                            std::uint64_t window = kPeriodWindow, LongPeriods long_periods = LongPeriods::Searched);

// The additive period of values that are not a heap game's sequence (a row of a two-dimensional
// table, say), found by repetition alone: criterion 2 of period.cpp, a tail of two full periods plus
// one value, covering a quarter of the values and showing at least 16 relations G(n + p) = G(n) + s.
// Any saltus is allowed; no theorem applies, so the result is never proven. Indices are positions
// in values (preperiod 0 is values[0]).
PeriodResult find_additive_period(std::span<const std::uint8_t> values);
PeriodResult find_additive_period(std::span<const std::uint16_t> values);
PeriodResult find_additive_period(std::span<const std::uint32_t> values);

// The theorem that could prove a period of this game ("" if none), and the number of values it
// needs for a period p with preperiod n0 (0 if none).
std::string proof_theorem(const Rules& rules);
std::uint64_t proof_length(const Rules& rules, std::uint64_t preperiod, std::uint64_t period);

// Computing until proven: having analysed done values, how many to have before looking again.
// What the proof of a period seen needs, when that is more than done; else twice done; at most
// cap. 0 when there is nothing more to look for: the period is proven, no theorem applies to the
// game (it could never be), or done has reached cap. Each look is one O(n) pass over the values:
// the doublings together cost about two passes over the last size, and each period seen adds one.
std::uint64_t next_proof_target(const PeriodResult& period, std::uint64_t done, std::uint64_t cap);

// What a run that computes until proven waits for, for its status line: "period 4 seen from
// 2268248; the proof needs 4536507 values" or "no period seen in 1048576 values".
std::string proof_wait_text(const PeriodResult& period);

}  // namespace sgx
