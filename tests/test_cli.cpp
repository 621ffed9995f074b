// The command-line tools, run for real from the build tree, on real files.

#include <gtest/gtest.h>

#include <pty.h>
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "sgx/engine.hpp"
#include "sgx/rules.hpp"
#include "sgx/stats.hpp"
#include "sgx/store.hpp"
#include "tool_test.hpp"
#include "base/tuning.hpp"
#include "kernels/vector_path.hpp"

namespace {

namespace fs = std::filesystem;

using nlohmann::json;
using sgx::testing::contains;
using sgx::testing::json_lines;
using sgx::testing::json_object;
using sgx::testing::quote;
using sgx::testing::read_file;
using sgx::testing::Result;
using CliTest = sgx::testing::ToolTest;

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// More threads than processors only wait for each other (bench/HISTORY.md, "Work and span"): the
// tools run as many as the process may use, and say so. The child processes inherit an affinity of
// one processor.
TEST_F(CliTest, ThreadsBeyondTheProcessorsAreLoweredWithANote) {
  cpu_set_t all;
  ASSERT_EQ(sched_getaffinity(0, sizeof all, &all), 0);
  int first = 0;
  while (!CPU_ISSET(first, &all)) ++first;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(first, &one);
  ASSERT_EQ(sched_setaffinity(0, sizeof one, &one), 0);
  Result r = run("run_octal", {"0.6", "--n", "2^12", "--threads", "4", "--json", "--out", path("t.h5")});
  Result quiet = run("run_octal", {"0.6", "--n", "2^12", "--threads", "4", "--quiet", "--out", path("q.h5")});
  Result sweep = run("sg_sweep", {"--codes", "0.6", "--n", "100", "--threads", "3", "--json"});
  // A profile is of the decomposition the threads asked for would use: they run, with a note.
  Result profiled =
      run("run_octal", {"0.6", "--n", "2^12", "--threads", "4", "--profile", "--json", "--out", path("p.h5")});
  Result too_many =
      run("run_octal", {"0.6", "--n", "2^12", "--threads", "129", "--profile", "--json", "--out", path("m.h5")});
  // Four threads on one processor take turns: the time a task's thread waited for its turn is
  // left out of the profile, and reported.
  Result taking_turns = run("run_octal", {"grundy", "--n", "2^16", "--threads", "4", "--profile", "--json", "--out",
                                          path("turns.h5")});
  // Without --threads, OpenMP's default (here OMP_NUM_THREADS) is lowered too, without a note.
  ASSERT_EQ(setenv("OMP_NUM_THREADS", "4", 1), 0);
  Result by_default = run("run_octal", {"0.6", "--n", "2^12", "--json", "--out", path("d.h5")});
  unsetenv("OMP_NUM_THREADS");
  ASSERT_EQ(sched_setaffinity(0, sizeof all, &all), 0);
  ASSERT_EQ(taking_turns.exit_code, 0) << taking_turns.err;
  const nlohmann::json turns = json_object(taking_turns.out)["profile"];
  EXPECT_GT(turns["stopped_tasks"].get<std::uint64_t>(), 0u) << taking_turns.out;
  EXPECT_GT(turns["stopped_seconds"].get<double>(), 0) << taking_turns.out;
  EXPECT_LT(turns["stopped_seconds"].get<double>(), 4 * turns["wall_seconds"].get<double>()) << taking_turns.out;
  ASSERT_EQ(by_default.exit_code, 0) << by_default.err;
  EXPECT_EQ(json_object(by_default.out)["threads"], 1) << by_default.out;
  EXPECT_FALSE(contains(by_default.err, "--threads")) << by_default.err;
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json_object(r.out)["threads"], 1) << r.out;
  EXPECT_TRUE(contains(r.err, "run_octal: --threads 4, but this process may run on 1 processor: running 1 thread"))
      << r.err;
  EXPECT_EQ(quiet.exit_code, 0) << quiet.err;
  EXPECT_EQ(quiet.err, "");
  EXPECT_EQ(sweep.exit_code, 0) << sweep.err;
  EXPECT_TRUE(contains(sweep.err, "sg_sweep: --threads 3, but this process may run on 1 processor")) << sweep.err;
  ASSERT_EQ(profiled.exit_code, 0) << profiled.err;
  EXPECT_EQ(json_object(profiled.out)["profile"]["threads"], 4) << profiled.out;
  EXPECT_TRUE(contains(profiled.err, "run_octal: --threads 4 with --profile on 1 processor: running 4 threads"))
      << profiled.err;
  EXPECT_EQ(too_many.exit_code, 2) << too_many.err;
  EXPECT_TRUE(contains(too_many.err, "--threads 129 with --profile: more than the processors (1) only up to 128"))
      << too_many.err;
  EXPECT_FALSE(fs::exists(path("m.h5")));
}

