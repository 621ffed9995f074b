#pragma once
// The HDF5 file of a run: the values and everything needed to read them back and trust them.
// Layout (format version 1), documented in docs/FORMAT.md:
//   /values                    G(0..n-1), narrowest unsigned integer type, chunked, deflate,
//                              Fletcher-32 checksum per chunk (damage is detected on read)
//   attributes on the root:    format_version, game (canonical code), n, engine,
//                              program_version, created (ISO 8601 UTC), description
//   /stats (group)             rare_mask, rare_count, last_rare, max_value, max_at; histogram
//   /period (group)            found, preperiod, period, saltus, proven, theorem, proof_needs_n,
//                              checked_n; exceptions
// Files are written to a temporary name beside the target, flushed, and renamed over it, so a
// crash never leaves a half-written file under the final name.

#include <cstdint>
#include <stdexcept>
#include <string>

#include "sgx/period.hpp"
#include "sgx/sequence.hpp"
#include "sgx/stats.hpp"

namespace sgx {

inline constexpr int kFormatVersion = 1;

// A file that cannot be written, read or trusted. The message says which file and why.
class StoreError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct RunRecord {
  std::string game;             // canonical code
  Sequence values;
  std::string engine;           // kernel(s) used, e.g. "sparse"
  std::string program_version;
  SparseStats stats;            // histogram may be empty when not known
  PeriodResult period;
};

void write_run_file(const std::string& path, const RunRecord& record);
RunRecord read_run_file(const std::string& path);

namespace detail {
// write_run_file, but stamping another format_version: lets tests check that files of other
// versions are refused. Not for normal use.
void write_run_file_as_version(const std::string& path, const RunRecord& record, int format_version);
}  // namespace detail

}  // namespace sgx
