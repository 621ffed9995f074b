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
//   /provenance (optional)     compound dataset, one row per stretch of the run (Provenance)
//   /counter, /milestones      (optional, together) the statistics counted as the run went: the
//                              counter's state (counted, max_value, max_at; histogram,
//                              odd_histogram, last_at) and the statistics of G(0..N-1) at every
//                              power of two N <= n, a column per field (StatsCounter::State)
// Format version 2 is a run with a released middle (run_octal --memory, sequence.hpp): it holds
// G(0..P-1) and G(L..n-1) only, and a version-1 reader must not take it for a whole run.
//   attributes on the root:    those of version 1, and prefix_n (P), tail_start (L)
//   /values                    G(0..P-1) only
//   /tail                      G(L..n-1), stored as /values is
//   /sparse (group, required)  the state the run resumes from: the released values cannot be
//                              recounted
// Format version 3 is a run written as it goes (RunFileWriter): every value is on disk, in segment
// files written whole and never changed, in the directory <file>.d beside the file; the file
// itself is a small manifest, replaced atomically at each checkpoint:
//   attributes on the root:    those of version 1; prefix_n, tail_start when the run kept only
//                              G(0..P-1) and G(L..n-1) in memory (run_octal --memory)
//   /values                    an HDF5 virtual dataset of G(0..n-1), mapped onto the segments
//   /segments (group)          start, end: segment k holds G(start[k]..end[k]-1), in order
//   /stats, /period, /sparse   as in version 1 (/sparse required with prefix_n)
// Format version 4 is version 3 with a rare mask that uses the heap's parity (stats.hpp): /stats
// rare_position_bit, /sparse position_bit = 1; /sparse/odd_histogram may be in any version.
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
// the file later. Version 3 applies this to each segment file and then to the manifest.

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "sgx/period.hpp"
#include "sgx/provenance.hpp"
#include "sgx/sequence.hpp"
#include "sgx/sparse_state.hpp"
#include "sgx/stats.hpp"
#include "sgx/table2d.hpp"

namespace sgx {

// Readers take every version from kOldestFormatVersion to kFormatVersion. write_run_file writes
// whole files as version 1 (version 2 for a released middle), so that older programs still read
// them; RunFileWriter writes version 3, or version 4 when a rare mask uses the heap's parity (the
// same layout, which older programs must not read with the mask taken for one without it). Table
// files are version 1.
inline constexpr int kOldestFormatVersion = 1;
inline constexpr int kWholeFormatVersion = 1;
inline constexpr int kReleasedFormatVersion = 2;
inline constexpr int kSegmentedFormatVersion = 3;
inline constexpr int kPositionMaskFormatVersion = 4;
inline constexpr int kFormatVersion = 4;  // the newest

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
  // Every stretch of the run so far, oldest first (empty in files written before /provenance).
  std::vector<Provenance> provenance;
  // The statistics counted as the run went, with those at every power of two (/counter and
  // /milestones): it counts exactly the file's n values. None in files written before them.
  std::optional<StatsCounter::State> counter;
};

struct RunRecord : RunInfo {
  Sequence values;
};

// Replaces path atomically. The values are given apart so that a running engine's values can be
// written without a copy (a Sequence, or a view of one another thread reads: PinnedValues). Values with a released middle make a version-2 file (see the top).
// A rare-value state that contradicts the values (see read_run_file) is refused here already:
// a file this program would refuse to read is never written.
void write_run_file(const std::string& path, const RunInfo& info, const ValuesView& values);
void write_run_file(const std::string& path, const RunRecord& record);
// Which values read_run_file loads into memory.
enum class LoadValues {
  // What the run kept: for a run with --memory (format version 2 or 3 with prefix_n), only
  // G(0..P-1) and G(L..n-1), with prefix_end, tail_start and size as written; else all.
  AsRun,
  // Every value. Refused for a version-2 file, which does not hold its released middle.
  All,
  // None: values stays empty (read them a block at a time with run_file_reader). Every part of the
  // file but the values is read and checked as for the others.
  None,
};
RunRecord read_run_file(const std::string& path, LoadValues load = LoadValues::AsRun);
// G(from..to-1) of the run in path, from the file alone (any format version; in version 2 only
// stored values can be read).
std::vector<Value> read_run_values(const std::string& path, std::uint64_t from, std::uint64_t to);
// The same as a ValueReader (period.hpp), for reading a run file a block at a time: each call
// reads G(from..to-1) straight into out, opening the file anew, so that a reader holds nothing
// between blocks. Throws StoreError as read_run_values does.
ValueReader run_file_reader(const std::string& path);

// Which run a file holds and how far it got, read without loading the values (quick for any size).
// Refuses the same files read_run_file refuses for their header.
struct RunStatus {
  std::string game;
  std::uint64_t n = 0;
  bool complete = true;
  std::uint64_t target_n = 0;
  // Format version 2: only G(0..prefix_n-1) and G(tail_start..n-1) are stored. Both 0 otherwise.
  // Format version 3 stores them for a run with --memory too, but holds every value as well.
  std::uint64_t prefix_n = 0;
  std::uint64_t tail_start = 0;
  int format_version = 0;
  bool has_released() const { return tail_start > prefix_n; }
  // False only for a version-2 file with a released middle: those values are in no file.
  bool holds_every_value() const { return !has_released() || segmented(); }
  // Versions 3 and 4: a manifest and segment files.
  bool segmented() const { return format_version >= kSegmentedFormatVersion; }
};
RunStatus read_run_status(const std::string& path);

