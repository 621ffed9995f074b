// Checkpoints of real run_octal processes: stopped by signals, killed with SIGKILL at random
// moments, resumed, extended, refused when damaged or foreign, and on a full disk.
//
// Runs are started with fork/exec so that the test can signal them. Sizes and kill delays scale
// with the speed of the kernels and the machine (a run long enough to be killed in many places,
// delays a fraction of an uninterrupted run's time), and shrink when SGX_SANITIZED is set (CI runs
// the tests under ASan, about three times slower).

#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "sgx/store.hpp"
#include "store/store_write.hpp"
#include "tool_process.hpp"
#include "sgx/version.hpp"
#include "base/tuning.hpp"

namespace sgx {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using testing::describe;
using testing::Ending;
using testing::Process;

bool sanitized() { return std::getenv("SGX_SANITIZED") != nullptr; }

std::string read_bytes(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void write_bytes(const fs::path& file, const std::string& bytes) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::size_t line_count(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

void sleep_seconds(double seconds) { std::this_thread::sleep_for(std::chrono::duration<double>(seconds)); }

// The run file at path, or nothing when there is none. Fails the test if it cannot be read.
std::optional<RunRecord> read_if_there(const fs::path& path) {
  if (!fs::exists(path)) return std::nullopt;
  try {
    return read_run_file(path.string(), LoadValues::All);  // a bounded run's file holds every value too
  } catch (const StoreError& e) {
    ADD_FAILURE() << "a checkpoint cannot be read: " << e.what();
    return std::nullopt;
  }
}

bool is_prefix(const Sequence& part, const Sequence& whole) {
  if (part.size() > whole.size()) return false;
  for (std::uint64_t i = 0; i < part.size(); ++i)
    if (part[i] != whole[i]) return false;
  return true;
}

// Temporary files that a process killed during a write leaves beside the run file.
int leftover_temporaries(const fs::path& dir) {
  int count = 0;
  for (const auto& entry : fs::recursive_directory_iterator(dir))  // the segment directories too
    if (contains(entry.path().filename().string(), ".tmp-")) ++count;
  return count;
}

using testing::fresh_directory;

// An uninterrupted run: the values every interrupted run of the same arguments must match, and
// how long it took (kill delays are a fraction of that).
struct Reference {
  std::vector<std::string> args;  // without --out
  Sequence values;
  double seconds = 0;
};

Reference uninterrupted(const std::vector<std::string>& args) {
  const fs::path dir = fresh_directory("sgx-reference");
  std::vector<std::string> run_args = args;
  run_args.insert(run_args.end(), {"--out", (dir / "reference.h5").string(), "--quiet"});
  Ending e = Process("run_octal", run_args, dir).wait();
  EXPECT_TRUE(e.exited && e.code == 0) << describe(e);
  Reference reference{args, read_run_file((dir / "reference.h5").string(), LoadValues::All).values, e.seconds};
  fs::remove_all(dir);
  return reference;
}

// Treblecross (0.007): the sparse kernel, then the sweep, where values get slow and kills land
// mid-computation. n is the smallest power of two from 2^16 whose run takes a second here, so the
// test keeps its meaning as kernels get faster. Made once for all tests.
const Reference& treblecross() {
  static const Reference reference = [] {
    for (int power = 16;; ++power) {
      Reference r = uninterrupted(
          {"0.007", "--n", "2^" + std::to_string(power), "--no-shortcut", "--checkpoint-every", "0.05"});
      if (r.seconds >= 1.0 || power == 22) return r;
    }
  }();
  return reference;
}

// A subtraction game with the naive kernel: values are nearly free and a checkpoint follows
// every step of 65536, so most of the time goes to writing files and kills land mid-write.
const Reference& write_heavy() {
  static const Reference reference = uninterrupted({"sub:1,3,4", "--n", sanitized() ? "2^21" : "2^23", "--engine",
                                                    "naive", "--no-shortcut", "--checkpoint-every", "0.001"});
  return reference;
}

// A bounded run (--memory 128M): past 2^24 values it releases the middle of its values from
// memory, which must be on disk first. sub:1,3,4 has no splits, so values come fast.
const Reference& bounded() {
  static const Reference reference = uninterrupted(
      {"sub:1,3,4", "--n", "2^25", "--no-shortcut", "--memory", "128M", "--checkpoint-every", "0.2"});
  return reference;
}

class CheckpointTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = fresh_directory("sgx-checkpoint"); }
  void TearDown() override {
    std::error_code ignored;
    fs::remove_all(dir_, ignored);
  }

  fs::path path(const std::string& name) const { return dir_ / name; }

  Ending run(const std::string& tool, const std::vector<std::string>& args) {
    return Process(tool, args, dir_, environment_).wait();
  }

  // Kills runs of args with SIGKILL at random moments, each continuing the file the previous one
  // left (or starting afresh when it left none), then lets one run finish. After every kill the
  // file must be absent or a readable checkpoint whose values start the reference, and never
  // shorter than before. Returns how many kills found an unfinished checkpoint.
  int kill_and_resume(const Reference& reference, double max_delay, int rounds) {
    const fs::path file = path("run.h5");
    std::vector<std::string> run_args = reference.args;
    run_args.insert(run_args.end(), {"--out", file.string(), "--quiet"});
    std::mt19937 rng(std::random_device{}());
    std::uniform_real_distribution<double> delay(0, max_delay);
    int unfinished_seen = 0;
    std::uint64_t last_n = 0;
    for (int round = 0; round < rounds; ++round) {
      std::vector<std::string> this_run = run_args;
      if (fs::exists(file)) this_run.push_back("--resume");
      Process process("run_octal", this_run, dir_);
      // The delay counts from when the run is under way (its stop handlers are in place), not from
      // the fork: on a loaded machine start-up alone can outlast max_delay. The first run also waits
      // for its first checkpoint: a kill before there is a file tests nothing, and checkpoints are
      // written beside the computing, so how soon the first one lands depends on the machine's load.
      process.wait_until_it_catches(SIGTERM);
      for (int waits = 0; !fs::exists(file) && waits < 60000; ++waits) sleep_seconds(0.001);
      const double waited = delay(rng);
      sleep_seconds(waited);
      process.send(SIGKILL);
      Ending e = process.wait();
      SCOPED_TRACE("kill " + std::to_string(round) + " after " + std::to_string(waited) + " s");
      EXPECT_TRUE(!e.exited || e.code == 0) << describe(e);
      auto stored = read_if_there(file);
      if (!stored) continue;
      EXPECT_TRUE(is_prefix(stored->values, reference.values)) << "the checkpoint holds wrong values";
      EXPECT_GE(stored->values.size(), last_n) << "the file went back";
      last_n = stored->values.size();
      if (!stored->complete) {
        ++unfinished_seen;
        EXPECT_EQ(stored->target_n, reference.values.size());
      }
    }
    std::vector<std::string> last_run = run_args;
    if (fs::exists(file)) last_run.push_back("--resume");
    Ending e = run("run_octal", last_run);
    EXPECT_TRUE(e.exited && e.code == 0) << describe(e);
    RunRecord final_record = read_run_file(file.string(), LoadValues::All);
    EXPECT_TRUE(final_record.complete);
    EXPECT_TRUE(final_record.values == reference.values) << "the resumed run differs from the uninterrupted one";
    return unfinished_seen;
  }

  fs::path dir_;
  std::vector<std::string> environment_;  // for the tools, before the test's own
};

// ----------------------------------------------------------------------------------------------
// kill -9 at random moments.

TEST_F(CheckpointTest, KillNineMidComputationLosesNoValue) {
  // Kills land within an eighth of the run, but not all before a run can have written its first
  // checkpoint: a checkpoint follows a step, and steps are sized to take kEngineStepSeconds.
  // (A reference measured on a loaded machine picks a run that is short when unloaded.)
  const double max_delay = std::max(treblecross().seconds / 8, 2 * tuning::kEngineStepSeconds);
  int unfinished = kill_and_resume(treblecross(), max_delay, 20);
  std::cout << unfinished << " of 20 kills left an unfinished checkpoint (" << treblecross().args[2] << " values)\n";
  EXPECT_GT(unfinished, 0) << "no kill found a checkpoint of an unfinished run";
}

TEST_F(CheckpointTest, KillNineDuringABoundedRunLosesNoValue) {
  // Each run goes on from the last, so the kills reach the part of the run that releases values.
  int unfinished = kill_and_resume(bounded(), bounded().seconds / 4, 20);
  std::cout << unfinished << " of 20 kills left an unfinished checkpoint of a bounded run\n";
  EXPECT_GT(unfinished, 0) << "no kill found a checkpoint of an unfinished run";
}

// kill -9, resume, kill -9, resume to the end: /provenance keeps one row per stretch, and the
// rows join up (each starts where the last checkpoint of the one before left the run).
TEST_F(CheckpointTest, ProvenanceKeepsARowPerStretch) {
  const fs::path file = path("run.h5");
  const std::vector<std::string> args = {"0.007", "--n", treblecross().args[2], "--no-shortcut", "--checkpoint-every",
                                         "0.05", "--out", file.string(), "--quiet"};
  std::uint64_t saved_n = 0;
  for (int stretch = 0; stretch < 2; ++stretch) {
    std::vector<std::string> this_run = args;
    if (stretch > 0) this_run.push_back("--resume");
    Process process("run_octal", this_run, dir_);
    process.wait_until_it_catches(SIGTERM);
    // Killed once it has saved a checkpoint of its own.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (std::chrono::steady_clock::now() < deadline) {
      if (fs::exists(file)) {
        const RunStatus status = read_run_status(file.string());
        if (status.n > saved_n && !status.complete) {
          saved_n = status.n;
          break;
        }
      }
      sleep_seconds(0.01);
    }
    process.send(SIGKILL);
    process.wait();
    ASSERT_GT(saved_n, 0u) << "no checkpoint in stretch " << stretch + 1;
  }
  std::vector<std::string> last = args;
  last.push_back("--resume");
  Ending e = run("run_octal", last);
  ASSERT_TRUE(e.exited && e.code == 0) << describe(e);

