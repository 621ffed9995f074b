// Marking a group's pairs as bits (pair_bits.hpp) against a plain loop.

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "sparse/pair_bits.hpp"

namespace sgx {

namespace {

// Random lists of pairs with full groups (64 heaps) and short ones, some pairs skipping a heap,
// each word of values in turn (values below 64 alone, or any byte, of which the word takes its
// 64). The partners of a short group end where their allocation ends, so that a read past the
// group's last heap would be caught by the address sanitizer. bits starts with bits set that must
// stay, in words past the group's heaps too, which must not change.
TEST(PairBits, MarksEveryPairsValueButTheSkippedOnes) {
  if (!can_mark_pair_bits()) GTEST_SKIP() << "marking pairs as bits needs AVX-512";
  std::mt19937_64 rng(2026);
  int skipped = 0;
  for (int trial = 0; trial < 800; ++trial) {
    const unsigned word = trial % 4;
    const unsigned values = trial % 8 == 0 ? 64 : 256;
    const std::uint64_t heaps = trial % 3 == 2 ? 1 + rng() % (kBitHeaps - 1) : kBitHeaps;
    const std::uint64_t count = rng() % 200;
    std::vector<std::unique_ptr<std::uint8_t[]>> partners;
    std::vector<GroupPair> pairs;
    for (std::uint64_t i = 0; i < count; ++i) {
      partners.push_back(std::make_unique<std::uint8_t[]>(heaps));
      for (std::uint64_t j = 0; j < heaps; ++j) partners.back()[j] = static_cast<std::uint8_t>(rng() % values);
      const auto skip = static_cast<std::uint8_t>(rng() % 4 == 0 ? rng() % heaps : kBitHeaps);
      skipped += skip < kBitHeaps;
      pairs.push_back(GroupPair{partners.back().get(), static_cast<std::uint8_t>(rng() % values), skip});
    }
    std::uint64_t bits[kBitHeaps], expected[kBitHeaps];
    for (int j = 0; j < kBitHeaps; ++j) bits[j] = expected[j] = rng() & rng() & rng();
    for (const GroupPair& pair : pairs)
      for (std::uint64_t j = 0; j < heaps; ++j)
        if (const unsigned v = pair.part ^ pair.partners[j]; j != pair.skip && v / 64 == word)
          expected[j] |= std::uint64_t{1} << (v % 64);

    mark_pair_bits(pairs, heaps, bits, word);
    for (int j = 0; j < kBitHeaps; ++j)
      ASSERT_EQ(bits[j], expected[j]) << "heap " << j << " of " << heaps << ", " << count << " pairs, word " << word;
  }
  EXPECT_GT(skipped, 2000);
}

}  // namespace

}  // namespace sgx
