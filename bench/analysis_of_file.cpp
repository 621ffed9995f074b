// How long sg_period's parts take on a run file, each timed alone: one pass that only reads every
// value (what the file costs), the period analysis, and the statistics. Prints seconds, values per
// second and the process's peak resident memory after each part. Run:
//   build/bench/analysis_of_file results/0.167.h5
// (a file of 2^30 values: run_octal 0.167 --n 2^30 --memory 2G --out FILE; bench/README.md).

#include <sys/resource.h>

#include <chrono>
#include <cstdint>
#include <exception>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "sgx/period.hpp"
#include "sgx/report.hpp"
#include "sgx/rules.hpp"
#include "sgx/stats.hpp"
#include "sgx/store.hpp"

namespace {

double peak_megabytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

void timed(const std::string& what, std::uint64_t n, const std::function<std::string()>& part) {
  const auto start = std::chrono::steady_clock::now();
  const std::string result = part();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << what << ": " << seconds << " s, " << static_cast<double>(n) / seconds << " values/s, peak "
            << peak_megabytes() << " MB; " << result << "\n";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: analysis_of_file RUN_FILE.h5\n";
    return 2;
  }
  try {
    const std::string path = argv[1];
    const sgx::RunStatus status = sgx::read_run_status(path);
    const sgx::Rules rules = sgx::parse_rules(status.game);
    const sgx::ValueReader read = sgx::run_file_reader(path);
    std::cout << path << ": " << status.game << ", " << status.n << " values\n";
    timed("read every value", status.n, [&] {
      std::vector<sgx::Value> block(sgx::kValueReadBlock);
      sgx::Value largest = 0;
      for (std::uint64_t from = 0; from < status.n; from += sgx::kValueReadBlock) {
        const std::uint64_t to = std::min(status.n, from + sgx::kValueReadBlock);
        read(from, to, block.data());
        for (std::uint64_t i = 0; i < to - from; ++i) largest = std::max(largest, block[i]);
      }
      return "largest value " + std::to_string(largest);
    });
    timed("period analysis", status.n, [&] { return sgx::period_text(sgx::analyze_period(status.n, read, rules)); });
    timed("statistics", status.n, [&] {
      const sgx::SparseStats stats = sgx::compute_stats(status.n, read, rules.split_take_parity());
      return "rare count " + std::to_string(stats.rare_count);
    });
  } catch (const std::exception& e) {
    std::cerr << "analysis_of_file: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
