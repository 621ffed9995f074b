#pragma once
// What the tests of the period analyzer share: sequences from a brute-force generator,
// independent of the engine (plain mex over every move), a naive period search to compare with, and
// sequences with a planted period.

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "sgx/period.hpp"
#include "sgx/report.hpp"
#include "sgx/rules.hpp"
#include "sgx/sequence.hpp"

namespace period_test {


using sgx::analyze_period;
using sgx::parse_rules;
using sgx::PeriodResult;
using sgx::Rules;
using sgx::Sequence;
using sgx::Value;

// Marks the value of every option of a heap of n and returns their mex. g holds G(0..n-1).
// seen must have room for every option value (values below a power of two XOR below it).
inline Value mex_of_options(const Rules& rules, const std::vector<Value>& g, std::uint64_t n, std::vector<char>& seen) {
  auto mark = [&seen](Value v) {
    if (v < seen.size()) seen[v] = 1;
  };
  const std::uint64_t last_take = rules.has_tail() ? n : std::min<std::uint64_t>(n, rules.largest_take());
  for (std::uint64_t k = 0; k <= last_take; ++k) {
    const sgx::Digit d = rules.digit(k);
    const std::uint64_t rest = n - k;
    if (k >= 1 && rest == 0 && (d.bits & sgx::kLeaveNone)) mark(0);
    if (k >= 1 && rest > 0 && (d.bits & sgx::kLeaveOne)) mark(g[rest]);
    if (d.bits & sgx::kLeaveTwo)
      for (std::uint64_t a = 1; 2 * a <= rest; ++a)
        if (!(d.unequal && 2 * a == rest)) mark(g[a] ^ g[rest - a]);
    if (d.bits & sgx::kLeaveThree)
      for (std::uint64_t a = 1; 3 * a <= rest; ++a)
        for (std::uint64_t b = a; a + 2 * b <= rest; ++b) {
          const std::uint64_t c = rest - a - b;
          if (!(d.unequal && (a == b || b == c))) mark(g[a] ^ g[b] ^ g[c]);
        }
  }
  Value v = 0;
  while (seen[v]) ++v;
  return v;
}

// G(0..count-1) by mex over all moves; quadratic (cubic with three-heap splits), for small counts.
inline std::vector<Value> brute_force(const Rules& rules, std::uint64_t count) {
  std::vector<Value> g;
  std::vector<char> seen;
  Value bound = 1;  // a power of two above every value so far, so above every XOR of them
  for (std::uint64_t n = 0; n < count; ++n) {
    seen.assign(bound + 1, 0);
    const Value v = mex_of_options(rules, g, n, seen);
    g.push_back(v);
    while (bound <= v) bound *= 2;
  }
  return g;
}

inline std::vector<Value> brute_force(const std::string& code, std::uint64_t count) {
  return brute_force(parse_rules(code), count);
}

inline PeriodResult analyze(const std::vector<Value>& g, const std::string& code) {
  return analyze_period(Sequence::from_vector(g), parse_rules(code));
}

inline std::vector<Value> prefix(const std::vector<Value>& g, std::size_t count) {
  return {g.begin(), g.begin() + static_cast<std::ptrdiff_t>(count)};
}

// Period and preperiod by the obvious search over candidate periods (no prefix function): the
// smallest p whose exact preperiod leaves at least 3p values and half the sequence periodic.
struct Naive {
  std::uint64_t period = 0;
  std::uint64_t preperiod = 0;
};

inline Naive naive_period(const std::vector<Value>& g) {
  const std::uint64_t n = g.size();
  for (std::uint64_t p = 1; 4 * p <= n; ++p) {
    std::uint64_t n0 = 0;
    for (std::uint64_t i = n - p; i-- > 0;)
      if (g[i + p] != g[i]) {
        n0 = i + 1;
        break;
      }
    if (n - n0 >= 3 * p && 2 * (n - n0) >= n) return {p, n0};
  }
  return {};
}

// The n < n0 whose value differs from the tail's value in the same residue class mod p.
inline std::vector<std::uint64_t> tail_misfits(const std::vector<Value>& g, std::uint64_t p, std::uint64_t n0) {
  std::vector<std::uint64_t> out;
  for (std::uint64_t n = 0; n < n0; ++n) {
    const std::uint64_t in_tail = n0 + (p - (n0 - n) % p) % p;
    if (g[n] != g[in_tail]) out.push_back(n);
  }
  return out;
}


struct Planted {
  std::vector<Value> values;
  std::uint64_t period;
  std::uint64_t preperiod;
};

// A random prefix, then a block of length p repeated (plus saltus per repetition); values stay
// below limit except for the saltus, so limit picks the storage width. The block holds one value
// found nowhere else in it, so p is its least period; the last prefix value breaks the period, so
// the preperiod is exact.
inline Planted plant(std::mt19937_64& rng, std::uint64_t n0, std::uint64_t p, std::uint64_t n, Value limit, Value saltus) {
  std::uniform_int_distribution<Value> any(0, limit - 1);
  std::vector<Value> block(p);
  for (auto& v : block) v = any(rng) % (limit - 1);
  block[0] = limit - 1;
  std::vector<Value> g(n);
  for (std::uint64_t i = n0; i < n; ++i)
    g[i] = block[(i - n0) % p] + saltus * static_cast<Value>((i - n0) / p);
  for (std::uint64_t i = 0; i < n0; ++i) g[i] = any(rng);
  if (n0 > 0 && g[n0 - 1] + saltus == g[n0 - 1 + p]) g[n0 - 1] = g[n0 - 1] == 0 ? 1 : g[n0 - 1] - 1;
  return {g, p, n0};
}


}  // namespace period_test
