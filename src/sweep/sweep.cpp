#include "sgx/sweep.hpp"

#include "base/os_error.hpp"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>

#include "sgx/engine.hpp"
#include "sgx/games.hpp"
#include "sgx/period.hpp"
#include "sgx/provenance.hpp"
#include "sgx/report.hpp"
#include "sgx/rules.hpp"
#include "sgx/run_session.hpp"
#include "sgx/stats.hpp"
#include "sgx/store.hpp"
#include "sgx/version.hpp"

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

// The rules of one code of the pattern's expansion; the first position parse_rules refuses, as a
// pattern error.
Rules parse_code(std::string_view pattern, const std::vector<Slot>& slots, const std::string& code) {
  try {
    return parse_rules(code);
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

std::vector<SweepGame> expand_pattern_games(std::string_view pattern) {
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
  std::vector<SweepGame> games;
  games.reserve(count);
  for (std::uint64_t k = 0; k < count; ++k) {
    std::string code;
    for (std::size_t s = 0; s < slots.size(); ++s) code += slots[s].choices[turn[s]];
    Rules rules = parse_code(pattern, slots, code);
    games.push_back({std::move(code), std::move(rules)});
    for (std::size_t s = slots.size(); s-- > 0;) {
      if (++turn[s] < slots[s].choices.size()) break;
      turn[s] = 0;
    }
  }
  return games;
}

std::vector<SweepGame> read_games(std::istream& in, const std::string& source) {
  std::vector<SweepGame> games;
  std::map<std::string, std::size_t> first_line;
  std::size_t line_number = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_number;
    const std::string game = trim(std::string_view(line).substr(0, line.find('#')));
    if (game.empty()) continue;
    const std::string where = source + " line " + std::to_string(line_number) + ": ";
    std::optional<Rules> rules;
    try {
      rules = parse_heap_game(game);
    } catch (const ParseError& e) {
      throw SweepInputError(where + e.what());
    }
    auto [it, added] = first_line.emplace(game, line_number);
    if (!added)
      throw SweepInputError(where + game + " is listed twice (first on line " + std::to_string(it->second) + ")");
    games.push_back({game, *std::move(rules)});
  }
  if (in.bad()) throw std::runtime_error("cannot read " + source);
  if (games.empty()) throw SweepInputError(source + " lists no games");
  return games;
}

}  // namespace

std::vector<std::string> expand_pattern(std::string_view pattern) { return game_texts(expand_pattern_games(pattern)); }

std::vector<std::string> read_game_list(std::istream& in, const std::string& source) {
  return game_texts(read_games(in, source));
}

std::vector<std::string> game_texts(const std::vector<SweepGame>& games) {
  std::vector<std::string> texts;
  texts.reserve(games.size());
  for (const SweepGame& game : games) texts.push_back(game.text);
  return texts;
}

