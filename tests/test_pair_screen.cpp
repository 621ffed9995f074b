// Screening rare pairs against candidate values (pair_screen.hpp) against a plain loop.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "sparse/pair_screen.hpp"
#include "kernels/vector_path.hpp"

namespace sgx {

namespace {

// Random groups: full ones (64 heaps), halves (a part of the pipeline's far stage) and short ones,
// parts equal or not, rare positions spread
// below the group and bunched around half of its m (where unequal parts skip a heap), candidates
// that some pair gives and candidates no pair gives. hits starts with bits set that the screen
// must keep, in lanes past the group's heaps too.
template <class T>
void check_random_screens(std::uint64_t value_bound) {
  if (!can_screen_pairs()) GTEST_SKIP() << "screening needs AVX-512";
  std::mt19937_64 rng(4242 + sizeof(T));
  std::vector<T> g(8000);
  for (T& v : g) v = static_cast<T>(rng() % value_bound);
  int full = 0, halves = 0, with_skips = 0, hit_slots = 0, missed_slots = 0;
  for (int trial = 0; trial < 600; ++trial) {
    const std::uint64_t heaps = trial % 4 == 3   ? 1 + rng() % (kScreenHeaps - 1)
                                : trial % 4 == 2 ? kScreenHeaps / 2
                                                 : kScreenHeaps;
    const std::uint64_t m_lo = 200 + rng() % (g.size() - 200 - kScreenHeaps);
    const bool unequal = rng() % 2 == 0;
    std::vector<std::uint64_t> rare;
    const std::uint64_t count = 1 + rng() % 300;
    for (std::uint64_t i = 0; i < count; ++i)
      rare.push_back(i % 3 == 0 ? m_lo / 2 - 20 + rng() % 60 : 1 + rng() % (m_lo - 1));
    std::sort(rare.begin(), rare.end());
    rare.erase(std::unique(rare.begin(), rare.end()), rare.end());
    std::vector<Value> rare_values;
    for (std::uint64_t r : rare) rare_values.push_back(g[r]);
    auto pairs = [&](std::uint64_t i, std::uint64_t j) { return !(unequal && 2 * rare[i] == m_lo + j); };
    auto pair_value = [&](std::uint64_t i, std::uint64_t j) {
      return static_cast<T>(rare_values[i] ^ g[m_lo + j - rare[i]]);
    };

    ScreenCandidates<T> candidates;
    for (int k = 0; k < kScreenSlots; ++k)
      for (std::uint64_t j = 0; j < kScreenHeaps; ++j) {
        const std::uint64_t i = rng() % rare.size();
        candidates.values[k][j] =
            rng() % 3 == 0 && j < heaps ? pair_value(i, j) : static_cast<T>(rng() % value_bound);
      }
    std::uint64_t hits[kScreenSlots], expected[kScreenSlots];
    for (int k = 0; k < kScreenSlots; ++k) hits[k] = expected[k] = rng() & rng() & rng();
    for (std::uint64_t i = 0; i < rare.size(); ++i)
      for (std::uint64_t j = 0; j < heaps; ++j)
        for (int k = 0; k < kScreenSlots; ++k)
          if (pairs(i, j) && pair_value(i, j) == candidates.values[k][j]) expected[k] |= std::uint64_t{1} << j;

    screen_rare_pairs(g.data(), m_lo, rare.data(), rare_values.data(), rare.size(), unequal, heaps, candidates, hits);
    for (int k = 0; k < kScreenSlots; ++k) {
      ASSERT_EQ(hits[k], expected[k]) << "slot " << k << " m_lo " << m_lo << " heaps " << heaps << " unequal "
                                      << unequal << " rare positions " << rare.size();
      for (std::uint64_t j = 0; j < heaps; ++j) ((expected[k] >> j) & 1 ? hit_slots : missed_slots) += 1;
    }
    full += heaps == kScreenHeaps;
    halves += heaps == kScreenHeaps / 2;
    with_skips += unequal && std::any_of(rare.begin(), rare.end(), [&](std::uint64_t r) {
      return 2 * r >= m_lo && 2 * r < m_lo + heaps;
    });
  }
  // Every kind of group and outcome came up.
  EXPECT_GT(full, 250);
  EXPECT_GT(halves, 140);
  EXPECT_GT(with_skips, 100);
  EXPECT_GT(hit_slots, 1000);
  EXPECT_GT(missed_slots, 1000);
}

TEST(PairScreen, OneByteValuesEqualALoop) { check_random_screens<std::uint8_t>(256); }
TEST(PairScreen, TwoByteValuesEqualALoop) { check_random_screens<std::uint16_t>(2048); }
TEST(PairScreen, FewValuesEqualALoop) {  // most pairs give a candidate
  check_random_screens<std::uint8_t>(8);
  check_random_screens<std::uint16_t>(8);
}

// Random lists of candidates laid out for screening: each heap's listed values in its lane, the
// largest T in every other slot and lane, for groups of every size and counts from 0 to 12, with
// stale values past a heap's count that must not show.
template <class T>
void check_random_layouts() {
  std::mt19937_64 rng(77 + sizeof(T));
  constexpr T kUnlisted = std::numeric_limits<T>::max();
  for (int trial = 0; trial < 400; ++trial) {
    const std::uint64_t heaps = trial % 3 == 0   ? kScreenHeaps
                                : trial % 3 == 1 ? kScreenHeaps / 2
                                                 : 1 + rng() % kScreenHeaps;
    std::vector<HeapCandidates> listed(heaps + 1);  // one past the group, which must not show either
    for (HeapCandidates& heap : listed) {
      heap.count = static_cast<std::uint8_t>(rng() % (kScreenSlots + 1));
      for (Value& value : heap.values) value = static_cast<Value>(rng() % (std::uint64_t{kUnlisted} + 1));
    }
    ScreenCandidates<T> laid;
    for (auto& slot : laid.values)
      for (T& lane : slot) lane = static_cast<T>(rng());
    lay_out_candidates(listed.data(), heaps, laid);
    for (int k = 0; k < kScreenSlots; ++k)
      for (std::uint64_t j = 0; j < kScreenHeaps; ++j) {
        const bool shown = j < heaps && k < listed[j].count;
        ASSERT_EQ(laid.values[k][j], shown ? static_cast<T>(listed[j].values[k]) : kUnlisted)
            << "slot " << k << " lane " << j << " of " << heaps << " heaps";
      }
  }
}

// Both ways: with vector instructions where the machine has them, and a value at a time.
TEST(PairScreen, CandidatesLaidOutLaneByLane) {
  for (VectorPath path : {VectorPath::Avx512, VectorPath::Portable}) {
    limit_vector_path(path);
    check_random_layouts<std::uint8_t>();
    check_random_layouts<std::uint16_t>();
  }
  limit_vector_path(VectorPath::Avx512);
}

// Random lists with random candidates given: the others kept in order, each with its unsure bit.
void check_random_drops() {
  std::mt19937_64 rng(99);
  int dropped = 0, kept = 0;
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<HeapCandidates> heaps(1 + rng() % 40);
    for (HeapCandidates& heap : heaps) {
      heap.count = static_cast<std::uint8_t>(rng() % (kScreenSlots + 1));
      for (int k = 0; k < kScreenSlots; ++k) heap.values[k] = static_cast<Value>(10 * k + rng() % 10);
      const unsigned listed = (1u << heap.count) - 1;
      heap.unsure = static_cast<std::uint16_t>(rng() & listed);
      heap.given = static_cast<std::uint16_t>(rng() & rng() & listed);
    }
    const std::vector<HeapCandidates> before = heaps;
    drop_given(heaps.data(), heaps.size());
    for (std::size_t j = 0; j < heaps.size(); ++j) {
      std::vector<Value> values;
      std::vector<bool> unsure;
      for (int k = 0; k < before[j].count; ++k)
        if (((before[j].given >> k) & 1) == 0) {
          values.push_back(before[j].values[k]);
          unsure.push_back(((before[j].unsure >> k) & 1) != 0);
        }
      ASSERT_EQ(heaps[j].count, values.size()) << "trial " << trial << " heap " << j;
      EXPECT_EQ(heaps[j].given, 0);
      for (std::size_t k = 0; k < values.size(); ++k) {
        EXPECT_EQ(heaps[j].values[k], values[k]) << "trial " << trial << " heap " << j << " slot " << k;
        EXPECT_EQ(((heaps[j].unsure >> k) & 1) != 0, unsure[k]) << "trial " << trial << " heap " << j << " slot " << k;
      }
      EXPECT_EQ(heaps[j].unsure >> values.size(), 0) << "trial " << trial << " heap " << j;
      dropped += before[j].count - static_cast<int>(values.size());
      kept += static_cast<int>(values.size());
    }
  }
  EXPECT_GT(dropped, 500);
  EXPECT_GT(kept, 500);
}

TEST(PairScreen, GivenCandidatesDropped) {
  for (VectorPath path : {VectorPath::Avx512, VectorPath::Portable}) {
    limit_vector_path(path);
    check_random_drops();
  }
  limit_vector_path(VectorPath::Avx512);
}

}  // namespace
}  // namespace sgx