  const RunRecord record = read_run_file(file.string());
  ASSERT_EQ(record.provenance.size(), 3u);
  char host[256] = {};
  ASSERT_EQ(::gethostname(host, sizeof host - 1), 0);
  std::uint64_t n = 0;
  for (std::size_t i = 0; i < 3; ++i) {
    const Provenance& row = record.provenance[i];
    SCOPED_TRACE("row " + std::to_string(i + 1));
    EXPECT_TRUE(contains(row.command, "run_octal 0.007 --n ")) << row.command;
    EXPECT_EQ(contains(row.command, "--resume"), i > 0) << row.command;
    EXPECT_EQ(row.host, host);
    EXPECT_EQ(row.version, kVersion);
    EXPECT_EQ(row.commit, kCommit);
    EXPECT_GT(row.threads, 0u);
    EXPECT_EQ(row.first_n, n) << "each stretch starts where the last saved";
    EXPECT_GT(row.values_computed, 0u);
    EXPECT_GE(row.wall_seconds, 0.0);
    EXPECT_LE(row.started, row.ended);
    n = row.first_n + row.values_computed;
  }
  EXPECT_EQ(n, record.values.size());
  const Ending shown = run("sg_period", {file.string()});
  ASSERT_TRUE(shown.exited && shown.code == 0) << describe(shown);
  EXPECT_TRUE(contains(shown.out, "stretches   1. ")) << shown.out;
  EXPECT_TRUE(contains(shown.out, "            3. ")) << shown.out;
}