std::vector<SweepGame> games_of(const std::string& spec) {
  std::error_code no_file;
  if (!std::filesystem::is_regular_file(spec, no_file)) {
    // Neither a file nor a pattern: say both, since a mistyped file name reads as a malformed pattern.
    const auto neither = [&](const char* why_not_a_pattern) {
      const std::string why = no_file                          ? lowercase_first(no_file.message())
                              : std::filesystem::exists(spec) ? "not a regular file"
                                                              : "no such file";
      return SweepInputError("'" + spec + "' is no file of games (" + why + ") and no pattern of codes (" +
                             why_not_a_pattern + ")");
    };
    try {
      return expand_pattern_games(spec);
    } catch (const SweepInputError& e) {
      throw neither(e.what());
    } catch (const ParseError& e) {
      throw neither(e.what());
    }
  }
  std::ifstream in(spec);
  if (!in) throw std::runtime_error("cannot open " + spec);
  return read_games(in, spec);
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

SweepRow make_row(const SweepGame& game, const Sequence& values, const SparseStats& stats, const PeriodResult& period) {
  SweepRow row;
  row.game = game.text;
  row.n = values.size();
  row.period = period;
  row.period.exceptions.clear();
  row.period.applicable_theorem.clear();
  row.period.checked_n = 0;
  row.stats = stats;
  row.stats.histogram.clear();
  const std::string canonical = game.rules.canonical();
  row.equivalent_to = canonical == game.text ? std::string() : canonical;
  row.sequence_hash = sequence_hash(values, period);
  return row;
}

// A game is sparse, and exempt from SweepSettings::max_seconds, unless more than 1/256 of its
// positions are rare and rare positions still come in the second half of its values. Each heap is
// paired with every rare position, so a game whose rare positions keep coming costs about n^2 / 256
// and more (0.04, 0.067 and 0.76 at 2^20: 2%, 0.6% and 18% rare, the last near 2^20; minutes each).
// Both conditions are needed: 0.376 has a rare position near 2^20 but 509 in all, and 4.44 has
// 504, 0.8% of 2^16, but none after 7349.
constexpr std::uint64_t kSparseShareInverse = 256;
// Below this many values the share says little, and every game is quick: all count as sparse.
constexpr std::uint64_t kSparseJudgedFrom = std::uint64_t{1} << 16;

// Processor time of the process since start, all its threads: the work of the game in hand (a
// sweep computes one game at a time per process), whatever else the machine runs.
double cpu_seconds_since(std::clock_t start) {
  return static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
}

// The run to continue in the game's run file, or a new one when none is there (or replace asks
// for it): the file must hold a run of this game with every value.
RunRecord stored_run(const std::string& path, const std::string& game, bool replace) {
  std::error_code error;
  RunRecord stored;
  stored.game = game;
  if (replace || !std::filesystem::exists(path, error)) return stored;
  const RunStatus status = read_run_status(path);
  if (status.game != game)
    throw SweepInputError(path + " holds a run of " + status.game + ", not " + game +
                          ": keep the runs of another sweep in a directory of their own, or delete the file");
  if (!status.holds_every_value())
    throw SweepInputError(path + " holds a run whose middle was released from memory (a bounded run), which a "
                          "sweep cannot continue");
  return read_run_file(path);
}

}  // namespace

bool costs_about_n_squared(const Engine& engine) {
  const std::uint64_t n = engine.values().size();
  if (n < kSparseJudgedFrom) return false;
  if (engine.active_kernel() != KernelKind::Sparse) return true;
  if (engine.live_rare_count() * kSparseShareInverse <= n) return false;
  const std::optional<SparseState> state = engine.sparse_state();  // a copy: only looked at past the time cap
  return state && !state->rare_positions.empty() && 2 * state->rare_positions.back() >= n;
}

std::string game_run_path(const std::string& runs, const std::string& game) {
  return (std::filesystem::path(runs) / (game + ".h5")).string();
}

SweepRow sweep_game(const SweepGame& game, const SweepSettings& settings) {
  const std::clock_t cpu_start = std::clock();
  RunSessionOptions options;
  options.engine = EngineOptions{KernelKind::Auto, settings.threads, true};
  options.checkpoint_every = settings.checkpoint_every;
  options.command = settings.command;
  options.stop_requested = settings.stop_requested;
  if (settings.on_step)
    options.on_step = [&settings, &game](const Progress& progress, bool) { settings.on_step(game.text, progress); };
  RunRecord stored;
  stored.game = game.rules.canonical();
  const bool resume = !settings.runs.empty() && !settings.replace_runs &&
                      std::filesystem::exists(game_run_path(settings.runs, game.text));
  if (!settings.runs.empty()) {
    options.path = game_run_path(settings.runs, game.text);
    stored = stored_run(options.path, stored.game, settings.replace_runs);
  }
  RunSession session(game.rules, std::move(stored), resume, std::move(options));
  RunGoal goal;
  goal.until_proven = settings.until_proven;
  if (settings.until_proven) {
    // Nothing can prove a period of a game no theorem covers: it runs to the cap.
    goal.n = proof_theorem(game.rules).empty() ? settings.cap : std::min(settings.start, settings.cap);
    goal.max_n = settings.cap;
    if (settings.max_seconds > 0)
      goal.enough = [&settings, cpu_start](const Engine& engine) {
        return cpu_seconds_since(cpu_start) >= settings.max_seconds && costs_about_n_squared(engine);
      };
  } else {
    goal.n = settings.n;
  }
  const RunResult result = session.run(goal);
  if (result.stopped) throw SweepStopped(game.text, session.values().size());
  SweepRow row = make_row(game, session.values(), result.info.stats, result.info.period);
  if (settings.until_proven && !result.info.period.proven)
    row.stopped_by = result.ended_early ? kStoppedByMaxSeconds : kStoppedByMaxN;
  row.resumed_from = session.stored_n();
  row.seconds = result.seconds;
  return row;
}

