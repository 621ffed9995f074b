// sg_period: the period analysis of a stored sequence.

#include <boost/program_options.hpp>
#include <iostream>

#include "cli.hpp"
#include "sgx/period.hpp"
#include "sgx/report.hpp"
#include "sgx/rules.hpp"
#include "sgx/stats.hpp"
#include "sgx/store.hpp"
#include "sgx/version.hpp"

namespace po = boost::program_options;

namespace {

using namespace sgx;

constexpr const char* kTool = "sg_period";

const char* kUsage = R"(Usage: sg_period FILE.h5 [--json]

Analyses a nim-sequence stored by run_octal: the eventual period and preperiod (and saltus for
arithmetic periodicity), whether a theorem proves it, the exceptional positions in the
preperiod, and the sparse-space statistics.

Examples:
  sg_period results/0.137.h5
  sg_period results/4!.0.h5 --json

Options)";

int run(int argc, char** argv) {
  std::string file;
  bool json = false;
  po::options_description visible(kUsage);
  visible.add_options()("json", po::bool_switch(&json), "print one JSON object")("help,h", "show this help")(
      "version", "show the version");
  po::options_description hidden;
  hidden.add_options()("file", po::value(&file));
  po::options_description all;
  all.add(visible).add(hidden);
  po::positional_options_description positional;
  positional.add("file", 1);
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
  if (file.empty()) throw cli::UsageError("no file given: e.g. sg_period results/0.137.h5");

  RunRecord record = read_run_file(file);
  const Rules rules = parse_rules(record.game);
  const PeriodResult period = analyze_period(record.values, rules);
  const SparseStats stats = compute_stats(record.values);
  if (json) {
    JsonWriter out;
    out.begin_object().field("game", record.game).field("n", record.values.size());
    out.field("max_value", std::uint64_t{stats.max_value}).field("max_at", stats.max_at);
    write_stats_json(out, stats);
    write_period_json(out, period);
    out.field("file", file).end_object();
    std::cout << out.str() << "\n";
  } else {
    std::cout << "game        " << record.game << "\n"
              << "values      " << record.values.size() << "\n"
              << "largest     " << stats.max_value << " (first at " << stats.max_at << ")\n"
              << "rare        mask " << hex(stats.rare_mask) << ", " << stats.rare_count << " rare positions";
    if (stats.last_rare >= 0) std::cout << ", last at " << stats.last_rare;
    std::cout << "\nperiod      " << period_text(period) << "\n";
    if (period.found && !period.exceptions.empty()) {
      std::cout << "exceptions ";
      for (auto e : period.exceptions) std::cout << " " << e;
      std::cout << "\n";
    }
  }
  return cli::kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  return sgx::cli::run_tool(kTool, [&] { return run(argc, argv); });
}