// One segment file of a version-3 run: G(start..end-1).
struct RunSegment {
  std::uint64_t start, end;
};

// A stretch of a run's stored values that fails its check (verify_run_file).
struct DamagedStretch {
  std::uint64_t start = 0, end = 0;  // G(start..end-1)
  // What holds them: "segment file run.h5.d/values-...h5" (as the manifest names it), or a
  // dataset of a whole file, "/values" or "/tail".
  std::string where;
  // What is wrong, as a clause: "the chunk fails its checksum", "the file is missing (...)".
  std::string reason;
};

// The checks of every stored value of a run file, chunk by chunk.
struct RunVerification {
  std::uint64_t values = 0;    // values the file stores (a version-2 file: its prefix and tail only)
  std::size_t segments = 0;    // segment files (format versions 3 and 4); 0 for a whole file
  std::size_t chunks = 0;      // chunks of values read, each through its Fletcher-32 checksum
  std::vector<DamagedStretch> damaged;  // in order of the values; empty when every check holds
};

// Reads every chunk of stored values of the run in path through HDF5, one chunk at a time, so that
// each chunk's Fletcher-32 checksum is checked and a damaged one is named with the values it holds;
// a segment file that is missing, truncated or not the segment it should be is named whole. The
// rest of the file (its root, statistics, period, rare-value state, provenance, segment list) is
// read and checked as read_run_file reads it, and damage there throws StoreError: the file's own
// record cannot be trusted to name stretches.
RunVerification verify_run_file(const std::string& path);

// Writes a run's file as the run goes (format version 3, see the top). Values reach the disk in
// segment files: a segment of fixed range (2^16 values, then doubling up to 2^24 values each) as
// soon as it is complete, and at a checkpoint, the values since the last one. Each segment file is
// written whole, flushed and renamed into place; then the manifest, the file at path, is replaced
// atomically (see write_run_file). A crash at any instant leaves the last manifest and every
// segment it names whole. A checkpoint writes what was added since the last, not all n values.
// Values are written from the Sequence given (or a ValuesView of one, which another thread may
// write while the Sequence grows: PinnedValues), with no copy of them; those not yet on disk must
// still be held (Sequence::holds) when they are written: see durable_n(). One writer object is used
// by one thread at a time.
class RunFileWriter {
 public:
  // A new run: segment files left in <path>.d by an earlier run are removed. The directory must
  // exist (check_can_write).
  static RunFileWriter start(const std::string& path, const std::string& game);
  // Continues the run in path: a version-3 file keeps its segments; the values of a version-1
  // file are written again as segments (they must be in memory), at the first save.
  static RunFileWriter resume(const std::string& path);

  // Writes each complete segment not on disk yet. Cheap when there is none.
  void write_complete_segments(const ValuesView& values);
  // Whether n values complete a segment not on disk yet (write_complete_segments would write it).
  bool has_complete_segment(std::uint64_t n) const;
  // Besides values in the prefix kept in memory (Sequence::prefix_end), save and
  // write_complete_segments read values from this index on: from the start of the segment under
  // way when all its values are held (it is then written whole, replacing its pieces), else from
  // durable_n(). Another thread writing must not have those released meanwhile.
  std::uint64_t first_value_read(const ValuesView& values) const;
  // Saves the run: every value not on disk yet, then the manifest with info and n = values.size().
  // A finished run (info.complete) has its last segment's pieces joined into one.
  void save(const RunInfo& info, const ValuesView& values);
  // Values G(0..durable_n()-1) are in segment files on disk (some maybe not named by the manifest
  // until the next save): memory may release them.
  std::uint64_t durable_n() const { return durable_n_; }
  // n of the last manifest written, or of the file resumed.
  std::uint64_t saved_n() const { return saved_n_; }

 private:
  explicit RunFileWriter(std::string path) : path_(std::move(path)) {}
  void make_directory() const;
  void write_segment(const ValuesView& values, std::uint64_t start, std::uint64_t end);
  void remove_unnamed_segments() const;

  std::string path_;
  std::string game_;
  std::vector<RunSegment> segments_;  // on disk, in order, covering G(0..durable_n_-1)
  std::uint64_t full_end_ = 0;      // segments below this are complete (a segment boundary)
  std::uint64_t durable_n_ = 0;
  std::uint64_t saved_n_ = 0;
};

// The directory of the segment files of the run file at path: <path>.d
std::string segment_directory(const std::string& path);

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
// Which table a file holds, read from its root alone (quick for any size): the game's name
// ("wythoff", "cut") and n. Refuses the files read_table_file refuses for their root.
struct TableStatus {
  std::string game;
  std::uint64_t n = 0;
};
TableStatus read_table_status(const std::string& path);

// Which kind of file this is, from its root alone: a run of a heap game or a table.
enum class FileKind { Run, Table };
FileKind read_file_kind(const std::string& path);

// Throws the StoreError a later write_run_file(path, ...) would throw for a missing or unwritable
// directory, by creating and removing the temporary file it would use: lets a long run fail at
// its start instead of at its first checkpoint.
void check_can_write(const std::string& path);

}  // namespace sgx