// A --resume that computes nothing (a look with --print, or an --n below the stored one) adds no
// stretch of 0 values to /provenance, and leaves a finished run's file as it is; one that computes
// adds its row.
TEST_F(CheckpointTest, AResumeThatComputesNothingAddsNoStretch) {
  const std::string file = path("k.h5").string();
  ASSERT_EQ(run("run_octal", {"kayles", "--n", "4000", "--quiet", "--out", file}).code, 0);
  const std::string before = read_bytes(file);
  const Ending look = run("run_octal", {"kayles", "--resume", "--print", "--quiet", "--out", file});
  ASSERT_TRUE(look.exited && look.code == 0) << describe(look);
  EXPECT_EQ(line_count(look.out), 4000u);
  const Ending smaller = run("run_octal", {"kayles", "--n", "1000", "--resume", "--json", "--out", file});
  ASSERT_TRUE(smaller.exited && smaller.code == 0) << describe(smaller);
  EXPECT_FALSE(contains(smaller.out, "\"provenance\"")) << "no stretch to report: " << smaller.out;
  EXPECT_TRUE(read_bytes(file) == before) << "a look changed the finished run's file";
  EXPECT_EQ(read_run_file(file).provenance.size(), 1u);

  const Ending extended = run("run_octal", {"kayles", "--n", "5000", "--resume", "--quiet", "--out", file});
  ASSERT_TRUE(extended.exited && extended.code == 0) << describe(extended);
  const RunRecord record = read_run_file(file);
  ASSERT_EQ(record.provenance.size(), 2u);
  EXPECT_EQ(record.provenance[1].first_n, 4000u);
  EXPECT_EQ(record.provenance[1].values_computed, 1000u);

  // An unfinished run whose values reach its target is marked finished, still without a row.
  RunRecord reached = read_run_file(file);
  reached.complete = false;
  reached.target_n = 5000;
  write_run_file(file, reached);
  ASSERT_EQ(run("run_octal", {"kayles", "--n", "5000", "--resume", "--quiet", "--out", file}).code, 0);
  const RunRecord finished = read_run_file(file);
  EXPECT_TRUE(finished.complete);
  EXPECT_EQ(finished.values.size(), 5000u);
  EXPECT_EQ(finished.provenance.size(), 2u);

  // Without --n, --max-n asks a finished run for a longer search (from 2^13 values here): a stretch.
  ASSERT_EQ(run("run_octal", {"kayles", "--max-n", "2^13", "--resume", "--quiet", "--out", file}).code, 0);
  const RunRecord searched = read_run_file(file);
  EXPECT_EQ(searched.values.size(), 8192u);
  ASSERT_EQ(searched.provenance.size(), 3u);
  EXPECT_EQ(searched.provenance[2].first_n, 5000u);
}

