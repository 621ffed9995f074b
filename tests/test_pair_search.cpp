// The vectorised search for wanted pair values against a plain loop over the pairs.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <ostream>
#include <random>
#include <vector>

#include "kernels/pair_search.hpp"
#include "kernels/value_set.hpp"
#include "kernels/vector_path.hpp"

namespace sgx {

namespace {

template <class T>
std::uint32_t found_by_loop(const std::vector<T>& g, std::uint64_t m, std::uint64_t from, std::uint64_t to,
                            const T* wanted, int count) {
  std::uint32_t found = 0;
  for (std::uint64_t x = from; x <= to; ++x)
    for (int i = 0; i < count; ++i)
      if (static_cast<T>(g[x] ^ g[m - x]) == wanted[i]) found |= 1u << i;
  return found;
}

template <class T>
void check_random_searches(std::uint32_t value_mask) {
  std::mt19937_64 rng(12345 + sizeof(T));
  std::vector<T> g(3000);
  for (T& v : g) v = static_cast<T>(rng() & value_mask);
  int with_hits = 0, without = 0;
  for (int trial = 0; trial < 4000; ++trial) {
    const std::uint64_t m = 2 + rng() % (g.size() - 2);
    const std::uint64_t from = 1 + rng() % (m / 2);
    const std::uint64_t to = std::min<std::uint64_t>(m / 2, from + rng() % 200);  // often shorter than a vector
    const int count = 1 + static_cast<int>(rng() % kSearchedValues);
    std::vector<T> wanted;
    while (static_cast<int>(wanted.size()) < count) {
      const T v = static_cast<T>(rng() & value_mask);
      if (std::find(wanted.begin(), wanted.end(), v) == wanted.end()) wanted.push_back(v);
    }
    const std::uint32_t expected = found_by_loop(g, m, from, to, wanted.data(), count);
    ASSERT_EQ(find_pair_values(g.data(), m, from, to, wanted.data(), count), expected)
        << "m " << m << " from " << from << " to " << to << " count " << count;
    (expected != 0 ? with_hits : without) += 1;
  }
  // Both outcomes were exercised, with every value found as well as none.
  EXPECT_GT(with_hits, 400);
  EXPECT_GT(without, 400);
}

// Each test runs under every version of the search this processor has, each limited to it.
class PairSearchUnder : public ::testing::TestWithParam<VectorPath> {
 protected:
  void SetUp() override {
    if (GetParam() > best_vector_path())
      GTEST_SKIP() << "this processor lacks the instructions of " << ::testing::PrintToString(GetParam());
    limit_vector_path(GetParam());
  }
  void TearDown() override { limit_vector_path(VectorPath::Avx512); }
};

INSTANTIATE_TEST_SUITE_P(PairSearch, PairSearchUnder,
                         ::testing::Values(VectorPath::Portable, VectorPath::Avx2, VectorPath::Avx512),
                         [](const ::testing::TestParamInfo<VectorPath>& instance) {
                           return ::testing::PrintToString(instance.param);
                         });

TEST_P(PairSearchUnder, OneByteValuesEqualALoop) { check_random_searches<std::uint8_t>(0xff); }
TEST_P(PairSearchUnder, TwoByteValuesEqualALoop) { check_random_searches<std::uint16_t>(0x1ff); }
TEST_P(PairSearchUnder, FourByteValuesEqualALoop) { check_random_searches<std::uint32_t>(0x1ff); }

TEST_P(PairSearchUnder, EmptyRangeFindsNothing) {
  const std::vector<std::uint8_t> g(100, 0);
  const std::uint8_t wanted[] = {0};
  EXPECT_EQ(find_pair_values(g.data(), 50, 10, 9, wanted, 1), 0u);
  EXPECT_EQ(find_pair_values(g.data(), 50, 1, 25, wanted, 1), 1u);
}

template <class T>
void check_hits_at_vector_edges() {
  // G(x) ^ G(m - x) is 0 everywhere except one pair, which sits at the end of a vector of 16, 32
  // or 64 pairs (from x = 1), at the start of the next, or past the last whole vector.
  for (std::uint64_t hit : {16u, 17u, 32u, 33u, 40u, 64u, 65u, 72u, 80u}) {
    std::vector<T> g(200, 0);
    const std::uint64_t m = 190;
    g[hit] = 7;
    const T wanted[] = {7, 9};
    EXPECT_EQ(find_pair_values(g.data(), m, 1, 80, wanted, 2), 1u) << hit;
    EXPECT_EQ(find_pair_values(g.data(), m, hit, hit, wanted, 2), 1u) << hit;
    EXPECT_EQ(find_pair_values(g.data(), m, 1, hit - 1, wanted, 2), 0u) << hit;
  }
}

TEST_P(PairSearchUnder, HitInTheLastPairOfAVectorAndInTheTail) {
  check_hits_at_vector_edges<std::uint8_t>();
  check_hits_at_vector_edges<std::uint16_t>();
}

template <class T>
void check_pairs_past_the_range_are_not_read() {
  // Every pair in [1, 40] is 1 and every pair past it 0: a search for 0 that read lanes past the
  // end of its range would find it.
  std::vector<T> g(200, 0);
  const std::uint64_t m = 190;
  for (std::uint64_t x = 1; x <= 40; ++x) g[x] = 1;
  const T wanted[] = {0};
  for (std::uint64_t from = 1; from <= 40; ++from)
    for (std::uint64_t to = from; to <= 40; ++to)
      ASSERT_EQ(find_pair_values(g.data(), m, from, to, wanted, 1), 0u) << from << ' ' << to;
  EXPECT_EQ(find_pair_values(g.data(), m, 1, 41, wanted, 1), 1u);
}

TEST_P(PairSearchUnder, PairsPastTheRangeAreNotRead) {
  check_pairs_past_the_range_are_not_read<std::uint8_t>();
  check_pairs_past_the_range_are_not_read<std::uint16_t>();
}

// take_pair_values and take_xor_values against a loop: the wanted set ends as the wanted values
// no pair in the range gives, found gains exactly the others, and the count left agrees. Wanted
// values lie in [wanted_from, wanted_below) (pairs' values may lie anywhere below value_bound); a
// third of the trials want hundreds. With AVX-512, one-byte values and wanted values spanning
// under 1024 or 2048 take the lookup (values outside the span in g must be passed over, those
// below it as well as those above), others the compares.
template <class T>
void check_random_takes(std::uint64_t value_bound, std::uint64_t wanted_below, std::uint64_t wanted_from = 0) {
  std::mt19937_64 rng(777 + sizeof(T) + value_bound + wanted_below + wanted_from);
  std::vector<T> g(5000);
  for (T& v : g) v = static_cast<T>(rng() % value_bound);
  int emptied = 0, partly = 0;
  for (int trial = 0; trial < 1500; ++trial) {
    const std::uint64_t m = 2 + rng() % (g.size() - 2);
    const std::uint64_t from = 1 + rng() % (m / 2);
    const std::uint64_t to = std::min<std::uint64_t>(m / 2, from + rng() % 1500);
    ValueSet wanted(value_bound), found(value_bound);
    const int count = 1 + static_cast<int>(rng() % (trial % 3 == 0 ? 400 : 40));
    const bool all_in_range = trial % 2 == 0;  // then every wanted value occurs: the set empties
    for (int i = 0; i < count; ++i) {
      const std::uint64_t x = from + rng() % (to - from + 1);
      const auto pair_value = static_cast<Value>(g[x] ^ g[m - x]);
      const bool from_pair =
          pair_value >= wanted_from && pair_value < wanted_below && (all_in_range || rng() % 2);
      wanted.insert(from_pair ? pair_value : static_cast<Value>(wanted_from + rng() % (wanted_below - wanted_from)));
    }
    if (all_in_range) {  // only values a pair gives
      ValueSet given(value_bound);
      for (std::uint64_t x = from; x <= to; ++x) given.insert(static_cast<Value>(g[x] ^ g[m - x]));
      for (Value v = 0; v < value_bound; ++v)
        if (!given.contains(v)) wanted.erase(v);
    }
    found.insert(static_cast<Value>(rng() % value_bound));  // found keeps what it had
    std::uint64_t left = 0;
    wanted.for_each([&](Value) { return ++left, true; });
    ValueSet expected_wanted(value_bound), expected_found(value_bound);
    expected_wanted.assign(wanted);
    expected_found.assign(found);
    for (std::uint64_t x = from; x <= to; ++x) {
      const auto v = static_cast<Value>(g[x] ^ g[m - x]);
      if (expected_wanted.contains(v)) {
        expected_wanted.erase(v);
        expected_found.insert(v);
      }
    }
    std::uint64_t expected_left = 0;
    expected_wanted.for_each([&](Value) { return ++expected_left, true; });
    // take_xor_values, on the same pairs with the partners in an array of their own.
    std::vector<T> partners(to - from + 1);
    for (std::uint64_t x = from; x <= to; ++x) partners[x - from] = g[m - x];
    ValueSet xor_wanted(value_bound), xor_found(value_bound);
    xor_wanted.assign(wanted);
    xor_found.assign(found);
    ASSERT_EQ(take_pair_values(g.data(), m, from, to, wanted, found, left), expected_left)
        << "m " << m << " from " << from << " to " << to;
    ASSERT_EQ(take_xor_values(g.data() + from, partners.data(), partners.size(), xor_wanted, xor_found, left),
              expected_left)
        << "m " << m << " from " << from << " to " << to;
    for (Value v = 0; v < value_bound; ++v) {
      ASSERT_EQ(wanted.contains(v), expected_wanted.contains(v)) << v;
      ASSERT_EQ(found.contains(v), expected_found.contains(v)) << v;
      ASSERT_EQ(xor_wanted.contains(v), expected_wanted.contains(v)) << v;
      ASSERT_EQ(xor_found.contains(v), expected_found.contains(v)) << v;
    }
    (expected_left == 0 ? emptied : partly) += 1;
  }
  EXPECT_GT(emptied, 100);
  EXPECT_GT(partly, 100);
}

TEST_P(PairSearchUnder, TakeOneByteValuesEqualsALoop) { check_random_takes<std::uint8_t>(256, 256); }
TEST_P(PairSearchUnder, TakeTwoByteValuesEqualsALoop) {
  check_random_takes<std::uint16_t>(1024, 1024);
  check_random_takes<std::uint16_t>(2048, 2048);
  check_random_takes<std::uint16_t>(4096, 1024);
  check_random_takes<std::uint16_t>(8192, 2048);
  check_random_takes<std::uint16_t>(4096, 4096);
  check_random_takes<std::uint16_t>(8192, 4000, 3000);    // a window of two registers, from 2944
  check_random_takes<std::uint16_t>(8192, 7000, 5000);    // four registers, from 4992
  check_random_takes<std::uint16_t>(65536, 64000, 62100);  // pairs' values below it wrap round
  check_random_takes<std::uint16_t>(8192, 8000, 5000);    // too wide for the lookup
}
TEST_P(PairSearchUnder, TakeFourByteValuesEqualsALoop) { check_random_takes<std::uint32_t>(1024, 1024); }

// find_xor_values against a loop, with holes (lanes that are no pair) among the lanes and every
// length from none to a few vectors, so that whole vectors, the last lanes and lanes before the
// first whole vector are all exercised.
template <class T>
void check_random_xor_searches(std::uint32_t value_mask) {
  std::mt19937_64 rng(777 + sizeof(T));
  constexpr T kHole = static_cast<T>(~T{0});
  int with_hits = 0, without = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const std::uint64_t lanes = rng() % 300;
    std::vector<T> parts(lanes), partners(lanes), holes(lanes);
    for (std::uint64_t x = 0; x < lanes; ++x) {
      parts[x] = static_cast<T>(rng() & value_mask);
      partners[x] = static_cast<T>(rng() & value_mask);
      holes[x] = rng() % 4 == 0 ? T{0} : kHole;  // a quarter of the lanes are pairs
    }
    const int count = 1 + static_cast<int>(rng() % 8);
    std::vector<T> wanted;
    while (static_cast<int>(wanted.size()) < count) {
      const T v = static_cast<T>(rng() & value_mask);
      if (v != kHole && std::find(wanted.begin(), wanted.end(), v) == wanted.end()) wanted.push_back(v);
    }
    std::uint32_t expected = 0;
    for (std::uint64_t x = 0; x < lanes; ++x)
      for (int i = 0; i < count; ++i)
        if (holes[x] == 0 && static_cast<T>(parts[x] ^ partners[x]) == wanted[i]) expected |= 1u << i;
    ASSERT_EQ(find_xor_values(parts.data(), partners.data(), holes.data(), lanes, wanted.data(), count), expected)
        << "lanes " << lanes << " count " << count;
    (expected != 0 ? with_hits : without) += 1;
  }
  EXPECT_GT(with_hits, 300);
  EXPECT_GT(without, 300);
}

TEST_P(PairSearchUnder, XorOfOneByteLanesEqualsALoop) { check_random_xor_searches<std::uint8_t>(0x3f); }
TEST_P(PairSearchUnder, XorOfTwoByteLanesEqualsALoop) { check_random_xor_searches<std::uint16_t>(0x7f); }
TEST_P(PairSearchUnder, XorOfFourByteLanesEqualsALoop) { check_random_xor_searches<std::uint32_t>(0x7f); }

TEST(ValueSetTest, FirstMissingOutsideLooksOnlyBelowTheLimitAndOutsideThePattern) {
  ValueSet set(256), pattern(256);
  for (Value v = 0; v < 256; v += 2) pattern.insert(v);  // the even values are not asked about
  for (Value v = 1; v < 200; v += 2) set.insert(v);
  EXPECT_EQ(set.first_missing_outside(pattern, 200), 200u);
  EXPECT_EQ(set.first_missing_outside(pattern, 256), 201u);
  set.erase(63);
  EXPECT_EQ(set.first_missing_outside(pattern, 256), 63u);
  EXPECT_EQ(set.first_missing_outside(pattern, 64), 63u);
  EXPECT_EQ(set.first_missing_outside(pattern, 63), 63u);
  EXPECT_EQ(set.first_missing_outside(pattern, 0), 0u);
  set.erase(1);
  EXPECT_EQ(set.first_missing_outside(pattern, 256), 1u);
}

}  // namespace
}  // namespace sgx
