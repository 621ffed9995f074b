#pragma once
// Exact parsing of the counts users type: 1e7, 2^30, 1000000, 1_000_000.
// Zero, negative, fractional, non-numeric and overflowing values are rejected with a message.

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace sgx {

class NumberError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// A positive whole number no larger than max. Throws NumberError saying what was wrong.
std::uint64_t parse_count(std::string_view text, std::uint64_t max = UINT64_MAX);

// A size in bytes: 512M, 8G, 1.5G, 4096 (K, M, G, T are powers of 1024).
std::uint64_t parse_bytes(std::string_view text);

// A size as parse_bytes reads it and a user would type it: 100, 512M, 1.5G, 1T (a whole amount of
// 100 or more units, or one decimal below). For messages and reports, so that the size they show
// can be given back as it is.
std::string bytes_text(std::uint64_t bytes);

// A non-negative whole number (heap sizes): like parse_count but 0 is allowed.
std::uint64_t parse_whole(std::string_view text, std::uint64_t max = UINT64_MAX);

}  // namespace sgx
