#include "sgx/sweep.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>

#include "sgx/engine.hpp"
#include "sgx/games.hpp"
#include "sgx/period.hpp"
#include "sgx/report.hpp"
#include "sgx/rules.hpp"
#include "sgx/stats.hpp"

namespace sgx {

namespace {

constexpr const char* kOctalDigits = "01234567";

// One character of a pattern's expansion: the digits it may be, and where it was written.
struct Slot {
  std::string choices;
  std::size_t position = 0;
};

[[noreturn]] void pattern_error(std::string_view pattern, std::size_t position, const std::string& reason) {
  std::string message = "invalid pattern '";
  message.append(pattern).append("' at character ").append(std::to_string(position + 1)).append(": ").append(reason);
  throw SweepInputError(message);
}

// The class starting at pattern[open] == '['. Digits come out sorted, each once, so that a class
// never lists a game twice. Sets end to the index of the closing ']'.
std::string parse_class(std::string_view pattern, std::size_t open, std::size_t& end) {
  std::vector<bool> chosen(16, false);
  std::size_t i = open + 1;
  for (; i < pattern.size() && pattern[i] != ']'; ++i) {
    const int from = code_digit_value(pattern[i]);
    if (from < 0) pattern_error(pattern, i, std::string("'") + pattern[i] + "' in a [class]: use digits and ranges like 0-3");
    int to = from;
    if (i + 2 < pattern.size() && pattern[i + 1] == '-') {
      to = code_digit_value(pattern[i + 2]);
      if (to < 0) pattern_error(pattern, i + 2, "a range ends with a digit, as in 0-3");
      if (to < from) pattern_error(pattern, i, "empty range: write the smaller digit first, as in 0-3");
      i += 2;
    }
    for (int d = from; d <= to; ++d) chosen[static_cast<std::size_t>(d)] = true;
  }
  if (i == pattern.size()) pattern_error(pattern, open, "'[' is never closed by ']'");
  if (i == open + 1) pattern_error(pattern, open, "empty class []");
  end = i;
  std::string choices;
  for (std::size_t d = 0; d < chosen.size(); ++d)
    if (chosen[d]) choices += code_digit_char(static_cast<unsigned>(d));
  return choices;
}

std::vector<Slot> pattern_slots(std::string_view pattern) {
  if (pattern.empty()) throw SweepInputError("empty pattern: give one such as 0.?? or a file of games");
  std::vector<Slot> slots;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    const char c = pattern[i];
    if (c == '?') {
      slots.push_back({kOctalDigits, i});
    } else if (c == '[') {
      std::size_t end = i;
      slots.push_back({parse_class(pattern, i, end), i});
      i = end;
    } else if (c == ']') {
      pattern_error(pattern, i, "']' without a '[' before it");
    } else {
      slots.push_back({std::string(1, c), i});
    }
  }
  return slots;
}

// The reason part of a ParseError's message ("invalid game 'X' at character N: reason").
std::string parse_reason(const ParseError& e) {
  const std::string message = e.what();
  std::string prefix = "invalid game '";
  prefix.append(e.text()).append("' at character ").append(std::to_string(e.position() + 1)).append(": ");
  return message.rfind(prefix, 0) == 0 ? message.substr(prefix.size()) : message;
}

// The first position of the pattern whose expansion parse_rules refuses, as a pattern error.
void check_code(std::string_view pattern, const std::vector<Slot>& slots, const std::string& code) {
  try {
    parse_rules(code);
  } catch (const ParseError& e) {
    // Each slot gives one character, so a position in the code is a slot; past the end is the end.
    const std::size_t at = e.position() < slots.size() ? slots[e.position()].position : pattern.size();
    std::string reason = parse_reason(e);
    reason.append(" (in ").append(code).append(")");
    pattern_error(pattern, at, reason);
  }
}

std::string trim(std::string_view text) {
  const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
  while (!text.empty() && space(text.front())) text.remove_prefix(1);
  while (!text.empty() && space(text.back())) text.remove_suffix(1);
  return std::string(text);
}

}  // namespace

