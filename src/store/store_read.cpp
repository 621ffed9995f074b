// Reading run files, whole or in part, of every format version (include/sgx/store.hpp). The
// layout and its checks are in store_layout.hpp, the HDF5 calls in store_hdf5.hpp.

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "sgx/store.hpp"
#include "store/store_counter.hpp"
#include "store/store_hdf5.hpp"
#include "store/store_layout.hpp"

namespace sgx {

using namespace hdf5;

namespace {

// /values into a Sequence of the stored width (uint8, uint16 or uint32), checked against n.
Sequence read_values(hid_t file, std::uint64_t n) {
  auto dset = open_dataset(file, "/", "values");
  Sequence values = sequence_for(dset, "/values");
  hsize_t length = dataset_length(dset, "/values");
  if (length != n)
    throw StoreError("is inconsistent: attribute n is " + std::to_string(n) + " but /values holds " +
                     std::to_string(length) + " values");
  read_into(values, dset, length, "/values");
  return values;
}

// A run with a released middle (format version 2): /values holds G(0..P-1) and /tail G(L..n-1).
// Both are read straight into storage reserved for all n values, between them the middle is
// released unread (Sequence::append_released): memory holds what the file holds, with no copy.
Sequence read_kept_values(hid_t file, const RunStatus& status) {
  auto prefix = open_dataset(file, "/", "values");
  auto tail = open_dataset(file, "/", "tail");
  Sequence values = sequence_for(prefix, "/values");
  if (sequence_for(tail, "/tail").bytes_per_value() != values.bytes_per_value())
    throw StoreError("is inconsistent: /values and /tail have different types");
  const hsize_t prefix_length = dataset_length(prefix, "/values");
  if (prefix_length != status.prefix_n)
    throw StoreError("is inconsistent: attribute prefix_n is " + std::to_string(status.prefix_n) + " but /values holds " +
                     std::to_string(prefix_length) + " values");
  const hsize_t tail_length = dataset_length(tail, "/tail");
  if (tail_length != status.n - status.tail_start)
    throw StoreError("is inconsistent: attributes n and tail_start make " + std::to_string(status.n - status.tail_start) +
                     " tail values but /tail holds " + std::to_string(tail_length));
  values.reserve(status.n);
  values.visit([&](auto& storage) {
    storage.resize(status.prefix_n);  // unwritten until read (PageAllocator::construct)
    read_all(prefix, storage.data(), prefix_length, "/values");
  });
  values.append_released(status.tail_start);
  values.visit([&](auto& storage) {
    storage.resize(status.n);  // within the reserved storage: the released part stays as it is
    read_all(tail, storage.data() + status.tail_start, tail_length, "/tail");
  });
  return values;
}

// A rare mask: its value bits, and the flag for the heap's parity (format version 4), whose flip
// the game's splits decide.
RareMask read_rare_mask(hid_t group, const std::string& at, const char* values_name, const char* position_name,
                        const std::string& game) {
  RareMask mask;
  mask.values = read_attribute<std::uint64_t>(group, at, values_name);
  if (!check_tri(H5Aexists(group, position_name), attribute_where(at, position_name))) return mask;
  mask.with_position = read_attribute<std::uint8_t>(group, at, position_name) != 0;
  if (mask.with_position) mask.odd_takes = position_mask_takes_odd(game, attribute_where(at, position_name));
  return mask;
}

SparseStats read_stats(hid_t file, const std::string& game) {
  auto group = open_group(file, "stats");
  const std::string at = "/stats";
  SparseStats stats;
  stats.rare_mask = read_rare_mask(group, at, "rare_mask", "rare_position_bit", game);
  stats.rare_count = read_attribute<std::uint64_t>(group, at, "rare_count");
  stats.last_rare = read_attribute<std::int64_t>(group, at, "last_rare");
  stats.max_value = read_attribute<std::uint32_t>(group, at, "max_value");
  stats.max_at = read_attribute<std::uint64_t>(group, at, "max_at");
  stats.histogram = read_optional_list(group, at, "histogram");
  return stats;
}

// The rare-value state (/sparse): required in a file with a released middle, which cannot be
// resumed without it, optional otherwise. Checked against n like everything else.
std::optional<SparseState> read_sparse_state(hid_t file, const RunStatus& status) {
  if (!check_tri(H5Lexists(file, "sparse", H5P_DEFAULT), "/sparse")) {
    if (status.has_released())
      throw StoreError("is inconsistent: G(" + std::to_string(status.prefix_n) + ".." +
                       std::to_string(status.tail_start - 1) +
                       ") is released from memory but the file has no /sparse group, the rare-value "
                       "state such a run resumes from");
    return std::nullopt;
  }
  auto group = open_group(file, "sparse");
  const std::string at = "/sparse";
  SparseState state;
  state.mask = read_rare_mask(group, at, "mask", "position_bit", status.game);
  state.max_value = read_attribute<std::uint32_t>(group, at, "max_value");
  state.max_at = read_attribute<std::uint64_t>(group, at, "max_at");
  state.histogram = read_optional_list(group, at, "histogram");
  state.odd_histogram = read_optional_list(group, at, "odd_histogram");
  state.rare_positions = read_optional_list(group, at, "rare_positions");
  state.rare_values = read_optional_list<std::uint32_t>(group, at, "rare_values");
  const std::string problem = sparse_state_problem(state, status.n);
  if (!problem.empty()) throw StoreError("is inconsistent: in /sparse, " + problem);
  return state;
}

// One field of /provenance, read alone (HDF5 picks compound members by name): its type in the
// file, checked to be of the class expected.
Handle provenance_field(hid_t dset_type, const char* name, H5T_class_t type_class) {
  const std::string where = std::string("/provenance field ") + name;
  const int index = H5Tget_member_index(dset_type, name);
  if (index < 0) throw not_ours("/provenance has no field " + std::string(name));
  auto type = checked(H5Tget_member_type(dset_type, static_cast<unsigned>(index)), H5Tclose, where);
  if (H5Tget_class(type) != type_class || (type_class == H5T_STRING && check_tri(H5Tis_variable_str(type), where)))
    throw not_ours(where + " has the wrong type");
  return type;
}

// Reads the field name of every row into buffer, through a memory type holding it alone.
void read_provenance_field(hid_t dset, const char* name, hid_t memory_member, std::size_t size, void* buffer) {
  const std::string where = std::string("/provenance field ") + name;
  auto memory = checked(H5Tcreate(H5T_COMPOUND, size), H5Tclose, where);
  check(H5Tinsert(memory, name, 0, memory_member), where);
  check(H5Dread(dset, memory, H5S_ALL, H5S_ALL, H5P_DEFAULT, buffer), where);
}

template <class T>
void read_provenance_numbers(hid_t dset, hid_t dset_type, const char* name, H5T_class_t type_class,
                             std::vector<Provenance>& rows, T Provenance::*field) {
  (void)provenance_field(dset_type, name, type_class);
  std::vector<T> numbers(rows.size());
  if (!rows.empty()) read_provenance_field(dset, name, H5Type<T>::mem(), sizeof(T), numbers.data());
  for (std::size_t i = 0; i < rows.size(); ++i) rows[i].*field = numbers[i];
}

std::vector<Provenance> read_provenance(hid_t file) {
  const std::string where = "/provenance";
  if (!check_tri(H5Lexists(file, "provenance", H5P_DEFAULT), where)) return {};
  auto dset = checked(H5Dopen2(file, "provenance", H5P_DEFAULT), H5Dclose, where);
  auto type = checked(H5Dget_type(dset), H5Tclose, where);
  if (H5Tget_class(type) != H5T_COMPOUND) throw not_ours(where + " is not a compound dataset");
  std::vector<Provenance> rows(dataset_length(dset, where));
  for (auto [name, field] : ProvenanceLayout::kStrings) {
    auto member = provenance_field(type, name, H5T_STRING);
    const std::size_t size = H5Tget_size(member);
    if (size == 0 || size > (1u << 20)) throw not_ours(where + " field " + name + " is not a fixed-length string");
    auto memory_member = string_type(size - 1, H5Tget_cset(member), where);
    std::vector<char> text(rows.size() * size + 1, '\0');
    if (!rows.empty()) read_provenance_field(dset, name, memory_member, size, text.data());
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const char* start = text.data() + i * size;
      rows[i].*field = std::string(start, strnlen(start, size));
    }
  }
  read_provenance_numbers(dset, type, "threads", H5T_INTEGER, rows, &Provenance::threads);
  read_provenance_numbers(dset, type, "wall_seconds", H5T_FLOAT, rows, &Provenance::wall_seconds);
  read_provenance_numbers(dset, type, "cpu_seconds", H5T_FLOAT, rows, &Provenance::cpu_seconds);
  read_provenance_numbers(dset, type, "first_n", H5T_INTEGER, rows, &Provenance::first_n);
  read_provenance_numbers(dset, type, "values_computed", H5T_INTEGER, rows, &Provenance::values_computed);
  return rows;
}

PeriodResult read_period(hid_t file) {
  auto group = open_group(file, "period");
  const std::string at = "/period";
  PeriodResult period;
  period.found = read_attribute<std::uint8_t>(group, at, "found") != 0;
  period.proven = read_attribute<std::uint8_t>(group, at, "proven") != 0;
  period.preperiod = read_attribute<std::uint64_t>(group, at, "preperiod");
  period.period = read_attribute<std::uint64_t>(group, at, "period");
  period.saltus = read_attribute<std::int64_t>(group, at, "saltus");
  period.theorem = read_string_attribute(group, at, "theorem");
  period.proof_needs_n = read_attribute<std::uint64_t>(group, at, "proof_needs_n");
  period.checked_n = read_attribute<std::uint64_t>(group, at, "checked_n");
  period.exceptions = read_optional_list(group, at, "exceptions");
  return period;
}

// Values offset..offset+count-1 of the one-dimensional dataset dset into out, converted to T.
template <class T>
void read_range(hid_t dset, hsize_t offset, hsize_t count, T* out, const std::string& where) {
  auto file_space = checked(H5Dget_space(dset), H5Sclose, where);
  check(H5Sselect_hyperslab(file_space, H5S_SELECT_SET, &offset, nullptr, &count, nullptr), where);
  auto memory_space = checked(H5Screate_simple(1, &count, nullptr), H5Sclose, where);
  check(H5Dread(dset, H5Type<T>::mem(), memory_space, file_space, H5P_DEFAULT, out), where);
}

// The same from a dataset of value_bytes-byte values, widened to T here rather than by HDF5's
// conversion: the analysis of 2^30 8-bit values from a file spent 5% of its time in that conversion.
template <class T>
void read_range_widened(hid_t dset, std::size_t value_bytes, hsize_t offset, hsize_t count, T* out,
                        const std::string& where) {
  auto widen = [&](auto narrow) {
    using Narrow = decltype(narrow);
    std::vector<Narrow> buffer(count);
    read_range(dset, offset, count, buffer.data(), where);
    std::copy(buffer.begin(), buffer.end(), out);
  };
  if (value_bytes == 1 && sizeof(T) > 1) return widen(std::uint8_t{});
  if (value_bytes == 2 && sizeof(T) > 2) return widen(std::uint16_t{});
  read_range(dset, offset, count, out, where);
}

// ---------------------------------------------------------------------------------------------
// Format version 3.

// G(from..to-1) of a version-3 run into out (out[0] = G(from)), from the segment files.
template <class T>
void read_from_segments(const std::string& path, const std::string& game, const std::vector<RunSegment>& segments,
                        T* out, std::uint64_t from, std::uint64_t to) {
  for (const RunSegment& segment : segments) {
    const std::uint64_t low = std::max(from, segment.start), high = std::min(to, segment.end);
    if (low >= high) continue;
    const OpenSegment open = open_segment(path, game, segment);
    if (open.value_bytes > sizeof(T))
      throw StoreError("is inconsistent: " + open.where + " holds " + std::to_string(8 * open.value_bytes) +
                       "-bit values, wider than the run's last segment");
    try {
      read_range_widened(open.values, open.value_bytes, low - segment.start, high - low, out + (low - from),
                         open.where);
    } catch (const Hdf5Failure& failure) {
      throw segment_damage(path, segment, failure);
    }
  }
}

// The values of a version-3 run: all of them, or for LoadValues::AsRun and a run with --memory
// only what it kept in memory (read_kept_values does the same for version 2). They come in the
// type of the last segment, the widest (values only widen). The virtual /values is not opened:
// its mapping lies in HDF5's global heap, which has no checksum, so a damaged byte there could
// mislead HDF5; /segments and the segment files are checksummed throughout.
Sequence read_segmented_values(hid_t file, const std::string& path, const RunStatus& status, LoadValues load) {
  const std::vector<RunSegment> segments = read_segment_list(file, status.n);
  Sequence values =
      sequence_of_width(segments.empty() ? 1 : open_segment(path, status.game, segments.back()).value_bytes);
  const bool kept_only = load == LoadValues::AsRun && status.has_released();
  values.reserve(status.n);
  values.visit([&](auto& storage) {
    const std::uint64_t end = kept_only ? status.prefix_n : status.n;
    storage.resize(end);  // unwritten until read (PageAllocator::construct)
    read_from_segments(path, status.game, segments, storage.data(), 0, end);
  });
  if (!kept_only) return values;
  values.append_released(status.tail_start);
  values.visit([&](auto& storage) {
    storage.resize(status.n);
    read_from_segments(path, status.game, segments, storage.data() + status.tail_start, status.tail_start, status.n);
  });
  return values;
}

RunRecord read_hdf5(const std::string& path, LoadValues load) {
  auto file = open_run_file(path);
  RunStatus status = read_status(file);
  RunRecord record;
  record.game = status.game;
  record.complete = status.complete;
  record.target_n = status.target_n;
  record.engine = read_string_attribute(file, "/", "engine");
  record.program_version = read_string_attribute(file, "/", "program_version");
  record.stats = read_stats(file, status.game);
  record.period = read_period(file);
  record.sparse_state = read_sparse_state(file, status);
  record.provenance = read_provenance(file);
  record.counter = read_counter(file, status);
  // The big ones last: damage elsewhere is found quickly.
  if (load == LoadValues::None) return record;
  if (status.segmented()) {
    record.values = read_segmented_values(file, path, status, load);
  } else if (status.format_version == kReleasedFormatVersion) {
    if (load == LoadValues::All && !status.holds_every_value())
      throw StoreError("holds " + kept_values_text(status.prefix_n, status.tail_start, status.n) +
                       " only (format version 2): the values between are in no file");
    record.values = read_kept_values(file, status);
  } else {
    record.values = read_values(file, status.n);
  }
  return record;
}


}  // namespace

