// run_octal: the nim-sequence of one heap game, its sparse-space statistics and its period; or,
// for wythoff and cut, the two-dimensional table G(a, b) and the additive period of every row.
//
// Long runs can be stopped and continued: the run file doubles as the checkpoint (docs/FORMAT.md).
// Values go to disk in segment files as they are computed; every --checkpoint-every seconds, and
// when SIGINT, SIGTERM or SIGUSR1 arrives, the values since the last checkpoint and the manifest,
// marked unfinished, are written; --resume continues from it. Every file is written whole and
// renamed into place, so even kill -9 in the middle of a write leaves the last checkpoint whole.
//
// The writing is done by a writer thread while the engine computes (RunSaver, run_saver.hpp):
// between engine steps the main thread starts the write that is due (a checkpoint, or the segments
// completed) when none is under way, and collects one that has finished, its error thrown on the
// main thread as if the write had been made there. The writer reads the engine's values where they are,
// without a copy; a PinnedValues keeps the storage it reads alive when the engine widens or
// outgrows it. Values are released under --memory only once a finished write has put them on
// disk. A stop signal, and the end of the run, wait for the write under way and then for a last
// checkpoint of their own.

#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <iostream>
#include <optional>
#include <vector>

#include "cli.hpp"
#include "file_lock.hpp"
#include "memory.hpp"
#include "output_file.hpp"
#include "processors.hpp"
#include "progress.hpp"
#include "run_saver.hpp"
#include "signals.hpp"
#include "sgx/bfile.hpp"
#include "sgx/engine.hpp"
#include "sgx/games.hpp"
#include "sgx/numbers.hpp"
#include "sgx/period.hpp"
#include "sgx/report.hpp"
#include "sgx/rules.hpp"
#include "sgx/stats.hpp"
#include "sgx/store.hpp"
#include "sgx/table2d.hpp"
#include "sgx/version.hpp"
#include "base/tuning.hpp"

namespace po = boost::program_options;

