#include "cli.hpp"

#include <boost/program_options/errors.hpp>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <iostream>
#include <new>

#include "sgx/numbers.hpp"
#include "sgx/rules.hpp"
#include "sgx/store.hpp"
#include "sgx/version.hpp"
#include "sgx/sweep.hpp"
#include "base/tuning.hpp"

namespace sgx::cli {

namespace {

// Values are at most 32 bits wide and indices 64; 2^40 values is far past any machine's memory.
constexpr std::uint64_t kMaxValues = std::uint64_t{1} << 40;

int fail(const char* tool, const std::string& message, int code) {
  // One line, so that logs and scripts see the whole story in one place.
  std::cerr << tool << ": " << message;
  if (code == kExitUsage) std::cerr << " (see '" << tool << " --help')";
  std::cerr << "\n";
  return code;
}

}  // namespace

int run_tool(const char* tool, const std::function<int()>& body) {
  try {
    return body();
  } catch (const UsageError& e) {
    return fail(tool, e.what(), kExitUsage);
  } catch (const ParseError& e) {
    return fail(tool, e.what(), kExitUsage);
  } catch (const NumberError& e) {
    return fail(tool, e.what(), kExitUsage);
  } catch (const SweepInputError& e) {
    return fail(tool, e.what(), kExitUsage);
  } catch (const boost::program_options::error& e) {
    return fail(tool, e.what(), kExitUsage);
  } catch (const StoreError& e) {
    return fail(tool, e.what(), kExitFailure);
  } catch (const std::bad_alloc&) {
    return fail(tool, "out of memory: ask for fewer values, or run on a machine with more memory", kExitFailure);
  } catch (const std::exception& e) {
    return fail(tool, e.what(), kExitFailure);
  }
}

bool parse_command_line(const char* tool, int argc, char** argv, boost::program_options::options_description& visible,
                        boost::program_options::variables_map& vm, std::vector<std::string>* words, int max_words) {
  namespace po = boost::program_options;
  visible.add_options()("help,h", "show this help")("version", "show the version");
  po::options_description all;
  all.add(visible);
  // Every word is collected, so that one too many is named in the error (Boost's own message
  // names none).
  std::vector<std::string> no_words;
  std::vector<std::string>& collected = words ? *words : no_words;
  all.add_options()("word", po::value(&collected));
  po::positional_options_description positional;
  positional.add("word", -1);
  po::store(po::command_line_parser(argc, argv).options(all).positional(positional).run(), vm);
  po::notify(vm);
  const std::size_t allowed = !words ? 0 : max_words < 0 ? collected.size() : static_cast<std::size_t>(max_words);
  if (collected.size() > allowed && !vm.count("help") && !vm.count("version")) {
    const std::string extra = "unexpected argument '" + collected[allowed] + "'";
    if (allowed == 0) throw UsageError(extra + ": " + tool + " takes options only, each starting with --");
    throw UsageError(extra + ": " + tool + " takes " + std::to_string(allowed) + " argument" +
                     (allowed == 1 ? "" : "s") + " besides its options");
  }
  if (vm.count("help")) {
    std::cout << visible << "\n";
    return false;
  }
  if (vm.count("version")) {
    std::cout << tool << " (sgx) " << kVersion << "\n";
    return false;
  }
  return true;
}

std::uint64_t parse_n(const std::string& option, const std::string& text) {
  try {
    return parse_count(text, kMaxValues);
  } catch (const NumberError& e) {
    throw UsageError("--" + option + ": " + e.what());
  }
}

std::string utc_now_text() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  ::gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S UTC", &utc);
  return text;
}

double parse_seconds(const std::string& option, const std::string& text, const std::string& zero_means) {
  char* end = nullptr;
  const double seconds = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(seconds) || seconds < 0)
    throw UsageError(option + " takes seconds such as 300 or 0.5 (0: " + zero_means + "), got '" + text + "'");
  return seconds;
}

}  // namespace sgx::cli
