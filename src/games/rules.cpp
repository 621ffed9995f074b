#include "sgx/rules.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace sgx {

namespace {

// Take sizes in a subtraction set are limited so that the code stays a sensible size.
constexpr std::uint64_t kMaxSubtraction = 1u << 20;

constexpr std::uint8_t kSplitBits = kLeaveTwo | kLeaveThree;

std::string describe_char(char c) {
  if (std::isprint(static_cast<unsigned char>(c))) return std::string("'") + c + "'";
  return "character code " + std::to_string(static_cast<unsigned char>(c));
}

// Shortest block whose repetition gives the tail.
std::vector<Digit> primitive_root(const std::vector<Digit>& tail) {
  const std::size_t n = tail.size();
  for (std::size_t len = 1; len < n; ++len) {
    if (n % len != 0) continue;
    bool repeats = true;
    for (std::size_t i = len; i < n && repeats; ++i) repeats = tail[i] == tail[i - len];
    if (repeats) return {tail.begin(), tail.begin() + static_cast<std::ptrdiff_t>(len)};
  }
  return tail;
}

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  Rules parse() {
    if (text_.empty()) fail(0, "empty game: give a code such as 0.137, a name such as kayles, or sub:1,3,4");
    for (std::size_t i = 0; i < text_.size(); ++i)
      if (std::isspace(static_cast<unsigned char>(text_[i]))) fail(i, "spaces are not allowed in a game code");
    std::string lower(text_);
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    for (const auto& named : named_games())
      if (lower == named.name) return parse_rules(named.code);
    if (lower.rfind("sub:", 0) == 0) return parse_subtraction();
    return parse_code();
  }

 private:
  [[noreturn]] void fail(std::size_t pos, const std::string& reason) const {
    throw ParseError(std::string(text_), pos, reason);
  }

  Rules parse_subtraction() {
    std::vector<Digit> digits(1);
    std::size_t pos = 4;
    if (pos == text_.size()) fail(pos, "empty subtraction set: list the take sizes, e.g. sub:1,3,4");
    while (pos <= text_.size()) {
      std::size_t end = text_.find(',', pos);
      if (end == std::string_view::npos) end = text_.size();
      std::string_view item = text_.substr(pos, end - pos);
      if (item.empty()) fail(pos, "empty entry in the subtraction set");
      std::uint64_t k = 0;
      auto [ptr, ec] = std::from_chars(item.data(), item.data() + item.size(), k);
      if (ptr != item.data() + item.size()) {
        std::size_t bad = pos + static_cast<std::size_t>(ptr - item.data());
        fail(bad, describe_char(text_[bad]) + " in the subtraction set: take sizes are positive whole numbers");
      }
      if (ec == std::errc::result_out_of_range || k > kMaxSubtraction)
        fail(pos, "take size too large (at most " + std::to_string(kMaxSubtraction) + ")");
      if (k == 0) fail(pos, "take size 0 is not a move: take sizes are positive");
      if (digits.size() <= k) digits.resize(k + 1);
      digits[k].bits = kLeaveNone | kLeaveOne;
      pos = end + 1;
    }
    return Rules(std::move(digits), {});
  }

  // Reads a hexadecimal digit and an optional '!' at pos_.
  Digit read_digit(const char* where) {
    char c = text_[pos_];
    int v = code_digit_value(c);
    if (v < 0) fail(pos_, describe_char(c) + " is not a hexadecimal digit (0-9, A-F) " + where);
    Digit d{static_cast<std::uint8_t>(v), false};
    ++pos_;
    if (pos_ < text_.size() && text_[pos_] == '!') {
      if ((d.bits & kSplitBits) == 0)
        fail(pos_, "'!' (unequal parts) only applies to a digit that splits a heap (digit 4 or more)");
      d.unequal = true;
      ++pos_;
    }
    return d;
  }

