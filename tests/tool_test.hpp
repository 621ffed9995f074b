#pragma once
// What the tests of the command-line tools share: a fixture with a fresh directory per test, and
// running a tool from the build tree there with its stdout, stderr and exit code captured.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace sgx::testing {

// A new directory under the system's temporary one, named label-PID-RANDOM.
inline std::filesystem::path fresh_directory(const std::string& label) {
  std::filesystem::path dir = std::filesystem::temp_directory_path() /
                              (label + "-" + std::to_string(::getpid()) + "-" + std::to_string(std::random_device{}()));
  std::filesystem::create_directories(dir);
  return dir;
}

struct Result {
  int exit_code = -1;
  std::string out;
  std::string err;
};

inline std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The argument quoted for the shell.
inline std::string quote(const std::string& arg) {
  std::string q = "'";
  for (char c : arg) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The JSON objects a tool printed, one a line; a line that is not JSON fails the test at once
// (nlohmann's parse error names the line and column).
inline std::vector<nlohmann::json> json_lines(const std::string& text) {
  std::vector<nlohmann::json> objects;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    objects.push_back(nlohmann::json::parse(line));
    EXPECT_TRUE(objects.back().is_object()) << line;
  }
  return objects;
}

// The one JSON object a tool printed.
inline nlohmann::json json_object(const std::string& text) {
  const std::vector<nlohmann::json> objects = json_lines(text);
  EXPECT_EQ(objects.size(), 1u) << "one JSON object, one line: " << text;
  return objects.empty() ? nlohmann::json::object() : objects.front();
}

class ToolTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::random_device rd;
    dir_ = std::filesystem::temp_directory_path() / ("sgx-test-" + std::to_string(rd()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // Runs a tool from the build tree in the test's own directory, with no standard input.
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

  // A file name inside the test's directory.
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  std::filesystem::path dir_;
};

}  // namespace sgx::testing
