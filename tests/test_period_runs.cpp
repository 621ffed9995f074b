// The period analysis through the real tools: a bounded run killed with SIGKILL while it analyses
// the values it has saved (reading the released ones back from its file) and resumed gives the
// answer of a run never killed, and sg_period reads the same from the file.

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "sgx/store.hpp"
#include "tool_process.hpp"

namespace sgx {
namespace {

using testing::describe;
using testing::Ending;
using testing::Process;

bool sanitized() { return std::getenv("SGX_SANITIZED") != nullptr; }

class PeriodRunTest : public testing::ToolTest {};

// 0.16 proves its period 149459 (from 105351) at 509622 values and fills the rest from it at
// once; under --memory 128M the values past 2^25 are released, so the analysis that ends the run
// follows the tail back through the run file, the longest part of the run. The run saves every
// value before it analyses them (a checkpoint at n of the target, unfinished): a kill seen there
// lands in the analysis or the last save.
TEST_F(PeriodRunTest, KilledWhileItAnalysesAndResumedGivesTheSameAnswer) {
  const std::string n = sanitized() ? "2^26" : "2^27";
  const std::vector<std::string> run = {"0.16", "--n", n, "--memory", "128M", "--json", "--quiet"};
  auto with_out = [&](const std::string& file, std::vector<std::string> extra = {}) {
    std::vector<std::string> args = run;
    args.insert(args.end(), {"--out", file});
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  };
  const testing::Result reference = this->run("run_octal", with_out(path("reference.h5")));
  ASSERT_EQ(reference.exit_code, 0) << reference.err;
  const nlohmann::json expected = testing::json_object(reference.out)["period"];
  ASSERT_TRUE(expected["proven"].get<bool>());
  ASSERT_EQ(expected["period"].get<std::uint64_t>(), 149459u);
  const std::uint64_t target = testing::json_object(reference.out)["n"].get<std::uint64_t>();

  // The last save and the analysis take a fraction of a second: a run may end before the watcher
  // sees its last checkpoint (the machine busy with other tests). Three runs have three chances.
  const std::string killed = path("killed.h5");
  bool in_analysis = false;
  Ending ending;
  for (int attempt = 0; attempt < 3 && !in_analysis; ++attempt) {
    Process process("run_octal", with_out(killed, {"--overwrite"}), dir_);
    in_analysis =
        testing::kill_at_checkpoint(process, killed, [&](const RunStatus& status) { return status.n == target; });
    ending = process.wait();
  }
  ASSERT_TRUE(in_analysis) << "three runs ended before a kill reached their analysis: " << describe(ending);
  ASSERT_FALSE(ending.exited) << describe(ending);
  EXPECT_FALSE(read_run_status(killed).complete);

  const testing::Result resumed = this->run("run_octal", with_out(killed, {"--resume"}));
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  EXPECT_EQ(testing::json_object(resumed.out)["period"], expected);
  const testing::Result analysed = this->run("sg_period", {killed, "--json"});
  ASSERT_EQ(analysed.exit_code, 0) << analysed.err;
  EXPECT_EQ(testing::json_object(analysed.out)["period"], expected);
}

}  // namespace
}  // namespace sgx
