#pragma once
// The chunks of the store's datasets, filtered by the store itself (private to the library).
//
// Every dataset of numbers declares HDF5's filters shuffle (for values wider than a byte), deflate
// and Fletcher-32, and any HDF5 reader undoes them. The store applies them itself and hands each
// finished chunk to HDF5 (H5Dwrite_chunk), because HDF5's deflate filter takes nothing but a level:
// zlib's run-length strategy (Z_RLE) deflated the shuffled values of a run 1.3 to 2.5 times as fast
// as level 1 of the default strategy, to streams as small or smaller on most games and at most 8%
// larger on Grundy's game (bench/HISTORY.md, "The store deflates its own chunks"), and fast_deflate
// makes the streams Z_RLE made 1.9 to 2.9 times as fast again (fast_deflate.hpp). A run writes its
// values on a thread of its own while the kernels compute, so that time is taken from them.

#include <hdf5.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace sgx::hdf5 {

// Declares the filters on a dataset's creation properties, in the order write_chunks applies them.
void set_filters(hid_t dcpl, std::size_t value_bytes, const std::string& where);

// HDF5's Fletcher-32 of length bytes: 16-bit words taken high byte first (a last odd byte as the
// high byte of a word), both sums modulo 65535 with a nonzero sum that is a multiple of 65535
// written as 65535, the second sum in the high half.
std::uint32_t fletcher32(const unsigned char* bytes, std::size_t length);

// Writes the values at data (value_bytes each, in the host's order; stored little-endian) into
// dset, a dataset of shape dims made by set_filters with chunks of shape chunk. The chunks must
// be whole rows (chunk[d] == dims[d] for d > 0), so that each is a contiguous stretch of data.
// The last chunk is padded with zeros, HDF5's fill value, as HDF5 stores edge chunks whole.
void write_chunks(hid_t dset, const void* data, std::size_t value_bytes, const std::vector<hsize_t>& dims,
                  const std::vector<hsize_t>& chunk, const std::string& where);

}  // namespace sgx::hdf5
