// The value store: values kept in the narrowest of uint8/uint16/uint32, widened on demand.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <numeric>
#include <random>
#include <thread>
#include <type_traits>
#include <vector>

#include "sgx/sequence.hpp"

namespace sgx {
namespace {

TEST(SequenceStorage, StartsEmptyAndNarrow) {
  Sequence s;
  EXPECT_TRUE(s.empty());
  EXPECT_EQ(s.size(), 0u);
  EXPECT_EQ(s.bytes_per_value(), 1u);
  EXPECT_EQ(s.type_max(), 255u);
  EXPECT_TRUE(s.to_vector().empty());
}

TEST(SequenceStorage, StaysNarrowWhileValuesFit) {
  Sequence s;
  for (Value v = 0; v <= 255; ++v) s.push_back(v);
  EXPECT_EQ(s.bytes_per_value(), 1u);
  EXPECT_EQ(s.size(), 256u);
  for (Value v = 0; v <= 255; ++v) EXPECT_EQ(s[v], v);
  EXPECT_FALSE(s.empty());
}

TEST(SequenceStorage, WidensStepByStepKeepingValues) {
  Sequence s;
  s.push_back(7);
  s.push_back(255);
  s.push_back(256);
  EXPECT_EQ(s.bytes_per_value(), 2u);
  EXPECT_EQ(s.type_max(), 65535u);
  EXPECT_EQ(s.to_vector(), (std::vector<Value>{7, 255, 256}));
  s.push_back(65535);
  EXPECT_EQ(s.bytes_per_value(), 2u);
  s.push_back(65536);
  EXPECT_EQ(s.bytes_per_value(), 4u);
  EXPECT_EQ(s.type_max(), 0xFFFFFFFFu);
  s.push_back(0xFFFFFFFFu);
  EXPECT_EQ(s.to_vector(), (std::vector<Value>{7, 255, 256, 65535, 65536, 0xFFFFFFFFu}));
  // Never narrower again.
  s.push_back(1);
  s.truncate(1);
  EXPECT_EQ(s.bytes_per_value(), 4u);
  EXPECT_EQ(s.to_vector(), (std::vector<Value>{7}));
}

TEST(SequenceStorage, WidensFromOneByteStraightToFour) {
  Sequence s;
  s.push_back(200);
  s.push_back(100000);
  EXPECT_EQ(s.bytes_per_value(), 4u);
  EXPECT_EQ(s.to_vector(), (std::vector<Value>{200, 100000}));
}

TEST(SequenceStorage, WidenToHold) {
  Sequence s;
  s.push_back(3);
  s.widen_to_hold(255);
  EXPECT_EQ(s.bytes_per_value(), 1u);
  s.widen_to_hold(0);
  EXPECT_EQ(s.bytes_per_value(), 1u);
  s.widen_to_hold(256);
  EXPECT_EQ(s.bytes_per_value(), 2u);
  EXPECT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0], 3u);
  s.widen_to_hold(10);  // never narrows
  EXPECT_EQ(s.bytes_per_value(), 2u);
  s.widen_to_hold(65536);
  EXPECT_EQ(s.bytes_per_value(), 4u);
  EXPECT_EQ(s[0], 3u);

  Sequence t;
  t.widen_to_hold(70000);
  EXPECT_EQ(t.bytes_per_value(), 4u);
  EXPECT_TRUE(t.empty());
}

TEST(SequenceStorage, VisitSeesTheUnderlyingVector) {
  Sequence s;
  s.push_back(5);
  bool narrow = s.visit([](auto& v) { return std::is_same_v<std::decay_t<decltype(v)>, sgx::ValueVector<std::uint8_t>>; });
  EXPECT_TRUE(narrow);
  s.push_back(1000);
  const Sequence& cs = s;
  bool wide = cs.visit([](const auto& v) {
    return std::is_same_v<std::decay_t<decltype(v)>, sgx::ValueVector<std::uint16_t>> && v.size() == 2 && v[1] == 1000;
  });
  EXPECT_TRUE(wide);
  s.visit([](auto& v) { v[0] = 9; });
  EXPECT_EQ(s[0], 9u);
}

