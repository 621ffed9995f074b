#include "sgx/provenance.hpp"

#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <ctime>
#include <sstream>
#include <vector>

#include "sgx/version.hpp"

namespace sgx {

std::string utc_now_iso8601() {
  std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

std::string command_line(int argc, const char* const* argv) {
  std::string command;
  for (int i = 0; i < argc; ++i) command.append(i > 0 ? " " : "").append(argv[i]);
  std::replace(command.begin(), command.end(), '\n', ' ');
  return command;
}

Provenance stretch_starting(const std::string& command, int threads, std::uint64_t first_n) {
  Provenance stretch;
  stretch.command = command;
  stretch.version = kVersion;
  stretch.commit = kCommit;
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) == 0) stretch.host = host;
  stretch.threads = static_cast<std::uint32_t>(threads > 0 ? threads : omp_get_max_threads());
  stretch.started = utc_now_iso8601();
  stretch.first_n = first_n;
  return stretch;
}

std::string merge_kernel_names(const std::string& before, const std::string& now) {
  std::vector<std::string> names;
  for (const std::string* list : {&before, &now}) {
    std::istringstream parts(*list);
    for (std::string name; std::getline(parts, name, '+');)
      if (!name.empty() && (names.empty() || names.back() != name)) names.push_back(name);
  }
  std::string merged;
  for (const auto& name : names) merged.append(merged.empty() ? "" : "+").append(name);
  return merged;
}

Provenance stretch_so_far(Provenance stretch, std::uint64_t n, double wall_seconds, double cpu_seconds) {
  stretch.ended = utc_now_iso8601();
  stretch.wall_seconds = wall_seconds;
  stretch.cpu_seconds = cpu_seconds;
  stretch.values_computed = n - std::min(n, stretch.first_n);
  return stretch;
}

}  // namespace sgx
