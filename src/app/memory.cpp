#include "memory.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "cgroup.hpp"
#include "cli.hpp"
#include "sgx/numbers.hpp"
#include "base/tuning.hpp"

namespace sgx::cli {

namespace {

// Limits at or above this are "no limit" (cgroup v1 writes one near 2^63).
constexpr std::uint64_t kNoLimit = std::uint64_t{1} << 60;

// The first number in a file, or nothing when it is missing or says "max".
bool read_number(const std::string& file, std::uint64_t& number) {
  std::ifstream in(file);
  return static_cast<bool>(in >> number);
}

// Room left under the memory limit of this process's cgroup, kNoLimit when it has none.
std::uint64_t cgroup_room() {
  for (const CgroupDir& dir : cgroup_dirs("memory")) {
    std::uint64_t limit = 0, usage = 0;
    if (!read_number(dir.path + (dir.v2 ? "/memory.max" : "/memory.limit_in_bytes"), limit)) continue;
    if (limit >= kNoLimit) return kNoLimit;
    read_number(dir.path + (dir.v2 ? "/memory.current" : "/memory.usage_in_bytes"), usage);
    return limit > usage ? limit - usage : 0;
  }
  return kNoLimit;
}

// A --memory to suggest: well inside what is available, in whole units as people write them.
std::uint64_t suggested_limit(std::uint64_t available) {
  const std::uint64_t unit = std::uint64_t{1} << (available >= (std::uint64_t{4} << 30) ? 30 : 20);
  return available / 4 * 3 / unit * unit;
}

}  // namespace

std::uint64_t available_memory_bytes(std::string* source) {
  std::uint64_t available = 0;
  std::ifstream meminfo("/proc/meminfo");
  for (std::string line; std::getline(meminfo, line);)
    if (line.rfind("MemAvailable:", 0) == 0) {
      std::istringstream(line.substr(13)) >> available;
      available *= 1024;  // given in kB
    }
  if (source) *source = "MemAvailable in /proc/meminfo";
  const std::uint64_t room = cgroup_room();
  if (room < available || (available == 0 && room < kNoLimit)) {
    available = room;
    if (source) *source = "room under this process's cgroup memory limit";
  }
  return available;
}

std::uint64_t resident_memory_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::uint64_t size = 0, resident = 0;
  if (!(statm >> size >> resident)) return 0;
  return resident * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
}

void check_memory_limit_available(std::uint64_t limit, const std::string& text, std::uint64_t needed) {
  std::string source;
  const std::uint64_t available = available_memory_bytes(&source);
  if (available == 0 || std::min(limit, needed) <= available) return;
  throw UsageError("--memory " + text + " is more than the " + bytes_text(available) + " available (" + source +
                   "), and the run would grow past it: give --memory " + bytes_text(suggested_limit(available)) +
                   " or less");
}

void check_values_fit_in_memory(std::uint64_t n, std::uint64_t overhead, std::uint64_t least_limit) {
  std::string source;
  const std::uint64_t available = available_memory_bytes(&source);
  if (available == 0) return;
  // One byte per value is the least any run needs (values of 256 and more take two or four).
  const std::uint64_t needed = n + overhead;
  if (needed <= available) return;
  const std::uint64_t suggested = suggested_limit(available);
  std::string message = std::to_string(n) + " values need at least " + bytes_text(needed) +
                        " of memory (one byte per value, more once values pass 255, and " + bytes_text(overhead) +
                        " for the program), but " + bytes_text(available) + " is available (" + source + ")";
  if (suggested >= least_limit)
    message += ": give --memory " + bytes_text(suggested) + " to keep only a prefix and the tail of the values";
  else
    message += ": free some memory";
  throw UsageError(message + ", or ask for fewer values");
}

std::uint64_t parse_memory_limit(const std::string& text) {
  std::uint64_t limit = 0;
  try {
    limit = parse_bytes(text);
  } catch (const NumberError& e) {
    throw UsageError(std::string("--memory: ") + e.what());
  }
  if (limit < tuning::kMinMemoryLimit)
    throw UsageError("--memory " + text + " is too small: the program alone needs about " +
                     bytes_text(tuning::kMemoryOverhead) + "; give at least " + bytes_text(tuning::kMinMemoryLimit));
  return limit;
}

void check_run_fits_in_memory(std::uint64_t n, std::uint64_t limit, const std::string& text) {
  if (limit == 0)
    check_values_fit_in_memory(n, tuning::kMemoryOverhead, tuning::kMinMemoryLimit);
  else
    check_memory_limit_available(limit, text, n + tuning::kMemoryOverhead);
}

}  // namespace sgx::cli
