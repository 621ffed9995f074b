// The statistics at every power of two a run passes (/milestones), through the real tools: equal
// to counting the values the run prints, the same for a run under --memory killed with SIGKILL and
// resumed as for a plain run, and counted again from the file for a run written before them.

#include <gtest/gtest.h>
#include <hdf5.h>

#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "sgx/store.hpp"
#include "tool_process.hpp"

namespace sgx {
namespace {

bool sanitized() { return std::getenv("SGX_SANITIZED") != nullptr; }

class MilestoneTest : public testing::ToolTest {
 protected:
  // sg_period FILE --milestones --json: the run's object.
  nlohmann::json analysed(const std::string& file) {
    const testing::Result r = run("sg_period", {file, "--milestones", "--json"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return testing::json_object(r.out);
  }
};

TEST_F(MilestoneTest, CountsAtEveryPowerOfTwoEqualCountingThePrintedValues) {
  const std::uint64_t n = std::uint64_t{1} << 20;
  const testing::Result printed =
      run("run_octal", {"0.167", "--n", "2^20", "--print=0:1048576", "--quiet", "--out", path("run.h5")});
  ASSERT_EQ(printed.exit_code, 0) << printed.err;
  std::vector<std::uint32_t> values;
  std::istringstream lines(printed.out);
  for (std::uint32_t v; values.size() < n && lines >> v;) values.push_back(v);
  ASSERT_EQ(values.size(), n);

  const nlohmann::json milestones = analysed(path("run.h5"))["milestones"];
  ASSERT_EQ(milestones.size(), 21u);  // 2^0 .. 2^20
  std::vector<std::uint64_t> counts;
  for (std::size_t k = 0; k < milestones.size(); ++k) {
    const std::uint64_t at = std::uint64_t{1} << k;
    for (std::uint64_t i = at / 2; i < at; ++i) {  // counts of G(0..at-1)
      if (values[i] >= counts.size()) counts.resize(values[i] + 1, 0);
      ++counts[values[i]];
    }
    const nlohmann::json& m = milestones[k];
    EXPECT_EQ(m["n"], at);
    EXPECT_EQ(m["histogram"].get<std::vector<std::uint64_t>>(), counts) << "at " << at;
    EXPECT_EQ(m["max_value"].get<std::uint64_t>() + 1, counts.size()) << "at " << at;
    if (at < n)
      EXPECT_EQ(m["value_at_n"], values[at]) << "at " << at;
    else
      EXPECT_TRUE(m["value_at_n"].is_null());
  }
  // Published figures of 0.167 (rogalski-wmii-uni-lodz-pl/octal, results/0.167/16): the counts of
  // G(1..16) are 0:1 1:5 2:4 3:2 4:3 6:1, which is G(0..15) less G(0) = 0, plus G(16).
  std::vector<std::uint64_t> published = milestones[4]["histogram"].get<std::vector<std::uint64_t>>();
  --published[0];
  ++published[milestones[4]["value_at_n"].get<std::size_t>()];
  EXPECT_EQ(published, (std::vector<std::uint64_t>{1, 5, 4, 2, 3, 0, 1}));

  // The table for people: a row per power of two.
  const testing::Result text = run("sg_period", {path("run.h5"), "--milestones"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_TRUE(testing::contains(text.out, "milestones  the statistics of G(0..N-1)")) << text.out;
  EXPECT_TRUE(testing::contains(text.out, "  2^20         1048576")) << text.out;
  const testing::Result table = run("sg_period", {path("run.h5"), "--milestones", "--table"});
  EXPECT_EQ(table.exit_code, 2);
  EXPECT_TRUE(testing::contains(table.err, "--milestones and --table")) << table.err;
}

// A bounded run keeps its counts in its file and counts on from them: killed with SIGKILL once it
// has released values and resumed, its milestones and statistics equal those of a plain run.
TEST_F(MilestoneTest, BoundedRunKilledAndResumedHasThePlainRunsMilestones) {
  const std::string n = sanitized() ? "2^26" : "2^27";
  const testing::Result plain = run("run_octal", {"0.167", "--n", n, "--quiet", "--out", path("plain.h5")});
  ASSERT_EQ(plain.exit_code, 0) << plain.err;

  const std::string killed = path("killed.h5");
  const std::vector<std::string> bounded = {"0.167", "--n", n, "--memory", "128M", "--checkpoint-every", "1",
                                            "--quiet", "--out", killed};
  testing::Process process("run_octal", bounded, dir_);
  // At a checkpoint with values released from memory.
  const bool killed_midway =
      testing::kill_at_checkpoint(process, killed, [](const RunStatus& status) { return status.has_released(); });
  const testing::Ending ending = process.wait();
  ASSERT_TRUE(killed_midway) << "the run ended before it released values: " << testing::describe(ending);
  const RunRecord checkpoint = read_run_file(killed, LoadValues::None);
  ASSERT_TRUE(checkpoint.counter.has_value());
  EXPECT_EQ(checkpoint.counter->counted, read_run_status(killed).n);

  std::vector<std::string> resume = bounded;
  resume.push_back("--resume");
  const testing::Result resumed = run("run_octal", resume);
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  const nlohmann::json expected = analysed(path("plain.h5")), got = analysed(killed);
  EXPECT_EQ(got["milestones"], expected["milestones"]);
  EXPECT_EQ(got["stats"], expected["stats"]);
  EXPECT_EQ(got["max_value"], expected["max_value"]);
}

// Removes /counter and /milestones from a run file, as files written before them are.
void strip_counts(const std::string& file) {
  const hid_t h = H5Fopen(file.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  ASSERT_GE(h, 0);
  EXPECT_GE(H5Ldelete(h, "counter", H5P_DEFAULT), 0);
  EXPECT_GE(H5Ldelete(h, "milestones", H5P_DEFAULT), 0);
  H5Fclose(h);
}

// A bounded run written before runs kept their counts cannot count its released values from
// memory: resumed, it counts them again from its file.
TEST_F(MilestoneTest, RunWithoutCountsIsCountedAgainFromItsFile) {
  const std::string bounded = path("bounded.h5");
  const testing::Result first =
      run("run_octal", {"0.167", "--n", "2^26", "--memory", "128M", "--quiet", "--out", bounded});
  ASSERT_EQ(first.exit_code, 0) << first.err;
  ASSERT_TRUE(read_run_status(bounded).has_released());
  strip_counts(bounded);
  ASSERT_FALSE(read_run_file(bounded, LoadValues::None).counter.has_value());
  // sg_period counts them in its pass over the values.
  const nlohmann::json before = analysed(bounded);
  EXPECT_EQ(before["milestones"].size(), 27u);

  const testing::Result extended =
      run("run_octal", {"0.167", "--n", "67108869", "--memory", "128M", "--quiet", "--resume", "--out", bounded});
  ASSERT_EQ(extended.exit_code, 0) << extended.err;
  const testing::Result plain = run("run_octal", {"0.167", "--n", "67108869", "--quiet", "--out", path("plain.h5")});
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  const nlohmann::json expected = analysed(path("plain.h5")), got = analysed(bounded);
  EXPECT_EQ(got["milestones"], expected["milestones"]);
  EXPECT_EQ(got["milestones"][26]["value_at_n"], expected["milestones"][26]["value_at_n"]);
  EXPECT_FALSE(got["milestones"][26]["value_at_n"].is_null());
  for (std::size_t k = 0; k < 26; ++k) EXPECT_EQ(before["milestones"][k], expected["milestones"][k]) << k;
}

}  // namespace
}  // namespace sgx