std::vector<std::string> expand_pattern(std::string_view pattern) {
  const std::vector<Slot> slots = pattern_slots(pattern);
  std::uint64_t count = 1;
  for (const Slot& slot : slots) {
    count *= slot.choices.size();
    if (count > kMaxSweepGames)
      pattern_error(pattern, slot.position,
                    "the pattern stands for more than " + std::to_string(kMaxSweepGames) + " games");
  }
  // An odometer over the slots, the last one turning fastest.
  std::vector<std::size_t> turn(slots.size(), 0);
  std::vector<std::string> codes;
  codes.reserve(count);
  for (std::uint64_t k = 0; k < count; ++k) {
    std::string code;
    for (std::size_t s = 0; s < slots.size(); ++s) code += slots[s].choices[turn[s]];
    check_code(pattern, slots, code);
    codes.push_back(std::move(code));
    for (std::size_t s = slots.size(); s-- > 0;) {
      if (++turn[s] < slots[s].choices.size()) break;
      turn[s] = 0;
    }
  }
  return codes;
}

std::vector<std::string> read_game_list(std::istream& in, const std::string& source) {
  std::vector<std::string> games;
  std::map<std::string, std::size_t> first_line;
  std::size_t line_number = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_number;
    const std::string game = trim(std::string_view(line).substr(0, line.find('#')));
    if (game.empty()) continue;
    const std::string where = source + " line " + std::to_string(line_number) + ": ";
    try {
      parse_heap_game(game);
    } catch (const ParseError& e) {
      throw SweepInputError(where + e.what());
    }
    auto [it, added] = first_line.emplace(game, line_number);
    if (!added)
      throw SweepInputError(where + game + " is listed twice (first on line " + std::to_string(it->second) + ")");
    games.push_back(game);
  }
  if (in.bad()) throw std::runtime_error("cannot read " + source);
  if (games.empty()) throw SweepInputError(source + " lists no games");
  return games;
}

std::vector<std::string> games_of(const std::string& spec) {
  if (!std::filesystem::is_regular_file(spec)) return expand_pattern(spec);
  std::ifstream in(spec);
  if (!in) throw std::runtime_error("cannot open " + spec);
  return read_game_list(in, spec);
}

// ---- One game ----

namespace {

// FNV-1a, 64 bits: enough to tell sequences apart in a table; collisions only risk a wrong mark,
// and a marked row still has its own values.
class Fnv64 {
 public:
  void add(std::uint64_t word, int bytes) {
    for (int i = 0; i < bytes; ++i) {
      hash_ ^= (word >> (8 * i)) & 0xff;
      hash_ *= 0x100000001b3ULL;
    }
  }
  std::string hex() const {
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash_));
    return text;
  }

 private:
  std::uint64_t hash_ = 0xcbf29ce484222325ULL;
};

// A proven period fixes the whole sequence by its first n0 + p values, so those identify it; an
// unproven sequence is identified by all its values and how many there are.
std::string sequence_hash(const Sequence& values, const PeriodResult& period) {
  Fnv64 hash;
  std::uint64_t count = values.size();
  if (period.proven) {
    count = period.preperiod + period.period;
    hash.add('P', 1);
    hash.add(period.period, 8);
    hash.add(static_cast<std::uint64_t>(period.saltus), 8);
  } else {
    hash.add('N', 1);
  }
  hash.add(count, 8);
  for (std::uint64_t i = 0; i < count; ++i) hash.add(values[i], 4);
  return hash.hex();
}

SweepRow make_row(const std::string& game, const Sequence& values, const PeriodResult& period) {
  const SparseStats stats = compute_stats(values, parse_rules(game).split_take_parity());
  SweepRow row;
  row.game = game;
  row.n = values.size();
  row.period_found = period.found;
  row.period = period.found ? period.period : 0;
  row.preperiod = period.found ? period.preperiod : 0;
  row.saltus = period.found ? period.saltus : 0;
  row.proven = period.proven;
  row.theorem = period.theorem;
  row.max_value = stats.max_value;
  row.max_at = stats.max_at;
  row.rare_mask = stats.rare_mask;
  row.rare_count = stats.rare_count;
  row.last_rare = stats.last_rare;
  row.equivalent_to = canonical_equivalent(game);
  row.sequence_hash = sequence_hash(values, period);
  return row;
}

}  // namespace

SweepRow sweep_game(const std::string& game, const SweepSettings& settings) {
  const auto start = std::chrono::steady_clock::now();
  const Rules rules = parse_heap_game(game);
  Engine engine(rules, EngineOptions{KernelKind::Auto, settings.threads, true});
  std::uint64_t target = settings.until_proven ? std::min(settings.start, settings.cap) : settings.n;
  PeriodResult period;
  for (;;) {
    engine.compute_to(target);
    period = analyze_period(engine.values(), rules);
    if (!settings.until_proven || period.proven || target >= settings.cap) break;
    target = std::min(2 * target, settings.cap);
  }
  SweepRow row = make_row(game, engine.values(), period);
  row.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return row;
}

