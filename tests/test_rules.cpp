// Game codes, subtraction sets and names: what each accepted form means, its canonical text,
// and the position and reason reported for malformed text.

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "sgx/rules.hpp"

namespace sgx {
namespace {

Digit d(unsigned bits, bool unequal = false) { return Digit{static_cast<std::uint8_t>(bits), unequal}; }

std::string canon(const std::string& text) { return parse_rules(text).canonical(); }

// The digits of take 0..count-1 as a string of hex characters ('!' after unequal ones).
std::string spelled(const Rules& rules, std::uint64_t count) {
  std::string out;
  for (std::uint64_t k = 0; k < count; ++k) {
    Digit digit = rules.digit(k);
    out += "0123456789ABCDEF"[digit.bits];
    if (digit.unequal) out += '!';
  }
  return out;
}

TEST(RulesParse, OctalCodesGiveTheirDigits) {
  Rules dawson = parse_rules("0.137");
  EXPECT_EQ(dawson.finite_digits(), (std::vector<Digit>{d(0), d(1), d(3), d(7)}));
  EXPECT_TRUE(dawson.tail_digits().empty());
  EXPECT_FALSE(dawson.has_tail());
  EXPECT_EQ(dawson.digit(0), d(0));
  EXPECT_EQ(dawson.digit(1), d(1));
  EXPECT_EQ(dawson.digit(2), d(3));
  EXPECT_EQ(dawson.digit(3), d(7));
  EXPECT_EQ(dawson.digit(4), d(0));
  EXPECT_EQ(dawson.digit(1000000), d(0));
  EXPECT_EQ(dawson.canonical(), "0.137");
}

TEST(RulesParse, LeadingPointMeansZeroPoint) {
  EXPECT_EQ(parse_rules(".07"), parse_rules("0.07"));
  EXPECT_EQ(canon(".07"), "0.07");
  EXPECT_EQ(parse_rules(".07").digit(2), d(7));
  EXPECT_EQ(canon(".[3]"), "0.[3]");
}

TEST(RulesParse, HexadecimalDigitsAnyCase) {
  Rules rules = parse_rules("0.f7");
  EXPECT_EQ(rules.digit(1), d(15));
  EXPECT_EQ(rules.digit(2), d(7));
  EXPECT_EQ(rules, parse_rules("0.F7"));
  EXPECT_EQ(rules.canonical(), "0.F7");
  EXPECT_FALSE(rules.is_octal());
  EXPECT_EQ(canon("0.aBcDeF"), "0.ABCDEF");
  EXPECT_EQ(parse_rules("0.aBcDeF").digit(6), d(15));
}

TEST(RulesParse, SplitBeforeThePoint) {
  Rules rules = parse_rules("4.07");
  EXPECT_EQ(rules.digit(0), d(4));
  EXPECT_EQ(rules.digit(1), d(0));
  EXPECT_EQ(rules.digit(2), d(7));
  EXPECT_EQ(rules.canonical(), "4.07");

  Rules split_only = parse_rules("4.0");
  EXPECT_EQ(split_only.finite_digits(), (std::vector<Digit>{d(4)}));
  EXPECT_EQ(split_only.canonical(), "4.0");
  EXPECT_EQ(split_only.largest_take(), 0u);

  EXPECT_EQ(canon("8.0"), "8.0");
  EXPECT_EQ(parse_rules("8.0").digit(0), d(8));
  EXPECT_EQ(canon("C.1"), "C.1");
  EXPECT_EQ(canon("c.1"), "C.1");
  EXPECT_EQ(parse_rules("C.1").digit(0), d(12));
  EXPECT_EQ(parse_rules("C.1").digit(1), d(1));
}

TEST(RulesParse, UnequalSplitMark) {
  Rules grundy = parse_rules("4!.0");
  EXPECT_EQ(grundy.digit(0), d(4, true));
  EXPECT_EQ(grundy.digit(1), d(0));
  EXPECT_TRUE(grundy.has_unequal_splits());
  EXPECT_EQ(grundy.canonical(), "4!.0");
  EXPECT_NE(grundy, parse_rules("4.0"));

  Rules mixed = parse_rules("0.4!4");
  EXPECT_EQ(mixed.digit(1), d(4, true));
  EXPECT_EQ(mixed.digit(2), d(4, false));
  EXPECT_EQ(mixed.canonical(), "0.4!4");
  EXPECT_TRUE(mixed.has_unequal_splits());

  EXPECT_EQ(canon("0.6!"), "0.6!");
  EXPECT_EQ(canon("0.8!"), "0.8!");
  EXPECT_EQ(canon("0.[4!]"), "0.[4!]");
  EXPECT_EQ(parse_rules("0.[4!]").digit(7), d(4, true));
  EXPECT_FALSE(parse_rules("4.0").has_unequal_splits());
  EXPECT_FALSE(parse_rules("0.77").has_unequal_splits());
}

TEST(RulesParse, RepeatingTails) {
  Rules nim = parse_rules("0.[3]");
  EXPECT_TRUE(nim.has_tail());
  EXPECT_EQ(nim.digit(0), d(0));
  for (std::uint64_t k : {1ull, 2ull, 17ull, 1ull << 40}) EXPECT_EQ(nim.digit(k), d(3)) << k;
  EXPECT_EQ(nim.canonical(), "0.[3]");

  Rules lasker = parse_rules("4.[3]");
  EXPECT_EQ(lasker.digit(0), d(4));
  EXPECT_EQ(lasker.digit(1), d(3));
  EXPECT_EQ(lasker.digit(99), d(3));
  EXPECT_EQ(lasker.canonical(), "4.[3]");

  Rules finite_then_tail = parse_rules("0.3[1]");
  EXPECT_EQ(spelled(finite_then_tail, 6), "031111");
  EXPECT_EQ(finite_then_tail.canonical(), "0.3[1]");

  Rules two_digit_tail = parse_rules("0.[12]");
  EXPECT_EQ(spelled(two_digit_tail, 8), "01212121");
  EXPECT_EQ(two_digit_tail.digit(1001), d(1));
  EXPECT_EQ(two_digit_tail.digit(1002), d(2));
  EXPECT_EQ(two_digit_tail.canonical(), "0.[12]");

  EXPECT_EQ(spelled(parse_rules("0.5[123]"), 9), "051231231");
}

TEST(RulesCanonical, TrailingZerosDropped) {
  EXPECT_EQ(canon("0.770"), "0.77");
  EXPECT_EQ(canon("0.7700000"), "0.77");
  EXPECT_EQ(parse_rules("0.770"), parse_rules("0.77"));
  EXPECT_EQ(parse_rules("0.770").largest_take(), 2u);
  EXPECT_EQ(canon("0.0"), "0.0");
  EXPECT_EQ(canon("0.000"), "0.0");
  EXPECT_EQ(canon("4.000"), "4.0");
  // Zeros inside the code are kept.
  EXPECT_EQ(canon("0.007"), "0.007");
  EXPECT_EQ(canon("0.70[3]"), "0.70[3]");
}

TEST(RulesCanonical, TailReducedAndAbsorbed) {
  EXPECT_EQ(canon("0.33[3]"), "0.[3]");
  EXPECT_EQ(parse_rules("0.33[3]"), parse_rules("0.[3]"));
  EXPECT_EQ(canon("0.[33]"), "0.[3]");
  EXPECT_EQ(canon("0.[1212]"), "0.[12]");
  EXPECT_EQ(canon("0.[121]"), "0.[121]");
  // 0.1[21] is 0.12121... = 0.[12]
  EXPECT_EQ(canon("0.1[21]"), "0.[12]");
  EXPECT_EQ(canon("0.7121[21]"), "0.7[12]");
  // An all-zero tail adds nothing: the game is the finite code.
  EXPECT_EQ(canon("0.[0]"), "0.0");
  EXPECT_EQ(canon("0.[00]"), "0.0");
  EXPECT_EQ(canon("0.70[0]"), "0.7");
  EXPECT_FALSE(parse_rules("0.7[0]").has_tail());
  // d0 is never absorbed into the tail.
  EXPECT_EQ(canon("4.[4]"), "4.[4]");
  EXPECT_EQ(parse_rules("4.[4]").finite_digits().size(), 1u);
  // '!' is part of the digit when comparing with the tail.
  EXPECT_EQ(canon("0.4[4!]"), "0.4[4!]");
  EXPECT_EQ(canon("0.4![4!]"), "0.[4!]");
}

TEST(RulesNames, EveryNameEqualsItsCode) {
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"kayles", "0.77"},   {"dawson", "0.137"}, {"dawson-kayles", "0.07"}, {"treblecross", "0.007"},
      {"grundy", "4!.0"},   {"nim", "0.[3]"},    {"lasker", "4.[3]"},
  };
  ASSERT_EQ(named_games().size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(named_games()[i].name, expected[i].first);
    EXPECT_EQ(named_games()[i].code, expected[i].second);
    EXPECT_EQ(parse_rules(expected[i].first), parse_rules(expected[i].second)) << expected[i].first;
    EXPECT_EQ(parse_rules(expected[i].first).canonical(), expected[i].second);
  }
  EXPECT_EQ(parse_rules("Kayles"), parse_rules("0.77"));
  EXPECT_EQ(parse_rules("GRUNDY"), parse_rules("4!.0"));
}