TEST_F(CliTest, ProfileReportsWorkSpanAndPredictedSpeedups) {
  Result r = run("run_octal", {"grundy", "--n", "2^15", "--profile", "--json", "--threads", "2", "--out", path("g.h5")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json profile = json_object(r.out)["profile"];
  for (const char* key : {"work_seconds", "span_seconds", "one_thread_seconds", "wall_seconds"})
    EXPECT_GT(profile[key].get<double>(), 0) << key << " in " << r.out;
  EXPECT_LE(profile["span_seconds"].get<double>(), profile["work_seconds"].get<double>()) << r.out;
  EXPECT_EQ(profile["threads"], 2) << r.out;
  EXPECT_GT(profile["regions"].get<std::uint64_t>(), 0u) << r.out;
  EXPECT_GE(profile["region_idle_seconds"].get<double>(), 0) << r.out;
  EXPECT_GE(profile["stopped_seconds"].get<double>(), 0) << r.out;
  EXPECT_LT(profile["stopped_seconds"].get<double>(), 2 * profile["wall_seconds"].get<double>()) << r.out;
  EXPECT_TRUE(profile.contains("stopped_tasks")) << r.out;
  EXPECT_GE(profile["interrupted_seconds"].get<double>(), 0) << r.out;
  EXPECT_LT(profile["interrupted_seconds"].get<double>(), profile["wall_seconds"].get<double>()) << r.out;
  EXPECT_TRUE(profile.contains("interruptions")) << r.out;
  double before = 1;
  for (const char* p : {"2", "4", "8", "16", "32", "64", "128"}) {
    const double speedup = profile["predicted_speedup"][p].get<double>();
    EXPECT_GE(speedup, before) << p << " in " << r.out;
    before = speedup;
  }
  Result text = run("run_octal",
                    {"grundy", "--n", "2^15", "--profile", "--threads", "2", "--out", path("g.h5"), "--overwrite"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_TRUE(contains(text.out, "\nprofile     work ")) << text.out;
  EXPECT_TRUE(contains(text.out, "\nspeedup     on p threads at least (work / ((work - span) / p + span)): 2: ")) << text.out;
  EXPECT_TRUE(contains(text.out, " thread time idle in them (")) << text.out;
  // The sparse kernel decides in blocks below tuning::kPipelineLeastThreads threads, in the pipeline
  // from there on (past Grundy's game's first 45120 heaps); the profile counts the heaps each way.
  for (const int threads : {sgx::tuning::kPipelineLeastThreads - 1, sgx::tuning::kPipelineLeastThreads}) {
    Result ways = run("run_octal", {"grundy", "--n", "2^17", "--profile", "--json", "--threads",
                                    std::to_string(threads), "--out", path("w.h5"), "--overwrite"});
    ASSERT_EQ(ways.exit_code, 0) << ways.err;
    const nlohmann::json heaps = json_object(ways.out)["profile"]["sparse_heaps"];
    const bool piped = threads >= sgx::tuning::kPipelineLeastThreads;
    EXPECT_EQ(heaps["alone"], 0) << ways.out;
    EXPECT_EQ(heaps["pipeline"].get<std::uint64_t>() > 65536u, piped) << ways.out;
    EXPECT_EQ(heaps["blocks"].get<std::uint64_t>() > 65536u, !piped) << ways.out;
    EXPECT_GT(heaps["blocks"].get<std::uint64_t>() + heaps["pipeline"].get<std::uint64_t>(), 120000u) << ways.out;
  }
  EXPECT_TRUE(contains(text.out, "\nsparse      heaps decided in blocks ")) << text.out;
  Result plain = run("run_octal", {"grundy", "--n", "2^15", "--json", "--out", path("g.h5"), "--overwrite"});
  EXPECT_FALSE(json_object(plain.out).contains("profile")) << "only asked for";
  // The naive kernel runs on one thread: its span is all of its work, written as a percentage.
  Result naive = run("run_octal", {"grundy", "--n", "2^12", "--engine", "naive", "--profile", "--threads", "1", "--out",
                                   path("n.h5")});
  ASSERT_EQ(naive.exit_code, 0) << naive.err;
  EXPECT_TRUE(contains(naive.out, " (100% of the work; ")) << naive.out;
  EXPECT_TRUE(contains(naive.out, " s on 1 thread\n")) << naive.out;
  EXPECT_TRUE(contains(naive.out, " values/s, 1 thread, engine naive")) << naive.out;
  EXPECT_TRUE(contains(text.out, " values/s, 2 threads, engine ")) << text.out;
}

TEST_F(CliTest, DawsonsChessToTenMillionProvesThePeriod) {
  Result r = run("run_octal", {"0.137", "--n", "1e7", "--json", "--out", path("d.h5")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json summary = json_object(r.out);
  EXPECT_EQ(summary["game"], "0.137");
  EXPECT_EQ(summary["n"], 10000000);
  EXPECT_EQ(summary["period"], json::parse(R"({"found": true, "preperiod": 52, "period": 34, "saltus": 0,
      "proven": true, "theorem": "guy-smith", "proof_needs_n": 175, "exceptions": [0, 14, 16, 17, 31, 34, 51]})"));
  EXPECT_EQ(summary["max_value"], 9);
  EXPECT_EQ(summary["max_at"], 85);
  EXPECT_TRUE(r.err.empty()) << r.err;
  EXPECT_TRUE(fs::exists(path("d.h5")));

  Result p = run("sg_period", {path("d.h5"), "--json"});
  ASSERT_EQ(p.exit_code, 0) << p.err;
  const json stored = json_object(p.out);
  EXPECT_EQ(stored["complete"], true);
  EXPECT_EQ(stored["target_n"], 10000000);
  EXPECT_EQ(stored["period"], summary["period"]);
  // sg_period reads the file a block at a time (2^18 values), run_octal had every value in memory.
  EXPECT_EQ(stored["stats"], summary["stats"]);
  EXPECT_EQ(stored["max_at"], summary["max_at"]);
  Result text = run("sg_period", {path("d.h5")});
  EXPECT_TRUE(contains(text.out, "period 34, preperiod 52, proven (guy-smith)")) << text.out;
}

TEST_F(CliTest, PrintWritesTheValuesOnePerLine) {
  Result r = run("run_octal", {"grundy", "--n", "21", "--print", "--quiet", "--out", path("g.h5")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "0\n0\n0\n1\n0\n2\n1\n0\n2\n1\n0\n2\n1\n3\n2\n1\n3\n2\n4\n3\n0\n");
  Result range = run("run_octal", {"kayles", "--n", "100", "--print=3:6", "--quiet", "--out", path("k.h5")});
  ASSERT_EQ(range.exit_code, 0) << range.err;
  EXPECT_EQ(range.out, "3\n1\n4\n");
  Result summary = run("run_octal", {"kayles", "--n", "100", "--print=0:2", "--out", path("k.h5"), "--overwrite"});
  EXPECT_TRUE(contains(summary.out, "0\n1\ngame        0.77\n")) << summary.out;
}

// The body of a b-file (its lines after the '#' header), and the header.
std::pair<std::vector<std::string>, std::string> bfile_parts(const std::string& text) {
  std::vector<std::string> body;
  std::string header;
  for (const std::string& line : lines(text)) {
    if (line.rfind('#', 0) == 0) {
      EXPECT_TRUE(body.empty()) << "a comment after the values: " << line;
      header += line + "\n";
    } else {
      body.push_back(line);
    }
  }
  return {body, header};
}

TEST_F(CliTest, BfileListsTheValuesAfterAHeader) {
  Result r = run("run_octal", {"0.137", "--n", "1000", "--bfile", "b.txt", "--out", path("d.h5")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "b-file      b.txt\n")) << r.out;
  const auto [body, header] = bfile_parts(read_file(path("b.txt")));
  EXPECT_TRUE(contains(header, "heap game 0.137")) << header;
  EXPECT_TRUE(contains(header, "offset 0")) << header;
  EXPECT_TRUE(contains(header, "sgx run_octal ")) << header;
  Result printed = run("run_octal", {"0.137", "--n", "1000", "--print", "--quiet", "--out", path("p.h5")});
  const auto values = lines(printed.out);
  ASSERT_EQ(values.size(), 1000u);
  ASSERT_EQ(body.size(), 1000u) << "one line per value, G(0..999)";
  for (std::size_t n = 0; n < body.size(); ++n) EXPECT_EQ(body[n], std::to_string(n) + " " + values[n]);
  EXPECT_EQ(body[85], "85 9") << "the largest value, first at 85";

  // From the stored run: the same values, the program named.
  Result stored = run("sg_period", {path("d.h5"), "--bfile", "c.txt"});
  ASSERT_EQ(stored.exit_code, 0) << stored.err;
  const auto [stored_body, stored_header] = bfile_parts(read_file(path("c.txt")));
  EXPECT_EQ(stored_body, body);
  EXPECT_TRUE(contains(stored_header, "sgx sg_period ")) << stored_header;
  for (const auto& entry : fs::directory_iterator(dir_))
    EXPECT_FALSE(contains(entry.path().filename().string(), ".tmp")) << "a temporary file was left: " << entry.path();
}

TEST_F(CliTest, BfileRefusesWhatItCannotWrite) {
  std::ofstream(path("old.txt")) << "kept\n";
  const std::vector<std::pair<std::string, std::vector<std::string>>> usage = {
      {"run_octal", {"wythoff", "--n", "16", "--bfile", "b.txt"}},
      {"sg_period", {"a.h5", "b.h5", "--bfile", "b.txt"}},
  };
  for (const auto& [tool, args] : usage) {
    Result r = run(tool, args);
    EXPECT_EQ(r.exit_code, 2) << tool << " " << args.back() << r.err;
    EXPECT_EQ(lines(r.err).size(), 1u) << r.err;
    EXPECT_TRUE(contains(r.err, "--bfile")) << r.err;
  }
  Result missing = run("run_octal", {"0.137", "--n", "100", "--bfile", path("no/b.txt"), "--out", path("d.h5")});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_EQ(lines(missing.err).size(), 1u) << missing.err;
  EXPECT_TRUE(contains(missing.err, path("no/b.txt"))) << missing.err;
  EXPECT_FALSE(fs::exists(path("d.h5"))) << "refused before the work";
  ASSERT_EQ(run("run_octal", {"wythoff", "--n", "16", "--out", path("w.h5")}).exit_code, 0);
  Result table = run("sg_period", {path("w.h5"), "--bfile", path("old.txt")});
  EXPECT_EQ(table.exit_code, 2) << table.err;
  EXPECT_EQ(read_file(path("old.txt")), "kept\n");
}

// One argument too many is named, and says what the tool takes.
TEST_F(CliTest, AnExtraArgumentIsNamed) {
  const std::vector<std::tuple<std::string, std::vector<std::string>, std::string>> cases = {
      {"run_octal", {"0.137", "0.77", "--n", "10"}, "unexpected argument '0.77': run_octal takes 1 argument"},
      {"sg_sweep", {"0.137", "--n", "10"}, "unexpected argument '0.137': sg_sweep takes options only"},
  };
  for (const auto& [tool, args, expected] : cases) {
    Result r = run(tool, args);
    EXPECT_EQ(r.exit_code, 2) << tool << r.err;
    EXPECT_EQ(lines(r.err).size(), 1u) << r.err;
    EXPECT_TRUE(contains(r.err, expected)) << r.err;
  }
  EXPECT_EQ(run("sg_sweep", {"--help"}).exit_code, 0);
}

TEST_F(CliTest, CountsAcceptEveryNotation) {
  for (const char* n : {"1000", "1e3", "10^3", "1_000"}) {
    Result r = run("run_octal", {"0.6", "--n", n, "--json", "--out", path("x.h5"), "--overwrite"});
    ASSERT_EQ(r.exit_code, 0) << n << r.err;
    EXPECT_EQ(json_object(r.out)["n"], 1000) << n << r.out;
  }
  Result pow2 = run("run_octal", {"0.6", "--n", "2^12", "--json", "--out", path("x.h5"), "--overwrite"});
  EXPECT_EQ(json_object(pow2.out)["n"], 4096) << pow2.out;
}

TEST_F(CliTest, BadInputGetsOneLineAndExitTwo) {
  const std::vector<std::vector<std::string>> cases = {
      {"0.1x", "--n", "100"}, {"", "--n", "100"},     {"0.", "--n", "100"},    {"1.5", "--n", "100"},
      {"2.3", "--n", "100"},  {"0.G", "--n", "100"},  {"0.[", "--n", "100"},   {"0.77", "--n", "-5"},
      {"0.77", "--n", "1e400"}, {"0.77", "--n", "2.5"}, {"0.77", "--n", "0"},  {"0.77", "--bogus"},
      {"0.77", "--engine", "fast"}, {},                {"0.77", "--n", "10", "--print=5:2"},
      {"0.77", "--resume"},  {"0.77", "--n", "10", "--print=0:11"}, {"0.77", "--threads", "-1"},
      {"fibonacci", "--n", "100"}, {"bash:0", "--n", "100"},
  };
  for (const auto& args : cases) {
    Result r = run("run_octal", args);
    std::string shown;
    for (const auto& a : args) shown.append("[").append(a).append("] ");
    EXPECT_EQ(r.exit_code, 2) << shown << r.err;
    EXPECT_EQ(lines(r.err).size(), 1u) << shown << r.err;
    EXPECT_EQ(r.err.rfind("run_octal: ", 0), 0u) << shown << r.err;
    EXPECT_TRUE(r.out.empty()) << shown << r.out;
  }
  EXPECT_FALSE(fs::exists(dir_ / "results")) << "nothing is written for bad input";
}

TEST_F(CliTest, ErrorsNameThePlaceAndTheReason) {
  Result r = run("run_octal", {"0.1x"});
  EXPECT_TRUE(contains(r.err, "at character 4")) << r.err;
  EXPECT_TRUE(contains(r.err, "'x' is not a hexadecimal digit")) << r.err;
  Result d0 = run("run_octal", {"2.3"});
  EXPECT_TRUE(contains(d0.err, "d0 must be 0, 4, 8 or C")) << d0.err;
  Result neg = run("run_octal", {"0.77", "--n", "-5"});
  EXPECT_TRUE(contains(neg.err, "negative")) << neg.err;
  Result fibonacci = run("run_octal", {"fibonacci"});
  EXPECT_TRUE(contains(fibonacci.err, "fibonacci has no nim-sequence or table to compute")) << fibonacci.err;
}

// Every heap game of the catalogue runs, bash:M among them, stored under its code.
TEST_F(CliTest, BashRunsAsItsCode) {
  Result r = run("run_octal", {"bash:3", "--n", "100", "--print", "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto values = lines(r.out);
  ASSERT_EQ(values.size(), 100u) << r.out;
  for (std::size_t n = 0; n < values.size(); ++n) EXPECT_EQ(values[n], std::to_string(n % 4)) << n;
  EXPECT_TRUE(fs::exists(dir_ / "results" / "0.333.h5"));
}

TEST_F(CliTest, WithoutOutItWritesResultsGameH5) {
  Result r = run("run_octal", {"kayles", "--n", "500", "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.out.empty());
  EXPECT_TRUE(fs::exists(dir_ / "results" / "0.77.h5"));
  Result p = run("sg_period", {"results/0.77.h5"});
  EXPECT_TRUE(contains(p.out, "period 12, preperiod 71, proven (guy-smith)")) << p.out;
}

TEST_F(CliTest, UnwritableOutputIsARuntimeError) {
  Result r = run("run_octal", {"kayles", "--n", "100", "--out", path("no/such/dir/k.h5")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(contains(r.err, "no/such/dir/k.h5")) << r.err;
  EXPECT_EQ(lines(r.err).size(), 1u) << r.err;
}

TEST_F(CliTest, ResumeContinuesTheStoredRun) {
  ASSERT_EQ(run("run_octal", {"grundy", "--n", "3000", "--quiet", "--out", path("g.h5")}).exit_code, 0);
  Result resumed = run("run_octal", {"grundy", "--n", "9000", "--resume", "--print", "--quiet", "--out", path("g.h5")});
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  Result direct = run("run_octal", {"grundy", "--n", "9000", "--print", "--quiet", "--out", path("direct.h5")});
  EXPECT_EQ(resumed.out, direct.out);
  EXPECT_EQ(lines(resumed.out).size(), 9000u);
}

TEST_F(CliTest, ResumeRefusesAnotherGamesFileAndKeepsIt) {
  ASSERT_EQ(run("run_octal", {"grundy", "--n", "500", "--quiet", "--out", path("g.h5")}).exit_code, 0);
  const std::string before = read_file(path("g.h5"));
  Result r = run("run_octal", {"kayles", "--n", "900", "--resume", "--out", path("g.h5")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "4!.0")) << r.err;
  EXPECT_EQ(read_file(path("g.h5")), before);
}

TEST_F(CliTest, HelpAndVersion) {
  for (const char* tool : {"run_octal", "sg_period"}) {
    Result help = run(tool, {"--help"});
    EXPECT_EQ(help.exit_code, 0);
    EXPECT_TRUE(contains(help.out, "Usage: ")) << help.out;
    EXPECT_TRUE(contains(help.out, "Examples:")) << help.out;
    Result version = run(tool, {"--version"});
    EXPECT_EQ(version.exit_code, 0);
    EXPECT_TRUE(contains(version.out, "(sgx)")) << version.out;
  }
}

TEST_F(CliTest, SgPeriodRefusesWhatIsNotARun) {
  Result missing = run("sg_period", {path("nothing.h5")});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_TRUE(contains(missing.err, "nothing.h5")) << missing.err;
  std::ofstream(path("text.h5")) << "not an HDF5 file\n";
  Result text = run("sg_period", {path("text.h5")});
  EXPECT_EQ(text.exit_code, 1);
  EXPECT_EQ(lines(text.err).size(), 1u) << text.err;
  Result none = run("sg_period", {});
  EXPECT_EQ(none.exit_code, 2);
}

TEST_F(CliTest, GrundysGameIsNeverProven) {
  Result r = run("run_octal", {"grundy", "--n", "2^14", "--json", "--out", path("g.h5")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json summary = json_object(r.out);
  EXPECT_EQ(summary["period"]["proven"], false);
  EXPECT_EQ(summary["period"]["theorem"], nullptr);
  EXPECT_EQ(summary["engine"], "sparse");
}

TEST_F(CliTest, EngineNamesEveryKernelInOrderAcrossAResume) {
  // Treblecross: the auto kernel sweeps from about 20000, and without AVX-512 returns to the
  // sparse method past 2^17 (EngineAuto.ReturnsToSparseWhenRareValuesThinOut). A run resumed at
  // 30000 sweeps again at once: the sweep is named once, and the sparse kernel it replaced
  // before computing nothing not at all.
  const bool looks_up = sgx::best_vector_path() == sgx::VectorPath::Avx512;
  const char* const kernels = looks_up ? "sparse+sweep" : "sparse+sweep+sparse";
  Result whole = run("run_octal", {"treblecross", "--n", "140000", "--json", "--quiet", "--out", path("t.h5")});
  ASSERT_EQ(whole.exit_code, 0) << whole.err;
  EXPECT_EQ(json_object(whole.out)["engine"], kernels) << whole.out;
  Result first = run("run_octal", {"treblecross", "--n", "30000", "--json", "--quiet", "--out", path("r.h5")});
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_EQ(json_object(first.out)["engine"], "sparse+sweep") << first.out;
  Result resumed =
      run("run_octal", {"treblecross", "--n", "140000", "--resume", "--json", "--quiet", "--out", path("r.h5")});
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  EXPECT_EQ(json_object(resumed.out)["engine"], kernels) << resumed.out;
}

TEST_F(CliTest, EveryEngineGivesTheSameValues) {
  std::string reference;
  for (const char* engine : {"naive", "sparse", "sweep", "auto"}) {
    Result r = run("run_octal", {"0.16", "--n", "3000", "--engine", engine, "--no-shortcut", "--print", "--quiet",
                                 "--out", path("s.h5"), "--overwrite"});
    ASSERT_EQ(r.exit_code, 0) << engine << r.err;
    if (reference.empty()) reference = r.out;
    EXPECT_EQ(r.out, reference) << engine;
  }
}

TEST_F(CliTest, SgPeriodTableLinesUpTheColumnsOfPublishedTables) {
  ASSERT_EQ(run("run_octal", {"kayles", "--n", "1000", "--quiet", "--out", path("k.h5")}).exit_code, 0);
  ASSERT_EQ(run("run_octal", {"0.137", "--n", "150", "--quiet", "--out", path("d.h5")}).exit_code, 0);
  ASSERT_EQ(run("run_octal", {"grundy", "--n", "5000", "--quiet", "--out", path("g.h5")}).exit_code, 0);
  Result r = run("sg_period", {path("k.h5"), path("d.h5"), path("g.h5"), "--table"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto rows = lines(r.out);
  ASSERT_EQ(rows.size(), 4u) << r.out;
  EXPECT_EQ(rows[0].rfind("game", 0), 0u);
  EXPECT_TRUE(contains(rows[0], "period  preperiod  saltus  proven")) << rows[0];
  EXPECT_TRUE(contains(rows[1], "12         71       0  yes (guy-smith)")) << rows[1];
  EXPECT_TRUE(contains(rows[2], "34         52       0  no (needs 175)")) << rows[2];
  EXPECT_TRUE(contains(rows[3], "4!.0")) << rows[3];
  EXPECT_TRUE(contains(rows[3], "no ")) << rows[3];
  // Columns line up: every row is as long as the header up to the last column.
  EXPECT_EQ(rows[1].find("yes"), rows[0].find("proven"));
  Result both = run("sg_period", {path("k.h5"), path("d.h5"), "--json"});
  const auto objects = json_lines(both.out);
  ASSERT_EQ(objects.size(), 2u) << both.out;
  EXPECT_EQ(objects[0]["period"]["theorem"], "guy-smith");
  EXPECT_EQ(objects[1]["period"]["found"], true);
  EXPECT_EQ(objects[1]["period"]["proven"], false);
  EXPECT_EQ(objects[1]["period"]["theorem"], nullptr) << "no theorem for a period not proven";
  EXPECT_EQ(objects[1]["period"]["proof_needs_n"], 175);
}

TEST_F(CliTest, LongPreperiodIsProvenWithoutN) {
  // 0.56: period 144 after a preperiod of over 326000 values (Gangolli & Plambeck 1989). Without
  // --n, run_octal computes until the Guy-Smith bound is reached and proves it.
  Result r = run("run_octal", {"0.56", "--json", "--out", path("56.h5")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json period = json_object(r.out)["period"];
  EXPECT_EQ(period["preperiod"], 326640);
  EXPECT_EQ(period["period"], 144);
  EXPECT_EQ(period["saltus"], 0);
  EXPECT_EQ(period["proven"], true);
  EXPECT_EQ(period["theorem"], "guy-smith");
  EXPECT_EQ(period["proof_needs_n"], 653570);
  Result p = run("sg_period", {path("56.h5"), "--json"});
  ASSERT_EQ(p.exit_code, 0) << p.err;
  EXPECT_EQ(json_object(p.out)["period"], period);
}

TEST_F(CliTest, WithoutNTheMaxNCapsTheSearch) {
  // 0.004 shows no period at 2^16: without --n it goes on to the cap, here below the first size.
  Result capped = run("run_octal", {"0.004", "--max-n", "2^16", "--json", "--out", path("4.h5")});
  ASSERT_EQ(capped.exit_code, 0) << capped.err;
  const json summary = json_object(capped.out);
  EXPECT_EQ(summary["n"], 65536);
  EXPECT_EQ(summary["period"]["proven"], false);
  // Grundy's game: no theorem could prove a period, so more values are not computed for one.
  Result grundy = run("run_octal", {"grundy", "--max-n", "2^21", "--json", "--out", path("g.h5")});
  ASSERT_EQ(grundy.exit_code, 0) << grundy.err;
  EXPECT_EQ(json_object(grundy.out)["n"], 1 << 20);
}

// Runs a tool with stdout and stderr on a pseudo-terminal, as a person at a terminal sees it.
std::string run_on_terminal(const std::string& tool, const std::vector<std::string>& args) {
  std::vector<std::string> argv_strings = {std::string(SGX_BIN_DIR) + "/" + tool};
  argv_strings.insert(argv_strings.end(), args.begin(), args.end());
  int master = -1;
  const pid_t pid = forkpty(&master, nullptr, nullptr, nullptr);
  if (pid == 0) {
    std::vector<char*> argv;
    for (auto& a : argv_strings) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(127);
  }
  std::string screen;
  char buffer[4096];
  for (ssize_t got; (got = read(master, buffer, sizeof buffer)) > 0;) screen.append(buffer, static_cast<std::size_t>(got));
  close(master);
  int status = 0;
  waitpid(pid, &status, 0);
  return screen;
}

TEST_F(CliTest, StatusLineShowsOnATerminalOnly) {
  // Long enough for the status line, first shown after a quarter of a second and refreshed as
  // often, to show several times: the naive engine, which no one makes faster, takes about 1.4 s
  // here (the sparse kernel, ever faster, once ended before the first showing).
  const std::vector<std::string> args = {"grundy", "--n", "2^17", "--engine", "naive", "--out", path("g.h5"),
                                         "--overwrite"};
  const std::string screen = run_on_terminal("run_octal", args);
  EXPECT_TRUE(contains(screen, "\r\033[K n ")) << screen;
  EXPECT_TRUE(contains(screen, "values/s  elapsed ")) << screen;
  EXPECT_TRUE(contains(screen, "  largest 2")) << "Grundy's values reach 230 at 45668: " << screen;
  EXPECT_TRUE(contains(screen, "\033[Kgame        4!.0")) << "the line is erased before the summary: " << screen;

  std::vector<std::string> quiet = args;
  quiet.push_back("--quiet");
  EXPECT_FALSE(contains(run_on_terminal("run_octal", quiet), "\033[K")) << "--quiet silences it";

  // stdout and stderr to files; no log lines (a slow build may pass a minute: a progress line)
  std::vector<std::string> to_files = args;
  to_files.insert(to_files.end(), {"--progress-every", "0"});
  Result redirected = run("run_octal", to_files);
  ASSERT_EQ(redirected.exit_code, 0) << redirected.err;
  EXPECT_FALSE(contains(redirected.err, "\r")) << redirected.err;
  EXPECT_FALSE(contains(redirected.out, "\r")) << redirected.out;
  EXPECT_TRUE(redirected.err.empty()) << redirected.err;
}

// The plot script runs with Debian's /usr/bin/python3 and its python3-h5py and python3-matplotlib,
// which only `bash scripts/setup.sh plots` installs: without them this test is skipped.
TEST_F(CliTest, PlotScriptDrawsGrundysGameAndDawsonsChess) {
  if (std::system("/usr/bin/python3 -c 'import h5py, matplotlib' >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "python3-h5py and python3-matplotlib are not installed";
  const std::string script = std::string(SGX_SOURCE_DIR) + "/scripts/plot_sequence.py";
  ASSERT_EQ(run("run_octal", {"grundy", "--n", "2^14", "--quiet", "--out", path("g.h5")}).exit_code, 0);
  ASSERT_EQ(run("run_octal", {"0.137", "--n", "1000", "--quiet", "--out", path("d.h5")}).exit_code, 0);
  for (const char* name : {"g", "d"}) {
    const std::string png = path(std::string(name) + ".png");
    std::string command = "/usr/bin/python3 ";
    command.append(quote(script)).append(" ").append(quote(path(std::string(name) + ".h5")));
    command.append(" --out ").append(quote(png)).append(" >/dev/null");
    ASSERT_EQ(std::system(command.c_str()), 0) << command;
    const std::string bytes = read_file(png);
    ASSERT_GT(bytes.size(), 10000u) << "a real picture, not an empty file";
    EXPECT_EQ(bytes.substr(1, 3), "PNG");
  }
  std::ofstream(path("bad.h5")) << "not HDF5";
  std::string command = "/usr/bin/python3 ";
  command.append(quote(script)).append(" ").append(quote(path("bad.h5"))).append(" 2>/dev/null");
  EXPECT_NE(std::system(command.c_str()), 0) << "a file that is not a run is refused";
}

// ---- sg_sweep ----

// The rows of a sweep table (header left out), each without its last column, seconds, sorted.
std::vector<std::string> rows_without_seconds(const std::string& csv) {
  std::vector<std::string> rows = lines(csv);
  if (!rows.empty()) rows.erase(rows.begin());
  for (auto& row : rows) row = row.substr(0, row.rfind(','));
  std::sort(rows.begin(), rows.end());
  return rows;
}

TEST_F(CliTest, SgSweepTablesEveryTwoDigitOctalGame) {
  // One thread per game: tiny games gain nothing from more, and lose a lot on a busy machine.
  Result r = run("sg_sweep", {"--codes", "0.??", "--n", "4096", "--threads", "1", "--out", path("t.csv")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
  const auto csv = lines(read_file(path("t.csv")));
  ASSERT_EQ(csv.size(), 65u);
  EXPECT_EQ(csv[0].rfind("game,n,period,preperiod,saltus,proven,theorem,proof_needs_n,max_value,max_at,rare_mask,", 0),
            0u);
  // Rows in pattern order; the values docs/THEORY.md section 6 lists: Kayles, Dawson's Kayles, Guiles.
  EXPECT_EQ(csv[1].rfind("0.00,4096,1,0,0,true,subtraction-window,2,0,0,0x0,4096,4095,,0.0,", 0), 0u) << csv[1];
  EXPECT_EQ(csv[8].rfind("0.07,4096,34,53,0,true,guy-smith,176,9,86,", 0), 0u) << csv[8];
  EXPECT_EQ(csv[14].rfind("0.15,4096,10,1,0,true,guy-smith,", 0), 0u) << csv[14];
  EXPECT_EQ(csv[64].rfind("0.77,4096,12,71,0,true,guy-smith,168,8,27,0xf,10,70,,,", 0), 0u) << csv[64];
  // Marked, not merged: 0.70 is 0.7 written with a trailing zero, 0.61 has the values of 0.60.
  // G(n) = n mod 2 and each split takes 1: under 0x1 with the heap's parity no position is rare.
  EXPECT_EQ(csv[57].rfind("0.70,4096,2,0,0,true,guy-smith,7,1,1,0x1+pos,0,-1,,0.7,", 0), 0u) << csv[57];
  EXPECT_EQ(csv[50].rfind("0.61,", 0), 0u) << csv[50];
  EXPECT_TRUE(contains(csv[50], ",0.6,")) << csv[50];
  const auto table = lines(r.out);
  ASSERT_EQ(table.size(), 66u) << "Markdown: header, rule and one line per game";
  EXPECT_EQ(table[0].rfind("| game | n    | period | preperiod | saltus | proven", 0), 0u) << table[0];
  EXPECT_EQ(table[65].rfind("| 0.77 | 4096 | 12     | 71        | 0      | yes (guy-smith)", 0), 0u) << table[65];
}

TEST_F(CliTest, SgSweepUntilProvenGoesUpToTheCap) {
  std::ofstream(path("games.txt")) << "# proven early, and never proven\nkayles\n4!.0\n";
  Result r = run("sg_sweep", {"--codes", "games.txt", "--until-proven", "--max-n", "2^13", "--threads", "1", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto rows = json_lines(r.out);
  ASSERT_EQ(rows.size(), 2u) << r.out;
  EXPECT_EQ(rows[0]["game"], "kayles");
  EXPECT_EQ(rows[0]["n"], 4096);
  EXPECT_EQ(rows[0]["period"], json::parse(R"({"found": true, "preperiod": 71, "period": 12, "saltus": 0,
      "proven": true, "theorem": "guy-smith", "proof_needs_n": 168})"));
  EXPECT_EQ(rows[0]["equivalent_to"], "0.77");
  EXPECT_EQ(rows[1]["game"], "4!.0");
  EXPECT_EQ(rows[1]["n"], 8192);
  EXPECT_EQ(rows[1]["period"]["proven"], false);
  EXPECT_EQ(rows[1]["period"]["theorem"], nullptr);
  EXPECT_EQ(rows[1]["stopped_by"], "max-n");
  EXPECT_EQ(rows[1]["equivalent_to"], nullptr);
}

TEST_F(CliTest, SgSweepBadInputGetsOneLineAndExitTwo) {
  std::ofstream(path("kept.csv")) << "precious\n";
  const std::vector<std::vector<std::string>> cases = {
      {"--codes", "0.[3-1]", "--n", "10"},
      {"--n", "10"},
      {"--codes", "0.??", "--n", "10", "--until-proven"},
      {"--codes", "0.??", "--n", "10", "--max-n", "2^12"},
      {"--codes", "0.??", "--max-seconds", "soon"},
      {"--codes", "0.??", "--resume"},
      {"--codes", "0.??", "--n", "-1"},
      {"--codes", "0.??", "--json", "--quiet"},
      {"--codes", "?.7", "--n", "10"},
      {"--codes", "0.??", "--n", "10", "--out", "kept.csv"},
      {"--codes", "0.??", "--n", "10", "--out", "kept.csv", "--resume"},
  };
  for (const auto& args : cases) {
    Result r = run("sg_sweep", args);
    std::string shown;
    for (const auto& a : args) shown.append("[").append(a).append("] ");
    EXPECT_EQ(r.exit_code, 2) << shown << r.err;
    EXPECT_EQ(lines(r.err).size(), 1u) << shown << r.err;
    EXPECT_EQ(r.err.rfind("sg_sweep: ", 0), 0u) << shown << r.err;
    EXPECT_TRUE(r.out.empty()) << shown << r.out;
  }
  EXPECT_EQ(read_file(path("kept.csv")), "precious\n") << "a file that is not this sweep's table is left alone";
  Result help = run("sg_sweep", {"--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_TRUE(contains(help.out, "Examples:")) << help.out;
}

// The table refuses a file in facts (sweep_table.hpp); sg_sweep turns them into its options.
TEST_F(CliTest, SgSweepAdvisesItsOwnOptionsForATableItCannotUse) {
  const std::vector<std::string> first = {"--codes", "0.1?", "--n", "100", "--threads", "1", "--quiet", "--out", "t.csv"};
  ASSERT_EQ(run("sg_sweep", first).exit_code, 0);
  auto with = [&first](std::vector<std::string> changes) {
    std::vector<std::string> args = first;
    for (std::size_t i = 0; i + 1 < changes.size(); i += 2)
      *(std::find(args.begin(), args.end(), changes[i]) + 1) = changes[i + 1];
    if (changes.size() % 2 == 1) args.push_back(changes.back());
    return args;
  };
  const Result again = run("sg_sweep", first);
  EXPECT_EQ(again.exit_code, 1) << "a table is worth more than a command that forgot --resume";
  EXPECT_EQ(again.err, "sg_sweep: t.csv holds the table of a sweep with 8 rows, 0.10 to 0.17: continue that sweep with "
                       "--resume, or replace it with --overwrite\n");
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {with({"--codes", "0.2?", "--resume"}), "t.csv line 2: 0.10 is not in this sweep: give the same --codes"},
      {with({"--n", "200", "--resume"}),
       "0.10 was computed to n = 100, which these settings would not give: resume with the --n (or --max-n)"},
  };
  for (const auto& [args, message] : cases) {
    Result r = run("sg_sweep", args);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(lines(r.err).size(), 1u) << r.err;
    EXPECT_TRUE(contains(r.err, message)) << r.err;
  }
}

// Starts a tool in dir without waiting for it; its output goes nowhere.
pid_t start_tool(const fs::path& dir, const std::string& tool, const std::vector<std::string>& args) {
  const std::string program = std::string(SGX_BIN_DIR) + "/" + tool;
  std::vector<char*> argv = {const_cast<char*>(program.c_str())};
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    if (chdir(dir.c_str()) != 0) _exit(127);
    if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr)) _exit(127);
    execv(program.c_str(), argv.data());
    _exit(127);
  }
  return pid;
}

TEST_F(CliTest, SgSweepKilledAndResumedLosesNoRowAndRepeatsNone) {
  // Games of 10 to 180 ms each at 2^15 values (0.6 s in all here), so that the kill lands
  // mid-sweep: the last eight take over 0.4 s after the first two rows (at 2^13 they took 0.07 s).
  std::ofstream(path("games.txt")) << "0.04\n0.06\n0.14\n0.16\n0.36\n0.37\n0.56\n0.64\n0.74\n0.76\n";
  auto sweep_into = [](const std::string& file, bool resume) {
    std::vector<std::string> args = {"--codes", "games.txt", "--n", "2^15", "--threads", "1", "--quiet", "--out", file};
    if (resume) args.push_back("--resume");
    return args;
  };
  ASSERT_EQ(run("sg_sweep", sweep_into("whole.csv", false)).exit_code, 0);

  const pid_t pid = start_tool(dir_, "sg_sweep", sweep_into("cut.csv", false));
  ASSERT_GT(pid, 0);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (lines(read_file(path("cut.csv"))).size() < 3 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  ASSERT_EQ(kill(pid, SIGKILL), 0);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFSIGNALED(status)) << "the sweep ended before the kill: the test needs slower games";

  const std::string cut = read_file(path("cut.csv"));
  std::vector<std::string> finished = lines(cut.substr(0, cut.rfind('\n') + 1));
  finished.erase(finished.begin());
  ASSERT_GE(finished.size(), 2u);
  ASSERT_LT(finished.size(), 10u);
  // A kill in the middle of a write leaves part of a row behind: resuming must drop it.
  if (cut.back() == '\n') std::ofstream(path("cut.csv"), std::ios::app) << "0.77,81";

  Result resumed = run("sg_sweep", sweep_into("cut.csv", true));
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  const std::string table = read_file(path("cut.csv"));
  EXPECT_EQ(rows_without_seconds(table), rows_without_seconds(read_file(path("whole.csv"))));
  // Every row finished before the kill is there as it was, seconds included: never computed again.
  for (const std::string& row : finished) EXPECT_TRUE(contains(table, row + "\n")) << row;
  std::vector<std::string> games;
  for (const auto& row : lines(table)) games.push_back(row.substr(0, row.find(',')));
  std::sort(games.begin(), games.end());
  EXPECT_EQ(std::adjacent_find(games.begin(), games.end()), games.end()) << "no game twice";
  EXPECT_EQ(games.size(), 11u) << "the header and ten games";
}

TEST_F(CliTest, SgPeriodSaysWhenAFileIsAnUnfinishedCheckpoint) {
  sgx::RunRecord record;
  record.game = "0.77";
  record.values = sgx::compute_sequence(sgx::parse_rules("kayles"), 500);
  record.complete = false;
  record.target_n = 100000;
  sgx::write_run_file(path("k.h5"), record);
  Result text = run("sg_period", {path("k.h5")});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_TRUE(contains(text.out, "values      500 (checkpoint, run not finished: its target is 100000)")) << text.out;
  const json stored = json_object(run("sg_period", {path("k.h5"), "--json"}).out);
  EXPECT_EQ(stored["complete"], false);
  EXPECT_EQ(stored["target_n"], 100000);
}

// A run with --memory keeps G(0..P-1) and G(L..n-1) only: too few values for a period or the
// statistics. sg_period says so in one line, as it refuses other input (exit 2), and prints nothing.
TEST_F(CliTest, SgPeriodRefusesARunWithReleasedValues) {
  sgx::RunRecord record;
  record.game = "0.137";
  // Dawson's chess: its period, proven early, fills in the values at once.
  record.values = sgx::compute_sequence(sgx::parse_rules("0.137"), 300'000, sgx::KernelKind::Auto, 1, true);
  const sgx::SparseStats stats = sgx::compute_stats(record.values);
  sgx::SparseState state;
  state.mask = stats.rare_mask;
  state.histogram = stats.histogram;
  state.rare_positions = sgx::rare_positions(record.values, stats.rare_mask);
  for (std::uint64_t position : state.rare_positions) state.rare_values.push_back(record.values[position]);
  state.max_value = stats.max_value;
  state.max_at = stats.max_at;
  record.stats = stats;
  record.sparse_state = state;
  record.values.release(1000, 200'000);
  sgx::write_run_file(path("bounded.h5"), record);
  for (const std::vector<std::string>& args : {std::vector<std::string>{path("bounded.h5")},
                                               std::vector<std::string>{path("bounded.h5"), "--json"},
                                               std::vector<std::string>{path("bounded.h5"), "--table"}}) {
    Result r = run("sg_period", args);
    EXPECT_EQ(r.exit_code, 2) << args.back();
    EXPECT_EQ(r.out, "") << args.back();
    EXPECT_EQ(r.err, "sg_period: " + path("bounded.h5") +
                         " holds G(0..999) and G(200000..299999) only (a run with --memory): the period analysis "
                         "needs every value (see 'sg_period --help')\n")
        << args.back();
    EXPECT_TRUE(contains(r.err, "--memory")) << r.err;
  }
}

TEST_F(CliTest, PlotScriptDrawsASweepTable) {
  if (std::system("/usr/bin/python3 -c 'import matplotlib' >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "python3-matplotlib is not installed";
  Result sweep = run("sg_sweep", {"--codes", "0.1?", "--n", "2000", "--threads", "1", "--quiet", "--out", path("t.csv")});
  ASSERT_EQ(sweep.exit_code, 0) << sweep.err;
  const std::string script = std::string(SGX_SOURCE_DIR) + "/scripts/plot_sweep.py";
  std::string command = "/usr/bin/python3 ";
  command.append(quote(script)).append(" ").append(quote(path("t.csv"))).append(" --out ");
  command.append(quote(path("t.png"))).append(" >/dev/null");
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  const std::string bytes = read_file(path("t.png"));
  ASSERT_GT(bytes.size(), 10000u);
  EXPECT_EQ(bytes.substr(1, 3), "PNG");
  std::ofstream(path("bad.csv")) << "a,b\n1,2\n";
  command = "/usr/bin/python3 ";
  command.append(quote(script)).append(" ").append(quote(path("bad.csv"))).append(" 2>/dev/null");
  EXPECT_NE(std::system(command.c_str()), 0) << "a file that is not a sweep table is refused";
}

}  // namespace

