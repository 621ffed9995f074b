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

// How OpenMP threads wait between parallel regions (the sparse kernel's blocks have one each, a few
// hundred microseconds of work). On an idle machine a waiting thread should spin: waking a
// sleeping one takes some 20 microseconds here (Grundy's game to 2^23 on two threads, blocks of
// 1024 heaps: 2.44 s sleeping, 2.39-2.40 s spinning; with blocks of 256, to 2^22, 6.3 s against
// 4.3 s). With anything else runnable, spinning takes the core from the thread it waits for (to
// 2^20 beside one busy process: 2.0 s sleeping, 3.2 s spinning for ever, 2.7 s spinning a
// millisecond). So, unless OMP_WAIT_POLICY or GOMP_SPINCOUNT is set, the tools look at start-up:
// when, at some look over a few tens of milliseconds, no other thread on the machine is ready to
// run, they spin about a millisecond before sleeping (GOMP_SPINCOUNT=kOpenmpSpinCount, tuning.hpp),
// else they sleep at once (OMP_WAIT_POLICY=passive). The OpenMP runtime reads these when it is
// loaded, so the program starts itself again with one set. Call first thing in main; if restarting
// fails, the program simply goes on as it is.
void choose_openmp_waits(char** argv);

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
