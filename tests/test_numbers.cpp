// Counts and sizes as users type them: exact values, and a message saying what is wrong otherwise.

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "sgx/numbers.hpp"

namespace sgx {
namespace {

// The message of the NumberError that parse throws for text ("" when it does not throw).
template <class Parse>
std::string error_of(Parse parse, const std::string& text) {
  try {
    parse(text);
  } catch (const NumberError& e) {
    return e.what();
  }
  return "";
}

std::string count_error(const std::string& text, std::uint64_t max = UINT64_MAX) {
  return error_of([max](const std::string& t) { return parse_count(t, max); }, text);
}
std::string whole_error(const std::string& text, std::uint64_t max = UINT64_MAX) {
  return error_of([max](const std::string& t) { return parse_whole(t, max); }, text);
}
std::string bytes_error(const std::string& text) {
  return error_of([](const std::string& t) { return parse_bytes(t); }, text);
}

TEST(NumbersCount, AcceptedForms) {
  EXPECT_EQ(parse_count("1e7"), 10000000u);
  EXPECT_EQ(parse_count("1E7"), 10000000u);
  EXPECT_EQ(parse_count("1e+7"), 10000000u);
  EXPECT_EQ(parse_count("2^30"), 1073741824u);
  EXPECT_EQ(parse_count("2^0"), 1u);
  EXPECT_EQ(parse_count("2^63"), 1ull << 63);
  EXPECT_EQ(parse_count("3^40"), 12157665459056928801ull);
  EXPECT_EQ(parse_count("10^9"), 1000000000u);
  EXPECT_EQ(parse_count("1000000"), 1000000u);
  EXPECT_EQ(parse_count("1_000_000"), 1000000u);
  EXPECT_EQ(parse_count("1.5e3"), 1500u);
  EXPECT_EQ(parse_count("2.5e1"), 25u);
  EXPECT_EQ(parse_count("1.25e2"), 125u);
  EXPECT_EQ(parse_count("1200e-2"), 12u);
  EXPECT_EQ(parse_count("3.0"), 3u);
  EXPECT_EQ(parse_count("+5"), 5u);
  EXPECT_EQ(parse_count(" 42 "), 42u);
  EXPECT_EQ(parse_count("007"), 7u);
  EXPECT_EQ(parse_count("1"), 1u);
  EXPECT_EQ(parse_count("1e19"), 10000000000000000000ull);
  EXPECT_EQ(parse_count("18446744073709551615"), UINT64_MAX);
}

TEST(NumbersCount, ExactBeyondDoublePrecision) {
  // 2^53 + 1 is not a double: a parse through floating point would lose the 1.
  EXPECT_EQ(parse_count("9007199254740993"), 9007199254740993ull);
  EXPECT_EQ(parse_count("9.007199254740993e15"), 9007199254740993ull);
  EXPECT_EQ(parse_count("18446744073709551614"), UINT64_MAX - 1);
}

TEST(NumbersCount, MaxIsInclusive) {
  EXPECT_EQ(parse_count("100", 100), 100u);
  EXPECT_EQ(parse_count("1e2", 100), 100u);
  EXPECT_EQ(parse_count("10^2", 100), 100u);
  EXPECT_NE(count_error("101", 100).find("too large"), std::string::npos);
  EXPECT_NE(count_error("1e3", 100).find("too large"), std::string::npos);
  EXPECT_NE(count_error("2^7", 100).find("too large"), std::string::npos);
  EXPECT_NE(count_error("1.01e2", 100).find("too large"), std::string::npos);
  EXPECT_NE(count_error("101", 100).find("100"), std::string::npos) << "the message gives the limit";

  // Limits below 9: a single digit above the limit must still be refused.
  EXPECT_EQ(parse_count("4", 4), 4u);
  EXPECT_NE(count_error("9", 4).find("too large"), std::string::npos);
  EXPECT_NE(count_error("5", 4).find("too large"), std::string::npos);
  EXPECT_NE(count_error("1", 0).find("too large"), std::string::npos);
  EXPECT_NE(count_error("+7", 1).find("too large"), std::string::npos);
}

TEST(NumbersCount, ErrorsSayWhatIsWrong) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"0", "zero"},
      {"0e5", "zero"},
      {"0.0", "zero"},
      {"000", "zero"},
      {"0^3", "zero"},
      {"-5", "negative"},
      {" -1", "negative"},
      {"-0", "negative"},
      {"2.5", "whole number"},
      {"1e-3", "whole number"},
      {"15e-1", "whole number"},
      {"1e400", "too large"},
      {"1e99999999", "too large"},
      {"18446744073709551616", "too large"},
      {"99999999999999999999999999999999999999999999999", "too large"},
      {"2^64", "too large"},
      {"10^20", "too large"},
      {"", "empty"},
      {"   ", "empty"},
      {"abc", "not a number"},
      {"1x", "not a number"},
      {"1.2.3", "not a number"},
      {".", "not a number"},
      {"+", "not a number"},
      {"0x10", "not a number"},
      {"2^", "not a power"},
      {"^3", "not a power"},
      {"2^3^4", "not a power"},
      {"2^-1", "not a power"},
      {"1e", "malformed exponent"},
      {"1e+", "malformed exponent"},
      {"1e2.5", "malformed exponent"},
  };
  for (const auto& [text, reason] : cases) {
    const std::string message = count_error(text);
    EXPECT_NE(message, "") << "'" << text << "' was accepted";
    EXPECT_NE(message.find(reason), std::string::npos) << "'" << text << "': " << message;
    EXPECT_EQ(message.rfind("'" + text + "'", 0), 0u) << "the message quotes the input: " << message;
  }
}

