// What a heap must look at, and the least that costs: for a run file, counts on a sample of its
// heaps the pairs the rare-value method needs (docs/THEORY.md section 4) under three
// classifications of the values, and times sgx's fastest vector loops on that many pairs.
//
//   build/bench/pairs_a_heap FILE.h5 [--groups G]
//
// The sample is G groups of 64 consecutive heaps (default 64), spread evenly over the second half
// of the file's values. Per heap n it counts:
//
// - rare pairs: for every two-heap split of n - k, the rare positions r < n - k it pairs with.
//   They give every option value of the common class (a pair of two common or two rare parts
//   cannot), so the least common value none of them gives, c, bounds G(n);
// - values to find: the values below G(n) that the rare pairs and the options without a two-heap
//   split do not give, which other pairs must show present;
// - scan pairs: how many pairs the scan reads until it has found them, in order a = 1, 2, ... over
//   every split at once, and in sgx's order (its probe pairs first, pair_marking.cpp);
// - common values below c: the common values the rare pairs give below c (c's rank among the
//   common values less one), which a heap's candidates must reach past.
//
// The classifications, each made from the whole file's values:
// - sgx's mask: one for every split, with the heap's parity where every split takes one parity
//   (the kernel's choice, best_rare_mask);
// - a mask for each parity of the tokens a split takes, each with the heap's parity if better;
// - RC2's classes (ogsolve's method): for each parity d of the takes, the values at a heap's parity
//   (v << 1) | (n & 1) made common from the most frequent down unless two common ones give it;
//   c is then the least value no rare pair gives, and the pairs are read only while it is rare.
//
// The floor: the rare pairs screened 64 heaps at a time against 12 candidates (screen_rare_pairs,
// the kernel's loop, timed on the sample) and the scan's pairs in the cheaper order at the rate of
// the kernel's lookup (take_pair_values, timed on one heap's pairs), in cycles a heap at the clock
// /proc/cpuinfo reports: what a heap would cost if it did nothing but look at the pairs it needs
// with the kernel's fastest loops, no marking, no bookkeeping. Every count is checked against the
// file: the value the counted pairs give must be the heap's.

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdint>
#include <exception>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/tuning.hpp"
#include "games/move_table.hpp"
#include "kernels/pair_search.hpp"
#include "kernels/value_set.hpp"
#include "sgx/rules.hpp"
#include "sgx/stats.hpp"
#include "sgx/store.hpp"
#include "sparse/pair_screen.hpp"

namespace {

using sgx::RareMask;
using sgx::SplitMove;
using sgx::Value;

constexpr std::uint64_t kGroup = 64;

// One classification of the values for each parity of the tokens a split takes (empty for a
// parity no split takes): by a mask (sgx's way: the same mask for both), or by a set of common
// values at a heap's parity, (v << 1) | (n & 1) (RC2's way). And its rare positions, increasing.
struct Classification {
  std::string name;
  bool by_masks = true;
  RareMask masks[2];
  std::vector<bool> common[2];  // by_masks false: common[d][(v << 1) | (n & 1)]
  std::vector<std::uint64_t> rare[2];
  std::vector<Value> rare_values[2];
  std::string describe[2];
};

struct Counts {
  std::uint64_t heaps = 0, rare_pairs = 0, wanted = 0, scan_pairs = 0, scanned_heaps = 0;
  std::uint64_t probe_pairs = 0, scan_after_probes = 0;  // the scan in sgx's order
  std::uint64_t common_below_c = 0;  // common values the rare pairs give below c: c's rank
  double screen_seconds = 0;
};

double cpu_hz() {
  std::ifstream info("/proc/cpuinfo");
  for (std::string line; std::getline(info, line);)
    if (line.rfind("cpu MHz", 0) == 0) return std::stod(line.substr(line.find(':') + 1)) * 1e6;
  throw std::runtime_error("/proc/cpuinfo gives no \"cpu MHz\": cycles cannot be counted");
}

template <class T>
class Counter {
 public:
  Counter(const sgx::Rules& rules, const sgx::ValueVector<T>& g, Value largest)
      : moves_(rules), g_(g), bound_(std::max<Value>(2 * std::bit_ceil(largest + 1), 64)) {
    moves_.cover(g.size());
    choose_probe_parts(largest);
  }

