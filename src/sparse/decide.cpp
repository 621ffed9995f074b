// How the sparse kernel decides one heap in its turn. Quickly: its least common values not yet
// seen (the candidates, listed before its turn) compared with the few options nothing before its
// turn could see, the near rare pairs and the simple options (decide_quickly). In full, where that
// does not settle it: every option marked, and the rare values below the least common value not
// given looked for among the pairs from the small end (collect_missing, the scan). A value taken on
// speculation is confirmed here too (confirmed_value), by looking only for the rare values below it.

#include "sparse/pair_marking.hpp"

#include <algorithm>
#include <cassert>
#include <limits>
#include <string>
#include <utility>

namespace sgx {

// The true value of heap n, which the chain took on speculation: its value g[n] is given by no
// option and every common value below it is, so it stands unless a rare value below it is
// given by no option either. found holds the options known (its known set, its probe pairs);
// the rare values below g[n] not in it are looked for where a full decision would, among the
// simple options and the pairs, those with the partner from known_below(n) on first; only where
// one is not found does the full decision run, and say the value. rare_before_block: as for
// decide_fully.
template <class T>
Value SparseKernel::confirmed_value(const ValueVector<T>& g, std::uint64_t n, std::size_t rare_before_block,
                                    Worker& worker, ValueSet& found) const {
  const Value value = g[n];
  if (moves_.split_three().empty()) moves_.mark_simple_options(g, n, found);
  ValueSet& missing = worker.missing;
  if (missing.assign_missing_below(found, rare_.common_pattern(n), value) == 0) return value;
  const std::uint64_t floor = known_below(n);
  collect_missing(g, n, 1, floor, n, worker.marks, missing, found);
  if (missing.first_present(value) >= value) return value;
  collect_missing(g, n, 1, 0, floor, worker.marks, missing, found);
  if (missing.first_present(value) >= value) return value;
  return decide_fully(g, n, rare_before_block, worker.scratch);
}

// The true value of heap n of a block, taken on speculation: confirmed_value from its known set.
template <class T>
Value SparseKernel::confirm_speculation(const ValueVector<T>& g, std::uint64_t n, std::size_t rare_before_block,
                                        Worker& worker) const {
  worker.scratch.fit(rare_.bound);
  worker.scratch.seen.assign(known_[n - base_]);
  return confirmed_value(g, n, rare_before_block, worker, worker.scratch.seen);
}

// Heap n's value in its turn, its options below it all decided: compared with its candidates
// (quick), or in full where they do not settle it. With speculate, a value that stands unless a
// rare value below it is given by no option is taken as it is (speculated).
template <class T>
Value SparseKernel::decide_in_turn(const ValueVector<T>& g, std::uint64_t n, std::size_t rare_before_block, bool quick,
                                   bool speculate, bool& speculated) {
  Value value = 0;
  const Quick outcome =
      quick ? decide_quickly_exact(g, n, rare_before_block, value, ordered_scratch_) : Quick::kUndecided;
  speculated = outcome == Quick::kSpeculative && speculate;
  if (speculated || outcome == Quick::kDecided) return value;
  const Value guess = value;
  value = decide_fully(g, n, rare_before_block, ordered_scratch_);
  if (outcome == Quick::kSpeculative && value != guess) block_missed_ = true;
  return value;
}

// Lists, for the ordered part's quick decision of heap n, the least common values missing from
// its known set, and which of them have a rare value below them that is not known present
// either. Done in the parallel part, so that the ordered part only compares.
template <class T>
void SparseKernel::list_candidates(std::uint64_t n, int most) {
  Candidates& listed = candidates_[n - base_];
  const ValueSet& known = known_[n - base_];
  const ValueSet& common = rare_.common_pattern(n);
  const Value limit = std::min(exact_below_[n - base_], candidates_below<T>());
  listed.count = 0;
  listed.given = 0;
  known.for_each_missing_of(common, limit, [&](Value v) {
    listed.values[listed.count] = v;
    return ++listed.count < most;
  });
  note_unsure(listed, known, common);
}

// Sets listed.unsure: bit k where a rare value below candidate k is missing from known.
void SparseKernel::note_unsure(Candidates& listed, const ValueSet& known, const ValueSet& common) {
  assert(std::is_sorted(listed.values, listed.values + listed.count));
  const Value largest = listed.count > 0 ? listed.values[listed.count - 1] : 0;
  // One search: a rare value is missing below candidate k exactly when the least one is.
  const Value least_rare_missing = known.first_missing_outside(common, largest);
  listed.unsure = 0;
  for (int k = 0; k < listed.count; ++k)
    listed.unsure |= static_cast<std::uint16_t>(static_cast<unsigned>(least_rare_missing < listed.values[k]) << k);
}

template <class T>
SparseKernel::Collected SparseKernel::collect_missing(const ValueVector<T>& g, std::uint64_t n, std::uint64_t first,
                                                      std::uint64_t partner_floor, std::uint64_t partner_limit,
                                                      ValueMarks& marks, ValueSet& missing, ValueSet& found) const {
  const auto& splits = moves_.split_two();
  if (splits.empty() || splits.front().take + 2 > n) return {first - 1};
  // The first split takes the fewest tokens, so it has the most pairs.
  const std::uint64_t most_m = n - splits.front().take;
  if (most_m < partner_floor) return {first - 1};
  const std::uint64_t wanted_a = std::min(splits.front().largest_first_part(most_m), most_m - partner_floor);
  // Bounded memory: a pair (a, m - a) is read only with a in the prefix and m - a in the tail,
  // for the split taking the most as well (its m is the smallest).
  std::uint64_t reach_a = wanted_a;
  if (released_) {
    std::uint64_t least_m = most_m;
    for (const SplitMove& move : splits)
      if (move.take + 2 <= n) least_m = n - move.take;
    reach_a = std::min({reach_a, prefix_end_ - 1, least_m >= tail_start_ ? least_m - tail_start_ : 0});
  }
  const std::uint64_t largest_a = reach_a;
  auto range = [&](const SplitMove& move, std::uint64_t a, std::uint64_t last) {
    const std::uint64_t m = n - move.take;
    const std::uint64_t lowest = m >= partner_limit ? m - partner_limit + 1 : 1;
    const std::uint64_t highest = m >= partner_floor ? std::min(move.largest_first_part(m), m - partner_floor) : 0;
    return std::pair{std::max(a, lowest), std::min({last, highest, largest_a})};
  };
  std::uint64_t left = missing.remove_all(found);
  // Folding marks into bits costs about bound/8 operations: keep chunks larger than that.
  const std::uint64_t chunk = std::max<std::uint64_t>(tuning::kSparseScanChunk, rare_.bound);
  std::uint64_t a = first;
  while (left > kSearchedValues && a <= largest_a) {
    const std::uint64_t last = a + chunk - 1;
    for (const SplitMove& move : splits) {
      if (move.take + 2 > n) break;
      const std::uint64_t m = n - move.take;
      const auto [from, to] = range(move, a, last);
      marks.insert_each(from, to + 1, [&](std::uint64_t x) { return g[x] ^ g[m - x]; });
    }
    marks.move_into(found);
    a = last + 1;
    left = missing.remove_all(found);
  }
  const std::uint64_t listed_to = std::min(a - 1, largest_a);
  // Chunks grow, so that a long search takes few rounds. The lookup stops as soon as it may have
  // found every value, so a first chunk of many vectors costs little when they turn up early
  // (one of 16 times the marked chunk: the lookups of Grundy's game and 0.6 to 2^21 took 8% and
  // 14% less time than starting at the marked chunk's size, counted on one thread).
  for (std::uint64_t search_chunk = tuning::kSparseSearchChunks * chunk; left > 0 && a <= largest_a;
       search_chunk *= 2) {
    const std::uint64_t last = a + search_chunk - 1;
    for (const SplitMove& move : splits) {
      if (move.take + 2 > n || left == 0) break;
      const auto [from, to] = range(move, a, last);
      if (from <= to) left = take_pair_values(g.data(), n - move.take, from, to, missing, found, left);
    }
    a = last + 1;
  }
  return {listed_to, left > 0 && reach_a < wanted_a, reach_a};
}

// Pairs of heap n with a rare part and the partner from limit on: small rare r, and rare
// positions that joined during this block. (Pairs of two common parts give rare values only:
// decide() looks for those when it needs them.)
template <class T>
inline void SparseKernel::enumerate_pairs_inside_block(const ValueVector<T>& g, std::uint64_t n, std::uint64_t limit,
                                                       std::size_t rare_before_block, ValueSet& seen) const {
  const RareIt before_block = rare_.positions.begin() + static_cast<std::ptrdiff_t>(rare_before_block);
  // Parts are non-empty.
  const RareIt first = std::lower_bound(rare_.positions.begin(), before_block, std::uint64_t{1});
  // Not before_block itself: the first block (from 0) lists heap 0, an empty part, among its own.
  const RareIt first_new = std::lower_bound(before_block, rare_.positions.end(), std::uint64_t{1});
  for (const SplitMove& move : moves_.split_two()) {
    if (move.take + 2 > n) break;
    const std::uint64_t m = n - move.take;
    // Rare r from before the block whose partner m - r is limit or more: 1 <= r <= m - limit.
    if (m >= limit)
      mark_pairs(g, move, m, first, std::upper_bound(first, before_block, std::min(m - limit, m - 1)), seen);
    mark_pairs(g, move, m, first_new, std::lower_bound(first_new, rare_.positions.end(), m), seen);
  }
}

// G(n) from the listed options: the least common value not seen, unless a rare value below it
// turns out to be missing too. Pairs that can still show one present: those with the partner
// from limit (known_below) on, and those past scanned_to.
// Common values from exact_below on may have been seen without being listed (screen_group): if
// the least unseen one lies there, the rare pairs with partner below limit are listed again.
template <class T>
Value SparseKernel::decide(const ValueVector<T>& g, std::uint64_t n, std::uint64_t limit, ValueSet& seen,
                           std::uint64_t scanned_to, Value exact_below, DecideScratch& scratch) const {
  const ValueSet& common = rare_.common_pattern(n);
  ValueSet& missing = scratch.missing;
  Value c = seen.first_missing_of(common, static_cast<Value>(rare_.bound));
  if (c >= exact_below) {
    for (const SplitMove& move : moves_.split_two())
      if (move.take + 2 <= n) mark_rare_pairs(g, move, n - move.take, 0, limit, scratch.marks);
    scratch.marks.move_into(seen);
    c = seen.first_missing_of(common, static_cast<Value>(rare_.bound));
  }
  if (missing.assign_missing_below(seen, common, c) == 0) return c;
  collect_missing(g, n, 1, limit, n, scratch.marks, missing, seen);
  if (missing.first_present(c) < c) {
    const Collected scan = collect_missing(g, n, scanned_to + 1, 0, n, scratch.marks, missing, seen);
    if (scan.cut_short)
      throw MemoryReachError(n, scan.reach_a + 1,
                             "heap " + std::to_string(n) + " must look for the rare value " +
                                 std::to_string(missing.first_present(c)) + " among splits (a, m - a) with a > " +
                                 std::to_string(scan.reach_a) + ", " + released_text(n));
  }
  return missing.first_present(c);
}

// G(n) from every option: the pairs listed for it in the parallel part, its simple options and
// its rare pairs with a partner from known_below(n) on, then decide(). Reads only the values
// below n.
template <class T>
inline Value SparseKernel::decide_fully(const ValueVector<T>& g, std::uint64_t n, std::size_t rare_before_block,
                                        DecideScratch& scratch) const {
  mark_options_left(g, n, rare_before_block, scratch);
  return decide(g, n, known_below(n), scratch.seen, scanned_to_[n - base_], exact_below_[n - base_], scratch);
}

// Puts into scratch.seen (fitted to rare_.bound) heap n's options listed before its turn (its known
// set), its simple options and its rare pairs with a partner from known_below(n) on: all but
// the pairs a full decision marks or scans for itself.
template <class T>
void SparseKernel::mark_options_left(const ValueVector<T>& g, std::uint64_t n, std::size_t rare_before_block,
                                     DecideScratch& scratch) const {
  scratch.fit(rare_.bound);
  ValueSet& seen = scratch.seen;
  seen.assign(known_[n - base_]);
  if (moves_.split_three().empty()) {
    moves_.mark_simple_options(g, n, seen);
  } else {  // three-heap splits have many options: marked, then folded
    moves_.mark_simple_options(g, n, scratch.marks);
    scratch.marks.move_into(seen);
  }
  enumerate_pairs_inside_block(g, n, known_below(n), rare_before_block, seen);
}

template <class T>
void SparseKernel::lay_out_near_rare(std::uint64_t lanes) {
  near_ = lanes;
  NearRare<T>& near = near_rare<T>();
  std::fill(near.parts.begin(), near.parts.end(), T{0});
  std::fill(near.holes.begin(), near.holes.end(), std::numeric_limits<T>::max());
  for (std::size_t k = 0; k < rare_.positions.size() && rare_.positions[k] <= near_; ++k)
    if (rare_.positions[k] > 0) {
      near.parts[near_ - rare_.positions[k]] = static_cast<T>(rare_.values[k]);
      near.holes[near_ - rare_.positions[k]] = 0;
    }
}

// The near options as the chain's step compares them (chain_step.hpp): every lane.
// first_not_given compares only the lanes whose partner lies from known_below(n) on, which in the
// pipeline are all of them (its known sets stop more than near_ below every heap).
template <class T>
NearOptions<T> SparseKernel::near_options() const {
  const NearRare<T>& near = near_rare<T>();
  return {near.parts.data(),      near.holes.data(),        near_, moves_.split_two().data(),
          moves_.split_two().size(), moves_.leave_one().data(), moves_.leave_one().size()};
}

// Whether a heap in [from, to) may be taken whole (an option of value 0 that chain_decide does
// not compare).
bool SparseKernel::takes_all_between(std::uint64_t from, std::uint64_t to) const {
  // Past the finite digits the tail repeats: its first period says all.
  const Rules& rules = moves_.rules();
  const std::uint64_t digits = rules.finite_digits().size();
  to = std::min(to, rules.has_tail() ? std::max(from, digits) + rules.tail_digits().size() : digits);
  for (std::uint64_t n = from; n < to; ++n)
    if (moves_.takes_all(n)) return true;
  return false;
}

// G(n) when it follows from little: the heap's least common values missing from its known set
// (the candidates) are compared with the options the parallel part could not see, its pairs
// with a partner inside the block and its simple options; the first candidate c none of them
// gives is G(n) if every rare value below it is known present. If one is not, c is taken on
// speculation: every common value below c is given, so G(n) differs from c only when one of
// those rare values is given by no option at all, a new rare position (few past the first
// thousands of heaps).
template <class T>
SparseKernel::Quick SparseKernel::decide_quickly(const ValueVector<T>& g, std::uint64_t n,
                                                 std::size_t rare_before_block, Value& value) const {
  if (rare_.bound != candidates_bound_) return Quick::kUndecided;  // the values grew wider
  const Candidates& listed = candidates_[n - base_];
  assert(listed.given == 0);  // the pipeline drops those its bands gave (drop_given)
  // A few at a time, in order.
  for (int next = 0; next < listed.count; next += tuning::kQuickCandidates) {
    const int chosen = first_not_given<T>(g, n, rare_before_block, listed.values + next,
                                          std::min(tuning::kQuickCandidates, listed.count - next));
    if (chosen >= 0) {
      value = listed.values[next + chosen];
      return (listed.unsure >> (next + chosen)) & 1 ? Quick::kSpeculative : Quick::kDecided;
    }
  }
  return Quick::kUndecided;
}

// The first of candidates[0..count) that none of heap n's options left to the ordered part
// gives (its pairs with the near rare positions and with rare positions new in the block, and its
// simple options), or -1.
template <class T>
inline int SparseKernel::first_not_given(const ValueVector<T>& g, std::uint64_t n, std::size_t rare_before_block,
                                         const Value* compared, int count) const {
  const std::uint64_t start = known_below(n);
  T candidates[tuning::kQuickCandidates];
  for (int k = 0; k < count; ++k) candidates[k] = static_cast<T>(compared[k]);
  CandidatesGiven options{compared, count};
  const NearRare<T>& near = near_rare<T>();
  for (const SplitMove& move : moves_.split_two()) {
    const std::uint64_t m = n - move.take;
    if (m > start) {
      // Partners start..m-1 are the last m - start lanes. Lanes before them pair r with a
      // partner below start, options already known, so whole vectors of 64 bytes are taken.
      constexpr std::uint64_t kVectorLanes = 64 / sizeof(T);
      const std::uint64_t lanes = std::min(near_, (m - start + kVectorLanes - 1) / kVectorLanes * kVectorLanes);
      const std::uint64_t first_lane = near_ - lanes;
      options.given |= find_xor_values(near.parts.data() + first_lane, g.data() + (m - lanes),
                                       near.holes.data() + first_lane, lanes, candidates, count);
    }
    for (std::size_t k = rare_before_block; k < rare_.positions.size(); ++k) {  // rare positions new in the block
      const std::uint64_t r = rare_.positions[k];
      if (r < m && !(move.unequal && 2 * r == m)) options.insert(static_cast<Value>(rare_.values[k] ^ g[m - r]));
    }
  }
  moves_.mark_simple_options(g, n, options);
  return options.first_not_given();
}

// decide_quickly, and where it cannot settle the value because the screening left the heap's
// known set exact only below a few candidates, all of which the options it alone sees give: the
// heap's screened rare pairs marked (its known set is then exact), its candidates listed again,
// and decide_quickly once more. That marking is most of what a full decision costs, but the heap
// is then settled by the compare: on Grundy's game to 2^22, 8559 full decisions are left of
// 72617.
template <class T>
inline SparseKernel::Quick SparseKernel::decide_quickly_exact(const ValueVector<T>& g, std::uint64_t n,
                                                              std::size_t rare_before_block, Value& value,
                                                              DecideScratch& scratch) {
  const Quick outcome = decide_quickly(g, n, rare_before_block, value);
  if (outcome != Quick::kUndecided || rare_.bound != candidates_bound_ || exact_below_[n - base_] == kExact)
    return outcome;
  scratch.fit(rare_.bound);
  mark_screened_pairs(g, n - base_, scratch.marks);
  list_candidates<T>(n);
  return decide_quickly(g, n, rare_before_block, value);
}

// Instantiated here for every type of values: the other files see only the declarations.
#define SGX_SPARSE_INSTANTIATE(T) \
  template Value SparseKernel::confirmed_value<T>(const ValueVector<T>& g, std::uint64_t n, \
      std::size_t rare_before_block, Worker& worker, ValueSet& found) const; \
  template Value SparseKernel::confirm_speculation<T>(const ValueVector<T>& g, std::uint64_t n, \
      std::size_t rare_before_block, Worker& worker) const; \
  template Value SparseKernel::decide_in_turn<T>(const ValueVector<T>& g, std::uint64_t n, \
      std::size_t rare_before_block, bool quick, bool speculate, bool& speculated); \
  template void SparseKernel::list_candidates<T>(std::uint64_t n, int most); \
  template SparseKernel::Collected SparseKernel::collect_missing<T>(const ValueVector<T>& g, std::uint64_t n, \
      std::uint64_t first, std::uint64_t partner_floor, std::uint64_t partner_limit, ValueMarks& marks, \
          ValueSet& missing, ValueSet& found) const; \
  template Value SparseKernel::decide<T>(const ValueVector<T>& g, std::uint64_t n, std::uint64_t limit, \
      ValueSet& seen, std::uint64_t scanned_to, Value exact_below, DecideScratch& scratch) const; \
  template void SparseKernel::mark_options_left<T>(const ValueVector<T>& g, std::uint64_t n, \
      std::size_t rare_before_block, DecideScratch& scratch) const; \
  template void SparseKernel::lay_out_near_rare<T>(std::uint64_t lanes); \
  template NearOptions<T> SparseKernel::near_options<T>() const; \
  template SparseKernel::Quick SparseKernel::decide_quickly<T>(const ValueVector<T>& g, std::uint64_t n, \
      std::size_t rare_before_block, Value& value) const;
SGX_SPARSE_FOR_EACH_TYPE(SGX_SPARSE_INSTANTIATE)
#undef SGX_SPARSE_INSTANTIATE

}  // namespace sgx