TEST(SequenceStorage, ResizeAndTruncate) {
  Sequence s;
  s.push_back(1);
  s.push_back(2);
  s.resize(5);
  EXPECT_EQ(s.to_vector(), (std::vector<Value>{1, 2, 0, 0, 0}));
  s.resize(1);
  EXPECT_EQ(s.to_vector(), (std::vector<Value>{1}));
  s.push_back(300);
  s.resize(4);
  EXPECT_EQ(s.bytes_per_value(), 2u);
  EXPECT_EQ(s.to_vector(), (std::vector<Value>{1, 300, 0, 0}));
  s.truncate(10);  // only shortens
  EXPECT_EQ(s.size(), 4u);
  s.truncate(2);
  EXPECT_EQ(s.to_vector(), (std::vector<Value>{1, 300}));
  s.truncate(0);
  EXPECT_TRUE(s.empty());
  EXPECT_EQ(s.bytes_per_value(), 2u);
  s.reserve(1000);
  EXPECT_TRUE(s.empty());
}

// A view of a Sequence converts implicitly and reads the same values.
TEST(ValuesView, ReadsWhatTheSequenceHolds) {
  const Sequence s = Sequence::from_vector({3, 1, 4, 1, 5, 9, 2, 6});
  const ValuesView view = s;
  ASSERT_EQ(view.size(), 8u);
  for (std::uint64_t n = 0; n < 8; ++n) EXPECT_EQ(view[n], s[n]);
  EXPECT_FALSE(view.has_released());
  EXPECT_EQ(view.visit([](const auto& v) { return sizeof(v[0]); }), 1u);
}

// Pinned values stay readable, and right, after the Sequence moved to new storage: grown past its
// capacity, widened, and destroyed. (Under AddressSanitizer a freed block read here is reported.)
TEST(PinnedValues, OutliveTheStorageTheyWereTakenFrom) {
  std::vector<Value> expected(1000);
  std::iota(expected.begin(), expected.end(), 0);  // up to 999: two bytes
  auto s = std::make_unique<Sequence>(Sequence::from_vector(expected));
  const PinnedValues pinned(*s);
  const void* block = pinned.view().visit([](const auto& v) -> const void* { return v.data(); });
  for (Value v = 0; v < 100000; ++v) s->push_back(v);  // past the capacity: moves
  s->push_back(70000);                                  // widens: moves again
  EXPECT_NE(s->visit([](const auto& v) -> const void* { return v.data(); }), block);
  s.reset();
  ASSERT_EQ(pinned.view().size(), 1000u);
  for (std::uint64_t n = 0; n < 1000; ++n) EXPECT_EQ(pinned.view()[n], expected[n]);
}

TEST(PinnedValues, OfAnEmptySequenceAreEmpty) {
  const Sequence s;
  const PinnedValues pinned(s);
  EXPECT_TRUE(pinned.view().empty());
}

// Another thread reads pinned values while the Sequence appends, widens and moves meanwhile.
TEST(PinnedValues, AreReadByAnotherThreadWhileTheSequenceGrows) {
  Sequence s;
  for (Value v = 0; v < 200000; ++v) s.push_back(v % 200);
  std::uint64_t sum = 0;
  {
    PinnedValues pinned(s);
    std::thread reader([&sum, view = pinned.view()] {
      for (int round = 0; round < 20; ++round)
        for (std::uint64_t n = 0; n < view.size(); ++n) sum += view[n];
    });
    for (Value v = 0; v < 2000000; ++v) s.push_back(v);
    reader.join();
  }
  std::uint64_t one_round = 0;
  for (Value v = 0; v < 200000; ++v) one_round += v % 200;
  EXPECT_EQ(sum, 20 * one_round);
  EXPECT_EQ(s[1999999 + 200000], 1999999u);
}

