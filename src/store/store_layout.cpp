// The layout of run files and its checks (store_layout.hpp).

#include "store/store_layout.hpp"

#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "sgx/rules.hpp"
#include "base/os_error.hpp"

namespace sgx {

using namespace hdf5;

namespace {

void check_format_version(hid_t file) {
  if (!check_tri(H5Aexists(file, "format_version"), attribute_where("/", "format_version")))
    throw not_ours("it has no format_version attribute");
  auto version = read_attribute<std::int32_t>(file, "/", "format_version");
  if (version < kOldestFormatVersion || version > kFormatVersion)
    throw StoreError("was written by " + std::string(version > kFormatVersion ? "a newer" : "an older") +
                     " format version " + std::to_string(version) + "; this program reads versions " +
                     std::to_string(kOldestFormatVersion) + " to " + std::to_string(kFormatVersion));
}

int format_version_of(hid_t file) { return read_attribute<std::int32_t>(file, "/", "format_version"); }

}  // namespace

Handle open_file(const std::string& path) {
  auto fapl = file_access();
  auto file = checked(H5Fopen(path.c_str(), H5F_ACC_RDONLY, fapl), H5Fclose, "the file header");
  check_format_version(file);
  return file;
}

std::string file_kind(hid_t file) {
  if (!check_tri(H5Aexists(file, "kind"), attribute_where("/", "kind"))) return "";
  return read_string_attribute(file, "/", "kind");
}

Handle open_run_file(const std::string& path) {
  auto file = open_file(path);
  const std::string kind = file_kind(file);
  if (kind == kTableKind)
    throw StoreError("holds a two-dimensional table of " + read_string_attribute(file, "/", "game") +
                     ", not the values of a heap game");
  if (!kind.empty()) throw not_ours("its kind '" + kind + "' is unknown");
  return file;
}

// Files written before checkpoints existed have no complete and target_n: they were written only
// at the end of a run, so they are complete.
RunStatus read_status(hid_t file) {
  RunStatus status;
  status.format_version = format_version_of(file);
  status.game = read_string_attribute(file, "/", "game");
  status.n = read_attribute<std::uint64_t>(file, "/", "n");
  status.complete = true;
  status.target_n = status.n;
  if (check_tri(H5Aexists(file, "complete"), attribute_where("/", "complete")))
    status.complete = read_attribute<std::uint8_t>(file, "/", "complete") != 0;
  if (check_tri(H5Aexists(file, "target_n"), attribute_where("/", "target_n")))
    status.target_n = read_attribute<std::uint64_t>(file, "/", "target_n");
  // Required in version 2; in version 3 present only for a run that released values from memory.
  const bool kept_parts = status.format_version == kReleasedFormatVersion ||
                          (status.segmented() &&
                           check_tri(H5Aexists(file, "prefix_n"), attribute_where("/", "prefix_n")));
  if (kept_parts) {
    status.prefix_n = read_attribute<std::uint64_t>(file, "/", "prefix_n");
    status.tail_start = read_attribute<std::uint64_t>(file, "/", "tail_start");
    if (status.prefix_n > status.tail_start || status.tail_start > status.n)
      throw StoreError("is inconsistent: attributes prefix_n " + std::to_string(status.prefix_n) + ", tail_start " +
                       std::to_string(status.tail_start) + " and n " + std::to_string(status.n) +
                       " are not in increasing order");
  }
  return status;
}

// ---------------------------------------------------------------------------------------------
// Format version 3.

std::string segment_directory(const std::string& path) { return path + ".d"; }

std::uint64_t segment_end(std::uint64_t start) {
  if (start < kFirstSegmentEnd) return kFirstSegmentEnd;
  if (start < kLargestSegment) return 2 * start;
  return start + kLargestSegment;
}

std::string segment_file_name(std::uint64_t start, std::uint64_t end) {
  char name[64];
  std::snprintf(name, sizeof name, "values-%012llu-%012llu.h5", static_cast<unsigned long long>(start),
                static_cast<unsigned long long>(end));
  return name;
}

bool is_segment_file_name(const std::string& name) {
  unsigned long long start = 0, end = 0;
  int consumed = 0;
  return std::sscanf(name.c_str(), "values-%20llu-%20llu.h5%n", &start, &end, &consumed) == 2 &&
         static_cast<std::size_t>(consumed) == name.size() && name == segment_file_name(start, end);
}

std::string segment_link(const std::string& manifest_path, std::uint64_t start, std::uint64_t end) {
  return std::filesystem::path(manifest_path).filename().string() + ".d/" + segment_file_name(start, end);
}

std::vector<RunSegment> read_segment_list(hid_t file, std::uint64_t n) {
  auto group = open_group(file, "segments");
  const auto starts = read_optional_list(group, "/segments", "start");
  const auto ends = read_optional_list(group, "/segments", "end");
  if (starts.size() != ends.size())
    throw StoreError("is inconsistent: /segments/start lists " + std::to_string(starts.size()) +
                     " segments but /segments/end " + std::to_string(ends.size()));
  std::vector<RunSegment> segments;
  std::uint64_t covered = 0;
  for (std::size_t i = 0; i < starts.size(); ++i) {
    if (starts[i] != covered || ends[i] <= starts[i])
      throw StoreError("is inconsistent: segment " + std::to_string(i) + " holds G(" + std::to_string(starts[i]) +
                       ".." + std::to_string(ends[i]) + "-1), but G(" + std::to_string(covered) + ") comes next");
    segments.push_back({starts[i], ends[i]});
    covered = ends[i];
  }
  if (covered != n)
    throw StoreError("is inconsistent: attribute n is " + std::to_string(n) + " but its segments hold " +
                     std::to_string(covered) + " values");
  return segments;
}

std::string segment_stretch_text(const RunSegment& segment) {
  return "G(" + std::to_string(segment.start) + ".." + std::to_string(segment.end) + "-1)";
}

SegmentDamageError::SegmentDamageError(const std::string& path, const RunSegment& segment, const std::string& reason)
    : StoreError("is damaged: its segment file " + segment_link(path, segment.start, segment.end) + ", which holds " +
                 segment_stretch_text(segment) + ", " + reason),
      segment_(segment),
      reason_(reason) {}

std::string damage_reason(const Hdf5Failure& failure) {
  const Diagnosis& why = failure.why;
  if (why.not_hdf5) return "is not an HDF5 file";
  if (why.truncated) return "is truncated (shorter than its header says)";
  if (why.data_checksum) return "fails its checksum";
  if (why.metadata_checksum) return "fails a checksum of its metadata";
  if (!why.os_error.empty()) return "cannot be read: " + why.os_error;
  return "cannot be read: " + failure.where + " (" + why.detail + ")";
}

SegmentDamageError segment_damage(const std::string& path, const RunSegment& segment, const Hdf5Failure& failure) {
  return SegmentDamageError(path, segment, damage_reason(failure));
}

namespace {

// open_segment once the file is known to be there; HDF5's failures are named by the caller.
OpenSegment open_segment_file(const std::string& file_path, const std::string& path, const std::string& game,
                              const RunSegment& segment) {
  const std::string shown = segment_link(path, segment.start, segment.end);
  auto fapl = file_access();
  auto file = checked(H5Fopen(file_path.c_str(), H5F_ACC_RDONLY, fapl), H5Fclose, "segment file " + shown);
  if (!check_tri(H5Aexists(file, "kind"), attribute_where(shown, "kind")) ||
      read_string_attribute(file, shown, "kind") != kSegmentKind || read_string_attribute(file, shown, "game") != game ||
      read_attribute<std::uint64_t>(file, shown, "start") != segment.start)
    throw StoreError("is inconsistent: " + shown + " is not the segment of G(" + std::to_string(segment.start) +
                     "..) of " + game);
  auto values = open_dataset(file, shown, "values");
  const std::string where = shown + "/values";
  const IntegerType type = dataset_type(values, where);
  if (!is_unsigned(type, 1) && !is_unsigned(type, 2) && !is_unsigned(type, 4))
    throw not_ours(where + " is not an 8-, 16- or 32-bit unsigned integer dataset");
  const hsize_t length = dataset_length(values, where);
  if (length != segment.end - segment.start)
    throw StoreError("is inconsistent: " + where + " holds " + std::to_string(length) + " values, not " +
                     std::to_string(segment.end - segment.start));
  return {std::move(file), std::move(values), where, type.size};
}

}  // namespace

OpenSegment open_segment(const std::string& path, const std::string& game, const RunSegment& segment) {
  const std::string file_path = segment_directory(path) + "/" + segment_file_name(segment.start, segment.end);
  if (::access(file_path.c_str(), F_OK) != 0)
    throw SegmentDamageError(path, segment, "is missing (" + os_reason(errno) + ")");
  try {
    return open_segment_file(file_path, path, game, segment);
  } catch (const Hdf5Failure& failure) {
    throw segment_damage(path, segment, failure);
  }
}

// ---------------------------------------------------------------------------------------------
// Checks.

std::string sparse_state_problem(const SparseState& state, std::uint64_t n) {
  const auto& positions = state.rare_positions;
  if (positions.size() != state.rare_values.size())
    return "rare_positions holds " + std::to_string(positions.size()) + " positions but rare_values " +
           std::to_string(state.rare_values.size()) + " values";
  for (std::size_t i = 0; i < positions.size(); ++i) {
    if (positions[i] >= n)
      return "rare position " + std::to_string(positions[i]) + " is not below n = " + std::to_string(n);
    if (i > 0 && positions[i] <= positions[i - 1])
      return "rare_positions is not increasing: " + std::to_string(positions[i]) + " follows " +
             std::to_string(positions[i - 1]);
  }
  // Made-up counts could add up to n modulo 2^64.
  std::uint64_t counted = 0;
  bool wrapped = false;
  for (std::uint64_t count : state.histogram) wrapped |= __builtin_add_overflow(counted, count, &counted);
  if (wrapped) return "the histogram counts 2^64 positions or more, not n = " + std::to_string(n);
  if (counted != n)
    return "the histogram counts " + std::to_string(counted) + " positions, not n = " + std::to_string(n);
  for (std::size_t v = 0; v < state.odd_histogram.size(); ++v)
    if (state.odd_histogram[v] > (v < state.histogram.size() ? state.histogram[v] : 0))
      return "odd_histogram counts " + std::to_string(state.odd_histogram[v]) + " odd positions of value " +
             std::to_string(v) + ", more than the histogram's positions of it";
  if (state.max_at >= std::max<std::uint64_t>(n, 1))  // 0 when there are no values
    return "max_at is " + std::to_string(state.max_at) + ", not below n = " + std::to_string(n);
  return "";
}

bool position_mask_takes_odd(const std::string& game, const std::string& where) {
  SplitTakeParity splits = SplitTakeParity::Mixed;
  try {
    splits = parse_rules(game).split_take_parity();
  } catch (const ParseError&) {
    throw StoreError("is inconsistent: " + where + " needs a game, and '" + game + "' is none");
  }
  if (splits == SplitTakeParity::Mixed)
    throw StoreError("is inconsistent: " + where + " uses the heap's parity, which " + game +
                     " does not allow (its two-heap splits take numbers of both parities, or none)");
  return splits == SplitTakeParity::Odd;
}

void check_run_to_write(const RunInfo& info, const ValuesView& values) {
  if (values.has_released() && !info.sparse_state)
    throw StoreError("G(" + std::to_string(values.prefix_end()) + ".." + std::to_string(values.tail_start() - 1) +
                     ") was released to bound memory, and such a file needs the rare-value state to be resumed, "
                     "but none was given");
  if (info.sparse_state) {
    const std::string problem = sparse_state_problem(*info.sparse_state, values.size());
    if (!problem.empty()) throw StoreError("the rare-value state is inconsistent: " + problem);
  }
  if (info.counter) {
    std::string problem = check_counter_state(*info.counter);
    if (problem.empty() && info.counter->counted != values.size())
      problem = "they count " + std::to_string(info.counter->counted) + " values, not " + std::to_string(values.size());
    if (!problem.empty()) throw StoreError("the statistics counted so far are inconsistent: " + problem);
  }
}

// ---------------------------------------------------------------------------------------------
// /provenance.

ProvenanceLayout::ProvenanceLayout(const std::vector<Provenance>& rows) {
  static_assert(std::endian::native == std::endian::little, "rows are packed in the file's byte order");
  auto longest = [&rows](std::string Provenance::*field) {
    std::size_t size = 0;
    for (const Provenance& row : rows) size = std::max(size, (row.*field).size());
    return size + 1;
  };
  for (auto [name, field] : kStrings) add_string(name, field, longest(field));
  add_number("threads", H5T_STD_U32LE, sizeof(std::uint32_t));
  add_number("wall_seconds", H5T_IEEE_F64LE, sizeof(double));
  add_number("cpu_seconds", H5T_IEEE_F64LE, sizeof(double));
  add_number("first_n", H5T_STD_U64LE, sizeof(std::uint64_t));
  add_number("values_computed", H5T_STD_U64LE, sizeof(std::uint64_t));
}

Handle ProvenanceLayout::type() const {
  auto type = checked(H5Tcreate(H5T_COMPOUND, size_), H5Tclose, "/provenance");
  for (const Member& member : members_) {
    if (member.string_field) {
      auto string = string_type(member.size - 1, H5T_CSET_UTF8, "/provenance");
      check(H5Tinsert(type, member.name, member.offset, string), "/provenance");
    } else {
      check(H5Tinsert(type, member.name, member.offset, member.number_type), "/provenance");
    }
  }
  return type;
}

std::vector<char> ProvenanceLayout::pack(const std::vector<Provenance>& rows) const {
  std::vector<char> bytes(rows.size() * size_, '\0');
  for (std::size_t i = 0; i < rows.size(); ++i) {
    char* row = bytes.data() + i * size_;
    const Provenance& p = rows[i];
    for (const Member& member : members_) {
      if (member.string_field) {
        const std::string& text = p.*member.string_field;
        std::memcpy(row + member.offset, text.data(), text.size());
      }
    }
    put(row, "threads", p.threads);
    put(row, "wall_seconds", p.wall_seconds);
    put(row, "cpu_seconds", p.cpu_seconds);
    put(row, "first_n", p.first_n);
    put(row, "values_computed", p.values_computed);
  }
  return bytes;
}

void ProvenanceLayout::add_string(const char* name, std::string Provenance::*field, std::size_t size) {
  members_.push_back({name, size_, size, field, H5I_INVALID_HID});
  size_ += size;
}

void ProvenanceLayout::add_number(const char* name, hid_t type, std::size_t size) {
  members_.push_back({name, size_, size, nullptr, type});
  size_ += size;
}

template <class T>
void ProvenanceLayout::put(char* row, const char* name, T value) const {
  for (const Member& member : members_)
    if (std::strcmp(member.name, name) == 0) std::memcpy(row + member.offset, &value, sizeof value);
}

}  // namespace sgx
