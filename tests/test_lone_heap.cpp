// Heaps decided alone (lone_heap.hpp) against the mex of every option, counted pair by pair.

#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "sparse/lone_heap.hpp"
#include "games/move_table.hpp"
#include "sgx/engine.hpp"
#include "sgx/rules.hpp"
#include "sgx/stats.hpp"

namespace sgx {

namespace {

// Values below 256 as bits: bit v % 64 of word v / 64.
using ValueBits = std::array<std::uint64_t, 4>;

void add_value(ValueBits& bits, unsigned v) { bits[v / 64] |= std::uint64_t{1} << (v % 64); }

// The bits of every option value of heap n, from g[0..n).
ValueBits option_bits(const MoveTable& moves, const std::vector<std::uint8_t>& g, std::uint64_t n) {
  ValueBits bits = {moves.takes_all(n) ? std::uint64_t{1} : 0, 0, 0, 0};
  for (std::uint64_t k : moves.leave_one())
    if (k < n) add_value(bits, g[n - k]);
  for (const SplitMove& split : moves.split_two()) {
    if (split.take + 2 > n) continue;
    const std::uint64_t m = n - split.take;
    for (std::uint64_t a = 1; a <= split.largest_first_part(m); ++a) add_value(bits, g[a] ^ g[m - a]);
  }
  return bits;
}

ValueBits common_bits(const RareMask& mask, std::uint64_t parity, Value values_below) {
  ValueBits bits = {};
  for (Value v = 0; v < values_below; ++v)
    if (!is_rare(v, parity, mask)) add_value(bits, v);
  return bits;
}

// The least value not in bits.
Value mex_of(const ValueBits& bits) {
  Value w = 0;
  while (w < 3 && bits[w] == ~std::uint64_t{0}) ++w;
  return 64 * w + static_cast<Value>(std::countr_one(bits[w]));
}

// Whether every value of some is in all.
bool all_in(const ValueBits& some, const ValueBits& all) {
  for (int w = 0; w < 4; ++w)
    if ((some[w] & ~all[w]) != 0) return false;
  return true;
}

struct RareList {
  std::vector<std::uint64_t> positions;
  std::vector<Value> values;
};

RareList rare_below(const std::vector<std::uint8_t>& g, std::uint64_t n, const RareMask& mask) {
  RareList rare;
  for (std::uint64_t p = 0; p < n; ++p)
    if (is_rare(g[p], p, mask)) {
      rare.positions.push_back(p);
      rare.values.push_back(g[p]);
    }
  return rare;
}

// Random values below 64, 128 and 256 (one, two and four words of bits), rare under the mask only
// among the first positions: however many rare values a heap wants (up to 127) and whether any pair gives
// them, each heap's decision must be the mex of its options, a new rare position included; where
// every common value in range is given, it must decline. Heaps are decided two at a time, side by
// side where no move of the second reads the first. The codes: one split (0.6), two splits in one
// take group (0.167, with one-heap moves), four (0.4444), takes far apart (0.404004, two groups),
// unequal parts from a take of none (Grundy's game, 4!.0), and a mask with the heap's parity
// (0.127).
TEST(LoneHeaps, DecidesEachHeapAsTheMexOfItsOptions) {
  if (!can_decide_heaps_alone()) GTEST_SKIP() << "deciding heaps alone needs AVX-512";
  std::mt19937_64 rng(1926);
  struct Case {
    const char* code;
    RareMask mask;
  };
  const Case cases[] = {{"0.6", {0x21}},    {"0.167", {0x3d}}, {"0.4444", {0x06}},
                        {"0.404004", {0x11}}, {"4!.0", {0x30}}, {"0.127", {0x01, true, true}}};
  for (const Value values_below : {Value{64}, Value{128}, Value{256}}) {
    int declined = 0, new_rare = 0, decided = 0, past_64 = 0, past_128 = 0, narrow_128 = 0;
    for (const Case& case_of : cases) {
      // Under wider values the mask also takes bits 6 and 7, so that values from 64 are rare or
      // common by more than one bit.
      RareMask mask = case_of.mask;
      if (values_below > 64) mask.values |= 0x40;
      if (values_below > 128) mask.values |= 0x80;
      const Rules rules = parse_rules(case_of.code);
      const ValueBits common[2] = {common_bits(mask, 0, values_below), common_bits(mask, 1, values_below)};
      // With values below 256 the rare pairs of the longest spans give every common value below
      // 128 nearly always, so that values from 128 are wanted and looked up; and where the common
      // values lie below 128 (narrow), no pair of two of them gives a rare value from 128 on, so
      // that a value looked up in the wrong table shows.
      struct Span {
        std::uint64_t rare_span;
        bool narrow;
      };
      for (const auto& [rare_span, narrow] : {Span{12, false}, Span{100, false}, Span{400, false}, Span{400, true},
                                              Span{1500, false}, Span{1500, true}}) {
        if ((rare_span > 400 || narrow) && values_below <= 128) continue;
        // Values below rare_span: any; past it: common for their position. Narrow: every common
        // value below 128.
        std::vector<std::uint8_t> g(4 * rare_span + 800);
        for (std::uint64_t p = 0; p < g.size(); ++p) {
          do {
            g[p] = static_cast<std::uint8_t>(rng() % values_below);
          } while ((p >= rare_span && is_rare(g[p], p, mask)) || (narrow && g[p] >= 128 && !is_rare(g[p], p, mask)));
        }
        MoveTable moves(rules);
        moves.cover(g.size());
        LoneHeaps lone;
        const RareList rare = rare_below(g, rare_span, mask);
        lone.prepare(moves, rare.positions, rare.values, mask, values_below);
        ASSERT_LT(lone.first_heap(), g.size() - 300) << case_of.code;
        // Each heap decided with the next (when the code allows, the two side by side): the first
        // is decided unless it declines, the second unless the first declines or is rare, or it
        // declines itself.
        for (std::uint64_t n = lone.first_heap(); n + 1 < g.size(); ++n) {
          std::vector<std::uint8_t> decision = g;
          const std::uint64_t count = lone.decide(decision.data(), n, n + 2);
          std::vector<std::uint8_t> known = g;
          std::uint64_t expected = 0;
          for (std::uint64_t heap = n; heap < n + 2; ++heap) {
            const ValueBits options = option_bits(moves, known, heap);
            const ValueBits& common_here = common[heap & 1];
            if (all_in(common_here, options)) {
              ++declined;
              break;
            }
            const Value mex = mex_of(options);
            ASSERT_GT(count, expected) << case_of.code << " span " << rare_span << " heap " << heap;
            ASSERT_EQ(decision[heap], mex) << case_of.code << " span " << rare_span << " heap " << heap;
            ++decided;
            past_64 += mex >= 64;
            past_128 += mex >= 128;
            narrow_128 += narrow && mex >= 128;
            ++expected;
            known[heap] = static_cast<std::uint8_t>(mex);
            if (is_rare(mex, heap, mask)) {
              ++new_rare;
              break;
            }
          }
          ASSERT_EQ(count, expected) << case_of.code << " span " << rare_span << " heap " << n;
        }
      }
    }
    // Every outcome happened.
    EXPECT_GT(decided, 5000) << values_below;
    EXPECT_GT(new_rare, 50) << values_below;
    EXPECT_GT(declined, 50) << values_below;
    if (values_below > 64) {
      EXPECT_GT(past_64, 500) << values_below;
    }
    if (values_below > 128) {
      EXPECT_GT(past_128, 500) << values_below;
      EXPECT_GT(narrow_128, 200) << values_below;
    }
  }
}

// Under bounded memory only the first prefix_end values and those near the heaps may be read. Values
// in between are overwritten with others here, so that a read of one would show: a heap must be
// decided as before where the pairs it may read show every rare value below its least common value
// not given (its rare pairs, its one-heap moves, and split pairs (a, m - a) with a no more than the
// last first part held), and left undecided otherwise, even where no pair at all gives that value
// (a new rare position: only the pairs past the values held could say so).
TEST(LoneHeaps, LeavesAHeapWhoseScanPassesTheValuesHeld) {
  if (!can_decide_heaps_alone()) GTEST_SKIP() << "deciding heaps alone needs AVX-512";
  std::mt19937_64 rng(1927);
  const std::uint64_t prefix_end = 200, rare_span = 60;
  int decided = 0, left = 0;
  for (const Value values_below : {Value{64}, Value{128}, Value{256}}) {
    for (const char* code : {"0.167", "0.6", "4!.0"}) {
      RareMask mask{0x3d};
      if (values_below > 64) mask.values |= 0x40;
      if (values_below > 128) mask.values |= 0x80;
      const Rules rules = parse_rules(code);
      std::vector<std::uint8_t> g(3000);
      for (std::uint64_t p = 0; p < g.size(); ++p) {
        do {
          g[p] = static_cast<std::uint8_t>(rng() % values_below);
        } while (p >= rare_span && is_rare(g[p], p, mask));
      }
      MoveTable moves(rules);
      moves.cover(g.size());
      LoneHeaps lone;
      const RareList rare = rare_below(g, rare_span, mask);
      lone.prepare(moves, rare.positions, rare.values, mask, values_below);
      const ValueBits common[2] = {common_bits(mask, 0, values_below), common_bits(mask, 1, values_below)};
      for (std::uint64_t n = std::max<std::uint64_t>(lone.first_heap(), 1000); n + 1 < g.size(); ++n) {
        // What decide() may read: first parts below prefix_end, partners from tail_start on.
        const std::uint64_t tail_start = n - lone.reach();
        const std::uint64_t least_m = n - moves.split_two().back().take;
        const std::uint64_t last_part = std::min(prefix_end - 64, least_m - 63 - tail_start);
        std::vector<std::uint8_t> held = g;
        for (std::uint64_t p = prefix_end; p < tail_start; ++p)
          held[p] = static_cast<std::uint8_t>(values_below - 1 - g[p]);
        const std::uint64_t count = lone.decide(held.data(), n, n + 2, prefix_end, tail_start);
        std::uint64_t expected = 0;
        for (std::uint64_t heap = n; heap < n + 2; ++heap) {
          const ValueBits options = option_bits(moves, g, heap);
          const ValueBits& common_here = common[heap & 1];
          if (all_in(common_here, options)) break;  // declined, as without a bound
          // The options the pairs held give.
          ValueBits seen = {moves.takes_all(heap) ? std::uint64_t{1} : 0, 0, 0, 0};
          for (std::uint64_t k : moves.leave_one()) add_value(seen, g[heap - k]);
          for (const SplitMove& split : moves.split_two()) {
            const std::uint64_t m = heap - split.take;
            const std::uint64_t largest = split.largest_first_part(m);
            for (std::uint64_t a = 1; a <= std::min(largest, last_part); ++a) add_value(seen, g[a] ^ g[m - a]);
            for (const std::uint64_t r : rare.positions)
              if (r >= 1 && r <= largest) add_value(seen, g[r] ^ g[m - r]);
          }
          // c: the least common value no option gives (there is one, or the heap declined).
          Value c = 0;
          while (!(common_here[c / 64] >> (c % 64) & 1) || (options[c / 64] >> (c % 64) & 1)) ++c;
          bool rare_below_c_seen = true;
          for (Value v = 0; v < c; ++v)
            if (is_rare(v, heap, mask) && (seen[v / 64] >> (v % 64) & 1) == 0) rare_below_c_seen = false;
          if (!rare_below_c_seen) {
            ++left;
            break;
          }
          ASSERT_EQ(held[heap], mex_of(options)) << code << " below " << values_below << " heap " << heap;
          ASSERT_EQ(mex_of(options), c) << code << " below " << values_below << " heap " << heap;
          ++decided;
          ++expected;
          g[heap] = held[heap];  // the later heaps read the value decided
        }
        ASSERT_EQ(count, expected) << code << " below " << values_below << " heap " << n;
      }
    }
  }
  EXPECT_GT(decided, 1000);
  EXPECT_GT(left, 100);
}

// Runs of heaps of real games, re-prepared after each new rare position, equal the naive
// kernel's values: 0.167 (60 rare positions, the last at 1303), 0.106 (15, the last at 1103) and
// 0.56 (46, the last at 1795) with values below 64; 0.174 (57, the last at 674; values from 64
// at heap 746) with values below 128; 0.245 (values from 128 at 1328) with values below 256.
TEST(LoneHeaps, RunsOfHeapsEqualTheNaiveKernel) {
  if (!can_decide_heaps_alone()) GTEST_SKIP() << "deciding heaps alone needs AVX-512";
  struct Game {
    const char* code;
    std::uint64_t n;
    Value values_below;
  };
  const Game games[] = {{"0.167", 12000, 64},
                        {"0.106", 8000, 64},
                        {"0.56", 8000, 64},
                        {"0.174", 12000, 128},
                        {"0.245", 12000, 256}};
  for (const auto& [code, n, values_below] : games) {
    const Rules rules = parse_rules(code);
    const Sequence naive = compute_sequence(rules, n, KernelKind::Naive, 1);
    std::vector<std::uint8_t> truth(n);
    std::uint64_t in_range = 0;  // the values below it lie below values_below
    while (in_range < n && naive[in_range] < values_below) ++in_range;
    for (std::uint64_t p = 0; p < in_range; ++p) truth[p] = static_cast<std::uint8_t>(naive[p]);
    const RareMask mask = compute_stats(naive, rules.split_take_parity()).rare_mask;
    MoveTable moves(rules);
    moves.cover(n);
    LoneHeaps lone;
    std::vector<std::uint8_t> g = truth;
    std::uint64_t from = 0, decided = 0, past_64 = 0;
    for (;;) {
      // Every rare position below from in the list, and from past the first heap it allows.
      for (std::uint64_t listed_below = from + 1; listed_below != from && from < in_range;) {
        listed_below = from;
        const RareList rare = rare_below(truth, from, mask);
        lone.prepare(moves, rare.positions, rare.values, mask, values_below);
        from = std::max(from, lone.first_heap());
      }
      if (from >= in_range) break;
      const std::uint64_t count = lone.decide(g.data(), from, in_range);
      for (std::uint64_t p = from; p < from + count; ++p) {
        ASSERT_EQ(g[p], truth[p]) << code << " heap " << p;
        past_64 += g[p] >= 64;
      }
      decided += count;
      from += std::max<std::uint64_t>(count, 1);  // a heap it declines is taken from the naive values
    }
    if (values_below > 64) {
      EXPECT_GT(past_64, 100) << code;
    }
    EXPECT_GT(decided, in_range / 2) << code;
  }
}

}  // namespace

}  // namespace sgx
