// The walks over a value set's missing values (value_set.hpp) against plain loops.

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "kernels/value_set.hpp"

namespace sgx {

namespace {

// for_each_missing_of(pattern, from, limit, f) on random sets and patterns of several words:
// starts at word edges and inside words, limits below, at and past from, and a walk stopped
// early, each against the values a plain loop finds.
TEST(ValueSetWalk, MissingOfPatternFromAValueMatchesAPlainLoop) {
  constexpr std::uint64_t kBound = 300;  // five words
  std::mt19937_64 rng(2026);
  int walked = 0;
  for (int trial = 0; trial < 400; ++trial) {
    ValueSet set(kBound), pattern(kBound);
    for (Value v = 0; v <= kBound; ++v) {
      if (rng() % 3 != 0) set.insert(v);
      if (rng() % 4 != 0) pattern.insert(v);
    }
    for (const Value from : {0u, 1u, 63u, 64u, 65u, 127u, 128u, 200u, 299u, 300u}) {
      const Value limit = static_cast<Value>(rng() % (kBound + 2));
      const int most = 1 + static_cast<int>(rng() % 20);  // stop after this many
      std::vector<Value> expected, walked_values;
      for (Value v = from; v < limit && static_cast<int>(expected.size()) < most; ++v)
        if (!set.contains(v) && pattern.contains(v)) expected.push_back(v);
      set.for_each_missing_of(pattern, from, limit, [&](Value v) {
        walked_values.push_back(v);
        return static_cast<int>(walked_values.size()) < most;
      });
      ASSERT_EQ(walked_values, expected) << "trial " << trial << ", from " << from << ", limit " << limit;
      walked += !expected.empty();
    }
  }
  EXPECT_GT(walked, 1000);  // the walks found values, not only empty ranges
}

}  // namespace

}  // namespace sgx