  // Counts heap n under c, adding to counts; checks the file's value.
  void count_heap(std::uint64_t n, const Classification& c, Counts& counts) {
    sgx::ValueSet listed(bound_);
    moves_.mark_simple_options(g_, n, listed);
    for (const SplitMove& move : moves_.split_two()) {
      if (move.take + 2 > n) continue;
      const std::uint64_t m = n - move.take, parity = move.take & 1;
      const auto& rare = c.rare[parity];
      for (std::size_t i = 0; i < rare.size() && rare[i] < m; ++i) {
        const std::uint64_t r = rare[i];
        if (move.unequal && 2 * r == m) continue;  // the rare lists start at 1
        ++counts.rare_pairs;
        listed.insert(static_cast<Value>(g_[r] ^ g_[m - r]));
      }
    }
    ++counts.heaps;
    std::vector<std::uint64_t> read(moves_.split_two().size(), 0);
    const Value value =
        c.by_masks ? scan_for_wanted(n, c, listed, read, counts) : scan_while_rare(n, c, listed, read);
    if (value != g_[n])
      throw std::logic_error("heap " + std::to_string(n) + " under " + c.name + ": the counts give " +
                             std::to_string(value) + ", the file " + std::to_string(g_[n]));
    // What the scan had to find: the values below G(n) that the rare pairs do not give.
    counts.wanted += sgx::ValueSet(bound_).assign_missing_below(listed, value);
    for (std::uint64_t r : read) counts.scan_pairs += r;
    if (c.by_masks) count_probes_first(n, value, listed, counts);
    counts.scanned_heaps += std::any_of(read.begin(), read.end(), [](std::uint64_t r) { return r > 0; });
  }

  // The lookup's seconds a pair: the first 4096 pairs of the last heap (a scan's pairs lie near
  // both ends, in the caches), looked up for a value no pair gives, so that the loop reads them all.
  double lookup_seconds_a_pair() {
    const std::uint64_t m = g_.size() - 1 - moves_.split_two()[0].take;
    const std::uint64_t to = std::min<std::uint64_t>((m - 1) / 2, 4096);
    sgx::ValueSet wanted(bound_), found(bound_);
    wanted.insert(bound_ - 1);  // above every pair's value: the values lie below bound_ / 2
    const auto start = std::chrono::steady_clock::now();
    constexpr int kRounds = 256;
    for (int round = 0; round < kRounds; ++round) sink_ += sgx::take_pair_values(g_.data(), m, 1, to, wanted, found, 1);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return seconds / static_cast<double>(kRounds * to);
  }

  std::uint64_t sink() const { return sink_; }

  // Counts the 64 heaps from first, then times the kernel's loops on exactly their pairs.
  void count_group(std::uint64_t first, const Classification& c, Counts& counts) {
    for (std::uint64_t n = first; n < first + kGroup; ++n) count_heap(n, c, counts);
    if constexpr (sizeof(T) <= 2)
      if (sgx::can_screen_pairs()) time_screen(first, c, counts);
  }

 private:
  // Whether v is common for heap n under the mask of every split's parity: a pair with exactly
  // one rare part gives only such values (docs/THEORY.md section 4). Each mask carries its takes'
  // parity where it uses the heap's.
  bool common_for_every_split(Value v, std::uint64_t n, const Classification& c) const {
    for (const SplitMove& move : moves_.split_two())
      if (move.take + 2 <= n && sgx::is_rare(v, n, c.masks[move.take & 1])) return false;
    return true;
  }

