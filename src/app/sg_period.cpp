// sg_period: the period analysis of stored sequences, and of the rows of stored two-dimensional
// tables (run_octal wythoff, run_octal cut): each file says which it holds.

#include <boost/program_options.hpp>
#include <cmath>
#include <cstdint>
#include <iostream>

#include "cli.hpp"
#include "sgx/bfile.hpp"
#include "sgx/period.hpp"
#include "sgx/report.hpp"
#include "sgx/rules.hpp"
#include "sgx/stats.hpp"
#include "sgx/store.hpp"
#include "sgx/table2d.hpp"
#include "sgx/version.hpp"

namespace po = boost::program_options;

namespace {

using namespace sgx;

constexpr const char* kTool = "sg_period";

const char* kUsage = R"(Usage: sg_period FILE.h5... [--json | --table] [--bfile B]
       sg_period FILE.h5... --verify

Analyses nim-sequences stored by run_octal: the eventual period and preperiod (and the saltus of
arithmetic periodicity), whether a theorem proves it and which, the exceptional positions in the
preperiod, and the sparse-space statistics, reading the values a block at a time (a run of any
length takes a few tens of megabytes). A file of a run with --memory written by an earlier
version (format version 2) keeps only a prefix and a tail of its values, too few for this: it is
refused.

A two-dimensional table (run_octal wythoff, run_octal cut) gets the additive period of each row
instead, G(a, b + p) = G(a, b) + s for b >= b0, found as run_octal finds it (--table does not
apply to tables).

--bfile B also writes the stored values of one run as an OEIS b-file: a line "n G" per value n, G(0) first,
after a comment header naming the game and the program (an unfinished run's values so far).

--milestones also lists the statistics of G(0..N-1) at every power of two N the run passed (the
largest value, the rare mask, its rare positions and the last, and G(N)), as the run kept them;
with --json each has its value counts too, the form in which record runs are published
(scripts/compare_published.py compares them). A file written before runs kept them gets them
counted from its values.

--verify checks the files instead of analysing them: every chunk of values of a run (in each of its
segment files) is read through its Fletcher-32 checksum, one chunk at a time, and so is the rest of
the file. A file whose checksums all hold gets one line, "FILE: every checksum holds" and what was
read; each damaged stretch of values gets a line naming it and where it lies, such as
"FILE: G(65536..131072-1) in segment file FILE.d/values-...h5: the file is missing", and the exit
status is then 1.

Examples:
  sg_period results/0.137.h5
  sg_period results/0.137.h5 --json
  sg_period results/*.h5 --table      one row per game, in the columns published tables use
  sg_period results/wythoff.h5        the preperiod, period and saltus of every row
  sg_period results/0.137.h5 --bfile b000000.txt    the values as an OEIS b-file
  sg_period results/0.167.h5 --milestones --json     the value counts at every power of two
  sg_period results/*.h5 --verify     is every stored value as it was written?

Options)";

// A run with --memory written as format version 2 kept only a prefix and a tail of its values: a
// period and the statistics need them all. Found from the header, before any value is read.
// Returns how far the run got.
RunStatus status_of_whole_run(const std::string& file) {
  const RunStatus status = read_run_status(file);
  if (!status.holds_every_value())
    throw cli::UsageError(file + " holds " + kept_values_text(status.prefix_n, status.tail_start, status.n) +
                          " only (a run with --memory): the period analysis needs every value");
  return status;
}

// A checkpoint of a run that has not reached its target yet says so wherever it is shown.
std::string unfinished_note(const RunRecord& record) {
  if (record.complete) return "";
  return std::string(" (checkpoint, run not finished: its target is ").append(std::to_string(record.target_n)).append(")");
}

// record without its values, which are n.
void print_text(const std::string& file, const RunRecord& record, std::uint64_t n, const SparseStats& stats,
                const PeriodResult& period) {
  std::cout << "file        " << file << "\n"
            << "game        " << record.game << "\n"
            << "values      " << n << unfinished_note(record) << "\n"
            << "largest     " << stats.max_value << " (first at " << stats.max_at << ")\n"
            << "rare        mask " << rare_mask_text(stats.rare_mask) << ", " << stats.rare_count << " rare positions";
  if (stats.last_rare >= 0) std::cout << ", last at " << stats.last_rare;
  std::cout << "\nperiod      " << period_text(period) << "\n";
  // Where the values came from: one line per stretch of the run (a start or a resume).
  for (std::size_t i = 0; i < record.provenance.size(); ++i) {
    const Provenance& p = record.provenance[i];
    std::cout << (i == 0 ? "stretches   " : "            ") << i + 1 << ". " << p.started << " to " << p.ended << ", "
              << p.host << ", " << threads_text(p.threads) << ", " << p.values_computed << " values from " << p.first_n
              << " in " << std::lround(p.wall_seconds) << " s (" << std::lround(p.cpu_seconds) << " s CPU), sgx "
              << p.version << (p.commit.empty() ? "" : " " + p.commit) << ": " << p.command << "\n";
  }
  if (period.found && !period.exceptions.empty()) {
    std::cout << "exceptions ";
    for (auto e : period.exceptions) std::cout << " " << e;
    std::cout << "\n";
  }
}

Json run_file_json(const std::string& file, const RunRecord& record, std::uint64_t n, const SparseStats& stats,
                   const PeriodResult& period) {
  return {{"game", record.game},
          {"n", n},
          {"complete", record.complete},
          {"target_n", record.target_n},
          {"max_value", stats.max_value},
          {"max_at", stats.max_at},
          {"stats", stats_json(stats)},
          {"period", period_json(period)},
          {"file", file}};
}

// "G(0..65536-1)": a stretch of values as the messages name it.
std::string stretch_text(std::uint64_t start, std::uint64_t end) {
  return "G(" + std::to_string(start) + ".." + std::to_string(end) + "-1)";
}

// "1 chunk", "8 chunks".
std::string count_text(std::size_t count, const std::string& thing) {
  return std::to_string(count) + " " + thing + (count == 1 ? "" : "s");
}

// --verify of one file: true when every checksum holds. Damaged stretches of values are listed on
// stdout, a line each, and summed up in one line on stderr.
bool verify_file(const std::string& file) {
  if (read_file_kind(file) == FileKind::Table) {
    const TableStatus table = read_table_status(file);
    read_table_file(file);  // every chunk of the table and its rows, through their checksums
    std::cout << file << ": every checksum holds (the table of " << table.game << ", N = " << table.n << ")\n";
    return true;
  }
  const RunVerification report = verify_run_file(file);
  if (report.damaged.empty()) {
    std::cout << file << ": every checksum holds (" << report.values << " values in "
              << (report.segments > 0 ? count_text(report.segments, "segment") : "one file") << ", "
              << count_text(report.chunks, "chunk") << ")\n";
    return true;
  }
  std::uint64_t damaged = 0;
  for (const DamagedStretch& stretch : report.damaged) {
    std::cout << file << ": " << stretch_text(stretch.start, stretch.end) << " in " << stretch.where << ": "
              << stretch.reason << "\n";
    damaged += stretch.end - stretch.start;
  }
  std::cerr << kTool << ": " << file << " is damaged: " << damaged << " of its " << report.values << " values in "
            << report.damaged.size() << (report.damaged.size() == 1 ? " stretch" : " stretches")
            << " (listed above); the others are whole\n";
  return false;
}

// --verify of every file, each whatever the others hold.
int verify_files(const std::vector<std::string>& files) {
  bool all_whole = true;
  for (const std::string& file : files) {
    try {
      all_whole &= verify_file(file);
    } catch (const StoreError& e) {  // the file's own record: no stretch of it can be named
      std::cerr << kTool << ": " << e.what() << "\n";
      all_whole = false;
    }
  }
  std::cout.flush();
  return all_whole ? cli::kExitOk : cli::kExitFailure;
}

// The rows of a stored table, analysed again (as the values of a run are), so that the report
// follows this program's criterion whatever wrote the file.
void print_table_file(const std::string& file, bool json) {
  const TableRecord record = read_table_file(file);
  TableReport report;
  report.game = game_kind_name(record.table.game());
  report.n = record.table.n();
  report.origin = record.table.origin();
  report.max_value = record.table.max_value();
  report.rows = analyze_rows(record.table);
  report.file = file;
  std::cout << (json ? json_text(table_report_json(report)) + "\n" : table_report_text(report, cli::kJsonListsEveryRow));
}

int run(int argc, char** argv) {
  std::vector<std::string> files;
  bool json = false, table = false, verify = false, milestones = false;
  std::string bfile;
  po::options_description visible(kUsage);
  visible.add_options()("json", po::bool_switch(&json), "print one JSON object per file, one per line")(
      "table", po::bool_switch(&table), "print one aligned table row per file")(
      "bfile", po::value(&bfile)->value_name("B"), "also write the values of the (one) run as an OEIS b-file")(
      "milestones", po::bool_switch(&milestones),
      "also list the statistics at every power of two N the run passed (value counts with --json)")(
      "verify", po::bool_switch(&verify),
      "check every checksum of every segment and chunk instead, naming each damaged stretch of values (exit 1)");
  po::variables_map vm;
  if (!cli::parse_command_line(kTool, argc, argv, visible, vm, &files)) return cli::kExitOk;
  if (files.empty()) throw cli::UsageError("no file given: e.g. sg_period results/0.137.h5");
  if (json && table) throw cli::UsageError("--json and --table: choose one");
  if (verify && (json || table || !bfile.empty() || milestones))
    throw cli::UsageError(
        "--verify checks the files and prints a line each: leave out --json, --table, --bfile and --milestones");
  if (milestones && table) throw cli::UsageError("--milestones and --table: the table has one row per game, choose one");
  if (verify) return verify_files(files);
  if (!bfile.empty() && files.size() != 1)
    throw cli::UsageError("--bfile writes the values of one run: give one file, not " + std::to_string(files.size()));

  std::vector<TableRow> rows;
  for (const std::string& file : files) {
    if (read_file_kind(file) == FileKind::Table) {
      if (!bfile.empty())
        throw cli::UsageError("--bfile lists a sequence, and " + file + " holds a two-dimensional table");
      if (table) throw cli::UsageError("--table lists heap games, and " + file + " holds a two-dimensional table");
      if (milestones) throw cli::UsageError("--milestones lists a run's statistics, and " + file + " holds a table");
      if (!json && &file != &files.front()) std::cout << "\n";
      print_table_file(file, json);
      continue;
    }
    // The values are read from the file a block at a time, so that a run of any length is
    // analysed in a few tens of megabytes (analyze_period and compute_stats with a reader).
    const std::uint64_t n = status_of_whole_run(file).n;
    const RunRecord record = read_run_file(file, LoadValues::None);
    const Rules rules = parse_rules(record.game);
    const ValueReader read = run_file_reader(file);
    const PeriodResult period = analyze_period(n, read, rules);
    // The statistics the run counted as it went, else counted now, a pass over the values.
    const StatsCounter counted = record.counter ? StatsCounter(*record.counter, rules.split_take_parity())
                                                : count_values(n, read, rules.split_take_parity());
    const SparseStats stats = counted.stats();
    if (!bfile.empty())
      write_bfile(bfile, record.game, n, read, std::string(kTool) + " " + kVersion);
    if (table) {
      rows.push_back({record.game, n, stats, period});
    } else if (json) {
      Json out = run_file_json(file, record, n, stats, period);
      if (milestones) out["milestones"] = milestones_json(counted.milestones());
      std::cout << json_text(out) << "\n";
    } else {
      if (&file != &files.front()) std::cout << "\n";
      print_text(file, record, n, stats, period);
      if (milestones) std::cout << milestones_text(counted.milestones());
    }
  }
  if (table) std::cout << period_table(rows);
  return cli::kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  return sgx::cli::run_tool(kTool, [&] { return run(argc, argv); });
}