  Rules parse_code() {
    std::vector<Digit> finite;
    if (text_[0] == '.') {
      finite.push_back(Digit{});
    } else {
      Digit d0 = read_digit("before the point");
      if (d0.bits & (kLeaveNone | kLeaveOne))
        fail(0, "d0 must be 0, 4, 8 or C: removing nothing and leaving the heap as it was, or nothing, "
                "is not a move");
      finite.push_back(d0);
      if (pos_ == text_.size() || text_[pos_] != '.')
        fail(pos_, pos_ == text_.size() ? "expected '.' after the first digit, e.g. 0.137"
                                        : describe_char(text_[pos_]) + " where '.' was expected, e.g. 0.137");
    }
    ++pos_;  // the point
    std::vector<Digit> tail;
    while (pos_ < text_.size() && text_[pos_] != '[') finite.push_back(read_digit("after the point"));
    if (pos_ < text_.size()) {
      std::size_t open = pos_++;
      while (pos_ < text_.size() && text_[pos_] != ']') tail.push_back(read_digit("in the repeating tail"));
      if (pos_ == text_.size()) fail(open, "'[' is never closed: write the repeating tail as [3]");
      if (tail.empty()) fail(pos_, "empty repeating tail '[]': put at least one digit inside");
      ++pos_;
      if (pos_ < text_.size()) fail(pos_, describe_char(text_[pos_]) + " after the repeating tail: the tail ends the code");
    }
    if (finite.size() == 1 && tail.empty())
      fail(text_.size(), "no digits after the point: write at least one, e.g. 0.7");
    return Rules(std::move(finite), std::move(tail));
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

}  // namespace

ParseError::ParseError(std::string text, std::size_t position, const std::string& reason)
    : std::runtime_error("invalid game '" + text + "' at character " + std::to_string(position + 1) + ": " +
                         reason),
      text_(std::move(text)),
      position_(position) {}

Rules::Rules(std::vector<Digit> finite, std::vector<Digit> tail) : finite_(std::move(finite)), tail_(std::move(tail)) {
  if (finite_.empty()) finite_.push_back(Digit{});
  auto normalise = [](Digit& d) {
    if ((d.bits & kSplitBits) == 0) d.unequal = false;
  };
  for (auto& d : finite_) normalise(d);
  for (auto& d : tail_) normalise(d);
  if (!tail_.empty()) {
    tail_ = primitive_root(tail_);
    if (tail_.size() == 1 && tail_[0] == Digit{}) tail_.clear();
  }
  // Absorb finite digits that the tail would produce anyway: 0.33[3] is 0.[3].
  while (!tail_.empty() && finite_.size() > 1 && finite_.back() == tail_.back()) {
    finite_.pop_back();
    std::rotate(tail_.rbegin(), tail_.rbegin() + 1, tail_.rend());
  }
  if (tail_.empty())
    while (finite_.size() > 1 && finite_.back() == Digit{}) finite_.pop_back();
}

unsigned Rules::max_heaps_left() const {
  unsigned heaps = 0;
  auto consider = [&heaps](const Digit& d) {
    if (d.bits & kLeaveThree)
      heaps = std::max(heaps, 3u);
    else if (d.bits & kLeaveTwo)
      heaps = std::max(heaps, 2u);
    else if (d.bits & (kLeaveNone | kLeaveOne))
      heaps = std::max(heaps, 1u);
  };
  for (const auto& d : finite_) consider(d);
  for (const auto& d : tail_) consider(d);
  return heaps;
}

bool Rules::has_unequal_splits() const {
  auto unequal = [](const Digit& d) { return d.unequal; };
  return std::any_of(finite_.begin(), finite_.end(), unequal) || std::any_of(tail_.begin(), tail_.end(), unequal);
}

SplitTakeParity Rules::split_take_parity() const {
  bool even = false, odd = false;
  auto note = [&](std::uint64_t k) { (k % 2 == 0 ? even : odd) = true; };
  for (std::uint64_t k = 0; k < finite_.size(); ++k)
    if (finite_[k].bits & kLeaveTwo) note(k);
  // Tail digit i stands for the takes finite_.size() + i + j * tail_.size(), j = 0, 1, ...: both
  // parities when the tail's length is odd.
  for (std::uint64_t i = 0; i < tail_.size(); ++i)
    if (tail_[i].bits & kLeaveTwo) {
      note(finite_.size() + i);
      if (tail_.size() % 2 == 1) note(finite_.size() + i + 1);
    }
  if (even == odd) return SplitTakeParity::Mixed;
  return odd ? SplitTakeParity::Odd : SplitTakeParity::Even;
}

bool Rules::is_octal() const {
  auto octal = [](const Digit& d) { return d.bits < 8; };
  return std::all_of(finite_.begin(), finite_.end(), octal) && std::all_of(tail_.begin(), tail_.end(), octal);
}

std::optional<std::vector<std::uint64_t>> Rules::subtraction_set() const {
  if (has_tail() || finite_[0].bits != 0) return std::nullopt;
  std::vector<std::uint64_t> set;
  for (std::uint64_t k = 1; k < finite_.size(); ++k) {
    if (finite_[k].bits == (kLeaveNone | kLeaveOne))
      set.push_back(k);
    else if (finite_[k].bits != 0)
      return std::nullopt;
  }
  if (set.empty()) return std::nullopt;
  return set;
}

std::string Rules::canonical() const {
  auto put = [](std::string& out, const Digit& d) {
    out += code_digit_char(d.bits);
    if (d.unequal) out += '!';
  };
  std::string out;
  put(out, finite_[0]);
  out += '.';
  for (std::size_t k = 1; k < finite_.size(); ++k) put(out, finite_[k]);
  if (!tail_.empty()) {
    out += '[';
    for (const auto& d : tail_) put(out, d);
    out += ']';
  } else if (finite_.size() == 1) {
    out += '0';
  }
  return out;
}

Rules parse_rules(std::string_view text) { return Parser(text).parse(); }

int code_digit_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

char code_digit_char(unsigned value) { return "0123456789ABCDEF"[value & 15]; }

const std::vector<NamedGame>& named_games() {
  static const std::vector<NamedGame> games = {
      {"kayles", "0.77"},        {"dawson", "0.137"},     {"dawson-kayles", "0.07"}, {"treblecross", "0.007"},
      {"grundy", "4!.0"},        {"nim", "0.[3]"},        {"lasker", "4.[3]"},
  };
  return games;
}

}  // namespace sgx
