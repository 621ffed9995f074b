// Sparse-space statistics against brute force: rare counts for every mask (Walsh-Hadamard),
// the best mask, and the one-pass summary of a sequence; and Grundy's game's published mask.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <map>
#include <random>
#include <vector>

#include "sgx/engine.hpp"
#include "sgx/rules.hpp"
#include "sgx/sequence.hpp"
#include "sgx/stats.hpp"

namespace sgx {
namespace {

bool brute_is_rare(std::uint64_t value, std::uint64_t mask) { return std::popcount(value & mask) % 2 == 0; }

std::uint64_t brute_rare_count(const std::vector<std::uint64_t>& histogram, std::uint64_t mask) {
  std::uint64_t count = 0;
  for (std::uint64_t v = 0; v < histogram.size(); ++v)
    if (brute_is_rare(v, mask)) count += histogram[v];
  return count;
}

// compute_stats done the slow, obvious way. Masks range over [1, bit_ceil(max + 1)): bits above the
// largest value change nothing.
SparseStats brute_stats(const std::vector<Value>& values) {
  SparseStats s;
  std::map<Value, std::uint64_t> counts;
  for (std::uint64_t n = 0; n < values.size(); ++n) {
    ++counts[values[n]];
    if (values[n] > s.max_value) {
      s.max_value = values[n];
      s.max_at = n;
    }
  }
  if (values.empty()) return s;
  const std::uint64_t masks = std::bit_ceil(std::uint64_t{s.max_value} + 1);
  s.rare_count = values.size();  // mask 0: every value is rare
  for (std::uint64_t mask = 1; mask < masks; ++mask) {
    std::uint64_t rare = 0;
    for (const auto& [v, c] : counts)
      if (brute_is_rare(v, mask)) rare += c;
    if (s.rare_mask.values == 0 || rare < s.rare_count) {
      s.rare_mask.values = mask;
      s.rare_count = rare;
    }
  }
  for (std::uint64_t n = 0; n < values.size(); ++n)
    if (brute_is_rare(values[n], s.rare_mask.values)) s.last_rare = static_cast<std::int64_t>(n);
  return s;
}

void expect_stats_match(const std::vector<Value>& values, const SparseStats& got) {
  const SparseStats want = brute_stats(values);
  EXPECT_EQ(got.max_value, want.max_value);
  EXPECT_EQ(got.max_at, want.max_at);
  EXPECT_EQ(got.rare_mask, want.rare_mask);
  EXPECT_EQ(got.rare_count, want.rare_count);
  EXPECT_EQ(got.last_rare, want.last_rare);
  // histogram[v] counts the positions with value v; any entries past the largest value are 0.
  if (values.empty()) return;
  ASSERT_GT(got.histogram.size(), want.max_value);
  std::vector<std::uint64_t> histogram(got.histogram.size(), 0);
  for (Value v : values) ++histogram[v];
  EXPECT_EQ(got.histogram, histogram);
}

TEST(StatsRare, IsRareMeansEvenParityUnderTheMask) {
  EXPECT_TRUE(is_rare(0, 0, RareMask{0xfe}));
  EXPECT_TRUE(is_rare(1, 0, RareMask{0xfe}));
  EXPECT_FALSE(is_rare(2, 0, RareMask{0xfe}));
  EXPECT_FALSE(is_rare(3, 0, RareMask{0xfe}));
  EXPECT_TRUE(is_rare(6, 0, RareMask{0xfe}));
  EXPECT_TRUE(is_rare(7, 0, RareMask{0xfe}));
  EXPECT_FALSE(is_rare(0x100, 0, RareMask{0x1ee}));
  EXPECT_TRUE(is_rare(0x11, 0, RareMask{0x1ee}));  // 0x11 & 0x1ee == 0
  EXPECT_FALSE(is_rare(0x30, 0, RareMask{0x1ee}));
  EXPECT_TRUE(is_rare(0xFFFFFFFFu, 0, RareMask{0}));
  EXPECT_TRUE(is_rare(0xFFFFFFFFu, 0, RareMask{0x1FFFFFFFFull}));   // 32 bits in common: even
  EXPECT_FALSE(is_rare(0xFFFFFFFFu, 0, RareMask{0x17FFFFFFFull}));  // 31 bits in common: odd
}

TEST(StatsRare, CountsForAllMasksSmallExample) {
  // values 0 x5, 1 x1, 3 x3
  EXPECT_EQ(rare_counts_for_all_masks({5, 1, 0, 3}), (std::vector<std::uint64_t>{9, 5, 6, 8}));
  // The size is rounded up to a power of two.
  EXPECT_EQ(rare_counts_for_all_masks({5, 1, 0}), (std::vector<std::uint64_t>{6, 5, 6, 5}));
  EXPECT_EQ(rare_counts_for_all_masks({4}), (std::vector<std::uint64_t>{4}));
  EXPECT_EQ(rare_counts_for_all_masks({}), (std::vector<std::uint64_t>{0}));
}

TEST(StatsRare, CountsForAllMasksMatchBruteForce) {
  std::mt19937_64 rng(424242);
  for (int trial = 0; trial < 300; ++trial) {
    const std::size_t size = std::uniform_int_distribution<std::size_t>(0, trial < 250 ? 70 : 1100)(rng);
    const int scale = std::uniform_int_distribution<int>(0, 3)(rng);
    const std::uint64_t top = std::vector<std::uint64_t>{1, 10, 100000, 1ull << 40}[static_cast<std::size_t>(scale)];
    std::vector<std::uint64_t> histogram(size);
    for (auto& h : histogram)
      h = std::uniform_int_distribution<int>(0, 2)(rng) == 0 ? 0 : std::uniform_int_distribution<std::uint64_t>(0, top)(rng);
    const auto rare = rare_counts_for_all_masks(histogram);
    ASSERT_EQ(rare.size(), std::bit_ceil(std::max<std::size_t>(size, 1))) << "size " << size;
    for (std::uint64_t mask = 0; mask < rare.size(); ++mask)
      ASSERT_EQ(rare[mask], brute_rare_count(histogram, mask)) << "size " << size << " mask " << mask;
  }
}

TEST(StatsBestMask, SmallExamples) {
  EXPECT_EQ(best_rare_mask({}), 0u);
  EXPECT_EQ(best_rare_mask({7}), 0u);
  EXPECT_EQ(best_rare_mask({5, 1, 0, 3}), 1u);
  EXPECT_EQ(best_rare_mask({0, 4, 4, 1}), 3u);  // rare counts 4, 4, 1
  EXPECT_EQ(best_rare_mask({0, 1, 5, 1}), 2u);  // 5, 1, 1: tie between 2 and 3 goes to 2
  EXPECT_EQ(best_rare_mask({1, 1, 1, 1}), 1u);  // all tied
  EXPECT_EQ(best_rare_mask({0, 1}), 1u);
  // Only value 8 can be common: the best mask is the smallest one with bit 3.
  EXPECT_EQ(best_rare_mask({3, 0, 0, 0, 0, 0, 0, 0, 1}), 8u);
}

TEST(StatsBestMask, MatchesBruteForce) {
  std::mt19937_64 rng(99);
  for (int trial = 0; trial < 400; ++trial) {
    const std::size_t size = std::uniform_int_distribution<std::size_t>(0, 300)(rng);
    std::vector<std::uint64_t> histogram(size);
    // Small counts make ties common.
    for (auto& h : histogram) h = std::uniform_int_distribution<std::uint64_t>(0, trial % 2 ? 3 : 1000)(rng);
    std::uint64_t best = 0, best_count = 0;
    for (std::uint64_t mask = 1; mask < std::bit_ceil(std::max<std::size_t>(size, 1)); ++mask) {
      const std::uint64_t count = brute_rare_count(histogram, mask);
      if (best == 0 || count < best_count) {
        best = mask;
        best_count = count;
      }
    }
    ASSERT_EQ(best_rare_mask(histogram), best) << "trial " << trial << " size " << size;
  }
}

TEST(StatsCompute, EmptySequence) {
  SparseStats s = compute_stats(Sequence());
  EXPECT_EQ(s.rare_mask.values, 0u);
  EXPECT_EQ(s.rare_count, 0u);
  EXPECT_EQ(s.last_rare, -1);
  EXPECT_EQ(s.max_value, 0u);
  EXPECT_EQ(s.max_at, 0u);
  EXPECT_TRUE(rare_positions(Sequence(), RareMask{1}).empty());
}

TEST(StatsCompute, SmallExample) {
  const std::vector<Value> values = {3, 0, 2, 3, 1};
  SparseStats s = compute_stats(Sequence::from_vector(values));
  EXPECT_EQ(s.max_value, 3u);
  EXPECT_EQ(s.max_at, 0u);  // the first 3, not the second
  EXPECT_EQ(s.rare_mask.values, 1u);  // rare counts for masks 1, 2, 3: 2, 2, 3
  EXPECT_EQ(s.rare_count, 2u);
  EXPECT_EQ(s.last_rare, 2);
  ASSERT_GE(s.histogram.size(), 4u);
  EXPECT_EQ(std::vector<std::uint64_t>(s.histogram.begin(), s.histogram.begin() + 4),
            (std::vector<std::uint64_t>{1, 1, 1, 2}));
  EXPECT_EQ(rare_positions(Sequence::from_vector(values), RareMask{1}), (std::vector<std::uint64_t>{1, 2}));
  EXPECT_EQ(rare_positions(Sequence::from_vector(values), RareMask{3}), (std::vector<std::uint64_t>{0, 1, 3}));
  EXPECT_EQ(rare_positions(Sequence::from_vector(values), RareMask{0}), (std::vector<std::uint64_t>{0, 1, 2, 3, 4}));
}

TEST(StatsCompute, AllZeroUsesMaskZero) {
  // One distinct value: no non-zero mask helps; every position is rare under mask 0.
  SparseStats s = compute_stats(Sequence::from_vector({0, 0, 0}));
  EXPECT_EQ(s.rare_mask.values, 0u);
  EXPECT_EQ(s.rare_count, 3u);
  EXPECT_EQ(s.last_rare, 2);
  EXPECT_EQ(s.max_value, 0u);
  EXPECT_EQ(s.max_at, 0u);
}

TEST(StatsCompute, NoRarePositionLeft) {
  // Every value odd: mask 1 makes all of them common.
  SparseStats s = compute_stats(Sequence::from_vector({1, 3, 5, 1}));
  EXPECT_EQ(s.rare_mask.values, 1u);
  EXPECT_EQ(s.rare_count, 0u);
  EXPECT_EQ(s.last_rare, -1);
  EXPECT_EQ(s.max_at, 2u);

  // Only position 0 is rare: values 1 and 3 are odd, so mask 1 leaves just the 0.
  SparseStats first = compute_stats(Sequence::from_vector({0, 1, 3, 1}));
  EXPECT_EQ(first.rare_mask.values, 1u);
  EXPECT_EQ(first.rare_count, 1u);
  EXPECT_EQ(first.last_rare, 0);
}

// A random sequence where most values are common under a hidden mask, with a few rare ones.
std::vector<Value> random_sparse_values(std::mt19937_64& rng, std::size_t n, Value limit) {
  const Value hidden = std::uniform_int_distribution<Value>(1, limit)(rng);
  std::uniform_int_distribution<Value> value(0, limit);
  std::vector<Value> values;
  while (values.size() < n) {
    const Value v = value(rng);
    const bool common = !is_rare(v, 0, RareMask{hidden});
    if (common || std::uniform_int_distribution<int>(0, 20)(rng) == 0) values.push_back(v);
  }
  return values;
}

TEST(StatsCompute, MatchesBruteForceOnRandomSequences) {
  std::mt19937_64 rng(31337);
  for (int trial = 0; trial < 240; ++trial) {
    const std::size_t n = std::uniform_int_distribution<std::size_t>(0, 2000)(rng);
    const Value limit = std::vector<Value>{1, 3, 7, 30, 255, 600}[static_cast<std::size_t>(trial % 6)];
    std::vector<Value> values;
    if (trial % 2 == 0) {
      values = random_sparse_values(rng, n, limit);
    } else {
      std::uniform_int_distribution<Value> value(0, limit);
      for (std::size_t i = 0; i < n; ++i) values.push_back(value(rng));
    }
    SCOPED_TRACE("trial " + std::to_string(trial));
    const Sequence sequence = Sequence::from_vector(values);
    const SparseStats s = compute_stats(sequence);
    expect_stats_match(values, s);
    const auto positions = rare_positions(sequence, s.rare_mask);
    EXPECT_EQ(positions.size(), s.rare_count);
    EXPECT_EQ(positions.empty() ? -1 : static_cast<std::int64_t>(positions.back()), s.last_rare);
    if (HasFailure()) return;
  }
}

TEST(StatsCompute, WideValues) {
  // Values that need 16 and 32 bits, with few distinct values so brute force stays cheap.
  std::mt19937_64 rng(8);
  for (Value top : {Value{300}, Value{65535}, Value{70000}, Value{1} << 20}) {
    const std::vector<Value> choices = {0, 1, 6, top / 3, top / 2, top - 1, top};
    std::vector<Value> values;
    for (int i = 0; i < 500; ++i)
      values.push_back(choices[std::uniform_int_distribution<std::size_t>(0, choices.size() - 1)(rng)]);
    SCOPED_TRACE("top " + std::to_string(top));
    expect_stats_match(values, compute_stats(Sequence::from_vector(values)));
  }
}

TEST(StatsCompute, SameResultForEveryStorageWidth) {
  std::mt19937_64 rng(5);
  const std::vector<Value> values = random_sparse_values(rng, 1500, 200);
  Sequence narrow = Sequence::from_vector(values);
  Sequence wide;
  wide.widen_to_hold(1u << 17);
  for (Value v : values) wide.push_back(v);
  ASSERT_EQ(narrow.bytes_per_value(), 1u);
  ASSERT_EQ(wide.bytes_per_value(), 4u);
  const SparseStats a = compute_stats(narrow), b = compute_stats(wide);
  EXPECT_EQ(a.rare_mask, b.rare_mask);
  EXPECT_EQ(a.rare_count, b.rare_count);
  EXPECT_EQ(a.last_rare, b.last_rare);
  EXPECT_EQ(a.max_at, b.max_at);
  EXPECT_EQ(a.histogram, b.histogram);
  EXPECT_EQ(rare_positions(narrow, RareMask{0x55}), rare_positions(wide, RareMask{0x55}));
}

// The statistics of values read a block at a time (a run file, sg_period) are those of the values
// in memory: several blocks, a last rare position blocks before the end, a mask with the heap's
// parity, and the edge sizes.
TEST(StatsCompute, ReadInBlocksAsInMemory) {
  std::mt19937_64 rng(77);
  const std::uint64_t block = sgx::kValueReadBlock;
  // Odd values but for an even one at every 1000th position in the first block (below
  // rare_below): mask 1, the last rare position in the first block of three.
  const std::uint64_t rare_below = block * 95 / 100;
  std::vector<Value> sparse(2 * block + block / 2);
  std::uint64_t sparse_rare = 0, sparse_last = 0;
  for (std::uint64_t n = 0; n < sparse.size(); ++n) {
    const bool rare = n % 1000 == 7 && n < rare_below;
    sparse[n] = 2 * std::uniform_int_distribution<Value>(0, 100)(rng) + (rare ? 0 : 1);
    if (rare) ++sparse_rare, sparse_last = n;
  }
  std::vector<Value> by_position(2 * block + 7);  // rare by the value's low bit and the heap's parity
  std::uint64_t by_position_rare = 0, by_position_last = 0;
  for (std::uint64_t n = 0; n < by_position.size(); ++n) {
    const bool rare = n % 1000 == 7 && n < block + block / 8;
    const auto low_bit = static_cast<Value>((n & 1) ^ (rare ? 0 : 1));
    by_position[n] = 2 * std::uniform_int_distribution<Value>(0, 50)(rng) + low_bit;
    if (rare) ++by_position_rare, by_position_last = n;
  }
  struct Case {
    std::vector<Value> values;
    SplitTakeParity splits;
  };
  const std::vector<Case> cases = {{sparse, SplitTakeParity::Mixed},
                                   {by_position, SplitTakeParity::Even},
                                   {{}, SplitTakeParity::Mixed},
                                   {{3}, SplitTakeParity::Mixed},
                                   {std::vector<Value>(block + 3, 5), SplitTakeParity::Mixed}};
  for (const Case& c : cases) {
    SCOPED_TRACE("n = " + std::to_string(c.values.size()));
    std::uint64_t largest_read = 0, reads = 0;
    const ValueReader read = [&](std::uint64_t from, std::uint64_t to, Value* out) {
      ASSERT_LE(from, to);
      ASSERT_LE(to, c.values.size());
      largest_read = std::max(largest_read, to - from);
      ++reads;
      std::copy(c.values.begin() + static_cast<std::ptrdiff_t>(from), c.values.begin() + static_cast<std::ptrdiff_t>(to),
                out);
    };
    const SparseStats in_memory = compute_stats(Sequence::from_vector(c.values), c.splits);
    const SparseStats from_reader = compute_stats(c.values.size(), read, c.splits);
    EXPECT_EQ(from_reader, in_memory);
    EXPECT_LE(largest_read, block);
    if (c.values.size() == sparse.size()) {
      EXPECT_EQ(in_memory.rare_mask, RareMask{1});
      EXPECT_EQ(in_memory.rare_count, sparse_rare);
      EXPECT_EQ(in_memory.last_rare, sparse_last);
      EXPECT_EQ(reads, 3u) << "one pass forward, the last rare position found on the way";
    }
    if (c.values.size() == by_position.size()) {
      EXPECT_TRUE(in_memory.rare_mask.with_position);
      EXPECT_EQ(in_memory.rare_count, by_position_rare);
      EXPECT_EQ(in_memory.last_rare, by_position_last);
    }
  }
}

// A run's checkpoints count only the values added since the last one: the statistics after each
// piece equal those of a pass over every value so far, whatever the pieces and the mask's kind.
TEST(StatsCounter, CountedInPiecesAsInOnePass) {
  std::mt19937_64 rng(4242);
  for (int trial = 0; trial < 60; ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    const std::size_t n = std::uniform_int_distribution<std::size_t>(1, 5000)(rng);
    std::vector<Value> values = random_sparse_values(rng, n, std::vector<Value>{3, 30, 255, 600}[trial % 4]);
    if (trial % 3 == 0)  // rare by the value's low bit and the heap's parity, as 0.127's 1+pos
      for (std::size_t i = 0; i < n; ++i)
        values[i] = (values[i] & ~Value{1}) | static_cast<Value>((i & 1) ^ (i % 97 == 5 ? 0 : 1));
    const SplitTakeParity splits = trial % 3 == 0 ? SplitTakeParity::Even : SplitTakeParity::Mixed;
    const Sequence sequence = Sequence::from_vector(values);
    StatsCounter counter(splits);
    while (counter.counted() < n) {
      const std::uint64_t to = std::min<std::uint64_t>(n, counter.counted() + std::uniform_int_distribution<std::uint64_t>(0, 900)(rng));
      // Now and then the counter is rebuilt from its state, as a resumed run rebuilds it from its file.
      if (std::uniform_int_distribution<int>(0, 3)(rng) == 0) counter = StatsCounter(counter.state(), splits);
      counter.add(sequence, to);
      ASSERT_EQ(counter.counted(), to);
      const std::vector<Value> prefix(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(to));
      EXPECT_EQ(counter.stats(), compute_stats(Sequence::from_vector(prefix), splits)) << "after " << to;
      EXPECT_EQ(check_counter_state(counter.state()), "");
    }
    if (trial % 3 != 0) expect_stats_match(values, counter.stats());
    // The milestones: the statistics of G(0..N-1) at every power of two N <= n, and G(N) when counted.
    ASSERT_EQ(counter.milestones().size(), static_cast<std::size_t>(std::bit_width(n)));
    for (std::size_t k = 0; k < counter.milestones().size(); ++k) {
      const Milestone& m = counter.milestones()[k];
      ASSERT_EQ(m.n, std::uint64_t{1} << k);
      const std::vector<Value> prefix(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(m.n));
      EXPECT_EQ(m.stats, compute_stats(Sequence::from_vector(prefix), splits)) << "at " << m.n;
      if (m.n < n)
        EXPECT_EQ(m.value_at_n, values[m.n]);
      else
        EXPECT_FALSE(m.value_at_n.has_value());
    }
    if (HasFailure()) return;
  }
}

// A state that does not hold together is refused, saying what is wrong; a state read from a file
// is checked this way before a run counts on from it.
TEST(StatsCounter, StateThatDoesNotHoldTogetherIsRefused) {
  StatsCounter counter;
  counter.add(Sequence::from_vector({0, 1, 1, 2, 0, 3, 1, 0, 2, 2}), 10);
  const StatsCounter::State whole = counter.state();
  ASSERT_EQ(check_counter_state(whole), "");
  std::vector<std::pair<std::string, std::function<void(StatsCounter::State&)>>> faults = {
      {"the histogram counts 11 values, not 10", [](auto& s) { ++s.histogram[1]; }},
      {"as long as the histogram", [](auto& s) { s.last_at.pop_back(); }},
      {"more odd positions", [](auto& s) { s.odd_histogram[0] = 5; }},
      {"is not one counted", [](auto& s) { s.max_value = 7; }},
      {"3 milestones for 10 values, not 4", [](auto& s) { s.milestones.pop_back(); }},
      {"is at 3, not 2^1", [](auto& s) { s.milestones[1].n = 3; }},
      {"the milestone at 8 lacks G(N)", [](auto& s) { s.milestones[3].value_at_n.reset(); }},
      {"the milestone at 4 counts 5 values", [](auto& s) { ++s.milestones[2].stats.histogram[0]; }},
  };
  for (const auto& [expected, spoil] : faults) {
    StatsCounter::State state = whole;
    spoil(state);
    EXPECT_THAT(check_counter_state(state), ::testing::HasSubstr(expected));
    EXPECT_THROW(StatsCounter(state, SplitTakeParity::Mixed), std::invalid_argument) << expected;
  }
}

TEST(StatsRarePositions, MatchesFilter) {
  std::mt19937_64 rng(2);
  std::vector<Value> values;
  for (int i = 0; i < 3000; ++i) values.push_back(std::uniform_int_distribution<Value>(0, 1000)(rng));
  const Sequence sequence = Sequence::from_vector(values);
  for (std::uint64_t mask : {0ull, 1ull, 0xfeull, 0x1eeull, 0x3ffull, 1ull << 40}) {
    std::vector<std::uint64_t> expected;
    for (std::uint64_t n = 0; n < values.size(); ++n)
      if (brute_is_rare(values[n], mask)) expected.push_back(n);
    EXPECT_EQ(rare_positions(sequence, RareMask{mask}), expected) << "mask " << mask;
  }
}

bool under_sanitizer() { return std::getenv("SGX_SANITIZED") != nullptr; }

// Published: Grundy's game (4!.0) starts 0 0 0 1 0 2 1 0 2 1 0 2 1 3 2 1 3 2 4 3 0, and its sparse space
// has mask 0xfe with 1274 rare positions up to 2^21, the last at 82860 (docs/THEORY.md section 6).
// So below 2^16 there are at most 1273. The mask is already 0xfe from 2^14 on.
TEST(StatsGrundy, MaskIs0xfe) {
  const std::uint64_t n = std::uint64_t{1} << (under_sanitizer() ? 14 : 16);
  const Sequence values = compute_sequence(parse_rules("4!.0"), n, KernelKind::Naive, 0);
  ASSERT_EQ(values.size(), n);
  const std::vector<Value> start = {0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0};
  for (std::size_t i = 0; i < start.size(); ++i) ASSERT_EQ(values[i], start[i]) << "G(" << i << ")";
  const SparseStats s = compute_stats(values);
  EXPECT_EQ(s.rare_mask.values, 0xfeu);
  EXPECT_LE(s.rare_count, 1273u);
  EXPECT_LT(s.last_rare, 82860);
  expect_stats_match(values.to_vector(), s);
  const auto positions = rare_positions(values, RareMask{0xfe});
  EXPECT_EQ(positions.size(), s.rare_count);
  EXPECT_EQ(positions.front(), 0u);  // G(0) = 0 is rare
  if (n == std::uint64_t{1} << 16) {
    // Not published figures: what the naive kernel gives, pinned so a change shows. (The sparse
    // kernel to 2^21 reproduces the published 1274 and 82860, too slow for this suite.)
    EXPECT_EQ(s.rare_count, 1273u);
    EXPECT_EQ(s.last_rare, 36184);
    EXPECT_EQ(s.max_value, 230u);
    EXPECT_EQ(s.max_at, 45668u);
  }
}

}  // namespace
}  // namespace sgx
