// fast_deflate (fast_deflate.hpp): RFC 1950 and RFC 1951, written from the RFCs.
//
// Each block of up to kBlockBytes input bytes is read twice: once to count its symbols, once to
// write their codes. A byte repeated four times or more is its literal and then a match at
// distance 1 for the rest, as Z_RLE does. A block whose code would be longer than the bytes
// themselves is stored instead.

#include "store/fast_deflate.hpp"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <queue>
#include <utility>
#include <vector>

namespace sgx::hdf5 {

namespace {

constexpr std::size_t kBlockBytes = std::size_t{1} << 15;  // at most 65535: a stored block's limit
constexpr int kLiteralCodes = 286;                         // literals, end of block, lengths 257..285
constexpr int kEndOfBlock = 256;
constexpr int kLongestCode = 15;
constexpr int kCodeLengthCodes = 19;
constexpr int kLongestCodeLengthCode = 7;
constexpr std::size_t kLongestMatch = 258;

// The length codes 257..285: the shortest length each codes and its extra bits (RFC 1951, 3.2.5).
constexpr std::array<std::uint16_t, 29> kLengthBase = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                                                       31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
constexpr std::array<std::uint8_t, 29> kLengthExtra = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                                       2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
// The order in which the code length code's lengths are sent.
constexpr std::array<std::uint8_t, kCodeLengthCodes> kCodeLengthOrder = {16, 17, 18, 0, 8,  7, 9,  6, 10, 5,
                                                                         11, 4,  12, 3, 13, 2, 14, 1, 15};

// For each match length 3..258, its code's index in kLengthBase.
struct LengthCodes {
  std::array<std::uint8_t, kLongestMatch + 1> index{};
  constexpr LengthCodes() {
    for (std::size_t code = 0; code < kLengthBase.size(); ++code)
      for (std::size_t length = kLengthBase[code]; length <= kLongestMatch; ++length)
        index[length] = static_cast<std::uint8_t>(code);
  }
};
constexpr LengthCodes kLengthCodes;

// Bits written least significant first, as deflate packs them.
class BitWriter {
 public:
  explicit BitWriter(unsigned char* out) : out_(out) {}

  // Writes the whole bytes at once, eight of them without a branch: out needs 8 bytes of slack.
  void put(std::uint32_t bits, int count) {  // count <= 32
    pending_ |= static_cast<std::uint64_t>(bits) << filled_;
    filled_ += count;  // at most 7 + 32
    const int whole = filled_ >> 3;
    if constexpr (std::endian::native == std::endian::little) {
      std::memcpy(out_, &pending_, 8);
    } else {
      for (int i = 0; i < 8; ++i) out_[i] = static_cast<unsigned char>(pending_ >> (8 * i));
    }
    out_ += whole;
    pending_ >>= 8 * whole;
    filled_ &= 7;
  }
  // Pads with zero bits to a whole byte and writes what is pending.
  void align() {
    while (filled_ > 0) {
      *out_++ = static_cast<unsigned char>(pending_);
      pending_ >>= 8;
      filled_ = std::max(filled_ - 8, 0);
    }
    pending_ = 0;
  }
  unsigned char* bytes() {
    align();
    return out_;
  }

