// What a batch job and a careful user meet, through the real tools: plain progress lines in logs,
// one writer per output file (a lock naming its holder, free again when its holder is killed),
// runs too large for memory refused at the start, and files of other programs never overwritten.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <hdf5.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "sgx/store.hpp"
#include "tool_process.hpp"
#include "tool_test.hpp"

namespace sgx {
namespace {

namespace fs = std::filesystem;
using testing::contains;
using testing::describe;
using testing::Ending;
using testing::Process;
using testing::read_file;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  for (std::size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1)
    lines.push_back(text.substr(start, end - start));
  return lines;
}

std::string host_name() {
  char host[256] = "";
  ::gethostname(host, sizeof host - 1);
  return host;
}

class BatchTest : public testing::ToolTest {
 protected:
  Ending run_process(const std::vector<std::string>& args) { return Process("run_octal", args, dir_).wait(); }

  // Waits until the lock file of a run started as process holds its pid; false after a minute.
  bool wait_for_lock(const Process& process, const std::string& lock) const {
    const std::string holder = "pid " + std::to_string(process.pid()) + " ";
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (std::chrono::steady_clock::now() < give_up) {
      if (contains(read_file(lock), holder)) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return false;
  }
};

// ---- Progress lines in a batch job's log ----

// Values of 0.6 that take about wanted seconds here, from a measured run of at least four (start-up
// then counts little): the sparse kernel's time grows about as n does.
std::uint64_t values_for_seconds(double wanted, const fs::path& dir) {
  for (int power = 16;; ++power) {
    const std::uint64_t n = std::uint64_t{1} << power;
    Ending e = Process("run_octal", {"0.6", "--n", std::to_string(n), "--no-shortcut", "--quiet", "--overwrite",
                                     "--out", (dir / "reference.h5").string()},
                       dir)
                   .wait();
    EXPECT_TRUE(e.exited && e.code == 0) << describe(e);
    if (e.seconds >= 4 || power == 26) return static_cast<std::uint64_t>(static_cast<double>(n) * wanted / e.seconds);
  }
}

TEST_F(BatchTest, ALogGetsPlainProgressLinesEveryFewSecondsAndAtCheckpoints) {
  // Sized for twice the 20 seconds it is given, then stopped (SIGUSR1: checkpoint, exit 0), so a
  // machine that has become faster since the measurement still gives a run of 20 seconds.
  const std::uint64_t n = values_for_seconds(40, dir_);
  // stderr goes to a file (Process), as in a batch job.
  Process process("run_octal", {"0.6", "--n", std::to_string(n), "--no-shortcut", "--out", path("run.h5"),
                                "--progress-every", "2", "--checkpoint-every", "5"},
                  dir_);
  process.wait_until_it_catches(SIGUSR1);
  std::this_thread::sleep_for(std::chrono::seconds(20));
  process.send(SIGUSR1);
  Ending e = process.wait();
  ASSERT_TRUE(e.exited && e.code == 0) << describe(e);
  EXPECT_EQ(e.err.find('\r'), std::string::npos) << "a carriage return in the log";
  EXPECT_EQ(e.err.find('\033'), std::string::npos) << "an escape code in the log";
  // Built with append: GCC 12 warns falsely (-Wrestrict) on chains of "literal" + string.
  const std::string of_target = std::string("/").append(std::to_string(n)).append(" (");
  std::size_t progress_lines = 0, checkpoints = 0;
  for (const std::string& line : lines_of(e.err)) {
    EXPECT_EQ(line.rfind("run_octal: ", 0), 0u) << line;
    if (contains(line, "stopped by SIGUSR1")) continue;  // the last line
    ++progress_lines;
    EXPECT_TRUE(contains(line, of_target)) << "values done of the target: " << line;
    EXPECT_TRUE(contains(line, " values/s  left ")) << line;
    EXPECT_TRUE(contains(line, "  resident ")) << line;
    EXPECT_TRUE(contains(line, "  file ")) << line;
    if (contains(line, "  checkpoint")) ++checkpoints;
  }
  EXPECT_GE(progress_lines, 5u) << "a run of " << e.seconds << " s: " << e.err;
  // A line every two seconds, give or take an engine step on a busy machine, and at checkpoints.
  EXPECT_GE(static_cast<double>(progress_lines), e.seconds / 4) << e.err;
  EXPECT_GE(checkpoints, 1u) << e.err;
}

TEST_F(BatchTest, ProgressEveryTakesSeconds) {
  for (const char* bad : {"-1", "soon", ""}) {
    Ending e = run_process({"0.6", "--n", "1000", "--progress-every", bad, "--out", path("run.h5")});
    EXPECT_TRUE(e.exited && e.code == 2) << bad << ": " << describe(e);
    EXPECT_TRUE(contains(e.err, "--progress-every takes seconds")) << e.err;
  }
  // Quiet, or nothing to report: no lines.
  Ending quiet = run_process({"0.6", "--n", "1000", "--progress-every", "0", "--quiet", "--out", path("run.h5")});
  EXPECT_TRUE(quiet.exited && quiet.code == 0) << describe(quiet);
  EXPECT_EQ(quiet.err, "");
}

// What long_run.sbatch submits itself with: a stand-in sbatch first on PATH writes its arguments
// to a file instead of submitting.
std::string submitted_with(const fs::path& dir, const std::string& arguments) {
  fs::create_directories(dir / "bin");
  std::ofstream(dir / "bin" / "sbatch") << "#!/bin/sh\necho \"$@\" > " << testing::quote((dir / "submitted").string())
                                       << "\n";
  fs::permissions(dir / "bin" / "sbatch", fs::perms::owner_all);
  std::string command = "env -u SLURM_JOB_ID -u SGX_CHECKPOINT_SECONDS_PER_GB PATH=";
  command.append(testing::quote((dir / "bin").string())).append(":\"$PATH\" bash ");
  command.append(testing::quote(std::string(SGX_SOURCE_DIR) + "/scripts/slurm/long_run.sbatch")).append(" ");
  command.append(arguments).append(" >/dev/null");
  EXPECT_EQ(std::system(command.c_str()), 0) << command;
  return read_file(dir / "submitted");
}

TEST_F(BatchTest, TheLongRunJobAsksForMemoryAndASignalEarlyEnoughForItsCheckpoint) {
  // 8G: --mem a tenth more. The stop's checkpoint writes at most two segments of 2^24 values at
  // two bytes each, 1/16 GB at 75 s a GB, after 120 s, whatever the run's size.
  const std::string bounded = submitted_with(dir_, "0.6 2^34 out.h5 8G");
  EXPECT_TRUE(contains(bounded, "--mem=9012M --signal=B:USR1@125 ")) << bounded;
  EXPECT_TRUE(contains(bounded, "long_run.sbatch 0.6 2^34 out.h5 8G")) << bounded;
  // Without MEMORY: no --mem; the same lead.
  const std::string whole = submitted_with(dir_, "0.6 2^30 out.h5");
  EXPECT_FALSE(contains(whole, "--mem")) << whole;
  EXPECT_TRUE(contains(whole, "--signal=B:USR1@125 ")) << whole;
  // A run shorter than two segments writes at most all of its values: 2^20 at two bytes.
  const std::string short_run = submitted_with(dir_, "0.6 2^20 out.h5");
  EXPECT_TRUE(contains(short_run, "--signal=B:USR1@121 ")) << short_run;
}

// ---- One writer per file ----

TEST_F(BatchTest, ASecondRunOnTheSameFileStopsAtOnceNamingTheFirst) {
  const std::string file = path("run.h5"), lock = file + ".lock";
  // Long enough to be running through the checks below; stopped by SIGTERM afterwards.
  Process first("run_octal", {"0.6", "--n", "2^28", "--no-shortcut", "--quiet", "--checkpoint-every", "0.5", "--out", file},
                dir_ / "first");
  ASSERT_TRUE(wait_for_lock(first, lock)) << read_file(lock);
  const std::string holder = "pid " + std::to_string(first.pid()) + " on host " + host_name() + " since ";
  for (const bool resume : {false, true}) {
    std::vector<std::string> args{"0.6", "--n", "2^20", "--quiet", "--out", file};
    if (resume) args.push_back("--resume");
    Ending second = run_process(args);
    SCOPED_TRACE(resume ? "with --resume" : "without --resume");
    EXPECT_TRUE(second.exited && second.code == 1) << describe(second);
    EXPECT_LT(second.seconds, 10) << "it should stop at once";
    EXPECT_EQ(lines_of(second.err).size(), 1u) << second.err;
    EXPECT_TRUE(contains(second.err, "run_octal: " + file + " is being written by another process (" + holder))
        << second.err;
    EXPECT_TRUE(contains(second.err, "UTC, lock " + lock + "): wait until it ends, or choose another --out"))
        << second.err;
  }
  first.send(SIGTERM);
  Ending ended = first.wait();
  EXPECT_TRUE(ended.exited && ended.code == 143) << describe(ended);
  // The first run's file is its own, whole, and the lock is gone with it.
  const RunRecord record = read_run_file(file);
  EXPECT_EQ(record.game, "0.6");
  EXPECT_FALSE(record.complete);
  EXPECT_GT(record.values.size(), 0u);
  EXPECT_FALSE(fs::exists(lock));
}

TEST_F(BatchTest, ALockLeftByAKilledRunDoesNotBlockResume) {
  const std::string file = path("run.h5"), lock = file + ".lock";
  Process killed("run_octal", {"0.6", "--n", "2^28", "--no-shortcut", "--quiet", "--checkpoint-every", "0.1", "--out", file},
                 dir_ / "killed");
  ASSERT_TRUE(wait_for_lock(killed, lock));
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!fs::exists(file) && std::chrono::steady_clock::now() < give_up)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  killed.send(SIGKILL);
  const std::string stale = "pid " + std::to_string(killed.pid()) + " ";
  killed.wait();
  ASSERT_TRUE(contains(read_file(lock), stale)) << "the killed run's lock file should still be there";
  const std::uint64_t stored = read_run_status(file).n;
  // --n below what is stored: the run ends at once with the stored values, marked finished.
  Ending resumed = run_process({"0.6", "--n", "1000", "--resume", "--quiet", "--out", file});
  EXPECT_TRUE(resumed.exited && resumed.code == 0) << describe(resumed);
  EXPECT_EQ(read_run_status(file).n, stored);
  EXPECT_TRUE(read_run_status(file).complete);
  EXPECT_FALSE(fs::exists(lock));
}

TEST_F(BatchTest, ASweepTableHeldByAnotherProcessIsNotTouched) {
  const std::string table = path("t.csv"), lock = table + ".lock";
  const int fd = ::open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::flock(fd, LOCK_EX | LOCK_NB), 0);
  const std::string holder = "pid 4242 on host elsewhere since 2026-01-02 03:04:05 UTC\n";
  ASSERT_EQ(::write(fd, holder.data(), holder.size()), static_cast<ssize_t>(holder.size()));
  testing::Result r = run("sg_sweep", {"--codes", "0.1?", "--n", "256", "--out", table});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(contains(r.err, "sg_sweep: " + table + " is being written by another process (pid 4242 on host "
                                                      "elsewhere since 2026-01-02 03:04:05 UTC, lock " + lock))
      << r.err;
  EXPECT_FALSE(fs::exists(table));
  ::close(fd);
  // Free again: the sweep runs, and removes its lock file when done.
  r = run("sg_sweep", {"--codes", "0.1?", "--n", "256", "--out", table, "--quiet"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::exists(table));
  EXPECT_FALSE(fs::exists(lock));
}

TEST_F(BatchTest, ASweepLogsEachGameAndAStopSignalEndsItWithACheckpoint) {
  // 0.6 sized for twice the time it is given before SIGINT: a game in progress when the signal comes.
  const std::uint64_t n = values_for_seconds(20, dir_);
  std::ofstream(path("games.txt")) << "0.1\n0.6\n0.2\n";
  Process process("sg_sweep", {"--codes", "games.txt", "--n", std::to_string(n), "--out", "t.csv", "--runs", "runs",
                               "--progress-every", "0.5", "--checkpoint-every", "1"},
                  dir_);
  ASSERT_TRUE(process.wait_until_it_catches(SIGINT));
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!contains(read_file(dir_ / "logs" / "stderr"), "0.6 at n ") && std::chrono::steady_clock::now() < give_up)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  process.send(SIGINT);
  Ending e = process.wait();
  EXPECT_TRUE(e.exited && e.code == 130) << describe(e);
  const std::vector<std::string> lines = lines_of(e.err);
  ASSERT_GE(lines.size(), 2u) << e.err;  // a line while 0.6 runs (0.1 ended within the first interval), the stop
  EXPECT_TRUE(contains(e.err, " 1/3 games done; 0.6 at n ")) << e.err;
  EXPECT_TRUE(contains(lines.back(), "sg_sweep: stopped by SIGINT in 0.6 at n = ")) << e.err;
  EXPECT_TRUE(contains(lines.back(), ", 1 of 3 games finished (their rows are in t.csv); runs/0.6.h5 keeps a "
                                     "checkpoint; continue with --resume"))
      << e.err;
  EXPECT_EQ(lines_of(read_file(path("t.csv"))).size(), 2u) << "the header and 0.1's row";
  EXPECT_FALSE(read_run_status(path("runs/0.6.h5")).complete);
}

