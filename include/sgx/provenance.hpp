#pragma once
// Where a run's values came from: one row per stretch of the run, kept in its file as /provenance
// (docs/FORMAT.md) and shown by sg_period and run_octal --json.

#include <cstdint>
#include <string>

namespace sgx {

// One stretch of a run, from its start or a resume to its last save (/provenance).
struct Provenance {
  std::string command;             // the command line, its words joined by spaces
  std::string version;             // of sgx
  std::string commit;              // git commit sgx was built from, "" if unknown
  std::string host;
  std::uint32_t threads = 0;
  std::string started, ended;      // ISO 8601 UTC
  double wall_seconds = 0;
  double cpu_seconds = 0;          // user and system, all threads
  std::uint64_t first_n = 0;       // values the stretch started from
  std::uint64_t values_computed = 0;
};

// Now, as ISO 8601 UTC: 2026-05-01T12:34:56Z (the times of /provenance and of a file's creation).
std::string utc_now_iso8601();

// The command line of a program, its words joined by spaces (a line break in one becomes a space,
// so that the command stays one line).
std::string command_line(int argc, const char* const* argv);

// The stretch of a run that starts now: command, this sgx's version and commit, this host,
// threads (0: all OpenMP gives), the start time and the values it starts from. The rest is filled
// in as it ends.
Provenance stretch_starting(const std::string& command, int threads, std::uint64_t first_n);

// That stretch as it stands with n values computed: its end stamped now, with the wall and
// processor seconds the caller measured since it started.
Provenance stretch_so_far(Provenance stretch, std::uint64_t n, double wall_seconds, double cpu_seconds);

// The kernels a run used (RunInfo::engine, "sparse+sweep"), from those of its stored part and of
// this stretch, in order of use, a kernel that went on across the resume named once: "sparse+sweep"
// then "sweep+sparse" gives "sparse+sweep+sparse".
std::string merge_kernel_names(const std::string& before, const std::string& now);

}  // namespace sgx