SweepRow sweep_game(const std::string& game, const SweepSettings& settings) {
  return sweep_game(SweepGame{game, parse_heap_game(game)}, settings);
}

bool row_fits_settings(const SweepRow& row, const SweepSettings& settings) {
  if (!settings.until_proven) return row.n == settings.n;
  if (row.stopped_by == kStoppedByMaxSeconds) return row.n <= settings.cap;
  if (row.stopped_by == kStoppedByMaxN) return row.n == settings.cap;
  // Stopped by a proof: at a look of the engine, anywhere from start to the cap.
  return row.period.proven && row.n >= std::min(settings.start, settings.cap) && row.n <= settings.cap;
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
      "game",      "n",          "period",     "preperiod",     "saltus",        "proven",
      "theorem",   "proof_needs_n", "max_value", "max_at",     "rare_mask",     "rare_count",
      "last_rare", "stopped_by", "equivalent_to", "sequence_hash", "seconds"};
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
  const PeriodResult& p = row.period;
  const auto period_cell = [&p](std::uint64_t number) { return p.found ? std::to_string(number) : std::string(); };
  const std::vector<std::string> cells = {
      csv_field(row.game),
      std::to_string(row.n),
      period_cell(p.period),
      period_cell(p.preperiod),
      p.found ? std::to_string(p.saltus) : std::string(),
      p.proven ? "true" : "false",
      csv_field(p.proven ? p.theorem : std::string()),
      p.proof_needs_n > 0 ? std::to_string(p.proof_needs_n) : std::string(),
      std::to_string(row.stats.max_value),
      std::to_string(row.stats.max_at),
      rare_mask_text(row.stats.rare_mask),
      std::to_string(row.stats.rare_count),
      std::to_string(row.stats.last_rare),
      row.stopped_by,
      csv_field(row.equivalent_to),
      row.sequence_hash,
      seconds_text(row.seconds)};
  return join_csv(cells);
}

