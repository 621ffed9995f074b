// The store's deflate (src/store/fast_deflate.hpp), checked by zlib's own inflate: every stream
// must inflate to the bytes it was made from, whatever their mix, length and block boundaries.

#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "store/fast_deflate.hpp"

namespace sgx::hdf5 {
namespace {

using Bytes = std::vector<unsigned char>;

// The stream fast_deflate makes of bytes; fails the test if it overruns its bound.
Bytes deflated(const Bytes& bytes) {
  Bytes out(fast_deflate_bound(bytes.size()));
  const std::size_t length = fast_deflate(bytes.data(), bytes.size(), out.data());
  EXPECT_LE(length, out.size());
  out.resize(length);
  return out;
}

// zlib's inflate of stream, which checks its Huffman codes, block structure and Adler-32.
::testing::AssertionResult inflates_to(const Bytes& stream, const Bytes& bytes) {
  Bytes back(bytes.size() + 16);
  uLongf length = static_cast<uLongf>(back.size());
  const int rc = uncompress(back.data(), &length, stream.data(), static_cast<uLong>(stream.size()));
  if (rc != Z_OK) return ::testing::AssertionFailure() << "zlib refused the stream (" << rc << ")";
  if (length != bytes.size()) return ::testing::AssertionFailure() << length << " bytes back, not " << bytes.size();
  if (!std::equal(bytes.begin(), bytes.end(), back.begin())) return ::testing::AssertionFailure() << "other bytes back";
  return ::testing::AssertionSuccess();
}

Bytes random_bytes(std::size_t length, std::mt19937_64& rng, int kind) {
  Bytes bytes(length);
  std::geometric_distribution<int> steep(0.5), gentle(0.05);
  for (std::size_t i = 0; i < length; ++i) {
    switch (kind) {
      case 0: bytes[i] = static_cast<unsigned char>(rng()); break;                          // incompressible
      case 1: bytes[i] = static_cast<unsigned char>(rng() % 3); break;                      // three symbols
      case 2: bytes[i] = static_cast<unsigned char>(std::min(255, steep(rng))); break;      // deep codes
      case 3: bytes[i] = static_cast<unsigned char>(std::min(255, gentle(rng))); break;     // a nim-sequence's spread
      case 4: bytes[i] = static_cast<unsigned char>(i / (1 + i % 500) % 7); break;          // runs of all lengths
      default: bytes[i] = rng() % 64 == 0 ? static_cast<unsigned char>(rng()) : 0; break;  // a shuffled high byte
    }
  }
  return bytes;
}

TEST(FastDeflateTest, RandomMixesOfBytesInflateBack) {
  std::mt19937_64 rng(20261203);
  for (int trial = 0; trial < 300; ++trial) {
    const std::size_t length = trial % 3 == 0 ? rng() % 300 : rng() % 150000;
    const Bytes bytes = random_bytes(length, rng, trial % 6);
    ASSERT_TRUE(inflates_to(deflated(bytes), bytes)) << "trial " << trial << ", " << length << " bytes";
  }
}

TEST(FastDeflateTest, BlockBoundariesAndTinyInputsInflateBack) {
  std::mt19937_64 rng(7);
  for (std::size_t length : {0, 1, 2, 3, 4, 5, 258, 259, 260, 32767, 32768, 32769, 65535, 65536, 65537, 98304})
    for (int kind = 0; kind < 6; ++kind) {
      const Bytes bytes = random_bytes(length, rng, kind);
      ASSERT_TRUE(inflates_to(deflated(bytes), bytes)) << length << " bytes of kind " << kind;
    }
}

TEST(FastDeflateTest, ARunOfOneByteBecomesAFewBytes) {
  const Bytes zeros(1 << 20, 0);
  const Bytes stream = deflated(zeros);
  EXPECT_TRUE(inflates_to(stream, zeros));
  EXPECT_LT(stream.size(), 10000u);  // about 3 bits for each run of 259, and a header a block
}

TEST(FastDeflateTest, CountsThatWouldNeedCodesOver15BitsAreLimited) {
  // Counts 1, 2, 3, 5, 8, ... beside the end of block's 1 make the optimal Huffman code 20 deep:
  // 20 symbols, 28655 bytes, one block. No byte four times in a row, so that no run takes any away.
  Bytes bytes;
  std::uint64_t a = 1, b = 2;
  for (int symbol = 0; symbol < 20; ++symbol) {
    bytes.insert(bytes.end(), a, static_cast<unsigned char>(symbol * 10));
    std::swap(a, b);
    b += a;
  }
  ASSERT_EQ(bytes.size(), 28655u);
  std::mt19937_64 rng(3);
  std::shuffle(bytes.begin(), bytes.end(), rng);
  for (bool broke_a_run = true; broke_a_run;) {
    broke_a_run = false;
    for (std::size_t i = 3; i < bytes.size(); ++i)
      if (bytes[i] == bytes[i - 1] && bytes[i] == bytes[i - 2] && bytes[i] == bytes[i - 3]) {
        std::swap(bytes[i], bytes[rng() % bytes.size()]);
        broke_a_run = true;
      }
  }
  EXPECT_TRUE(inflates_to(deflated(bytes), bytes));
}

TEST(FastDeflateTest, IncompressibleBytesAreStoredWithLittleOverhead) {
  std::mt19937_64 rng(11);
  const Bytes bytes = random_bytes(100000, rng, 0);
  const Bytes stream = deflated(bytes);
  EXPECT_TRUE(inflates_to(stream, bytes));
  EXPECT_LE(stream.size(), bytes.size() + 2 + 4 + 5 * 4);  // header, Adler-32, a stored block each 32 KiB
}

TEST(FastDeflateTest, AsSmallAsZlibsRunLengthStrategyOnANimSequence) {
  // Values like a run's: small numbers, most of them common, with runs now and then.
  std::mt19937_64 rng(5);
  Bytes bytes(1 << 18);
  std::geometric_distribution<int> spread(0.2);
  for (std::size_t i = 0; i < bytes.size(); ++i)
    bytes[i] = i % 97 < 5 ? bytes[i - (i > 0 ? 1 : 0)] : static_cast<unsigned char>(std::min(63, spread(rng)));
  const Bytes stream = deflated(bytes);
  ASSERT_TRUE(inflates_to(stream, bytes));
  z_stream z{};
  ASSERT_EQ(deflateInit2(&z, 1, Z_DEFLATED, 15, 8, Z_RLE), Z_OK);
  Bytes out(deflateBound(&z, static_cast<uLong>(bytes.size())));
  z.next_in = bytes.data();
  z.avail_in = static_cast<uInt>(bytes.size());
  z.next_out = out.data();
  z.avail_out = static_cast<uInt>(out.size());
  ASSERT_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
  const std::size_t zlib_size = out.size() - z.avail_out;
  deflateEnd(&z);
  EXPECT_LE(stream.size(), zlib_size + zlib_size / 50) << "zlib: " << zlib_size;  // within 2%
}

}  // namespace
}  // namespace sgx::hdf5
