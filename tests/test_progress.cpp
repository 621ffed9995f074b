// Progress that tells the truth: the time left follows the work the running kernel does (quadratic
// for the sweep), and a log counts rare positions as the run goes and ends with the totals.

#include <gtest/gtest.h>

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "app/progress.hpp"
#include "tool_test.hpp"

namespace sgx {
namespace {

Progress at(std::uint64_t n, std::uint64_t target, KernelKind kernel) {
  Progress progress;
  progress.n = n;
  progress.target = target;
  progress.kernel = kernel;
  return progress;
}

TEST(WorkClock, TimeLeftFollowsTheKernelsWork) {
  // A quarter of the heaps in one second: the sparse kernel's heaps cost alike, three seconds
  // left; the sweep's grow with n, so the other three quarters are fifteen sixteenths of the work.
  cli::WorkClock sparse, sweep;
  EXPECT_EQ(sparse.seconds_left(at(0, 4000, KernelKind::Sparse), 0), -1) << "no rate measured yet";
  EXPECT_DOUBLE_EQ(sparse.seconds_left(at(1000, 4000, KernelKind::Sparse), 1), 3);
  sweep.seconds_left(at(0, 4000, KernelKind::Sweep), 0);
  EXPECT_DOUBLE_EQ(sweep.seconds_left(at(1000, 4000, KernelKind::Sweep), 1), 15);
  // A switch of kernel measures again from where it took over.
  EXPECT_EQ(sparse.seconds_left(at(2000, 4000, KernelKind::Sweep), 2), -1);
  EXPECT_DOUBLE_EQ(sparse.seconds_left(at(3000, 4000, KernelKind::Sweep), 3), 7.0 / 5.0);
  EXPECT_DOUBLE_EQ(sparse.seconds_left(at(4000, 4000, KernelKind::Sweep), 4), 0);
}

class ProgressLogTest : public testing::ToolTest {};

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST_F(ProgressLogTest, RareCountedLiveUnderTheSweepAndTheTotalsAtTheEnd) {
  // Treblecross switches to the sweep kernel early; its report counts thousands of rare positions.
  const testing::Result result =
      run("run_octal", {"0.007", "--n", "2^17", "--no-shortcut", "--json", "--progress-every", "0.05", "--out",
                        path("t.h5")});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto report = testing::json_object(result.out);
  const auto lines = lines_of(result.err);
  ASSERT_GE(lines.size(), 2u) << result.err;
  std::size_t rare_seen = 0;
  for (std::size_t i = 0; i + 1 < lines.size(); ++i) {
    EXPECT_TRUE(testing::contains(lines[i], "  rare ")) << lines[i];
    if (!testing::contains(lines[i], "  rare 0  ")) ++rare_seen;
  }
  EXPECT_GE(rare_seen, 1u) << result.err;
  const std::string& last = lines.back();
  EXPECT_TRUE(testing::contains(last, " done: n 131072, 131072 computed in ")) << last;
  EXPECT_TRUE(testing::contains(last, "  largest " + std::to_string(report["max_value"].get<int>()) + "  ")) << last;
  EXPECT_TRUE(testing::contains(
      last, "  rare " + std::to_string(report["stats"]["rare_count"].get<std::uint64_t>()) + "  "))
      << last;
}

}  // namespace
}  // namespace sgx