  // sgx's probe parts (pair_marking.cpp): the first kProbePositions places a >= 1 of each of the
  // kProbeValues most frequent values, below kProbeScanReach.
  void choose_probe_parts(Value largest) {
    std::vector<std::uint64_t> histogram(largest + 1, 0), wanted(largest + 1, 0);
    for (T v : g_) ++histogram[v];
    std::vector<Value> values(largest + 1);
    for (Value v = 0; v <= largest; ++v) values[v] = v;
    std::stable_sort(values.begin(), values.end(), [&](Value x, Value y) { return histogram[x] > histogram[y]; });
    for (std::size_t i = 0; i < std::min<std::size_t>(values.size(), sgx::tuning::kProbeValues); ++i)
      wanted[values[i]] = sgx::tuning::kProbePositions;
    const std::uint64_t end = std::min<std::uint64_t>(g_.size(), sgx::tuning::kProbeScanReach);
    for (std::uint64_t a = 1; a < end; ++a)
      if (wanted[g_[a]] > 0) {
        --wanted[g_[a]];
        probe_parts_.push_back(a);
      }
  }

  // The scan in sgx's order: the probe pairs, then a = 1, 2, ..., until the values below G(n) that
  // the rare pairs do not give are found.
  void count_probes_first(std::uint64_t n, Value value, sgx::ValueSet found, Counts& counts) {
    std::uint64_t left = sgx::ValueSet(bound_).assign_missing_below(found, value);
    if (left == 0) return;
    const auto take = [&](Value v) {
      if (v < value && !found.contains(v)) {
        found.insert(v);
        --left;
      }
    };
    for (const SplitMove& move : moves_.split_two()) {
      if (move.take + 2 > n) continue;
      const std::uint64_t m = n - move.take;
      for (std::uint64_t a : probe_parts_) {
        if (a > move.largest_first_part(m)) break;
        ++counts.probe_pairs;
        take(static_cast<Value>(g_[a] ^ g_[m - a]));
      }
    }
    std::vector<std::uint64_t> read(moves_.split_two().size(), 0);
    for (std::uint64_t a = 1; left > 0; ++a)
      if (!scan_step(n, a, read, [](const SplitMove&) { return true; }, take)) break;
    for (std::uint64_t r : read) counts.scan_after_probes += r;
  }

  // One step of the scan: the pair (a, n - k - a) of every split with want(split) true, while
  // a is a first part of it; calls take(value) for each; returns whether any pair was left.
  template <class Want, class Take>
  bool scan_step(std::uint64_t n, std::uint64_t a, std::vector<std::uint64_t>& read, Want&& want, Take&& take) {
    bool any = false;
    for (std::size_t s = 0; s < moves_.split_two().size(); ++s) {
      const SplitMove& move = moves_.split_two()[s];
      if (!want(move) || move.take + 2 > n || a > move.largest_first_part(n - move.take)) continue;
      any = true;
      ++read[s];
      take(static_cast<Value>(g_[a] ^ g_[n - move.take - a]));
    }
    return any;
  }

  // sgx's way: c is the least value common for the heap under every split's mask that no listed
  // option gives; the rare values below it not listed are wanted, and the pairs (a, n - k - a),
  // a = 1, 2, ... of every split are read until each is found. G(n) is c, or the least not found.
  Value scan_for_wanted(std::uint64_t n, const Classification& c, const sgx::ValueSet& listed,
                        std::vector<std::uint64_t>& read, Counts& counts) {
    Value least = 0;
    for (;; ++least) {
      const bool common = common_for_every_split(least, n, c);
      if (common && !listed.contains(least)) break;
      counts.common_below_c += common;
    }
    sgx::ValueSet found = listed;
    std::uint64_t left = sgx::ValueSet(bound_).assign_missing_below(listed, least);
    for (std::uint64_t a = 1; left > 0; ++a) {
      const bool any = scan_step(n, a, read, [](const SplitMove&) { return true; }, [&](Value v) {
        if (v < least && !found.contains(v)) {
          found.insert(v);
          --left;
        }
      });
      if (!any) break;
    }
    return std::min(least, found.first_missing());
  }

  // A value never seen at that parity is in no class: rare, so that the pairs are read.
  static bool is_common(const std::vector<bool>& common, std::uint64_t e) { return e < common.size() && common[e]; }