 private:
  unsigned char* out_;
  std::uint64_t pending_ = 0;
  int filled_ = 0;
};

// Huffman code lengths of at most limit bits for the symbols with a count, at least two of them
// (a code of one symbol is incomplete, which inflaters refuse for some alphabets). Where the
// optimal code is too deep the counts are halved until it is not: rare here, and close to optimal.
void code_lengths(std::vector<std::uint32_t> counts, int limit, std::uint8_t* lengths) {
  const int symbols = static_cast<int>(counts.size());
  int used = 0;
  for (std::uint32_t c : counts) used += c > 0 ? 1 : 0;
  for (int s = 0; used < 2 && s < symbols; ++s)
    if (counts[s] == 0) {
      counts[s] = 1;
      ++used;
    }
  std::vector<int> parent(2 * symbols);
  for (;;) {
    using Node = std::pair<std::uint64_t, int>;  // count, node (leaves first, then inner nodes)
    std::priority_queue<Node, std::vector<Node>, std::greater<>> queue;
    for (int s = 0; s < symbols; ++s)
      if (counts[s] > 0) queue.push({counts[s], s});
    int next = symbols;
    while (queue.size() > 1) {
      const Node a = queue.top();
      queue.pop();
      const Node b = queue.top();
      queue.pop();
      parent[a.second] = parent[b.second] = next;
      queue.push({a.first + b.first, next++});
    }
    const int root = next - 1;
    int deepest = 0;
    for (int s = 0; s < symbols; ++s) {
      lengths[s] = 0;
      if (counts[s] == 0) continue;
      int depth = 0;
      for (int node = s; node != root; node = parent[node]) ++depth;
      lengths[s] = static_cast<std::uint8_t>(std::min(depth, 255));
      deepest = std::max(deepest, depth);
    }
    if (deepest <= limit) return;
    for (std::uint32_t& c : counts)
      if (c > 0) c = std::max<std::uint32_t>(c / 2, 1);
  }
}

// The canonical codes of RFC 1951, 3.2.2, bit-reversed for the BitWriter.
void canonical_codes(const std::uint8_t* lengths, int symbols, std::uint16_t* codes) {
  std::array<std::uint16_t, kLongestCode + 2> per_length{};
  for (int s = 0; s < symbols; ++s) ++per_length[lengths[s]];
  per_length[0] = 0;
  std::array<std::uint16_t, kLongestCode + 2> next{};
  std::uint16_t code = 0;
  for (int bits = 1; bits <= kLongestCode; ++bits) {
    code = static_cast<std::uint16_t>((code + per_length[bits - 1]) << 1);
    next[bits] = code;
  }
  for (int s = 0; s < symbols; ++s) {
    const int length = lengths[s];
    if (length == 0) continue;
    std::uint16_t value = next[length]++, reversed = 0;
    for (int b = 0; b < length; ++b) reversed = static_cast<std::uint16_t>(reversed << 1 | ((value >> b) & 1));
    codes[s] = reversed;
  }
}

// Calls literal(byte) and match(length) for the bytes, each run of four to 259 equal bytes being
// its first byte and a match of the rest at distance 1.
template <class Literal, class Match>
void tokens(const unsigned char* bytes, std::size_t length, Literal literal, Match match) {
  std::size_t i = 0;
  while (i < length) {
    const unsigned char b = bytes[i];
    if (i + 3 < length && bytes[i + 1] == b && bytes[i + 2] == b && bytes[i + 3] == b) {
      std::size_t run = 4;
      while (i + run < length && bytes[i + run] == b && run <= kLongestMatch) ++run;
      literal(b);
      match(run - 1);
      i += run;
    } else {
      literal(b);
      ++i;
    }
  }
}

// The code lengths of both alphabets as the header sends them: lengths 0..15, and runs of zero
// lengths as 17 (3-10, 3 extra bits) or 18 (11-138, 7 extra bits). Each entry: symbol, extra value.
std::vector<std::pair<std::uint8_t, std::uint8_t>> code_length_tokens(const std::uint8_t* lengths, int count) {
  std::vector<std::pair<std::uint8_t, std::uint8_t>> out;
  for (int i = 0; i < count;) {
    int zeros = 0;
    while (i + zeros < count && lengths[i + zeros] == 0 && zeros < 138) ++zeros;
    if (zeros >= 11) {
      out.push_back({18, static_cast<std::uint8_t>(zeros - 11)});
      i += zeros;
    } else if (zeros >= 3) {
      out.push_back({17, static_cast<std::uint8_t>(zeros - 3)});
      i += zeros;
    } else {
      out.push_back({lengths[i], 0});
      ++i;
    }
  }
  return out;
}

// Writes the bytes as a stored block; returns the end of what is written (whole bytes).
unsigned char* write_stored(BitWriter& bits, const unsigned char* bytes, std::size_t length, bool last) {
  bits.put(last ? 1 : 0, 3);  // BFINAL, BTYPE 00
  unsigned char* p = bits.bytes();
  const auto n = static_cast<std::uint16_t>(length);
  const auto not_n = static_cast<std::uint16_t>(~n);
  *p++ = static_cast<unsigned char>(n);
  *p++ = static_cast<unsigned char>(n >> 8);
  *p++ = static_cast<unsigned char>(not_n);
  *p++ = static_cast<unsigned char>(not_n >> 8);
  if (length > 0) std::memcpy(p, bytes, length);  // an empty input may have no address
  return p + length;
}

// Writes one block, the last of the stream if last.
void write_block(BitWriter& bits, const unsigned char* bytes, std::size_t length, bool last) {
  std::vector<std::uint32_t> counts(kLiteralCodes, 0);
  tokens(
      bytes, length, [&](unsigned char b) { ++counts[b]; },
      [&](std::size_t match) { ++counts[257 + kLengthCodes.index[match]]; });
  ++counts[kEndOfBlock];

  std::array<std::uint8_t, kLiteralCodes + 1> lengths{};  // then the one distance code's length
  code_lengths(counts, kLongestCode, lengths.data());
  lengths[kLiteralCodes] = 1;  // distance 1, the only distance, has the code 0
  std::array<std::uint16_t, kLiteralCodes> codes{};
  canonical_codes(lengths.data(), kLiteralCodes, codes.data());

  const auto header_tokens = code_length_tokens(lengths.data(), kLiteralCodes + 1);
  std::vector<std::uint32_t> header_counts(kCodeLengthCodes, 0);
  for (const auto& [symbol, extra] : header_tokens) ++header_counts[symbol];
  std::array<std::uint8_t, kCodeLengthCodes> header_lengths{};
  code_lengths(header_counts, kLongestCodeLengthCode, header_lengths.data());
  std::array<std::uint16_t, kCodeLengthCodes> header_codes{};
  canonical_codes(header_lengths.data(), kCodeLengthCodes, header_codes.data());
  int sent_lengths = kCodeLengthCodes;
  while (sent_lengths > 4 && header_lengths[kCodeLengthOrder[sent_lengths - 1]] == 0) --sent_lengths;

  // The block's size in bits, to choose between it and storing the bytes.
  std::uint64_t coded = 3 + 5 + 5 + 4 + 3 * static_cast<std::uint64_t>(sent_lengths);
  for (const auto& [symbol, extra] : header_tokens)
    coded += header_lengths[symbol] + (symbol == 17 ? 3 : symbol == 18 ? 7 : 0);
  for (int s = 0; s < kLiteralCodes; ++s) {
    std::uint64_t per = lengths[s];
    if (s > kEndOfBlock) per += kLengthExtra[s - 257] + lengths[kLiteralCodes];
    coded += counts[s] * per;
  }
  if (coded > 8 * (length + 5)) {
    bits = BitWriter(write_stored(bits, bytes, length, last));
    return;
  }

  // A copy of its own: through the reference every code went through memory, since the bytes it
  // writes might have been the writer's own.
  BitWriter out = bits;
  out.put((last ? 1 : 0) | 2 << 1, 3);  // BFINAL, BTYPE 10: dynamic Huffman codes
  out.put(kLiteralCodes - 257, 5);       // HLIT
  out.put(0, 5);                         // HDIST: one distance code
  out.put(static_cast<std::uint32_t>(sent_lengths - 4), 4);
  for (int k = 0; k < sent_lengths; ++k) out.put(header_lengths[kCodeLengthOrder[k]], 3);
  for (const auto& [symbol, extra] : header_tokens) {
    out.put(header_codes[symbol], header_lengths[symbol]);
    if (symbol == 17) out.put(extra, 3);
    if (symbol == 18) out.put(extra, 7);
  }
  tokens(
      bytes, length, [&](unsigned char b) { out.put(codes[b], lengths[b]); },
      [&](std::size_t match) {
        const int index = kLengthCodes.index[match];
        out.put(codes[257 + index], lengths[257 + index]);
        out.put(static_cast<std::uint32_t>(match - kLengthBase[index]), kLengthExtra[index]);
        out.put(0, 1);  // distance 1
      });
  out.put(codes[kEndOfBlock], lengths[kEndOfBlock]);
  bits = out;
}

}  // namespace

std::size_t fast_deflate_bound(std::size_t length) {
  const std::size_t blocks = length / kBlockBytes + 1;
  return 2 + length + 6 * blocks + 4 + 8;  // header, stored blocks at worst, Adler-32, BitWriter's slack
}

std::size_t fast_deflate(const unsigned char* bytes, std::size_t length, unsigned char* out) {
  out[0] = 0x78;  // deflate, a 32 KiB window
  out[1] = 0x01;  // the fastest level; 0x7801 is a multiple of 31
  BitWriter bits(out + 2);
  std::size_t first = 0;
  do {
    const std::size_t block = std::min(kBlockBytes, length - first);
    write_block(bits, bytes + first, block, first + block == length);
    first += block;
  } while (first < length);
  unsigned char* end = bits.bytes();
  const uLong adler = adler32_z(adler32_z(0, nullptr, 0), bytes, length);
  for (int shift = 24; shift >= 0; shift -= 8) *end++ = static_cast<unsigned char>(adler >> shift);
  return static_cast<std::size_t>(end - out);
}

}  // namespace sgx::hdf5
