// The command-line tools, run for real from the build tree, on real files.

#include <gtest/gtest.h>
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

struct Result {
  int exit_code = -1;
  std::string out;
  std::string err;
};

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string quote(const std::string& arg) {
  std::string q = "'";
  for (char c : arg) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

class CliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::random_device rd;
    dir_ = fs::temp_directory_path() / ("sgx-cli-" + std::to_string(rd()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Runs a tool from the build tree in the test's own directory.
  Result run(const std::string& tool, const std::vector<std::string>& args) {
    // Built with append: GCC 12 warns falsely (-Wrestrict) on chains of "literal" + string.
    std::string command = "cd ";
    command.append(quote(dir_.string())).append(" && ").append(quote(std::string(SGX_BIN_DIR) + "/" + tool));
    for (const auto& a : args) command.append(" ").append(quote(a));
    command.append(" >").append(quote((dir_ / "stdout").string()));
    command.append(" 2>").append(quote((dir_ / "stderr").string())).append(" </dev/null");
    const int status = std::system(command.c_str());
    Result r;
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = read_file(dir_ / "stdout");
    r.err = read_file(dir_ / "stderr");
    return r;
  }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  fs::path dir_;
};

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST_F(CliTest, DawsonsChessToTenMillionProvesThePeriod) {
  Result r = run("run_octal", {"0.137", "--n", "1e7", "--json", "--out", path("d.h5")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "\"game\": \"0.137\"")) << r.out;
  EXPECT_TRUE(contains(r.out, "\"n\": 10000000")) << r.out;
  EXPECT_TRUE(contains(r.out, "\"period\": {\"found\": true, \"preperiod\": 52, \"period\": 34, \"saltus\": 0, "
                              "\"proven\": true, \"theorem\": \"guy-smith\", \"proof_needs_n\": 175, "
                              "\"exceptions\": [0, 14, 16, 17, 31, 34, 51]}"))
      << r.out;
  EXPECT_TRUE(contains(r.out, "\"max_value\": 9, \"max_at\": 85")) << r.out;
  EXPECT_EQ(lines(r.out).size(), 1u) << "one JSON object, one line";
  EXPECT_TRUE(r.err.empty()) << r.err;
  EXPECT_TRUE(fs::exists(path("d.h5")));

  Result p = run("sg_period", {path("d.h5"), "--json"});
  ASSERT_EQ(p.exit_code, 0) << p.err;
  EXPECT_TRUE(contains(p.out, "\"preperiod\": 52, \"period\": 34, \"saltus\": 0, \"proven\": true")) << p.out;
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
  Result summary = run("run_octal", {"kayles", "--n", "100", "--print=0:2", "--out", path("k.h5")});
  EXPECT_TRUE(contains(summary.out, "0\n1\ngame        0.77\n")) << summary.out;
}

TEST_F(CliTest, CountsAcceptEveryNotation) {
  for (const char* n : {"1000", "1e3", "10^3", "1_000"}) {
    Result r = run("run_octal", {"0.6", "--n", n, "--json", "--out", path("x.h5")});
    ASSERT_EQ(r.exit_code, 0) << n << r.err;
    EXPECT_TRUE(contains(r.out, "\"n\": 1000,")) << n << r.out;
  }
  Result pow2 = run("run_octal", {"0.6", "--n", "2^12", "--json", "--out", path("x.h5")});
  EXPECT_TRUE(contains(pow2.out, "\"n\": 4096,")) << pow2.out;
}

TEST_F(CliTest, BadInputGetsOneLineAndExitTwo) {
  const std::vector<std::vector<std::string>> cases = {
      {"0.1x", "--n", "100"}, {"", "--n", "100"},     {"0.", "--n", "100"},    {"1.5", "--n", "100"},
      {"2.3", "--n", "100"},  {"0.G", "--n", "100"},  {"0.[", "--n", "100"},   {"0.77", "--n", "-5"},
      {"0.77", "--n", "1e400"}, {"0.77", "--n", "2.5"}, {"0.77", "--n", "0"},  {"0.77", "--bogus"},
      {"0.77", "--engine", "fast"}, {},                {"0.77", "--n", "10", "--print=5:2"},
      {"0.77", "--resume"},  {"0.77", "--n", "10", "--print=0:11"}, {"0.77", "--threads", "-1"},
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
  EXPECT_TRUE(contains(r.out, "\"proven\": false")) << r.out;
  EXPECT_TRUE(contains(r.out, "\"engine\": \"sparse\"")) << r.out;
}

TEST_F(CliTest, EveryEngineGivesTheSameValues) {
  std::string reference;
  for (const char* engine : {"naive", "sparse", "sweep", "auto"}) {
    Result r = run("run_octal", {"0.16", "--n", "3000", "--engine", engine, "--no-shortcut", "--print", "--quiet",
                                 "--out", path("s.h5")});
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
  Result json = run("sg_period", {path("k.h5"), path("d.h5"), "--json"});
  EXPECT_EQ(lines(json.out).size(), 2u) << json.out;
}

TEST_F(CliTest, LongPreperiodIsProvenWithoutN) {
  // 0.56: period 144 after a preperiod of over 326000 values (Gangolli & Plambeck 1989). Without
  // --n, run_octal computes until the Guy-Smith bound is reached and proves it.
  Result r = run("run_octal", {"0.56", "--json", "--out", path("56.h5")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "\"preperiod\": 326640, \"period\": 144, \"saltus\": 0, \"proven\": true, "
                              "\"theorem\": \"guy-smith\", \"proof_needs_n\": 653570"))
      << r.out;
  Result p = run("sg_period", {path("56.h5"), "--json"});
  ASSERT_EQ(p.exit_code, 0) << p.err;
  EXPECT_TRUE(contains(p.out, "\"preperiod\": 326640, \"period\": 144, \"saltus\": 0, \"proven\": true")) << p.out;
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
  // Long enough (half a second or more) for the status line, refreshed a few times a second, to show.
  const std::vector<std::string> args = {"grundy", "--n", "2^18", "--out", path("g.h5")};
  const std::string screen = run_on_terminal("run_octal", args);
  EXPECT_TRUE(contains(screen, "\r\033[K n ")) << screen;
  EXPECT_TRUE(contains(screen, "values/s  elapsed ")) << screen;
  EXPECT_TRUE(contains(screen, "  largest 2")) << "Grundy's values pass 200 by then: " << screen;
  EXPECT_TRUE(contains(screen, "\033[Kgame        4!.0")) << "the line is erased before the summary: " << screen;

  std::vector<std::string> quiet = args;
  quiet.push_back("--quiet");
  EXPECT_FALSE(contains(run_on_terminal("run_octal", quiet), "\033[K")) << "--quiet silences it";

  Result redirected = run("run_octal", args);  // stdout and stderr to files
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

}  // namespace

