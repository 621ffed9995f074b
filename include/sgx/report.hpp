#pragma once
// Turns results into text for people and JSON for scripts. The same words everywhere:
// period, preperiod, saltus, proven, rare.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "sgx/period.hpp"
#include "sgx/provenance.hpp"
#include "sgx/stats.hpp"
#include "sgx/table2d.hpp"
#include "sgx/work_span.hpp"

namespace sgx {

// Every JSON object the tools print is built as a Json value and printed with json_text, one
// object a line. Keys keep the order they are added in; docs/JSON.md lists every tool's object.
using Json = nlohmann::ordered_json;

// The value as one line of compact JSON. Bytes that are not UTF-8 (a file name, say) become U+FFFD
// rather than an error.
std::string json_text(const Json& value);

// What one run of the engine produced, for run_octal's summary.
struct RunReport {
  std::string game;
  std::uint64_t n = 0;
  std::string engine;
  int threads = 1;
  double seconds = 0;
  SparseStats stats;
  PeriodResult period;
  std::string file;
  std::string bfile;  // the OEIS b-file written, "" for none
  std::uint64_t peak_rss_bytes = 0;
  // --memory: the limit (0: none), and the values kept when the middle was released
  // (G(0..kept_prefix-1) and G(tail_start..n-1); tail_start 0 when every value was kept).
  std::uint64_t memory_limit_bytes = 0;
  std::uint64_t kept_prefix = 0;
  std::uint64_t tail_start = 0;
  std::optional<WorkSpan> profile;  // run_octal --profile: "profile" in JSON, two lines in text
  // This stretch of the run (a start or a resume), as its file records it: "provenance" in JSON.
  std::optional<Provenance> provenance;
  // Further objects of run_octal's JSON, by key, written after the fixed keys and the two above in
  // the order they were added. A module with more to report gives its type a
  // to_json(Json&, const T&) function, and run_octal adds it here: sections["key"] = value.
  Json sections = Json::object();
};

// The thread counts a profile predicts the speedup for.
inline constexpr int kProfileThreads[] = {2, 4, 8, 16, 32, 64, 128};

// The "stats" and "period" objects, shared by every tool that reports them (docs/JSON.md).
// stats: rare_mask (the value bits), rare_position_bit, rare_count, last_rare.
// period: exceptions is left out when with_exceptions is false (sg_sweep keeps no values).
Json stats_json(const SparseStats& stats);
Json period_json(const PeriodResult& period, bool with_exceptions = true);
// The statistics at each power of two a run passed (sg_period --milestones --json): a list of
// {n, value_at_n (null until counted), max_value, max_at, stats, histogram (up to max_value)}.
Json milestones_json(const std::vector<Milestone>& milestones);
// The same as an aligned table for people, without the value counts: a header line and a row each.
std::string milestones_text(const std::vector<Milestone>& milestones);
// The "profile" object (docs/JSON.md): work_seconds, span_seconds, one_thread_seconds,
// wall_seconds, threads, predicted_speedup {"2": ..., ..., "128": ...}; and its two lines of text.
void to_json(Json& json, const WorkSpan& profile);
std::string profile_text(const WorkSpan& profile);
// The "provenance" object: one stretch of a run, as /provenance keeps it (docs/FORMAT.md).
void to_json(Json& json, const Provenance& stretch);

Json run_report_json(const RunReport& report);
std::string run_report_text(const RunReport& report);
// One paragraph on the period: "period 34, preperiod 52, proven (guy-smith)" and so on.
std::string period_text(const PeriodResult& period);

// The table researchers publish, one game per row, columns lined up:
// game, n, period, preperiod, saltus, proven (theorem), largest value (first at), rare mask,
// rare count, last rare.
struct TableRow {
  std::string game;
  std::uint64_t n = 0;
  SparseStats stats;
  PeriodResult period;
};
std::string period_table(const std::vector<TableRow>& rows);

// A two-dimensional table and the additive periods of its rows, for run_octal and sg_period.
struct TableReport {
  std::string game;  // "wythoff" or "cut"
  std::uint64_t n = 0;
  std::uint64_t origin = 0;
  Value max_value = 0;
  std::vector<RowPeriod> rows;  // rows origin..n-1
  double seconds = -1;          // computing and analysing; below 0 when not timed (a stored table)
  int threads = 0;
  std::string file;
  std::uint64_t peak_rss_bytes = 0;  // 0: not shown
};

// game, table size, time, largest value, how many rows are periodic, which are not, the file, and
// the first rows_shown rows (preperiod, period, saltus) as a table. When rows are left out, the
// line that says so ends with more_rows, the caller's way to see them all (if not empty).
std::string table_report_text(const TableReport& report, std::string_view more_rows = {},
                              std::size_t rows_shown = 20);
// One object: game, kind "table2d", n, origin, values, max_value, seconds and threads (when
// timed), rows_found, rows [{a, found, preperiod, period, saltus}] for every row, file,
// peak_rss_bytes (when known).
Json table_report_json(const TableReport& report);

// Hexadecimal as researchers write masks: 0xfe.
std::string hex(std::uint64_t value);
// A rare mask as published tables write it: "0xfe", or "0x1+pos" with the heap's parity.
std::string rare_mask_text(const RareMask& mask);

// "1 thread", "2 threads": how many threads ran, as the reports say it.
std::string threads_text(long long threads);

// Peak resident memory of this process so far, in bytes (0 if unknown).
std::uint64_t peak_rss_bytes();

}  // namespace sgx
