#pragma once
// Where this process's cgroup files are, for the limits the tools respect: memory (memory.hpp)
// and processors (processors.hpp).

#include <string>
#include <vector>

namespace sgx::cli {

struct CgroupDir {
  std::string path;
  bool v2;  // the unified hierarchy (memory.max, cpu.max), else v1 (memory.limit_in_bytes, ...)
};

// The directories that may hold the files of controller ("memory", "cpu") for this process, most
// specific first: its group's directory, then the hierarchy's root (inside a container the group's
// own directory is usually mounted as the root). The first that holds the file asked for decides.
std::vector<CgroupDir> cgroup_dirs(const std::string& controller);

}  // namespace sgx::cli
