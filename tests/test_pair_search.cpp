// The vectorised search for wanted pair values against a plain loop over the pairs.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "pair_search.hpp"

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

TEST(PairSearch, OneByteValuesEqualALoop) { check_random_searches<std::uint8_t>(0xff); }
TEST(PairSearch, TwoByteValuesEqualALoop) { check_random_searches<std::uint16_t>(0x1ff); }
TEST(PairSearch, FourByteValuesEqualALoop) { check_random_searches<std::uint32_t>(0x1ff); }

TEST(PairSearch, EmptyRangeFindsNothing) {
  const std::vector<std::uint8_t> g(100, 0);
  const std::uint8_t wanted[] = {0};
  EXPECT_EQ(find_pair_values(g.data(), 50, 10, 9, wanted, 1), 0u);
  EXPECT_EQ(find_pair_values(g.data(), 50, 1, 25, wanted, 1), 1u);
}

TEST(PairSearch, HitInTheLastPairOfAVectorAndInTheTail) {
  // G(x) ^ G(m - x) is 0 everywhere except one pair; that pair sits at the end of the first
  // 32-pair vector, then in the scalar tail.
  for (std::uint64_t hit : {32u, 33u, 40u}) {
    std::vector<std::uint8_t> g(200, 0);
    const std::uint64_t m = 190;
    g[hit] = 7;
    const std::uint8_t wanted[] = {7, 9};
    EXPECT_EQ(find_pair_values(g.data(), m, 1, 40, wanted, 2), 1u) << hit;
    EXPECT_EQ(find_pair_values(g.data(), m, 1, hit - 1, wanted, 2), 0u) << hit;
  }
}

}  // namespace
}  // namespace sgx