TEST_F(CheckpointTest, KillNineMidWriteLosesNoValue) {
  int unfinished = kill_and_resume(write_heavy(), write_heavy().seconds / 4, 20);
  std::cout << unfinished << " of 20 kills left an unfinished checkpoint\n";
  EXPECT_GT(unfinished, 0) << "no kill found a checkpoint of an unfinished run";
  // A process killed between writing its temporary file and renaming it leaves the temporary;
  // harmless (the run file is whole), and it can be deleted.
  std::cout << "temporary files left by kills during writes: " << leftover_temporaries(dir_) << "\n";
}

// ----------------------------------------------------------------------------------------------
// Stop signals: a clean exit, with the checkpoint current.

// The n of "run_octal: stopped by SIGTERM at n = 123 of 456; ...", or -1.
long long stopped_at(const std::string& err, const std::string& signal) {
  const std::string key = "run_octal: stopped by " + signal + " at n = ";
  auto at = err.find(key);
  if (at == std::string::npos) return -1;
  return std::stoll(err.substr(at + key.size()));
}

// Starts a run (resuming when the file exists), waits until it catches signal, lets it work for
// up to max_delay seconds and sends signal. Returns how it ended.
Ending stop_with(int signal, const std::vector<std::string>& args, const fs::path& file, const fs::path& dir,
                 double delay) {
  std::vector<std::string> run_args = args;
  run_args.insert(run_args.end(), {"--out", file.string(), "--quiet"});
  if (fs::exists(file)) run_args.push_back("--resume");
  Process process("run_octal", run_args, dir);
  if (process.wait_until_it_catches(signal)) {
    sleep_seconds(delay);
    process.send(signal);
  }
  return process.wait();
}

TEST_F(CheckpointTest, SigtermStopsCleanlyWithTheCheckpointCurrent) {
  const Reference& reference = treblecross();
  const fs::path file = path("run.h5");
  std::mt19937 rng(std::random_device{}());
  std::uniform_real_distribution<double> delay(0, reference.seconds / 6);
  std::uint64_t last_n = 0;
  for (int round = 0; round < 6; ++round) {
    Ending e = stop_with(SIGTERM, reference.args, file, dir_, delay(rng));
    SCOPED_TRACE("round " + std::to_string(round));
    ASSERT_TRUE(e.exited) << describe(e);
    if (e.code == 0) break;  // finished before the signal
    EXPECT_EQ(e.code, 143) << describe(e);
    EXPECT_EQ(line_count(e.err), 1u) << e.err;
    EXPECT_TRUE(contains(e.err, "checkpoint written to " + file.string() + "; continue with --resume")) << e.err;
    const long long n = stopped_at(e.err, "SIGTERM");
    RunStatus status = read_run_status(file.string());
    EXPECT_EQ(static_cast<long long>(status.n), n) << "the checkpoint is not current";
    EXPECT_FALSE(status.complete);
    EXPECT_GE(status.n, last_n);
    last_n = status.n;
    EXPECT_EQ(leftover_temporaries(dir_), 0);
  }
  std::vector<std::string> last_args = reference.args;
  last_args.insert(last_args.end(), {"--out", file.string(), "--quiet", "--resume"});
  Ending last = run("run_octal", last_args);
  ASSERT_TRUE(last.exited && last.code == 0) << describe(last);
  EXPECT_TRUE(read_run_file(file.string()).values == reference.values);
}

TEST_F(CheckpointTest, SigintAndSigusr1StopWithTheirExitCodes) {
  const fs::path file = path("run.h5");
  const std::vector<std::string> args{"0.007", "--n", "2^20", "--checkpoint-every", "0"};
  const std::map<int, std::pair<std::string, int>> signals{{SIGINT, {"SIGINT", 130}}, {SIGUSR1, {"SIGUSR1", 0}}};
  for (const auto& [signal, expected] : signals) {
    Ending e = stop_with(signal, args, file, dir_, 0.3);
    ASSERT_TRUE(e.exited) << describe(e);
    EXPECT_EQ(e.code, expected.second) << describe(e);
    const long long n = stopped_at(e.err, expected.first);
    EXPECT_GT(n, 0) << e.err;
    RunStatus status = read_run_status(file.string());
    EXPECT_EQ(static_cast<long long>(status.n), n);
    EXPECT_FALSE(status.complete);
    EXPECT_EQ(status.target_n, 1u << 20);
  }
}

// ----------------------------------------------------------------------------------------------
// Resuming and extending.

// Stored values are trusted (their checksums vouch for them), not recomputed: a value planted in
// a finished file comes back unchanged from the extended run, and the new values follow on.
TEST_F(CheckpointTest, ExtendingAFinishedRunReusesTheStoredValues) {
  const std::string file = path("k.h5").string();
  ASSERT_EQ(run("run_octal", {"kayles", "--n", "3000", "--no-shortcut", "--quiet", "--out", file}).code, 0);
  RunRecord record = read_run_file(file);
  ASSERT_TRUE(record.complete);
  record.values.visit([](auto& g) { g[2500] = 7; });  // the true G(2500) is 1
  write_run_file(file, record);
  Ending e = run("run_octal", {"kayles", "--n", "5000", "--no-shortcut", "--print=2499:2502", "--quiet", "--resume",
                               "--out", file});
  ASSERT_TRUE(e.exited && e.code == 0) << describe(e);
  EXPECT_EQ(e.out, "8\n7\n4\n");
  RunRecord extended = read_run_file(file);
  EXPECT_EQ(extended.values.size(), 5000u);
  EXPECT_TRUE(extended.complete);
}

