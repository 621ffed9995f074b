// Positions, counts and indices past 2^32: games computed across 2^32 (and across 2^34) by the
// sparse kernel, in the library and through run_octal and a run file, their values, histograms,
// n and /provenance checked against the naive reference on both sides.
//
// Computing all 2^32 values first takes minutes (run_octal fills and writes them, then its period
// analysis and statistics read every one), so each run starts just below the crossing, as a run
// with --memory resumes: the prefix G(0..P-1) and a tail G(T..L-1) kept, the middle released
// (never in memory), and the rare-value state counting all of G(0..L-1). All of them come from the
// naive kernel's G(0..4095) and the period a theorem proves from it, and so does each value
// expected. The games are octal games with splits whose rare values (under the mask a run would
// choose) all lie in the preperiod: the state lists every rare position, as a run's would, and
// each heap reads its rare pairs' partners next to it, past 2^32. Their periods (48, 14 and 11)
// do not divide 2^32, so a position cut to 32 bits reads another value.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "sgx/engine.hpp"
#include "sgx/period.hpp"
#include "sgx/report.hpp"
#include "sgx/rules.hpp"
#include "sgx/stats.hpp"
#include "sgx/store.hpp"
#include "store/store_layout.hpp"
#include "tool_test.hpp"

namespace sgx {
namespace {

constexpr std::uint64_t kNaiveValues = 4096;
constexpr std::uint64_t kPrefix = std::uint64_t{1} << 16;  // G(0..P-1) kept
constexpr std::uint64_t kTail = std::uint64_t{1} << 16;    // G(T..L-1) kept
constexpr std::uint64_t kAround = std::uint64_t{1} << 20;  // computed on each side of the crossing

bool under_sanitizer() { return std::getenv("SGX_SANITIZED") != nullptr; }

// G of a game at any position, from the naive kernel's values and the period they prove.
struct Reference {
  Rules rules;
  std::vector<Value> naive;
  std::uint64_t preperiod = 0;
  std::uint64_t period = 0;

  explicit Reference(const std::string& game) : rules(parse_rules(game)) {
    const Sequence values = compute_sequence(rules, kNaiveValues, KernelKind::Naive, 1);
    const PeriodResult found = analyze_period(values, rules);
    EXPECT_TRUE(found.proven) << game << ": " << period_text(found);
    EXPECT_EQ(found.saltus, 0);
    naive = values.to_vector();
    preperiod = found.preperiod;
    period = found.period;
  }

  Value at(std::uint64_t m) const { return naive[m < preperiod ? m : preperiod + (m - preperiod) % period]; }

