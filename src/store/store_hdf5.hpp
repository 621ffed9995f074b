#pragma once
// The store's HDF5 wrapper (private to the library): HDF5 calls checked where they happen and turned
// into one-line StoreErrors, handles that close themselves, typed attributes and datasets, and the
// two ways a file is touched: built whole in memory and written atomically (write_file), or read
// under one lock with every failure named (read_checked). The layouts built on it are in
// store_layout.hpp (run files), store_write.cpp, store_read.cpp and store_table.cpp.
//
// Integrity: files are written in the HDF5 1.10 format, where every piece of metadata (superblock,
// object headers with their attributes, chunk indexes) carries a checksum, and every dataset is
// chunked with the Fletcher-32 filter, so raw data is checksummed too. Strings are fixed-length
// because variable-length ones live in the global heap, which has no checksum. Together this means
// any damaged byte that matters is detected on read instead of being returned as data.
//
// Errors: HDF5 failures are caught right where they happen (check()), diagnosed from HDF5's error
// stack and turned into one-line StoreErrors naming the file; HDF5 itself prints nothing.

#include <hdf5.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "sgx/sequence.hpp"
#include "sgx/store.hpp"
#include "store/hdf5_check.hpp"
#include "store/store_chunks.hpp"

namespace sgx::hdf5 {

// ---------------------------------------------------------------------------------------------
// Checked calls and handles that close themselves.

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

inline Handle checked(hid_t id, Handle::Closer closer, const std::string& where) {
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

Handle file_access();

// ---------------------------------------------------------------------------------------------
// Writing attributes and datasets.

std::string attribute_where(const std::string& object, const char* name);

template <class T>
void write_attribute(hid_t object, const char* name, T value) {
  auto space = checked(H5Screate(H5S_SCALAR), H5Sclose, name);
  auto attr = checked(H5Acreate2(object, name, H5Type<T>::file(), space, H5P_DEFAULT, H5P_DEFAULT),
                      H5Aclose, name);
  check(H5Awrite(attr, H5Type<T>::mem(), &value), name);
}

// Fixed length, NUL-terminated, UTF-8 (variable-length strings would bypass the checksums).
Handle string_type(std::size_t length, H5T_cset_t cset, const std::string& where);
void write_string_attribute(hid_t object, const char* name, const std::string& value);

// About 1 MiB per chunk: large enough that deflate works well and the chunk index stays tiny,
// and it fits HDF5's default 1 MiB chunk cache. Never longer than the data (at least 1).
hsize_t chunk_length(hsize_t n, std::size_t value_bytes);

// A dataset of shape dims, chunks of shape chunk (whole rows): chunked, shuffled (wide types
// compress much better), deflated, and Fletcher-32 last so the checksum covers the bytes as they lie
// on disk (store_chunks.hpp). A 1-D dataset may grow (unlimited), so zero length works too.
template <class T>
void write_array(hid_t parent, const char* name, const T* data, const std::vector<hsize_t>& dims,
                 const std::vector<hsize_t>& chunk) {
  const std::string where = name;
  const int rank = static_cast<int>(dims.size());
  const hsize_t unlimited = H5S_UNLIMITED;
  auto space = checked(H5Screate_simple(rank, dims.data(), rank == 1 ? &unlimited : nullptr), H5Sclose, where);
  auto dcpl = checked(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, where);
  check(H5Pset_chunk(dcpl, rank, chunk.data()), where);
  set_filters(dcpl, sizeof(T), where);
  auto dset = checked(H5Dcreate2(parent, name, H5Type<T>::file(), space, H5P_DEFAULT, dcpl, H5P_DEFAULT),
                      H5Dclose, where);
  write_chunks(dset, data, sizeof(T), dims, chunk, where);
  // The chunk index is written at this close: a failure to store it shows up only here.
  check(H5Dclose(dset.release()), where);
}

// A 1-D dataset, in chunks of about 1 MiB. data: a vector or a span.
template <class Vector>
void write_dataset(hid_t parent, const char* name, const Vector& data) {
  const hsize_t length = data.size();
  write_array(parent, name, data.data(), {length}, {chunk_length(length, sizeof(data[0]))});
}

Handle create_group(hid_t file, const char* name);

// ---------------------------------------------------------------------------------------------
// Reading attributes and datasets. Validation failures throw StoreError with a predicate ("is not
// an sgx run file: ..."), which read_checked prefixes with the path.

// "is not an sgx <kind> file: <why>", kind being what read_checked was told to expect.
StoreError not_ours(const std::string& why);

void require_attribute(hid_t object, const std::string& object_path, const char* name);
// Opens attribute name of object and checks that it holds a single value of the expected class.
Handle open_scalar_attribute(hid_t object, const std::string& object_path, const char* name, H5T_class_t type_class);

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

std::string read_string_attribute(hid_t object, const std::string& object_path, const char* name);

std::vector<hsize_t> dataset_shape(hid_t dset, const std::string& where);
// The length of a one-dimensional dataset (refused otherwise).
hsize_t dataset_length(hid_t dset, const std::string& where);

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

IntegerType dataset_type(hid_t dset, const std::string& where);
bool is_unsigned(const IntegerType& type, std::size_t size);

// An optional dataset of integers T (histogram, exceptions, rare positions): absent means empty.
// The stored type must be T's exactly.
template <class T = std::uint64_t>
std::vector<T> read_optional_list(hid_t group, const std::string& group_path, const char* name) {
  static_assert(std::is_integral_v<T>);
  const std::string where = group_path + "/" + name;
  if (!check_tri(H5Lexists(group, name, H5P_DEFAULT), where)) return {};
  auto dset = checked(H5Dopen2(group, name, H5P_DEFAULT), H5Dclose, where);
  const IntegerType type = dataset_type(dset, where);
  const bool as_expected = std::is_unsigned_v<T> ? is_unsigned(type, sizeof(T))
                                                 : type.type_class == H5T_INTEGER && type.sign == H5T_SGN_2 &&
                                                       type.size == sizeof(T);
  if (!as_expected)
    throw not_ours(where + " is not a" + (std::is_unsigned_v<T> ? " uint" : "n int") + std::to_string(8 * sizeof(T)) +
                   " dataset");
  return read_dataset<T>(dset, dataset_length(dset, where), where);
}

// An empty Sequence of values of the given bytes each (1, 2 or 4).
Sequence sequence_of_width(std::size_t bytes);
// An empty Sequence of the width of a dataset of values (uint8, uint16 or uint32).
Sequence sequence_for(hid_t dset, const std::string& where);
// All count values of dset, whatever its shape, into values (of the width sequence_for chose).
void read_into(Sequence& values, hid_t dset, hsize_t count, const std::string& where);

// parent_path/name, which must exist: "it has no /values dataset" otherwise.
Handle open_dataset(hid_t parent, const std::string& parent_path, const char* name);
// /name, which must exist: "it has no /stats group" otherwise.
Handle open_group(hid_t file, const char* name);

// ---------------------------------------------------------------------------------------------
// Whole files.

// What goes into a file: called with the open, empty file.
using FileContents = std::function<void(hid_t file)>;

// The directory the file goes into must exist: says so plainly instead of "file not found".
void check_directory_of(const std::string& path);

// Builds the file in memory and replaces path with it atomically (atomic_file.hpp). shown: the
// file the messages name ("cannot write <shown>: ..."), path unless said otherwise.
void write_file(const std::string& path, const FileContents& contents, const std::string& shown = "");

// Runs read, a read of path, turning every failure into a StoreError that names the file. kind:
// what the messages call the file expected ("run" or "table").
void read_file(const std::string& path, const std::function<void()>& read, const char* kind = "run");

// read_file for a read that returns its result.
template <class Read>
auto read_checked(const std::string& path, Read read, const char* kind = "run") {
  std::optional<decltype(read())> result;
  read_file(path, [&] { result.emplace(read()); }, kind);
  return std::move(*result);
}

}  // namespace sgx::hdf5
