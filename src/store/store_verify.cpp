// Every stored value of a run file read through its checksums (verify_run_file, include/sgx/store.hpp):
// sg_period --verify. The layout is in store_layout.hpp, the HDF5 calls in store_hdf5.hpp.

#include <algorithm>
#include <string>
#include <vector>

#include "sgx/store.hpp"
#include "store/store_hdf5.hpp"
#include "store/store_layout.hpp"

namespace sgx {

using namespace hdf5;

namespace {

// The length of the chunks of a one-dimensional dataset (every dataset of values is chunked).
hsize_t chunk_length_of(hid_t dset, const std::string& where) {
  auto dcpl = checked(H5Dget_create_plist(dset), H5Pclose, where);
  hsize_t length = 0;
  if (H5Pget_layout(dcpl) != H5D_CHUNKED || H5Pget_chunk(dcpl, 1, &length) != 1 || length == 0)
    throw not_ours(where + " is not a chunked one-dimensional dataset");
  return length;
}

// Reads the length values of dset one chunk at a time, so that each read passes exactly one chunk
// through the filters, its Fletcher-32 checksum among them. first: the index of the dataset's
// first value in G. Each chunk that fails is added to report as damaged, named by where.
void verify_chunks(hid_t dset, hsize_t length, std::uint64_t first, const std::string& where,
                   RunVerification& report) {
  const hsize_t chunk = chunk_length_of(dset, where);
  // Read as stored: the checksums are what is checked, and a conversion would only cost time.
  auto file_type = checked(H5Dget_type(dset), H5Tclose, where);
  auto memory_type = checked(H5Tget_native_type(file_type, H5T_DIR_ASCEND), H5Tclose, where);
  std::vector<char> buffer(static_cast<std::size_t>(std::min(chunk, length)) * H5Tget_size(memory_type));
  auto file_space = checked(H5Dget_space(dset), H5Sclose, where);
  for (hsize_t offset = 0; offset < length; offset += chunk) {
    const hsize_t count = std::min(chunk, length - offset);
    ++report.chunks;
    try {
      check(H5Sselect_hyperslab(file_space, H5S_SELECT_SET, &offset, nullptr, &count, nullptr), where);
      auto memory_space = checked(H5Screate_simple(1, &count, nullptr), H5Sclose, where);
      check(H5Dread(dset, memory_type, memory_space, file_space, H5P_DEFAULT, buffer.data()), where);
    } catch (const Hdf5Failure& failure) {
      report.damaged.push_back({first + offset, first + offset + count, where, "the chunk " + damage_reason(failure)});
    }
  }
}

// Format versions 3 and 4: every segment named by the manifest, each chunk of each.
void verify_segments(hid_t file, const std::string& path, const RunStatus& status, RunVerification& report) {
  const std::vector<RunSegment> segments = read_segment_list(file, status.n);
  report.segments = segments.size();
  report.values = status.n;
  for (const RunSegment& segment : segments) {
    const std::string where = "segment file " + segment_link(path, segment.start, segment.end);
    try {
      const OpenSegment open = open_segment(path, status.game, segment);
      verify_chunks(open.values, segment.end - segment.start, segment.start, where, report);
    } catch (const SegmentDamageError& e) {
      report.damaged.push_back({segment.start, segment.end, where, "the file " + e.reason()});
    } catch (const StoreError& e) {  // there, but not the segment the manifest names
      report.damaged.push_back({segment.start, segment.end, where, std::string("the file ") + e.what()});
    } catch (const Hdf5Failure& failure) {
      report.damaged.push_back({segment.start, segment.end, where, "the file " + damage_reason(failure)});
    }
  }
}

// A whole file (versions 1 and 2): /values, and /tail for a run with a released middle.
void verify_whole_file(hid_t file, const RunStatus& status, RunVerification& report) {
  const bool kept_parts = status.format_version == kReleasedFormatVersion;
  auto values = open_dataset(file, "/", "values");
  const hsize_t length = dataset_length(values, "/values");
  if (length != (kept_parts ? status.prefix_n : status.n))
    throw StoreError("is inconsistent: its root attributes and /values disagree on the values it holds");
  verify_chunks(values, length, 0, "/values", report);
  report.values += length;
  if (!kept_parts) return;
  auto tail = open_dataset(file, "/", "tail");
  const hsize_t tail_length = dataset_length(tail, "/tail");
  if (tail_length != status.n - status.tail_start)
    throw StoreError("is inconsistent: its root attributes and /tail disagree on the values it holds");
  verify_chunks(tail, tail_length, status.tail_start, "/tail", report);
  report.values += tail_length;
}

}  // namespace

RunVerification verify_run_file(const std::string& path) {
  read_run_file(path, LoadValues::None);  // everything but the values, checked as every reader does
  return read_checked(path, [&] {
    auto file = open_run_file(path);
    const RunStatus status = read_status(file);
    RunVerification report;
    if (status.segmented())
      verify_segments(file, path, status, report);
    else
      verify_whole_file(file, status, report);
    return report;
  });
}

}  // namespace sgx
