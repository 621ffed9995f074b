// Files that hold work are never replaced unasked, through the real tools: without --resume, a run
// file (finished or not) or a table at run_octal's output, and a sweep's table or a game's run file
// at sg_sweep's, stop the tool with exit 1 and one line naming what the file holds and the ways on
// (--resume, --overwrite); the file stays byte for byte as it was. --overwrite replaces them.

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "sgx/store.hpp"
#include "tool_test.hpp"

namespace {

namespace fs = std::filesystem;

using sgx::read_run_file;
using sgx::read_run_status;
using sgx::testing::contains;
using sgx::testing::quote;
using sgx::testing::read_file;
using sgx::testing::Result;
using OutputFileTest = sgx::testing::ToolTest;

// The MD5 digest of a file, as md5sum prints it: a second, independent look at "unchanged".
std::string md5_of_file(const std::string& path) {
  const std::string command = "md5sum < " + quote(path);
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) return "popen failed";
  char digest[33] = {};
  const std::size_t got = std::fread(digest, 1, 32, pipe);
  ::pclose(pipe);
  return got == 32 ? std::string(digest) : "md5sum failed";
}

std::string md5_of_text(const std::string& text, const std::string& scratch) {
  std::ofstream(scratch, std::ios::binary) << text;
  return md5_of_file(scratch);
}

std::size_t line_count(const std::string& text) {
  std::size_t lines = 0;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) ++lines;
  return lines;
}

// The three commands of the issue: a finished run, then a slip without --resume, then another game
// on the same file. Both slips stop with exit 1 and leave the file and its values as they were.
TEST_F(OutputFileTest, AFinishedRunIsNeitherShortenedNorReplacedUnasked) {
  const std::string file = path("g.h5");
  ASSERT_EQ(run("run_octal", {"grundy", "--n", "2^16", "--out", file, "--quiet"}).exit_code, 0);
  // The values as --print gives them: a --resume that computes nothing, which changes no file.
  auto printed = [&] {
    const Result look = run("run_octal", {"grundy", "--out", file, "--resume", "--print", "--quiet"});
    EXPECT_EQ(look.exit_code, 0) << look.err;
    return look.out;
  };
  const std::string file_md5 = md5_of_file(file), values = printed();
  ASSERT_EQ(line_count(values), 65536u);
  EXPECT_EQ(values.substr(0, 20), "0\n0\n0\n1\n0\n2\n1\n0\n2\n1\n");
  const std::string values_md5 = md5_of_text(values, path("scratch"));
  EXPECT_EQ(md5_of_file(file), file_md5) << "the look changed the file";

  const Result shorter = run("run_octal", {"grundy", "--n", "2^10", "--out", file});
  EXPECT_EQ(shorter.exit_code, 1);
  EXPECT_EQ(shorter.out, "");
  EXPECT_EQ(shorter.err, "run_octal: " + file + " holds a finished run of 4!.0 (65536 values): continue or extend it "
                         "with --resume, or replace it with --overwrite\n");
  const Result other = run("run_octal", {"kayles", "--n", "1000", "--out", file});
  EXPECT_EQ(other.exit_code, 1);
  EXPECT_EQ(other.err, "run_octal: " + file + " holds a finished run of 4!.0 (65536 values), not a run of 0.77: "
                       "replace it with --overwrite, or choose another --out\n");
  EXPECT_EQ(md5_of_file(file), file_md5) << "the run file was changed";
  EXPECT_EQ(md5_of_text(printed(), path("scratch")), values_md5) << "its values were changed";
  EXPECT_EQ(read_run_status(file).n, 65536u);

  // Replaced when asked: the slip made deliberate.
  const Result replaced = run("run_octal", {"kayles", "--n", "1000", "--out", file, "--overwrite", "--quiet"});
  ASSERT_EQ(replaced.exit_code, 0) << replaced.err;
  EXPECT_EQ(read_run_status(file).game, "0.77");
  EXPECT_EQ(read_run_status(file).n, 1000u);
  EXPECT_EQ(read_run_file(file).provenance.size(), 1u) << "a new run, not a stretch of the old one";
}

