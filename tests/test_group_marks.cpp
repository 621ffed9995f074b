// A group's rows of value marks (group_marks.hpp) against sets filled one value at a time.

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "sparse/group_marks.hpp"

namespace sgx {

namespace {

// Random parts paired with a group's partners (a full group, whose one- and two-byte values are
// marked a vector at a time, and short ones), some skipping a heap, and single values marked
// into a heap's row; each row, moved into a set, must hold exactly the values expected, and be
// clear afterwards (a second move adds nothing).
template <class T>
void check_random_groups(std::uint64_t bound, bool as_bits) {
  std::mt19937_64 rng(99 + sizeof(T) + (as_bits ? 7 : 0));
  GroupMarks group;
  int full_groups = 0, skipped = 0;
  for (int trial = 0; trial < 200; ++trial) {
    // Full groups, halves (a part of the pipeline's far stage, marked a vector at a time too) and
    // other short groups.
    const std::uint64_t heaps = trial % 6 == 5   ? tuning::kSparseGroup / 2
                                : trial % 3 == 2 ? 1 + rng() % (tuning::kSparseGroup - 1)
                                                 : tuning::kSparseGroup;
    full_groups += heaps == tuning::kSparseGroup;
    group.prepare(heaps, bound, as_bits);
    std::vector<ValueSet> expected(heaps, ValueSet(bound));
    // Each part's own partners, left in place: as bits, the pairs are only listed, and read when
    // the rows are (as the kernel's partners are values already decided).
    const int parts = 1 + static_cast<int>(rng() % 40);
    std::vector<std::vector<T>> partners_of(static_cast<std::size_t>(parts));
    for (int p = 0; p < parts; ++p) {
      std::vector<T>& partners = partners_of[static_cast<std::size_t>(p)];
      partners.resize(heaps + 16);  // read a vector at a time: room past the last heap
      for (T& v : partners) v = static_cast<T>(rng() % bound);
      const T part = static_cast<T>(rng() % bound);
      const std::uint64_t skip = rng() % 2 == 0 ? rng() % heaps : heaps + rng() % 100;  // past the group: none
      skipped += skip < heaps;
      group.mark_pair_values(part, partners.data(), heaps, skip);
      for (std::uint64_t j = 0; j < heaps; ++j)
        if (j != skip) expected[j].insert(static_cast<Value>(part ^ partners[j]));
    }
    const std::uint64_t j = rng() % heaps;
    const auto single = static_cast<Value>(rng() % bound);
    group.mark_heap(j, [&](auto& marks) { marks.insert(single); });
    expected[j].insert(single);
    for (std::uint64_t h = 0; h < heaps; ++h) {
      ValueSet row(bound), again(bound);
      group.move_row_into(h, row);
      group.move_row_into(h, again);
      for (Value v = 0; v < bound; ++v) {
        ASSERT_EQ(row.contains(v), expected[h].contains(v))
            << "trial " << trial << " heap " << h << " of " << heaps << " value " << v;
        ASSERT_FALSE(again.contains(v)) << "trial " << trial << " heap " << h << ": the row was not cleared";
      }
    }
  }
  EXPECT_GT(full_groups, 100);
  EXPECT_GT(skipped, 500);
}

TEST(GroupMarks, ByteValuesAsBytes) { check_random_groups<std::uint8_t>(256, false); }
TEST(GroupMarks, TwoByteValuesAsBytes) { check_random_groups<std::uint16_t>(8192, false); }  // past 12 bits
// The rows' strides that a whole group's marking knows at compile time (mark_whole_group).
TEST(GroupMarks, ValuesAsBytesInRowsOfEachStride) {
  check_random_groups<std::uint8_t>(128, false);
  check_random_groups<std::uint16_t>(512, false);
  check_random_groups<std::uint16_t>(1024, false);
}
TEST(GroupMarks, ByteValuesBelow64AsBits) {
  if (!can_mark_pair_bits()) GTEST_SKIP() << "marking as bits needs AVX-512";
  check_random_groups<std::uint8_t>(64, true);
}

}  // namespace

}  // namespace sgx
