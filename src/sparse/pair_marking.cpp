// What the sparse kernel knows of a group's heaps before their turn: their rare pairs with the
// partners already decided marked a group at a time (a rare position pairs with every heap of a
// group, so its values are one vectorised pass; pair_bits.hpp, group_marks.hpp), the probe pairs
// (the first parts holding the most frequent values, which give the rare values most often), and
// the rare pairs past the first few hundred screened rather than marked (pair_screen.hpp): compared
// with each heap's least common values not yet seen, marked after all only where every one turns up.

#include "sparse/pair_marking.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace sgx {

// Screens the pairs of the heaps base_ + first + j, j < heaps, with the rare r of band (from
// rare_between), every one of which pairs with all of them, against candidates, into hits
// (screen_rare_pairs).
template <class T>
void SparseKernel::screen_rare_range(const ValueVector<T>& g, std::uint64_t first, std::uint64_t heaps,
                                     std::pair<RareIt, RareIt> band, const ScreenCandidates<T>& candidates,
                                     std::uint64_t* hits) const {
  if (band.first == band.second) return;
  const auto r_index = static_cast<std::size_t>(band.first - rare_.positions.begin());
  for (const SplitMove& move : moves_.split_two())
    screen_rare_pairs(g.data(), base_ + first - move.take, rare_.positions.data() + r_index,
                      rare_.values.data() + r_index,
                      static_cast<std::uint64_t>(band.second - band.first), move.unequal, heaps, candidates, hits);
}

// Screens the screened rare pairs of the heaps base_ + i, i in [first, last) (a group or a part of
// one), against candidates (lane j: heap first + j) into hits, a part at a time (screening_unit):
// each has its own ranges.
template <class T>
void SparseKernel::screen_screened_pairs(const ValueVector<T>& g, std::uint64_t first, std::uint64_t last,
                                         const ScreenCandidates<T>& candidates, std::uint64_t* hits) const {
  const std::uint64_t unit = screening_unit();
  for (std::uint64_t part_first = first; part_first < last; part_first += unit) {
    const std::uint64_t heaps = std::min(unit, last - part_first), lane = part_first - first;
    ScreenCandidates<T> shifted{};  // a later part's candidates from lane 0
    if (lane > 0)
      for (int k = 0; k < kScreenSlots; ++k) std::copy_n(candidates.values[k] + lane, heaps, shifted.values[k]);
    const ScreenCandidates<T>& part_candidates = lane > 0 ? shifted : candidates;
    std::uint64_t part_hits[kScreenSlots] = {};
    for (const Screened& range : screened_of(part_first))
      screen_rare_pairs(g.data(), range.m_lo, rare_.positions.data() + range.first, rare_.values.data() + range.first,
                        range.last - range.first, range.move->unequal, heaps, part_candidates, part_hits);
    for (int k = 0; k < kScreenSlots; ++k) hits[k] |= part_hits[k] << lane;
  }
}

// Puts into the known sets of the heaps base_ + i, i in [first, last) (one group), their rare
// pairs and (with probes) probe pairs with the partner below limit, the rare pairs marked or
// (with screening) screened.
template <class T>
void SparseKernel::mark_known_pairs_of_group(const ValueVector<T>& g, std::uint64_t first, std::uint64_t last,
                                             std::uint64_t limit, GroupMarks& group, bool screening, bool probes) {
  std::vector<Screened>& screened = screened_of(first);
  screened.clear();
  mark_rare_pairs_of_group(g, first, last, 0, limit, group, screening ? &screened : nullptr);
  note_task_progress();
  if (probes) mark_probe_pairs_of_group(g, first, last, limit, group);
  for (std::uint64_t i = first; i < last; ++i) {
    known_[i].clear();
    group.move_row_into(i - first, known_[i]);
  }
  if constexpr (sizeof(T) <= 2)
    if (!screened.empty()) screen_group(g, first, last);
}

// Marks heap base_ + i's screened pairs into its known set where their screening failed.
template <class T>
void SparseKernel::mark_if_screening_failed(const ValueVector<T>& g, std::uint64_t i, ValueMarks& marks) {
  if (remark_[i]) mark_screened_pairs(g, i, marks);
}