TEST(NumbersCount, NumberErrorIsInvalidArgument) {
  EXPECT_THROW(parse_count("-1"), std::invalid_argument);
  EXPECT_THROW(parse_count("0"), NumberError);
}

TEST(NumbersWhole, AllowsZero) {
  EXPECT_EQ(parse_whole("0"), 0u);
  EXPECT_EQ(parse_whole("0e9"), 0u);
  EXPECT_EQ(parse_whole("00"), 0u);
  EXPECT_EQ(parse_whole("17"), 17u);
  EXPECT_EQ(parse_whole("2^10"), 1024u);
  EXPECT_EQ(parse_whole("5", 5), 5u);
  EXPECT_NE(whole_error("6", 5).find("too large"), std::string::npos);
  EXPECT_NE(whole_error("-3").find("negative"), std::string::npos);
  EXPECT_NE(whole_error("0.5").find("whole number"), std::string::npos);
  EXPECT_NE(whole_error("").find("empty"), std::string::npos);
}

TEST(NumbersBytes, AcceptedForms) {
  EXPECT_EQ(parse_bytes("4096"), 4096u);
  EXPECT_EQ(parse_bytes("512M"), 512ull << 20);
  EXPECT_EQ(parse_bytes("512m"), 512ull << 20);
  EXPECT_EQ(parse_bytes("8G"), 8ull << 30);
  EXPECT_EQ(parse_bytes("1.5G"), 3ull << 29);
  EXPECT_EQ(parse_bytes("0.5K"), 512u);
  EXPECT_EQ(parse_bytes("2GiB"), 2ull << 30);
  EXPECT_EQ(parse_bytes("2GB"), 2ull << 30);
  EXPECT_EQ(parse_bytes("64KiB"), 64ull << 10);
  EXPECT_EQ(parse_bytes("3T"), 3ull << 40);
  EXPECT_EQ(parse_bytes("1e3K"), 1000ull << 10);
  EXPECT_EQ(parse_bytes("16777215T"), 16777215ull << 40);
}

TEST(NumbersBytes, DecimalsAreExactEnough) {
  EXPECT_EQ(parse_bytes("0.25M"), 1ull << 18);
  EXPECT_EQ(parse_bytes("1.75T"), 7ull << 38);
  EXPECT_EQ(parse_bytes("2.0G"), 2ull << 30);
  EXPECT_EQ(parse_bytes("1.G"), 1ull << 30);
  EXPECT_EQ(parse_bytes(".5K"), 512u);
  EXPECT_EQ(parse_bytes("0.001K"), 1u);  // 1.024 bytes, rounded down
}

TEST(NumbersBytes, Errors) {
  for (const std::string text :
       {"G", "-1G", "x", "", "0", "0G", "-1", "1.5", "GiB", "16777216T", "1.5xG", "1.5.5G", "0x1.8G",
        "0.0001K", "1.5e400G", "-0.5G", "1..5G", ".G"}) {
    const std::string message = bytes_error(text);
    EXPECT_NE(message, "") << "'" << text << "' was accepted as " << parse_bytes(text);
    EXPECT_NE(message.find("is not a size"), std::string::npos) << "'" << text << "': " << message;
    EXPECT_NE(message.find("'" + text + "'"), std::string::npos) << message;
  }
}

// Sizes as a user types them, so that a message's or a report's size can be given back to --memory.
TEST(NumbersBytes, TextInTheUnitsParseBytesReads) {
  EXPECT_EQ(bytes_text(0), "0");
  EXPECT_EQ(bytes_text(1023), "1023");
  EXPECT_EQ(bytes_text(1024), "1K");
  EXPECT_EQ(bytes_text(512ull << 20), "512M");
  EXPECT_EQ(bytes_text(3ull << 29), "1.5G");
  EXPECT_EQ(bytes_text(1ull << 40), "1T");
  EXPECT_EQ(bytes_text(3ull << 40), "3T");
  EXPECT_EQ(bytes_text(1ull << 50), "1024T");  // no unit above T, as parse_bytes takes none
  for (std::uint64_t bytes : {1024ull, 7ull << 20, 3ull << 29, 1ull << 40, 100ull << 30, 1ull << 50})
    EXPECT_EQ(parse_bytes(bytes_text(bytes)), bytes) << bytes_text(bytes);
}

}  // namespace
}  // namespace sgx
