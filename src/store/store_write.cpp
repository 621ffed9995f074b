// Writing run files: whole files (format versions 1 and 2, write_run_file) and runs written as
// they go (format version 3, RunFileWriter). The layout is in store_layout.hpp, the HDF5 calls in
// store_hdf5.hpp.

#include "store/store_write.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <ctime>
#include <filesystem>
#include <limits>
#include <span>
#include <type_traits>
#include <vector>

#include "base/atomic_file.hpp"
#include "base/os_error.hpp"
#include "store/store_counter.hpp"
#include "store/store_hdf5.hpp"
#include "store/store_layout.hpp"

namespace sgx {

using namespace hdf5;

namespace {

// A run with a released middle (run_octal --memory) keeps G(0..P-1) and G(L..n-1): /values takes
// the prefix and /tail the tail, each written from the storage where it lies (the middle's pages
// are unmapped, and copying the kept values would need as much memory again).
void write_values(hid_t file, const ValuesView& values) {
  values.visit([&](const auto& storage) {
    if (!values.has_released()) {
      write_dataset(file, "values", storage);
      return;
    }
    write_dataset(file, "values", std::span(storage.data(), values.prefix_end()));
    write_dataset(file, "tail", std::span(storage.data() + values.tail_start(), values.size() - values.tail_start()));
  });
}

// The root attributes of a run file; description says how /values maps onto G.
void write_root_attributes(hid_t file, const RunInfo& info, const ValuesView& values, int format_version,
                           const std::string& description) {
  static_assert(sizeof(int) == sizeof(std::int32_t));
  write_attribute<std::int32_t>(file, "format_version", format_version);
  write_string_attribute(file, "game", info.game);
  write_attribute<std::uint64_t>(file, "n", values.size());
  if (values.has_released()) {
    write_attribute<std::uint64_t>(file, "prefix_n", values.prefix_end());
    write_attribute<std::uint64_t>(file, "tail_start", values.tail_start());
  }
  write_attribute<std::uint8_t>(file, "complete", info.complete);
  write_attribute<std::uint64_t>(file, "target_n", info.complete ? values.size() : info.target_n);
  write_string_attribute(file, "engine", info.engine);
  write_string_attribute(file, "program_version", info.program_version);
  write_string_attribute(file, "created", utc_now_iso8601());
  write_string_attribute(file, "description", description);
}

// A whole file (format version 1, or 2 with a released middle): the values are in it.
void write_root(hid_t file, const RunInfo& info, const ValuesView& values, int format_version) {
  write_root_attributes(file, info, values, format_version,
                        values.has_released()
                            ? "values[n] = G(n) for n < prefix_n, tail[n - tail_start] = G(n) for n >= tail_start"
                            : "values[n] = G(n), G(0) at index 0");
  write_values(file, values);
}

void write_stats(hid_t file, const SparseStats& stats) {
  auto group = create_group(file, "stats");
  write_attribute<std::uint64_t>(group, "rare_mask", stats.rare_mask.values);
  if (stats.rare_mask.with_position) write_attribute<std::uint8_t>(group, "rare_position_bit", 1);
  write_attribute<std::uint64_t>(group, "rare_count", stats.rare_count);
  write_attribute<std::int64_t>(group, "last_rare", stats.last_rare);
  write_attribute<std::uint32_t>(group, "max_value", stats.max_value);
  write_attribute<std::uint64_t>(group, "max_at", stats.max_at);
  if (!stats.histogram.empty()) write_dataset(group, "histogram", stats.histogram);
}

// Empty lists are left out, as in /stats and /period; readers take a missing one for empty.
void write_sparse_state(hid_t file, const SparseState& state) {
  auto group = create_group(file, "sparse");
  write_attribute<std::uint64_t>(group, "mask", state.mask.values);
  if (state.mask.with_position) write_attribute<std::uint8_t>(group, "position_bit", 1);
  write_attribute<std::uint32_t>(group, "max_value", state.max_value);
  write_attribute<std::uint64_t>(group, "max_at", state.max_at);
  if (!state.histogram.empty()) write_dataset(group, "histogram", state.histogram);
  if (!state.odd_histogram.empty()) write_dataset(group, "odd_histogram", state.odd_histogram);
  if (!state.rare_positions.empty()) write_dataset(group, "rare_positions", state.rare_positions);
  if (!state.rare_values.empty()) write_dataset(group, "rare_values", state.rare_values);
}

// /provenance, one row per stretch of the run (ProvenanceLayout).
void write_provenance(hid_t file, const std::vector<Provenance>& rows) {
  const std::string where = "/provenance";
  const ProvenanceLayout layout(rows);
  auto type = layout.type();
  const std::vector<char> bytes = layout.pack(rows);
  const hsize_t length = rows.size(), chunk = std::max<hsize_t>(length, 1), unlimited = H5S_UNLIMITED;
  auto space = checked(H5Screate_simple(1, &length, &unlimited), H5Sclose, where);
  auto dcpl = checked(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, where);
  check(H5Pset_chunk(dcpl, 1, &chunk), where);
  check(H5Pset_fletcher32(dcpl), where);
  auto dset = checked(H5Dcreate2(file, "provenance", type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT), H5Dclose, where);
  if (length > 0) check(H5Dwrite(dset, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, bytes.data()), where);
  check(H5Dclose(dset.release()), where);
}

void write_period(hid_t file, const PeriodResult& period) {
  auto group = create_group(file, "period");
  write_attribute<std::uint8_t>(group, "found", period.found);
  write_attribute<std::uint8_t>(group, "proven", period.proven);
  write_attribute<std::uint64_t>(group, "preperiod", period.preperiod);
  write_attribute<std::uint64_t>(group, "period", period.period);
  write_attribute<std::int64_t>(group, "saltus", period.saltus);
  write_string_attribute(group, "theorem", period.theorem);
  write_attribute<std::uint64_t>(group, "proof_needs_n", period.proof_needs_n);
  write_attribute<std::uint64_t>(group, "checked_n", period.checked_n);
  if (!period.exceptions.empty()) write_dataset(group, "exceptions", period.exceptions);
}

// The version a run file is stamped with: a version-1 reader must not take a file with a released
// middle for a whole run.
int format_version_for(const ValuesView& values) {
  return values.has_released() ? kReleasedFormatVersion : kWholeFormatVersion;
}

bool uses_position_mask(const RunInfo& info) {
  return info.stats.rare_mask.with_position || (info.sparse_state && info.sparse_state->mask.with_position);
}

// A manifest is stamped version 4 only when it needs to be, so that older programs read the rest.
int manifest_format_version(const RunInfo& info) {
  return uses_position_mask(info) ? kPositionMaskFormatVersion : kSegmentedFormatVersion;
}

// What a run file holds (the references must outlive the call that uses it).
FileContents run_contents(const RunInfo& info, const ValuesView& values, int format_version) {
  return [&info, &values, format_version](hid_t file) {
    check_run_to_write(info, values);
    if (uses_position_mask(info))
      throw StoreError("a rare mask with the heap's parity needs format version 4, which only a run written as it "
                       "goes (RunFileWriter) has");
    write_root(file, info, values, format_version);
    write_stats(file, info.stats);
    write_period(file, info.period);
    if (info.sparse_state) write_sparse_state(file, *info.sparse_state);
    if (!info.provenance.empty()) write_provenance(file, info.provenance);
    if (info.counter) write_counter(file, *info.counter);
  };
}

// ---------------------------------------------------------------------------------------------
// Format version 3.

// G(start..end-1) are all held in memory.
bool holds_range(const ValuesView& values, std::uint64_t start, std::uint64_t end) {
  if (end > values.size()) return false;
  return !values.has_released() || end <= values.prefix_end() || start >= values.tail_start();
}

FileContents segment_contents(const ValuesView& values, std::uint64_t start, std::uint64_t end, const std::string& game) {
  return [&values, start, end, &game](hid_t file) {
    write_attribute<std::int32_t>(file, "format_version", kSegmentedFormatVersion);
    write_string_attribute(file, "kind", kSegmentKind);
    write_string_attribute(file, "game", game);
    write_attribute<std::uint64_t>(file, "start", start);
    write_string_attribute(file, "description", "values[k] = G(start + k)");
    values.visit([&](const auto& storage) {
      write_dataset(file, "values", std::span(storage.data() + start, end - start));
    });
  };
}

// /values of a manifest: a virtual dataset of G(0..n-1) in the values' current type, mapped onto
// the segments (older segments may have a narrower type; HDF5 converts on reading). Positions no
// segment covers (a segment file lost) read as the type's largest value, never a plausible 0.
template <class Segments>
void write_virtual_values(hid_t file, const std::string& manifest_path, const Segments& segments,
                          const ValuesView& values) {
  values.visit([&](const auto& storage) {
    using T = typename std::decay_t<decltype(storage)>::value_type;
    const std::string where = "/values";
    const hsize_t n = values.size();
    auto space = checked(H5Screate_simple(1, &n, nullptr), H5Sclose, where);
    auto dcpl = checked(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, where);
    const T missing = std::numeric_limits<T>::max();
    check(H5Pset_fill_value(dcpl, H5Type<T>::mem(), &missing), where);
    for (const auto& segment : segments) {
      const hsize_t start = segment.start, length = segment.end - segment.start, one = 1;
      check(H5Sselect_hyperslab(space, H5S_SELECT_SET, &start, nullptr, &one, &length), where);
      auto source = checked(H5Screate_simple(1, &length, nullptr), H5Sclose, where);
      check(H5Pset_virtual(dcpl, space, segment_link(manifest_path, segment.start, segment.end).c_str(), "/values",
                           source),
            where);
    }
    check(H5Sselect_all(space), where);
    auto dset = checked(H5Dcreate2(file, "values", H5Type<T>::file(), space, H5P_DEFAULT, dcpl, H5P_DEFAULT),
                        H5Dclose, where);
    check(H5Dclose(dset.release()), where);
  });
}

template <class Segments>
FileContents manifest_contents(const std::string& path, const RunInfo& info, const ValuesView& values,
                               const Segments& segments) {
  return [&path, &info, &values, &segments](hid_t file) {
    check_run_to_write(info, values);
    write_root_attributes(file, info, values, manifest_format_version(info),
                          "values[n] = G(n), a virtual dataset over the segment files in " +
                              std::filesystem::path(path).filename().string() + ".d");
    write_virtual_values(file, path, segments, values);
    std::vector<std::uint64_t> starts, ends;
    for (const auto& segment : segments) {
      starts.push_back(segment.start);
      ends.push_back(segment.end);
    }
    auto group = create_group(file, "segments");
    write_dataset(group, "start", starts);
    write_dataset(group, "end", ends);
    write_stats(file, info.stats);
    write_period(file, info.period);
    if (info.sparse_state) write_sparse_state(file, *info.sparse_state);
    if (!info.provenance.empty()) write_provenance(file, info.provenance);
    if (info.counter) write_counter(file, *info.counter);
  };
}

}  // namespace

void write_run_file(const std::string& path, const RunInfo& info, const ValuesView& values) {
  write_file(path, run_contents(info, values, format_version_for(values)));
}

void write_run_file(const std::string& path, const RunRecord& record) {
  write_run_file(path, record, record.values);
}

namespace detail {
void write_run_file_as_version(const std::string& path, const RunRecord& record, int format_version) {
  const ValuesView values = record.values;  // outlives the write, which refers to it
  write_file(path, run_contents(record, values, format_version));
}
}  // namespace detail

void check_can_write(const std::string& path) {
  check_directory_of(path);
  struct stat info {};
  if (::stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode))
    throw StoreError("cannot write " + path + ": is a directory");
  const std::string probe = temporary_path_for(path);
  ::unlink(probe.c_str());  // a leftover of a crashed process that had our pid
  int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd < 0) throw StoreError("cannot write " + path + ": " + os_reason(errno));
  ::close(fd);
  ::unlink(probe.c_str());
}

