#pragma once
// Turns results into text for people and JSON for scripts. The same words everywhere:
// period, preperiod, saltus, proven, rare.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sgx/period.hpp"
#include "sgx/provenance.hpp"
#include "sgx/stats.hpp"
#include "sgx/table2d.hpp"
#include "sgx/work_span.hpp"

namespace sgx {

// A small streaming JSON writer: enough for flat objects, nested objects and arrays.
class JsonWriter {
 public:
  JsonWriter& begin_object(const std::string& key = "");
  JsonWriter& end_object();
  JsonWriter& begin_array(const std::string& key = "");
  JsonWriter& end_array();
  JsonWriter& field(const std::string& key, const std::string& value);
  JsonWriter& field(const std::string& key, const char* value);
  JsonWriter& field(const std::string& key, std::uint64_t value);
  JsonWriter& field(const std::string& key, std::int64_t value);
  JsonWriter& field(const std::string& key, int value);
  JsonWriter& field(const std::string& key, double value);
  JsonWriter& field(const std::string& key, bool value);
  JsonWriter& null_field(const std::string& key);
  JsonWriter& element(std::uint64_t value);  // in an array
  const std::string& str() const { return out_; }

  static std::string quote(const std::string& text);

 private:
  void key(const std::string& k);
  std::string out_;
  std::vector<bool> first_;  // per open container: nothing written yet
};

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
  std::uint64_t peak_rss_bytes = 0;
  std::optional<WorkSpan> profile;  // run_octal --profile
  // --memory: the limit (0: none), and the values kept when the middle was released
  // (G(0..kept_prefix-1) and G(tail_start..n-1); tail_start 0 when every value was kept).
  std::uint64_t memory_limit_bytes = 0;
  std::uint64_t kept_prefix = 0;
  std::uint64_t tail_start = 0;
  // This stretch of the run (a start or a resume), as its file records it; none when not known.
  std::optional<Provenance> provenance;
};

// The thread counts a profile predicts the speedup for.
inline constexpr int kProfileThreads[] = {2, 4, 8, 16, 32, 64, 128};

// The "stats" and "period" objects, shared by every tool that reports them.
void write_stats_json(JsonWriter& json, const SparseStats& stats);
void write_period_json(JsonWriter& json, const PeriodResult& period);
// The "profile" object of run_octal --profile: work_seconds, span_seconds, one_thread_seconds,
// wall_seconds, threads,
// predicted_speedup {"2": ..., ..., "128": ...}; and its two lines of text.
void write_profile_json(JsonWriter& json, const WorkSpan& profile);
std::string profile_text(const WorkSpan& profile);

std::string run_report_json(const RunReport& report);
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
// the first rows_shown rows (preperiod, period, saltus) as a table.
std::string table_report_text(const TableReport& report, std::size_t rows_shown = 20);
// One object: game, kind "table2d", n, origin, values, max_value, seconds and threads (when
// timed), rows_found, rows [{a, found, preperiod, period, saltus}] for every row, file,
// peak_rss_bytes (when known).
std::string table_report_json(const TableReport& report);

// Hexadecimal as researchers write masks: 0xfe.
std::string hex(std::uint64_t value);

// Peak resident memory of this process so far, in bytes (0 if unknown).
std::uint64_t peak_rss_bytes();

}  // namespace sgx