// Marks, for the heaps base_ + i with i in [first, last) (at most kSparseGroup), the values of
// their rare pairs with the partner in [low, high) into one row of marks per heap. A rare r that
// pairs with every heap of the group meets the partners G(m - r) of consecutive heaps in
// consecutive places, so its values are one vectorised XOR and a plain store per heap (or, below
// 64, bits for 64 heaps at once: GroupMarks); only the few r at the edges are paired heap by heap.
//
// With screened given, only the first screen_marked_ such r of a long run are marked; the rest
// are left to screen_group, listed in screened.
template <class T>
inline void SparseKernel::mark_rare_pairs_of_group(const ValueVector<T>& g, std::uint64_t first, std::uint64_t last,
                                                   std::uint64_t low, std::uint64_t high, GroupMarks& group,
                                                   std::vector<Screened>* screened) const {
  const std::uint64_t heaps = last - first;
  group.prepare(heaps, rare_.bound, sizeof(T) == 1 && marks_as_bits());
  for (const SplitMove& move : moves_.split_two()) {
    const std::uint64_t n_lo = base_ + first;
    if (move.take + 2 > n_lo || n_lo - move.take <= heaps) {  // small heaps: one at a time
      for (std::uint64_t j = 0; j < heaps; ++j) {
        if (move.take + 2 > n_lo + j) continue;
        group.mark_heap(j, [&](auto& marks) { mark_rare_pairs(g, move, n_lo + j - move.take, low, high, marks); });
      }
      continue;
    }
    const std::uint64_t m_lo = n_lo - move.take;
    const GroupRare rare = group_rare(m_lo, heaps, low, high);
    const RareIt every_first = rare.every_first, every_last = rare.every_last;
    RareIt marked_last = every_last;
    if (screened && every_last - every_first > screen_marked_ + tuning::kScreenMinPairs) {
      marked_last = every_first + screen_marked_;
      screened->push_back(Screened{&move, m_lo, static_cast<std::size_t>(marked_last - rare_.positions.begin()),
                                   static_cast<std::size_t>(every_last - rare_.positions.begin())});
    }
    mark_pairs_with_every_heap(g, move, m_lo, heaps, every_first, marked_last, group);
    for (std::uint64_t j = 0; j < heaps; ++j) {  // the edges
      const std::uint64_t m = m_lo + j;
      group.mark_heap(j, [&](auto& marks) { mark_edge_pairs(g, move, m, low, high, rare, marks); });
    }
  }
}

// Marks the pairs of the rare r in [first, last) with each of the heaps of a group, whose parts
// sum to m_lo + j for heap j, into its rows. Kept out of line, as is mark_probe_pairs_of_group:
// inlined into the group's task, the marking loop lost its registers to the rest (a load from
// the stack every pair), and Grundy's game was 4% slower on one thread.
template <class T>
void SparseKernel::mark_pairs_with_every_heap(const ValueVector<T>& g, const SplitMove& move, std::uint64_t m_lo,
                                              std::uint64_t heaps, RareIt first, RareIt last, GroupMarks& group) const {
  const std::uint64_t m_hi = m_lo + heaps - 1;
  // kNoteEvery rare positions at a time, with a note between for the profile (task_clock.hpp).
  constexpr std::ptrdiff_t kNoteEvery = 64;
  for (RareIt stretch = first; stretch != last;) {
    const RareIt stretch_end = last - stretch > kNoteEvery ? stretch + kNoteEvery : last;
    for (RareIt r = stretch; r != stretch_end; ++r) {
      const T part = static_cast<T>(rare_.values[static_cast<std::size_t>(r - rare_.positions.begin())]);
      const T* partners = g.data() + (m_lo - *r);  // heap j pairs r with m_lo + j - r
      // The partners of successive r lie far apart once n outgrows the caches: ask for those of
      // a later r now, so that they arrive while this one is marked.
      if (last - r > tuning::kSparsePrefetchAhead) {
        const char* ahead = reinterpret_cast<const char*>(g.data() + (m_lo - r[tuning::kSparsePrefetchAhead]));
        for (std::uint64_t byte = 0; byte < heaps * sizeof(T); byte += 64) __builtin_prefetch(ahead + byte);
      }
      // With unequal parts, the heap with m = 2r has no split (r, r).
      const std::uint64_t skip = move.unequal && 2 * *r >= m_lo && 2 * *r <= m_hi ? 2 * *r - m_lo : heaps;
      group.mark_pair_values(part, partners, heaps, skip);
    }
    stretch = stretch_end;
    note_task_progress();
  }
}