bool row_fits_settings(const SweepRow& row, const SweepSettings& settings) {
  if (!settings.until_proven) return row.n == settings.n;
  if (row.n == settings.cap) return true;
  // Stopped early: only by a proof, at one of the sizes the doubling passes through.
  for (std::uint64_t size = std::min(settings.start, settings.cap); size < settings.cap; size *= 2)
    if (row.n == size) return row.proven;
  return false;
}

std::string canonical_equivalent(const std::string& game) {
  const std::string canonical = parse_heap_game(game).canonical();
  return canonical == game ? std::string() : canonical;
}

void mark_equivalent_games(std::vector<SweepRow>& rows) {
  std::map<std::string, std::string> first_with_hash;  // sequence_hash -> canonical code
  for (SweepRow& row : rows) {
    const std::string canonical = parse_heap_game(row.game).canonical();
    auto [first, added] = first_with_hash.emplace(row.sequence_hash, canonical);
    if (canonical != row.game)
      row.equivalent_to = canonical;
    else
      row.equivalent_to = added ? std::string() : first->second;
  }
}

// ---- Formats ----

namespace {

const std::vector<std::string>& csv_columns() {
  static const std::vector<std::string> columns = {
      "game",       "n",          "period",    "preperiod",     "saltus",        "proven",
      "theorem",    "max_value",  "max_at",    "rare_mask",     "rare_count",    "last_rare",
      "equivalent_to", "sequence_hash", "seconds"};
  return columns;
}

// RFC 4180 quoting, needed for games like sub:1,3,4.
std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

std::string join_csv(const std::vector<std::string>& cells) {
  std::string line;
  for (std::size_t i = 0; i < cells.size(); ++i) line.append(i ? "," : "").append(cells[i]);
  return line;
}

std::vector<std::string> split_csv(std::string_view line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c != '"')
        fields.back() += c;
      else if (i + 1 < line.size() && line[i + 1] == '"')
        fields.back() += line[++i];
      else
        quoted = false;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  if (quoted) throw SweepInputError("a quoted field is never closed");
  return fields;
}

std::string seconds_text(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", seconds);
  return text;
}

std::uint64_t csv_unsigned(const std::string& text, const std::string& column, int base = 10) {
  std::size_t used = 0;
  std::uint64_t value = 0;
  try {
    if (!text.empty() && text[0] != '-') value = std::stoull(text, &used, base);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size()) throw SweepInputError(column + " is '" + text + "', not a whole number");
  return value;
}

std::int64_t csv_signed(const std::string& text, const std::string& column) {
  if (text.rfind('-', 0) == 0) return -static_cast<std::int64_t>(csv_unsigned(text.substr(1), column));
  return static_cast<std::int64_t>(csv_unsigned(text, column));
}

bool csv_bool(const std::string& text, const std::string& column) {
  if (text == "true") return true;
  if (text == "false") return false;
  throw SweepInputError(column + " is '" + text + "', not true or false");
}

}  // namespace

const std::string& sweep_csv_header() {
  static const std::string header = [] {
    return join_csv(csv_columns());
  }();
  return header;
}

std::string to_csv_line(const SweepRow& row) {
  const auto period_cell = [&row](std::string text) { return row.period_found ? text : std::string(); };
  const std::vector<std::string> cells = {
      csv_field(row.game),
      std::to_string(row.n),
      period_cell(std::to_string(row.period)),
      period_cell(std::to_string(row.preperiod)),
      period_cell(std::to_string(row.saltus)),
      row.proven ? "true" : "false",
      csv_field(row.theorem),
      std::to_string(row.max_value),
      std::to_string(row.max_at),
      rare_mask_text(row.rare_mask),
      std::to_string(row.rare_count),
      std::to_string(row.last_rare),
      csv_field(row.equivalent_to),
      row.sequence_hash,
      seconds_text(row.seconds)};
  return join_csv(cells);
}

