#include "sgx/report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace sgx {

std::string JsonWriter::quote(const std::string& text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

void JsonWriter::key(const std::string& k) {
  if (!first_.empty()) {
    if (!first_.back()) out_ += ", ";
    first_.back() = false;
  }
  if (!k.empty()) out_ += quote(k) + ": ";
}

JsonWriter& JsonWriter::begin_object(const std::string& k) {
  key(k);
  out_ += "{";
  first_.push_back(true);
  return *this;
}
JsonWriter& JsonWriter::end_object() {
  out_ += "}";
  first_.pop_back();
  return *this;
}
JsonWriter& JsonWriter::begin_array(const std::string& k) {
  key(k);
  out_ += "[";
  first_.push_back(true);
  return *this;
}
JsonWriter& JsonWriter::end_array() {
  out_ += "]";
  first_.pop_back();
  return *this;
}
JsonWriter& JsonWriter::field(const std::string& k, const std::string& value) {
  key(k);
  out_ += quote(value);
  return *this;
}
JsonWriter& JsonWriter::field(const std::string& k, const char* value) { return field(k, std::string(value)); }
JsonWriter& JsonWriter::field(const std::string& k, std::uint64_t value) {
  key(k);
  out_ += std::to_string(value);
  return *this;
}
JsonWriter& JsonWriter::field(const std::string& k, std::int64_t value) {
  key(k);
  out_ += std::to_string(value);
  return *this;
}
JsonWriter& JsonWriter::field(const std::string& k, int value) { return field(k, static_cast<std::int64_t>(value)); }
JsonWriter& JsonWriter::field(const std::string& k, double value) {
  key(k);
  if (!std::isfinite(value)) {
    out_ += "null";
  } else {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.6g", value);
    out_ += buf;
  }
  return *this;
}
JsonWriter& JsonWriter::field(const std::string& k, bool value) {
  key(k);
  out_ += value ? "true" : "false";
  return *this;
}
JsonWriter& JsonWriter::null_field(const std::string& k) {
  key(k);
  out_ += "null";
  return *this;
}
JsonWriter& JsonWriter::element(std::uint64_t value) {
  key("");
  out_ += std::to_string(value);
  return *this;
}

std::string hex(std::uint64_t value) {
  std::ostringstream s;
  s << "0x" << std::hex << value;
  return s.str();
}

void write_stats_json(JsonWriter& json, const SparseStats& stats) {
  json.begin_object("stats")
      .field("rare_mask", stats.rare_mask)
      .field("rare_count", stats.rare_count)
      .field("last_rare", stats.last_rare)
      .end_object();
}

void write_period_json(JsonWriter& json, const PeriodResult& period) {
  json.begin_object("period").field("found", period.found);
  if (period.found) {
    json.field("preperiod", period.preperiod).field("period", period.period).field("saltus", period.saltus);
  } else {
    json.null_field("preperiod").null_field("period").null_field("saltus");
  }
  json.field("proven", period.proven).field("theorem", period.theorem);
  if (period.proof_needs_n > 0)
    json.field("proof_needs_n", period.proof_needs_n);
  else
    json.null_field("proof_needs_n");
  json.begin_array("exceptions");
  for (auto e : period.exceptions) json.element(e);
  json.end_array().end_object();
}

void write_profile_json(JsonWriter& json, const WorkSpan& profile) {
  json.begin_object("profile")
      .field("work_seconds", profile.work_seconds)
      .field("span_seconds", profile.span_seconds)
      .field("one_thread_seconds", profile.one_thread_seconds)
      .field("wall_seconds", profile.wall_seconds)
      .field("threads", profile.threads);
  json.begin_object("predicted_speedup");
  for (int p : kProfileThreads) json.field(std::to_string(p), profile.predicted_speedup(p));
  json.end_object().end_object();
}

std::string profile_text(const WorkSpan& profile) {
  char line[160];
  const double share = profile.work_seconds > 0 ? 100 * profile.span_seconds / profile.work_seconds : 0;
  std::snprintf(line, sizeof line,
                "work %.3f s, span %.3f s (%.2g%% of the work; %.3f s of it on one thread), wall %.3f s on %d threads\n",
                profile.work_seconds, profile.span_seconds, share, profile.one_thread_seconds, profile.wall_seconds,
                profile.threads);
  std::string text = line;
  text += "speedup     on p threads at least (work / ((work - span) / p + span)):";
  const char* separator = " ";
  for (int p : kProfileThreads) {
    std::snprintf(line, sizeof line, "%s%d: %.3g", separator, p, profile.predicted_speedup(p));
    text += line;
    separator = ", ";
  }
  return text + "\n";
}

std::string run_report_json(const RunReport& r) {
  JsonWriter json;
  json.begin_object()
      .field("game", r.game)
      .field("n", r.n)
      .field("engine", r.engine)
      .field("threads", r.threads)
      .field("seconds", r.seconds)
      .field("values_per_second", r.seconds > 0 ? static_cast<double>(r.n) / r.seconds : 0.0)
      .field("max_value", std::uint64_t{r.stats.max_value})
      .field("max_at", r.stats.max_at);
  write_stats_json(json, r.stats);
  write_period_json(json, r.period);
  if (r.memory_limit_bytes > 0) {
    json.begin_object("memory").field("limit_bytes", r.memory_limit_bytes).field("released", r.tail_start > 0);
    if (r.tail_start > 0) json.field("kept_prefix", r.kept_prefix).field("tail_start", r.tail_start);
    json.end_object();
  }
  if (r.profile) write_profile_json(json, *r.profile);
  if (r.provenance) {
    const Provenance& p = *r.provenance;
    json.begin_object("provenance")
        .field("command", p.command)
        .field("version", p.version)
        .field("commit", p.commit)
        .field("host", p.host)
        .field("threads", std::uint64_t{p.threads})
        .field("started", p.started)
        .field("ended", p.ended)
        .field("wall_seconds", p.wall_seconds)
        .field("cpu_seconds", p.cpu_seconds)
        .field("first_n", p.first_n)
        .field("values_computed", p.values_computed)
        .end_object();
  }
  json.field("file", r.file).field("peak_rss_bytes", r.peak_rss_bytes).end_object();
  return json.str();
}

std::string period_text(const PeriodResult& p) {
  std::ostringstream s;
  if (!p.found) {
    s << "no period found in " << p.checked_n << " values";
    return s.str();
  }
  s << "period " << p.period << ", preperiod " << p.preperiod;
  if (p.saltus != 0) s << ", saltus " << p.saltus;
  if (p.proven) {
    s << ", proven (" << p.theorem << ")";
  } else if (!p.theorem.empty()) {
    s << ", periodic so far, not proven: a proof by " << p.theorem << " needs " << p.proof_needs_n << " values";
  } else {
    s << ", periodic so far, not proven: no theorem applies to this game";
  }
  return s.str();
}

std::string run_report_text(const RunReport& r) {
  std::ostringstream s;
  char rate[64];
  std::snprintf(rate, sizeof rate, "%.3g", r.seconds > 0 ? static_cast<double>(r.n) / r.seconds : 0.0);
  char secs[32];
  std::snprintf(secs, sizeof secs, "%.3f", r.seconds);
  s << "game        " << r.game << "\n"
    << "values      G(0.." << (r.n ? r.n - 1 : 0) << "), " << r.n << " values\n"
    << "time        " << secs << " s (" << rate << " values/s, " << r.threads << " threads, engine " << r.engine
    << ")\n"
    << "largest     " << r.stats.max_value << " (first at " << r.stats.max_at << ")\n"
    << "rare        mask " << hex(r.stats.rare_mask) << ", " << r.stats.rare_count << " rare positions";
  if (r.stats.last_rare >= 0) s << ", last at " << r.stats.last_rare;
  s << "\n";
  const std::string kept = kept_values_text(r.kept_prefix, r.tail_start, r.n);
  if (r.tail_start > 0 && !r.period.proven)
    s << "period      not looked for: only " << kept << " are kept\n";
  else
    s << "period      " << period_text(r.period) << "\n";
  if (r.memory_limit_bytes > 0) {
    char limit[32];
    std::snprintf(limit, sizeof limit, "%.4g MiB", static_cast<double>(r.memory_limit_bytes) / (1 << 20));
    s << "memory      limit " << limit;
    if (r.tail_start > 0) s << "; kept " << kept;
    s << "\n";
  }
  if (r.profile) s << "profile     " << profile_text(*r.profile);
  if (!r.file.empty()) s << "file        " << r.file << "\n";
  return s.str();
}

std::string period_table(const std::vector<TableRow>& rows) {
  const std::vector<std::string> header = {"game",  "n",       "period",    "preperiod", "saltus",
                                           "proven", "largest", "rare mask", "rare",      "last rare"};
  std::vector<std::vector<std::string>> cells = {header};
  for (const TableRow& row : rows) {
    const PeriodResult& p = row.period;
    const std::string none = "-";
    std::string proven = p.proven ? "yes (" + p.theorem + ")" : "no";
    if (p.found && !p.proven && p.proof_needs_n > 0) proven = "no (needs " + std::to_string(p.proof_needs_n) + ")";
    cells.push_back({row.game, std::to_string(row.n), p.found ? std::to_string(p.period) : none,
                     p.found ? std::to_string(p.preperiod) : none, p.found ? std::to_string(p.saltus) : none,
                     proven, std::to_string(row.stats.max_value) + " @" + std::to_string(row.stats.max_at),
                     hex(row.stats.rare_mask), std::to_string(row.stats.rare_count),
                     row.stats.last_rare >= 0 ? std::to_string(row.stats.last_rare) : none});
  }
  std::vector<std::size_t> width(header.size(), 0);
  for (const auto& line : cells)
    for (std::size_t c = 0; c < line.size(); ++c) width[c] = std::max(width[c], line[c].size());
  std::string out;
  for (const auto& line : cells) {
    for (std::size_t c = 0; c < line.size(); ++c) {
      // Text columns align left, numbers right.
      const bool left = c == 0 || c == 5 || c == 6;
      const std::string pad(width[c] - line[c].size(), ' ');
      out += left ? line[c] + pad : pad + line[c];
      out += c + 1 < line.size() ? "  " : "";
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    out += '\n';
  }
  return out;
}

namespace {

// "16-1023" or "3, 5, 9-12": the rows of a table not found periodic, runs of consecutive rows
// joined; at most max_runs runs, then "...".
std::string rows_not_found(const TableReport& r, std::size_t max_runs) {
  std::string out;
  std::size_t runs = 0;
  for (std::size_t i = 0; i < r.rows.size();) {
    if (r.rows[i].found) {
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end + 1 < r.rows.size() && !r.rows[end + 1].found) ++end;
    if (runs++ == max_runs) return out + ", ...";
    if (!out.empty()) out += ", ";
    out += std::to_string(r.origin + i);
    if (end > i) out.append("-").append(std::to_string(r.origin + end));
    i = end + 1;
  }
  return out;
}

std::uint64_t rows_found(const TableReport& r) {
  return static_cast<std::uint64_t>(std::count_if(r.rows.begin(), r.rows.end(), [](const RowPeriod& p) { return p.found; }));
}

}  // namespace

std::string table_report_text(const TableReport& r, std::size_t rows_shown) {
  std::ostringstream s;
  const std::uint64_t side = r.n - r.origin;
  const std::uint64_t found = rows_found(r);
  s << "game        " << r.game << "\n"
    << "table       G(a, b) for " << r.origin << " <= a, b < " << r.n << ", " << side * side << " values";
  if (r.origin > 0) s << " (a side below " << r.origin << " is no position)";
  s << "\n";
  if (r.seconds >= 0) {
    char secs[32];
    std::snprintf(secs, sizeof secs, "%.3f", r.seconds);
    s << "time        " << secs << " s (" << r.threads << " threads)\n";
  }
  s << "largest     " << r.max_value << "\n"
    << "rows        " << found << " of " << r.rows.size()
    << " additively periodic: G(a, b + p) = G(a, b) + s for b >= b0\n"
    << "not found   " << (found == r.rows.size() ? "none" : rows_not_found(r, 12));
  if (found < r.rows.size())
    s << " (" << r.rows.size() - found << " rows: no period shown twice over in the last quarter of the row)";
  s << "\n";
  if (!r.file.empty()) s << "file        " << r.file << "\n";

  const std::size_t shown = std::min(rows_shown, r.rows.size());
  std::vector<std::vector<std::string>> cells = {{"a", "preperiod b0", "period p", "saltus s"}};
  for (std::size_t i = 0; i < shown; ++i) {
    const RowPeriod& p = r.rows[i];
    const std::string none = "-";
    cells.push_back({std::to_string(r.origin + i), p.found ? std::to_string(p.preperiod) : none,
                     p.found ? std::to_string(p.period) : none, p.found ? std::to_string(p.saltus) : none});
  }
  std::vector<std::size_t> width(cells[0].size(), 0);
  for (const auto& line : cells)
    for (std::size_t c = 0; c < line.size(); ++c) width[c] = std::max(width[c], line[c].size());
  s << "\n";
  for (const auto& line : cells) {
    std::string text;
    for (std::size_t c = 0; c < line.size(); ++c)
      text.append(c > 0 ? "  " : "").append(width[c] - line[c].size(), ' ').append(line[c]);
    s << text << "\n";
  }
  if (shown < r.rows.size()) s << "(the first " << shown << " rows of " << r.rows.size() << "; --json lists every row)\n";
  return s.str();
}

std::string table_report_json(const TableReport& r) {
  JsonWriter json;
  const std::uint64_t side = r.n - r.origin;
  json.begin_object()
      .field("game", r.game)
      .field("kind", "table2d")
      .field("n", r.n)
      .field("origin", r.origin)
      .field("values", side * side)
      .field("max_value", std::uint64_t{r.max_value});
  if (r.seconds >= 0) json.field("seconds", r.seconds).field("threads", r.threads);
  json.field("rows_found", rows_found(r)).begin_array("rows");
  for (std::size_t i = 0; i < r.rows.size(); ++i) {
    const RowPeriod& p = r.rows[i];
    json.begin_object().field("a", r.origin + i).field("found", p.found);
    if (p.found)
      json.field("preperiod", p.preperiod).field("period", p.period).field("saltus", p.saltus);
    else
      json.null_field("preperiod").null_field("period").null_field("saltus");
    json.end_object();
  }
  json.end_array();
  if (!r.file.empty()) json.field("file", r.file);
  if (r.peak_rss_bytes > 0) json.field("peak_rss_bytes", r.peak_rss_bytes);
  json.end_object();
  return json.str();
}

std::uint64_t peak_rss_bytes() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("VmHWM:", 0) == 0) {
      std::istringstream fields(line.substr(6));
      std::uint64_t kib = 0;
      fields >> kib;
      return kib * 1024;
    }
  return 0;
}

}  // namespace sgx
