// The run session through the library alone: values against the naive kernel, a stop request's
// checkpoint resumed to the same run, and a bounded run's milestones against a count of every value.

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "sgx/engine.hpp"
#include "sgx/rules.hpp"
#include "sgx/run_session.hpp"
#include "sgx/stats.hpp"
#include "sgx/store.hpp"
#include "tool_test.hpp"

namespace sgx {
namespace {

using RunSessionTest = testing::ToolTest;

RunSessionOptions options_for(const std::string& path, int threads = 2) {
  RunSessionOptions options;
  options.engine.threads = threads;
  options.path = path;
  options.checkpoint_every = 0;
  options.command = "test_run_session";
  return options;
}

RunRecord new_run(const Rules& rules) {
  RunRecord record;
  record.game = rules.canonical();
  return record;
}

TEST_F(RunSessionTest, RunToNMatchesTheNaiveKernelAndSavesAFinishedRun) {
  for (const char* game : {"0.137", "4!.0", "0.56"}) {
    SCOPED_TRACE(game);
    const Rules rules = parse_rules(game);
    const std::uint64_t n = 6000;
    const Sequence naive = compute_sequence(rules, n, KernelKind::Naive, 1);
    const std::string file = path(std::string(game) + ".h5");
    RunSession session(rules, new_run(rules), false, options_for(file));
    const RunResult result = session.run(RunGoal{n, false, 0, {}});
    ASSERT_FALSE(result.stopped);
    EXPECT_TRUE(result.computed_any);
    ASSERT_EQ(session.values().size(), n);
    const RunRecord saved = read_run_file(file, LoadValues::All);
    ASSERT_EQ(saved.values.size(), n);
    for (std::uint64_t i = 0; i < n; ++i) {
      ASSERT_EQ(session.values()[i], naive[i]) << "G(" << i << ")";
      ASSERT_EQ(saved.values[i], naive[i]) << "G(" << i << ") in the file";
    }
    EXPECT_TRUE(saved.complete);
    EXPECT_EQ(saved.stats, compute_stats(naive, rules.split_take_parity()));
    // The period as the file keeps it (not the theorem that would apply, say).
    const PeriodResult expected = analyze_period(naive, rules);
    EXPECT_EQ(saved.period.found, expected.found);
    EXPECT_EQ(saved.period.period, expected.period);
    EXPECT_EQ(saved.period.preperiod, expected.preperiod);
    EXPECT_EQ(saved.period.proven, expected.proven);
    EXPECT_EQ(saved.period.theorem, expected.theorem);
    EXPECT_EQ(result.info.period, expected) << "the session's own record, whole";
    ASSERT_EQ(saved.provenance.size(), 1u);
    EXPECT_EQ(saved.provenance[0].command, "test_run_session");
    EXPECT_EQ(saved.provenance[0].values_computed, n);
  }
}

TEST_F(RunSessionTest, UntilProvenInMemoryFindsKaylesPeriod) {
  const Rules rules = parse_rules("kayles");
  RunSessionOptions options = options_for("");
  RunSession session(rules, new_run(rules), false, options);
  const RunResult result = session.run(RunGoal{64, true, 1 << 16, {}});
  ASSERT_FALSE(result.stopped);
  EXPECT_TRUE(result.info.period.proven);
  EXPECT_EQ(result.info.period.period, 12u);
  EXPECT_EQ(result.info.period.preperiod, 71u);
  EXPECT_LT(session.values().size(), std::uint64_t{1} << 16) << "stops at the proof";
}

// Grundy's game has no period to cut the run short: a stop request after the first engine step
// ends it with a checkpoint, and a second session continues it to the values of a run never stopped.
TEST_F(RunSessionTest, StopRequestLeavesACheckpointThatResumesToTheSameRun) {
  const Rules rules = parse_rules("4!.0");
  const std::uint64_t n = std::uint64_t{1} << 18;
  const std::string stopped_file = path("stopped.h5");
  {
    RunSessionOptions options = options_for(stopped_file);
    RunSession* running = nullptr;
    options.on_step = [&running](const Progress&, bool) { running->request_stop(); };
    RunSession session(rules, new_run(rules), false, options);
    running = &session;
    const RunResult result = session.run(RunGoal{n, false, 0, {}});
    ASSERT_TRUE(result.stopped);
    EXPECT_LT(session.values().size(), n);
    const RunStatus status = read_run_status(stopped_file);
    EXPECT_FALSE(status.complete);
    EXPECT_EQ(status.n, session.values().size());
    EXPECT_EQ(status.target_n, n);
  }
  RunRecord stored = read_run_file(stopped_file);
  const std::uint64_t stopped_at = stored.values.size();
  RunSession resumed(rules, std::move(stored), true, options_for(stopped_file));
  EXPECT_EQ(resumed.stored_n(), stopped_at);
  const RunResult finished = resumed.run(RunGoal{n, false, 0, {}});
  ASSERT_FALSE(finished.stopped);

  const std::string whole_file = path("whole.h5");
  RunSession whole(rules, new_run(rules), false, options_for(whole_file));
  whole.run(RunGoal{n, false, 0, {}});

  const RunRecord a = read_run_file(stopped_file, LoadValues::All);
  const RunRecord b = read_run_file(whole_file, LoadValues::All);
  ASSERT_EQ(a.values.size(), n);
  ASSERT_EQ(b.values.size(), n);
  for (std::uint64_t i = 0; i < n; ++i) ASSERT_EQ(a.values[i], b.values[i]) << "G(" << i << ")";
  EXPECT_EQ(a.stats, b.stats);
  EXPECT_EQ(a.period, b.period);
  ASSERT_TRUE(a.counter && b.counter);
  EXPECT_EQ(a.counter->milestones, b.counter->milestones);
  EXPECT_EQ(a.provenance.size(), 2u) << "one row per sitting";
  const Sequence naive = compute_sequence(rules, 4000, KernelKind::Naive, 1);
  for (std::uint64_t i = 0; i < naive.size(); ++i) ASSERT_EQ(a.values[i], naive[i]) << "G(" << i << ")";
}

// A bounded session keeps 200000 values of Grundy's game in memory (as test_bounded's engine does)
// and writes every value to its file; the milestones it counted as it wrote equal those of a count
// of all the values.
TEST_F(RunSessionTest, BoundedRunKeepsMilestonesOfEveryValue) {
  const Rules rules = parse_rules("4!.0");
  const std::uint64_t n = std::uint64_t{1} << 19;
  const std::string file = path("bounded.h5");
  RunSessionOptions options = options_for(file);
  options.engine.value_memory = 400000;
  RunSession session(rules, new_run(rules), false, options);
  const RunResult result = session.run(RunGoal{n, false, 0, {}});
  ASSERT_FALSE(result.stopped);
  ASSERT_TRUE(session.values().has_released()) << "the run must release values to test this";

  const Sequence full = compute_sequence(rules, n, KernelKind::Sparse, 2);
  StatsCounter count(rules.split_take_parity());
  count.add(full, n);
  const RunRecord saved = read_run_file(file, LoadValues::All);
  ASSERT_EQ(saved.values.size(), n);
  for (std::uint64_t i = 0; i < n; ++i) ASSERT_EQ(saved.values[i], full[i]) << "G(" << i << ")";
  ASSERT_TRUE(saved.counter);
  EXPECT_EQ(saved.counter->milestones, count.milestones());
  EXPECT_EQ(saved.stats.histogram, compute_stats(full, rules.split_take_parity()).histogram);
  EXPECT_EQ(saved.stats.max_value, count.stats().max_value);
}

TEST_F(RunSessionTest, RefusesABoundedRunWithoutAFile) {
  const Rules rules = parse_rules("4!.0");
  RunSessionOptions options = options_for("");
  options.engine.value_memory = 400000;
  EXPECT_THROW(RunSession(rules, new_run(rules), false, options), std::invalid_argument);
}

}  // namespace
}  // namespace sgx
