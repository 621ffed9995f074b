// The chunks of the store's datasets, filtered by the store itself (store_chunks.hpp).

#include "store/store_chunks.hpp"

#include <algorithm>
#include <bit>
#include <climits>
#include <stdexcept>

#include "store/fast_deflate.hpp"
#include "store/hdf5_check.hpp"

namespace sgx::hdf5 {

namespace {

// The deflate level the datasets declare. Readers need no level; the store deflates with
// fast_deflate, which codes what zlib's level 1 finds with the run-length strategy (Z_RLE).
constexpr unsigned kDeflateLevel = 1;

// HDF5's shuffle of one chunk of values: byte b of every value together, b = 0 (the least
// significant, as the file is little-endian) first. values is the chunk's full length, the values
// past present zeros. For 1-byte values, a copy padded with zeros.
void shuffle(const unsigned char* data, std::size_t present, std::size_t values, std::size_t value_bytes,
             unsigned char* out) {
  for (std::size_t b = 0; b < value_bytes; ++b) {
    const std::size_t host_byte = std::endian::native == std::endian::little ? b : value_bytes - 1 - b;
    unsigned char* plane = out + b * values;
    for (std::size_t i = 0; i < present; ++i) plane[i] = data[i * value_bytes + host_byte];
    std::fill(plane + present, plane + values, 0);
  }
}

}  // namespace

void set_filters(hid_t dcpl, std::size_t value_bytes, const std::string& where) {
  if (value_bytes > 1) check(H5Pset_shuffle(dcpl), where);
  check(H5Pset_deflate(dcpl, kDeflateLevel), where);
  check(H5Pset_fletcher32(dcpl), where);
}

std::uint32_t fletcher32(const unsigned char* bytes, std::size_t length) {
  constexpr std::uint64_t kModulus = 65535;
  // Reduced every 2^16 words, the sums stay below 2^33 and 2^50.
  constexpr std::size_t kWordsBetweenReductions = std::size_t{1} << 16;
  std::uint64_t sum = 0, sum_of_sums = 0;
  bool nonzero = false;  // HDF5's sums are 0 only while every word is
  auto add_word = [&](std::uint64_t word) {
    sum += word;
    sum_of_sums += sum;
  };
  auto reduce = [&] {
    nonzero = nonzero || sum != 0;
    sum %= kModulus;
    sum_of_sums %= kModulus;
  };
  const std::size_t words = length / 2;
  for (std::size_t start = 0; start < words; start += kWordsBetweenReductions) {
    const std::size_t end = std::min(words, start + kWordsBetweenReductions);
    for (std::size_t i = start; i < end; ++i) add_word(std::uint64_t{bytes[2 * i]} << 8 | bytes[2 * i + 1]);
    reduce();
  }
  if (length % 2 != 0) {
    add_word(std::uint64_t{bytes[length - 1]} << 8);
    reduce();
  }
  auto as_hdf5_writes = [&](std::uint64_t residue) { return residue == 0 && nonzero ? kModulus : residue; };
  return static_cast<std::uint32_t>(as_hdf5_writes(sum_of_sums) << 16 | as_hdf5_writes(sum));
}

void write_chunks(hid_t dset, const void* data, std::size_t value_bytes, const std::vector<hsize_t>& dims,
                  const std::vector<hsize_t>& chunk, const std::string& where) {
  if (dims.empty() || dims.size() != chunk.size() || !std::equal(dims.begin() + 1, dims.end(), chunk.begin() + 1))
    throw std::logic_error("write_chunks: the chunks of " + where + " are not whole rows");
  std::size_t row_values = 1;
  for (std::size_t d = 1; d < dims.size(); ++d) row_values *= static_cast<std::size_t>(dims[d]);
  const std::size_t total_values = static_cast<std::size_t>(dims[0]) * row_values;
  const std::size_t chunk_values = static_cast<std::size_t>(chunk[0]) * row_values;
  const std::size_t chunk_bytes = chunk_values * value_bytes;
  if (chunk_bytes > UINT_MAX) throw std::logic_error("write_chunks: a chunk of " + where + " is over HDF5's 4 GiB");
  if (total_values == 0) return;

  const auto* bytes = static_cast<const unsigned char*>(data);
  // 1-byte values are deflated where they lie, but for a partial last chunk (padded by shuffle).
  std::vector<unsigned char> filtered(value_bytes > 1 || total_values % chunk_values != 0 ? chunk_bytes : 0);
  std::vector<unsigned char> stored(fast_deflate_bound(chunk_bytes) + 4);
  std::vector<hsize_t> offset(dims.size(), 0);
  for (std::size_t first = 0; first < total_values; first += chunk_values) {
    const std::size_t present = std::min(chunk_values, total_values - first);
    const unsigned char* chunk_start = bytes + first * value_bytes;
    const unsigned char* to_deflate = chunk_start;
    if (value_bytes > 1 || present < chunk_values) {
      shuffle(chunk_start, present, chunk_values, value_bytes, filtered.data());
      to_deflate = filtered.data();
    }
    std::size_t length = fast_deflate(to_deflate, chunk_bytes, stored.data());
    const std::uint32_t checksum = fletcher32(stored.data(), length);
    for (int byte = 0; byte < 4; ++byte) stored[length++] = static_cast<unsigned char>(checksum >> (8 * byte));
    offset[0] = first / row_values;
    check(H5Dwrite_chunk(dset, H5P_DEFAULT, 0, offset.data(), length, stored.data()), where);
  }
}

}  // namespace sgx::hdf5
