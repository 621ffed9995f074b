#include "processors.hpp"

#include <sched.h>

#include <fstream>
#include <iostream>
#include <string>

namespace sgx::cli {

namespace {

// Processors the quota of this process's cgroup allows (quota / period, rounded up), 0 for none.
unsigned cgroup_processors() {
  std::ifstream cgroups("/proc/self/cgroup");
  for (std::string line; std::getline(cgroups, line);) {
    // "0::/path" (v2) or "3:cpu,cpuacct:/path" (v1).
    const auto first = line.find(':'), second = line.find(':', first + 1);
    if (first == std::string::npos || second == std::string::npos) continue;
    const std::string controllers = line.substr(first + 1, second - first - 1), group = line.substr(second + 1);
    const bool v2 = controllers.empty();
    if (!v2 && ("," + controllers + ",").find(",cpu,") == std::string::npos) continue;
    const std::string mount = v2 ? "/sys/fs/cgroup" : "/sys/fs/cgroup/cpu";
    // Inside a container the group's own directory is usually mounted as the root.
    for (const std::string& dir : {mount + group, mount}) {
      long long quota = 0, period = 0;
      if (v2) {
        std::ifstream max(dir + "/cpu.max");
        std::string quota_text;
        if (!(max >> quota_text >> period)) continue;
        if (quota_text == "max") break;
        quota = std::stoll(quota_text);
      } else {
        std::ifstream quota_file(dir + "/cpu.cfs_quota_us"), period_file(dir + "/cpu.cfs_period_us");
        if (!(quota_file >> quota) || !(period_file >> period)) continue;
        if (quota < 0) break;  // -1: no quota
      }
      if (quota <= 0 || period <= 0) break;
      return static_cast<unsigned>((quota + period - 1) / period);
    }
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
  if (requested <= 0 || processors == 0 || static_cast<unsigned>(requested) <= processors) return requested;
  if (!quiet)
    std::cerr << tool << ": --threads " << requested << ", but this process may run on " << processors
              << (processors == 1 ? " processor: running 1 thread" : " processors: running " + std::to_string(processors) + " threads")
              << " (more would only wait for each other)\n";
  return static_cast<int>(processors);
}

}  // namespace sgx::cli
