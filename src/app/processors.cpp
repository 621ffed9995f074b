#include "processors.hpp"

#include <omp.h>
#include <sched.h>

#include <fstream>
#include <iostream>
#include <iterator>
#include <string>

#include "cgroup.hpp"
#include "cli.hpp"
#include "sgx/report.hpp"

namespace sgx::cli {

namespace {

// Processors the quota of this process's cgroup allows (quota / period, rounded up), 0 for none.
unsigned cgroup_processors() {
  for (const CgroupDir& dir : cgroup_dirs("cpu")) {
    long long quota = 0, period = 0;
    if (dir.v2) {
      std::ifstream max(dir.path + "/cpu.max");  // "max 100000", or "200000 100000" for two processors
      std::string quota_text;
      if (!(max >> quota_text >> period)) continue;
      if (quota_text == "max") return 0;
      quota = std::stoll(quota_text);
    } else {
      std::ifstream quota_file(dir.path + "/cpu.cfs_quota_us"), period_file(dir.path + "/cpu.cfs_period_us");
      if (!(quota_file >> quota) || !(period_file >> period)) continue;
    }
    if (quota <= 0 || period <= 0) return 0;  // v1 writes -1 for no quota
    return static_cast<unsigned>((quota + period - 1) / period);
  }
  return 0;
}

}  // namespace

unsigned usable_processors() {
  unsigned processors = 0;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) processors = static_cast<unsigned>(CPU_COUNT(&set));
  const unsigned by_quota = cgroup_processors();
  if (by_quota > 0 && (processors == 0 || by_quota < processors)) processors = by_quota;
  return processors;
}

int threads_to_use(const char* tool, int requested, bool quiet) {
  const unsigned processors = usable_processors();
  if (processors == 0) return requested;
  // OpenMP's own default (OMP_NUM_THREADS, else the affinity) knows nothing of a cgroup's quota.
  if (requested <= 0)
    return static_cast<unsigned>(omp_get_max_threads()) > processors ? static_cast<int>(processors) : requested;
  if (static_cast<unsigned>(requested) <= processors) return requested;
  if (!quiet)
    std::cerr << tool << ": --threads " << requested << ", but this process may run on " << processors
              << (processors == 1 ? " processor: running 1 thread" : " processors: running " + std::to_string(processors) + " threads")
              << " (more would only wait for each other)\n";
  return static_cast<int>(processors);
}

int threads_to_profile(const char* tool, int requested, bool quiet) {
  if (requested <= 0) return threads_to_use(tool, requested, quiet);
  const unsigned processors = usable_processors();
  constexpr int most = kProfileThreads[std::size(kProfileThreads) - 1];
  if (requested > most && static_cast<unsigned>(requested) > processors)
    throw UsageError("--threads " + std::to_string(requested) + " with --profile: more than the processors (" +
                     (processors > 0 ? std::to_string(processors) : std::string("unknown")) + ") only up to " +
                     std::to_string(most) + ", the most threads the profile predicts for");
  if (processors > 0 && static_cast<unsigned>(requested) > processors && !quiet)
    std::cerr << tool << ": --threads " << requested << " with --profile on " << processors
              << (processors == 1 ? " processor" : " processors") << ": running " << requested
              << " threads, so that the profile is of their decomposition (the wall time will be longer)\n";
  return requested;
}

}  // namespace sgx::cli
