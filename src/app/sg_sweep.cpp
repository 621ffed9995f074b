// sg_sweep: many games in one batch, one table row per game; across an MPI job when built with MPI.

#include <unistd.h>

#include <boost/program_options.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <optional>

#include "cli.hpp"
#include "file_lock.hpp"
#include "openmp_waits.hpp"
#include "output_file.hpp"
#include "processors.hpp"
#include "signals.hpp"
#include "sgx/games.hpp"
#include "sgx/report.hpp"
#include "sgx/store.hpp"
#include "sgx/sweep.hpp"
#include "sgx/sweep_table.hpp"
#include "sweep_cluster.hpp"

namespace po = boost::program_options;

namespace {

using namespace sgx;

constexpr const char* kTool = "sg_sweep";
constexpr const char* kDefaultMaxN = "2^20";

const char* kUsage = R"(Usage: sg_sweep --codes PATTERN|FILE [--n N | --until-proven [--max-n N] [--max-seconds S]] [options]

Computes every game of a batch and prints one table row per game: n, period, preperiod, saltus,
proven (and the theorem), the values a proof needs, largest value (first at), rare mask, rare
count, last rare position, what stopped an unproven game (max-n or max-seconds), a game of the
batch it is equivalent to, and the seconds it took.

Until proven (the default without --n), each game starts at 2^12 values and goes on until its
period is proven or --max-n values are computed, looking for the period at twice the last size or
at once at what the proof of a period seen needs. --max-seconds caps the processor time of a game
(all its threads) in one sitting, but only of a game without a sparse space (it runs the sweep kernel, or more than
1/256 of its positions are rare and they still come in the second half of its values): such games
cost about n^2, while sparse games go on to --max-n.

Long games: with --runs DIR each game keeps its run file DIR/GAME.h5 (run_octal's format), saved
every --checkpoint-every seconds; with --resume a game whose file exists continues from it (stderr
says from where, and --json gives resumed_from), so a killed sweep loses little of a long game. A
finished game's file holds its values for sg_period, run_octal --print and plots. With --out the
rows go to a CSV file as games finish, so a killed sweep loses only the games in progress and
--resume goes on. Without --resume, a table at --out or a run file of a game in --runs is refused
(exit 1) unless --overwrite is given, which replaces them. One sweep writes a table at a time: a
second one on the same --out stops at once, naming the first (TABLE.csv.lock beside the table
says who holds it). In a log (stderr not a terminal) a line goes out every --progress-every seconds,
as a game finishes or while one runs (with 0, a line per finished game). SIGINT or SIGTERM ends the game in progress with a
checkpoint of its run file (with --runs), says how far the sweep got, and --resume goes on.

PATTERN stands for many codes: '?' is any octal digit 0-7, [0-3] or [137] a class of digits;
FILE (when a file of that name exists) lists one game per line, '#' starting a comment.

Built with MPI, 'mpirun -np K sg_sweep ...' spreads the games over K ranks: rank 0 hands out one
game at a time and writes the rows, the other ranks compute. The table is the same either way.

Examples:
  sg_sweep --codes '0.??' --n 4096                   all two-digit octal games, 4096 values each
  sg_sweep --codes '0.[0-3]?7' --out t.csv           until proven (or 2^20 values), rows in t.csv
  sg_sweep --codes '0.???' --max-n 2^25 --max-seconds 60 --runs runs/ --out t.csv
                                                     long games, each in its run file runs/GAME.h5
  sg_sweep --codes '0.???' --out t.csv --resume      go on with a sweep that was stopped
  sg_sweep --codes games.txt --n 1e5 --json          one JSON object per game
  mpirun -np 8 sg_sweep --codes '4.??' --out t.csv   across an MPI job

Options)";

struct Options {
  std::string codes;
  std::string n_text;
  bool until_proven = false;
  std::string max_n_text = kDefaultMaxN;
  std::string max_seconds_text;
  std::string runs;
  std::string checkpoint_every_text = "60";
  std::string progress_every_text = "60";
  std::string out;
  bool resume = false;
  bool overwrite = false;
  bool json = false;
  bool quiet = false;
  int threads = 0;
};

// How far games go: --n exactly, else until proven up to --max-n (the default when --n is absent).
SweepSettings settings_of(const Options& o, const po::variables_map& vm) {
  SweepSettings settings;
  settings.threads = cli::threads_to_use(kTool, o.threads, o.quiet);
  settings.runs = o.runs;
  settings.replace_runs = o.overwrite;
  settings.checkpoint_every = cli::parse_seconds("--checkpoint-every", o.checkpoint_every_text, "only when a game ends");
  if (vm.count("n")) {
    if (o.until_proven) throw cli::UsageError("--n and --until-proven: choose one");
    for (const char* name : {"max-n", "max-seconds"})
      if (vm.count(name)) throw cli::UsageError(std::string("--") + name + " goes with --until-proven, not with --n");
    settings.n = cli::parse_n("n", o.n_text);
    return settings;
  }
  settings.until_proven = true;
  settings.cap = cli::parse_n("max-n", o.max_n_text);
  if (!o.max_seconds_text.empty()) settings.max_seconds = cli::parse_seconds("--max-seconds", o.max_seconds_text, "no limit");
  return settings;
}

// Progress on stderr while the sweep runs: on a terminal, "k/N games" redrawn on one line; in a
// log (stderr not a terminal), a plain line at most every every_seconds, when a game finishes or
// while one runs (so that a long game is not silent), or with 0 a line per finished game.
class SweepStatus {
 public:
  SweepStatus(bool wanted, std::size_t total, std::size_t done, double every_seconds)
      : terminal_(wanted && isatty(STDERR_FILENO)),
        log_(wanted && !terminal_),
        total_(total),
        done_(done),
        every_seconds_(every_seconds),
        last_line_(std::chrono::steady_clock::now()) {}
  void finished(const SweepRow& row) {
    ++done_;
    if (terminal_) {
      std::fprintf(stderr, "\r\033[K %zu/%zu games, last %s (%.3f s)", done_, total_, row.game.c_str(), row.seconds);
    } else if (log_ && due()) {
      std::fprintf(stderr, "%s: %s %zu/%zu games: %s, %llu values in %.3f s, %s\n", kTool, cli::utc_now_text().c_str(),
                   done_, total_, row.game.c_str(), static_cast<unsigned long long>(row.n), row.seconds,
                   row.period.found ? period_text(row.period).c_str() : "no period found");
    }
    std::fflush(stderr);
  }
  // After each engine step of a game: a line in a log when every_seconds have passed.
  void step(const std::string& game, const Progress& progress) {
    if (!log_ || every_seconds_ <= 0 || !due()) return;
    std::fprintf(stderr, "%s: %s %zu/%zu games done; %s at n %llu/%llu, largest %u, rare %llu\n", kTool,
                 cli::utc_now_text().c_str(), done_, total_, game.c_str(), static_cast<unsigned long long>(progress.n),
                 static_cast<unsigned long long>(progress.target), progress.max_value,
                 static_cast<unsigned long long>(progress.rare_count));
    std::fflush(stderr);
  }
  std::size_t done() const { return done_; }
  ~SweepStatus() {
    if (terminal_) std::fprintf(stderr, "\r\033[K");
  }