SweepRow parse_csv_line(std::string_view line) {
  const std::vector<std::string> f = split_csv(line);
  if (f.size() != csv_columns().size())
    throw SweepInputError(std::to_string(f.size()) + " fields where a row has " + std::to_string(csv_columns().size()));
  if (f[0].empty()) throw SweepInputError("the game is empty");
  if (f[9].rfind("0x", 0) != 0) throw SweepInputError("rare_mask is '" + f[9] + "', not hexadecimal like 0xe");
  if (f[13].size() != 16) throw SweepInputError("sequence_hash is '" + f[13] + "', not 16 hex digits");
  SweepRow row;
  row.game = f[0];
  row.n = csv_unsigned(f[1], "n");
  row.period_found = !f[2].empty();
  if (row.period_found) {
    row.period = csv_unsigned(f[2], "period");
    row.preperiod = csv_unsigned(f[3], "preperiod");
    row.saltus = csv_signed(f[4], "saltus");
  }
  row.proven = csv_bool(f[5], "proven");
  // Tables written before theorem meant "the theorem that proved it" named the applicable one for
  // unproven rows too.
  row.theorem = row.proven ? f[6] : "";
  row.max_value = csv_unsigned(f[7], "max_value");
  row.max_at = csv_unsigned(f[8], "max_at");
  // "0x1+pos": with the heap's parity, whose flip the game's splits decide.
  const std::string_view position_suffix = "+pos";
  std::string mask_digits = f[9].substr(2);
  if (mask_digits.ends_with(position_suffix)) {
    mask_digits.resize(mask_digits.size() - position_suffix.size());
    row.rare_mask.with_position = true;
    row.rare_mask.odd_takes = parse_rules(row.game).split_take_parity() == SplitTakeParity::Odd;
  }
  row.rare_mask.values = csv_unsigned(mask_digits, "rare_mask", 16);
  row.rare_count = csv_unsigned(f[10], "rare_count");
  row.last_rare = csv_signed(f[11], "last_rare");
  row.equivalent_to = f[12];
  row.sequence_hash = f[13];
  try {
    row.seconds = std::stod(f[14]);
  } catch (const std::exception&) {
    throw SweepInputError("seconds is '" + f[14] + "', not a number");
  }
  return row;
}

Json sweep_row_json(const SweepRow& row) {
  // The period object of run_octal and sg_period, less the exceptions: a row keeps no values.
  PeriodResult period;
  period.found = row.period_found;
  period.period = row.period;
  period.preperiod = row.preperiod;
  period.saltus = row.saltus;
  period.proven = row.proven;
  period.theorem = row.theorem;
  if (row.period_found) period.proof_needs_n = proof_length(parse_rules(row.game), row.preperiod, row.period);
  SparseStats stats;
  stats.rare_mask = row.rare_mask;
  stats.rare_count = row.rare_count;
  stats.last_rare = row.last_rare;
  return {{"game", row.game},
          {"n", row.n},
          {"seconds", row.seconds},
          {"max_value", row.max_value},
          {"max_at", row.max_at},
          {"stats", stats_json(stats)},
          {"period", period_json(period, false)},
          {"equivalent_to", row.equivalent_to.empty() ? Json(nullptr) : Json(row.equivalent_to)},
          {"sequence_hash", row.sequence_hash}};
}

std::string markdown_table(const std::vector<SweepRow>& rows) {
  std::vector<std::vector<std::string>> cells = {{"game", "n", "period", "preperiod", "saltus", "proven",
                                                  "largest", "rare mask", "rare", "last rare", "same as"}};
  for (const SweepRow& row : rows) {
    const auto period_cell = [&row](std::string text) { return row.period_found ? text : std::string("-"); };
    std::string proven = row.proven ? "yes (" + row.theorem + ")" : "no";
    cells.push_back({row.game, std::to_string(row.n), period_cell(std::to_string(row.period)),
                     period_cell(std::to_string(row.preperiod)), period_cell(std::to_string(row.saltus)), proven,
                     std::to_string(row.max_value) + " @" + std::to_string(row.max_at), rare_mask_text(row.rare_mask),
                     std::to_string(row.rare_count), row.last_rare >= 0 ? std::to_string(row.last_rare) : "-",
                     row.equivalent_to.empty() ? "" : row.equivalent_to});
  }
  std::vector<std::size_t> width(cells[0].size(), 3);  // "---" is the shortest rule Markdown allows
  for (const auto& line : cells)
    for (std::size_t c = 0; c < line.size(); ++c) width[c] = std::max(width[c], line[c].size());
  const auto format = [&width](const std::vector<std::string>& line) {
    std::string out = "|";
    for (std::size_t c = 0; c < line.size(); ++c)
      out.append(" ").append(line[c]).append(width[c] - line[c].size(), ' ').append(" |");
    return out + "\n";
  };
  std::string out = format(cells[0]);
  out += "|";
  for (std::size_t w : width) out.append(w + 2, '-').append("|");
  out += "\n";
  for (std::size_t r = 1; r < cells.size(); ++r) out += format(cells[r]);
  return out;
}

}  // namespace sgx
