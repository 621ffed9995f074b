#pragma once
// The layout of run files and its checks (private to the library; the layout itself is described
// in include/sgx/store.hpp and docs/FORMAT.md): the format versions, the kinds of file, the root
// attributes every reader takes first, the segments of format version 3 and their names, the
// /provenance rows, and the rare-value state checked against n. store_write.cpp and store_read.cpp
// build on it; store_table.cpp shares the versions and kinds.

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "sgx/provenance.hpp"
#include "sgx/sparse_state.hpp"
#include "sgx/store.hpp"
#include "store/store_hdf5.hpp"

namespace sgx {

// The root attribute kind tells the files apart: run files (the older kind) have none.
inline constexpr const char* kTableKind = "table2d";
inline constexpr const char* kSegmentKind = "segment";

// ---------------------------------------------------------------------------------------------
// Opening a file: its version first, then its kind.

// Opens path read-only and checks its format_version first, before anything else, so that a
// future layout gets that message and no other.
hdf5::Handle open_file(const std::string& path);
// The kind attribute of the root: "" for a run file, which has none.
std::string file_kind(hid_t file);
// open_file, refusing a table file or a file of unknown kind.
hdf5::Handle open_run_file(const std::string& path);
// The root attributes of a run file, checked against each other.
RunStatus read_status(hid_t file);

// A rare mask stored with the heap's parity (where: the flag that says so): whether game's two-heap
// splits take an odd number of tokens. Refused (StoreError, "is inconsistent: ...") when game is
// none, or its splits take both parities.
bool position_mask_takes_odd(const std::string& game, const std::string& where);

// ---------------------------------------------------------------------------------------------
// Format version 3: segment files and the manifest that joins them (RunFileWriter).

// Segment boundaries: 0, 2^16, 2^17, ... 2^24, then every 2^24 values. Small runs get small
// files; a segment of a long run is one 1-MiB chunk or a few dozen, and its file image (built in
// memory, see store_hdf5.cpp) stays far below the values' size.
inline constexpr std::uint64_t kFirstSegmentEnd = std::uint64_t{1} << 16;
inline constexpr std::uint64_t kLargestSegment = std::uint64_t{1} << 24;

// The end of the segment starting at the boundary start.
std::uint64_t segment_end(std::uint64_t start);
// values-<start>-<end>.h5, zero-padded so that a listing sorts in order.
std::string segment_file_name(std::uint64_t start, std::uint64_t end);
bool is_segment_file_name(const std::string& name);
// The segment as the manifest's virtual dataset names it: relative to the manifest's directory,
// which is where HDF5 (and h5py) look for it.
std::string segment_link(const std::string& manifest_path, std::uint64_t start, std::uint64_t end);

// The segments a manifest names, checked: in order, each following the last, together G(0..n-1).
std::vector<RunSegment> read_segment_list(hid_t file, std::uint64_t n);

// The stretch of values a segment holds, as messages name it: "G(65536..131072-1)".
std::string segment_stretch_text(const RunSegment& segment);

// A segment file missing or unreadable, as the error of its run file: "is damaged: its segment file
// run.h5.d/values-...h5, which holds G(65536..131072-1), is truncated (...)". The segment and
// what is wrong with it ("is truncated (...)") are kept apart for sg_period --verify's list.
class SegmentDamageError : public StoreError {
 public:
  SegmentDamageError(const std::string& path, const RunSegment& segment, const std::string& reason);
  const RunSegment& segment() const { return segment_; }
  const std::string& reason() const { return reason_; }

 private:
  RunSegment segment_;
  std::string reason_;
};

// The damage HDF5 met reading the segment file of segment of the run at path.
SegmentDamageError segment_damage(const std::string& path, const RunSegment& segment,
                                  const hdf5::Hdf5Failure& failure);
// What a failure of HDF5 reading values says is wrong with them, worded to follow the name of the
// file or stretch: "is truncated (shorter than its header says)", "fails its checksum", ...
std::string damage_reason(const hdf5::Hdf5Failure& failure);

// One segment file of a version-3 run, opened and checked: its kind, game and start, and the
// type and length of its values. A segment file missing or unreadable is named, with its values.
struct OpenSegment {
  hdf5::Handle file;
  hdf5::Handle values;  // closed before the file
  std::string where;
  std::size_t value_bytes;
};
OpenSegment open_segment(const std::string& path, const std::string& game, const RunSegment& segment);

// ---------------------------------------------------------------------------------------------
// What must hold for a run file to be written or read.

// The numbers of the rare-value state that must agree with each other and with n, the number of
// values: what is wrong, or "" if nothing. Checked when writing and when reading, because a run
// with a released middle resumes from this state and cannot recount it from its values.
std::string sparse_state_problem(const SparseState& state, std::uint64_t n);

// Refuses, before anything is written, a run file that could not be resumed or read back.
void check_run_to_write(const RunInfo& info, const ValuesView& values);

// ---------------------------------------------------------------------------------------------
// /provenance: a compound dataset, one row per stretch, its strings fixed-length (sized to the
// longest), chunked and checksummed like every dataset. The rows are packed little-endian, the
// file's byte order.
class ProvenanceLayout {
 public:
  // The layout that holds rows.
  explicit ProvenanceLayout(const std::vector<Provenance>& rows);
  // The compound type of a row.
  hdf5::Handle type() const;
  std::vector<char> pack(const std::vector<Provenance>& rows) const;

  // The string fields, in the order of the row.
  static constexpr std::pair<const char*, std::string Provenance::*> kStrings[] = {
      {"command", &Provenance::command}, {"version", &Provenance::version}, {"commit", &Provenance::commit},
      {"host", &Provenance::host},       {"started", &Provenance::started}, {"ended", &Provenance::ended}};

 private:
  struct Member {
    const char* name;
    std::size_t offset, size;
    std::string Provenance::*string_field;  // null for a number
    hid_t number_type;
  };
  void add_string(const char* name, std::string Provenance::*field, std::size_t size);
  void add_number(const char* name, hid_t type, std::size_t size);
  template <class T>
  void put(char* row, const char* name, T value) const;

  std::vector<Member> members_;
  std::size_t size_ = 0;
};

}  // namespace sgx
