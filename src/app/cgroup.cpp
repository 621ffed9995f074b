#include "cgroup.hpp"

#include <fstream>

namespace sgx::cli {

std::vector<CgroupDir> cgroup_dirs(const std::string& controller) {
  std::vector<CgroupDir> dirs;
  std::ifstream cgroups("/proc/self/cgroup");
  for (std::string line; std::getline(cgroups, line);) {
    // "0::/path" (v2) or "4:memory:/path" (v1).
    const auto first = line.find(':'), second = line.find(':', first + 1);
    if (first == std::string::npos || second == std::string::npos) continue;
    const std::string controllers = line.substr(first + 1, second - first - 1), group = line.substr(second + 1);
    const bool v2 = controllers.empty();
    if (!v2 && ("," + controllers + ",").find("," + controller + ",") == std::string::npos) continue;
    const std::string mount = v2 ? "/sys/fs/cgroup" : "/sys/fs/cgroup/" + controller;
    dirs.push_back({mount + group, v2});
    dirs.push_back({mount, v2});
  }
  return dirs;
}

}  // namespace sgx::cli
