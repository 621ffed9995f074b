#pragma once
// Deciding heaps one at a time, from their rare pairs and a short scan, when a game has few rare
// positions and every value lies below 256 (docs/THEORY.md section 4). Private to the library.
//
// The sparse kernel decides heaps in blocks, so that the pairs with a partner below the block can
// be listed in parallel; the pairs with a partner inside it are left to an ordered part. On one
// thread nothing is gained by that split, and for the sparsest games (0.167: 60 rare positions,
// all below 1304) it is most of the cost: nearly every rare position's partner lies inside the
// block. Here each heap is decided on its own, with every value below it known:
//   - its rare pairs (r, m - r), m = n - k, give the common values of its options, as one 64-bit
//     word below 64 (two below 128, four below 256). For r of 64 or more the partners of 64
//     consecutive heaps are known before the first of them, so those pairs are marked as bits
//     for all 64 at once (pair_bits.hpp), for the split taking the least only: a split taking d
//     more gives heap n what it gave heap n - d. The pairs with r below 64 are read a heap at a
//     time, their partners permuted from the 128 bytes below the heap, 16 pairs a vector;
//   - c, the least common value none of its options gives, is G(n) unless a rare value below c
//     is given by no option; those rare values are looked for among the pairs (a, m - a) from
//     a = 1, 128 pairs of each split a step at first, more in later steps, each vector of 64
//     pairs looked up in tables of 64, 128 or 256 bytes. The first step looks for the sixteen
//     least rare values whatever c is, in tables made once, so that it runs beside the work
//     that finds c; later steps look for the values still wanted. A value no pair gives is a new
//     rare position, and then G(n).
// Where no move of heap n + 1 reads heap n (every split takes a token, every one-heap move two),
// two heaps are decided side by side, so that one's chain of lookups runs while the other's waits.
// 0.167 takes two permutes a heap for its near pairs, a share of 47 marked pairs of 64 heaps,
// and five vectors of the scan on average, with no store a pair.

#include <array>
#include <cstdint>
#include <vector>

#include "games/move_table.hpp"
#include "sparse/pair_bits.hpp"
#include "sgx/sequence.hpp"
#include "sgx/stats.hpp"

namespace sgx {

// Whether LoneHeaps::decide runs here (vector_path() is Avx512, and the processor has AVX-512
// VBMI2 and BMI2).
bool can_decide_heaps_alone();

// The values LoneHeaps decides lie below this, as bits in up to kLoneWordsAtMost words.
inline constexpr Value kLoneValuesBelow = 256;
inline constexpr int kLoneWordsAtMost = kLoneValuesBelow / 64;

class LoneHeaps {
 public:
  // Up to four takes k0 <= k < k0 + 4 whose near rare pairs are permuted from one window: the
  // partner of the pair (r, n - k - r) lies at byte k0 + 3 - k past n - k0 - 3 - r.
  struct TakeGroup {
    std::uint64_t deepest;             // k0 + 3
    std::vector<std::uint32_t> bytes;  // the byte of each take of the group
  };

  // A game without a repeating tail: its moves from heaps past its code (taking all is then never
  // a move), its rare positions with their values (all below values_below: 64, 128 or
  // kLoneValuesBelow), and the mask they are rare under. Called again whenever the rare positions,
  // the mask or values_below change.
  void prepare(const MoveTable& moves, const std::vector<std::uint64_t>& rare, const std::vector<Value>& rare_values,
               const RareMask& mask, Value values_below = 64);

  // The least heap decide() takes: past the code, every rare pair's partner past its first part,
  // and a scan's first vector inside the values.
  std::uint64_t first_heap() const { return first_heap_; }

  // How far below a heap its decision reads, besides its scan's first parts (small, near 0).
  std::uint64_t reach() const { return reach_; }

  // Decides heaps from, from + 1, ... (from >= first_heap()) up to to, writing G(n) to g[n]: g
  // holds every value below from, all below values_below, and room up to to. Stops after a heap
  // whose value is rare (a new rare position: prepare again) and before one whose common values
  // below values_below are all given (its value may be values_below or more). Under bounded
  // memory only G(0..prefix_end-1) and G(tail_start..) may be read (from - reach() >= tail_start):
  // then it also stops before a heap whose scan would need a pair past them (left to the caller,
  // which can say why it cannot go on). Returns how many heaps it decided.
  std::uint64_t decide(std::uint8_t* g, std::uint64_t from, std::uint64_t to,
                       std::uint64_t prefix_end = ~std::uint64_t{0}, std::uint64_t tail_start = 0);

  // The vectors of 64 split pairs the scans looked at, so far (a figure for bench/).
  std::uint64_t scanned_vectors() const { return scanned_vectors_; }

 private:
  std::vector<TakeGroup> groups_;
  std::vector<SplitMove> splits_;
  std::vector<std::uint64_t> leave_one_;
  // The rare positions below kBitHeaps, whose partners may lie among the 64 heaps decided
  // together: read a heap at a time.
  std::vector<std::int32_t> near_;          // padded to a multiple of 16 lanes with the first one
  std::vector<std::uint32_t> near_parts_;  // G(r)
  // For each 16 of them and each byte b < 4 of a take group: where each partner lies in its
  // window of 128 bytes, at the low byte of a 32-bit lane.
  std::vector<std::array<std::uint8_t, 64>> near_indexes_;
  // The others, whose pairs are marked for 64 heaps at once (pair_bits.hpp).
  std::vector<std::uint64_t> far_;
  std::vector<std::uint8_t> far_parts_;
  std::vector<GroupPair> far_pairs_;  // the far pairs of the split taking the least, at the heaps at hand
  std::vector<std::uint64_t> far_history_[kLoneWordsAtMost];  // their bits for the heaps at hand and below, by word
  int words_ = 1;                   // words of bits: values below 64 words_
  std::uint64_t common_[2][kLoneWordsAtMost] = {};  // the common values for even and odd heaps, as bits by word
  // For even and odd heaps: tables giving each of the sixteen least rare values the bit of its
  // rank (the first eight, then the next eight; 64 bytes a word), and those values as bits. The
  // scan's first step looks them up before the heap's common value is known.
  alignas(64) std::uint8_t first_rare_tables_[2][2][kLoneValuesBelow] = {};
  std::uint64_t first_rare_[2][kLoneWordsAtMost] = {};
  bool side_by_side_ = false;  // heaps n and n + 1 may be decided together
  std::uint64_t first_heap_ = 0;
  std::uint64_t reach_ = 0;
  std::uint64_t scanned_vectors_ = 0;
};

}  // namespace sgx