RunFileWriter RunFileWriter::start(const std::string& path, const std::string& game) {
  RunFileWriter writer(path);
  writer.game_ = game;
  writer.make_directory();
  return writer;
}

RunFileWriter RunFileWriter::resume(const std::string& path) {
  RunFileWriter writer(path);
  read_file(path, [&] {
    auto file = open_run_file(path);
    const RunStatus status = read_status(file);
    if (!status.holds_every_value())
      throw StoreError("holds " + kept_values_text(status.prefix_n, status.tail_start, status.n) +
                       " only (format version 2): it cannot be continued as segments");
    writer.game_ = status.game;
    writer.saved_n_ = status.n;
    if (status.segmented()) {
      writer.segments_ = read_segment_list(file, status.n);
      writer.durable_n_ = status.n;
      // The complete segments lead; what follows them are pieces of the next one.
      for (const RunSegment& segment : writer.segments_)
        if (segment.start == writer.full_end_ && segment.end == segment_end(segment.start)) writer.full_end_ = segment.end;
    }
  });
  writer.make_directory();
  return writer;
}

void RunFileWriter::make_directory() const {
  const std::string directory = segment_directory(path_);
  if (::mkdir(directory.c_str(), 0777) != 0 && errno != EEXIST)
    throw StoreError("cannot create " + directory + ": " + os_reason(errno));
  struct stat info {};
  if (::stat(directory.c_str(), &info) != 0 || !S_ISDIR(info.st_mode))
    throw StoreError("cannot create " + directory + ": a file of that name is in the way");
}