TEST(RulesSubtraction, SetBecomesDigitThrees) {
  Rules rules = parse_rules("sub:1,3,4");
  EXPECT_EQ(rules, parse_rules("0.3033"));
  EXPECT_EQ(rules.canonical(), "0.3033");
  EXPECT_EQ(rules.subtraction_set(), (std::vector<std::uint64_t>{1, 3, 4}));
  EXPECT_EQ(rules.largest_take(), 4u);
  EXPECT_EQ(rules.max_heaps_left(), 1u);
  // Order and repeats do not matter.
  EXPECT_EQ(parse_rules("sub:4,1,3,1"), rules);
  EXPECT_EQ(parse_rules("SUB:2"), parse_rules("0.03"));
  EXPECT_EQ(parse_rules("sub:10").largest_take(), 10u);
  EXPECT_EQ(parse_rules("sub:10").digit(10), d(3));
  EXPECT_EQ(parse_rules("sub:10").digit(9), d(0));
}

TEST(RulesSubtraction, SubtractionSetOnlyForPureThrees) {
  EXPECT_EQ(parse_rules("0.03").subtraction_set(), (std::vector<std::uint64_t>{2}));
  EXPECT_FALSE(parse_rules("0.77").subtraction_set().has_value());
  EXPECT_FALSE(parse_rules("0.31").subtraction_set().has_value());
  EXPECT_FALSE(parse_rules("0.[3]").subtraction_set().has_value());
  EXPECT_FALSE(parse_rules("4.3").subtraction_set().has_value());
  EXPECT_FALSE(parse_rules("0.0").subtraction_set().has_value());
}

