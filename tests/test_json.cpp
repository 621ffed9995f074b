// The JSON of every tool, run for real and parsed back: one vocabulary (docs/JSON.md), and a
// theorem named only for a period it proved.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "sgx/store.hpp"
#include "tool_test.hpp"

namespace {

using nlohmann::json;
using sgx::testing::json_lines;
using sgx::testing::json_object;
using sgx::testing::Result;
using JsonTest = sgx::testing::ToolTest;
using Keys = std::vector<std::string>;

// The shared objects, key for key (docs/JSON.md, "One vocabulary").
const Keys kStatsKeys = {"rare_mask", "rare_position_bit", "rare_count", "last_rare"};
const Keys kPeriodKeys = {"found", "preperiod", "period", "saltus", "proven", "theorem", "proof_needs_n"};

// Sorted: the order of keys is no part of the vocabulary.
Keys sorted(Keys keys) {
  std::sort(keys.begin(), keys.end());
  return keys;
}

Keys keys_of(const json& object) {
  Keys keys;
  for (const auto& item : object.items()) keys.push_back(item.key());
  return sorted(keys);
}

Keys with(Keys keys, const Keys& more) {
  keys.insert(keys.end(), more.begin(), more.end());
  return sorted(keys);
}

// The objects printed, after checking that the tool succeeded and that Python's json.tool accepts
// every line too (when Debian's python3 is there).
class Outputs : public JsonTest {
 protected:
  std::vector<json> objects(const std::string& tool, const std::vector<std::string>& args) {
    Result r = run(tool, args);
    EXPECT_EQ(r.exit_code, 0) << tool << ": " << r.err;
    if (std::system("test -x /usr/bin/python3") == 0) {
      std::ofstream(path("out.jsonl")) << r.out;
      const std::string check = "/usr/bin/python3 -m json.tool --json-lines " + path("out.jsonl") + " >/dev/null";
      EXPECT_EQ(std::system(check.c_str()), 0) << tool << " printed what json.tool refuses: " << r.out;
    }
    return json_lines(r.out);
  }
  json object(const std::string& tool, const std::vector<std::string>& args) {
    const std::vector<json> all = objects(tool, args);
    EXPECT_EQ(all.size(), 1u) << tool;
    return all.empty() ? json::object() : all.front();
  }
};

TEST_F(Outputs, EveryToolUsesTheSameKeysForTheSameThing) {
  const json run_octal = object("run_octal", {"0.137", "--n", "1000", "--json", "--out", path("d.h5")});
  const json sg_period = object("sg_period", {path("d.h5"), "--json"});
  std::ofstream(path("games.txt")) << "0.137\n";
  const json sg_sweep = object("sg_sweep", {"--codes", "games.txt", "--n", "1000", "--threads", "1", "--json"});
  const json sg_solve = object("sg_solve", {"0.137", "5", "7", "--json"});

  EXPECT_EQ(keys_of(run_octal), sorted({"game", "n", "engine", "threads", "seconds", "values_per_second", "max_value",
                                      "max_at", "stats", "period", "file", "peak_rss_bytes", "provenance"}));
  EXPECT_EQ(keys_of(run_octal["provenance"]),
            sorted({"command", "version", "commit", "host", "threads", "started", "ended", "wall_seconds",
                    "cpu_seconds", "first_n", "values_computed"}));
  EXPECT_EQ(run_octal["provenance"]["values_computed"], 1000);
  EXPECT_EQ(keys_of(sg_period),
            sorted({"game", "n", "complete", "target_n", "max_value", "max_at", "stats", "period", "file"}));
  EXPECT_EQ(keys_of(sg_sweep), sorted({"game", "n", "seconds", "max_value", "max_at", "stats", "period", "stopped_by",
                                     "equivalent_to", "sequence_hash"}));
  EXPECT_EQ(keys_of(sg_solve), sorted({"game", "misere", "heaps", "value", "outcome", "winning_moves", "count"}));

  for (const json* tool : {&run_octal, &sg_period, &sg_sweep}) {
    EXPECT_EQ(keys_of((*tool)["stats"]), sorted(kStatsKeys));
    const Keys period = keys_of((*tool)["period"]);
    EXPECT_EQ(period, tool == &sg_sweep ? sorted(kPeriodKeys) : with(kPeriodKeys, {"exceptions"}));
  }
  // The same game to the same n: the same values under the same keys.
  for (const json* tool : {&sg_period, &sg_sweep, &sg_solve}) EXPECT_EQ((*tool)["game"], "0.137");
  for (const json* tool : {&sg_period, &sg_sweep}) {
    for (const char* key : {"n", "max_value", "max_at", "stats"}) EXPECT_EQ((*tool)[key], run_octal[key]) << key;
    for (const std::string& key : kPeriodKeys) EXPECT_EQ((*tool)["period"][key], run_octal["period"][key]) << key;
  }
  EXPECT_EQ(run_octal["period"]["theorem"], "guy-smith");
  EXPECT_EQ(run_octal["period"]["proof_needs_n"], 175);
  EXPECT_EQ(run_octal["file"], sg_period["file"]);
  EXPECT_TRUE(run_octal["seconds"].is_number() && sg_sweep["seconds"].is_number());
}

// 0.004 shows a period at 2^16 that it does not prove: no theorem may be named for it, in any
// format (JSON, the HDF5 file, the sweep's CSV and Markdown).
TEST_F(Outputs, TheoremIsNullUnlessProven) {
  const json summary = object("run_octal", {"0.004", "--n", "2^16", "--json", "--out", path("4.h5")});
  EXPECT_EQ(summary["period"]["proven"], false);
  EXPECT_EQ(summary["period"]["theorem"], nullptr);
  EXPECT_EQ(sgx::read_run_file(path("4.h5")).period.theorem, "");
  EXPECT_EQ(object("sg_period", {path("4.h5"), "--json"})["period"]["theorem"], nullptr);

  std::ofstream(path("games.txt")) << "0.004\n0.137\n";
  const std::vector<json> rows =
      objects("sg_sweep", {"--codes", "games.txt", "--n", "2^16", "--threads", "1", "--json"});
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0]["period"]["theorem"], nullptr);
  EXPECT_EQ(rows[1]["period"]["theorem"], "guy-smith") << "a proven period names its theorem";
  Result table = run("sg_sweep", {"--codes", "games.txt", "--n", "2^16", "--threads", "1", "--out", path("t.csv")});
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_TRUE(sgx::testing::contains(table.out, "guy-smith")) << table.out;
  const std::string csv = sgx::testing::read_file(path("t.csv"));
  EXPECT_NE(csv.find("\n0.004,65536,"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",false,,"), std::string::npos) << "unproven: an empty theorem cell: " << csv;
  EXPECT_EQ(csv.find("false,guy-smith"), std::string::npos) << csv;
}

// The other objects: tables of games of pairs, a run under --memory, games of pairs in sg_solve,
// and a file name that is not UTF-8.
TEST_F(Outputs, EveryOtherJsonOutputParses) {
  const json table = object("run_octal", {"wythoff", "--n", "32", "--json", "--out", path("w.h5")});
  EXPECT_EQ(table["kind"], "table2d");
  EXPECT_EQ(object("sg_period", {path("w.h5"), "--json"})["rows"], table["rows"]);
  const json bounded = object("run_octal", {"0.6", "--n", "1000", "--memory", "256M", "--json", "--out", path("b.h5")});
  EXPECT_EQ(bounded["memory"]["released"], false);
  EXPECT_EQ(object("sg_solve", {"wythoff", "3", "5", "1", "1", "--json"})["heaps"], json::parse("[[3, 5], [1, 1]]"));
  const std::string latin1 = path("caf\xe9.h5");
  const json odd = object("run_octal", {"0.6", "--n", "100", "--json", "--out", latin1});
  EXPECT_EQ(odd["file"], path("caf\xef\xbf\xbd.h5")) << "a byte that is not UTF-8 becomes U+FFFD";
}

}  // namespace