RunRecord read_run_file(const std::string& path, LoadValues load) {
  return read_checked(path, [&] { return read_hdf5(path, load); });
}

namespace {

// G(from..to-1) into out, from the file alone: read_run_values without a vector of its own. Only
// the values asked for are read (a whole version-1 file would make reading it by blocks cost n
// per block), except from a version-2 file, whose stored values are read whole.
void read_run_values_into(const std::string& path, std::uint64_t from, std::uint64_t to, Value* out) {
  auto file = open_run_file(path);
  const RunStatus status = read_status(file);
  if (from > to || to > status.n)
    throw StoreError("holds G(0.." + std::to_string(status.n) + "-1): G(" + std::to_string(from) + ".." +
                     std::to_string(to) + "-1) is not in it");
  if (from == to) return;
  if (status.segmented()) {
    read_from_segments(path, status.game, read_segment_list(file, status.n), out, from, to);
    return;
  }
  if (status.format_version != kReleasedFormatVersion) {
    auto dset = open_dataset(file, "/", "values");
    const hsize_t length = dataset_length(dset, "/values");
    if (length != status.n)
      throw StoreError("is inconsistent: attribute n is " + std::to_string(status.n) + " but /values holds " +
                       std::to_string(length) + " values");
    read_range(dset, from, to - from, out, "/values");
    return;
  }
  const Sequence stored = read_kept_values(file, status);
  for (std::uint64_t i = from; i < to; ++i) {
    if (!stored.holds(i))
      throw StoreError("holds " + stored.kept_text() + " only (format version 2): G(" + std::to_string(i) +
                       ") is in no file");
    out[i - from] = stored[i];
  }
}

}  // namespace

std::vector<Value> read_run_values(const std::string& path, std::uint64_t from, std::uint64_t to) {
  return read_checked(path, [&] {
    std::vector<Value> values(to >= from ? to - from : 0);
    read_run_values_into(path, from, to, values.data());
    return values;
  });
}

ValueReader run_file_reader(const std::string& path) {
  return [path](std::uint64_t from, std::uint64_t to, Value* out) {
    read_file(path, [&] { read_run_values_into(path, from, to, out); });
  };
}

RunStatus read_run_status(const std::string& path) {
  return read_checked(path, [&] { return read_status(open_run_file(path)); });
}

FileKind read_file_kind(const std::string& path) {
  return read_checked(path, [&]() -> FileKind {
    const std::string kind = file_kind(open_file(path));
    if (kind.empty()) return FileKind::Run;
    if (kind == kTableKind) return FileKind::Table;
    throw not_ours("its kind '" + kind + "' is unknown");
  });
}

}  // namespace sgx
