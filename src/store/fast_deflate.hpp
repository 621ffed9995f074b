#pragma once
// A zlib stream (RFC 1950 around RFC 1951's deflate) made for the store's chunks, private to the
// library. It codes what zlib's run-length strategy (Z_RLE) finds, byte runs and the bytes between
// them, in blocks with their own Huffman codes, and does it about four times as fast: a run's
// values have few repeated strings for a full deflate to find, and zlib spent 20 cycles a byte on
// coding them (0.16 to 2^20, one core: deflate was 8% of the process). Any inflater reads it.

#include <cstddef>

namespace sgx::hdf5 {

// The most bytes fast_deflate writes for length bytes.
std::size_t fast_deflate_bound(std::size_t length);

// Deflates length bytes into out (room for fast_deflate_bound(length)); returns the bytes written.
std::size_t fast_deflate(const unsigned char* bytes, std::size_t length, unsigned char* out);

}  // namespace sgx::hdf5
