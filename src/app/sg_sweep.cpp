// sg_sweep: many games in one batch, one table row per game; across an MPI job when built with MPI.

#include <unistd.h>

#include <boost/program_options.hpp>
#include <cstdio>
#include <iostream>
#include <optional>

#include "cli.hpp"
#include "file_lock.hpp"
#include "sgx/sweep.hpp"
#include "sgx/sweep_table.hpp"
#include "sweep_cluster.hpp"

namespace po = boost::program_options;

namespace {

using namespace sgx;

constexpr const char* kTool = "sg_sweep";
constexpr const char* kDefaultCap = "2^20";

const char* kUsage = R"(Usage: sg_sweep --codes PATTERN|FILE [--n N | --until-proven [--cap N]] [options]

Computes every game of a batch and prints one table row per game: n, period, preperiod, saltus,
proven (and the theorem), largest value (first at), rare mask, rare count, last rare position, a
game of the batch it is equivalent to, and the seconds it took. With --out the rows go to a CSV
file as games finish, so a killed sweep loses only the games in progress and --resume goes on.
One sweep writes a table at a time: a second one on the same --out stops at once, naming the
first (TABLE.csv.lock beside the table says who holds it).

PATTERN stands for many codes: '?' is any octal digit 0-7, [0-3] or [137] a class of digits;
FILE (when a file of that name exists) lists one game per line, '#' starting a comment.

Built with MPI, 'mpirun -np K sg_sweep ...' spreads the games over K ranks: rank 0 hands out one
game at a time and writes the rows, the other ranks compute. The table is the same either way.

Examples:
  sg_sweep --codes '0.??' --n 4096                   all two-digit octal games, 4096 values each
  sg_sweep --codes '0.[0-3]?7' --out t.csv           until proven (or 2^20 values), rows in t.csv
  sg_sweep --codes '0.???' --out t.csv --resume      go on with a sweep that was stopped
  sg_sweep --codes games.txt --n 1e5 --json          one JSON object per game
  mpirun -np 8 sg_sweep --codes '4.??' --out t.csv   across an MPI job

Options)";

struct Options {
  std::string codes;
  std::string n_text;
  bool until_proven = false;
  std::string cap_text = kDefaultCap;
  std::string out;
  bool resume = false;
  bool json = false;
  bool quiet = false;
  int threads = 0;
};

// How far games go: --n exactly, else until proven up to --cap (the default when --n is absent).
SweepSettings settings_of(const Options& o, const po::variables_map& vm) {
  SweepSettings settings;
  settings.threads = o.threads;
  if (vm.count("n")) {
    if (o.until_proven) throw cli::UsageError("--n and --until-proven: choose one");
    if (vm.count("cap")) throw cli::UsageError("--cap goes with --until-proven, not with --n");
    settings.n = cli::parse_n("n", o.n_text);
    return settings;
  }
  settings.until_proven = true;
  settings.cap = cli::parse_n("cap", o.cap_text);
  return settings;
}

// "k/N games" on stderr while the sweep runs, only when stderr is a terminal.
class SweepStatus {
 public:
  SweepStatus(bool wanted, std::size_t total) : enabled_(wanted && isatty(STDERR_FILENO)), total_(total) {}
  void finished(std::size_t done, const SweepRow& row) {
    if (!enabled_) return;
    std::fprintf(stderr, "\r\033[K %zu/%zu games, last %s (%.3f s)", done, total_, row.game.c_str(), row.seconds);
    std::fflush(stderr);
  }
  ~SweepStatus() {
    if (enabled_) std::fprintf(stderr, "\r\033[K");
  }

 private:
  bool enabled_;
  std::size_t total_;
};

// Opens the table at --out for the job; a file that cannot serve it is refused with the options
// that would fit it.
void open_table(std::optional<SweepTable>& table, const Options& o, const cli::SweepJob& job) {
  try {
    table.emplace(o.out, job.games, job.settings, o.resume);
  } catch (const SweepTableExistsError& e) {
    throw cli::UsageError(std::string(e.what()) + ": --resume continues that sweep; remove it to start again");
  } catch (const SweepTableOtherGameError& e) {
    throw cli::UsageError(std::string(e.what()) + ": give the same --codes, or another --out");
  } catch (const SweepTableOtherSettingsError& e) {
    throw cli::UsageError(std::string(e.what()) + ": resume with the --n (or --cap) it was made with");
  }
}

// Rows of every game, in sweep order and marked, computed across the cluster.
std::vector<SweepRow> sweep(const Options& o, const cli::SweepJob& job, cli::Cluster& cluster) {
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
  SweepStatus status(!o.quiet, job.games.size());
  std::size_t done = job.games.size() - pending.size();
  cluster.run(job, pending, [&](std::size_t index, const SweepRow& row) {
    if (table)
      table->append(index, row);
    else
      rows[index] = row;
    status.finished(++done, row);
  });
  if (table) return table->finish();
  mark_equivalent_games(rows);
  return rows;
}

int run(int argc, char** argv, cli::Cluster& cluster) {
  Options o;
  po::options_description visible(kUsage);
  visible.add_options()
      ("codes", po::value(&o.codes), "the games: a pattern such as 0.?? or 4.[0-3]?, or a file with one game per line")
      ("n", po::value(&o.n_text), "compute exactly N values of every game: 4096, 1e6, 2^20")
      ("until-proven", po::bool_switch(&o.until_proven), "start at 2^12 values and double while no period is proven (the default)")
      ("cap", po::value(&o.cap_text), "with --until-proven: stop doubling here (default 2^20)")
      ("out", po::value(&o.out), "CSV file the rows are written to as games finish")
      ("resume", po::bool_switch(&o.resume), "continue the sweep in --out: finished games are kept, not redone")
      ("json", po::bool_switch(&o.json), "print one JSON object per game instead of the Markdown table")
      ("threads", po::value(&o.threads), "OpenMP threads per game, on every rank (default: all cores)")
      ("quiet", po::bool_switch(&o.quiet), "print nothing: no table and no status line (the rows are in --out)");
  po::variables_map vm;
  if (!cli::parse_command_line(kTool, argc, argv, visible, vm)) return cli::kExitOk;
  if (o.codes.empty()) throw cli::UsageError("no games given: e.g. sg_sweep --codes '0.?\?' --n 4096");
  if (o.threads < 0) throw cli::UsageError("--threads must be positive");
  if (o.resume && o.out.empty()) throw cli::UsageError("--resume needs --out TABLE.csv: the sweep to continue");
  if (o.json && o.quiet) throw cli::UsageError("--json and --quiet: choose one");

  const cli::SweepJob job{games_of(o.codes), settings_of(o, vm)};
  const std::vector<SweepRow> rows = sweep(o, job, cluster);
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
