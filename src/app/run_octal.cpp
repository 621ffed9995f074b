// run_octal: the nim-sequence of one heap game, its sparse-space statistics and its period.

#include <omp.h>

#include <boost/program_options.hpp>
#include <chrono>
#include <filesystem>
#include <iostream>

#include "cli.hpp"
#include "progress.hpp"
#include "sgx/engine.hpp"
#include "sgx/numbers.hpp"
#include "sgx/period.hpp"
#include "sgx/report.hpp"
#include "sgx/rules.hpp"
#include "sgx/stats.hpp"
#include "sgx/store.hpp"
#include "sgx/version.hpp"

namespace po = boost::program_options;

namespace {

using namespace sgx;

constexpr const char* kTool = "run_octal";
// Without --n: this many values, and more (doubling, up to --max-n) while a period is seen
// but not yet proven.
constexpr std::uint64_t kDefaultN = std::uint64_t{1} << 20;
constexpr const char* kDefaultMaxN = "2^30";

const char* kUsage = R"(Usage: run_octal GAME [options]

Computes the nim-sequence G(0), G(1), ... of a heap game, its sparse-space statistics and its
period, and saves the values to an HDF5 file.

GAME is a code or a name:
  0.137  .07  0.F7  4.07  8.0   octal / hexadecimal take-and-break codes (d0 in 0, 4, 8, C)
  4!.0                          '!' after a digit: split parts must be unequal (Grundy's game)
  0.[3]  4.[3]  0.3[1]          a bracketed tail repeats forever (Nim, Lasker's Nim)
  sub:1,3,4                     a finite subtraction game
  kayles dawson dawson-kayles treblecross grundy nim lasker

Examples:
  run_octal 0.137 --n 1e7            Dawson's chess to ten million; the period is proven early
  run_octal grundy --n 2^24 --json   Grundy's game, a JSON summary for scripts
  run_octal 0.007 --n 2^17 --engine sweep --out treblecross.h5
  run_octal kayles --print=0:20      the first twenty values, one per line
  run_octal 0.16                     without --n: 2^20 values, more until a seen period is proven

Options)";

struct Options {
  std::string game;
  std::string n_text;
  std::string max_n_text = kDefaultMaxN;
  int threads = 0;
  std::string out;
  bool resume = false;
  std::string engine = "auto";
  bool no_shortcut = false;
  std::string print;  // "" none, "all" or "A:B"
  bool json = false;
  bool quiet = false;
};

// Parses --print's range "A:B" (G(A..B-1)); either end may be left out.
std::pair<std::uint64_t, std::uint64_t> print_range(const std::string& text, std::uint64_t n) {
  if (text == "all") return {0, n};
  auto colon = text.find(':');
  if (colon == std::string::npos) throw cli::UsageError("--print takes a range A:B such as 0:100, got '" + text + "'");
  std::string a = text.substr(0, colon), b = text.substr(colon + 1);
  std::uint64_t from = a.empty() ? 0 : parse_whole(a);
  std::uint64_t to = b.empty() ? n : parse_whole(b);
  if (from > to) throw cli::UsageError("--print range " + text + " is empty: A must not exceed B");
  if (to > n)
    throw cli::UsageError("--print range " + text + " reaches past the " + std::to_string(n) + " values computed");
  return {from, to};
}

std::string default_output_path(const std::string& canonical) {
  std::filesystem::create_directories("results");
  return "results/" + canonical + ".h5";
}

int run(int argc, char** argv) {
  Options o;
  po::options_description visible(kUsage);
  visible.add_options()
      ("n", po::value(&o.n_text), "number of values G(0..N-1): 1000000, 1e7, 2^30")
      ("max-n", po::value(&o.max_n_text), "without --n: stop looking for a proof here (default 2^30)")
      ("threads", po::value(&o.threads), "threads to use (default: all cores)")
      ("out", po::value(&o.out), "HDF5 file to write (default results/GAME.h5)")
      ("resume", po::bool_switch(&o.resume), "continue the run stored in --out up to --n")
      ("engine", po::value(&o.engine), "kernel: auto (default), sparse, sweep, naive")
      ("no-shortcut", po::bool_switch(&o.no_shortcut), "compute every value even after a period is proven")
      ("print", po::value(&o.print)->implicit_value("all"), "write G(n) to stdout, one per line; --print=A:B for G(A..B-1)")
      ("json", po::bool_switch(&o.json), "print one JSON object instead of the text summary")
      ("quiet", po::bool_switch(&o.quiet), "no summary and no status line (with --print: only the values)")
      ("help,h", "show this help")
      ("version", "show the version");
  po::options_description hidden;
  hidden.add_options()("game", po::value(&o.game));
  po::options_description all;
  all.add(visible).add(hidden);
  po::positional_options_description positional;
  positional.add("game", 1);
  po::variables_map vm;
  po::store(po::command_line_parser(argc, argv).options(all).positional(positional).run(), vm);
  po::notify(vm);
  if (vm.count("help")) {
    std::cout << visible << "\n";
    return cli::kExitOk;
  }
  if (vm.count("version")) {
    std::cout << kTool << " (sgx) " << kVersion << "\n";
    return cli::kExitOk;
  }
  if (!vm.count("game")) throw cli::UsageError("no game given: e.g. run_octal 0.137 --n 1e7");
  if (o.threads < 0) throw cli::UsageError("--threads must be positive");
  if (o.json && !o.print.empty()) throw cli::UsageError("--json and --print both write to stdout: choose one");

  const Rules rules = parse_rules(o.game);
  const std::string game = rules.canonical();
  const bool n_given = vm.count("n") > 0;
  const std::uint64_t n = n_given ? cli::parse_n("n", o.n_text) : kDefaultN;
  const std::uint64_t max_n = cli::parse_n("max-n", o.max_n_text);
  KernelKind kernel;
  try {
    kernel = parse_kernel_kind(o.engine);
  } catch (const std::invalid_argument& e) {
    throw cli::UsageError(std::string("--engine: ") + e.what());
  }
  if (!o.print.empty()) print_range(o.print, n);  // check the range before the work, not after
  if (o.resume && o.out.empty()) throw cli::UsageError("--resume needs --out FILE.h5: the run to continue");
  const std::string path = o.out.empty() ? default_output_path(game) : o.out;

  Sequence known;
  if (o.resume) {
    RunRecord previous = read_run_file(path);
    if (previous.game != game)
      throw cli::UsageError(path + " holds a run of " + previous.game + ", not " + game +
                            ": give the same game, or another --out");
    known = std::move(previous.values);
    if (known.size() > n) known.truncate(n);
  }

  const auto start = std::chrono::steady_clock::now();
  Engine engine(rules, EngineOptions{kernel, o.threads, !o.no_shortcut}, std::move(known));
  cli::StatusLine status(!o.quiet);
  auto progress = [&status](const Progress& p) {
    status.update(p);
    return true;
  };
  engine.compute_to(n, progress);
  PeriodResult period = analyze_period(engine.values(), rules);
  // Without --n, keep going while a period is seen that more values would prove.
  for (std::uint64_t target = n; !n_given && period.found && !period.proven && period.proof_needs_n > 0;) {
    target = std::max(2 * target, period.proof_needs_n);
    if (target > max_n) break;
    engine.compute_to(target, progress);
    period = analyze_period(engine.values(), rules);
  }
  status.finish();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  RunRecord record;
  record.game = game;
  record.values = engine.values();
  record.engine = engine.kernels_used();
  record.program_version = kVersion;
  record.stats = compute_stats(record.values);
  record.period = period;
  write_run_file(path, record);

  RunReport report;
  report.game = game;
  report.n = record.values.size();
  report.engine = record.engine;
  report.threads = omp_get_max_threads();
  report.seconds = seconds;
  report.stats = record.stats;
  report.period = period;
  report.file = path;
  report.peak_rss_bytes = peak_rss_bytes();

  if (!o.print.empty()) {
    auto [from, to] = print_range(o.print, record.values.size());
    std::string out;
    for (std::uint64_t i = from; i < to; ++i) {
      out += std::to_string(record.values[i]);
      out += '\n';
      if (out.size() > (1u << 16)) {
        std::cout << out;
        out.clear();
      }
    }
    std::cout << out;
  }
  if (o.json)
    std::cout << run_report_json(report) << "\n";
  else if (!o.quiet)
    std::cout << run_report_text(report);
  std::cout.flush();
  if (!std::cout) throw std::runtime_error("could not write to standard output");
  return cli::kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  return sgx::cli::run_tool(kTool, [&] { return run(argc, argv); });
}
