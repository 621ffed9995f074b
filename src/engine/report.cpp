#include "sgx/report.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "base/task_clock.hpp"
#include "base/tuning.hpp"
#include "sgx/numbers.hpp"

namespace sgx {

std::string json_text(const Json& value) { return value.dump(-1, ' ', false, Json::error_handler_t::replace); }

std::string hex(std::uint64_t value) {
  std::ostringstream s;
  s << "0x" << std::hex << value;
  return s.str();
}

std::string rare_mask_text(const RareMask& mask) { return hex(mask.values) + (mask.with_position ? "+pos" : ""); }

std::string threads_text(long long threads) {
  return std::to_string(threads) + (threads == 1 ? " thread" : " threads");
}

namespace {

// A count or position that is absent: null in JSON, never 0, which could be a real value.
Json number_or_null(bool present, std::uint64_t value) { return present ? Json(value) : Json(nullptr); }

}  // namespace

Json stats_json(const SparseStats& stats) {
  return {{"rare_mask", stats.rare_mask.values},
          {"rare_position_bit", stats.rare_mask.with_position},
          {"rare_count", stats.rare_count},
          {"last_rare", stats.last_rare}};
}

Json milestones_json(const std::vector<Milestone>& milestones) {
  Json out = Json::array();
  for (const Milestone& m : milestones) {
    // The counts up to the largest value: the counter's own storage may run on with zeros.
    const auto end = m.stats.histogram.begin() +
                     static_cast<std::ptrdiff_t>(std::min<std::uint64_t>(m.stats.histogram.size(), m.stats.max_value + 1));
    out.push_back({{"n", m.n},
                   {"value_at_n", number_or_null(m.value_at_n.has_value(), m.value_at_n.value_or(0))},
                   {"max_value", m.stats.max_value},
                   {"max_at", m.stats.max_at},
                   {"stats", stats_json(m.stats)},
                   {"histogram", std::vector<std::uint64_t>(m.stats.histogram.begin(), end)}});
  }
  return out;
}

std::string milestones_text(const std::vector<Milestone>& milestones) {
  std::ostringstream out;
  out << "milestones  the statistics of G(0..N-1) at each power of two N\n";
  char line[160];
  std::snprintf(line, sizeof line, "  %-5s %14s %8s %14s %12s %14s %14s %8s\n", "N", "", "largest", "first at",
                "rare mask", "rare", "last rare", "G(N)");
  out << line;
  for (const Milestone& m : milestones) {
    const std::string power = "2^" + std::to_string(std::bit_width(m.n) - 1);
    const std::string value_at_n = m.value_at_n ? std::to_string(*m.value_at_n) : "-";
    std::snprintf(line, sizeof line, "  %-5s %14llu %8u %14llu %12s %14llu %14lld %8s\n", power.c_str(),
                  static_cast<unsigned long long>(m.n), m.stats.max_value,
                  static_cast<unsigned long long>(m.stats.max_at), rare_mask_text(m.stats.rare_mask).c_str(),
                  static_cast<unsigned long long>(m.stats.rare_count), static_cast<long long>(m.stats.last_rare),
                  value_at_n.c_str());
    out << line;
  }
  return out.str();
}

Json period_json(const PeriodResult& period, bool with_exceptions) {
  Json out = {{"found", period.found},
              {"preperiod", number_or_null(period.found, period.preperiod)},
              {"period", number_or_null(period.found, period.period)},
              {"saltus", period.found ? Json(period.saltus) : Json(nullptr)},
              {"proven", period.proven},
              {"theorem", period.proven ? Json(period.theorem) : Json(nullptr)},
              {"proof_needs_n", number_or_null(period.proof_needs_n > 0, period.proof_needs_n)}};
  if (with_exceptions) out["exceptions"] = period.exceptions;
  return out;
}

void to_json(Json& json, const WorkSpan& profile) {
  Json predicted = Json::object();
  for (int p : kProfileThreads) predicted[std::to_string(p)] = profile.predicted_speedup(p);
  json = {{"work_seconds", profile.work_seconds},
          {"span_seconds", profile.span_seconds},
          {"one_thread_seconds", profile.one_thread_seconds},
          {"wall_seconds", profile.wall_seconds},
          {"threads", profile.threads},
          {"predicted_speedup", predicted},
          {"regions", profile.regions},
          {"region_idle_seconds", profile.region_idle_seconds},
          {"sparse_heaps",
           {{"blocks", profile.sparse_heaps.blocks},
            {"pipeline", profile.sparse_heaps.pipeline},
            {"alone", profile.sparse_heaps.alone}}},
          {"stopped_seconds", profile.stopped_seconds},
          {"stopped_tasks", profile.stopped_tasks},
          {"interrupted_seconds", profile.interrupted_seconds},
          {"interruptions", profile.interruptions}};
}

void to_json(Json& json, const Provenance& p) {
  json = {{"command", p.command},         {"version", p.version},
          {"commit", p.commit},           {"host", p.host},
          {"threads", p.threads},         {"started", p.started},
          {"ended", p.ended},             {"wall_seconds", p.wall_seconds},
          {"cpu_seconds", p.cpu_seconds}, {"first_n", p.first_n},
          {"values_computed", p.values_computed}};
}

std::string profile_text(const WorkSpan& profile) {
  char line[256];
  const double share = profile.work_seconds > 0 ? 100 * profile.span_seconds / profile.work_seconds : 0;
  std::snprintf(line, sizeof line,
                "work %.3f s, span %.3f s (%.3g%% of the work; %.3f s of it on one thread), wall %.3f s on %s\n",
                profile.work_seconds, profile.span_seconds, share, profile.one_thread_seconds, profile.wall_seconds,
                threads_text(profile.threads).c_str());
  std::string text = line;
  text += "speedup     on p threads at least (work / ((work - span) / p + span)):";
  const char* separator = " ";
  for (int p : kProfileThreads) {
    std::snprintf(line, sizeof line, "%s%d: %.3g", separator, p, profile.predicted_speedup(p));
    text += line;
    separator = ", ";
  }
  text += "\n";
  if (profile.regions > 0 && profile.threads > 1) {
    const double per_region = 1e6 * profile.region_idle_seconds / static_cast<double>(profile.regions * profile.threads);
    std::snprintf(line, sizeof line,
                  "regions     %llu on %d threads, %.3f s of thread time idle in them (%.3g us a region a thread: "
                  "start, end, waits; not in the model)\n",
                  static_cast<unsigned long long>(profile.regions), profile.threads, profile.region_idle_seconds,
                  per_region);
    text += line;
  }
  const SparseHeaps& heaps = profile.sparse_heaps;
  if (heaps.total() > 0) {
    std::snprintf(line, sizeof line,
                  "sparse      heaps decided in blocks %llu, in the pipeline %llu, alone %llu (the prediction is "
                  "for these; the pipeline runs from %d threads on)\n",
                  static_cast<unsigned long long>(heaps.blocks), static_cast<unsigned long long>(heaps.pipeline),
                  static_cast<unsigned long long>(heaps.alone), tuning::kPipelineLeastThreads);
    text += line;
  }
  if (profile.stopped_tasks > 0) {
    std::snprintf(line, sizeof line,
                  "stopped     %.3f s left out of %llu tasks: their threads were not running (another thread or "
                  "process held the core), by each thread's CPU clock\n",
                  profile.stopped_seconds, static_cast<unsigned long long>(profile.stopped_tasks));
    text += line;
  }
  if (profile.interruptions > 0) {
    std::snprintf(line, sizeof line,
                  "interrupted %.3f s left out in %llu gaps of %.0f us or more in the pipeline's tasks ahead of its "
                  "chain: their core was taken (an interrupt, a virtual machine's host)\n",
                  profile.interrupted_seconds, static_cast<unsigned long long>(profile.interruptions),
                  1e6 * kInterruptionSeconds);
    text += line;
  }
  return text;
}

Json run_report_json(const RunReport& r) {
  Json out = {{"game", r.game},
              {"n", r.n},
              {"engine", r.engine},
              {"threads", r.threads},
              {"seconds", r.seconds},
              {"values_per_second", r.seconds > 0 ? static_cast<double>(r.n) / r.seconds : 0.0},
              {"max_value", r.stats.max_value},
              {"max_at", r.stats.max_at},
              {"stats", stats_json(r.stats)},
              {"period", period_json(r.period)}};
  if (r.memory_limit_bytes > 0) {
    Json memory = {{"limit_bytes", r.memory_limit_bytes}, {"released", r.tail_start > 0}};
    if (r.tail_start > 0) {
      memory["kept_prefix"] = r.kept_prefix;
      memory["tail_start"] = r.tail_start;
    }
    out["memory"] = memory;
  }
  out["file"] = r.file;
  if (!r.bfile.empty()) out["bfile"] = r.bfile;
  out["peak_rss_bytes"] = r.peak_rss_bytes;
  if (r.profile) out["profile"] = *r.profile;
  if (r.provenance) out["provenance"] = *r.provenance;
  for (const auto& [key, section] : r.sections.items()) out[key] = section;
  return out;
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
  } else if (p.saltus != 0) {
    s << ", periodic so far, not proven: no theorem here proves a period with a saltus";
  } else if (!p.applicable_theorem.empty()) {
    s << ", periodic so far, not proven: a proof by " << p.applicable_theorem << " needs " << p.proof_needs_n
      << " values";
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
    << "time        " << secs << " s (" << rate << " values/s, " << threads_text(r.threads) << ", engine " << r.engine
    << ")\n"
    << "largest     " << r.stats.max_value << " (first at " << r.stats.max_at << ")\n"
    << "rare        mask " << rare_mask_text(r.stats.rare_mask) << ", " << r.stats.rare_count << " rare positions";
  if (r.stats.last_rare >= 0) s << ", last at " << r.stats.last_rare;
  s << "\n";
  const std::string kept = kept_values_text(r.kept_prefix, r.tail_start, r.n);
  // A run continued from a file of format version 2 has its released values in no file.
  if (r.tail_start > 0 && r.period.checked_n == 0)
    s << "period      not looked for: only " << kept << " are kept, and the file does not hold the others\n";
  else
    s << "period      " << period_text(r.period) << "\n";
  if (r.memory_limit_bytes > 0) {
    s << "memory      limit " << bytes_text(r.memory_limit_bytes);
    if (r.tail_start > 0) s << "; kept " << kept;
    s << "\n";
  }
  if (r.profile) s << "profile     " << profile_text(*r.profile);
  if (!r.file.empty()) s << "file        " << r.file << "\n";
  if (!r.bfile.empty()) s << "b-file      " << r.bfile << "\n";
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
                     rare_mask_text(row.stats.rare_mask), std::to_string(row.stats.rare_count),
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

std::string table_report_text(const TableReport& r, std::string_view more_rows, std::size_t rows_shown) {
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
    s << "time        " << secs << " s (" << threads_text(r.threads) << ")\n";
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
  if (shown < r.rows.size()) {
    s << "(the first " << shown << " rows of " << r.rows.size();
    if (!more_rows.empty()) s << "; " << more_rows;
    s << ")\n";
  }
  return s.str();
}

Json table_report_json(const TableReport& r) {
  const std::uint64_t side = r.n - r.origin;
  Json out = {{"game", r.game},     {"kind", "table2d"},        {"n", r.n},
              {"origin", r.origin}, {"values", side * side}, {"max_value", r.max_value}};
  if (r.seconds >= 0) {
    out["seconds"] = r.seconds;
    out["threads"] = r.threads;
  }
  out["rows_found"] = rows_found(r);
  Json rows = Json::array();
  for (std::size_t i = 0; i < r.rows.size(); ++i) {
    const RowPeriod& p = r.rows[i];
    rows.push_back({{"a", r.origin + i},
                    {"found", p.found},
                    {"preperiod", number_or_null(p.found, p.preperiod)},
                    {"period", number_or_null(p.found, p.period)},
                    {"saltus", p.found ? Json(p.saltus) : Json(nullptr)}});
  }
  out["rows"] = std::move(rows);
  if (!r.file.empty()) out["file"] = r.file;
  if (r.peak_rss_bytes > 0) out["peak_rss_bytes"] = r.peak_rss_bytes;
  return out;
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
