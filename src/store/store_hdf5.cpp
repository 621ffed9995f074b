// The store's HDF5 wrapper (store_hdf5.hpp).
//
// Writing: HDF5 builds the file in memory (the core driver) and we write the bytes ourselves. HDF5
// 1.10 handles a failed disk write badly: a file whose close failed (disk full) stays open inside
// the library and crashes it at exit, and the core driver writing its own backing file crashed
// outright when we tried it on a full disk.
// With the file in memory, HDF5 never touches the disk, and every disk error is a plain errno of
// ours. The price is memory: the finished (compressed) file is held once, as HDF5 builds it.
// (H5Fget_file_image would copy it, and in 1.10.8 returns a superblock with a stale checksum.)

#include "store/store_hdf5.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <new>
#include <utility>

#include "base/atomic_file.hpp"
#include "base/os_error.hpp"

namespace sgx::hdf5 {

namespace {

// Serial HDF5 is not thread-safe: every use of it in the store holds this lock (write_file,
// read_file).
std::mutex hdf5_mutex;

// The kind of file the reader under way expects ("run" or "table"), for the messages: set by
// read_file while it holds hdf5_mutex, so one reader at a time sees it.
const char* expected_kind = "run";

}  // namespace

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
// Writing attributes and datasets.

std::string attribute_where(const std::string& object, const char* name) {
  return std::string("attribute ") + name + " of " + object;
}

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

hsize_t chunk_length(hsize_t n, std::size_t value_bytes) {
  return std::clamp<hsize_t>(n, 1, (hsize_t{1} << 20) / value_bytes);
}

Handle create_group(hid_t file, const char* name) {
  return checked(H5Gcreate2(file, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose, name);
}

// ---------------------------------------------------------------------------------------------
// Reading attributes and datasets.

StoreError not_ours(const std::string& why) {
  return StoreError(std::string("is not an sgx ").append(expected_kind).append(" file: ").append(why));
}

void require_attribute(hid_t object, const std::string& object_path, const char* name) {
  if (!check_tri(H5Aexists(object, name), attribute_where(object_path, name)))
    throw not_ours(object_path + " has no attribute " + name);
}

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

IntegerType dataset_type(hid_t dset, const std::string& where) {
  auto type = checked(H5Dget_type(dset), H5Tclose, where);
  return {H5Tget_class(type), H5Tget_size(type), H5Tget_sign(type)};
}

bool is_unsigned(const IntegerType& type, std::size_t size) {
  return type.type_class == H5T_INTEGER && type.sign == H5T_SGN_NONE && type.size == size;
}

Sequence sequence_of_width(std::size_t bytes) {
  Sequence values;
  if (bytes == 2) values.widen_to_hold(0xFF + 1);
  if (bytes == 4) values.widen_to_hold(0xFFFF + 1);
  return values;
}

Sequence sequence_for(hid_t dset, const std::string& where) {
  const IntegerType type = dataset_type(dset, where);
  if (!is_unsigned(type, 1) && !is_unsigned(type, 2) && !is_unsigned(type, 4))
    throw not_ours(where + " is not an 8-, 16- or 32-bit unsigned integer dataset");
  return sequence_of_width(type.size);
}

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

Handle open_group(hid_t file, const char* name) {
  const std::string where = std::string("/") + name;
  if (!check_tri(H5Lexists(file, name, H5P_DEFAULT), where)) throw not_ours("it has no " + where + " group");
  return checked(H5Gopen2(file, name, H5P_DEFAULT), H5Gclose, where);
}

// ---------------------------------------------------------------------------------------------
// Whole files.

namespace {

// The buffer of the last file image written, kept for the next one if it is small. HDF5 clears each
// step by which an image grows (build_image), and a new buffer of a MiB is a new mapping (glibc's
// malloc maps blocks that large), so every file of a run paid for clearing fresh pages: 256 page
// faults for each small file. Kept, the pages are cleared but not faulted in again. A larger image
// (a long run's segment) is freed as before, so at most kSpareBytes stay taken.
class SpareImageBuffer {
 public:
  static constexpr std::size_t kSpareBytes = std::size_t{4} << 20;

  // A kept buffer of at least size bytes, or nullptr.
  static void* take(std::size_t size) {
    const std::lock_guard lock(mutex_);
    if (!buffer_ || capacity_ < size) return nullptr;
    capacity_ = 0;
    return std::exchange(buffer_, nullptr);
  }

  // Keeps buffer (from malloc, capacity bytes usable) unless it is too large or a larger one is kept.
  static void give(void* buffer, std::size_t capacity) {
    if (!buffer) return;
    if (capacity <= kSpareBytes) {
      const std::lock_guard lock(mutex_);
      if (capacity > capacity_) {
        std::swap(buffer, buffer_);
        capacity_ = capacity;
      }
    }
    std::free(buffer);
  }

 private:
  static inline std::mutex mutex_;
  static inline void* buffer_ = nullptr;
  static inline std::size_t capacity_ = 0;
};

// The in-memory file of HDF5's core driver, kept when HDF5 closes the file instead of freed:
// HDF5 allocates it through these callbacks, and hands it back to image_free on close.
class MemoryImage {
 public:
  MemoryImage() = default;
  MemoryImage(const MemoryImage&) = delete;
  MemoryImage& operator=(const MemoryImage&) = delete;
  ~MemoryImage() { SpareImageBuffer::give(closed_, closed_capacity_); }

  H5FD_file_image_callbacks_t callbacks() {
    H5FD_file_image_callbacks_t c{};
    c.image_malloc = [](std::size_t size, H5FD_file_image_op_t, void* self) {
      return static_cast<MemoryImage*>(self)->track(allocate(size), size);
    };
    // The core driver's first write reallocates from nullptr.
    c.image_realloc = [](void* old, std::size_t size, H5FD_file_image_op_t, void* self) {
      return static_cast<MemoryImage*>(self)->track(old ? std::realloc(old, size) : allocate(size), size);
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
  static void* allocate(std::size_t size) {
    void* spare = SpareImageBuffer::take(size);
    return spare ? spare : std::malloc(size);
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

// Builds the complete file in image. name labels the in-memory file; it must not exist on disk,
// because H5Fcreate first tries to open an existing file of that name (and the core driver would
// read all of it into memory).
void build_image(MemoryImage& image, const std::string& name, const FileContents& contents) {
  auto fapl = file_access();
  // The 1.10 format: checksums on all metadata (see store_hdf5.hpp).
  check(H5Pset_libver_bounds(fapl, H5F_LIBVER_V110, H5F_LIBVER_V110), "file access properties");
  // In memory, never written to disk by HDF5, growing 1 MiB at a time: HDF5 clears each step it
  // adds, and with 4 MiB steps the small files of a short run (0.16 until proven: six of them) took
  // 15-25 ms of processor time in cleared pages. The first step reuses the last image's buffer
  // (SpareImageBuffer).
  check(H5Pset_fapl_core(fapl, std::size_t{1} << 20, false), "file access properties");
  H5FD_file_image_callbacks_t callbacks = image.callbacks();
  check(H5Pset_file_image_callbacks(fapl, &callbacks), "file access properties");
  auto file = checked(H5Fcreate(name.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl), H5Fclose, "the file");
  contents(file);
  check(H5Fclose(file.release()), "the file");
}

std::string describe_write_failure(const Hdf5Failure& failure) {
  if (!failure.why.os_error.empty()) return failure.why.os_error;
  return "HDF5 failed writing " + failure.where + " (" + failure.why.detail + ")";
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

}  // namespace

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

void write_file(const std::string& path, const FileContents& contents, const std::string& shown) {
  const std::string& name = shown.empty() ? path : shown;
  check_directory_of(path);
  try {
    MemoryImage image;
    // The image is named after the temporary file, which must not exist yet (see build_image):
    // a leftover of a crashed process that had our pid would be in the way.
    const std::string image_name = temporary_path_for(path);
    ::unlink(image_name.c_str());
    {
      std::lock_guard lock(hdf5_mutex);
      H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // HDF5 prints nothing; our message says it all
      build_image(image, image_name, contents);
    }
    auto [bytes, size] = image.bytes();
    AtomicFile file(path);
    file.write({bytes, size});
    file.commit();
  } catch (const AtomicFileError& e) {
    throw StoreError("cannot write " + name + ": " + e.what());
  } catch (const StoreError& e) {
    throw StoreError("cannot write " + name + ": " + e.what());
  } catch (const Hdf5Failure& failure) {
    throw StoreError("cannot write " + name + ": " + describe_write_failure(failure));
  } catch (const std::bad_alloc&) {
    throw StoreError("cannot write " + name + ": out of memory");
  }
}

void read_file(const std::string& path, const std::function<void()>& read, const char* kind) {
  try {
    check_readable(path);
    std::lock_guard lock(hdf5_mutex);
    expected_kind = kind;
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // HDF5 prints nothing; our message says it all
    read();
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

}  // namespace sgx::hdf5