namespace {

using namespace sgx;
namespace fs = std::filesystem;

constexpr const char* kTool = "run_octal";
// Without --n: this many values first, then more (next_proof_target: doubling, or straight to
// what a period seen needs) until the period is proven or --max-n is reached.
constexpr std::uint64_t kDefaultN = std::uint64_t{1} << 20;
constexpr const char* kDefaultMaxN = "2^24";
// Five minutes: a killed run loses little, and writing costs little up to some 2^28 values (at
// 2^30 a checkpoint takes about 40 s: such runs do better with a longer interval).
constexpr const char* kDefaultCheckpointEvery = "300";
// A batch job's log gets a progress line a minute: enough to follow a run of days, few enough to read.
constexpr const char* kDefaultProgressEvery = "60";
// --memory: what the process needs besides the values, and the least limit accepted (tuning.hpp).
using tuning::kMemoryOverhead;
using tuning::kMinMemoryLimit;

const char* kUsage = R"(Usage: run_octal GAME [options]

Computes the nim-sequence G(0), G(1), ... of a heap game, its sparse-space statistics and its
period, and saves the values to an HDF5 file; or the table G(a, b) of a game of pairs.

GAME is a code or a name:
  0.137  .07  0.F7  4.07  8.0   octal / hexadecimal take-and-break codes (d0 in 0, 4, 8, C)
  4!.0                          '!' after a digit: split parts must be unequal (Grundy's game)
  0.[3]  4.[3]  0.3[1]          a bracketed tail repeats forever (Nim, Lasker's Nim)
  sub:1,3,4                     a finite subtraction game
  bash:3                        take 1 to M from a heap (the code 0.333)
  kayles dawson dawson-kayles treblecross grundy nim lasker
or a game of pairs, for its two-dimensional table G(a, b) and the additive period of each row
(G(a, b + p) = G(a, b) + s for b >= b0):
  wythoff                       two heaps: take from one, or the same from both (0 <= a, b < N,
                                default N = 1024)
  cut                           an a x b sheet cut along grid lines, no 1-wide strips
                                (2 <= a, b < N, default N = 256)
  A row's period is reported when the row shows it twice over plus one value, at least 16
  relations, in at least the last quarter of its N values. N is at most 16384; tables have no
  checkpoints, so --resume, --checkpoint-every, --engine, --no-shortcut and --max-n do not apply.

Examples:
  run_octal 0.137 --n 1e7            Dawson's chess to ten million; the period is proven early
  run_octal grundy --n 2^24 --json   Grundy's game, a JSON summary for scripts
  run_octal 0.007 --n 2^17 --engine sweep --out treblecross.h5
  run_octal 0.007 --n 2^18 --out treblecross.h5 --resume    continue that run to 2^18
  run_octal kayles --print=0:20      the first twenty values, one per line
  run_octal 0.137 --n 10000 --bfile b.txt    G(0..9999) as an OEIS b-file
  run_octal 0.376 --max-n 2^25       without --n: until the period is proven (here at 2^23)
  run_octal wythoff --n 1024         Wythoff's table, rows' periods, results/wythoff.h5
  run_octal cut --print=2:10         the cutting game's table, rows and columns 2..9

Bounded memory:
  --memory 8G keeps the process near that limit: once the values outgrow half of it, only a
  prefix and the last values are kept in memory, which is all the rare-value method reads; the
  others are released once they are on disk. It needs the sparse kernel and a game without
  repeating tails or three-heap splits. The mask no longer changes once values are released,
  and a period is no longer filled in as it is proven; the file still holds every value (--print,
  sg_period and sg_solve --from read them back, and the period analysis reads the released ones
  from it, so a preperiod among them is found and proven) and the rare-value state, and
  --resume (with --memory) continues it. If a heap ever needs a released value, the run stops
  with a checkpoint and says which; more memory is the only remedy.

Stopping and continuing:
  While it runs, the values so far are saved to the output file every --checkpoint-every
  seconds, and when it gets SIGINT (Ctrl-C), SIGTERM or SIGUSR1; it then exits with status 130,
  143 or 0 respectively. A second signal of the same kind ends it at once. --resume continues a
  stopped, killed or finished run from its file. Without --resume, an output file that holds a
  run (finished or not) or a table is refused (exit 1) unless --overwrite is given; a file of
  another program is never replaced. For Slurm, scripts/slurm/long_run.sbatch stops the run ahead
  of the time limit (early enough for its checkpoint), requeues the job and resumes.

Batch jobs:
  When stderr is not a terminal (a job's log), a plain progress line goes to it every
  --progress-every seconds and at each checkpoint: values done of the target, rate, time left,
  resident memory and the output file's size. While a run writes its file, OUT.lock beside it
  names the process (pid, host, start); a second run on the same file stops at once, and a lock
  left by a killed run is free again. Without --memory, a run of more values than the available
  memory holds (one byte each at least) is refused at its start, with the --memory to give; so is
  a --memory above the available memory that the run would grow into.

Options)";

struct Options {
  std::string game;
  std::string n_text;
  bool n_given = false;
  std::string max_n_text = kDefaultMaxN;
  bool max_n_given = false;
  int threads = 0;
  std::string out;
  bool resume = false;
  bool overwrite = false;
  std::string checkpoint_every_text = kDefaultCheckpointEvery;
  std::string progress_every_text = kDefaultProgressEvery;
  std::string engine = "auto";
  std::string memory_text;  // --memory, "" for no limit
  bool no_shortcut = false;
  std::string print;  // "" none, "all" or "A:B"
  bool json = false;
  bool profile = false;
  bool quiet = false;
  std::string bfile;  // --bfile, "" for none
  // Options that were given and only apply to heap games, e.g. "--engine".
  std::vector<std::string> heap_game_options;
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

// Seconds, possibly fractional (tests checkpoint many times a second), for option; 0 turns what
// it times off, as zero_means says.
double parse_seconds(const std::string& option, const std::string& text, const std::string& zero_means) {
  char* end = nullptr;
  const double seconds = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(seconds) || seconds < 0)
    throw cli::UsageError(option + " takes seconds such as 300 or 0.5 (0: " + zero_means + "), got '" + text + "'");
  return seconds;
}

std::string default_output_path(const std::string& canonical) { return "results/" + canonical + ".h5"; }

// Bytes the engine may spend on values under --memory LIMIT: a share of what the program leaves,
// the rest holding the checkpoint image or the period analysis (kValueMemoryShare, tuning.hpp).
std::uint64_t value_memory_for(std::uint64_t limit) { return (limit - kMemoryOverhead) / tuning::kValueMemoryShare; }

std::uint64_t parse_memory_limit(const std::string& text) {
  std::uint64_t limit = 0;
  try {
    limit = parse_bytes(text);
  } catch (const NumberError& e) {
    throw cli::UsageError(std::string("--memory: ") + e.what());
  }
  if (limit < kMinMemoryLimit)
    throw cli::UsageError("--memory " + text + " is too small: the program alone needs about " +
                          cli::bytes_text(kMemoryOverhead) + "; give at least " + cli::bytes_text(kMinMemoryLimit));
  return limit;
}

// G(A..B-1), one per line. Values a bounded run released from memory are read back from its
// file, which holds every value once the run is saved.
void print_values(const std::string& range, const Sequence& values, const std::string& path) {
  auto [from, to] = print_range(range, values.size());
  std::vector<Value> from_file;
  bool all_held = true;
  for (std::uint64_t i = from; i < to && all_held; ++i) all_held = values.holds(i);
  if (!all_held) from_file = read_run_values(path, from, to);
  std::string out;
  for (std::uint64_t i = from; i < to; ++i) {
    out += std::to_string(all_held ? values[i] : from_file[i - from]);
    out += '\n';
    if (out.size() > (1u << 16)) {
      std::cout << out;
      out.clear();
    }
  }
  std::cout << out;
}

// The command line; nothing when --help or --version was answered.
std::optional<Options> parse_options(int argc, char** argv) {
  Options o;
  po::options_description visible(kUsage);
  visible.add_options()
      ("n", po::value(&o.n_text), "number of values G(0..N-1): 1000000, 1e7, 2^30; for wythoff and cut, a, b < N")
      ("max-n", po::value(&o.max_n_text), "without --n: compute until the period is proven, or this many values (default 2^24)")
      ("threads", po::value(&o.threads), "threads to use (default or 0: all cores)")
      ("out", po::value(&o.out), "HDF5 file to write, or with --resume to continue (default results/GAME.h5)")
      ("resume", po::bool_switch(&o.resume), "continue the run in the output file up to --n (stored values are kept)")
      ("overwrite", po::bool_switch(&o.overwrite),
       "replace the run or table in the output file (without it, a file of sgx there is refused)")
      ("checkpoint-every", po::value(&o.checkpoint_every_text),
       "save the values so far every SECONDS while running (default 300; 0: only when stopped)")
      ("progress-every", po::value(&o.progress_every_text),
       "when stderr is no terminal (a batch log): a progress line every SECONDS and at each checkpoint (default 60; 0: only at checkpoints)")
      ("engine", po::value(&o.engine), "kernel: auto (default), sparse, sweep, naive")
      ("memory", po::value(&o.memory_text), "stay near LIMIT bytes (512M, 8G): keep only a prefix and a tail of the values")
      ("no-shortcut", po::bool_switch(&o.no_shortcut), "compute every value even after a period is proven")
      ("print", po::value(&o.print)->implicit_value("all"), "write G(n) to stdout, one per line; --print=A:B for G(A..B-1); for wythoff and cut, rows and columns A..B-1")
      ("profile", po::bool_switch(&o.profile),
       "time every parallel task: report the run's work and span, and the speedup they allow on 2..128 threads "
       "(with --threads P, P threads run even on fewer processors, so that the profile is of their decomposition)")
      ("json", po::bool_switch(&o.json), "print one JSON object instead of the text summary")
      ("bfile", po::value(&o.bfile)->value_name("FILE"), "also write the values as an OEIS b-file (\"n G(n)\" lines, G(0) first)")
      ("quiet", po::bool_switch(&o.quiet), "no summary and no status line (with --print: only the values)");
  po::variables_map vm;
  std::vector<std::string> words;
  if (!cli::parse_command_line(kTool, argc, argv, visible, vm, &words, 1)) return std::nullopt;
  if (words.empty()) throw cli::UsageError("no game given: e.g. run_octal 0.137 --n 1e7");
  o.game = words.front();
  o.n_given = vm.count("n") > 0;
  o.max_n_given = vm.count("max-n") > 0;
  for (const char* name : {"resume", "checkpoint-every", "progress-every", "engine", "no-shortcut", "max-n", "memory", "bfile"})
    if (vm.count(name) && !vm[name].defaulted()) o.heap_game_options.push_back(std::string("--") + name);
  if (o.threads < 0) throw cli::UsageError("--threads must not be negative (0, the default, uses all cores)");
  if (o.resume && o.overwrite)
    throw cli::UsageError("--resume continues the file and --overwrite replaces it: choose one");
  if (o.json && !o.print.empty()) throw cli::UsageError("--json and --print both write to stdout: choose one");
  return o;
}

// How the engine's work ended.
struct Outcome {
  bool stopped = false;     // by a stop signal, before target
  std::uint64_t target = 0; // the last n worked towards
  PeriodResult period;      // of the values computed, when not stopped
};

// Computes to n; without --n, on until the period is proven or max_n is reached
// (Engine::compute_until_proven), the status line saying what it waits for. analyze_released: the
// period analysis of a run whose middle was released (target: the n worked towards, for the
// checkpoint that puts every value in the file first).
Outcome compute(Engine& engine, const Rules& rules, std::uint64_t n, bool n_given, std::uint64_t max_n,
                std::uint64_t analysis_window, const std::function<PeriodResult(std::uint64_t target)>& analyze_released,
                const ProgressCallback& progress) {
  Outcome outcome;
  outcome.target = n_given ? n : std::max(n, max_n);
  outcome.stopped = !(n_given ? engine.compute_to(n, progress) || engine.values().size() >= n
                              : engine.compute_until_proven(n, outcome.target, progress));
  if (outcome.stopped) return outcome;
  // A run until proven that looked at its last value (in memory, or through its file) has its
  // analysis already.
  if (!n_given && engine.last_period().checked_n == engine.values().size())
    outcome.period = engine.last_period();
  else if (engine.values().has_released())
    outcome.period = analyze_released(outcome.target);
  else if (!n_given)
    outcome.period = engine.last_period();
  else
    outcome.period = analyze_period(engine.values(), rules, analysis_window);
  return outcome;
}

void print_results(const Options& o, const RunReport& report, const Sequence& values) {
  if (!o.print.empty()) print_values(o.print, values, report.file);
  if (o.json)
    std::cout << json_text(run_report_json(report)) << "\n";
  else if (!o.quiet)
    std::cout << run_report_text(report);
  std::cout.flush();
  if (!std::cout) throw std::runtime_error("could not write to standard output");
}

// ---- Two-dimensional tables (wythoff, cut) ----

// Without --n: quick, and enough rows found periodic to be worth a look.
std::uint64_t default_table_n(GameKind game) { return game == GameKind::Wythoff ? 1024 : 256; }

// --print for a table: rows and columns A..B-1 (A defaults to the table's origin), or all.
std::pair<std::uint64_t, std::uint64_t> table_print_range(const std::string& text, GameKind game, std::uint64_t n) {
  const std::uint64_t origin = table_origin(game);
  if (text == "all") return {origin, n};
  auto colon = text.find(':');
  if (colon == std::string::npos) throw cli::UsageError("--print takes a range A:B such as 0:16, got '" + text + "'");
  const std::string a = text.substr(0, colon), b = text.substr(colon + 1);
  const std::uint64_t from = a.empty() ? origin : parse_whole(a);
  const std::uint64_t to = b.empty() ? n : parse_whole(b);
  if (from < origin)
    throw cli::UsageError("--print range " + text + " starts below " + std::to_string(origin) +
                          ": the table of the cutting game starts at 2 x 2 sheets");
  if (from >= to) throw cli::UsageError("--print range " + text + " is empty: A must be below B");
  if (to > n) throw cli::UsageError("--print range " + text + " reaches past the table, which ends below " + std::to_string(n));
  return {from, to};
}

// Rows A..B-1 of the table, columns A..B-1, one row a line, values separated by spaces.
void print_table(const std::string& range, const GameTable& table) {
  const auto [from, to] = table_print_range(range, table.game(), table.n());
  std::string out;
  for (std::uint64_t a = from; a < to; ++a) {
    for (std::uint64_t b = from; b < to; ++b) out.append(b > from ? " " : "").append(std::to_string(table.at(a, b)));
    out += '\n';
    if (out.size() > (1u << 16)) {
      std::cout << out;
      out.clear();
    }
  }
  std::cout << out;
}

// run_octal wythoff / cut: the table, its rows' periods, the file, the report.
int run_table(GameKind game, const Options& o) {
  const std::string name = game_kind_name(game);
  if (!o.heap_game_options.empty()) {
    const std::string& option = o.heap_game_options.front();
    if (option == "--resume")
      throw cli::UsageError("--resume: the two-dimensional table of " + name +
                            " has no checkpoints to continue; compute it again without --resume");
    throw cli::UsageError(option + " applies to heap games only, not to the two-dimensional table of " + name);
  }
  const std::uint64_t n = o.n_given ? cli::parse_n("n", o.n_text) : default_table_n(game);
  try {
    check_table_n(game, n);
  } catch (const TableSizeError& e) {
    throw cli::UsageError(std::string("--n: ") + e.what());
  }
  if (!o.print.empty()) table_print_range(o.print, game, n);  // check the range before the work
  const std::string path = o.out.empty() ? default_output_path(name) : o.out;
  if (o.out.empty()) fs::create_directories("results");
  check_can_write(path);
  const cli::FileLock lock(path);
  cli::refuse_to_replace(path, {name, true}, o.overwrite);

  const auto start = std::chrono::steady_clock::now();
  cli::StatusLine status(!o.quiet);
  TableRecord record{compute_table(game, n, o.threads,
                                   [&status](std::uint64_t done, std::uint64_t total) { status.update_cells(done, total); }),
                     {}, kVersion};
  record.rows = analyze_rows(record.table, o.threads);
  status.finish();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  try {
    write_table_file(path, record);
  } catch (const StoreError& e) {
    throw StoreError(std::string(e.what()) + "; the table was not saved");
  }

  TableReport report;
  report.game = name;
  report.n = n;
  report.origin = record.table.origin();
  report.max_value = record.table.max_value();
  report.rows = record.rows;
  report.seconds = seconds;
  report.threads = o.threads > 0 ? o.threads : omp_get_max_threads();
  report.file = path;
  report.peak_rss_bytes = peak_rss_bytes();
  if (!o.print.empty()) print_table(o.print, record.table);
  if (o.json)
    std::cout << json_text(table_report_json(report)) << "\n";
  else if (!o.quiet)
    std::cout << table_report_text(report, cli::kJsonListsEveryRow);
  std::cout.flush();
  if (!std::cout) throw std::runtime_error("could not write to standard output");
  return cli::kExitOk;
}

int run(int argc, char** argv) {
  std::optional<Options> parsed = parse_options(argc, argv);
  if (!parsed) return cli::kExitOk;
  parsed->threads = parsed->profile ? cli::threads_to_profile(kTool, parsed->threads, parsed->quiet)
                                    : cli::threads_to_use(kTool, parsed->threads, parsed->quiet);
  const Options& o = *parsed;
  const Game parsed_game = parse_game(o.game);
  if (has_table(parsed_game.kind)) return run_table(parsed_game.kind, o);
  if (!parsed_game.rules)
    throw cli::UsageError(parsed_game.name + " has no nim-sequence or table to compute; sg_solve solves its positions");

  const Rules& rules = *parsed_game.rules;
  const std::string game = rules.canonical();
  const std::uint64_t max_n = cli::parse_n("max-n", o.max_n_text);
  std::uint64_t n = o.n_given ? cli::parse_n("n", o.n_text) : std::min(kDefaultN, max_n);
  bool n_fixed = o.n_given;  // compute exactly n values, else until proven (up to max_n)
  const double checkpoint_every = parse_seconds("--checkpoint-every", o.checkpoint_every_text, "only when stopped");
  const double progress_every = parse_seconds("--progress-every", o.progress_every_text, "only at checkpoints");
  const std::uint64_t memory_limit = o.memory_text.empty() ? 0 : parse_memory_limit(o.memory_text);
  KernelKind kernel;
  try {
    kernel = parse_kernel_kind(o.engine);
  } catch (const std::invalid_argument& e) {
    throw cli::UsageError(std::string("--engine: ") + e.what());
  }
  const std::string path = o.out.empty() ? default_output_path(game) : o.out;
  // From here on a stop signal is only recorded: the run stops at the first engine step, and the
  // file is never left half-written.
  cli::StopSignals signals;
  // Requests that cannot be met are refused before anything is written; a resumed run's n is
  // known once its file is read.
  auto check_request = [&] {
    if (memory_limit == 0)
      cli::check_values_fit_in_memory(n, kMemoryOverhead, kMinMemoryLimit);
    else
      cli::check_memory_limit_available(memory_limit, o.memory_text, n + kMemoryOverhead);
    if (!o.print.empty()) print_range(o.print, n);
  };
  std::error_code error;
  if (!o.resume)
    check_request();
  else if (!fs::exists(cli::lock_path_for(path), error))  // else a run may be starting on it: named below
    cli::refuse_missing_run(path);
  if (o.out.empty()) fs::create_directories("results");
  check_can_write(path);  // fail now, not at the first checkpoint
  const cli::FileLock lock(path);  // from before the stored run is read to the end: one writer

  RunRecord stored;
  stored.game = game;
  if (o.resume) {
    stored = cli::load_run_to_resume(path, game);
    // Stored values are never dropped. Without --n an unfinished run keeps its target, and a
    // finished one stays as it is (a look) unless --max-n asks for a longer search for its period.
    if (!o.n_given && !stored.complete) n = std::max(n, stored.target_n);
    if (!o.n_given && stored.complete && !o.max_n_given) {
      n = stored.values.size();
      n_fixed = true;
    }
    n = std::max(n, stored.values.size());
    if (stored.values.has_released() && memory_limit == 0)
      throw cli::UsageError(path + " holds a run computed with --memory (only " + stored.values.kept_text() +
                            " are kept): continue it with --memory");
    check_request();
  } else {
    cli::refuse_to_replace(path, {game, false}, o.overwrite);
  }
  if (!o.bfile.empty()) check_can_write(o.bfile);

  const auto start = std::chrono::steady_clock::now();
  const std::uint64_t stored_n = stored.values.size();
  cli::RunSaver saver(path, static_cast<const RunInfo&>(stored), o.resume, checkpoint_every,
                 stretch_starting(command_line(argc, argv), o.threads, stored_n));
  if (!o.bfile.empty() && !saver.holds_every_value())
    throw cli::UsageError("--bfile lists every value, and " + path + " (format version 2) keeps none of the values " +
                          "its --memory released: run it again without --resume to have them");
  EngineOptions engine_options{kernel, o.threads, !o.no_shortcut};
  engine_options.profile = o.profile;
  if (memory_limit > 0) engine_options.value_memory = value_memory_for(memory_limit);
  // Under --memory the analysis window is bounded too (tuning.hpp says how).
  engine_options.period_window =
      memory_limit > 0 ? std::min(kPeriodWindow, engine_options.value_memory / tuning::kAnalysisMemoryShare)
                       : kPeriodWindow;
  std::optional<Engine> engine_holder;
  try {
    engine_holder.emplace(rules, engine_options, std::move(stored.values), std::move(stored.sparse_state));
  } catch (const std::invalid_argument& e) {
    throw cli::UsageError(std::string("--memory: ") + e.what());
  }
  Engine& engine = *engine_holder;
  engine.set_release_limit(saver.release_limit());
  if (engine.values().has_released() && stored.period.proven) engine.continue_period(stored.period);
  // With the middle released, the analysis reads those values back from the file, once a
  // checkpoint has put every value there; the values kept are read from memory.
  const ValueReader read_released = run_file_reader(path);
  auto analyze_released = [&](std::uint64_t target) {
    if (!saver.holds_every_value()) return engine.proven_period().value_or(PeriodResult{});
    saver.checkpoint(engine, target);
    return analyze_period(engine.values(), read_released, rules, engine_options.period_window);
  };
  // Until proven, once values are released, the engine's looks read them back the same way: the
  // checkpoint first leaves the file complete and the writer thread idle (HDF5 is not thread-safe).
  if (!n_fixed)
    engine.set_released_look([&] { return analyze_released(std::max(n, max_n)); });
  cli::StatusLine status(!o.quiet);
  cli::ProgressLog log(kTool, !o.quiet, progress_every, path, stored_n);
  auto progress = [&](const Progress& p) {
    // Until proven: once the engine has looked, what it waits for.
    if (!n_fixed && engine.last_period().checked_n > 0) {
      status.set_note(proof_wait_text(engine.last_period()));
      log.set_note(proof_wait_text(engine.last_period()));
    }
    status.update(p);
    if (signals.received()) return false;
    if (saver.keep_up(engine, p.target))
      log.checkpoint(p, saver.saved_n());
    else
      log.update(p);
    return true;
  };
  Outcome outcome;
  try {
    outcome = compute(engine, rules, n, n_fixed, max_n, engine_options.period_window, analyze_released, progress);
  } catch (const MemoryReachError& e) {
    status.finish();
    saver.checkpoint(engine, n);
    std::cerr << kTool << ": stopped at n = " << engine.values().size() << ": " << e.what() << "; checkpoint written to "
              << path << " (its values are right, but resuming cannot bring the released ones back: run again with a "
              << "larger --memory)\n";
    return cli::kExitFailure;
  }
  status.finish();

  if (outcome.stopped) {
    const int signal = signals.received();
    saver.checkpoint(engine, outcome.target);
    std::cerr << kTool << ": stopped by " << cli::signal_name(signal) << " at n = " << engine.values().size()
              << " of " << outcome.target << "; checkpoint written to " << path << "; continue with --resume\n";
    return cli::exit_code_after_stop(signal);
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  const Sequence& values = engine.values();
  RunInfo info = saver.info_for(engine);
  info.complete = true;
  info.stats = saver.final_stats(engine);
  info.period = outcome.period;
  // A finished run that this sitting did not extend stays as it is, byte for byte.
  if (!(stored.complete && o.resume && !saver.computed_any(engine))) saver.finish(info, values);
  // A bounded run's released values are read back from its file, where the last save put them.
  if (!o.bfile.empty())
    write_bfile(o.bfile, game, values.size(), held_or_released(values, read_released), std::string(kTool) + " " + kVersion);

  RunReport report;
  report.game = game;
  report.n = values.size();
  report.engine = info.engine;
  report.threads = omp_get_max_threads();
  report.seconds = seconds;
  report.stats = info.stats;
  report.period = outcome.period;
  report.file = path;
  report.bfile = o.bfile;
  report.peak_rss_bytes = peak_rss_bytes();
  if (o.profile) report.profile = engine.work_span();
  report.memory_limit_bytes = memory_limit;
  if (saver.computed_any(engine)) report.provenance = info.provenance.back();
  if (values.has_released()) {
    report.kept_prefix = values.prefix_end();
    report.tail_start = values.tail_start();
  }
  print_results(o, report, values);
  return cli::kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  sgx::cli::choose_openmp_waits(argv);
  return sgx::cli::run_tool(kTool, [&] { return run(argc, argv); });
}