 private:
  // Whether a log line is due (every_seconds since the last; with 0, always), and if so starts
  // the clock of the next.
  bool due() {
    const auto now = std::chrono::steady_clock::now();
    if (every_seconds_ > 0 && std::chrono::duration<double>(now - last_line_).count() < every_seconds_) return false;
    last_line_ = now;
    return true;
  }

  bool terminal_, log_;
  std::size_t total_, done_;
  double every_seconds_;
  std::chrono::steady_clock::time_point last_line_;
};

// Opens the table at --out for the job; a file that cannot serve it is refused with the options
// that would fit it.
void open_table(std::optional<SweepTable>& table, const Options& o, const cli::SweepJob& job) {
  const ExistingTable existing =
      o.resume ? ExistingTable::Resume : o.overwrite ? ExistingTable::Replace : ExistingTable::Refuse;
  try {
    table.emplace(o.out, game_texts(job.games), job.settings, existing);
  } catch (const SweepTableExistsError& e) {
    throw cli::ExistingOutputError(std::string(e.what()) +
                                   ": continue that sweep with --resume, or replace it with --overwrite");
  } catch (const SweepTableOtherGameError& e) {
    throw cli::UsageError(std::string(e.what()) + ": give the same --codes, or another --out");
  } catch (const SweepTableOtherSettingsError& e) {
    throw cli::UsageError(std::string(e.what()) + ": resume with the --n (or --max-n) it was made with");
  }
}

// Rows of every game, in sweep order and marked, computed across the cluster; nothing when a stop
// signal ended the sweep in a game (its message printed): the finished games' rows are in --out,
// and the game's run file in --runs keeps a checkpoint.
std::optional<std::vector<SweepRow>> sweep(const Options& o, cli::SweepJob job, cli::Cluster& cluster,
                                           const cli::StopSignals& signals) {
  std::optional<cli::FileLock> lock;  // one sweep writes a table at a time
  std::optional<SweepTable> table;
  std::vector<SweepRow> rows(job.games.size());
  std::vector<std::size_t> pending;
  if (o.out.empty()) {
    for (std::size_t i = 0; i < job.games.size(); ++i) pending.push_back(i);
  } else {
    lock.emplace(o.out);
    open_table(table, o, job);
    pending = table->pending();
    if (o.resume && !o.quiet)
      std::cerr << kTool << ": " << o.out << " has " << table->resumed_rows() << " of " << job.games.size()
                << " games" << (table->dropped_partial_line() ? " (a row cut short was dropped)" : "") << "; "
                << pending.size() << " to go\n";
  }
  std::optional<SweepStatus> status;
  status.emplace(!o.quiet, job.games.size(), job.games.size() - pending.size(),
                 cli::parse_seconds("--progress-every", o.progress_every_text, "only per game"));
  job.settings.on_step = [&status](const std::string& game, const Progress& progress) { status->step(game, progress); };
  job.settings.stop_requested = [&signals] { return signals.received() != 0; };
  try {
    cluster.run(job, pending, [&](std::size_t index, const SweepRow& row) {
      if (row.resumed_from > 0 && !o.quiet)
        std::cerr << kTool << ": " << row.game << " continued from " << game_run_path(o.runs, row.game) << " at n = "
                  << row.resumed_from << "\n";
      if (table)
        table->append(index, row);
      else
        rows[index] = row;
      status->finished(row);
    });
  } catch (const SweepStopped& stopped) {
    const std::size_t done = status->done();
    status.reset();  // the terminal's line erased before the message
    std::cerr << kTool << ": stopped by " << cli::signal_name(signals.received()) << " in " << stopped.game()
              << " at n = " << stopped.n() << ", " << done << " of " << job.games.size() << " games finished";
    if (!o.out.empty()) std::cerr << " (their rows are in " << o.out << ")";
    if (!o.runs.empty()) std::cerr << "; " << game_run_path(o.runs, stopped.game()) << " keeps a checkpoint";
    std::cerr << (o.out.empty() && o.runs.empty() ? "\n" : "; continue with --resume\n");
    return std::nullopt;
  }
  status.reset();
  if (table) return table->finish();
  mark_equivalent_games(rows);
  return rows;
}

// Without --resume, before anything is written: no game of the batch may find a run file of sgx in
// --runs unless --overwrite replaces it (the sweep would otherwise go on with it unasked), and a
// file there that is not of sgx is never replaced.
void refuse_to_replace_runs(const Options& o, const std::vector<SweepGame>& games) {
  for (const SweepGame& game : games)
    cli::refuse_to_replace(game_run_path(o.runs, game.text), {game.rules.canonical(), false, "--runs"}, o.overwrite);
}

int run(int argc, char** argv, cli::Cluster& cluster) {
  Options o;
  po::options_description visible(kUsage);
  visible.add_options()
      ("codes", po::value(&o.codes), "the games: a pattern such as 0.?? or 4.[0-3]?, or a file with one game per line")
      ("n", po::value(&o.n_text), "compute exactly N values of every game: 4096, 1e6, 2^20")
      ("until-proven", po::bool_switch(&o.until_proven), "from 2^12 values on until the period is proven (the default)")
      ("max-n", po::value(&o.max_n_text), "until proven: at most this many values per game (default 2^20)")
      ("max-seconds", po::value(&o.max_seconds_text),
       "until proven: stop a game without a sparse space after SECONDS of processor time (default: no limit)")
      ("runs", po::value(&o.runs), "directory of one run file per game (DIR/GAME.h5), continued when it exists")
      ("checkpoint-every", po::value(&o.checkpoint_every_text), "with --runs: save each game's run file every SECONDS (default 60)")
      ("progress-every", po::value(&o.progress_every_text),
       "when stderr is no terminal (a batch log): a line at most every SECONDS, as a game finishes or while one runs "
       "(default 60; 0: a line per finished game)")
      ("out", po::value(&o.out), "CSV file the rows are written to as games finish")
      ("resume", po::bool_switch(&o.resume),
       "continue the sweep in --out (finished games are kept, not redone) and the games' run files in --runs")
      ("overwrite", po::bool_switch(&o.overwrite), "replace the table in --out and the games' run files in --runs")
      ("json", po::bool_switch(&o.json), "print one JSON object per game instead of the Markdown table")
      ("threads", po::value(&o.threads), "OpenMP threads per game, on every rank (default or 0: all cores)")
      ("quiet", po::bool_switch(&o.quiet), "print nothing: no table and no status line (the rows are in --out)");
  po::variables_map vm;
  if (!cli::parse_command_line(kTool, argc, argv, visible, vm)) return cli::kExitOk;
  if (o.codes.empty()) throw cli::UsageError("no games given: e.g. sg_sweep --codes '0.?\?' --n 4096");
  if (o.threads < 0) throw cli::UsageError("--threads must not be negative (0, the default, uses all cores)");
  if (o.resume && o.out.empty() && o.runs.empty())
    throw cli::UsageError("--resume needs --out TABLE.csv or --runs DIR: the sweep to continue");
  if (o.resume && o.overwrite)
    throw cli::UsageError("--resume continues the sweep and --overwrite replaces its files: choose one");
  if (o.overwrite && o.out.empty() && o.runs.empty())
    throw cli::UsageError("--overwrite replaces the table in --out and the run files in --runs: give one of them");
  if (o.json && o.quiet) throw cli::UsageError("--json and --quiet: choose one");
  if (!o.runs.empty()) {
    std::error_code error;
    std::filesystem::create_directories(o.runs, error);
    if (error || !std::filesystem::is_directory(o.runs))
      throw cli::UsageError("--runs " + o.runs + " is not a directory that can be made: give another");
    check_can_write(game_run_path(o.runs, "check"));
  }

  cli::SweepJob job{games_of(o.codes), settings_of(o, vm)};
  job.settings.command = command_line(argc, argv);
  if (!o.runs.empty() && !o.resume) refuse_to_replace_runs(o, job.games);
  const cli::StopSignals signals;
  const std::optional<std::vector<SweepRow>> swept = sweep(o, job, cluster, signals);
  if (!swept) return cli::exit_code_after_stop(signals.received());
  const std::vector<SweepRow>& rows = *swept;
  if (o.json) {
    for (const SweepRow& row : rows) std::cout << json_text(sweep_row_json(row)) << "\n";
  } else if (!o.quiet) {
    std::cout << markdown_table(rows);
  }
  std::cout.flush();
  if (!std::cout) throw std::runtime_error("could not write to standard output");
  return cli::kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  sgx::cli::choose_openmp_waits(argv);
  sgx::cli::Cluster cluster(argc, argv);
  if (!cluster.is_master()) return cluster.serve();
  const int code = sgx::cli::run_tool(kTool, [&] { return run(argc, argv, cluster); });
  cluster.finish(code);
  return code;
}