TEST(RulesQueries, LargestTake) {
  EXPECT_EQ(parse_rules("0.77").largest_take(), 2u);
  EXPECT_EQ(parse_rules("0.137").largest_take(), 3u);
  EXPECT_EQ(parse_rules("0.007").largest_take(), 3u);
  EXPECT_EQ(parse_rules("0.6").largest_take(), 1u);
  EXPECT_EQ(parse_rules("4!.0").largest_take(), 0u);
  EXPECT_EQ(parse_rules("0.0").largest_take(), 0u);
  EXPECT_EQ(parse_rules("0.1000000000001").largest_take(), 13u);
}

TEST(RulesQueries, MaxHeapsLeft) {
  EXPECT_EQ(parse_rules("0.3033").max_heaps_left(), 1u);
  EXPECT_EQ(parse_rules("0.[3]").max_heaps_left(), 1u);
  EXPECT_EQ(parse_rules("0.1").max_heaps_left(), 1u);
  EXPECT_FALSE(parse_rules("0.3033").has_splits());
  EXPECT_EQ(parse_rules("0.77").max_heaps_left(), 2u);
  EXPECT_EQ(parse_rules("4!.0").max_heaps_left(), 2u);
  EXPECT_EQ(parse_rules("4.[3]").max_heaps_left(), 2u);
  EXPECT_EQ(parse_rules("0.3[4]").max_heaps_left(), 2u);
  EXPECT_TRUE(parse_rules("0.137").has_splits());
  EXPECT_EQ(parse_rules("8.0").max_heaps_left(), 3u);
  EXPECT_EQ(parse_rules("0.F7").max_heaps_left(), 3u);
  EXPECT_EQ(parse_rules("0.7[8]").max_heaps_left(), 3u);
  EXPECT_EQ(parse_rules("C.1").max_heaps_left(), 3u);
}

TEST(RulesQueries, IsOctal) {
  EXPECT_TRUE(parse_rules("0.77").is_octal());
  EXPECT_TRUE(parse_rules("4.[3]").is_octal());
  EXPECT_TRUE(parse_rules("4!.0").is_octal());
  EXPECT_FALSE(parse_rules("8.0").is_octal());
  EXPECT_FALSE(parse_rules("0.78").is_octal());
  EXPECT_FALSE(parse_rules("0.7[9]").is_octal());
}

// A random code with the digits it stands for at takes 0..count-1.
struct RandomCode {
  std::string text;
  std::vector<Digit> meaning;
};

