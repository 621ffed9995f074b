#include "sgx/numbers.hpp"

#include <cctype>
#include <cstdio>
#include <string>

namespace sgx {

namespace {

using Wide = std::uint64_t;

[[noreturn]] void reject(std::string_view text, const std::string& reason) {
  throw NumberError("'" + std::string(text) + "' " + reason);
}

// Multiplies with an overflow check against max.
bool multiply(Wide& value, Wide factor, std::uint64_t max) {
  if (factor != 0 && value > max / factor) return false;
  value *= factor;
  return value <= max;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// Digits, with underscores allowed between them as separators.
bool take_digits(std::string_view s, std::string& digits) {
  digits.clear();
  for (char c : s) {
    if (c == '_') continue;
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    digits += c;
  }
  return !digits.empty();
}

// digits * 10^scale, exactly, or an error.
std::uint64_t scaled_value(std::string_view text, std::string digits, long long scale, std::uint64_t max) {
  const std::string too_large = "is too large (the limit is " + std::to_string(max) + ")";
  digits.erase(0, std::min(digits.find_first_not_of('0'), digits.size()));
  if (digits.empty()) return 0;
  while (scale < 0) {
    if (digits.back() != '0') reject(text, "is not a whole number");
    digits.pop_back();
    ++scale;
  }
  if (scale > 40 || digits.size() > 40) reject(text, too_large);
  Wide value = 0;
  for (char c : digits) {
    const unsigned digit = static_cast<unsigned>(c - '0');
    if (!multiply(value, 10, max) || digit > max - value) reject(text, too_large);
    value += digit;
  }
  for (long long i = 0; i < scale; ++i)
    if (!multiply(value, 10, max)) reject(text, too_large);
  return static_cast<std::uint64_t>(value);
}

std::uint64_t parse_number(std::string_view text, std::uint64_t max, bool allow_zero) {
  std::string_view s = trim(text);
  if (s.empty()) reject(text, "is empty: give a whole number such as 1000000, 1e7 or 2^30");
  if (s.front() == '-') reject(text, "is negative: give a positive whole number");
  if (s.front() == '+') s.remove_prefix(1);

  std::uint64_t value = 0;
  std::string digits, other;
  if (auto caret = s.find('^'); caret != std::string_view::npos) {
    if (!take_digits(s.substr(0, caret), digits) || !take_digits(s.substr(caret + 1), other) || other.size() > 4)
      reject(text, "is not a power such as 2^30 (base and exponent are whole numbers)");
    Wide power = 1;
    std::uint64_t base = scaled_value(text, digits, 0, max);
    for (int i = std::stoi(other); i > 0; --i)
      if (!multiply(power, base, max)) reject(text, "is too large (the limit is " + std::to_string(max) + ")");
    value = static_cast<std::uint64_t>(power);
  } else {
    // whole[.fraction][e[+|-]exponent]
    std::size_t e = s.find_first_of("eE");
    std::string_view mantissa = s.substr(0, e);
    long long exponent = 0;
    if (e != std::string_view::npos) {
      std::string_view exponent_text = s.substr(e + 1);
      bool negative = !exponent_text.empty() && exponent_text.front() == '-';
      if (!exponent_text.empty() && (exponent_text.front() == '-' || exponent_text.front() == '+'))
        exponent_text.remove_prefix(1);
      if (!take_digits(exponent_text, other)) reject(text, "has a malformed exponent: write it as 1e7");
      exponent = other.size() > 6 ? 1000000 : std::stoll(other);
      if (negative) exponent = -exponent;
    }
    std::size_t point = mantissa.find('.');
    std::string_view whole = mantissa.substr(0, point);
    std::string_view fraction = point == std::string_view::npos ? std::string_view{} : mantissa.substr(point + 1);
    std::string fraction_digits;
    bool whole_ok = whole.empty() ? !fraction.empty() : take_digits(whole, digits);
    bool fraction_ok = fraction.empty() || take_digits(fraction, fraction_digits);
    if (!whole_ok || !fraction_ok) reject(text, "is not a number: write it as 1000000, 1e7 or 2^30");
    value = scaled_value(text, digits + fraction_digits, exponent - static_cast<long long>(fraction_digits.size()),
                         max);
  }
  if (value == 0 && !allow_zero) reject(text, "is zero: give a positive whole number");
  return value;
}

}  // namespace

std::uint64_t parse_count(std::string_view text, std::uint64_t max) { return parse_number(text, max, false); }

std::uint64_t parse_whole(std::string_view text, std::uint64_t max) { return parse_number(text, max, true); }

std::uint64_t parse_bytes(std::string_view text) {
  std::string_view s = trim(text);
  std::uint64_t unit = 1;
  if (!s.empty() && (s.back() == 'B' || s.back() == 'b')) s.remove_suffix(1);
  if (!s.empty() && (s.back() == 'i')) s.remove_suffix(1);  // GiB, MiB
  if (!s.empty()) {
    switch (std::toupper(static_cast<unsigned char>(s.back()))) {
      case 'K': unit = 1ull << 10; break;
      case 'M': unit = 1ull << 20; break;
      case 'G': unit = 1ull << 30; break;
      case 'T': unit = 1ull << 40; break;
      default: break;
    }
    if (unit != 1) s.remove_suffix(1);
  }
  try {
    // 1.5G = 1536M: parse in units of unit/1024 so one or more decimals are exact enough.
    if (unit >= 1024 && s.find('.') != std::string_view::npos) {
      // Plain decimals only: std::stod alone would stop quietly at junk (1.5xG) and read hex (0x1.8G).
      if (s.find_first_not_of("0123456789.") != std::string_view::npos) throw NumberError("");
      std::string scaled = std::string(s) + "e0";
      std::size_t used = 0;
      double v = std::stod(scaled, &used);
      if (used != scaled.size() || !(v > 0) || v * static_cast<double>(unit) > 1.8e19) throw NumberError("");
      const auto bytes = static_cast<std::uint64_t>(v * static_cast<double>(unit));
      if (bytes == 0) throw NumberError("");
      return bytes;
    }
    return parse_count(s, UINT64_MAX / unit) * unit;
  } catch (const std::exception&) {
    throw NumberError("'" + std::string(text) + "' is not a size: write it as 512M, 8G or 1.5G");
  }
}

std::string bytes_text(std::uint64_t bytes) {
  if (bytes < 1024) return std::to_string(bytes);
  const char* units = "KMGT";
  double amount = static_cast<double>(bytes) / 1024;
  int unit = 0;
  while (amount >= 1024 && unit < 3) {
    amount /= 1024;
    ++unit;
  }
  char text[32];
  // Whole amounts (a --memory to give) without decimals.
  const bool whole = amount >= 100 || amount == static_cast<double>(static_cast<std::uint64_t>(amount));
  std::snprintf(text, sizeof text, whole ? "%.0f%c" : "%.1f%c", amount, units[unit]);
  return text;
}

}  // namespace sgx
