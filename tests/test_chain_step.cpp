// The pipeline chain's step (chain_step.hpp) against a plain loop over the same options.

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <random>
#include <vector>

#include "sparse/chain_step.hpp"

namespace sgx {

namespace {

// Random runs of up to 64 heaps, values below value_bound (a power of two, so that no option's
// value is the largest T, which marks a hole and is never a candidate): one to four splits with
// takes up to 70 (past the values held in registers, 128 bytes or 64 16-bit values, for some), up
// to three moves to one heap, random near rare positions, and candidates that a near option often
// gives, so that runs stop early as well.
// Each heap the step decides must take the first candidate no option gives, read from the values
// the steps before it wrote; the speculated bits and where it stops must match.
template <class T>
void check_random_runs(Value value_bound) {
  std::mt19937_64 rng(777 + sizeof(T));
  int decided = 0, stopped_early = 0, speculated_heaps = 0;
  for (int trial = 0; trial < 600; ++trial) {
    std::vector<std::uint64_t> takes;
    const std::size_t split_count = 1 + rng() % kInOrderSplits;
    for (std::size_t s = 0; s < split_count; ++s) takes.push_back(rng() % 4 == 0 ? 60 + rng() % 11 : rng() % 5);
    std::sort(takes.begin(), takes.end());
    takes.erase(std::unique(takes.begin(), takes.end()), takes.end());
    std::vector<std::uint64_t> leave_one;
    const std::uint64_t moves_to_one = rng() % 4;
    for (std::uint64_t k = 1 + rng() % 3; leave_one.size() < moves_to_one; k += 1 + rng() % 3) leave_one.push_back(k);
    std::vector<T> parts(kChainLanes), holes(kChainLanes, static_cast<T>(~T{0}));
    for (std::uint64_t j = 0; j < kChainLanes; ++j)
      if (rng() % 5 == 0) {
        parts[j] = static_cast<T>(rng() % value_bound);
        holes[j] = 0;
      }
    std::vector<SplitMove> splits;
    for (std::uint64_t take : takes) splits.push_back(SplitMove{take, true});
    const NearOptions<T> options{parts.data(),   holes.data(),     kChainLanes,     splits.data(),
                                 splits.size(),  leave_one.data(), leave_one.size()};
    if (!can_chain_decide(options)) GTEST_SKIP() << "the chain's step needs AVX-512";

    const std::uint64_t from = 1000 + rng() % 500, to = from + 1 + rng() % 64;
    std::vector<T> g(to + 10), expected_g;
    for (std::uint64_t n = 0; n < from; ++n) g[n] = static_cast<T>(rng() % value_bound);
    expected_g = g;
    // The options' values, from a plain loop over what the heap reads.
    auto options_of = [&](const std::vector<T>& values, std::uint64_t n) {
      std::vector<Value> given;
      for (std::uint64_t take : takes)
        for (std::uint64_t j = 0; j < kChainLanes; ++j)
          if (holes[j] == 0) given.push_back(parts[j] ^ values[n - take - kChainLanes + j]);
      for (std::uint64_t k : leave_one) given.push_back(values[n - k]);
      return given;
    };
    std::vector<HeapCandidates> candidates(to - from);
    std::uint64_t expected_stop = to, expected_speculated = 0;
    for (std::uint64_t n = from; n < to; ++n) {
      const std::vector<Value> given = options_of(expected_g, n);
      HeapCandidates& listed = candidates[n - from];
      // A heap with no candidate now and then: the chain stops there.
      listed.count = rng() % 128 == 0 ? 0 : static_cast<std::uint8_t>(1 + rng() % tuning::kScreenSlots);
      for (int k = 0; k < listed.count; ++k)  // half of them given by an option
        listed.values[k] = rng() % 2 == 0 ? given[rng() % given.size()] : static_cast<Value>(rng() % value_bound);
      listed.unsure = static_cast<std::uint16_t>(rng());
      int chosen = -1;
      for (int k = 0; k < listed.count && chosen < 0; ++k)
        if (std::find(given.begin(), given.end(), listed.values[k]) == given.end()) chosen = k;
      if (chosen < 0) {
        expected_stop = n;
        break;
      }
      expected_g[n] = static_cast<T>(listed.values[chosen]);
      if ((listed.unsure >> chosen) & 1) expected_speculated |= std::uint64_t{1} << (n - from);
    }

    // The chain's copies of the first two candidates, as the pipeline's last band writes them.
    std::vector<CandidateCopy> firsts(to - from), seconds(to - from);
    for (std::uint64_t i = 0; i < to - from; ++i) {
      firsts[i] = copy_of_candidate(candidates[i], 0);
      seconds[i] = copy_of_candidate(candidates[i], 1);
    }
    std::uint64_t speculated = 0;
    const std::uint64_t stop =
        chain_decide(g.data(), from, to, candidates.data(), {firsts.data(), seconds.data()}, options, speculated);
    ASSERT_EQ(stop, expected_stop) << "trial " << trial;
    ASSERT_EQ(speculated, expected_speculated) << "trial " << trial;
    for (std::uint64_t n = from; n < stop; ++n) ASSERT_EQ(g[n], expected_g[n]) << "trial " << trial << " heap " << n;
    decided += static_cast<int>(stop - from);
    stopped_early += stop < to;
    speculated_heaps += std::popcount(speculated);
  }
  // The runs must have exercised both ends: heaps decided, runs cut short, values taken unsure.
  EXPECT_GT(decided, 1000);
  EXPECT_GT(stopped_early, 50);
  EXPECT_GT(speculated_heaps, 200);
}

TEST(ChainStep, ByteValuesAsAPlainLoop) { check_random_runs<std::uint8_t>(128); }
TEST(ChainStep, TwoByteValuesAsAPlainLoop) { check_random_runs<std::uint16_t>(512); }

}  // namespace

}  // namespace sgx