TEST_F(BatchTest, ASweepLogsEveryGameWithProgressEveryZero) {
  testing::Result r = run("sg_sweep", {"--codes", "0.1?", "--n", "256", "--progress-every", "0"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<std::string> lines = lines_of(r.err);
  ASSERT_EQ(lines.size(), 8u) << r.err;
  EXPECT_TRUE(contains(lines[0], " 1/8 games: 0.10, 256 values in ")) << r.err;
  EXPECT_TRUE(contains(lines[7], " 8/8 games: 0.17, 256 values in ")) << r.err;
  EXPECT_TRUE(contains(lines[7], ", period 34, preperiod ")) << r.err;
  // By default (a line at most a minute), a short sweep leaves its log empty.
  r = run("sg_sweep", {"--codes", "0.1?", "--n", "256"});
  EXPECT_TRUE(r.err.empty()) << r.err;
}

TEST_F(BatchTest, AMistypedFileOfGamesIsNamedAsBoth) {
  testing::Result r = run("sg_sweep", {"--codes", "nofile.txt", "--n", "256"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "sg_sweep: 'nofile.txt' is no file of games (no such file or directory) and no pattern of codes ("))
      << r.err;
}

// ---- No surprises at the start ----

TEST_F(BatchTest, ARunLargerThanMemoryIsRefusedAtOnceWithTheMemoryToGive) {
  Ending e = run_process({"0.6", "--n", "2^40"});
  EXPECT_TRUE(e.exited && e.code == 2) << describe(e);
  EXPECT_LT(e.seconds, 10) << "it should stop at once";
  EXPECT_EQ(lines_of(e.err).size(), 1u) << e.err;
  EXPECT_TRUE(contains(e.err, "run_octal: 1099511627776 values need at least 1.0T of memory (one byte per value"))
      << e.err;
  EXPECT_TRUE(contains(e.err, " is available (")) << e.err;
  // The --memory to give instead is one run_octal takes: a whole number of G or M.
  const auto at = e.err.find("give --memory ");
  ASSERT_NE(at, std::string::npos) << e.err;
  const std::string limit = e.err.substr(at + 14, e.err.find(' ', at + 14) - at - 14);
  EXPECT_TRUE(limit.find_first_not_of("0123456789") == limit.size() - 1 && (limit.back() == 'G' || limit.back() == 'M'))
      << limit;
  EXPECT_FALSE(fs::exists(path("results/0.6.h5")));
  // With --memory the same n is not refused for memory (here stopped at once by a bad --print).
  Ending bounded = run_process({"0.6", "--n", "2^40", "--memory", limit, "--print=5:1"});
  EXPECT_TRUE(contains(bounded.err, "--print range 5:1 is empty")) << bounded.err;
  // Unless the limit is more than there is, and the run would reach it.
  Ending beyond = run_process({"0.6", "--n", "2^40", "--memory", "1T"});
  EXPECT_TRUE(beyond.exited && beyond.code == 2) << describe(beyond);
  EXPECT_TRUE(contains(beyond.err, "run_octal: --memory 1T is more than the ")) << beyond.err;
  EXPECT_TRUE(contains(beyond.err, "and the run would grow past it: give --memory ")) << beyond.err;
  Ending small = run_process({"0.6", "--n", "1000", "--memory", "1T", "--quiet", "--out", path("small.h5")});
  EXPECT_TRUE(small.exited && small.code == 0) << describe(small);
}

// A file of another program: one HDF5 dataset "data" of four integers.
void write_foreign_hdf5(const std::string& file) {
  const hid_t h5 = H5Fcreate(file.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  const hsize_t size = 4;
  const hid_t space = H5Screate_simple(1, &size, nullptr);
  const hid_t data = H5Dcreate2(h5, "data", H5T_NATIVE_INT, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  const int values[4] = {1, 2, 3, 4};
  H5Dwrite(data, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, values);
  H5Dclose(data);
  H5Sclose(space);
  H5Fclose(h5);
}

TEST_F(BatchTest, FilesOfOtherProgramsAreNeverOverwritten) {
  write_foreign_hdf5(path("other.h5"));
  std::ofstream(path("notes.txt")) << "my notes\n";
  std::ofstream(path("empty.h5")).flush();
  for (const std::string name : {"other.h5", "notes.txt", "empty.h5"}) {
    const std::string file = path(name), before = read_file(file);
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"0.6", "--n", "1000", "--out", file},
          std::vector<std::string>{"wythoff", "--n", "64", "--out", file}}) {
      testing::Result r = run("run_octal", args);
      SCOPED_TRACE(name + " as the output of " + args.front());
      EXPECT_EQ(r.exit_code, 2) << r.err;
      EXPECT_EQ(lines_of(r.err).size(), 1u) << r.err;
      EXPECT_TRUE(contains(r.err, "run_octal: " + file + " exists and is not a run file of sgx, so it is left as it is ("))
          << r.err;
      EXPECT_TRUE(read_file(file) == before) << "the file was changed";
    }
    testing::Result resumed = run("run_octal", {"0.6", "--n", "1000", "--resume", "--out", file});
    EXPECT_NE(resumed.exit_code, 0) << name;
    EXPECT_TRUE(read_file(file) == before) << name << ": the file was changed by --resume";
  }
  // Not even --overwrite replaces them.
  const std::string notes = read_file(path("notes.txt"));
  testing::Result overwrite = run("run_octal", {"0.6", "--n", "1000", "--overwrite", "--out", path("notes.txt")});
  EXPECT_EQ(overwrite.exit_code, 2) << overwrite.err;
  EXPECT_TRUE(contains(overwrite.err, "exists and is not a run file of sgx")) << overwrite.err;
  EXPECT_TRUE(read_file(path("notes.txt")) == notes) << "--overwrite replaced another program's file";
  // Files of sgx are replaced when asked (--overwrite): a run by a table, and the table by a run.
  ASSERT_EQ(run("run_octal", {"kayles", "--n", "100", "--quiet", "--out", path("mine.h5")}).exit_code, 0);
  testing::Result table =
      run("run_octal", {"wythoff", "--n", "64", "--quiet", "--overwrite", "--out", path("mine.h5")});
  EXPECT_EQ(table.exit_code, 0) << table.err;
  EXPECT_EQ(read_file_kind(path("mine.h5")), FileKind::Table);
  testing::Result again =
      run("run_octal", {"kayles", "--n", "100", "--quiet", "--overwrite", "--out", path("mine.h5")});
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(read_run_status(path("mine.h5")).game, "0.77");
}

}  // namespace
}  // namespace sgx