  // RC2's way: c is the least value no listed option gives. Where its value at the heap lies in
  // the common class of every split's parity, no unlisted pair (two common parts) can give it:
  // G(n) = c. Else the pairs of the parities where it is rare are read, a = 1, 2, ..., each value
  // listed, c moving on when a pair gives it, until it is common for them or the pairs run out.
  Value scan_while_rare(std::uint64_t n, const Classification& c, sgx::ValueSet listed,
                        std::vector<std::uint64_t>& read) {
    Value least = listed.first_missing();
    bool rare_in[2];
    const auto classify = [&] {
      for (std::uint64_t parity = 0; parity < 2; ++parity)
        rare_in[parity] =
            !c.common[parity].empty() && !is_common(c.common[parity], (std::uint64_t{least} << 1) | (n & 1));
    };
    classify();
    for (std::uint64_t a = 1; rare_in[0] || rare_in[1]; ++a) {
      const bool any = scan_step(n, a, read, [&](const SplitMove& move) { return rare_in[move.take & 1]; },
                                 [&](Value v) {
                                   listed.insert(v);
                                   if (v == least) {
                                     least = listed.first_missing();
                                     classify();
                                   }
                                 });
      if (!any) break;
    }
    return least;
  }

  // The rare pairs of the group, screened 64 heaps at a time against 12 candidates (the values
  // filled in do not change the loop's cost: its hits are few either way).
  void time_screen(std::uint64_t first, const Classification& c, Counts& counts) {
    sgx::ScreenCandidates<T> candidates{};
    for (int k = 0; k < sgx::kScreenSlots; ++k)
      for (std::uint64_t j = 0; j < kGroup; ++j) candidates.values[k][j] = static_cast<T>(bound_ - 1 - k);
    std::uint64_t hits[sgx::kScreenSlots] = {};
    double best = 0;
    for (int round = 0; round < 3; ++round) {  // the best of three: the first may meet cold caches
      const auto start = std::chrono::steady_clock::now();
      for (const SplitMove& move : moves_.split_two()) {
        const std::uint64_t m_lo = first - move.take, parity = move.take & 1;
        const auto& rare = c.rare[parity];  // from 1 on: every r < m_lo pairs with all 64 heaps
        const auto count = static_cast<std::uint64_t>(std::lower_bound(rare.begin(), rare.end(), m_lo) - rare.begin());
        if (count > 0)
          sgx::screen_rare_pairs(g_.data(), m_lo, rare.data(), c.rare_values[parity].data(), count, move.unequal,
                                 kGroup, candidates, hits);
      }
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      best = round == 0 ? seconds : std::min(best, seconds);
    }
    counts.screen_seconds += best;
    sink_ += hits[0];
  }