TEST_F(OutputFileTest, TheDefaultFileIsGuardedToo) {
  const std::string file = path("results/0.77.h5");
  ASSERT_EQ(run("run_octal", {"kayles", "--n", "500", "--quiet"}).exit_code, 0);
  const std::string before = md5_of_file(file);
  const Result again = run("run_octal", {"kayles", "--n", "100"});
  EXPECT_EQ(again.exit_code, 1);
  EXPECT_EQ(again.err, "run_octal: results/0.77.h5 holds a finished run of 0.77 (500 values): continue or extend it "
                       "with --resume, or replace it with --overwrite\n");
  EXPECT_EQ(md5_of_file(file), before);
  ASSERT_EQ(run("run_octal", {"kayles", "--n", "100", "--overwrite", "--quiet"}).exit_code, 0);
  EXPECT_EQ(read_run_status(file).n, 100u);
  EXPECT_FALSE(fs::exists(file + ".lock")) << "the lock file is removed when the run is done";
}

TEST_F(OutputFileTest, TablesAreGuardedAndGuardRuns) {
  ASSERT_EQ(run("run_octal", {"wythoff", "--n", "64", "--quiet"}).exit_code, 0);
  const std::string table = path("results/wythoff.h5"), table_md5 = md5_of_file(table);
  const Result again = run("run_octal", {"wythoff", "--n", "32"});
  EXPECT_EQ(again.exit_code, 1);
  EXPECT_EQ(again.err, "run_octal: results/wythoff.h5 holds the table of wythoff (N = 64): replace it with "
                       "--overwrite, or choose another --out\n");
  const Result cut = run("run_octal", {"cut", "--n", "16", "--out", table});
  EXPECT_EQ(cut.exit_code, 1);
  EXPECT_EQ(cut.err, "run_octal: " + table + " holds the table of wythoff (N = 64), not the table of cut: replace it "
                     "with --overwrite, or choose another --out\n");
  const Result run_over_table = run("run_octal", {"0.137", "--n", "100", "--out", table});
  EXPECT_EQ(run_over_table.exit_code, 1);
  EXPECT_TRUE(contains(run_over_table.err, "holds the table of wythoff (N = 64), not a run of 0.137: "))
      << run_over_table.err;
  EXPECT_EQ(md5_of_file(table), table_md5) << "the table was changed";

  ASSERT_EQ(run("run_octal", {"0.137", "--n", "100", "--out", path("d.h5"), "--quiet"}).exit_code, 0);
  const std::string run_md5 = md5_of_file(path("d.h5"));
  const Result table_over_run = run("run_octal", {"cut", "--n", "16", "--out", path("d.h5")});
  EXPECT_EQ(table_over_run.exit_code, 1);
  EXPECT_EQ(table_over_run.err, "run_octal: " + path("d.h5") + " holds a finished run of 0.137 (100 values), not the "
                                "table of cut: replace it with --overwrite, or choose another --out\n");
  EXPECT_EQ(md5_of_file(path("d.h5")), run_md5);

  ASSERT_EQ(run("run_octal", {"wythoff", "--n", "32", "--overwrite", "--quiet"}).exit_code, 0);
  EXPECT_EQ(sgx::read_table_status(table).n, 32u);
}

TEST_F(OutputFileTest, ResumeAndOverwriteAreOneOrTheOther) {
  ASSERT_EQ(run("run_octal", {"kayles", "--n", "100", "--out", path("k.h5"), "--quiet"}).exit_code, 0);
  const std::string before = md5_of_file(path("k.h5"));
  for (const char* game : {"kayles", "wythoff"}) {
    const Result both = run("run_octal", {game, "--n", "200", "--out", path("k.h5"), "--resume", "--overwrite"});
    EXPECT_EQ(both.exit_code, 2) << game;
    EXPECT_EQ(line_count(both.err), 1u) << both.err;
    EXPECT_TRUE(contains(both.err, "run_octal: --resume")) << both.err;
  }
  EXPECT_EQ(md5_of_file(path("k.h5")), before);
}