// Marks the probe pairs (a, m - a), a in probe_parts_, of the heaps base_ + i, i in [first,
// last), into their rows: for a given a the partners m - a of a group's heaps are consecutive,
// so each a is one vectorised XOR and a store per heap, as for a rare position. Only the a that
// pair every heap of the group with a partner below limit are taken, and while values are
// released only those with both parts held: a in the prefix (parts chosen before the release
// may lie past it; choose_probe_parts takes later ones there), every partner in the tail. The
// probe parts being the first places of values, their partners lie near n, well inside the
// tail (at least kBoundedMinTail values).
template <class T>
void SparseKernel::mark_probe_pairs_of_group(const ValueVector<T>& g, std::uint64_t first, std::uint64_t last,
                                             std::uint64_t limit, GroupMarks& group) const {
  const std::uint64_t heaps = last - first;
  for (const SplitMove& move : moves_.split_two()) {
    if (move.take + 2 > base_ + first) continue;
    const std::uint64_t m_lo = base_ + first - move.take, m_hi = m_lo + heaps - 1;
    if (m_lo < tail_start_) continue;
    // Partner m - a below limit for the largest m; a first part of the smallest m, its partner
    // m_lo - a (the least of the group) held.
    const std::uint64_t least = m_hi >= limit ? m_hi - limit + 1 : 1;
    const std::uint64_t most = std::min({move.largest_first_part(m_lo), m_lo - tail_start_,
                                        prefix_end_ > 0 ? prefix_end_ - 1 : 0});
    for (auto a = std::lower_bound(probe_parts_.begin(), probe_parts_.end(), least);
         a != probe_parts_.end() && *a <= most; ++a)
      group.mark_pair_values(g[*a], g.data() + (m_lo - *a), heaps, heaps);  // heap j: partner m_lo + j - *a
  }
}

void SparseKernel::forget_probe_parts() {
  probe_parts_.clear();
  probes_chosen_at_ = 0;
}

// Picks the probe parts again once the values have grown kProbeRechoiceGrowth times since, or
// are marked otherwise (marks_as_bits).
template <class T>
void SparseKernel::choose_probe_parts_if_stale(const ValueVector<T>& g) {
  if (g.size() >= tuning::kProbeRechoiceGrowth * probes_chosen_at_ || probes_as_bits_ != marks_as_bits())
    choose_probe_parts(g);
}

// Picks the probe parts: the first kProbePositions (kProbePositionsAsBits) positions a >= 1 of
// each of the kProbeValues most frequent values so far, below kProbeScanReach (and in the
// prefix, while values are released).
template <class T>
inline void SparseKernel::choose_probe_parts(const ValueVector<T>& g) {
  probe_parts_.clear();
  probes_chosen_at_ = std::max<std::uint64_t>(g.size(), 1);
  probes_as_bits_ = marks_as_bits();
  const std::uint64_t positions = probes_as_bits_ ? tuning::kProbePositionsAsBits : tuning::kProbePositions;
  std::vector<Value> values;
  for (Value v = 0; v < rare_.histogram.size(); ++v)
    if (rare_.histogram[v] > 0) values.push_back(v);
  const std::size_t chosen = std::min<std::size_t>(values.size(), tuning::kProbeValues);
  std::partial_sort(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(chosen), values.end(),
                    [this](Value x, Value y) { return rare_.histogram[x] > rare_.histogram[y]; });
  std::vector<std::uint64_t> wanted(rare_.histogram.size(), 0);
  for (std::size_t i = 0; i < chosen; ++i) wanted[values[i]] = positions;
  std::uint64_t left = chosen * positions;
  const std::uint64_t scan_end = std::min({g.size(), prefix_end_, tuning::kProbeScanReach});
  for (std::uint64_t a = 1; a < scan_end && left > 0; ++a)
    if (wanted[g[a]] > 0) {
      --wanted[g[a]];
      --left;
      probe_parts_.push_back(a);
    }
}

// Lists into lane j of into the values in [from, limit) that heap base_ + i's known set misses
// among its common ones, the least first, up to kScreenSlots; returns how many.
template <class T>
int SparseKernel::list_unseen(std::uint64_t i, Value from, Value limit, ScreenCandidates<T>& into,
                              std::uint64_t j) const {
  int count = 0;
  known_[i].for_each_missing_of(rare_.common_pattern(base_ + i), from, limit, [&](Value v) {
    into.values[count++][j] = static_cast<T>(v);
    return count < kScreenSlots;
  });
  return count;
}