TEST_F(CheckpointTest, ResumingWithASmallerNKeepsEveryStoredValue) {
  const std::string file = path("k.h5").string();
  ASSERT_EQ(run("run_octal", {"kayles", "--n", "4000", "--quiet", "--out", file}).code, 0);
  Ending e = run("run_octal", {"kayles", "--n", "1000", "--resume", "--quiet", "--out", file});
  ASSERT_TRUE(e.exited && e.code == 0) << describe(e);
  EXPECT_EQ(read_run_status(file).n, 4000u);
}

TEST_F(CheckpointTest, WithoutOutResumeContinuesTheDefaultFile) {
  ASSERT_EQ(run("run_octal", {"kayles", "--n", "1000", "--quiet"}).code, 0);
  Ending e = run("run_octal", {"kayles", "--n", "3000", "--quiet", "--resume"});
  ASSERT_TRUE(e.exited && e.code == 0) << describe(e);
  EXPECT_EQ(read_run_status(path("results/0.77.h5").string()).n, 3000u);
}

// ----------------------------------------------------------------------------------------------
// What --resume refuses, leaving the file as it was.

class CheckpointRefusalTest : public CheckpointTest {
 protected:
  // A real checkpoint: a Treblecross run stopped by SIGUSR1.
  void SetUp() override {
    CheckpointTest::SetUp();
    // HDF5 1.10 leaks a few hundred bytes inside the library when it refuses a damaged file; under
    // LeakSanitizer that would add a report to the one-line message these tests check. Linked
    // statically, HDF5's functions are the tools' own: they are named by their prefix (the
    // sanitizer's stack ends at the first of them, HDF5 having no frame pointers).
    write_bytes(path("hdf5-leaks.supp"), "leak:libhdf5\nleak:^H5\n");
    environment_.push_back("LSAN_OPTIONS=suppressions=" + path("hdf5-leaks.supp").string() +
                           ":print_suppressions=0");
    Ending e = stop_with(SIGUSR1, {"0.007", "--n", "2^20", "--checkpoint-every", "0"}, file(), dir_, 0.2);
    ASSERT_TRUE(e.exited && e.code == 0) << describe(e);
    ASSERT_FALSE(read_run_status(file().string()).complete);
    original_ = read_bytes(file());
  }
  fs::path file() const { return path("run.h5"); }
  std::vector<std::string> resume_args(const std::string& game = "0.007") const {
    return {game, "--n", "2^20", "--resume", "--quiet", "--out", file().string()};
  }
  // A refusal: exit 1 or 2, one line naming the file, and the file untouched.
  void expect_refused(const Ending& e, const std::string& reason) {
    EXPECT_TRUE(e.exited && (e.code == 1 || e.code == 2)) << reason << ": " << describe(e);
    EXPECT_EQ(line_count(e.err), 1u) << reason << ": " << e.err;
    EXPECT_TRUE(contains(e.err, file().string())) << reason << ": " << e.err;
    EXPECT_TRUE(read_bytes(file()) == bytes_now_) << reason << ": the file was changed";
  }
  void damage(const std::string& bytes) {
    write_bytes(file(), bytes);
    bytes_now_ = bytes;
  }
  std::string original_, bytes_now_;
};

TEST_F(CheckpointRefusalTest, AnotherGamesFileIsRefused) {
  damage(original_);
  Ending e = run("run_octal", resume_args("kayles"));
  expect_refused(e, "another game");
  EXPECT_EQ(e.code, 2);
  EXPECT_TRUE(contains(e.err, "holds a run of 0.007, not 0.77")) << e.err;
}

TEST_F(CheckpointRefusalTest, AMissingFileIsRefusedAndNotCreated) {
  Ending e = run("run_octal", {"0.007", "--n", "1000", "--resume", "--out", path("none.h5").string()});
  EXPECT_TRUE(e.exited && e.code == 2) << describe(e);
  EXPECT_TRUE(contains(e.err, "none.h5 does not exist")) << e.err;
  EXPECT_FALSE(fs::exists(path("none.h5")));
}

TEST_F(CheckpointRefusalTest, ANewerFormatVersionIsRefused) {
  detail::write_run_file_as_version(file().string(), read_run_file(file().string()), kFormatVersion + 1);
  bytes_now_ = read_bytes(file());
  Ending e = run("run_octal", resume_args());
  expect_refused(e, "newer format");
  EXPECT_EQ(e.code, 1);
  EXPECT_TRUE(contains(e.err, "newer format version")) << e.err;
}

