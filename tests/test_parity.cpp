// Rare masks with the heap's parity (docs/THEORY.md section 4): when every two-heap split takes a
// number of tokens of one parity, a position n may be rare when popcount(G(n) & m) has the parity
// of n - k. The rule that allows it, the counts and the choice against brute force, 0.127's
// published sparse space, the sparse kernel against the naive one for games that choose such a
// mask, and the run file that keeps it.

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "sgx/engine.hpp"
#include "sgx/rules.hpp"
#include "sgx/stats.hpp"
#include "sgx/store.hpp"
#include "tool_test.hpp"

namespace sgx {
namespace {

bool brute_is_rare(std::uint64_t value, std::uint64_t n, const RareMask& mask) {
  const int flip = mask.with_position ? static_cast<int>((n + (mask.odd_takes ? 1 : 0)) % 2) : 0;
  return std::popcount(value & mask.values) % 2 == flip;
}

TEST(ParityRule, OnlySplitsOfOneParityAllowTheHeapsParity) {
  EXPECT_EQ(parse_rules("0.127").split_take_parity(), SplitTakeParity::Odd);   // splits take 3
  EXPECT_EQ(parse_rules("0.106").split_take_parity(), SplitTakeParity::Odd);   // take 1
  EXPECT_EQ(parse_rules("4!.0").split_take_parity(), SplitTakeParity::Even);   // take 0
  EXPECT_EQ(parse_rules("0.0506").split_take_parity(), SplitTakeParity::Even); // takes 2 and 4
  EXPECT_EQ(parse_rules("0.44").split_take_parity(), SplitTakeParity::Mixed);  // takes 1 and 2
  EXPECT_EQ(parse_rules("0.6").split_take_parity(), SplitTakeParity::Odd);
  EXPECT_EQ(parse_rules("0.77").split_take_parity(), SplitTakeParity::Mixed);
  EXPECT_EQ(parse_rules("0.33").split_take_parity(), SplitTakeParity::Mixed);  // no splits at all
  EXPECT_EQ(parse_rules("0.[4]").split_take_parity(), SplitTakeParity::Mixed); // every take
  EXPECT_EQ(parse_rules("0.4[04]").split_take_parity(), SplitTakeParity::Odd); // takes 1, 3, 5, ...
  EXPECT_EQ(parse_rules("0.[40]").split_take_parity(), SplitTakeParity::Odd);  // takes 1, 3, 5, ...
}

TEST(ParityRule, IsRareFlipsWithTheHeapsParity) {
  const RareMask odd{1, true, true}, even{1, true, false};
  // 0.127: n rare when G(n) & 1 has the parity of n - 3.
  EXPECT_TRUE(is_rare(0, 3, odd));
  EXPECT_FALSE(is_rare(1, 3, odd));
  EXPECT_TRUE(is_rare(1, 4, odd));
  EXPECT_FALSE(is_rare(0, 4, odd));
  EXPECT_FALSE(is_rare(0, 3, even));
  EXPECT_TRUE(is_rare(0, 4, even));
  EXPECT_TRUE(is_rare(6, 7, RareMask{0x6}));  // no position: the n is ignored
  EXPECT_TRUE(is_rare(6, 8, RareMask{0x6}));
  // A heap's common pattern: the values its pairs with one rare part give. For parts a + b = n - k
  // with exactly one rare, popcount(G(a) ^ G(b) & m) differs from the parity of n - k, so the value
  // is not rare "at n": the kernel's pattern for heap n is the values v with !is_rare(v, n, mask).
  for (const RareMask& mask : {odd, even, RareMask{0xb, true, true}, RareMask{0x6, true, false}})
    for (std::uint64_t a = 1; a < 40; ++a)
      for (std::uint64_t b = 1; b < 40; ++b)
        for (Value ga : {0u, 1u, 5u, 6u, 11u})
          for (Value gb : {0u, 2u, 3u, 9u}) {
            const std::uint64_t k = mask.odd_takes ? 3 : 2, n = a + b + k;
            const bool one_rare = is_rare(ga, a, mask) != is_rare(gb, b, mask);
            ASSERT_EQ(one_rare, !is_rare(ga ^ gb, n, mask)) << a << " " << b << " " << ga << " " << gb;
          }
}

// Counts and the best mask over every value mask, with and without the position, counted one by one.
TEST(ParityStats, CountsAndChoiceMatchBruteForce) {
  std::mt19937_64 rng(127);
  for (int trial = 0; trial < 200; ++trial) {
    const std::size_t size = std::size_t{1} << std::uniform_int_distribution<int>(0, 6)(rng);
    const std::size_t n = std::uniform_int_distribution<std::size_t>(0, 600)(rng);
    const SplitTakeParity choices[] = {SplitTakeParity::Mixed, SplitTakeParity::Even, SplitTakeParity::Odd};
    const SplitTakeParity splits = choices[trial % 3];
    // Values that follow a hidden mask with the position most of the time.
    const RareMask hidden{std::uniform_int_distribution<std::uint64_t>(0, size - 1)(rng), true, trial % 2 == 0};
    std::vector<Value> values;
    for (std::uint64_t i = 0; i < n; ++i) {
      Value v = std::uniform_int_distribution<Value>(0, static_cast<Value>(size - 1))(rng);
      const Value lowest_bit = static_cast<Value>(hidden.values & -hidden.values);
      if (is_rare(v, i, hidden) && std::uniform_int_distribution<int>(0, 9)(rng) > 0) v ^= lowest_bit;
      values.push_back(v);
    }
    const SparseStats stats = compute_stats(Sequence::from_vector(values), splits);
    SCOPED_TRACE("trial " + std::to_string(trial));
    // Brute force, in the order of preference: the first non-zero value mask, then any mask with
    // strictly fewer rare positions, those without the position first. Mask 0 (all rare) stands
    // when there is nothing else.
    const std::uint64_t masks = std::bit_ceil(std::uint64_t{stats.max_value} + 1);
    auto count_under = [&](const RareMask& mask) {
      std::uint64_t count = 0;
      for (std::uint64_t i = 0; i < n; ++i) count += brute_is_rare(values[i], i, mask);
      return count;
    };
    RareMask best{0};
    std::uint64_t best_count = n;
    for (std::uint64_t m = 1; m < masks; ++m)
      if (m == 1 || count_under(RareMask{m}) < best_count) {
        best = RareMask{m};
        best_count = count_under(best);
      }
    if (splits != SplitTakeParity::Mixed && n > 0)
      for (std::uint64_t m = 0; m < masks; ++m) {
        const RareMask with_position{m, true, splits == SplitTakeParity::Odd};
        if (count_under(with_position) < best_count) {
          best = with_position;
          best_count = count_under(best);
        }
      }
    EXPECT_EQ(stats.rare_mask, best);
    std::uint64_t count = 0;
    std::int64_t last = -1;
    for (std::uint64_t i = 0; i < n; ++i)
      if (brute_is_rare(values[i], i, stats.rare_mask)) {
        ++count;
        last = static_cast<std::int64_t>(i);
      }
    EXPECT_EQ(stats.rare_count, count);
    EXPECT_EQ(stats.last_rare, last);
    EXPECT_EQ(rare_positions(Sequence::from_vector(values), stats.rare_mask).size(), count);
    if (splits == SplitTakeParity::Mixed) {
      EXPECT_FALSE(stats.rare_mask.with_position);
    }
    if (HasFailure()) return;
  }
}

TEST(ParityStats, MixedTakesNeverChooseThePosition) {
  // G(n) = n mod 2 is all common under 0x1 with the position, yet splits of both parities would
  // pair the classes inconsistently: the position may not be chosen.
  std::vector<Value> values;
  for (Value i = 0; i < 1000; ++i) values.push_back(i % 2);
  const Sequence sequence = Sequence::from_vector(values);
  EXPECT_EQ(compute_stats(sequence, SplitTakeParity::Odd).rare_mask, (RareMask{1, true, true}));
  EXPECT_EQ(compute_stats(sequence, SplitTakeParity::Odd).rare_count, 0u);
  EXPECT_FALSE(compute_stats(sequence, SplitTakeParity::Mixed).rare_mask.with_position);
  EXPECT_FALSE(compute_stats(sequence).rare_mask.with_position);
  // The kernel of a game with mixed takes keeps to masks without the position.
  Engine engine(parse_rules("0.44"), EngineOptions{KernelKind::Sparse, 1, false});
  ASSERT_TRUE(engine.compute_to(1 << 14));
  ASSERT_TRUE(engine.sparse_state());
  EXPECT_FALSE(engine.sparse_state()->mask.with_position);
}

// Published (Flammenkamp): 0.127 has 693 rare positions under mask 1+pos, the last at 27106.
TEST(ParityPublished, Game0127ToTwoToThe17) {
  const Rules rules = parse_rules("0.127");
  Engine engine(rules, EngineOptions{KernelKind::Sparse, 2, false});
  ASSERT_TRUE(engine.compute_to(1 << 17));
  const SparseStats stats = compute_stats(engine.values(), rules.split_take_parity());
  EXPECT_EQ(stats.rare_mask, (RareMask{1, true, true}));
  EXPECT_EQ(stats.rare_count, 693u);
  EXPECT_EQ(stats.last_rare, 27106);
  // The kernel ran with that mask and listed exactly those positions.
  const auto state = engine.sparse_state();
  ASSERT_TRUE(state);
  EXPECT_EQ(state->mask, (RareMask{1, true, true}));
  EXPECT_EQ(state->rare_positions, rare_positions(engine.values(), stats.rare_mask));
  // Without the position the best is 0x3f, with 2805 rare positions, the last at 39511.
  const SparseStats plain = compute_stats(engine.values());
  EXPECT_EQ(plain.rare_mask, RareMask{0x3f});
  EXPECT_EQ(plain.rare_count, 2805u);
  EXPECT_EQ(plain.last_rare, 39511);
}

// Games whose best mask uses the heap's parity (odd takes: 0.127, 0.106, 0.104, 0.205; even:
// 0.0506, 0.0704), by the sparse kernel at several thread counts, against the naive kernel.
class ParityGames : public ::testing::TestWithParam<const char*> {};

TEST_P(ParityGames, SparseMatchesNaiveAtEveryThreadCount) {
  const Rules rules = parse_rules(GetParam());
  const std::uint64_t n = 1 << 15;
  const Sequence naive = compute_sequence(rules, n, KernelKind::Naive, 2);
  for (int threads : {1, 2, 3, 8}) {
    Engine engine(rules, EngineOptions{KernelKind::Sparse, threads, false});
    ASSERT_TRUE(engine.compute_to(n));
    ASSERT_TRUE(engine.sparse_state());
    EXPECT_TRUE(engine.sparse_state()->mask.with_position) << threads << " threads";
    const Sequence& values = engine.values();
    for (std::uint64_t i = 0; i < n; ++i) ASSERT_EQ(values[i], naive[i]) << "G(" << i << "), " << threads << " threads";
  }
}

INSTANTIATE_TEST_SUITE_P(Codes, ParityGames, ::testing::Values("0.127", "0.106", "0.104", "0.205", "0.0506", "0.0704"));

// A bounded run keeps its mask with the position in its state, and resumes from it through a file.
class ParityFiles : public testing::ToolTest {};

TEST_F(ParityFiles, BoundedStateWithThePositionResumesThroughTheFile) {
  const Rules rules = parse_rules("0.106");
  const std::uint64_t n = 300'000;
  const Sequence whole = compute_sequence(rules, n, KernelKind::Sparse, 2);
  EngineOptions options{KernelKind::Sparse, 2, false};
  Engine first(rules, options);
  ASSERT_TRUE(first.compute_to(200'000));
  RunInfo info;
  info.game = rules.canonical();
  info.engine = first.kernels_used();
  info.complete = false;
  info.target_n = n;
  info.stats = compute_stats(first.values(), rules.split_take_parity());
  info.sparse_state = first.sparse_state();
  ASSERT_TRUE(info.sparse_state);
  ASSERT_TRUE(info.sparse_state->mask.with_position);
  ASSERT_TRUE(info.stats.rare_mask.with_position);
  RunFileWriter writer = RunFileWriter::start(path("run.h5"), info.game);
  writer.save(info, first.values());
  EXPECT_EQ(read_run_status(path("run.h5")).format_version, kPositionMaskFormatVersion);

  RunRecord stored = read_run_file(path("run.h5"));
  ASSERT_TRUE(stored.sparse_state);
  EXPECT_EQ(stored.stats.rare_mask, info.stats.rare_mask);
  EXPECT_EQ(stored.sparse_state->mask, info.sparse_state->mask);
  EXPECT_EQ(stored.sparse_state->odd_histogram, info.sparse_state->odd_histogram);
  EXPECT_EQ(stored.sparse_state->rare_positions, info.sparse_state->rare_positions);
  // Resumed with the middle released: the kernel can only go on from the stored state.
  stored.values.release(60'000, 120'000);
  options.value_memory = 2 * 240'000;
  Engine resumed(rules, options, std::move(stored.values), std::move(stored.sparse_state));
  ASSERT_TRUE(resumed.compute_to(n));
  const Sequence& values = resumed.values();
  for (std::uint64_t i = 0; i < n; ++i)
    if (values.holds(i)) {
      ASSERT_EQ(values[i], whole[i]) << "G(" << i << ")";
    }
  EXPECT_EQ(resumed.sparse_state()->mask, info.sparse_state->mask);
  EXPECT_EQ(resumed.sparse_state()->rare_positions, rare_positions(whole, info.sparse_state->mask));
}

TEST_F(ParityFiles, RunOctalResumesAndOnlySuchFilesAreVersion4) {
  ASSERT_EQ(run("run_octal", {"0.127", "--n", "2^16", "--out", path("a.h5"), "--quiet"}).exit_code, 0);
  EXPECT_EQ(read_run_status(path("a.h5")).format_version, kPositionMaskFormatVersion);
  const testing::Result resumed =
      run("run_octal", {"0.127", "--n", "2^17", "--out", path("a.h5"), "--resume", "--json"});
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  const auto json = testing::json_object(resumed.out);
  EXPECT_EQ(json["stats"]["rare_mask"], 1);
  EXPECT_EQ(json["stats"]["rare_position_bit"], true);
  EXPECT_EQ(json["stats"]["rare_count"], 693);
  EXPECT_EQ(json["stats"]["last_rare"], 27106);
  const testing::Result fresh = run("run_octal", {"0.127", "--n", "2^17", "--out", path("b.h5"), "--print", "--quiet"});
  const testing::Result again =
      run("run_octal", {"0.127", "--n", "2^17", "--out", path("a.h5"), "--resume", "--print", "--quiet"});
  ASSERT_EQ(fresh.exit_code, 0);
  EXPECT_EQ(again.out, fresh.out);
  const testing::Result text = run("sg_period", {path("a.h5")});
  EXPECT_TRUE(testing::contains(text.out, "rare        mask 0x1+pos, 693 rare positions, last at 27106")) << text.out;

  // A game without such a mask keeps version 3, which older programs read.
  ASSERT_EQ(run("run_octal", {"4!.0", "--n", "2^14", "--out", path("g.h5"), "--quiet"}).exit_code, 0);
  EXPECT_EQ(read_run_status(path("g.h5")).format_version, kSegmentedFormatVersion);
  const RunRecord grundy = read_run_file(path("g.h5"));
  EXPECT_EQ(grundy.stats.rare_mask, RareMask{0xfe});
}

TEST_F(ParityFiles, OlderFilesReadAndWrongMasksAreRefused) {
  // A version-1 file and a /sparse group without odd_histogram, as older programs wrote them.
  const Rules rules = parse_rules("0.127");
  RunInfo info;
  info.game = rules.canonical();
  info.engine = "sparse";
  const Sequence values = compute_sequence(rules, 5000, KernelKind::Sparse, 1);
  info.stats = compute_stats(values);
  SparseState state;
  state.mask = RareMask{0x3f};
  state.histogram = info.stats.histogram;
  state.rare_positions = rare_positions(values, state.mask);
  for (std::uint64_t r : state.rare_positions) state.rare_values.push_back(values[r]);
  state.max_value = info.stats.max_value;
  state.max_at = info.stats.max_at;
  info.sparse_state = state;
  write_run_file(path("old.h5"), info, values);
  EXPECT_EQ(read_run_status(path("old.h5")).format_version, kWholeFormatVersion);
  const RunRecord old = read_run_file(path("old.h5"));
  EXPECT_EQ(old.stats.rare_mask, info.stats.rare_mask);
  ASSERT_TRUE(old.sparse_state);
  EXPECT_TRUE(old.sparse_state->odd_histogram.empty());
  EXPECT_EQ(old.sparse_state->mask, RareMask{0x3f});
  Engine resumed(rules, EngineOptions{KernelKind::Sparse, 2, false}, old.values, old.sparse_state);
  ASSERT_TRUE(resumed.compute_to(20000));
  const Sequence naive = compute_sequence(rules, 20000, KernelKind::Naive, 2);
  for (std::uint64_t i = 0; i < 20000; ++i) ASSERT_EQ(resumed.values()[i], naive[i]) << "G(" << i << ")";

  // A whole file cannot hold a mask with the position (older programs would misread it).
  info.stats = compute_stats(values, rules.split_take_parity());
  ASSERT_TRUE(info.stats.rare_mask.with_position);
  try {
    write_run_file(path("whole.h5"), info, values);
    FAIL() << "expected a StoreError";
  } catch (const StoreError& e) {
    EXPECT_TRUE(testing::contains(e.what(), "needs format version 4")) << e.what();
  }
  // A game whose splits take both parities cannot have such a mask: the file is refused.
  info.game = "0.44";
  info.sparse_state.reset();
  RunFileWriter writer = RunFileWriter::start(path("mixed.h5"), info.game);
  writer.save(info, values);
  try {
    read_run_file(path("mixed.h5"));
    FAIL() << "expected a StoreError";
  } catch (const StoreError& e) {
    EXPECT_TRUE(testing::contains(
        e.what(), "attribute rare_position_bit of /stats uses the heap's parity, which 0.44 does not allow"))
        << e.what();
  }
}

}  // namespace
}  // namespace sgx
