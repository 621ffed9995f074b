// How long sg_period's parts take on a run file, each timed alone: the period analysis, the
// statistics, and one pass that only reads every value (what the file costs; last, so that it
// meets the allocator as the others do: HDF5's buffer of a chunk is mapped and unmapped at every
// read until a larger block has been freed, which made a first pass twice as slow). Prints seconds on the
// clock and of processor time, values per processor second and the process's peak resident memory
// after each part. Run:
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

rusage usage_now() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage;
}

double seconds_of(const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6; }

// Processor time (user and system) of the process: on a shared machine it moves less than the time
// on the clock.
double processor_seconds(const rusage& usage) { return seconds_of(usage.ru_utime) + seconds_of(usage.ru_stime); }

void timed(const std::string& what, std::uint64_t n, const std::function<std::string()>& part) {
  const auto start = std::chrono::steady_clock::now();
  const double processor_start = processor_seconds(usage_now());
  const std::string result = part();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const rusage after = usage_now();
  const double processor = processor_seconds(after) - processor_start;
  std::cout << what << ": " << seconds << " s (processor " << processor << " s), "
            << static_cast<double>(n) / processor << " values per processor second, peak "
            << static_cast<double>(after.ru_maxrss) / 1024.0 << " MB; " << result << "\n";
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
    timed("period analysis", status.n, [&] { return sgx::period_text(sgx::analyze_period(status.n, read, rules)); });
    timed("statistics", status.n, [&] {
      const sgx::SparseStats stats = sgx::compute_stats(status.n, read, rules.split_take_parity());
      return "rare count " + std::to_string(stats.rare_count);
    });
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
  } catch (const std::exception& e) {
    std::cerr << "analysis_of_file: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
