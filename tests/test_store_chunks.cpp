// The store's own filtering of chunks (src/store/store_chunks.hpp), checked by HDF5 itself: HDF5 reads
// back what the store wrote, undoing the shuffle and the deflate and verifying the checksum.

#include <gtest/gtest.h>
#include <hdf5.h>

#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "store/store_chunks.hpp"
#include "store/store_hdf5.hpp"

namespace sgx::hdf5 {
namespace {

// A file that lives in memory only.
Handle memory_file() {
  Handle access(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
  H5Pset_fapl_core(access, 1 << 20, 0);
  static int files = 0;
  const std::string name = "store_chunks_" + std::to_string(files++) + ".h5";
  return Handle(H5Fcreate(name.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, access), H5Fclose);
}

// HDF5 silent for the reads that are meant to fail.
class QuietHdf5 {
 public:
  QuietHdf5() {
    H5Eget_auto2(H5E_DEFAULT, &function_, &data_);
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  }
  ~QuietHdf5() { H5Eset_auto2(H5E_DEFAULT, function_, data_); }

 private:
  H5E_auto2_t function_ = nullptr;
  void* data_ = nullptr;
};

// Stores bytes as the one chunk of a byte dataset whose only filter is Fletcher-32, the given
// checksum appended, and reads them back through HDF5, which verifies it. True when HDF5 agreed.
bool hdf5_accepts(const std::vector<unsigned char>& bytes, std::uint32_t checksum) {
  auto file = memory_file();
  const hsize_t length = bytes.size();
  Handle space(H5Screate_simple(1, &length, nullptr), H5Sclose);
  Handle dcpl(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
  H5Pset_chunk(dcpl, 1, &length);
  H5Pset_fletcher32(dcpl);
  Handle dset(H5Dcreate2(file, "bytes", H5T_STD_U8LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT), H5Dclose);
  std::vector<unsigned char> stored = bytes;
  for (int byte = 0; byte < 4; ++byte) stored.push_back(static_cast<unsigned char>(checksum >> (8 * byte)));
  const hsize_t offset = 0;
  EXPECT_GE(H5Dwrite_chunk(dset, H5P_DEFAULT, 0, &offset, stored.size(), stored.data()), 0);
  std::vector<unsigned char> read(bytes.size());
  QuietHdf5 quiet;
  if (H5Dread(dset, H5T_NATIVE_UINT8, H5S_ALL, H5S_ALL, H5P_DEFAULT, read.data()) < 0) return false;
  EXPECT_EQ(read, bytes);
  return true;
}

TEST(StoreChunks, Fletcher32IsTheChecksumHdf5Verifies) {
  // Sums that are multiples of 65535 (HDF5 writes a nonzero one as 65535, not 0), odd lengths
  // (the last byte is a word's high byte), zeros, and stretches longer than the store's reduction.
  std::vector<std::vector<unsigned char>> cases = {
      {0x00},
      {0x00, 0x00, 0x00, 0x00},
      {0xff},
      {0xff, 0xff},              // both sums 65535
      {0xff, 0xff, 0x00, 0x00},  // the second 2 x 65535
      {0x00, 0x01, 0xff, 0xfe},  // the first 65535, the second 65536
      {0x00, 0x01, 0xff, 0xfd},  // the second 65535, the first 65534
      {0x12, 0x34, 0x56},
  };
  std::mt19937_64 random(2026);
  for (std::size_t length : {1, 2, 3, 359, 720, 721, 4096, 131071, 131072, 131073, 300001}) {
    std::vector<unsigned char> bytes(length);
    for (auto& byte : bytes) byte = static_cast<unsigned char>(random());
    cases.push_back(bytes);
    cases.push_back(std::vector<unsigned char>(length, 0xff));
  }
  for (const auto& bytes : cases) {
    const std::uint32_t checksum = fletcher32(bytes.data(), bytes.size());
    EXPECT_TRUE(hdf5_accepts(bytes, checksum)) << bytes.size() << " bytes, checksum " << checksum;
    // A wrong checksum is refused: the check above can fail.
    EXPECT_FALSE(hdf5_accepts(bytes, checksum ^ 0x00010000u)) << bytes.size() << " bytes";
  }
}

// Values written by write_array come back through HDF5's own pipeline as they were, whatever
// their width, with a partial last chunk, in rows of two dimensions, and empty.
template <class T>
void expect_read_back(const std::vector<T>& values, const std::vector<hsize_t>& dims,
                      const std::vector<hsize_t>& chunk) {
  auto file = memory_file();
  write_array(file, "data", values.data(), dims, chunk);
  Handle dset(H5Dopen2(file, "data", H5P_DEFAULT), H5Dclose);
  ASSERT_GE(dset, 0);
  Handle dcpl(H5Dget_create_plist(dset), H5Pclose);
  EXPECT_EQ(H5Pget_nfilters(dcpl), sizeof(T) > 1 ? 3 : 2);
  std::vector<T> read(values.size());
  if (!values.empty()) {
    ASSERT_GE(H5Dread(dset, H5Type<T>::mem(), H5S_ALL, H5S_ALL, H5P_DEFAULT, read.data()), 0);
  }
  EXPECT_EQ(read, values);
}

template <class T>
std::vector<T> runs_of_values(std::size_t length, std::uint64_t seed) {
  // Runs and noise, as Grundy values come: something for deflate to find and something it cannot.
  std::mt19937_64 random(seed);
  std::vector<T> values(length);
  for (std::size_t i = 0; i < length; ++i) {
    values[i] = random() % 4 == 0 ? static_cast<T>(random()) : static_cast<T>(i / 7 % 300);
  }
  return values;
}

TEST(StoreChunks, ValuesReadBackThroughHdf5) {
  expect_read_back(runs_of_values<std::uint8_t>(1000, 1), {1000}, {1000});
  expect_read_back(runs_of_values<std::uint8_t>(1000, 2), {1000}, {300});
  expect_read_back(runs_of_values<std::uint16_t>(100001, 3), {100001}, {4096});
  expect_read_back(runs_of_values<std::uint32_t>(5000, 4), {5000}, {4999});
  expect_read_back(runs_of_values<std::uint64_t>(777, 5), {777}, {100});
  expect_read_back(std::vector<double>{0.5, -1.25, 3e300, 0.0, 7.0}, {5}, {2});
  expect_read_back(runs_of_values<std::uint16_t>(30 * 17, 6), {30, 17}, {8, 17});
  expect_read_back(std::vector<std::uint16_t>{}, {0}, {1});
}

TEST(StoreChunks, ChunksMustBeWholeRows) {
  auto file = memory_file();
  const std::vector<std::uint16_t> values(6 * 4);
  EXPECT_THROW(write_array(file, "data", values.data(), {6, 4}, {2, 2}), std::logic_error);
}

}  // namespace
}  // namespace sgx::hdf5