RandomCode random_code(std::mt19937_64& rng, std::uint64_t count) {
  auto pick = [&rng](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  auto hex = [](unsigned v) { return "0123456789ABCDEFabcdef"[v]; };
  auto spell = [&](unsigned bits) {
    // Lower case sometimes, to check case folding.
    std::string s(1, bits >= 10 && pick(0, 1) ? hex(bits + 6) : hex(bits));
    bool unequal = (bits & 12) != 0 && pick(0, 3) == 0;
    if (unequal) s += '!';
    return std::make_pair(s, d(bits, unequal));
  };
  // Few distinct digits, so that tails and absorptions actually happen.
  const std::vector<unsigned> alphabet = {0, 0, 3, 3, 4, 7, static_cast<unsigned>(pick(0, 15))};
  auto random_bits = [&] { return alphabet[static_cast<std::size_t>(pick(0, 6))]; };

  RandomCode code;
  std::vector<Digit> finite, tail;
  auto [d0_text, d0] = spell(static_cast<unsigned>(4 * pick(0, 3)));
  code.text = d0_text + ".";
  finite.push_back(d0);
  const int finite_length = pick(0, 6);
  for (int i = 0; i < finite_length; ++i) {
    auto [s, digit] = spell(random_bits());
    code.text += s;
    finite.push_back(digit);
  }
  if (pick(0, 1)) {
    const int tail_length = pick(1, 4);
    const int repeats = pick(1, 3);
    std::vector<std::pair<std::string, Digit>> block;
    for (int i = 0; i < tail_length; ++i) block.push_back(spell(random_bits()));
    code.text += '[';
    for (int r = 0; r < repeats; ++r)
      for (const auto& [s, digit] : block) {
        code.text += s;
        tail.push_back(digit);
      }
    code.text += ']';
  } else if (finite_length == 0) {
    code.text += '0';
    finite.push_back(d(0));
  }
  for (std::uint64_t k = 0; k < count; ++k) {
    if (k < finite.size())
      code.meaning.push_back(finite[k]);
    else if (tail.empty())
      code.meaning.push_back(d(0));
    else
      code.meaning.push_back(tail[(k - finite.size()) % tail.size()]);
  }
  return code;
}

TEST(RulesCanonical, RandomCodesRoundTrip) {
  std::mt19937_64 rng(20240517);
  constexpr std::uint64_t kTakes = 64;
  int with_tail = 0, shortened = 0;
  for (int trial = 0; trial < 5000; ++trial) {
    RandomCode code = random_code(rng, kTakes);
    SCOPED_TRACE(code.text);
    Rules rules = parse_rules(code.text);
    for (std::uint64_t k = 0; k < kTakes; ++k) ASSERT_EQ(rules.digit(k), code.meaning[k]) << "take " << k;

    const std::string text = rules.canonical();
    SCOPED_TRACE(text);
    Rules again = parse_rules(text);
    ASSERT_EQ(again, rules);
    ASSERT_EQ(again.canonical(), text);
    for (std::uint64_t k = 0; k < kTakes; ++k) ASSERT_EQ(again.digit(k), code.meaning[k]) << "take " << k;

    // The canonical form's shape: upper case, no '!' on non-split digits, minimal tail.
    ASSERT_EQ(text.find_first_of("abcdef"), std::string::npos);
    for (std::size_t i = 1; i < text.size(); ++i) {
      if (text[i] == '!') {
        ASSERT_NE(std::string("456789ABCDEF").find(text[i - 1]), std::string::npos);
      }
    }
    const auto& finite = rules.finite_digits();
    const auto& tail = rules.tail_digits();
    ASSERT_FALSE(finite.empty());
    if (tail.empty()) {
      if (finite.size() > 1) {
        ASSERT_NE(finite.back(), d(0));
      }
    } else {
      ++with_tail;
      if (finite.size() > 1) {
        ASSERT_NE(finite.back(), tail.back());
      }
      ASSERT_FALSE(tail.size() == 1 && tail[0] == d(0));
      for (std::size_t len = 1; len < tail.size(); ++len) {
        if (tail.size() % len != 0) continue;
        bool repeats = true;
        for (std::size_t i = len; i < tail.size(); ++i) repeats = repeats && tail[i] == tail[i - len];
        ASSERT_FALSE(repeats) << "tail not primitive";
      }
    }
    if (text.size() < code.text.size()) ++shortened;
  }
  // The generator must actually exercise tails and reductions.
  EXPECT_GT(with_tail, 1000);
  EXPECT_GT(shortened, 1000);
}

TEST(RulesCanonical, EqualityFollowsMeaning) {
  // Two codes are equal exactly when they give the same digit at every take.
  std::mt19937_64 rng(77);
  constexpr std::uint64_t kTakes = 48;  // longer than finite part + 2 * lcm of tail lengths
  for (int trial = 0; trial < 3000; ++trial) {
    RandomCode a = random_code(rng, kTakes), b = random_code(rng, kTakes);
    SCOPED_TRACE(a.text + " vs " + b.text);
    EXPECT_EQ(parse_rules(a.text) == parse_rules(b.text), a.meaning == b.meaning);
  }
}

// What every malformed text must report.
struct BadInput {
  std::string text;
  std::size_t position;
  std::string reason_part;  // a piece of the message that names the problem
};

TEST(RulesErrors, PositionAndReason) {
  const std::vector<BadInput> cases = {
      {"", 0, "empty game"},
      {"0.", 2, "no digits after the point"},
      {".", 1, "no digits after the point"},
      {"4.", 2, "no digits after the point"},
      {"0.1x", 3, "'x' is not a hexadecimal digit"},
      {"1.5", 0, "d0 must be 0, 4, 8 or C"},
      {"2.3", 0, "d0 must be 0, 4, 8 or C"},
      {"3.1", 0, "d0 must be 0, 4, 8 or C"},
      {"F.1", 0, "d0 must be 0, 4, 8 or C"},
      {"6.1", 0, "d0 must be 0, 4, 8 or C"},
      {"0.G", 2, "'G' is not a hexadecimal digit"},
      {"0.[", 2, "'[' is never closed"},
      {"0.[37", 2, "'[' is never closed"},
      {"0.[]", 3, "empty repeating tail"},
      {"0.[3]4", 5, "'4' after the repeating tail"},
      {"0.3!", 3, "'!' (unequal parts) only applies to a digit that splits"},
      {"0!.4", 1, "'!' (unequal parts) only applies to a digit that splits"},
      {"0.[3!]", 4, "'!' (unequal parts) only applies to a digit that splits"},
      {"4!!.0", 2, "'!' where '.' was expected"},
      {"0.3]", 3, "']' is not a hexadecimal digit"},
      {"sub:", 4, "empty subtraction set"},
      {"sub:0", 4, "take size 0"},
      {"sub:1,,3", 6, "empty entry"},
      {"sub:1,3,", 8, "empty entry"},
      {"sub:a", 4, "'a' in the subtraction set"},
      {"sub:12x", 6, "'x' in the subtraction set"},
      {"sub:-1", 4, "'-' in the subtraction set"},
      {"sub:99999999999999999999999", 4, "take size too large"},
      {"sub:2000000", 4, "take size too large"},
      {"0 .7", 1, "spaces are not allowed"},
      {" 0.7", 0, "spaces are not allowed"},
      {"0.7\t", 3, "spaces are not allowed"},
      {"07", 1, "'7' where '.' was expected"},
      {"0", 1, "expected '.' after the first digit"},
      {"kaylez", 0, "'k' is not a hexadecimal digit"},
      {"0.1\x01", 3, "character code 1 is not a hexadecimal digit"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE("input \"" + c.text + "\"");
    try {
      Rules rules = parse_rules(c.text);
      ADD_FAILURE() << "accepted as " << rules.canonical();
    } catch (const ParseError& e) {
      EXPECT_EQ(e.position(), c.position);
      EXPECT_EQ(e.text(), c.text);
      const std::string message = e.what();
      const std::string prefix =
          "invalid game '" + c.text + "' at character " + std::to_string(c.position + 1) + ": ";
      EXPECT_EQ(message.substr(0, prefix.size()), prefix) << message;
      EXPECT_NE(message.find(c.reason_part), std::string::npos) << message;
    }
  }
}

TEST(RulesErrors, ParseErrorIsARuntimeError) {
  EXPECT_THROW(parse_rules("0.8x"), std::runtime_error);
  EXPECT_THROW(parse_rules("nimm"), ParseError);
}

TEST(RulesErrors, LargeSubtractionLimitIsInclusive) {
  Rules rules = parse_rules("sub:1048576");
  EXPECT_EQ(rules.largest_take(), 1048576u);
  EXPECT_EQ(rules.subtraction_set(), (std::vector<std::uint64_t>{1048576}));
  EXPECT_THROW(parse_rules("sub:1048577"), ParseError);
}

}  // namespace
}  // namespace sgx
