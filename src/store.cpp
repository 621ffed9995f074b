// The HDF5 run file (layout in include/sgx/store.hpp and docs/FORMAT.md).
//
// Integrity: the file is written in the HDF5 1.10 format, where every piece of metadata (superblock,
// object headers with their attributes, chunk indexes) carries a checksum, and every dataset is
// chunked with the Fletcher-32 filter, so raw data is checksummed too. Strings are fixed-length
// because variable-length ones live in the global heap, which has no checksum. Together this means
// any damaged byte that matters is detected on read instead of being returned as data.
//
// Writing: HDF5 builds the file in memory (the core driver) and we write the bytes ourselves. HDF5
// 1.10 handles a failed disk write badly: a file whose close failed (disk full) stays open inside
// the library and crashes it at exit, and the core driver writing its own backing file crashed
// outright when we tried it on a full disk.
// With the file in memory, HDF5 never touches the disk, and every disk error is a plain errno of
// ours. The price is memory: the finished (compressed) file is held once, as HDF5 builds it.
// (H5Fget_file_image would copy it, and in 1.10.8 returns a superblock with a stale checksum.)
//
// Errors: HDF5 failures are caught right where they happen (check()), diagnosed from HDF5's error
// stack and turned into one-line StoreErrors naming the file; HDF5 itself prints nothing.

#include "sgx/store.hpp"

#include <fcntl.h>
#include <hdf5.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

