// sg_sweep --runs: each game keeps its run file, so that a sweep killed with SIGKILL in the middle
// of a long game continues it from its file, and the table comes out as an uninterrupted sweep's.

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <algorithm>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "sgx/store.hpp"
#include "sgx/sweep.hpp"
#include "sgx/version.hpp"
#include "tool_process.hpp"

namespace sgx {
namespace {

namespace fs = std::filesystem;
using testing::contains;
using testing::describe;
using testing::Ending;
using testing::fresh_directory;
using testing::Process;
using testing::read_file;


// The rows of a table without their seconds, which differ from run to run.
std::vector<std::string> rows_without_seconds(const fs::path& table) {
  std::vector<std::string> rows;
  std::istringstream lines(read_file(table));
  for (std::string line; std::getline(lines, line);) rows.push_back(line.substr(0, line.rfind(',')));
  return rows;
}

// 0.003 is proven at once; 0.004 has no period and runs to --max-n, its rare positions growing
// with n (about n^2 work). max_n is the smallest power of two from 2^15 whose uninterrupted sweep
// takes a second here, so that a kill lands inside 0.004 however fast the machine is.
struct Reference {
  std::vector<std::string> args;  // without --runs and --out
  fs::path dir;
  double seconds = 0;
};

const Reference& reference() {
  static const Reference made = [] {
    for (int power = 15;; ++power) {
      Reference r;
      r.args = {"--codes", "0.00[34]", "--max-n", "2^" + std::to_string(power), "--threads", "1", "--checkpoint-every",
                "0.05", "--quiet"};
      r.dir = fresh_directory("sgx-sweep-reference");
      std::vector<std::string> args = r.args;
      args.insert(args.end(), {"--runs", "runs", "--out", "table.csv"});
      const Ending e = Process("sg_sweep", args, r.dir).wait();
      EXPECT_TRUE(e.exited && e.code == 0) << describe(e);
      r.seconds = e.seconds;
      if (r.seconds >= 1.0 || power == 20) return r;
      fs::remove_all(r.dir);
    }
  }();
  return made;
}

TEST(SweepRuns, AKilledSweepContinuesTheLongGameFromItsFile) {
  const Reference& ref = reference();
  const fs::path dir = fresh_directory("sgx-sweep-killed");
  const std::string run_file = (dir / "runs" / "0.004.h5").string();
  std::vector<std::string> args = ref.args;
  args.insert(args.end(), {"--runs", "runs", "--out", "table.csv"});

  // Killed once 0.004's file holds an unfinished checkpoint past a quarter of the values.
  RunStatus killed_at;
  {
    Process sweep("sg_sweep", args, dir);
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(600);
    const std::uint64_t quarter = read_run_status((ref.dir / "runs" / "0.004.h5").string()).n / 4;
    while (std::chrono::steady_clock::now() < give_up) {
      try {
        killed_at = read_run_status(run_file);
        if (!killed_at.complete && killed_at.n >= quarter) break;
      } catch (const StoreError&) {  // not written yet
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    sweep.send(SIGKILL);
    const Ending e = sweep.wait();
    ASSERT_FALSE(e.exited) << "the sweep ended before it could be killed: " << describe(e);
    killed_at = read_run_status(run_file);  // what the kill left
  }
  ASSERT_FALSE(killed_at.complete);
  ASSERT_GT(killed_at.n, 0u);
  EXPECT_EQ(killed_at.game, "0.004");
  EXPECT_EQ(rows_without_seconds(dir / "table.csv").size(), 2u) << "the header and 0.003's row";

  // Resumed: 0.004 goes on from its file, and says from where.
  args.erase(std::find(args.begin(), args.end(), "--quiet"));
  args.push_back("--resume");
  const Ending resumed = Process("sg_sweep", args, dir).wait();
  ASSERT_TRUE(resumed.exited && resumed.code == 0) << describe(resumed);
  EXPECT_TRUE(contains(resumed.err, "0.004 continued from runs/0.004.h5 at n = " + std::to_string(killed_at.n)))
      << resumed.err;
  EXPECT_EQ(rows_without_seconds(dir / "table.csv"), rows_without_seconds(ref.dir / "table.csv"));
  const RunRecord finished = read_run_file(run_file, LoadValues::All);
  const RunRecord uninterrupted = read_run_file((ref.dir / "runs" / "0.004.h5").string(), LoadValues::All);
  EXPECT_TRUE(finished.complete);
  EXPECT_TRUE(finished.values == uninterrupted.values);

  // One /provenance row per stretch of the game: the killed sitting to its last checkpoint, then
  // the resumed one to the end, each with its command; the uninterrupted sweep's file has one.
  ASSERT_EQ(finished.provenance.size(), 2u);
  const Provenance& first = finished.provenance[0];
  const Provenance& second = finished.provenance[1];
  EXPECT_TRUE(contains(first.command, "sg_sweep --codes 0.00[34] --max-n")) << first.command;
  EXPECT_FALSE(contains(first.command, "--resume")) << first.command;
  EXPECT_TRUE(contains(second.command, "--runs runs --out table.csv --resume")) << second.command;
  EXPECT_EQ(first.first_n, 0u);
  EXPECT_EQ(first.values_computed, killed_at.n);
  EXPECT_EQ(second.first_n, killed_at.n);
  EXPECT_EQ(second.values_computed, finished.values.size() - killed_at.n);
  for (const Provenance& row : finished.provenance) {
    EXPECT_EQ(row.version, kVersion);
    EXPECT_EQ(row.threads, 1u);
    EXPECT_FALSE(row.host.empty());
    EXPECT_LE(row.started, row.ended);
    EXPECT_GE(row.wall_seconds, 0.0);
    EXPECT_GE(row.cpu_seconds, 0.0);
  }
  EXPECT_LE(first.ended, second.started);
  ASSERT_EQ(uninterrupted.provenance.size(), 1u);
  EXPECT_EQ(uninterrupted.provenance[0].first_n, 0u);
  EXPECT_EQ(uninterrupted.provenance[0].values_computed, uninterrupted.values.size());
  EXPECT_EQ(read_run_file((dir / "runs" / "0.003.h5").string()).provenance.size(), 1u)
      << "0.003 was finished before the kill and not computed again";
  fs::remove_all(dir);
}

TEST(SweepRuns, ARunFileOfAnotherGameIsRefused) {
  const fs::path dir = fresh_directory("sgx-sweep-other");
  fs::create_directories(dir / "runs");
  ASSERT_EQ(Process("run_octal", {"0.77", "--n", "100", "--out", "runs/0.137.h5", "--quiet"}, dir).wait().code, 0);
  const std::string before = read_file(dir / "runs" / "0.137.h5");
  const Ending e = Process("sg_sweep", {"--codes", "0.137", "--runs", "runs", "--quiet"}, dir).wait();
  EXPECT_TRUE(e.exited && e.code == 1) << describe(e);
  EXPECT_EQ(e.err, "sg_sweep: runs/0.137.h5 holds a finished run of 0.77 (100 values), not a run of 0.137: replace it "
                   "with --overwrite, or choose another --runs\n");
  const Ending resumed = Process("sg_sweep", {"--codes", "0.137", "--runs", "runs", "--quiet", "--resume"}, dir).wait();
  EXPECT_TRUE(resumed.exited && resumed.code == 2) << describe(resumed);
  EXPECT_TRUE(contains(resumed.err, "runs/0.137.h5 holds a run of 0.77, not 0.137")) << resumed.err;
  EXPECT_TRUE(read_file(dir / "runs" / "0.137.h5") == before) << "the other game's file was changed";
  fs::remove_all(dir);
}

}  // namespace
}  // namespace sgx
