#pragma once
// HDF5 calls checked where they happen (private to the library): a failed call throws
// Hdf5Failure with what HDF5's error stack says went wrong, read before the next call clears it.
// The wrapper (store_hdf5.hpp) and the chunk writer (store_chunks.hpp) both check their calls here;
// store_hdf5 turns the failures into one-line StoreErrors naming the file.

#include <hdf5.h>

#include <string>

namespace sgx::hdf5 {

// What went wrong in the last failed HDF5 call, read off HDF5's error stack.
struct Diagnosis {
  std::string detail;    // the innermost (most specific) description
  std::string os_error;  // e.g. "no space left on device" when a system call failed underneath
  bool data_checksum = false;      // Fletcher-32 of a chunk of a dataset
  bool metadata_checksum = false;  // superblock, object header, chunk index...
  bool truncated = false;
  bool not_hdf5 = false;
};

// Thrown by check(); write_file and read_file turn it into a StoreError.
struct Hdf5Failure {
  std::string where;  // the object or step, e.g. "/values" or "attribute n of /"
  Diagnosis why;
};

hid_t check(hid_t id, const std::string& where);
void check(herr_t status, const std::string& where);
bool check_tri(htri_t answer, const std::string& where);

}  // namespace sgx::hdf5