// sg_sweep: its table and its games' run files.
TEST_F(OutputFileTest, ASweepsTableAndRunFilesAreGuarded) {
  const std::vector<std::string> sweep = {"--codes", "0.1[2-3]", "--n", "3000", "--threads", "1", "--quiet",
                                          "--out", "t.csv", "--runs", "runs"};
  ASSERT_EQ(run("sg_sweep", sweep).exit_code, 0);
  const std::string table_md5 = md5_of_file(path("t.csv")), run_md5 = md5_of_file(path("runs/0.12.h5"));
  auto with = [&sweep](std::vector<std::string> more) {
    std::vector<std::string> args = sweep;
    args.insert(args.end(), more.begin(), more.end());
    return args;
  };
  // The run files are looked at first: nothing is written before every file is known to be free.
  const Result again = run("sg_sweep", sweep);
  EXPECT_EQ(again.exit_code, 1);
  EXPECT_EQ(again.err, "sg_sweep: runs/0.12.h5 holds a finished run of 0.12 (3000 values): continue or extend it "
                       "with --resume, or replace it with --overwrite\n");
  fs::rename(path("runs"), path("kept-runs"));
  const Result table = run("sg_sweep", sweep);
  EXPECT_EQ(table.exit_code, 1);
  EXPECT_EQ(table.err, "sg_sweep: t.csv holds the table of a sweep with 2 rows, 0.12 to 0.13: continue that sweep "
                       "with --resume, or replace it with --overwrite\n");
  EXPECT_FALSE(fs::exists(path("runs/0.12.h5"))) << "a game was computed before the table was refused";
  fs::remove_all(path("runs"));
  fs::rename(path("kept-runs"), path("runs"));
  EXPECT_EQ(md5_of_file(path("t.csv")), table_md5);
  EXPECT_EQ(md5_of_file(path("runs/0.12.h5")), run_md5);

  for (const std::vector<std::string>& args :
       {with({"--resume", "--overwrite"}),
        std::vector<std::string>{"--codes", "0.12", "--n", "100", "--overwrite"}}) {
    const Result usage = run("sg_sweep", args);
    EXPECT_EQ(usage.exit_code, 2) << usage.err;
    EXPECT_EQ(line_count(usage.err), 1u) << usage.err;
  }

  // --overwrite replaces both: the table holds the new rows, each run file a new run.
  std::vector<std::string> smaller = with({"--overwrite"});
  smaller[3] = "1000";
  ASSERT_EQ(run("sg_sweep", smaller).exit_code, 0);
  const std::string replaced = read_file(path("t.csv"));
  EXPECT_EQ(line_count(replaced), 3u) << replaced;
  EXPECT_TRUE(contains(replaced, "\n0.12,1000,")) << replaced;
  const sgx::RunRecord run_file = read_run_file(path("runs/0.12.h5"));
  EXPECT_EQ(run_file.values.size(), 1000u);
  ASSERT_EQ(run_file.provenance.size(), 1u);
  EXPECT_TRUE(contains(run_file.provenance[0].command, "--overwrite")) << run_file.provenance[0].command;
}

// --resume continues the games' run files, with or without a table to continue.
TEST_F(OutputFileTest, ASweepResumesItsRunFilesWithoutATable) {
  const std::vector<std::string> sweep = {"--codes", "0.12", "--n", "2000", "--threads", "1", "--runs", "runs"};
  ASSERT_EQ(run("sg_sweep", sweep).exit_code, 0);
  std::vector<std::string> longer = sweep;
  longer[3] = "5000";
  longer.push_back("--resume");
  const Result resumed = run("sg_sweep", longer);
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  EXPECT_TRUE(contains(resumed.err, "sg_sweep: 0.12 continued from runs/0.12.h5 at n = 2000")) << resumed.err;
  const sgx::RunRecord record = read_run_file(path("runs/0.12.h5"));
  EXPECT_EQ(record.values.size(), 5000u);
  ASSERT_EQ(record.provenance.size(), 2u);
  EXPECT_EQ(record.provenance[1].first_n, 2000u);
  EXPECT_EQ(record.provenance[1].values_computed, 3000u);
  // A sitting that computes nothing of a finished game leaves its file as it is, with no row.
  const std::string before = md5_of_file(path("runs/0.12.h5"));
  const Result again = run("sg_sweep", longer);
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(md5_of_file(path("runs/0.12.h5")), before);
  EXPECT_EQ(read_run_file(path("runs/0.12.h5")).provenance.size(), 2u);
}

// A file of another program is never replaced, not even with --overwrite.
TEST_F(OutputFileTest, ASweepNeverReplacesFilesOfOtherPrograms) {
  fs::create_directories(path("runs"));
  std::ofstream(path("runs/0.12.h5")) << "notes\n";
  std::ofstream(path("t.csv")) << "precious\n";
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"--codes", "0.12", "--n", "100", "--runs", "runs", "--overwrite"},
        std::vector<std::string>{"--codes", "0.12", "--n", "100", "--out", "t.csv", "--overwrite"}}) {
    const Result r = run("sg_sweep", args);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(line_count(r.err), 1u) << r.err;
    EXPECT_TRUE(contains(r.err, "is not a") && contains(r.err, "left as it is")) << r.err;
  }
  EXPECT_EQ(read_file(path("runs/0.12.h5")), "notes\n");
  EXPECT_EQ(read_file(path("t.csv")), "precious\n");
}

}  // namespace