SweepRow parse_csv_line(std::string_view line) {
  // The columns by name, so that the code below reads as the header does.
  const std::vector<std::string> fields = split_csv(line);
  const std::vector<std::string>& columns = csv_columns();
  if (fields.size() != columns.size())
    throw SweepInputError(std::to_string(fields.size()) + " fields where a row has " + std::to_string(columns.size()));
  std::map<std::string, std::string> f;
  for (std::size_t i = 0; i < columns.size(); ++i) f[columns[i]] = fields[i];
  if (f["game"].empty()) throw SweepInputError("the game is empty");
  if (f["rare_mask"].rfind("0x", 0) != 0) throw SweepInputError("rare_mask is '" + f["rare_mask"] + "', not hexadecimal like 0xe");
  if (f["sequence_hash"].size() != 16)
    throw SweepInputError("sequence_hash is '" + f["sequence_hash"] + "', not 16 hex digits");
  const std::string& stopped_by = f["stopped_by"];
  if (!stopped_by.empty() && stopped_by != kStoppedByMaxN && stopped_by != kStoppedByMaxSeconds)
    throw SweepInputError("stopped_by is '" + stopped_by + "', not " + kStoppedByMaxN + ", " + kStoppedByMaxSeconds +
                          " or empty");
  SweepRow row;
  row.game = f["game"];
  row.n = csv_unsigned(f["n"], "n");
  PeriodResult& p = row.period;
  p.found = !f["period"].empty();
  if (p.found) {
    p.period = csv_unsigned(f["period"], "period");
    p.preperiod = csv_unsigned(f["preperiod"], "preperiod");
    p.saltus = csv_signed(f["saltus"], "saltus");
  }
  p.proven = csv_bool(f["proven"], "proven");
  if (p.proven) p.theorem = f["theorem"];
  if (!f["proof_needs_n"].empty()) p.proof_needs_n = csv_unsigned(f["proof_needs_n"], "proof_needs_n");
  row.stats.max_value = static_cast<Value>(csv_unsigned(f["max_value"], "max_value"));
  row.stats.max_at = csv_unsigned(f["max_at"], "max_at");
  // "0x1+pos": with the heap's parity, whose flip the game's splits decide.
  const std::string_view position_suffix = "+pos";
  std::string mask_digits = f["rare_mask"].substr(2);
  if (mask_digits.ends_with(position_suffix)) {
    mask_digits.resize(mask_digits.size() - position_suffix.size());
    row.stats.rare_mask.with_position = true;
    row.stats.rare_mask.odd_takes = parse_rules(row.game).split_take_parity() == SplitTakeParity::Odd;
  }
  row.stats.rare_mask.values = csv_unsigned(mask_digits, "rare_mask", 16);
  row.stats.rare_count = csv_unsigned(f["rare_count"], "rare_count");
  row.stats.last_rare = csv_signed(f["last_rare"], "last_rare");
  row.stopped_by = stopped_by;
  row.equivalent_to = f["equivalent_to"];
  row.sequence_hash = f["sequence_hash"];
  try {
    row.seconds = std::stod(f["seconds"]);
  } catch (const std::exception&) {
    throw SweepInputError("seconds is '" + f["seconds"] + "', not a number");
  }
  return row;
}

Json sweep_row_json(const SweepRow& row) {
  Json out = {{"game", row.game},
              {"n", row.n},
              {"seconds", row.seconds},
              {"max_value", row.stats.max_value},
              {"max_at", row.stats.max_at},
              {"stats", stats_json(row.stats)},
              {"period", period_json(row.period, false)},
              {"stopped_by", row.stopped_by.empty() ? Json(nullptr) : Json(row.stopped_by)},
              {"equivalent_to", row.equivalent_to.empty() ? Json(nullptr) : Json(row.equivalent_to)},
              {"sequence_hash", row.sequence_hash}};
  if (row.resumed_from > 0) out["resumed_from"] = row.resumed_from;
  return out;
}

std::string markdown_table(const std::vector<SweepRow>& rows) {
  std::vector<std::vector<std::string>> cells = {{"game", "n", "period", "preperiod", "saltus", "proven",
                                                  "largest", "rare mask", "rare", "last rare", "same as"}};
  for (const SweepRow& row : rows) {
    const PeriodResult& p = row.period;
    const auto period_cell = [&p](std::string text) { return p.found ? text : std::string("-"); };
    std::string proven = p.proven ? "yes (" + p.theorem + ")" : "no";
    if (!row.stopped_by.empty()) proven += " (" + row.stopped_by + ")";
    cells.push_back({row.game, std::to_string(row.n), period_cell(std::to_string(p.period)),
                     period_cell(std::to_string(p.preperiod)), period_cell(std::to_string(p.saltus)), proven,
                     std::to_string(row.stats.max_value) + " @" + std::to_string(row.stats.max_at),
                     rare_mask_text(row.stats.rare_mask), std::to_string(row.stats.rare_count),
                     row.stats.last_rare >= 0 ? std::to_string(row.stats.last_rare) : "-", row.equivalent_to});
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
