// How a tool starts. Its libraries come from where it was built to find them, never from the
// directory it is started in. Its OpenMP threads' waits (src/app/openmp_waits.hpp): a tool that
// runs more than one thread looks at the machine and starts itself again with the choice set,
// which OpenMP shows as a second display of its settings (OMP_DISPLAY_ENV); a one-thread run has
// nothing to choose and starts once.

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <optional>
#include <string>

#include "app/processors.hpp"
#include "tool_test.hpp"

namespace {

using sgx::testing::Result;
using ToolStartTest = sgx::testing::ToolTest;

int starts_of_openmp(const std::string& err) {
  int count = 0;
  for (std::size_t at = err.find("OPENMP DISPLAY ENVIRONMENT BEGIN"); at != std::string::npos;
       at = err.find("OPENMP DISPLAY ENVIRONMENT BEGIN", at + 1))
    ++count;
  return count;
}

// Sets a variable for the tools this test starts, and puts back what was there.
class ScopedVariable {
 public:
  ScopedVariable(const char* name, const char* value) : name_(name) {
    if (const char* was = std::getenv(name)) was_ = was;
    if (value)
      setenv(name, value, 1);
    else
      unsetenv(name);
  }
  ~ScopedVariable() {
    if (was_)
      setenv(name_, was_->c_str(), 1);
    else
      unsetenv(name_);
  }

 private:
  const char* name_;
  std::optional<std::string> was_;
};

// A file named as one of the libraries, in the directory a tool starts in, is not loaded (an empty
// entry in the programs' RUNPATH made the loader look there first: "libz.so.1: file too short").
TEST_F(ToolStartTest, LibrariesAreNotLookedForInTheWorkingDirectory) {
  for (const char* library : {"libz.so.1", "libgomp.so.1", "libhdf5_serial.so.103", "libstdc++.so.6"})
    std::ofstream(path(library)) << "not a library\n";
  for (const char* tool : {"run_octal", "sg_period", "sg_solve", "sg_sweep"}) {
    Result version = run(tool, {"--version"});
    EXPECT_EQ(version.exit_code, 0) << tool << ": " << version.err;
    EXPECT_NE(version.out.find(std::string(tool) + " (sgx) "), std::string::npos) << version.out;
  }
}

TEST_F(ToolStartTest, OneThreadStartsOnceAndMoreLookAndStartAgain) {
  ScopedVariable display("OMP_DISPLAY_ENV", "true");
  ScopedVariable policy("OMP_WAIT_POLICY", nullptr);
  ScopedVariable spin("GOMP_SPINCOUNT", nullptr);
  Result one = run("run_octal", {"0.6", "--n", "100", "--threads", "1", "--out", path("one.h5")});
  ASSERT_EQ(one.exit_code, 0) << one.err;
  EXPECT_EQ(starts_of_openmp(one.err), 1) << one.err;
  Result version = run("sg_solve", {"--version"});
  ASSERT_EQ(version.exit_code, 0) << version.err;
  EXPECT_EQ(starts_of_openmp(version.err), 1) << version.err;
  Result one_by_equals = run("sg_sweep", {"--codes", "0.6", "--n", "100", "--threads=1"});
  ASSERT_EQ(one_by_equals.exit_code, 0) << one_by_equals.err;
  EXPECT_EQ(starts_of_openmp(one_by_equals.err), 1) << one_by_equals.err;
  if (sgx::cli::usable_processors() < 2) GTEST_SKIP() << "one processor: every run has one thread";
  Result two = run("run_octal", {"0.6", "--n", "100", "--threads", "2", "--out", path("two.h5")});
  ASSERT_EQ(two.exit_code, 0) << two.err;
  EXPECT_EQ(starts_of_openmp(two.err), 2) << two.err;
  {
    // A choice already made is kept: no look, no second start.
    ScopedVariable chosen("OMP_WAIT_POLICY", "passive");
    Result given = run("run_octal", {"0.6", "--n", "100", "--threads", "2", "--out", path("given.h5")});
    ASSERT_EQ(given.exit_code, 0) << given.err;
    EXPECT_EQ(starts_of_openmp(given.err), 1) << given.err;
  }
}

}  // namespace