// Finishes the known sets of the heaps base_ + i, i in [first, last), from the rare pairs left
// screened (screened_of): each heap's kScreenSlots least common values not yet seen are its
// candidates, and the pairs say which of them they give. A heap whose candidates all turn up must have its pairs
// marked after all (its least unseen common value lies past them): remark_ says so, and
// mark_screened_pairs does it; exact_below_ says where each set stops being exact.
template <class T>
inline void SparseKernel::screen_group(const ValueVector<T>& g, std::uint64_t first, std::uint64_t last) {
  const std::uint64_t heaps = last - first;
  ScreenCandidates<T> candidates{};  // the hits past a heap's list are not read
  int listed[kScreenHeaps] = {};
  for (std::uint64_t j = 0; j < heaps; ++j) {
    listed[j] = list_unseen(first + j, 0, static_cast<Value>(rare_.bound), candidates, j);
    if (listed[j] == kScreenSlots) exact_below_[first + j] = candidates.values[kScreenSlots - 1][j] + Value{1};
  }
  std::uint64_t hits[kScreenSlots] = {};
  std::uint64_t remarked = 0;
  note_task_progress();
  screen_screened_pairs(g, first, last, candidates, hits);
  note_task_progress();
  for_each_hit(hits, [&](int k, std::uint64_t j) {
    if (k < listed[j]) known_[first + j].insert(candidates.values[k][j]);
  });
  for (std::uint64_t j = 0; j < heaps; ++j) {
    const ValueSet& known = known_[first + j];
    if (exact_below_[first + j] == kExact ||
        known.first_missing_of(rare_.common_pattern(base_ + first + j), static_cast<Value>(rare_.bound)) <
            exact_below_[first + j])
      continue;
    remark_[first + j] = 1;
    ++remarked;
  }
#pragma omp atomic
  screened_heaps_ += heaps;
#pragma omp atomic
  remarked_heaps_ += remarked;
}

// Marks the screened rare pairs of heap base_ + i whose screening failed (remark_) into its
// known set, which is then exact.
template <class T>
void SparseKernel::mark_screened_pairs(const ValueVector<T>& g, std::uint64_t i, ValueMarks& marks) {
  const std::uint64_t j = i % screening_unit();
  for (const Screened& range : screened_of(i))
    mark_pairs(g, *range.move, range.m_lo + j, rare_.positions.begin() + static_cast<std::ptrdiff_t>(range.first),
               rare_.positions.begin() + static_cast<std::ptrdiff_t>(range.last), marks);
  marks.move_into(known_[i]);
  exact_below_[i] = kExact;
}

// Adapts screen_marked_ to how often screening failed (tuning.hpp).
void SparseKernel::review_screening() {
  if (screened_heaps_ < tuning::kScreenReviewHeaps) return;
  if (remarked_heaps_ * tuning::kScreenRemarkHigh > screened_heaps_)
    screen_marked_ *= tuning::kScreenMarkedStep;
  else if (remarked_heaps_ * tuning::kScreenRemarkLow < screened_heaps_)
    screen_marked_ = std::max(tuning::kScreenMarkedLeast, screen_marked_ / tuning::kScreenMarkedStep);
  screened_heaps_ = remarked_heaps_ = 0;
}

// Instantiated here for every type of values: the other files see only the declarations.
#define SGX_SPARSE_INSTANTIATE(T) \
  template void SparseKernel::mark_known_pairs_of_group<T>(const ValueVector<T>& g, std::uint64_t first, \
      std::uint64_t last, std::uint64_t limit, GroupMarks& group, bool screening, bool probes); \
  template void SparseKernel::mark_if_screening_failed<T>(const ValueVector<T>& g, std::uint64_t i, \
      ValueMarks& marks); \
  template void SparseKernel::mark_pairs_with_every_heap<T>(const ValueVector<T>& g, const SplitMove& move, \
      std::uint64_t m_lo, std::uint64_t heaps, RareIt first, RareIt last, GroupMarks& group) const; \
  template void SparseKernel::mark_probe_pairs_of_group<T>(const ValueVector<T>& g, std::uint64_t first, \
      std::uint64_t last, std::uint64_t limit, GroupMarks& group) const; \
  template void SparseKernel::choose_probe_parts_if_stale<T>(const ValueVector<T>& g); \
  template void SparseKernel::mark_screened_pairs<T>(const ValueVector<T>& g, std::uint64_t i, ValueMarks& marks);
SGX_SPARSE_FOR_EACH_TYPE(SGX_SPARSE_INSTANTIATE)
#undef SGX_SPARSE_INSTANTIATE

// Only screened values (8 or 16 bits) reach these.
#define SGX_SPARSE_INSTANTIATE_NARROW(T) \
  template void SparseKernel::screen_rare_range<T>(const ValueVector<T>& g, std::uint64_t first, \
      std::uint64_t heaps, std::pair<RareIt, RareIt> band, const ScreenCandidates<T>& candidates, \
          std::uint64_t* hits) const; \
  template void SparseKernel::screen_screened_pairs<T>(const ValueVector<T>& g, std::uint64_t first, \
      std::uint64_t last, const ScreenCandidates<T>& candidates, std::uint64_t* hits) const; \
  template int SparseKernel::list_unseen<T>(std::uint64_t i, Value from, Value limit, ScreenCandidates<T>& into, \
      std::uint64_t j) const;
SGX_SPARSE_FOR_NARROW_TYPES(SGX_SPARSE_INSTANTIATE_NARROW)
#undef SGX_SPARSE_INSTANTIATE_NARROW

}  // namespace sgx
