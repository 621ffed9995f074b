#pragma once
// The HDF5 file of a run: the values and everything needed to read them back and trust them.
// Layout (format version 1), documented in docs/FORMAT.md:
//   /values                    G(0..n-1), narrowest unsigned integer type, chunked, deflate,
//                              Fletcher-32 checksum per chunk (damage is detected on read)
//   attributes on the root:    format_version, game (canonical code), n, complete, target_n,
//                              engine, program_version, created (ISO 8601 UTC), description
//   /stats (group)             rare_mask, rare_count, last_rare, max_value, max_at; histogram
//   /period (group)            found, preperiod, period, saltus, proven, theorem, proof_needs_n,
//                              checked_n; exceptions
//   /sparse (group, optional)  the rare-value state (sparse_state.hpp): mask, max_value, max_at;
//                              histogram, rare_positions, rare_values
// Format version 2 is a run with a released middle (run_octal --memory, sequence.hpp): it holds
// G(0..P-1) and G(L..n-1) only, and a version-1 reader must not take it for a whole run.
//   attributes on the root:    those of version 1, and prefix_n (P), tail_start (L)
//   /values                    G(0..P-1) only
//   /tail                      G(L..n-1), stored as /values is
//   /sparse (group, required)  the state the run resumes from: the released values cannot be
//                              recounted
// Two-dimensional tables (table2d.hpp) have files of their own, told apart by a root attribute
// kind = "table2d" (run files have no kind):
//   attributes on the root:    format_version (1), kind, game ("wythoff" or "cut"), n, origin,
//                              max_value, program_version, created, description
//   /table                     2-D dataset, side x side, table[i][j] = G(origin + i, origin + j);
//                              narrowest unsigned type, chunked by rows, deflate, Fletcher-32
//   /rows (group)              datasets found, preperiod, period, saltus: one entry per row
// Files are written to a temporary name beside the target, flushed, and renamed over it, so a
// crash never leaves a half-written file under the final name. That makes every file a safe
// checkpoint: a run under way writes the values so far with complete = false, and continues from
// the file later.

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

#include "sgx/period.hpp"
#include "sgx/sequence.hpp"
#include "sgx/sparse_state.hpp"
#include "sgx/stats.hpp"
#include "sgx/table2d.hpp"

namespace sgx {

// Readers take every version from kOldestFormatVersion to kFormatVersion. Files whose every value
// is stored (and table files) are written as version 1, so that older programs still read them;
// only a run with a released middle is written as version 2.
inline constexpr int kOldestFormatVersion = 1;
inline constexpr int kWholeFormatVersion = 1;
inline constexpr int kFormatVersion = 2;  // the newest

// A file that cannot be written, read or trusted. The message says which file and why.
class StoreError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Everything a run file says about its run except the values themselves.
struct RunInfo {
  std::string game;             // canonical code
  std::string engine;           // kernel(s) used, e.g. "sparse"
  std::string program_version;
  // false: a checkpoint of a run that has not reached its target yet (stopped, killed, or still
  // running); its values are right but there are fewer than target_n of them.
  bool complete = true;
  std::uint64_t target_n = 0;   // the n the run was asked for; for a complete run, its n
  SparseStats stats;            // histogram may be empty when not known
  PeriodResult period;          // in a checkpoint: only a period the engine has proven, else empty
  // The rare-value state to resume from. Required with values that have a released middle (the
  // file cannot be written without it); stored for any run that gives it.
  std::optional<SparseState> sparse_state;
};

struct RunRecord : RunInfo {
  Sequence values;
};

// Replaces path atomically. The values are given apart so that a running engine's values can be
// written without a copy. Values with a released middle make a version-2 file (see the top).
// A rare-value state that contradicts the values (see read_run_file) is refused here already:
// a file this program would refuse to read is never written.
void write_run_file(const std::string& path, const RunInfo& info, const Sequence& values);
void write_run_file(const std::string& path, const RunRecord& record);
// Values with a released middle come back the same way: prefix_end, tail_start and size as
// written, and only the kept values in memory.
RunRecord read_run_file(const std::string& path);

// Which run a file holds and how far it got, read without loading the values (quick for any size).
// Refuses the same files read_run_file refuses for their header.
struct RunStatus {
  std::string game;
  std::uint64_t n = 0;
  bool complete = true;
  std::uint64_t target_n = 0;
  // Format version 2: only G(0..prefix_n-1) and G(tail_start..n-1) are stored. Both 0 otherwise.
  std::uint64_t prefix_n = 0;
  std::uint64_t tail_start = 0;
  bool has_released() const { return tail_start > prefix_n; }
};
RunStatus read_run_status(const std::string& path);

// A two-dimensional table and the additive period of each of its rows.
struct TableRecord {
  GameTable table;
  std::vector<RowPeriod> rows;  // rows origin..n-1 of the table, in order
  std::string program_version;
};

// Replaces path atomically, exactly as write_run_file does.
void write_table_file(const std::string& path, const TableRecord& record);
// Refuses a run file ("holds the values of a heap game, not a two-dimensional table") and every
// file read_run_file would refuse for damage or inconsistency. read_run_file and read_run_status
// refuse a table file in turn ("holds a two-dimensional table of wythoff, not ...").
TableRecord read_table_file(const std::string& path);

// Which kind of file this is, from its root alone: a run of a heap game or a table.
enum class FileKind { Run, Table };
FileKind read_file_kind(const std::string& path);

// Throws the StoreError a later write_run_file(path, ...) would throw for a missing or unwritable
// directory, by creating and removing the temporary file it would use: lets a long run fail at
// its start instead of at its first checkpoint.
void check_can_write(const std::string& path);

namespace detail {
// write_run_file, but stamping another format_version: lets tests check that files of other
// versions are refused. Not for normal use.
void write_run_file_as_version(const std::string& path, const RunRecord& record, int format_version);
}  // namespace detail

}  // namespace sgx