namespace sgx {

std::string utc_now_iso8601() {
  std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

namespace {

// ---------------------------------------------------------------------------------------------
// HDF5 plumbing: error diagnosis, checked calls, handles that close themselves.

// What went wrong in the last failed HDF5 call, read off HDF5's error stack.
struct Diagnosis {
  std::string detail;    // the innermost (most specific) description
  std::string os_error;  // e.g. "no space left on device" when a system call failed underneath
  bool data_checksum = false;      // Fletcher-32 of a chunk of a dataset
  bool metadata_checksum = false;  // superblock, object header, chunk index...
  bool truncated = false;
  bool not_hdf5 = false;
};

// Thrown by check(); write_run_file and read_run_file turn it into a StoreError.
struct Hdf5Failure {
  std::string where;  // the object or step, e.g. "/values" or "attribute n of /"
  Diagnosis why;
};

std::string lowercase_first(std::string text) {
  if (text.size() > 1 && std::isupper(static_cast<unsigned char>(text[0])) &&
      std::islower(static_cast<unsigned char>(text[1])))
    text[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(text[0])));
  return text;
}

std::string os_reason(int error) { return lowercase_first(std::strerror(error)); }

// The sec2 driver reports failed system calls as "..., error message = 'No space left on device', ...".
std::string os_error_in(const std::string& desc) {
  const std::string key = "error message = '";
  auto start = desc.find(key);
  if (start == std::string::npos) return "";
  start += key.size();
  auto end = desc.find('\'', start);
  if (end == std::string::npos) return "";
  return lowercase_first(desc.substr(start, end - start));
}

bool contains(const std::string& text, const char* part) { return text.find(part) != std::string::npos; }

// Must run right after the failed call: the next HDF5 API call clears the stack.
Diagnosis diagnose() {
  std::vector<std::string> descs;
  H5Ewalk2(
      H5E_DEFAULT, H5E_WALK_UPWARD,
      [](unsigned, const H5E_error2_t* error, void* data) -> herr_t {
        static_cast<std::vector<std::string>*>(data)->push_back(error->desc ? error->desc : "");
        return 0;
      },
      &descs);
  Diagnosis d;
  d.detail = descs.empty() ? "unknown HDF5 error" : descs.front();
  for (const auto& desc : descs) {
    if (d.os_error.empty()) d.os_error = os_error_in(desc);
    if (contains(desc, "Fletcher32")) d.data_checksum = true;
    if (contains(desc, "metadata checksum")) d.metadata_checksum = true;
    if (contains(desc, "truncated file")) d.truncated = true;
    if (contains(desc, "signature not found")) d.not_hdf5 = true;
  }
  return d;
}

hid_t check(hid_t id, const std::string& where) {
  if (id < 0) throw Hdf5Failure{where, diagnose()};
  return id;
}
void check(herr_t status, const std::string& where) {
  if (status < 0) throw Hdf5Failure{where, diagnose()};
}
bool check_tri(htri_t answer, const std::string& where) {
  if (answer < 0) throw Hdf5Failure{where, diagnose()};
  return answer > 0;
}

// Serial HDF5 is not thread-safe: every use of it in this file holds this lock.
std::mutex hdf5_mutex;

// Owns one hid_t and closes it with the matching H5?close, so nothing leaks when we throw.
class Handle {
 public:
  using Closer = herr_t (*)(hid_t);
  Handle(hid_t id, Closer closer) : id_(id), closer_(closer) {}
  Handle(Handle&& other) noexcept : id_(other.release()), closer_(other.closer_) {}
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  Handle& operator=(Handle&&) = delete;
  ~Handle() {
    if (id_ >= 0) closer_(id_);
  }
  operator hid_t() const { return id_; }
  // Hands the id over to a caller that closes it and wants to see that close's result.
  hid_t release() { return std::exchange(id_, H5I_INVALID_HID); }

 private:
  hid_t id_;
  Closer closer_;
};

Handle checked(hid_t id, Handle::Closer closer, const std::string& where) {
  return Handle(check(id, where), closer);
}

// Memory and file types for each C++ type we store. Files are little-endian whatever the host.
template <class T>
struct H5Type;
template <>
struct H5Type<std::uint8_t> {
  static hid_t mem() { return H5T_NATIVE_UINT8; }
  static hid_t file() { return H5T_STD_U8LE; }
};
template <>
struct H5Type<std::uint16_t> {
  static hid_t mem() { return H5T_NATIVE_UINT16; }
  static hid_t file() { return H5T_STD_U16LE; }
};
template <>
struct H5Type<std::uint32_t> {
  static hid_t mem() { return H5T_NATIVE_UINT32; }
  static hid_t file() { return H5T_STD_U32LE; }
};
template <>
struct H5Type<std::uint64_t> {
  static hid_t mem() { return H5T_NATIVE_UINT64; }
  static hid_t file() { return H5T_STD_U64LE; }
};
template <>
struct H5Type<double> {
  static hid_t mem() { return H5T_NATIVE_DOUBLE; }
  static hid_t file() { return H5T_IEEE_F64LE; }
};
template <>
struct H5Type<std::int32_t> {
  static hid_t mem() { return H5T_NATIVE_INT32; }
  static hid_t file() { return H5T_STD_I32LE; }
};
template <>
struct H5Type<std::int64_t> {
  static hid_t mem() { return H5T_NATIVE_INT64; }
  static hid_t file() { return H5T_STD_I64LE; }
};

Handle file_access() {
  auto fapl = checked(H5Pcreate(H5P_FILE_ACCESS), H5Pclose, "file access properties");
  // Closing the file closes whatever is still open in it, so an early exit cannot keep it open.
  check(H5Pset_fclose_degree(fapl, H5F_CLOSE_STRONG), "file access properties");
#if H5_VERSION_GE(1, 10, 7)
  // Some cluster file systems have no flock(); our files are never shared while being written.
  check(H5Pset_file_locking(fapl, false, true), "file access properties");
#endif
  return fapl;
}

// ---------------------------------------------------------------------------------------------
// Writing.

std::string attribute_where(const std::string& object, const char* name) {
  return std::string("attribute ") + name + " of " + object;
}

template <class T>
void write_attribute(hid_t object, const char* name, T value) {
  auto space = checked(H5Screate(H5S_SCALAR), H5Sclose, name);
  auto attr = checked(H5Acreate2(object, name, H5Type<T>::file(), space, H5P_DEFAULT, H5P_DEFAULT),
                      H5Aclose, name);
  check(H5Awrite(attr, H5Type<T>::mem(), &value), name);
}

// Fixed length, NUL-terminated, UTF-8 (variable-length strings would bypass the checksums).
Handle string_type(std::size_t length, H5T_cset_t cset, const std::string& where) {
  auto type = checked(H5Tcopy(H5T_C_S1), H5Tclose, where);
  check(H5Tset_size(type, length + 1), where);
  check(H5Tset_strpad(type, H5T_STR_NULLTERM), where);
  check(H5Tset_cset(type, cset), where);
  return type;
}

void write_string_attribute(hid_t object, const char* name, const std::string& value) {
  auto type = string_type(value.size(), H5T_CSET_UTF8, name);
  auto space = checked(H5Screate(H5S_SCALAR), H5Sclose, name);
  auto attr = checked(H5Acreate2(object, name, type, space, H5P_DEFAULT, H5P_DEFAULT), H5Aclose, name);
  check(H5Awrite(attr, type, value.c_str()), name);
}

// About 1 MiB per chunk: large enough that deflate works well and the chunk index stays tiny,
// and it fits HDF5's default 1 MiB chunk cache. Never longer than the data (at least 1).
hsize_t chunk_length(hsize_t n, std::size_t value_bytes) {
  return std::clamp<hsize_t>(n, 1, (hsize_t{1} << 20) / value_bytes);
}

// A dataset of shape dims, chunks of shape chunk: chunked, shuffled (wide types compress much
// better), deflate level 1 (fast), and Fletcher-32 last so the checksum covers the bytes as they
// lie on disk. A 1-D dataset may grow (unlimited), so zero length works too.
template <class T>
void write_array(hid_t parent, const char* name, const T* data, const std::vector<hsize_t>& dims,
                 const std::vector<hsize_t>& chunk) {
  const std::string where = name;
  const int rank = static_cast<int>(dims.size());
  const hsize_t unlimited = H5S_UNLIMITED;
  auto space = checked(H5Screate_simple(rank, dims.data(), rank == 1 ? &unlimited : nullptr), H5Sclose, where);
  auto dcpl = checked(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, where);
  check(H5Pset_chunk(dcpl, rank, chunk.data()), where);
  if (sizeof(T) > 1) check(H5Pset_shuffle(dcpl), where);
  check(H5Pset_deflate(dcpl, 1), where);
  check(H5Pset_fletcher32(dcpl), where);
  auto dset = checked(H5Dcreate2(parent, name, H5Type<T>::file(), space, H5P_DEFAULT, dcpl, H5P_DEFAULT),
                      H5Dclose, where);
  hsize_t count = 1;
  for (hsize_t d : dims) count *= d;
  if (count > 0) check(H5Dwrite(dset, H5Type<T>::mem(), H5S_ALL, H5S_ALL, H5P_DEFAULT, data), where);
  // Chunks wait in the chunk cache until this close: a failure to store them shows up only here
  // (unchecked, HDF5 would drop them and the values would read back as zeros).
  check(H5Dclose(dset.release()), where);
}

// A 1-D dataset, in chunks of about 1 MiB. data: a vector or a span.
template <class Vector>
void write_dataset(hid_t parent, const char* name, const Vector& data) {
  const hsize_t length = data.size();
  write_array(parent, name, data.data(), {length}, {chunk_length(length, sizeof(data[0]))});
}


// The numbers of the rare-value state that must agree with each other and with n, the number of
// values: what is wrong, or "" if nothing. Checked when writing and when reading, because a run
// with a released middle resumes from this state and cannot recount it from its values.
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

// A run with a released middle (run_octal --memory) keeps G(0..P-1) and G(L..n-1): /values takes
// the prefix and /tail the tail, each written from the storage where it lies (the middle's pages
// are unmapped, and copying the kept values would need as much memory again).
void write_values(hid_t file, const Sequence& values) {
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
void write_root_attributes(hid_t file, const RunInfo& info, const Sequence& values, int format_version,
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
void write_root(hid_t file, const RunInfo& info, const Sequence& values, int format_version) {
  write_root_attributes(file, info, values, format_version,
                        values.has_released()
                            ? "values[n] = G(n) for n < prefix_n, tail[n - tail_start] = G(n) for n >= tail_start"
                            : "values[n] = G(n), G(0) at index 0");
  write_values(file, values);
}

Handle create_group(hid_t file, const char* name) {
  return checked(H5Gcreate2(file, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose, name);
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

// /provenance: a compound dataset, one row per stretch, its strings fixed-length (sized to the
// longest), chunked and checksummed like every dataset. The rows are packed little-endian, the
// file's byte order.
class ProvenanceLayout {
 public:
  explicit ProvenanceLayout(const std::vector<Provenance>& rows) {
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

  // The compound type of a row.
  Handle type() const {
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

  std::vector<char> pack(const std::vector<Provenance>& rows) const {
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
  void add_string(const char* name, std::string Provenance::*field, std::size_t size) {
    members_.push_back({name, size_, size, field, H5I_INVALID_HID});
    size_ += size;
  }
  void add_number(const char* name, hid_t type, std::size_t size) {
    members_.push_back({name, size_, size, nullptr, type});
    size_ += size;
  }
  template <class T>
  void put(char* row, const char* name, T value) const {
    for (const Member& member : members_)
      if (std::strcmp(member.name, name) == 0) std::memcpy(row + member.offset, &value, sizeof value);
  }

  std::vector<Member> members_;
  std::size_t size_ = 0;
};

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

// ---------------------------------------------------------------------------------------------
// Two-dimensional tables: the same machinery, another layout (docs/FORMAT.md). Their root has a
// kind attribute, which run files (the older kind) have not.

constexpr const char* kTableKind = "table2d";

void write_rows(hid_t file, const std::vector<RowPeriod>& rows) {
  auto group = create_group(file, "rows");
  std::vector<std::uint8_t> found;
  std::vector<std::uint64_t> preperiod, period;
  std::vector<std::int64_t> saltus;
  for (const RowPeriod& row : rows) {
    found.push_back(row.found);
    preperiod.push_back(row.preperiod);
    period.push_back(row.period);
    saltus.push_back(row.saltus);
  }
  write_dataset(group, "found", found);
  write_dataset(group, "preperiod", preperiod);
  write_dataset(group, "period", period);
  write_dataset(group, "saltus", saltus);
}

void write_table(hid_t file, const TableRecord& record) {
  const GameTable& table = record.table;
  const hsize_t side = table.side();
  if (record.rows.size() != side)
    throw StoreError("the table has " + std::to_string(side) + " rows but " + std::to_string(record.rows.size()) +
                     " row results were given");
  write_attribute<std::int32_t>(file, "format_version", kWholeFormatVersion);
  write_string_attribute(file, "kind", kTableKind);
  write_string_attribute(file, "game", table_game_name(table.game()));
  write_attribute<std::uint64_t>(file, "n", table.n());
  write_attribute<std::uint64_t>(file, "origin", table.origin());
  write_attribute<std::uint32_t>(file, "max_value", table.max_value());
  write_string_attribute(file, "program_version", record.program_version);
  write_string_attribute(file, "created", utc_now_iso8601());
  write_string_attribute(file, "description",
                         "table[i][j] = G(origin + i, origin + j); rows/*[i] describe row a = origin + i");
  table.cells().visit([&](const auto& cells) {
    using T = typename std::decay_t<decltype(cells)>::value_type;
    // Whole rows, about 1 MiB of them per chunk: a row or a corner reads one chunk or a few.
    const hsize_t rows_per_chunk = std::clamp<hsize_t>((hsize_t{1} << 20) / (side * sizeof(T)), 1, side);
    write_array(file, "table", cells.data(), {side, side}, {rows_per_chunk, side});
  });
  write_rows(file, record.rows);
}

// The in-memory file of HDF5's core driver, kept when HDF5 closes the file instead of freed:
// HDF5 allocates it through these callbacks, and hands it back to image_free on close.
class MemoryImage {
 public:
  MemoryImage() = default;
  MemoryImage(const MemoryImage&) = delete;
  MemoryImage& operator=(const MemoryImage&) = delete;
  ~MemoryImage() { std::free(closed_); }

  H5FD_file_image_callbacks_t callbacks() {
    H5FD_file_image_callbacks_t c{};
    c.image_malloc = [](std::size_t size, H5FD_file_image_op_t, void* self) {
      return static_cast<MemoryImage*>(self)->track(std::malloc(size), size);
    };
    c.image_realloc = [](void* old, std::size_t size, H5FD_file_image_op_t, void* self) {
      return static_cast<MemoryImage*>(self)->track(std::realloc(old, size), size);
    };
    c.image_memcpy = [](void* dest, const void* src, std::size_t size, H5FD_file_image_op_t, void*) {
      return std::memcpy(dest, src, size);
    };
    c.image_free = [](void* buffer, H5FD_file_image_op_t op, void* self) -> herr_t {
      auto* image = static_cast<MemoryImage*>(self);
      if (op == H5FD_FILE_IMAGE_OP_FILE_CLOSE && buffer == image->live_) {
        std::free(image->closed_);
        image->closed_ = std::exchange(image->live_, nullptr);
        image->closed_capacity_ = image->live_capacity_;
      } else {
        if (buffer == image->live_) image->live_ = nullptr;
        std::free(buffer);
      }
      return 0;
    };
    // HDF5 copies property lists; every copy refers to this one object.
    c.udata_copy = [](void* self) { return self; };
    c.udata_free = [](void*) -> herr_t { return 0; };
    c.udata = this;
    return c;
  }

  // The bytes of the closed file: as many as its superblock's end-of-file address says. Checks the
  // fields that address depends on (superblock version 2 or 3, 8-byte addresses, base address 0).
  std::pair<const char*, std::size_t> bytes() const {
    const auto* b = reinterpret_cast<const unsigned char*>(closed_);
    static const unsigned char signature[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};
    if (!b || closed_capacity_ < 48 || std::memcmp(b, signature, 8) != 0 || (b[8] != 2 && b[8] != 3) ||
        b[9] != 8 || read_le64(b + 12) != 0)
      throw StoreError("HDF5 produced no usable file image");
    std::uint64_t eof = read_le64(b + 28);
    if (eof < 48 || eof > closed_capacity_) throw StoreError("HDF5 produced an inconsistent file image");
    return {static_cast<const char*>(closed_), static_cast<std::size_t>(eof)};
  }

 private:
  static std::uint64_t read_le64(const unsigned char* p) {
    std::uint64_t value = 0;
    for (int i = 7; i >= 0; --i) value = value << 8 | p[i];
    return value;
  }
  void* track(void* buffer, std::size_t size) {
    if (buffer) {
      live_ = buffer;
      live_capacity_ = size;
    }
    return buffer;
  }

  void* live_ = nullptr;  // the buffer HDF5 is building the file in
  std::size_t live_capacity_ = 0;
  void* closed_ = nullptr;  // the buffer of the closed file, ours to free
  std::size_t closed_capacity_ = 0;
};

// What goes into a file: called with the open, empty file.
using FileContents = std::function<void(hid_t file)>;

// Builds the complete file in image. name labels the in-memory file; it must not exist on disk,
// because H5Fcreate first tries to open an existing file of that name (and the core driver would
// read all of it into memory).
void build_image(MemoryImage& image, const std::string& name, const FileContents& contents) {
  auto fapl = file_access();
  // The 1.10 format: checksums on all metadata (see the top of this file).
  check(H5Pset_libver_bounds(fapl, H5F_LIBVER_V110, H5F_LIBVER_V110), "file access properties");
  // In memory, growing 4 MiB at a time, never written to disk by HDF5.
  check(H5Pset_fapl_core(fapl, std::size_t{4} << 20, false), "file access properties");
  H5FD_file_image_callbacks_t callbacks = image.callbacks();
  check(H5Pset_file_image_callbacks(fapl, &callbacks), "file access properties");
  auto file = checked(H5Fcreate(name.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl), H5Fclose, "the file");
  contents(file);
  check(H5Fclose(file.release()), "the file");
}

// The directory the file goes into must exist: say so plainly instead of "file not found".
void check_directory_of(const std::string& path) {
  namespace fs = std::filesystem;
  if (path.empty() || fs::path(path).filename().empty())
    throw StoreError("cannot create '" + path + "': not a file name");
  fs::path dir = fs::path(path).parent_path();
  if (dir.empty()) dir = ".";
  struct stat info {};
  if (::stat(dir.c_str(), &info) != 0) {
    int error = errno;
    throw StoreError("cannot create " + path + ": " +
                     (error == ENOENT ? "directory does not exist" : os_reason(error)));
  }
  if (!S_ISDIR(info.st_mode)) throw StoreError("cannot create " + path + ": " + dir.string() + " is not a directory");
}

void write_all(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    ssize_t written = ::write(fd, data, std::min<std::size_t>(size, std::size_t{1} << 30));
    if (written < 0 && errno == EINTR) continue;
    if (written < 0) throw StoreError(os_reason(errno));
    data += written;
    size -= static_cast<std::size_t>(written);
  }
}

// The temporary file beside the target; removed unless it was renamed into place.
class TempFile {
 public:
  explicit TempFile(std::string path) : path_(std::move(path)) {}
  const std::string& path() const { return path_; }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  ~TempFile() {
    if (created_ && !committed_) ::unlink(path_.c_str());
  }
  // A leftover of a crashed process that had our pid: it would be in the way (see build_image).
  void remove_leftover() { ::unlink(path_.c_str()); }
  // Writes the bytes and makes sure they are on disk before any name points at them.
  void write(const char* bytes, std::size_t size) {
    int fd = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0) throw StoreError(os_reason(errno));
    created_ = true;
    try {
      write_all(fd, bytes, size);
      if (::fsync(fd) != 0) throw StoreError(os_reason(errno));
    } catch (...) {
      ::close(fd);
      throw;
    }
    if (::close(fd) != 0) throw StoreError(os_reason(errno));  // NFS may report errors only here
  }
  void rename_to(const std::string& target) {
    if (::rename(path_.c_str(), target.c_str()) != 0) throw StoreError(os_reason(errno));
    committed_ = true;
  }

 private:
  std::string path_;
  bool created_ = false;
  bool committed_ = false;
};

// Makes a rename in dir durable. Failure is not reported: the file under the final name is
// complete either way, and at worst a power cut brings back the previous one.
void sync_directory(const std::string& dir) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  (void)::fsync(fd);
  ::close(fd);
}

std::string describe_write_failure(const Hdf5Failure& failure) {
  if (!failure.why.os_error.empty()) return failure.why.os_error;
  return "HDF5 failed writing " + failure.where + " (" + failure.why.detail + ")";
}

std::string temp_path_for(const std::string& path) { return path + ".tmp-" + std::to_string(::getpid()); }

// shown: the file the messages name ("cannot write <shown>: ..."), path unless said otherwise.
void write_atomically(const std::string& path, const FileContents& contents, const std::string& shown = "") {
  const std::string& name = shown.empty() ? path : shown;
  check_directory_of(path);
  TempFile temp(temp_path_for(path));
  try {
    MemoryImage image;
    temp.remove_leftover();
    {
      std::lock_guard lock(hdf5_mutex);
      H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // HDF5 prints nothing; our message says it all
      build_image(image, temp.path(), contents);
    }
    auto [bytes, size] = image.bytes();
    temp.write(bytes, size);
    temp.rename_to(path);
  } catch (const StoreError& e) {
    throw StoreError("cannot write " + name + ": " + e.what());
  } catch (const Hdf5Failure& failure) {
    throw StoreError("cannot write " + name + ": " + describe_write_failure(failure));
  } catch (const std::bad_alloc&) {
    throw StoreError("cannot write " + name + ": out of memory");
  }
  std::string dir = std::filesystem::path(path).parent_path().string();
  sync_directory(dir.empty() ? "." : dir);
}

// Refuses, before anything is written, a run file that could not be resumed or read back.
void check_run_to_write(const RunInfo& info, const Sequence& values) {
  if (values.has_released() && !info.sparse_state)
    throw StoreError("G(" + std::to_string(values.prefix_end()) + ".." + std::to_string(values.tail_start() - 1) +
                     ") was released to bound memory, and such a file needs the rare-value state to be resumed, "
                     "but none was given");
  if (info.sparse_state) {
    const std::string problem = sparse_state_problem(*info.sparse_state, values.size());
    if (!problem.empty()) throw StoreError("the rare-value state is inconsistent: " + problem);
  }
}

// The version a run file is stamped with: a version-1 reader must not take a file with a released
// middle for a whole run.
int format_version_for(const Sequence& values) {
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
FileContents run_contents(const RunInfo& info, const Sequence& values, int format_version) {
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
  };
}

// ---------------------------------------------------------------------------------------------
// Format version 3: segment files and the manifest that joins them (RunFileWriter).

constexpr const char* kSegmentKind = "segment";
// Segment boundaries: 0, 2^16, 2^17, ... 2^24, then every 2^24 values. Small runs get small
// files; a segment of a long run is one 1-MiB chunk or a few dozen, and its file image (built in
// memory, see build_image) stays far below the values' size.
constexpr std::uint64_t kFirstSegmentEnd = std::uint64_t{1} << 16;
constexpr std::uint64_t kLargestSegment = std::uint64_t{1} << 24;

// The end of the segment starting at the boundary start.
std::uint64_t segment_end(std::uint64_t start) {
  if (start < kFirstSegmentEnd) return kFirstSegmentEnd;
  if (start < kLargestSegment) return 2 * start;
  return start + kLargestSegment;
}

// values-<start>-<end>.h5, zero-padded so that a listing sorts in order.
std::string segment_file_name(std::uint64_t start, std::uint64_t end) {
  char name[64];
  std::snprintf(name, sizeof name, "values-%012llu-%012llu.h5", static_cast<unsigned long long>(start),
                static_cast<unsigned long long>(end));
  return name;
}

bool is_segment_file_name(const std::string& name) {
  unsigned long long start = 0, end = 0;
  int consumed = 0;
  return std::sscanf(name.c_str(), "values-%12llu-%12llu.h5%n", &start, &end, &consumed) == 2 &&
         static_cast<std::size_t>(consumed) == name.size() && name == segment_file_name(start, end);
}

// The segment as the manifest's virtual dataset names it: relative to the manifest's directory,
// which is where HDF5 (and h5py) look for it.
std::string segment_link(const std::string& manifest_path, std::uint64_t start, std::uint64_t end) {
  return std::filesystem::path(manifest_path).filename().string() + ".d/" + segment_file_name(start, end);
}

// G(start..end-1) are all held in memory.
bool holds_range(const Sequence& values, std::uint64_t start, std::uint64_t end) {
  if (end > values.size()) return false;
  return !values.has_released() || end <= values.prefix_end() || start >= values.tail_start();
}

FileContents segment_contents(const Sequence& values, std::uint64_t start, std::uint64_t end, const std::string& game) {
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
                          const Sequence& values) {
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
FileContents manifest_contents(const std::string& path, const RunInfo& info, const Sequence& values,
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
  };
}

// ---------------------------------------------------------------------------------------------
// Reading. Validation failures throw StoreError with a predicate ("is not an sgx run file: ..."),
// which read_run_file prefixes with the path.

// The kind of file the reader under way expects ("run" or "table"), for the messages: set by
// read_checked while it holds hdf5_mutex, so one reader at a time sees it.
const char* expected_kind = "run";

StoreError not_ours(const std::string& why) {
  return StoreError(std::string("is not an sgx ").append(expected_kind).append(" file: ").append(why));
}

void require_attribute(hid_t object, const std::string& object_path, const char* name) {
  if (!check_tri(H5Aexists(object, name), attribute_where(object_path, name)))
    throw not_ours(object_path + " has no attribute " + name);
}

// Opens attribute name of object and checks that it holds a single value of the expected class.
Handle open_scalar_attribute(hid_t object, const std::string& object_path, const char* name, H5T_class_t type_class) {
  require_attribute(object, object_path, name);
  const std::string where = attribute_where(object_path, name);
  auto attr = checked(H5Aopen(object, name, H5P_DEFAULT), H5Aclose, where);
  auto space = checked(H5Aget_space(attr), H5Sclose, where);
  auto type = checked(H5Aget_type(attr), H5Tclose, where);
  if (H5Sget_simple_extent_npoints(space) != 1 || H5Tget_class(type) != type_class)
    throw not_ours(where + " has the wrong type");
  return attr;
}

// Integers must have exactly the stored size and signedness: HDF5 would silently clip otherwise.
template <class T>
T read_attribute(hid_t object, const std::string& object_path, const char* name) {
  const std::string where = attribute_where(object_path, name);
  auto attr = open_scalar_attribute(object, object_path, name, H5T_INTEGER);
  auto type = checked(H5Aget_type(attr), H5Tclose, where);
  bool is_signed = H5Tget_sign(type) == H5T_SGN_2;
  if (H5Tget_size(type) != sizeof(T) || is_signed != std::is_signed_v<T>)
    throw not_ours(where + " has the wrong type");
  T value{};
  check(H5Aread(attr, H5Type<T>::mem(), &value), where);
  return value;
}

std::string read_string_attribute(hid_t object, const std::string& object_path, const char* name) {
  const std::string where = attribute_where(object_path, name);
  auto attr = open_scalar_attribute(object, object_path, name, H5T_STRING);
  auto type = checked(H5Aget_type(attr), H5Tclose, where);
  std::size_t size = H5Tget_size(type);
  if (check_tri(H5Tis_variable_str(type), where) || size == 0 || size > (1u << 20))
    throw not_ours(where + " is not a fixed-length string");
  auto memory_type = string_type(size, H5Tget_cset(type), where);
  std::vector<char> text(size + 1, '\0');
  check(H5Aread(attr, memory_type, text.data()), where);
  return text.data();
}

std::vector<hsize_t> dataset_shape(hid_t dset, const std::string& where) {
  auto space = checked(H5Dget_space(dset), H5Sclose, where);
  const int rank = H5Sget_simple_extent_ndims(space);
  if (rank < 0) check(rank, where);
  std::vector<hsize_t> dims(static_cast<std::size_t>(rank));
  if (rank > 0) check(H5Sget_simple_extent_dims(space, dims.data(), nullptr), where);
  return dims;
}

hsize_t dataset_length(hid_t dset, const std::string& where) {
  auto space = checked(H5Dget_space(dset), H5Sclose, where);
  if (H5Sget_simple_extent_ndims(space) != 1) throw not_ours(where + " is not one-dimensional");
  hsize_t length = 0;
  check(H5Sget_simple_extent_dims(space, &length, nullptr), where);
  return length;
}

// All length values of dset into data.
template <class T>
void read_all(hid_t dset, T* data, hsize_t length, const std::string& where) {
  if (length > 0) check(H5Dread(dset, H5Type<T>::mem(), H5S_ALL, H5S_ALL, H5P_DEFAULT, data), where);
}

template <class T, class Vector = std::vector<T>>
Vector read_dataset(hid_t dset, hsize_t length, const std::string& where) {
  Vector data(length);
  read_all(dset, data.data(), length, where);
  return data;
}

struct IntegerType {
  H5T_class_t type_class;
  std::size_t size;
  H5T_sign_t sign;
};

IntegerType dataset_type(hid_t dset, const std::string& where) {
  auto type = checked(H5Dget_type(dset), H5Tclose, where);
  return {H5Tget_class(type), H5Tget_size(type), H5Tget_sign(type)};
}

bool is_unsigned(const IntegerType& type, std::size_t size) {
  return type.type_class == H5T_INTEGER && type.sign == H5T_SGN_NONE && type.size == size;
}

// An optional dataset of unsigned T (histogram, exceptions, rare positions): absent means empty.
template <class T = std::uint64_t>
std::vector<T> read_optional_list(hid_t group, const std::string& group_path, const char* name) {
  static_assert(std::is_unsigned_v<T>);
  const std::string where = group_path + "/" + name;
  if (!check_tri(H5Lexists(group, name, H5P_DEFAULT), where)) return {};
  auto dset = checked(H5Dopen2(group, name, H5P_DEFAULT), H5Dclose, where);
  if (!is_unsigned(dataset_type(dset, where), sizeof(T)))
    throw not_ours(where + " is not a uint" + std::to_string(8 * sizeof(T)) + " dataset");
  return read_dataset<T>(dset, dataset_length(dset, where), where);
}

// An empty Sequence of values of the given bytes each (1, 2 or 4).
Sequence sequence_of_width(std::size_t bytes) {
  Sequence values;
  if (bytes == 2) values.widen_to_hold(0xFF + 1);
  if (bytes == 4) values.widen_to_hold(0xFFFF + 1);
  return values;
}

// An empty Sequence of the width of a dataset of values (uint8, uint16 or uint32).
Sequence sequence_for(hid_t dset, const std::string& where) {
  const IntegerType type = dataset_type(dset, where);
  if (!is_unsigned(type, 1) && !is_unsigned(type, 2) && !is_unsigned(type, 4))
    throw not_ours(where + " is not an 8-, 16- or 32-bit unsigned integer dataset");
  return sequence_of_width(type.size);
}

// All count values of dset, whatever its shape, into values (of the width sequence_for chose).
void read_into(Sequence& values, hid_t dset, hsize_t count, const std::string& where) {
  values.visit([&](auto& storage) {
    using T = typename std::decay_t<decltype(storage)>::value_type;
    storage = read_dataset<T, ValueVector<T>>(dset, count, where);
  });
}

Handle open_dataset(hid_t parent, const std::string& parent_path, const char* name) {
  const std::string where = (parent_path == "/" ? "/" : parent_path + "/") + name;
  if (!check_tri(H5Lexists(parent, name, H5P_DEFAULT), where)) throw not_ours("it has no " + where + " dataset");
  return checked(H5Dopen2(parent, name, H5P_DEFAULT), H5Dclose, where);
}

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

Handle open_group(hid_t file, const char* name) {
  const std::string where = std::string("/") + name;
  if (!check_tri(H5Lexists(file, name, H5P_DEFAULT), where)) throw not_ours("it has no " + where + " group");
  return checked(H5Gopen2(file, name, H5P_DEFAULT), H5Gclose, where);
}

// A rare mask: its value bits, and the flag for the heap's parity (format version 4), whose flip
// the game's splits decide.
RareMask read_rare_mask(hid_t group, const std::string& at, const char* values_name, const char* position_name,
                        const std::string& game) {
  RareMask mask;
  mask.values = read_attribute<std::uint64_t>(group, at, values_name);
  if (!check_tri(H5Aexists(group, position_name), attribute_where(at, position_name))) return mask;
  mask.with_position = read_attribute<std::uint8_t>(group, at, position_name) != 0;
  if (!mask.with_position) return mask;
  SplitTakeParity splits = SplitTakeParity::Mixed;
  try {
    splits = parse_rules(game).split_take_parity();
  } catch (const ParseError&) {
    throw StoreError("is inconsistent: " + attribute_where(at, position_name) + " needs a game, and '" + game +
                     "' is none");
  }
  if (splits == SplitTakeParity::Mixed)
    throw StoreError("is inconsistent: " + attribute_where(at, position_name) + " uses the heap's parity, which " +
                     game + " does not allow (its two-heap splits take numbers of both parities, or none)");
  mask.odd_takes = splits == SplitTakeParity::Odd;
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

// Checked first, before anything else, so that a future layout gets this message and no other.
void check_format_version(hid_t file) {
  if (!check_tri(H5Aexists(file, "format_version"), attribute_where("/", "format_version")))
    throw not_ours("it has no format_version attribute");
  auto version = read_attribute<std::int32_t>(file, "/", "format_version");
  if (version < kOldestFormatVersion || version > kFormatVersion)
    throw StoreError("was written by " + std::string(version > kFormatVersion ? "a newer" : "an older") +
                     " format version " + std::to_string(version) + "; this program reads versions " +
                     std::to_string(kOldestFormatVersion) + " to " + std::to_string(kFormatVersion));
}

Handle open_file(const std::string& path) {
  auto fapl = file_access();
  auto file = checked(H5Fopen(path.c_str(), H5F_ACC_RDONLY, fapl), H5Fclose, "the file header");
  check_format_version(file);
  return file;
}

// The kind attribute of the root: "" for a run file, which has none.
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

int format_version_of(hid_t file) { return read_attribute<std::int32_t>(file, "/", "format_version"); }

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

// Format version 3: the segments a manifest names, checked: in order, each following the last,
// together G(0..n-1).
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

// One segment file of a version-3 run, opened and checked: its kind, game and start, and the
// type and length of its values.
struct OpenSegment {
  Handle file;
  Handle values;  // closed before the file
  std::string where;
  std::size_t value_bytes;
};

OpenSegment open_segment(const std::string& path, const std::string& game, const RunSegment& segment) {
  const std::string file_path = segment_directory(path) + "/" + segment_file_name(segment.start, segment.end);
  const std::string shown = segment_link(path, segment.start, segment.end);
  if (::access(file_path.c_str(), F_OK) != 0)
    throw StoreError("is damaged: its segment file " + shown + " is missing (" + os_reason(errno) + ")");
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
    const hsize_t offset = low - segment.start, count = high - low;
    auto file_space = checked(H5Dget_space(open.values), H5Sclose, open.where);
    check(H5Sselect_hyperslab(file_space, H5S_SELECT_SET, &offset, nullptr, &count, nullptr), open.where);
    auto memory_space = checked(H5Screate_simple(1, &count, nullptr), H5Sclose, open.where);
    check(H5Dread(open.values, H5Type<T>::mem(), memory_space, file_space, H5P_DEFAULT, out + (low - from)),
          open.where);
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
  // The big ones last: damage elsewhere is found quickly.
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

// One dataset of /rows, of exactly type T and one entry per row.
template <class T>
std::vector<T> read_row_results(hid_t group, const char* name, hsize_t side) {
  auto dset = open_dataset(group, "/rows", name);
  const std::string where = std::string("/rows/") + name;
  const IntegerType type = dataset_type(dset, where);
  if (type.type_class != H5T_INTEGER || type.size != sizeof(T) || (type.sign == H5T_SGN_2) != std::is_signed_v<T>)
    throw not_ours(where + " has the wrong type");
  const hsize_t length = dataset_length(dset, where);
  if (length != side)
    throw StoreError("is inconsistent: the table has " + std::to_string(side) + " rows but " + where + " holds " +
                     std::to_string(length));
  return read_dataset<T>(dset, length, where);
}

TableRecord read_table_hdf5(const std::string& path) {
  auto file = open_file(path);
  const std::string kind = file_kind(file);
  if (kind.empty()) throw StoreError("holds the values of a heap game, not a two-dimensional table");
  if (kind != kTableKind) throw not_ours("its kind '" + kind + "' is unknown");
  const std::string name = read_string_attribute(file, "/", "game");
  const std::optional<TableGame> game = parse_table_game(name);
  if (!game) throw not_ours("its game '" + name + "' has no two-dimensional table");
  const auto n = read_attribute<std::uint64_t>(file, "/", "n");
  const auto origin = read_attribute<std::uint64_t>(file, "/", "origin");
  if (origin != table_origin(*game))
    throw StoreError("is inconsistent: attribute origin is " + std::to_string(origin) + " but tables of " + name +
                     " start at " + std::to_string(table_origin(*game)));
  if (n <= origin || n > kMaxTableN)
    throw StoreError("is inconsistent: attribute n is " + std::to_string(n) + ", outside " +
                     std::to_string(origin + 1) + ".." + std::to_string(kMaxTableN));
  const hsize_t side = n - origin;
  std::string program_version = read_string_attribute(file, "/", "program_version");

  auto group = open_group(file, "rows");
  const auto found = read_row_results<std::uint8_t>(group, "found", side);
  const auto preperiod = read_row_results<std::uint64_t>(group, "preperiod", side);
  const auto period = read_row_results<std::uint64_t>(group, "period", side);
  const auto saltus = read_row_results<std::int64_t>(group, "saltus", side);
  std::vector<RowPeriod> rows(side);
  for (std::size_t i = 0; i < side; ++i) rows[i] = {found[i] != 0, preperiod[i], period[i], saltus[i]};

  // The big one last: damage elsewhere is found quickly.
  auto dset = open_dataset(file, "/", "table");
  Sequence cells = sequence_for(dset, "/table");
  const std::vector<hsize_t> shape = dataset_shape(dset, "/table");
  if (shape != std::vector<hsize_t>{side, side}) {
    std::string shown;
    for (hsize_t d : shape) shown.append(shown.empty() ? "" : " x ").append(std::to_string(d));
    throw StoreError("is inconsistent: attributes n and origin make " + std::to_string(side) + " x " +
                     std::to_string(side) + " values but /table is " + (shown.empty() ? "a single value" : shown));
  }
  read_into(cells, dset, side * side, "/table");
  return TableRecord{GameTable(*game, n, std::move(cells)), std::move(rows), std::move(program_version)};
}

// Missing, unreadable or not a regular file: say so before HDF5 gives a vaguer answer.
void check_readable(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    int error = errno;
    throw StoreError(error == ENOENT ? "does not exist" : "cannot be read: " + os_reason(error));
  }
  struct stat info {};
  bool regular = ::fstat(fd, &info) == 0 && S_ISREG(info.st_mode);
  ::close(fd);
  if (!regular) throw StoreError("is not a regular file");
}

std::string describe_read_failure(const Hdf5Failure& failure) {
  const Diagnosis& why = failure.why;
  if (why.not_hdf5) return "is not an HDF5 file";
  if (why.truncated) return "is truncated (shorter than its header says)";
  if (why.data_checksum) return "is damaged: checksum mismatch in " + failure.where;
  if (why.metadata_checksum) return "is damaged: checksum mismatch in its metadata (reading " + failure.where + ")";
  if (!why.os_error.empty()) return "cannot be read: " + why.os_error;
  return std::string("is damaged or not an sgx ")
      .append(expected_kind)
      .append(" file: cannot read ")
      .append(failure.where)
      .append(" (")
      .append(why.detail)
      .append(")");
}

// Runs a read of path, turning every failure into a StoreError that names the file. kind: what
// the messages call the file expected ("run" or "table").
template <class Read>
auto read_checked(const std::string& path, Read read, const char* kind = "run") {
  try {
    check_readable(path);
    std::lock_guard lock(hdf5_mutex);
    expected_kind = kind;
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // HDF5 prints nothing; our message says it all
    return read();
  } catch (const StoreError& e) {
    throw StoreError(path + " " + e.what());
  } catch (const Hdf5Failure& failure) {
    throw StoreError(path + " " + describe_read_failure(failure));
  } catch (const std::bad_alloc&) {
    throw StoreError(path + " is too large to load into memory");
  } catch (const std::length_error&) {
    throw StoreError(path + " is too large to load into memory");
  }
}

}  // namespace

void write_run_file(const std::string& path, const RunInfo& info, const Sequence& values) {
  write_atomically(path, run_contents(info, values, format_version_for(values)));
}

void write_run_file(const std::string& path, const RunRecord& record) {
  write_atomically(path, run_contents(record, record.values, format_version_for(record.values)));
}

namespace detail {
void write_run_file_as_version(const std::string& path, const RunRecord& record, int format_version) {
  write_atomically(path, run_contents(record, record.values, format_version));
}
}  // namespace detail

RunRecord read_run_file(const std::string& path, LoadValues load) {
  return read_checked(path, [&] { return read_hdf5(path, load); });
}

std::vector<Value> read_run_values(const std::string& path, std::uint64_t from, std::uint64_t to) {
  return read_checked(path, [&] {
    auto file = open_run_file(path);
    const RunStatus status = read_status(file);
    if (from > to || to > status.n)
      throw StoreError("holds G(0.." + std::to_string(status.n) + "-1): G(" + std::to_string(from) + ".." +
                       std::to_string(to) + "-1) is not in it");
    std::vector<Value> values(to - from);
    if (status.segmented()) {
      read_from_segments(path, status.game, read_segment_list(file, status.n), values.data(), from, to);
      return values;
    }
    const Sequence stored = status.format_version == kReleasedFormatVersion ? read_kept_values(file, status)
                                                                             : read_values(file, status.n);
    for (std::uint64_t i = from; i < to; ++i) {
      if (!stored.holds(i))
        throw StoreError("holds " + stored.kept_text() + " only (format version 2): G(" + std::to_string(i) +
                         ") is in no file");
      values[i - from] = stored[i];
    }
    return values;
  });
}

RunStatus read_run_status(const std::string& path) {
  return read_checked(path, [&] { return read_status(open_run_file(path)); });
}

void write_table_file(const std::string& path, const TableRecord& record) {
  write_atomically(path, [&record](hid_t file) { write_table(file, record); });
}

TableRecord read_table_file(const std::string& path) {
  return read_checked(path, [&] { return read_table_hdf5(path); }, "table");
}

FileKind read_file_kind(const std::string& path) {
  return read_checked(path, [&]() -> FileKind {
    const std::string kind = file_kind(open_file(path));
    if (kind.empty()) return FileKind::Run;
    if (kind == kTableKind) return FileKind::Table;
    throw not_ours("its kind '" + kind + "' is unknown");
  });
}

void check_can_write(const std::string& path) {
  check_directory_of(path);
  struct stat info {};
  if (::stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode))
    throw StoreError("cannot write " + path + ": is a directory");
  const std::string probe = temp_path_for(path);
  ::unlink(probe.c_str());  // a leftover of a crashed process that had our pid
  int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd < 0) throw StoreError("cannot write " + path + ": " + os_reason(errno));
  ::close(fd);
  ::unlink(probe.c_str());
}

std::string segment_directory(const std::string& path) { return path + ".d"; }

RunFileWriter RunFileWriter::start(const std::string& path, const std::string& game) {
  RunFileWriter writer(path);
  writer.game_ = game;
  writer.make_directory();
  return writer;
}

RunFileWriter RunFileWriter::resume(const std::string& path) {
  RunFileWriter writer(path);
  read_checked(path, [&] {
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
    return 0;
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

void RunFileWriter::write_segment(const Sequence& values, std::uint64_t start, std::uint64_t end) {
  if (!holds_range(values, start, end))
    throw StoreError("cannot write " + path_ + ": G(" + std::to_string(start) + ".." + std::to_string(end) +
                     "-1) is not on disk yet, and memory holds only " + values.kept_text());
  const std::string segment_path = segment_directory(path_) + "/" + segment_file_name(start, end);
  write_atomically(segment_path, segment_contents(values, start, end, game_), path_);
  segments_.push_back({start, end});
  durable_n_ = std::max(durable_n_, end);
}

// Every complete segment up to values.size(). One whose values are not all in memory any more (a
// run resumed with --memory) stays in the pieces already on disk, completed by one more piece.
void RunFileWriter::write_complete_segments(const Sequence& values) {
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

void RunFileWriter::save(const RunInfo& info, const Sequence& values) {
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
  write_atomically(path_, manifest_contents(path_, info, values, segments_));
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