void RunFileWriter::write_segment(const ValuesView& values, std::uint64_t start, std::uint64_t end) {
  if (!holds_range(values, start, end))
    throw StoreError("cannot write " + path_ + ": G(" + std::to_string(start) + ".." + std::to_string(end) +
                     "-1) is not on disk yet, and memory holds only " + values.kept_text());
  const std::string segment_path = segment_directory(path_) + "/" + segment_file_name(start, end);
  write_file(segment_path, segment_contents(values, start, end, game_), path_);
  segments_.push_back({start, end});
  durable_n_ = std::max(durable_n_, end);
}

// Every complete segment up to values.size(). One whose values are not all in memory any more (a
// run resumed with --memory) stays in the pieces already on disk, completed by one more piece.
void RunFileWriter::write_complete_segments(const ValuesView& values) {
  for (std::uint64_t end = segment_end(full_end_); end <= values.size(); end = segment_end(full_end_)) {
    if (holds_range(values, full_end_, end)) {
      std::erase_if(segments_, [&](const RunSegment& s) { return s.start >= full_end_; });
      durable_n_ = full_end_;
      write_segment(values, full_end_, end);
    } else if (durable_n_ < end) {
      write_segment(values, durable_n_, end);
    }
    full_end_ = end;
  }
}

bool RunFileWriter::has_complete_segment(std::uint64_t n) const { return segment_end(full_end_) <= n; }

