#pragma once
// What every command-line tool shares: error reporting, exit codes, and the wording of help.
// Exit codes: 0 success, 1 runtime failure (a file could not be written, ...), 2 usage or input
// error. Errors print as "tool: message" and a hint to --help; never a stack trace.

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>

namespace sgx::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;

// An error in what the user typed.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Runs body, turning every exception into a one-line message and the right exit code.
int run_tool(const char* tool, const std::function<int()>& body);

// The number of values, as --n takes it (1e7, 2^30, 1000000), with the option named in errors.
std::uint64_t parse_n(const std::string& option, const std::string& text);

}  // namespace sgx::cli
