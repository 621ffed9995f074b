// The pipeline's tasks ahead of its chain (pipeline.cpp): a group's far stage, its rare pairs with
// the partners decided long before marked or screened and its candidates listed, and its bands, the
// pairs with nearer rare positions screened against those candidates, 64 heaps at a time, each band
// once the values it reads are decided. The bands near the chain list further candidates where few
// are left, so that the chain nearly never decides a heap in full.

#include "sparse/pair_marking.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>

namespace sgx {

// A band stage's task (stage > 0; see the pipeline's comment) for the heaps base_ + i, i in
// [first, last), of one group.
template <class T>
void SparseKernel::run_band(const ValueVector<T>& g, int stage, std::uint64_t first, std::uint64_t last,
                            Worker& worker) {
  if constexpr (sizeof(T) <= 2) {  // screened (can_pipeline)
    // The first band reaches a group past the first distance: the far pairs of its last heaps
    // start there (their partner below the first gate).
    const std::uint64_t r_high = tuning::kPipelineDistances[stage - 1] + (stage == 1 ? tuning::kSparseGroup : 0);
    screen_band(g, first, last, tuning::kPipelineDistances[stage], r_high);
    note_task_progress();
    if (stage == kExtendingStage) extend_candidates(g, first, last, tuning::kPipelineDistances[stage], worker);
    // A heap the last band left without a candidate would be decided in full on the chain.
    if (stage == kPipelineStages - 1)
      for (std::uint64_t i = first; i < last; ++i)
        if (candidates_[i].count == count_bits(candidates_[i].given) && needs_more_candidates(i)) {
          list_candidates_exactly(g, i, tuning::kPipelineDistances[stage], worker);
          note_task_progress();
        }
    // The chain compares only candidates none of the bands gave. They are dropped here once the
    // band before the last is done, then once the last (near the chain) is, which also writes
    // the chain's copies of each heap's first two.
    if (stage >= kExtendingStage) drop_given(candidates_.data() + first, last - first);
    if (stage == kPipelineStages - 1) {
      for (std::uint64_t i = first; i < last; ++i) {
        first_candidates_[i] = copy_of_candidate(candidates_[i], 0);
        second_candidates_[i] = copy_of_candidate(candidates_[i], 1);
      }
      hand_over(first_candidates_.data() + first, last - first);
      hand_over(second_candidates_.data() + first, last - first);
    }
  }
}

// A far stage's task for the heaps base_ + i, i in [first, last), of group q: their rare pairs
// with the partner below the first gate marked or screened, and their candidates listed.
template <class T>
void SparseKernel::run_far_part(const ValueVector<T>& g, std::uint64_t q, std::uint64_t first, std::uint64_t last,
                                Worker& worker) {
  reset_heaps(first, last);
  mark_known_pairs_of_group(g, first, last, limit_of_group(q), worker.group, true, false);
  for (std::uint64_t i = first; i < last; ++i) {
    mark_if_screening_failed(g, i, worker.marks);
    list_candidates<T>(base_ + i, kScreenSlots);
    note_task_progress();
  }
}

// Compares the pairs of the heaps base_ + i, i in [first, last) (one group), with the rare r in
// [r_low, r_high) with their candidates, noting those given (Candidates::given). Every such r
// pairs with every heap of the group (r is far below the heaps), so the band is screened 64
// heaps at a time, with no edges.
template <class T>
inline void SparseKernel::screen_band(const ValueVector<T>& g, std::uint64_t first, std::uint64_t last,
                                      std::uint64_t r_low, std::uint64_t r_high) {
  const auto band = rare_between(r_low, r_high);
  if (band.first == band.second) return;
  const std::uint64_t heaps = last - first;
  ScreenCandidates<T> screened;
  lay_out_candidates(candidates_.data() + first, heaps, screened);
  std::uint64_t hits[kScreenSlots] = {};
  screen_rare_range(g, first, heaps, band, screened, hits);
  for_each_hit(hits, [&](int k, std::uint64_t j) {
    Candidates& listed = candidates_[first + j];
    if (k < listed.count) listed.given |= static_cast<std::uint16_t>(1u << k);
  });
}

// Where the bands from r_low on left a heap of group q (heaps base_ + first..last - 1) fewer
// than three candidates (the last band takes some of them too), and its known set misses more
// common values past its list (screen_group cut the list short), lists the next ones: the
// group's screened far pairs and those bands are screened against them, 64 heaps at a time
// (marking the screened pairs of each such heap instead cost a quarter of the pipeline's work
// on Grundy's game). Those a far pair gives join the known set; those a band gives are noted as
// given. Without it, the chain would decide such heaps in full (7% of them on Grundy's game).
// The few heaps whose next values the far pairs all gave (1 in 50 on Grundy's game) are then
// listed one by one from their pairs marked (list_candidates_exactly): a second round for the
// whole group cost as much as the first.
template <class T>
inline void SparseKernel::extend_candidates(const ValueVector<T>& g, std::uint64_t first, std::uint64_t last,
                                            std::uint64_t r_low, Worker& worker) {
  if (!list_more_candidates(g, first, last, r_low)) return;
  for (std::uint64_t i = first; i < last; ++i)
    if (needs_more_candidates(i)) {
      list_candidates_exactly(g, i, r_low, worker);
      note_task_progress();
    }
}

// Whether heap base_ + i has fewer than three candidates not given, while its known set may
// miss common values past its list.
inline bool SparseKernel::needs_more_candidates(std::uint64_t i) const {
  const Candidates& listed = candidates_[i];
  const int left = listed.count - static_cast<int>(count_bits(listed.given));
  return left < 3 && (exact_below_[i] != kExact || listed.count == kScreenSlots);
}

// The round of extend_candidates for the whole group; says whether any heap had more
// candidates listed.
template <class T>
inline bool SparseKernel::list_more_candidates(const ValueVector<T>& g, std::uint64_t first, std::uint64_t last,
                                               std::uint64_t r_low) {
  const std::uint64_t heaps = last - first;
  const Value limit = candidates_below<T>();
  ScreenCandidates<T> next{};  // the slots past a heap's next values are not read
  int next_count[kScreenHeaps] = {};
  std::uint64_t extended = 0;  // bit j: heap first + j has next candidates
  for (std::uint64_t j = 0; j < heaps; ++j) {
    if (!needs_more_candidates(first + j)) continue;
    const Candidates& listed = candidates_[first + j];
    const Value from = listed.count > 0 ? listed.values[listed.count - 1] + 1 : 0;
    const int count = list_unseen(first + j, from, limit, next, j);
    next_count[j] = count;
    extended |= static_cast<std::uint64_t>(count > 0) << j;
  }
  if (extended == 0) return false;
  std::uint64_t far_hits[kScreenSlots] = {}, band_hits[kScreenSlots] = {};
  note_task_progress();
  screen_screened_pairs(g, first, last, next, far_hits);
  note_task_progress();
  screen_rare_range(g, first, heaps, rare_between(r_low, kBandsEnd), next, band_hits);
  note_task_progress();
  struct GivenBy {
    unsigned far = 0, band = 0;  // bit k: next value k given by a far pair, by a band pair
  } given_by[kScreenHeaps];
  for_each_hit(far_hits, [&](int k, std::uint64_t j) { given_by[j].far |= 1u << k; });
  for_each_hit(band_hits, [&](int k, std::uint64_t j) { given_by[j].band |= 1u << k; });
  for (std::uint64_t bits = extended; bits != 0; bits &= bits - 1) {
    const auto j = static_cast<std::uint64_t>(std::countr_zero(bits));
    const unsigned next_listed = (1u << next_count[j]) - 1;  // the slots past them hold no value
    const unsigned far = given_by[j].far & next_listed, band = given_by[j].band;
    ValueSet& known = known_[first + j];
    for (unsigned given = far; given != 0; given &= given - 1) known.insert(next.values[std::countr_zero(given)][j]);
    Candidates& listed = candidates_[first + j];
    drop_given(&listed, 1);
    const unsigned unseen = ~far & next_listed;
    for (unsigned kept = unseen; kept != 0 && listed.count < kScreenSlots; kept &= kept - 1) {
      const int k = std::countr_zero(kept);
      listed.given |= static_cast<std::uint16_t>(((band >> k) & 1) << listed.count);
      listed.values[listed.count++] = next.values[k][j];
    }
    exact_below_[first + j] = next_count[j] == kScreenSlots ? next.values[kScreenSlots - 1][j] + Value{1} : kExact;
    note_unsure(listed, known, rare_.common_pattern(base_ + first + j));
  }
  return true;
}

// extend_candidates for one heap, base_ + i: its screened far pairs marked into its known set
// (exact then, as where a block's screening failed), its candidates listed on past those the
// bands left, each noted as given where one of its pairs with the rare r in [r_low, kBandsEnd)
// gives it.
template <class T>
inline void SparseKernel::list_candidates_exactly(const ValueVector<T>& g, std::uint64_t i, std::uint64_t r_low,
                                                  Worker& worker) {
  const std::uint64_t n = base_ + i;
  worker.scratch.fit(rare_.bound);
  ValueMarks& marks = worker.scratch.marks;
  if (exact_below_[i] != kExact) mark_screened_pairs(g, i, marks);  // leaves the marks clear
  const auto [r_first, r_last] = rare_between(r_low, kBandsEnd);
  for (const SplitMove& move : moves_.split_two()) mark_pairs(g, move, n - move.take, r_first, r_last, marks);
  ValueSet& band = worker.scratch.seen;
  band.clear();
  marks.move_into(band);
  Candidates& listed = candidates_[i];
  Candidates merged = listed;
  drop_given(&merged, 1);
  // The known set is exact now: the values it misses past the list are the next candidates.
  const Value from = listed.count > 0 ? listed.values[listed.count - 1] + 1 : 0;
  const Value limit = candidates_below<T>();
  const ValueSet& common = rare_.common_pattern(n);
  known_[i].for_each_missing_of(common, limit, [&](Value v) {
    if (v < from) return true;
    merged.given |= static_cast<std::uint16_t>(static_cast<unsigned>(band.contains(v)) << merged.count);
    merged.values[merged.count++] = v;
    return merged.count < kScreenSlots;
  });
  note_unsure(merged, known_[i], common);
  listed = merged;
}

// Instantiated here for every type of values: the other files see only the declarations.
#define SGX_SPARSE_INSTANTIATE(T) \
  template void SparseKernel::run_band<T>(const ValueVector<T>& g, int stage, std::uint64_t first, \
      std::uint64_t last, Worker& worker); \
  template void SparseKernel::run_far_part<T>(const ValueVector<T>& g, std::uint64_t q, std::uint64_t first, \
      std::uint64_t last, Worker& worker);
SGX_SPARSE_FOR_EACH_TYPE(SGX_SPARSE_INSTANTIATE)
#undef SGX_SPARSE_INSTANTIATE

}  // namespace sgx
