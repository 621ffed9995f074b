#pragma once
// What every command-line tool shares: error reporting, exit codes, and the wording of help.
// Exit codes: 0 success, 1 runtime failure (a file could not be written, ...), 2 usage or input
// error. Errors print as "tool: message" and a hint to --help; never a stack trace.

#include <boost/program_options.hpp>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

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

// Parses a tool's command line: the options in visible (--help and --version are added here) and,
// when words is given, the words that are no option (at most max_words; -1: any number).
// Returns false when --help or --version was answered: the tool then exits 0.
bool parse_command_line(const char* tool, int argc, char** argv, boost::program_options::options_description& visible,
                        boost::program_options::variables_map& vm, std::vector<std::string>* words = nullptr,
                        int max_words = -1);

// How the tools that print a table's report as text or JSON point to the rows the text leaves out.
inline constexpr const char* kJsonListsEveryRow = "--json lists every row";

// The number of values, as --n takes it (1e7, 2^30, 1000000), with the option named in errors.
std::uint64_t parse_n(const std::string& option, const std::string& text);

// Seconds, possibly fractional (tests checkpoint many times a second), for option; 0 turns what
// it times off, as zero_means says.
double parse_seconds(const std::string& option, const std::string& text, const std::string& zero_means);

// The time now for logs and lock files, in UTC: "2026-11-25 14:30:05 UTC".
std::string utc_now_text();

}  // namespace sgx::cli
