#pragma once
// A zlib stream (RFC 1950 around RFC 1951's deflate) made for the store's chunks, private to the
// library. It codes what zlib's run-length strategy (Z_RLE) finds, byte runs and the bytes between
// them, in blocks with their own Huffman codes: a run's values have few repeated strings for a
// full deflate to find. On the values of 0.16, 0.6 and Grundy's game to 2^20 as the store deflates
// them (bench/bench_deflate.cpp): 1.9 to 2.9 times as fast as zlib (350-470 MB/s against 150-190),
// streams 0.1% smaller to 0.8% larger. 0.16 until proven had spent 8% of its processor time in
// zlib. Any inflater reads it.

#include <cstddef>

namespace sgx::hdf5 {

// The most bytes fast_deflate writes for length bytes.
std::size_t fast_deflate_bound(std::size_t length);

// Deflates length bytes into out (room for fast_deflate_bound(length)); returns the bytes written.
std::size_t fast_deflate(const unsigned char* bytes, std::size_t length, unsigned char* out);

}  // namespace sgx::hdf5
