#pragma once
// Sparse-space statistics of a sequence: value histograms, the best rare mask, rare positions.
// "Rare" for a mask m: popcount(value & m) is even, or with the heap's parity, has the parity of
// n - k (docs/THEORY.md section 4).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sgx/rules.hpp"
#include "sgx/sequence.hpp"

namespace sgx {

// Which positions are rare. Without the position, n is rare when popcount(G(n) & values) is even;
// with it, when that popcount has the parity of n - k, k the tokens a two-heap split takes (all of
// one parity, odd_takes saying which). Published tables write the latter "values+pos".
struct RareMask {
  std::uint64_t values = 0;    // 0 without the position: every value is rare (the naive method)
  bool with_position = false;
  bool odd_takes = false;      // with_position: the two-heap splits take an odd number of tokens
  friend bool operator==(const RareMask&, const RareMask&) = default;
};

inline bool is_rare(Value value, std::uint64_t n, const RareMask& mask) {
  // Parity rather than a population count: it compiles to a few instructions on every x86-64,
  // where a count without the POPCNT instruction is a library call.
  const std::uint64_t position = mask.with_position ? (n ^ static_cast<std::uint64_t>(mask.odd_takes)) & 1 : 0;
  return static_cast<std::uint64_t>(__builtin_parityll(value & mask.values)) == position;
}

// rare_count[m] for every mask m < histogram.size() (a power of two): the number of positions
// whose value is rare under m, by one Walsh-Hadamard transform of the histogram.
std::vector<std::uint64_t> rare_counts_for_all_masks(std::vector<std::uint64_t> histogram);

// The same with the position, for every m < histogram.size(): odd_histogram[v] counts the odd
// positions with value v (it may be shorter than histogram).
std::vector<std::uint64_t> rare_counts_with_position(const std::vector<std::uint64_t>& histogram,
                                                     const std::vector<std::uint64_t>& odd_histogram,
                                                     bool odd_takes);

// The non-zero mask with the fewest rare positions; ties go to the smallest mask.
// Returns 0 only when the histogram has fewer than two entries.
std::uint64_t best_rare_mask(const std::vector<std::uint64_t>& histogram);

// The mask with the fewest rare positions over value bits and, when splits has one parity, the
// position too; ties go to a mask without the position, then to the smallest values.
RareMask best_rare_mask(const std::vector<std::uint64_t>& histogram, const std::vector<std::uint64_t>& odd_histogram,
                        SplitTakeParity splits);

// How many positions the histograms count as rare under mask.
std::uint64_t rare_count_of(const std::vector<std::uint64_t>& histogram,
                            const std::vector<std::uint64_t>& odd_histogram,
                            const RareMask& mask);

struct SparseStats {
  RareMask rare_mask;
  std::uint64_t rare_count = 0;
  std::int64_t last_rare = -1;  // largest rare position, -1 if none
  Value max_value = 0;
  std::uint64_t max_at = 0;     // first index of the largest value
  std::vector<std::uint64_t> histogram;  // histogram[v] = positions with value v

  friend bool operator==(const SparseStats&, const SparseStats&) = default;
};

// The statistics of G(0..N-1) at a power of two N a run passed, the form in which record runs are
// published and compared (docs/FORMAT.md, /milestones).
struct Milestone {
  std::uint64_t n = 0;               // N, a power of two
  SparseStats stats;                 // of G(0..N-1), histogram included
  std::optional<Value> value_at_n;   // G(N), once it is counted: G(1..N) is G(0..N-1) less G(0) = 0, plus G(N)

  friend bool operator==(const Milestone&, const Milestone&) = default;
};

// The statistics of G(0..n-1) counted as the values come, in any number of pieces: a run's
// checkpoints count only the values added since the last one. Besides the histograms it keeps, for
// each value and parity of position, the last position holding it, so the last rare position under
// whichever mask turns out best needs no second pass; and the statistics at every power of two it
// passes (milestones). A run file keeps its state (/counter), so that a resumed run counts on.
class StatsCounter {
 public:
  // Everything counted so far, as a run file stores it.
  struct State {
    std::uint64_t counted = 0;                // G(0..counted-1)
    Value max_value = 0;
    std::uint64_t max_at = 0;                 // first position of max_value
    std::vector<std::uint64_t> histogram;     // histogram[v]: positions with value v
    std::vector<std::uint64_t> odd_histogram; // the odd ones among them; as long as histogram
    std::vector<std::int64_t> last_at;        // last_at[2 v + parity of n]: the last n with G(n) = v, or -1
    std::vector<Milestone> milestones;        // one for each power of two N <= counted, in order

    friend bool operator==(const State&, const State&) = default;
  };

  // The rare mask takes the heap's parity only for splits of one parity (Rules::split_take_parity).
  explicit StatsCounter(SplitTakeParity splits = SplitTakeParity::Mixed) : splits_(splits) {}
  // Counts on from a stored state; std::invalid_argument, saying what, if it does not hold together.
  StatsCounter(State state, SplitTakeParity splits);

  // Counts values[counted()..to), the values after those counted so far.
  void add(const ValuesView& values, std::uint64_t to);
  // Counts G(first..first + count - 1); first must be counted().
  template <class T>
  void add(const T* g, std::uint64_t first, std::uint64_t count);

  std::uint64_t counted() const { return state_.counted; }
  const State& state() const { return state_; }
  const std::vector<Milestone>& milestones() const { return state_.milestones; }

  // The statistics of the values counted: best mask, its rare count and last rare position, the
  // largest value.
  SparseStats stats() const;

 private:
  template <class T>
  void count(const T* g, std::uint64_t first, std::uint64_t count);

  SplitTakeParity splits_;
  State state_;
};

// Whether state holds together: sizes, sums, the milestones every power of two up to counted. The
// reason it does not, as a clause ("the histogram counts 12 values, not 16"), or empty.
std::string check_counter_state(const StatsCounter::State& state);

// One pass over the values: histogram, largest value, best mask, rare positions under it. The
// position enters the mask only for a game whose splits take one parity (splits, from
// Rules::split_take_parity); a sequence of no known game leaves it out.
SparseStats compute_stats(const ValuesView& values, SplitTakeParity splits = SplitTakeParity::Mixed);
// The same for G(0..n-1) read through read (a run file), kValueReadBlock values at a time. Holds
// one block, not the values.
SparseStats compute_stats(std::uint64_t n, const ValueReader& read, SplitTakeParity splits = SplitTakeParity::Mixed);
// The counter after the same pass: the statistics and the milestones of G(0..n-1).
StatsCounter count_values(std::uint64_t n, const ValueReader& read, SplitTakeParity splits = SplitTakeParity::Mixed);

// Positions whose value is rare under mask, in increasing order.
std::vector<std::uint64_t> rare_positions(const Sequence& values, const RareMask& mask);

}  // namespace sgx
