#include "openmp_waits.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>

#include "processors.hpp"
#include "base/tuning.hpp"

namespace sgx::cli {

namespace {

// Threads ready to run on the machine now, this one included (the "running/total" field of
// /proc/loadavg, which the kernel counts as it counts procs_running in /proc/stat, in a few bytes);
// 0 if unknown.
unsigned runnable_threads() {
  std::ifstream loadavg("/proc/loadavg");
  double averages[3];
  unsigned running = 0;
  char slash = 0;
  if (!(loadavg >> averages[0] >> averages[1] >> averages[2] >> running >> slash) || slash != '/') return 0;
  return running;
}

// Whether this thread is the only one the machine has ready to run, at one look or another over
// tuning::kIdleLookMilliseconds. One look is not enough: a program started with this one, such as
// the reader of its output in a pipeline, is ready to run for its first milliseconds, while one
// that competes for the processors is ready at every look.
bool machine_idle() {
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(tuning::kIdleLookMilliseconds);
  for (;;) {
    const unsigned runnable = runnable_threads();
    if (runnable <= 1) return runnable == 1;
    if (std::chrono::steady_clock::now() >= until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

// Whether the command line leaves OpenMP nothing to choose: one thread (--threads 1, or a single
// processor to run on without --profile, which keeps more threads), whose regions wait for no
// other thread, or only --help or --version.
bool nothing_to_choose(char** argv) {
  bool profile = false;
  for (char** arg = argv + 1; *arg; ++arg) {
    const std::string word = *arg;
    if (word == "--help" || word == "-h" || word == "--version") return true;
    if (word == "--threads=1" || (word == "--threads" && arg[1] && std::string(arg[1]) == "1")) return true;
    if (word == "--profile") profile = true;
  }
  return !profile && usable_processors() == 1;
}

}  // namespace

void choose_openmp_waits(char** argv) {
  if (std::getenv("OMP_WAIT_POLICY") || std::getenv("GOMP_SPINCOUNT")) return;
  if (nothing_to_choose(argv)) return;
  const bool idle = machine_idle();
  const char* name = idle ? "GOMP_SPINCOUNT" : "OMP_WAIT_POLICY";
  const std::string spin_count = std::to_string(tuning::kOpenmpSpinCount);
  if (setenv(name, idle ? spin_count.c_str() : "passive", 1) != 0) return;
  execv("/proc/self/exe", argv);
  unsetenv(name);  // still here: restarting failed, and this process keeps its policy
}

}  // namespace sgx::cli