// Without --resume, an unfinished run is not replaced: a forgotten --resume would lose it.
TEST_F(CheckpointRefusalTest, AFreshRunDoesNotReplaceAnUnfinishedOne) {
  damage(original_);
  const RunStatus stored = read_run_status(file().string());
  Ending e = run("run_octal", {"0.007", "--n", "1000", "--quiet", "--out", file().string()});
  expect_refused(e, "fresh run over a checkpoint");
  EXPECT_EQ(e.code, 1);
  EXPECT_EQ(e.err, "run_octal: " + file().string() + " holds an unfinished run of 0.007 (" + std::to_string(stored.n) +
                       " of 1048576 values): continue or extend it with --resume, or replace it with --overwrite\n");
  // Replaced only when asked.
  Ending fresh = run("run_octal", {"kayles", "--n", "100", "--quiet", "--overwrite", "--out", file().string()});
  EXPECT_TRUE(fresh.exited && fresh.code == 0) << describe(fresh);
  EXPECT_EQ(read_run_status(file().string()).game, "0.77");
}

TEST_F(CheckpointRefusalTest, TruncatedCheckpointsAreRefusedByBothTools) {
  const std::size_t size = original_.size();
  for (std::size_t length : {std::size_t{0}, std::size_t{1}, std::size_t{47}, std::size_t{100}, std::size_t{2048},
                             size / 3, size / 2, size - 100, size - 1}) {
    damage(original_.substr(0, length));
    const std::string label = "cut to " + std::to_string(length) + " bytes";
    expect_refused(run("run_octal", resume_args()), label + ", run_octal");
    Ending period = run("sg_period", {file().string()});
    EXPECT_TRUE(period.exited && period.code == 1) << label << ", sg_period: " << describe(period);
  }
}

// Each damaged byte is either refused by both tools, the file untouched, or lies in space HDF5
// leaves unused (metadata blocks are not always full), where it changes nothing: then the file
// reads back exactly. The store tests cover every byte; here the tools see a sample. The
// signature and the superblock are always refused; of the random bytes about half fall in unused
// space of the small manifest a checkpoint now is (format version 3).
TEST_F(CheckpointRefusalTest, FlippedBytesAreRefusedByBothToolsOrHarmless) {
  const std::size_t size = original_.size();
  const RunRecord stored = read_run_file(file().string());
  std::mt19937 rng(std::random_device{}());
  std::uniform_int_distribution<std::size_t> anywhere(0, size - 1);
  std::uniform_int_distribution<int> nonzero(1, 255);
  std::vector<std::size_t> positions{0, 8, 20, 28, 44, 47, size - 1};  // signature, superblock, end
  const int sampled = sanitized() ? 15 : 40;
  for (int i = 0; i < sampled; ++i) positions.push_back(anywhere(rng));
  const std::size_t always_refused = 6;  // the signature and the superblock (not the last byte)
  int refused = 0, harmless = 0;
  for (std::size_t position : positions) {
    std::string bytes = original_;
    bytes[position] = static_cast<char>(bytes[position] ^ nonzero(rng));
    damage(bytes);
    const std::string label = "byte " + std::to_string(position) + " of " + std::to_string(size);
    Ending period = run("sg_period", {file().string()});
    if (period.exited && period.code == 0) {
      // Unused space: the tools must see exactly the stored values.
      EXPECT_FALSE(std::find(positions.begin(), positions.begin() + always_refused, position) !=
                   positions.begin() + always_refused)
          << label << ": damage to the signature or superblock went unnoticed";
      ++harmless;
      Ending printed = run("run_octal", {"0.007", "--n", std::to_string(stored.values.size()), "--resume", "--quiet",
                                         "--print", "--out", file().string()});
      ASSERT_TRUE(printed.exited && printed.code == 0) << label << ": " << describe(printed);
      std::string expected;
      for (std::uint64_t k = 0; k < stored.values.size(); ++k)
        expected.append(std::to_string(stored.values[k])).append("\n");
      EXPECT_TRUE(printed.out == expected) << label << ": damage was read as values";
      continue;
    }
    ++refused;
    EXPECT_TRUE(period.exited && period.code == 1) << label << ", sg_period: " << describe(period);
    expect_refused(run("run_octal", resume_args()), label + ", run_octal");
  }
  std::cout << positions.size() << " flipped bytes in a " << size << "-byte checkpoint: " << refused << " refused, "
            << harmless << " in unused space\n";
  EXPECT_GE(refused, static_cast<int>(positions.size() / 4));
}

