#pragma once
// Heap games written as codes: parsing, canonical form, and the move rules the engine needs.
//
// A code d0.d1d2d3... says for each take k what removing k tokens from one heap may leave
// (docs/THEORY.md section 2). Digit bits: 1 = nothing, 2 = one heap, 4 = two heaps, 8 = three heaps.
// Accepted text:
//   0.137  .07  0.F7  4.07  8.0     octal / hexadecimal digits, d0 in {0, 4, 8, C}
//   4!.0   0.4!4                    '!' after a digit: that take's split parts must be pairwise unequal
//   0.[3]  4.[3]  0.3[1]  0.[12]    a bracketed tail repeats forever
//   sub:1,3,4                       finite subtraction set (digit 3 at each k in S)
//   kayles dawson dawson-kayles treblecross grundy nim lasker   names
// This is the only module that knows code syntax.

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace sgx {

// Bits of a code digit.
inline constexpr unsigned kLeaveNone = 1;
inline constexpr unsigned kLeaveOne = 2;
inline constexpr unsigned kLeaveTwo = 4;
inline constexpr unsigned kLeaveThree = 8;

// A malformed game text. position is the 0-based character index the problem was found at.
class ParseError : public std::runtime_error {
 public:
  ParseError(std::string text, std::size_t position, const std::string& reason);
  std::size_t position() const { return position_; }
  const std::string& text() const { return text_; }

 private:
  std::string text_;
  std::size_t position_;
};

// One take k: its digit and whether split parts must be pairwise unequal.
struct Digit {
  std::uint8_t bits = 0;
  bool unequal = false;
  friend bool operator==(const Digit&, const Digit&) = default;
};

// The parity of the takes k whose digit splits one heap into two: Mixed when both parities occur
// or none does. Only with one parity may the rare test use the heap's parity (docs/THEORY.md
// section 4).
enum class SplitTakeParity : std::uint8_t { Mixed, Even, Odd };

class Rules {
 public:
  // finite[k] is the digit for take k (finite[0] is d0); tail repeats after the finite part.
  Rules(std::vector<Digit> finite, std::vector<Digit> tail);

  // The digit for take k (k >= 0), following the tail past the finite part.
  Digit digit(std::uint64_t k) const {
    if (k < finite_.size()) return finite_[k];
    if (tail_.empty()) return Digit{};
    return tail_[(k - finite_.size()) % tail_.size()];
  }

  const std::vector<Digit>& finite_digits() const { return finite_; }
  const std::vector<Digit>& tail_digits() const { return tail_; }
  bool has_tail() const { return !tail_.empty(); }

  // Largest take with a non-zero digit (t in docs/THEORY.md); only meaningful without a tail.
  std::uint64_t largest_take() const { return finite_.size() - 1; }
  // Most heaps one move can leave: 1 for no splits, 2 for octal splits, 3 with bit 8.
  unsigned max_heaps_left() const;
  bool has_splits() const { return max_heaps_left() >= 2; }
  bool has_unequal_splits() const;
  SplitTakeParity split_take_parity() const;
  // True when every digit is octal (0-7).
  bool is_octal() const;
  // The set S when this is a finite subtraction game (every non-zero digit is 3, d0 = 0).
  std::optional<std::vector<std::uint64_t>> subtraction_set() const;

  // One canonical text per game: hexadecimal digits upper case, trailing zero digits dropped,
  // the tail reduced to its shortest repeating block. Used in file names and reports.
  std::string canonical() const;

  friend bool operator==(const Rules& a, const Rules& b) {
    return a.finite_ == b.finite_ && a.tail_ == b.tail_;
  }

 private:
  std::vector<Digit> finite_;  // never empty; no trailing zero digits past d1 unless a tail follows
  std::vector<Digit> tail_;
};

// Parses a code, a subtraction set or a name. Throws ParseError on anything malformed.
Rules parse_rules(std::string_view text);

// The value of a code digit (0-9, a-f, A-F), or -1 for any other character; and the character
// the canonical form writes for a value 0-15. Other readers of digits (sweep patterns) use these.
int code_digit_value(char c);
char code_digit_char(unsigned value);

// The names parse_rules accepts, with the code each stands for.
struct NamedGame {
  const char* name;
  const char* code;
};
const std::vector<NamedGame>& named_games();

}  // namespace sgx
