// run_octal: the nim-sequence of one heap game, its sparse-space statistics and its period; or,
// for wythoff and cut, the two-dimensional table G(a, b) and the additive period of every row.
//
// Long runs can be stopped and continued: the run file doubles as the checkpoint (docs/FORMAT.md).
// The library's RunSession (sgx/run_session.hpp) computes and saves the run as it goes; this file
// turns the options into its goal, its stop requests into SIGINT, SIGTERM and SIGUSR1, and its
// results and errors into the report, the exit code and advice in terms of the options.

#include <omp.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <optional>
#include <vector>

#include "cli.hpp"
#include "file_lock.hpp"
#include "memory.hpp"
#include "openmp_waits.hpp"
#include "output_file.hpp"
#include "processors.hpp"
#include "progress.hpp"
#include "signals.hpp"
#include "sgx/bfile.hpp"
#include "sgx/engine.hpp"
#include "sgx/games.hpp"
#include "sgx/numbers.hpp"
#include "sgx/period.hpp"
#include "sgx/report.hpp"
#include "sgx/run_session.hpp"
#include "sgx/rules.hpp"
#include "sgx/stats.hpp"
#include "sgx/store.hpp"
#include "sgx/table2d.hpp"
#include "sgx/version.hpp"

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

std::string default_output_path(const std::string& canonical) { return "results/" + canonical + ".h5"; }

// G(A..B-1), one per line. Values a bounded run released from memory are read back from its
// file, which holds every value once the run is saved.
void print_values(const std::string& range, const Sequence& values, const std::string& path) {
  const auto [from, to] = print_range(range, values.size());
  std::vector<Value> block(std::min<std::uint64_t>(to - from, std::uint64_t{1} << 16));
  const ValueReader read = held_or_released(values, run_file_reader(path));
  for (std::uint64_t start = from; start < to; start += block.size()) {
    const std::uint64_t end = std::min<std::uint64_t>(to, start + block.size());
    read(start, end, block.data());
    std::string out;
    for (std::uint64_t i = start; i < end; ++i) out.append(std::to_string(block[i - start])).append("\n");
    std::cout << out;
  }
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
  const double checkpoint_every =
      cli::parse_seconds("--checkpoint-every", o.checkpoint_every_text, "only when stopped");
  const double progress_every = cli::parse_seconds("--progress-every", o.progress_every_text, "only at checkpoints");
  const std::uint64_t memory_limit = o.memory_text.empty() ? 0 : cli::parse_memory_limit(o.memory_text);
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
    cli::check_run_fits_in_memory(n, memory_limit, o.memory_text);
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

  const std::uint64_t stored_n = stored.values.size();
  cli::StatusLine status(!o.quiet);
  cli::ProgressLog log(kTool, !o.quiet, progress_every, path, stored_n);
  std::optional<RunSession> session_holder;
  RunSessionOptions session_options{EngineOptions{kernel, o.threads, !o.no_shortcut}, memory_limit, path,
                                    checkpoint_every, command_line(argc, argv),
                                    [&signals] { return signals.received() != 0; }, {}};
  session_options.engine.profile = o.profile;
  session_options.on_step = [&](const Progress& p, bool checkpointed) {
    // Until proven: once the engine has looked, what it waits for.
    const PeriodResult& look = session_holder->engine().last_period();
    if (!n_fixed && look.checked_n > 0) {
      status.set_note(proof_wait_text(look));
      log.set_note(proof_wait_text(look));
    }
    status.update(p);
    if (checkpointed)
      log.checkpoint(p, session_holder->saved_n());
    else
      log.update(p);
  };
  try {
    session_holder.emplace(rules, std::move(stored), o.resume, std::move(session_options));
  } catch (const std::invalid_argument& e) {
    throw cli::UsageError(std::string("--memory: ") + e.what());
  }
  RunSession& session = *session_holder;
  if (!o.bfile.empty() && !session.holds_every_value())
    throw cli::UsageError("--bfile lists every value, and " + path + " (format version 2) keeps none of the values " +
                          "its --memory released: run it again without --resume to have them");
  RunResult result;
  try {
    result = session.run(RunGoal{n, !n_fixed, max_n, {}});
  } catch (const MemoryReachError& e) {
    status.finish();
    std::cerr << kTool << ": stopped at n = " << session.values().size() << ": " << e.what()
              << "; checkpoint written to " << path << " (its values are right, but resuming cannot bring the "
              << "released ones back: run again with a larger --memory)\n";
    return cli::kExitFailure;
  }
  status.finish();
  if (result.stopped) {
    const int signal = signals.received();
    std::cerr << kTool << ": stopped by " << cli::signal_name(signal) << " at n = " << session.values().size()
              << " of " << result.target << "; checkpoint written to " << path << "; continue with --resume\n";
    return cli::exit_code_after_stop(signal);
  }
  const Sequence& values = session.values();
  log.finish(values.size(), result.info.stats);
  // A bounded run's released values are read back from its file, where the last save put them.
  if (!o.bfile.empty())
    write_bfile(o.bfile, game, values.size(), held_or_released(values, run_file_reader(path)),
                std::string(kTool) + " " + kVersion);

  RunReport report = run_report(session, result);
  report.bfile = o.bfile;
  if (!o.print.empty()) print_values(o.print, values, path);
  if (o.json)
    std::cout << json_text(run_report_json(report)) << "\n";
  else if (!o.quiet)
    std::cout << run_report_text(report);
  std::cout.flush();
  if (!std::cout) throw std::runtime_error("could not write to standard output");
  return cli::kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  sgx::cli::choose_openmp_waits(argv);
  return sgx::cli::run_tool(kTool, [&] { return run(argc, argv); });
}
