// The checks of Debug builds fire: an index past a value set or a sequence, rare positions out of
// order, more values than an answer has bits. Builds with NDEBUG (Release) have no checks, and
// these tests are skipped there.

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "sparse/pair_screen.hpp"
#include "kernels/pair_search.hpp"
#include "sgx/sequence.hpp"
#include "kernels/value_set.hpp"

namespace sgx {
namespace {

#ifndef NDEBUG

class DebugChecks : public ::testing::Test {
 protected:
  // The library starts OpenMP threads: run each death test in a fresh process.
  void SetUp() override { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
};

TEST_F(DebugChecks, ValueSetsHoldOnlyValuesWithinTheirBound) {
  ValueSet bits(64);  // values 0..127
  bits.insert(127);
  EXPECT_TRUE(bits.contains(127));
  EXPECT_DEATH(bits.insert(128), "Assertion");
  EXPECT_DEATH((void)bits.contains(1000), "Assertion");
  ValueMarks bytes(64);  // values 0..127
  bytes.insert(127);
  EXPECT_DEATH(bytes.insert(128), "Assertion");
}

TEST_F(DebugChecks, SequencesAreReadOnlyWhereHeld) {
  const Sequence values = Sequence::from_vector({0, 1, 2});
  EXPECT_EQ(values[2], 2u);
  EXPECT_DEATH((void)values[3], "Assertion");
}

TEST_F(DebugChecks, PairSearchAnswersInBitsOfOneWord) {
  std::vector<std::uint8_t> g(64, 1);
  std::vector<std::uint8_t> wanted(kSearchedValues + 1);
  for (std::size_t i = 0; i < wanted.size(); ++i) wanted[i] = static_cast<std::uint8_t>(i);
  EXPECT_EQ(find_pair_values(g.data(), 63, 1, 31, wanted.data(), kSearchedValues), 1u);  // 1 ^ 1 = 0
  EXPECT_DEATH(find_pair_values(g.data(), 63, 1, 31, wanted.data(), kSearchedValues + 1), "Assertion");
  EXPECT_DEATH(find_pair_values(g.data(), 63, 1, 40, wanted.data(), 1), "Assertion");  // 40 > 63 - 40
}

TEST_F(DebugChecks, ScreenedRarePositionsIncrease) {
  if (!can_screen_pairs()) GTEST_SKIP() << "screening needs AVX-512";
  std::vector<std::uint8_t> g(512, 1);
  ScreenCandidates<std::uint8_t> candidates{};
  std::uint64_t hits[kScreenSlots] = {};
  const std::vector<std::uint64_t> increasing = {3, 5, 9};
  const std::vector<std::uint64_t> unordered = {3, 9, 5};
  const std::vector<Value> rare_values = {1, 1, 1};
  screen_rare_pairs(g.data(), 200, increasing.data(), rare_values.data(), 3, false, kScreenHeaps, candidates, hits);
  EXPECT_EQ(hits[0], ~std::uint64_t{0});  // every pair gives 0, every heap's candidate
  EXPECT_DEATH(screen_rare_pairs(g.data(), 200, unordered.data(), rare_values.data(), 3, false, kScreenHeaps,
                                 candidates, hits),
               "Assertion");
}

#else

TEST(DebugChecks, OffWithNDEBUG) { GTEST_SKIP() << "a build with NDEBUG (Release) has no Debug checks"; }

#endif

}  // namespace
}  // namespace sgx