std::uint64_t RunFileWriter::first_value_read(const ValuesView& values) const {
  return holds_range(values, full_end_, values.size()) ? full_end_ : durable_n_;
}

void RunFileWriter::save(const RunInfo& info, const ValuesView& values) {
  write_complete_segments(values);
  const std::uint64_t n = values.size();
  const bool pieces = !segments_.empty() && segments_.back().start > full_end_;
  if (info.complete && n > full_end_ && holds_range(values, full_end_, n) && (pieces || durable_n_ < n)) {
    // The finished run: its last segment in one file rather than a piece per checkpoint.
    std::erase_if(segments_, [&](const RunSegment& s) { return s.start >= full_end_; });
    durable_n_ = full_end_;
    write_segment(values, full_end_, n);
  } else if (durable_n_ < n) {
    write_segment(values, durable_n_, n);
  }
  if (durable_n_ != n)
    throw StoreError("cannot write " + path_ + ": its segments hold " + std::to_string(durable_n_) +
                     " values, more than the " + std::to_string(n) + " given");
  write_file(path_, manifest_contents(path_, info, values, segments_));
  saved_n_ = n;
  remove_unnamed_segments();
}

// Pieces a complete segment replaced, and segments of an earlier run: no manifest names them.
// Failures are not reported: a leftover file costs space, not correctness.
void RunFileWriter::remove_unnamed_segments() const {
  namespace fs = std::filesystem;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(segment_directory(path_), error)) {
    const std::string name = entry.path().filename().string();
    if (!is_segment_file_name(name)) continue;
    const bool named = std::any_of(segments_.begin(), segments_.end(), [&](const RunSegment& s) {
      return name == segment_file_name(s.start, s.end);
    });
    if (!named) fs::remove(entry.path(), error);
  }
}

}  // namespace sgx