TEST(SequenceConvert, FromVectorChoosesNarrowestType) {
  EXPECT_EQ(Sequence::from_vector({}).bytes_per_value(), 1u);
  EXPECT_EQ(Sequence::from_vector({0, 255, 3}).bytes_per_value(), 1u);
  EXPECT_EQ(Sequence::from_vector({0, 256, 3}).bytes_per_value(), 2u);
  EXPECT_EQ(Sequence::from_vector({65535}).bytes_per_value(), 2u);
  EXPECT_EQ(Sequence::from_vector({1, 65536}).bytes_per_value(), 4u);
  const std::vector<Value> values = {4, 0, 70000, 9, 65535, 0xFFFFFFFFu};
  Sequence s = Sequence::from_vector(values);
  EXPECT_EQ(s.size(), values.size());
  EXPECT_EQ(s.to_vector(), values);
  for (std::size_t i = 0; i < values.size(); ++i) EXPECT_EQ(s[i], values[i]);
}

TEST(SequenceEquality, ComparesValuesNotWidths) {
  Sequence narrow = Sequence::from_vector({1, 2, 3});
  Sequence wide;
  wide.widen_to_hold(100000);
  for (Value v : {1, 2, 3}) wide.push_back(v);
  ASSERT_EQ(narrow.bytes_per_value(), 1u);
  ASSERT_EQ(wide.bytes_per_value(), 4u);
  EXPECT_TRUE(narrow == wide);
  EXPECT_TRUE(wide == narrow);

  Sequence middle;
  middle.widen_to_hold(1000);
  for (Value v : {1, 2, 3}) middle.push_back(v);
  EXPECT_TRUE(middle == narrow);
  EXPECT_TRUE(middle == wide);

  Sequence longer = Sequence::from_vector({1, 2, 3, 0});
  EXPECT_FALSE(narrow == longer);
  EXPECT_FALSE(longer == narrow);
  // Truncated storage keeps its old values in spare capacity; a size check must still tell them apart.
  Sequence truncated = Sequence::from_vector({1, 2, 3, 0});
  truncated.truncate(3);
  EXPECT_TRUE(truncated == narrow);
  EXPECT_FALSE(longer == truncated);
  EXPECT_FALSE(truncated == longer);
  Sequence shorter = Sequence::from_vector({1, 2});
  EXPECT_FALSE(narrow == shorter);
  Sequence different = Sequence::from_vector({1, 2, 4});
  EXPECT_FALSE(narrow == different);
  EXPECT_FALSE(wide == different);
  // A value that only differs above the low byte is still different.
  EXPECT_FALSE(Sequence::from_vector({1, 2, 3 + 256}) == narrow);
  EXPECT_FALSE(narrow == Sequence::from_vector({1, 2, 3 + 65536}));

  Sequence empty_wide;
  empty_wide.widen_to_hold(1u << 20);
  EXPECT_TRUE(Sequence() == empty_wide);
}

TEST(SequenceRandom, MatchesAPlainVector) {
  std::mt19937_64 rng(12345);
  for (int trial = 0; trial < 200; ++trial) {
    const Value limit = std::vector<Value>{10, 255, 300, 65535, 70000, 0xFFFFFFFFu}[trial % 6];
    std::uniform_int_distribution<Value> value(0, limit);
    Sequence s;
    std::vector<Value> expected;
    const int steps = std::uniform_int_distribution<int>(0, 400)(rng);
    for (int i = 0; i < steps; ++i) {
      const int op = std::uniform_int_distribution<int>(0, 19)(rng);
      if (op == 0) {
        const auto n = std::uniform_int_distribution<std::size_t>(0, expected.size() + 5)(rng);
        s.resize(n);
        expected.resize(n, 0);
      } else if (op == 1) {
        const auto n = std::uniform_int_distribution<std::size_t>(0, expected.size() + 5)(rng);
        s.truncate(n);
        if (n < expected.size()) expected.resize(n);
      } else {
        const Value v = value(rng);
        s.push_back(v);
        expected.push_back(v);
      }
      ASSERT_EQ(s.size(), expected.size());
    }
    ASSERT_EQ(s.to_vector(), expected);
    for (std::size_t i = 0; i < expected.size(); ++i) ASSERT_EQ(s[i], expected[i]);
    ASSERT_TRUE(s == Sequence::from_vector(expected));
    Value needed = 0;
    for (Value v : expected) needed = std::max(needed, v);
    ASSERT_GE(s.type_max(), needed);
  }
}

}  // namespace
}  // namespace sgx