// Checkpoints are written by a writer thread while the engine goes on. A checkpoint's log line
// (stderr is no terminal here) comes when it has been written: the engine has computed past the
// values it saved by then, which the run before the writer thread never had.
TEST_F(CheckpointTest, CheckpointsAreWrittenWhileTheEngineComputes) {
  const fs::path file = path("run.h5");
  std::vector<std::string> args = treblecross().args;
  const auto interval = std::find(args.begin(), args.end(), "--checkpoint-every");
  ASSERT_NE(interval, args.end());
  *std::next(interval) = "0.01";
  args.insert(args.end(), {"--progress-every", "0", "--out", file.string()});
  Ending e = run("run_octal", args);
  ASSERT_TRUE(e.exited && e.code == 0) << describe(e);
  int checkpoints = 0, computed_on = 0;
  std::istringstream lines(e.err);
  for (std::string line; std::getline(lines, line);) {
    unsigned long long n = 0, target = 0, saved = 0;
    const std::size_t at_n = line.find(" n "), at_saved = line.find("checkpoint of ");
    if (at_n == std::string::npos || at_saved == std::string::npos) continue;
    ASSERT_EQ(std::sscanf(line.c_str() + at_n, " n %llu/%llu", &n, &target), 2) << line;
    ASSERT_EQ(std::sscanf(line.c_str() + at_saved, "checkpoint of %llu values", &saved), 1) << line;
    ++checkpoints;
    EXPECT_LE(saved, n) << line;
    if (n > saved) ++computed_on;
  }
  EXPECT_GE(checkpoints, 2) << e.err;
  EXPECT_EQ(computed_on, checkpoints) << e.err;
  RunRecord record = read_run_file(file.string());
  EXPECT_TRUE(record.complete);
  EXPECT_TRUE(record.values == treblecross().values);
}

// ----------------------------------------------------------------------------------------------
// Disk trouble: a clear error, and the previous checkpoint survives.

// A directory where the first segment file goes: the writer thread's failure ends the run with
// the same one-line message as any failed write, and nothing is presented as saved.
TEST_F(CheckpointTest, AWriterThreadErrorEndsTheRunWithAClearMessage) {
  const fs::path file = path("run.h5");
  const fs::path in_the_way = fs::path(segment_directory(file.string())) / "values-000000000000-000000065536.h5";
  fs::create_directories(in_the_way / "inside");
  Ending e = run("run_octal", {"0.007", "--n", "2^20", "--checkpoint-every", "0", "--quiet", "--out", file.string()});
  ASSERT_TRUE(e.exited) << describe(e);
  EXPECT_EQ(e.code, 1) << describe(e);
  EXPECT_EQ(line_count(e.err), 1u) << e.err;
  EXPECT_TRUE(contains(e.err, "cannot write " + file.string() + ": is a directory")) << e.err;
  EXPECT_TRUE(contains(e.err, "no values were saved")) << e.err;
  EXPECT_FALSE(fs::exists(file));
  EXPECT_TRUE(fs::is_directory(in_the_way / "inside"));
  EXPECT_EQ(leftover_temporaries(dir_), 0);
}

TEST_F(CheckpointTest, AnUnwritableDirectoryFailsAtOnce) {
  write_bytes(path("plain"), "x");
  Ending e = run("run_octal", {"0.007", "--n", "2^20", "--out", path("plain/run.h5").string()});
  EXPECT_TRUE(e.exited && e.code == 1) << describe(e);
  EXPECT_TRUE(contains(e.err, "plain/run.h5")) << e.err;
  EXPECT_TRUE(contains(e.err, "not a directory")) << e.err;
  EXPECT_LT(e.seconds, 10) << "it should fail before computing";
  EXPECT_EQ(read_bytes(path("plain")), "x");
}

// A small tmpfs fills up during the run: the failed checkpoint is reported, and the file holds
// the last one that fitted, which resumes elsewhere to the right values.
TEST_F(CheckpointTest, AFullDiskKeepsTheLastCheckpoint) {
  const fs::path small = path("small");
  fs::create_directories(small);
  if (::mount("tmpfs", small.c_str(), "tmpfs", 0, "size=64k") != 0)
    GTEST_SKIP() << "cannot mount a small tmpfs here (needs root): " << std::strerror(errno);
  struct Unmount {
    fs::path dir;
    ~Unmount() { ::umount2(dir.c_str(), MNT_DETACH); }
  } unmount{small};

  const fs::path file = small / "run.h5";
  const std::vector<std::string>& args = treblecross().args;  // its files outgrow 64 KiB
  // A checkpoint after every engine step: the first then holds a few thousand values, well within
  // 64 KiB, however fast the machine runs (after 0.05 s it could already hold too many).
  std::vector<std::string> run_args = args;
  const auto interval = std::find(run_args.begin(), run_args.end(), "--checkpoint-every");
  ASSERT_NE(interval, run_args.end());
  *std::next(interval) = "0.001";
  run_args.insert(run_args.end(), {"--out", file.string(), "--quiet"});
  Ending e = run("run_octal", run_args);
  ASSERT_TRUE(e.exited) << describe(e);
  EXPECT_EQ(e.code, 1) << describe(e);
  EXPECT_EQ(line_count(e.err), 1u) << e.err;
  EXPECT_TRUE(contains(e.err, "cannot write " + file.string() + ": no space left on device")) << e.err;
  EXPECT_EQ(leftover_temporaries(small), 0);
  ASSERT_TRUE(fs::exists(file)) << "the first checkpoints fit in 64 KiB";
  RunRecord kept = read_run_file(file.string());
  EXPECT_FALSE(kept.complete);
  EXPECT_TRUE(contains(e.err, file.string() + " still holds the " + std::to_string(kept.values.size()) +
                                  " values saved before"))
      << e.err;

  // A version-3 run file is the manifest and its directory of segments: both move together.
  fs::copy_file(file, path("moved.h5"));
  fs::copy(segment_directory(file.string()), segment_directory(path("moved.h5").string()));
  std::vector<std::string> resume_args = args;
  resume_args.insert(resume_args.end(), {"--out", path("moved.h5").string(), "--resume", "--quiet"});
  Ending resumed = run("run_octal", resume_args);
  ASSERT_TRUE(resumed.exited && resumed.code == 0) << describe(resumed);
  EXPECT_TRUE(read_run_file(path("moved.h5").string()).values == treblecross().values);
}