  sgx::MoveTable moves_;
  const sgx::ValueVector<T>& g_;
  Value bound_;
  std::vector<std::uint64_t> probe_parts_;
  std::uint64_t sink_ = 0;  // read at the end, so that no timed loop is optimised away
};

std::string mask_text(const RareMask& mask) {
  std::ostringstream out;
  out << "mask 0x" << std::hex << mask.values << std::dec << (mask.with_position ? "+pos" : "");
  return out.str();
}

// The rare positions of c for each parity in takes.
template <class T>
void list_rare(Classification& c, const sgx::ValueVector<T>& g, const bool takes[2]) {
  for (std::uint64_t parity = 0; parity < 2; ++parity) {
    if (!takes[parity]) continue;
    for (std::uint64_t x = 1; x < g.size(); ++x) {
      const bool rare = c.by_masks ? sgx::is_rare(g[x], x, c.masks[parity])
                                   : !c.common[parity][(std::uint64_t{g[x]} << 1) | (x & 1)];
      if (!rare) continue;
      c.rare[parity].push_back(x);
      c.rare_values[parity].push_back(g[x]);
    }
    c.describe[parity] = (c.by_masks ? mask_text(c.masks[parity]) : std::string("classes")) + ", " +
                         std::to_string(c.rare[parity].size()) + " rare";
  }
}

// RC2's classes for splits taking tokens of parity d: the values at a heap's parity, e = (v << 1) |
// (n & 1), taken from the most frequent down, each made common unless two common ones c1, c2 give
// it as a pair's value, c1 ^ c2 ^ d = e (a split taking k tokens of n gives the heap, at its
// parity, e(a) ^ e(b) ^ d). Then no two common parts give a common value. 0 (and 1 for odd takes:
// e = d) stays rare, as a pair (a, a) of the same part would give it.
std::vector<bool> common_classes(const std::vector<std::uint64_t>& counts, std::uint64_t d) {
  std::vector<std::uint64_t> order;
  for (std::uint64_t e = 0; e < counts.size(); ++e)
    if (counts[e] > 0 && e != 0 && e != d) order.push_back(e);
  std::stable_sort(order.begin(), order.end(), [&](std::uint64_t x, std::uint64_t y) { return counts[x] > counts[y]; });
  std::vector<bool> common(counts.size(), false);
  std::vector<std::uint64_t> members;
  for (std::uint64_t e : order) {
    const bool sum_free = std::none_of(members.begin(), members.end(), [&](std::uint64_t c1) {
      const std::uint64_t c2 = c1 ^ e ^ d;
      return c2 < common.size() && common[c2];
    });
    if (!sum_free) continue;
    common[e] = true;
    members.push_back(e);
  }
  return common;
}

template <class T>
int run(const std::string& path, const sgx::Rules& rules, const std::vector<Value>& values, Value largest,
        std::uint64_t groups) {
  const std::uint64_t n = values.size();
  sgx::ValueVector<T> g(n);
  for (std::uint64_t x = 0; x < n; ++x) g[x] = static_cast<T>(values[x]);
  std::vector<std::uint64_t> histogram(std::bit_ceil(std::uint64_t{largest} + 1), 0);
  std::vector<std::uint64_t> odd_histogram(histogram.size(), 0);
  for (std::uint64_t x = 0; x < n; ++x) {
    ++histogram[values[x]];
    odd_histogram[values[x]] += x & 1;
  }
  bool takes[2] = {false, false};
  {
    sgx::MoveTable moves(rules);
    moves.cover(n);
    for (const SplitMove& move : moves.split_two()) takes[move.take & 1] = true;
  }
  std::vector<Classification> classifications(3);
  const RareMask single = sgx::best_rare_mask(histogram, odd_histogram, rules.split_take_parity());
  classifications[0].name = "sgx's mask";
  classifications[0].masks[0] = classifications[0].masks[1] = single;
  classifications[1].name = "a mask for each parity of the takes";
  classifications[1].masks[0] = sgx::best_rare_mask(histogram, odd_histogram, sgx::SplitTakeParity::Even);
  classifications[1].masks[1] = sgx::best_rare_mask(histogram, odd_histogram, sgx::SplitTakeParity::Odd);
  classifications[2].name = "RC2's classes for each parity of the takes";
  classifications[2].by_masks = false;
  std::vector<std::uint64_t> at_parity(2 * histogram.size(), 0);  // positions of e = (v << 1) | (n & 1)
  for (std::uint64_t x = 0; x < n; ++x) ++at_parity[(std::uint64_t{values[x]} << 1) | (x & 1)];
  for (std::uint64_t d = 0; d < 2; ++d)
    if (takes[d]) classifications[2].common[d] = common_classes(at_parity, d);
  for (Classification& c : classifications) list_rare(c, g, takes);
  const double hz = cpu_hz();
  std::cout << path << ": " << rules.canonical() << ", " << n << " values, largest " << largest << "; " << groups
            << " groups of 64 heaps in [" << n / 2 << ", " << n << "), cycles at " << hz / 1e9 << " GHz\n";
  std::uint64_t sink = 0;
  double lookup_seconds = 0;
  {
    Counter<T> counter(rules, g, largest);
    lookup_seconds = counter.lookup_seconds_a_pair();
    sink += counter.sink();
  }
  std::cout << "the scan's lookup: " << std::setprecision(3) << lookup_seconds * hz << " cycles a pair\n";
  if (!sgx::can_screen_pairs()) std::cout << "no AVX-512 here: the screen is not timed, its cycles show as 0\n";
  for (const Classification& c : classifications) {
    Counter<T> counter(rules, g, largest);
    Counts counts;
    for (std::uint64_t i = 0; i < groups; ++i) {
      const std::uint64_t first = n / 2 + (i * (n / 2 - kGroup) / groups) / kGroup * kGroup;
      counter.count_group(first, c, counts);
    }
    sink += counter.sink();
    const double heaps = static_cast<double>(counts.heaps);
    const auto per_heap = [&](std::uint64_t x) { return static_cast<double>(x) / heaps; };
    // The scan's pairs in the cheaper of the two orders, at the lookup's rate.
    const double scan_pairs = c.by_masks ? std::min(per_heap(counts.scan_pairs),
                                                    per_heap(counts.probe_pairs + counts.scan_after_probes))
                                         : per_heap(counts.scan_pairs);
    const double screen = counts.screen_seconds * hz / heaps, scan = scan_pairs * lookup_seconds * hz;
    std::cout << std::fixed << std::setprecision(1) << c.name << ":";
    for (int d = 0; d < 2; ++d)
      if (takes[d]) std::cout << " " << (d == 0 ? "even" : "odd") << " takes " << c.describe[d] << ";";
    std::cout << "\n  per heap: rare pairs " << per_heap(counts.rare_pairs) << ", values to find "
              << per_heap(counts.wanted) << "; scan pairs " << per_heap(counts.scan_pairs) << " in order a = 1, 2, ...";
    if (c.by_masks)
      std::cout << ", " << per_heap(counts.probe_pairs + counts.scan_after_probes) << " with sgx's probe pairs first ("
                << per_heap(counts.probe_pairs) << " of them); common values below c "
                << per_heap(counts.common_below_c);
    else
      std::cout << " (" << 100.0 * per_heap(counts.scanned_heaps) << "% of the heaps scan)";
    std::cout << "\n  floor: " << screen + scan << " cycles a heap (rare pairs screened " << screen << ", "
              << scan_pairs << " scan pairs looked up " << scan << ")\n";
  }
  return sink == 0xffffffffffffffffull ? 3 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  const char* usage = "usage: pairs_a_heap RUN_FILE.h5 [--groups G]   (G groups of 64 heaps, 64 unless given)\n";
  std::string path;
  std::uint64_t groups = 64;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--groups" && i + 1 < argc) {
      const std::string text = argv[++i];
      if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos || text.size() > 9 ||
          std::stoull(text) == 0) {
        std::cerr << "pairs_a_heap: --groups takes a whole number from 1 on, not '" << text << "'\n" << usage;
        return 2;
      }
      groups = std::stoull(text);
    } else if (path.empty() && arg.rfind("--", 0) != 0) {
      path = arg;
    } else {
      std::cerr << "pairs_a_heap: unexpected argument '" << arg << "'\n" << usage;
      return 2;
    }
  }
  if (path.empty()) {
    std::cerr << usage;
    return 2;
  }
  try {
    const sgx::RunStatus status = sgx::read_run_status(path);
    const sgx::Rules rules = sgx::parse_rules(status.game);
    if (!rules.has_splits() || rules.max_heaps_left() > 2 || rules.has_tail())
      throw std::runtime_error(status.game + " is not a finite code splitting into at most two heaps");
    if (status.n < 4 * kGroup * groups)
      throw std::runtime_error("the file holds " + std::to_string(status.n) + " values, too few for " +
                               std::to_string(groups) + " groups of 64 in its second half");
    std::vector<Value> values(status.n);
    const sgx::ValueReader read = sgx::run_file_reader(path);
    for (std::uint64_t from = 0; from < status.n; from += sgx::kValueReadBlock)
      read(from, std::min(status.n, from + sgx::kValueReadBlock), values.data() + from);
    // The width of the kernel's values: one byte below 256, two below 65536.
    const Value largest = *std::max_element(values.begin(), values.end());
    if (largest < 256) return run<std::uint8_t>(path, rules, values, largest, groups);
    if (largest < 65536) return run<std::uint16_t>(path, rules, values, largest, groups);
    throw std::runtime_error("values past 65535 are not screened by the kernel; nothing to time");
  } catch (const std::exception& e) {
    std::cerr << "pairs_a_heap: " << e.what() << "\n";
    return 1;
  }
}
