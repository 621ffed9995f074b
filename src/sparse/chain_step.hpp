#pragma once
// The pipeline's chain step (pipeline.cpp, SparseKernel::pipeline): heaps decided one after
// another by comparing each heap's candidates with its options that read the values just decided,
// its pairs with the near rare positions and its moves to one heap. Private to the library.
//
// Each step reads the values the steps just before it wrote. Read from memory, a vector of them
// waits until the last value's store has reached the cache (a wide load cannot take its bytes
// from a narrow store still on its way), so here the newest values are held in two vector
// registers as well, shifted by one value a step, and the partners that lie among them are
// taken from there (bench/bench_chain.cpp times the step with every partner held). The pairs
// whose partners lie below the run of heaps the step is given are compared with each heap's first
// candidate before it, a vector of heaps at a time; a heap's own step compares only the 64 newest
// partners, a vector or two.

#include <cstddef>
#include <cstdint>

#include "games/move_table.hpp"
#include "sparse/pair_screen.hpp"
#include "sgx/sequence.hpp"
#include "base/tuning.hpp"

namespace sgx {

// The options of a heap n that the chain compares, for every heap of a run: for each two-heap
// split (splits[s], taking its take first, m = n - take), the pairs (r, m - r) with the rare r <= lanes,
// as lane j of parts (G(r) for r = lanes - j; holes[j] is all ones where that r is not rare and 0
// where it is) against the partner G(m - lanes + j); and the moves to one heap, G(n - k) for k in
// leave_one. Every heap of the run must lie past 2 (lanes + the largest take), so that each such r
// pairs with it.
template <class T>
struct NearOptions {
  const T* parts;
  const T* holes;
  std::uint64_t lanes;
  const SplitMove* splits;
  std::size_t split_count;
  const std::uint64_t* leave_one;
  std::size_t leave_one_count;
};

// A copy of one of a heap's first candidates, for the chain. The other threads' tasks write the
// candidate lists (HeapCandidates) just before the chain reads them, so each line it reads comes
// from another core, and a heap's list takes a line where sixteen of these fit in one. Nearly
// always the first candidate is the value, and the chain reads the second where it is not; the
// whole list only where both are given (Grundy's game to 2^24: 4.7% of the heaps had their first
// candidate given).
struct CandidateCopy {
  std::uint16_t value = 0;  // the pipeline runs for values of 8 and 16 bits only
  bool unsure = false;      // a rare value below it is not known present
  bool listed = false;      // the heap has this candidate at all
};
static_assert(sizeof(CandidateCopy) == 4);

// Candidate k of a list, copied.
inline CandidateCopy copy_of_candidate(const HeapCandidates& listed, int k) {
  return {static_cast<std::uint16_t>(listed.values[k]), ((listed.unsure >> k) & 1u) != 0, listed.count > k};
}

// Moves the cache lines of copies[0..count) out of this core's caches towards the cache all cores
// share (CLDEMOTE, a hint: a no-op where the processor lacks it), so that the chain, on another
// core, reads them from there instead of asking this core for them: written just before the
// chain reads them (the last band), they are otherwise still in the writer's cache. Grundy's game
// to 2^24 on four threads: the chain's time 0.272-0.288 s -> 0.259-0.260 s.
void hand_over(CandidateCopy* copies, std::size_t count);

// The chain's copies of its heaps' first and second candidates, a heap to an entry of each.
struct LeadingCandidates {
  const CandidateCopy* first;
  const CandidateCopy* second;
};

// Whether chain_decide runs here (vector_path() is Avx512) for these options: values of 8 or 16
// bits, kChainLanes lanes (the pipeline's), one to kInOrderSplits splits.
inline constexpr std::uint64_t kChainLanes = tuning::kPipelineNear;
inline constexpr std::size_t kInOrderSplits = tuning::kQuickMovesAtMost;
template <class T>
bool can_chain_decide(const NearOptions<T>& options);

// Decides the heaps from `from` on, towards `to`, in order: each takes the first of its candidates
// (candidates[n - from], none of them given, its first two also in leading, from `from` on) that
// none of its near options gives, written to g[n]; bit n - from of speculated is set where that
// candidate was unsure. Stops at the first heap
// whose candidates are all given (its value needs more than the compare) and returns it, or to.
// to - from is at most 64; g holds every value below from, and from is past twice the values
// held (chain_decide's registers, 128 values).
std::uint64_t chain_decide(std::uint8_t* g, std::uint64_t from, std::uint64_t to, const HeapCandidates* candidates,
                           LeadingCandidates leading, const NearOptions<std::uint8_t>& options,
                           std::uint64_t& speculated);
std::uint64_t chain_decide(std::uint16_t* g, std::uint64_t from, std::uint64_t to, const HeapCandidates* candidates,
                           LeadingCandidates leading, const NearOptions<std::uint16_t>& options,
                           std::uint64_t& speculated);

}  // namespace sgx