// ----------------------------------------------------------------------------------------------
// Options, and other tools reading what run_octal writes.

TEST_F(CheckpointTest, BadCheckpointIntervalsAreUsageErrors) {
  for (const char* seconds : {"-1", "abc", "inf", "nan", "", "5s"}) {
    Ending e =
        run("run_octal", {"kayles", "--n", "100", "--checkpoint-every", seconds, "--out", path("k.h5").string()});
    EXPECT_TRUE(e.exited && e.code == 2) << seconds << ": " << describe(e);
    EXPECT_EQ(line_count(e.err), 1u) << e.err;
    EXPECT_FALSE(fs::exists(path("k.h5")));
  }
}

// The h5py snippet of docs/FORMAT.md, as printed there, on a checkpoint and a finished run.
TEST_F(CheckpointTest, TheDocumentedH5pySnippetAndH5dumpReadRunOctalFiles) {
  ASSERT_EQ(run("run_octal", {"kayles", "--n", "1000", "--quiet", "--out", path("done.h5").string()}).code, 0);
  Ending stopped = stop_with(SIGUSR1, {"0.007", "--n", "2^20", "--checkpoint-every", "0"}, path("part.h5"), dir_, 0.2);
  ASSERT_TRUE(stopped.exited && stopped.code == 0) << describe(stopped);

  if (std::system("command -v h5dump >/dev/null 2>&1") == 0) {
    for (const char* name : {"done.h5", "part.h5"}) {
      const std::string command =
          "h5dump -H '" + path(name).string() + "' > '" + path("h5dump.txt").string() + "' 2>&1";
      EXPECT_EQ(std::system(command.c_str()), 0) << read_bytes(path("h5dump.txt"));
      EXPECT_TRUE(contains(read_bytes(path("h5dump.txt")), "ATTRIBUTE \"complete\"")) << read_bytes(path("h5dump.txt"));
    }
  }

  if (std::system("/usr/bin/python3 -c 'import h5py' 2>/dev/null") != 0)
    GTEST_SKIP() << "/usr/bin/python3 has no h5py (apt-get install python3-h5py)";
  const std::string doc = read_bytes(fs::path(SGX_SOURCE_DIR) / "docs" / "FORMAT.md");
  const std::string open = "```python\n";
  const auto start = doc.find(open);
  ASSERT_NE(start, std::string::npos) << "no python snippet in docs/FORMAT.md";
  std::string snippet = doc.substr(start + open.size(), doc.find("```", start + open.size()) - start - open.size());
  const std::string example = "results/0.137.h5";
  ASSERT_TRUE(contains(snippet, example));
  for (const char* name : {"done.h5", "part.h5"}) {
    std::string script = snippet;
    script.replace(script.find(example), example.size(), path(name).string());
    write_bytes(path("read.py"), script);
    const std::string command =
        "/usr/bin/python3 '" + path("read.py").string() + "' > '" + path("py.txt").string() + "' 2>&1";
    EXPECT_EQ(std::system(command.c_str()), 0) << read_bytes(path("py.txt"));
    const std::string output = read_bytes(path("py.txt"));
    if (std::string(name) == "done.h5") {
      EXPECT_TRUE(contains(output, "0.77 1000 [0 1 2 3 1 4 3 2 1 4]")) << output;
      EXPECT_TRUE(contains(output, "period 12 preperiod 71 proven")) << output;
    } else {
      EXPECT_TRUE(contains(output, "0.007")) << output;
      EXPECT_TRUE(contains(output, "checkpoint")) << output;
    }
  }
}

}  // namespace
}  // namespace sgx