  // The histograms of G(0..n-1): (value, parity) repeats every two periods past the preperiod.
  void count(std::uint64_t n, std::vector<std::uint64_t>& histogram, std::vector<std::uint64_t>& odd) const {
    auto add = [&](std::uint64_t m, std::uint64_t times) {
      const Value v = at(m);
      if (v >= histogram.size()) histogram.resize(v + 1, 0);
      if (v >= odd.size()) odd.resize(v + 1, 0);
      histogram[v] += times;
      odd[v] += (m & 1) * times;
    };
    for (std::uint64_t m = 0; m < std::min(n, preperiod); ++m) add(m, 1);
    if (n <= preperiod) return;
    const std::uint64_t cycle = 2 * period, length = n - preperiod;
    for (std::uint64_t i = 0; i < cycle; ++i) add(preperiod + i, length / cycle + (i < length % cycle ? 1 : 0));
  }
};

// Histograms compared without their trailing zeros (the kernel keeps them a power of two long).
std::vector<std::uint64_t> trimmed(std::vector<std::uint64_t> counts) {
  while (!counts.empty() && counts.back() == 0) counts.pop_back();
  return counts;
}

// The rare-value state of G(0..n-1), as a run that computed them would hold it.
SparseState state_of(const Reference& ref, std::uint64_t n) {
  SparseState state;
  const Sequence naive = Sequence::from_vector(ref.naive);
  state.mask = compute_stats(naive, ref.rules.split_take_parity()).rare_mask;
  for (std::uint64_t m = 0; m < kNaiveValues; ++m) {
    if (!is_rare(ref.naive[m], m, state.mask)) continue;
    state.rare_positions.push_back(m);
    state.rare_values.push_back(ref.naive[m]);
  }
  // None in the periodic part (two periods, for masks with the position), so none past it.
  EXPECT_FALSE(state.rare_positions.empty());
  EXPECT_LT(state.rare_positions.back(), ref.preperiod);
  ref.count(n, state.histogram, state.odd_histogram);
  state.max_value = *std::max_element(ref.naive.begin(), ref.naive.end());
  state.max_at = static_cast<std::uint64_t>(std::find(ref.naive.begin(), ref.naive.end(), state.max_value) -
                                            ref.naive.begin());
  return state;
}

// Every value held at or above from equals the reference's; reports the first few that do not.
std::uint64_t count_wrong(const Sequence& values, std::uint64_t from, const Reference& ref) {
  std::uint64_t wrong = 0;
  for (std::uint64_t m = from; m < values.size(); ++m)
    if (!values.holds(m) || values[m] != ref.at(m))
      if (wrong++ < 5)
        ADD_FAILURE() << "G(" << m << ") = " << (values.holds(m) ? std::to_string(values[m]) : "released")
                      << ", the naive reference says " << ref.at(m);
  return wrong;
}

// What a run with --memory stopped at start keeps: G(0..P-1) and G(start - kTail..start-1), the
// storage reserved for end values (address space only: PageAllocator).
Sequence kept_values(const Reference& ref, std::uint64_t start, std::uint64_t end) {
  Sequence known;
  known.reserve(end);
  for (std::uint64_t m = 0; m < kPrefix; ++m) known.push_back(ref.at(m));
  known.append_released(start - kTail);
  for (std::uint64_t m = start - kTail; m < start; ++m) known.push_back(ref.at(m));
  EXPECT_EQ(known.size(), start);
  EXPECT_EQ(known.kept_count(), kPrefix + kTail);
  return known;
}

// The sparse kernel from crossing - kAround to crossing + kAround in a bounded engine: its values
// and its counts, which go on past the crossing.
void compute_across(const std::string& game, std::uint64_t crossing) {
  const Reference ref(game);
  ASSERT_GT(ref.period, 0u);
  ASSERT_NE(crossing % ref.period, 0u) << "a position cut to 32 bits would read the same value";
  const std::uint64_t start = crossing - kAround, end = crossing + kAround;
  const SparseState state = state_of(ref, start);
  EngineOptions options;
  options.kernel = KernelKind::Sparse;
  options.threads = 2;
  options.period_shortcut = false;
  options.value_memory = std::uint64_t{64} << 20;
  Engine engine(ref.rules, options, kept_values(ref, start, end), state);
  ASSERT_TRUE(engine.compute_to(end));
  EXPECT_EQ(engine.kernels_used(), "sparse");
  const Sequence& values = engine.values();
  ASSERT_EQ(values.size(), end);
  EXPECT_EQ(values.prefix_end(), kPrefix);
  EXPECT_LE(values.tail_start(), start - kTail);
  EXPECT_EQ(count_wrong(values, values.tail_start(), ref), 0u);

  const std::optional<SparseState> after = engine.sparse_state();
  ASSERT_TRUE(after.has_value());
  const SparseState expected = state_of(ref, end);
  EXPECT_EQ(trimmed(after->histogram), expected.histogram);
  EXPECT_EQ(trimmed(after->odd_histogram), expected.odd_histogram);
  EXPECT_EQ(after->mask, state.mask);
  EXPECT_EQ(after->rare_positions, state.rare_positions);
  EXPECT_EQ(after->max_value, state.max_value);
  EXPECT_EQ(after->max_at, state.max_at);
}

TEST(Past2To32, SparseKernelAcross2To32WithTheHeapsParity) {
  if (under_sanitizer()) GTEST_SKIP() << "2^21 values of a bounded run near 2^32: too slow under the sanitizers";
  compute_across("0.051", std::uint64_t{1} << 32);  // rare mask 7 with the heap's parity
}

TEST(Past2To32, SparseKernelAcross2To32And2To34) {
  if (under_sanitizer()) GTEST_SKIP() << "2^21 values of a bounded run near 2^32: too slow under the sanitizers";
  compute_across("0.153", std::uint64_t{1} << 32);
  compute_across("0.141", std::uint64_t{1} << 34);  // the histogram's counts pass 2^32
}

// The same through run_octal: a run file of the run stopped at start (format version 2, which
// holds what a run with --memory keeps, as an earlier version wrote it), continued across the
// crossing with --resume --memory --no-shortcut, and read back: the values around the crossing
// (run_octal --print), the rare-value state's counts, n and /provenance (the library), and every
// checksum (sg_period --verify).
class Past2To32Run : public testing::ToolTest {
 protected:
  void run_octal_across(const std::string& game, std::uint64_t crossing) {
    const Reference ref(game);
    ASSERT_GT(ref.period, 0u);
    ASSERT_NE(crossing % ref.period, 0u) << "a position cut to 32 bits would read the same value";
    const std::uint64_t start = crossing - kAround, end = crossing + kAround;
    const std::string file = path(game + ".h5");
    const std::string n = std::to_string(end);

    const SparseState state = state_of(ref, start);
    RunInfo info;
    info.game = ref.rules.canonical();
    info.engine = "sparse";
    info.program_version = "test";
    info.target_n = start;
    info.sparse_state = state;
    info.stats.rare_mask = state.mask;
    info.stats.rare_count = state.rare_positions.size();
    info.stats.last_rare = static_cast<std::int64_t>(state.rare_positions.back());
    info.stats.max_value = state.max_value;
    info.stats.max_at = state.max_at;
    info.stats.histogram = state.histogram;
    Provenance stretch;
    stretch.command = "G(0..L-1) from the naive reference and its period";
    stretch.threads = 1;
    stretch.values_computed = start;
    info.provenance.push_back(stretch);
    write_run_file(file, info, kept_values(ref, start, start));

    const testing::Result resumed = run("run_octal", {game, "--resume", "--memory", "256M", "--no-shortcut", "--n", n,
                                             "--threads", "2", "--json", "--out", file});
    ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
    const nlohmann::json summary = testing::json_object(resumed.out);
    EXPECT_EQ(summary["n"], end);
    EXPECT_EQ(summary["engine"], "sparse");
    EXPECT_EQ(summary["memory"]["released"], true);
    EXPECT_EQ(summary["provenance"]["first_n"], start);
    EXPECT_EQ(summary["provenance"]["values_computed"], end - start);
    EXPECT_EQ(summary["stats"]["rare_count"], state.rare_positions.size());

    for (const std::uint64_t from : {crossing - 1000, end - 1000}) {
      const std::string range = "--print=" + std::to_string(from) + ":" + std::to_string(from + 1000);
      const testing::Result printed =
          run("run_octal", {game, "--resume", "--memory", "256M", range, "--quiet", "--out", file});
      ASSERT_EQ(printed.exit_code, 0) << printed.err;
      std::istringstream lines(printed.out);
      std::uint64_t m = from, wrong = 0;
      for (std::string line; std::getline(lines, line); ++m)
        if (line != std::to_string(ref.at(m)) && wrong++ < 5)
          ADD_FAILURE() << "run_octal --print: G(" << m << ") = " << line << ", the naive reference says "
                        << ref.at(m);
      EXPECT_EQ(m, from + 1000);
      EXPECT_EQ(wrong, 0u);
    }

    const RunStatus status = read_run_status(file);
    EXPECT_EQ(status.n, end);
    EXPECT_EQ(status.target_n, end);
    EXPECT_EQ(status.prefix_n, kPrefix);
    const RunRecord record = read_run_file(file);
    ASSERT_EQ(record.values.size(), end);
    EXPECT_LE(record.values.tail_start(), start);
    EXPECT_EQ(count_wrong(record.values, record.values.tail_start(), ref), 0u);
    const SparseState expected = state_of(ref, end);
    ASSERT_TRUE(record.sparse_state.has_value());
    EXPECT_EQ(trimmed(record.sparse_state->histogram), expected.histogram);
    EXPECT_EQ(trimmed(record.sparse_state->odd_histogram), expected.odd_histogram);
    EXPECT_EQ(record.sparse_state->rare_positions, state.rare_positions);
    EXPECT_EQ(trimmed(record.stats.histogram), expected.histogram);
    ASSERT_EQ(record.provenance.size(), 2u);
    EXPECT_EQ(record.provenance[1].first_n, start);
    EXPECT_EQ(record.provenance[1].values_computed, end - start);

    const testing::Result verified = run("sg_period", {file, "--verify"});
    EXPECT_EQ(verified.exit_code, 0) << verified.out << verified.err;
  }
};

TEST_F(Past2To32Run, RunOctalAcross2To32) {
  if (under_sanitizer()) GTEST_SKIP() << "2^21 values of a bounded run near 2^32: too slow under the sanitizers";
  run_octal_across("0.141", std::uint64_t{1} << 32);
  run_octal_across("0.153", std::uint64_t{1} << 32);
}

TEST_F(Past2To32Run, RunOctalAcross2To34) {
  if (under_sanitizer()) GTEST_SKIP() << "2^21 values of a bounded run near 2^34: too slow under the sanitizers";
  run_octal_across("0.141", std::uint64_t{1} << 34);  // the histogram's counts pass 2^32
}

// Segment files are named by their first and last positions, twelve digits at least: past 10^12
// (about 2^40) the names are longer, and still a run's own.
TEST(Past2To32, SegmentFileNamesPastTwelveDigits) {
  for (const std::uint64_t start : {std::uint64_t{1} << 32, std::uint64_t{999999999999}, std::uint64_t{1000000000000},
                                    std::uint64_t{1} << 50}) {
    const std::string name = segment_file_name(start, segment_end(start));
    EXPECT_TRUE(is_segment_file_name(name)) << name;
  }
  EXPECT_FALSE(is_segment_file_name("values-000000000001-000000000002.h5.tmp"));
  EXPECT_FALSE(is_segment_file_name("values-1-2.h5"));
  EXPECT_FALSE(is_segment_file_name("values-99999999999999999999999-100000000000000000000000.h5"));
}

}  // namespace
}  // namespace sgx
