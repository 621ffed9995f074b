// Sweeps: patterns and game lists, one game's row, the CSV table, equivalence marks, and the table
// file that survives a kill.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "sgx/sweep.hpp"
#include "sgx/sweep_table.hpp"
#include "base/atomic_file.hpp"

namespace sgx {
namespace {

namespace fs = std::filesystem;

// The message of the SweepInputError that f throws ("" if it throws none).
template <class F>
std::string input_error(F&& f) {
  try {
    f();
  } catch (const SweepInputError& e) {
    return e.what();
  }
  return "";
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The error of type E that f throws (nothing, and a failure, if it throws none).
template <class E, class F>
std::optional<E> thrown(F&& f) {
  try {
    f();
  } catch (const E& e) {
    return e;
  }
  ADD_FAILURE() << "no error thrown";
  return std::nullopt;
}

TEST(SweepPattern, QuestionMarksAreOctalDigitsLastOneFastest) {
  const auto two = expand_pattern("0.??");
  ASSERT_EQ(two.size(), 64u);
  EXPECT_EQ(two[0], "0.00");
  EXPECT_EQ(two[1], "0.01");
  EXPECT_EQ(two[8], "0.10");
  EXPECT_EQ(two[63], "0.77");
  EXPECT_EQ(expand_pattern("0.???").size(), 512u);
  const auto lasker_like = expand_pattern("4.??");
  ASSERT_EQ(lasker_like.size(), 64u);
  EXPECT_EQ(lasker_like.front(), "4.00");
}

TEST(SweepPattern, ClassesAreSortedDigitSetsAndLiteralsStay) {
  const auto games = expand_pattern("0.[0-3]?7");
  ASSERT_EQ(games.size(), 32u);
  EXPECT_EQ(games.front(), "0.007");
  EXPECT_EQ(games[1], "0.017");
  EXPECT_EQ(games.back(), "0.377");
  EXPECT_EQ(expand_pattern("0.[731]"), (std::vector<std::string>{"0.1", "0.3", "0.7"}));
  EXPECT_EQ(expand_pattern("0.[1-31]"), (std::vector<std::string>{"0.1", "0.2", "0.3"})) << "each game once";
  EXPECT_EQ(expand_pattern("0.[Ef]"), (std::vector<std::string>{"0.E", "0.F"}));
  EXPECT_EQ(expand_pattern("kayles"), (std::vector<std::string>{"kayles"}));
  EXPECT_EQ(expand_pattern("0.137"), (std::vector<std::string>{"0.137"}));
}

TEST(SweepPattern, ErrorsNameThePositionInThePattern) {
  EXPECT_TRUE(contains(input_error([] { expand_pattern("0.[3-1]"); }), "'0.[3-1]' at character 4: empty range"));
  EXPECT_TRUE(contains(input_error([] { expand_pattern("0.[37"); }), "at character 3: '[' is never closed"));
  EXPECT_TRUE(contains(input_error([] { expand_pattern("0.3]"); }), "at character 4: ']' without a '['"));
  EXPECT_TRUE(contains(input_error([] { expand_pattern("0.[x]"); }), "at character 4: 'x' in a [class]"));
  EXPECT_TRUE(contains(input_error([] { expand_pattern("0.[]"); }), "at character 3: empty class"));
  EXPECT_TRUE(contains(input_error([] { expand_pattern(""); }), "empty pattern"));
  // Errors parse_rules finds in an expansion point back at the pattern's character.
  const std::string d0 = input_error([] { expand_pattern("?.7"); });
  EXPECT_TRUE(contains(d0, "'?.7' at character 1: d0 must be 0, 4, 8 or C")) << d0;
  EXPECT_TRUE(contains(d0, "(in 1.7)")) << d0;
  const std::string digit = input_error([] { expand_pattern("0.[1-2]x"); });
  EXPECT_TRUE(contains(digit, "at character 8: 'x' is not a hexadecimal digit")) << digit;
  const std::string huge = input_error([] { expand_pattern("0.???????"); });
  EXPECT_TRUE(contains(huge, "more than 1048576 games")) << huge;
}

TEST(SweepGameList, ReadsOneGamePerLineWithComments) {
  std::istringstream text("# a few classics\n0.77   # Kayles\n\n  0.137\r\nsub:1,3,4\n4!.0\n");
  EXPECT_EQ(read_game_list(text, "games.txt"), (std::vector<std::string>{"0.77", "0.137", "sub:1,3,4", "4!.0"}));
  std::istringstream bash("bash:3\n");
  EXPECT_EQ(read_game_list(bash, "games.txt"), (std::vector<std::string>{"bash:3"}));
}

TEST(SweepGameList, RefusesBadGamesRepeatsAndEmptyLists) {
  std::istringstream bad("0.77\n0.1x\n");
  const std::string bad_error = input_error([&] { read_game_list(bad, "games.txt"); });
  EXPECT_TRUE(contains(bad_error, "games.txt line 2: invalid game '0.1x'")) << bad_error;
  std::istringstream twice("0.77\n0.07\n0.77\n");
  const std::string twice_error = input_error([&] { read_game_list(twice, "games.txt"); });
  EXPECT_TRUE(contains(twice_error, "line 3: 0.77 is listed twice (first on line 1)")) << twice_error;
  std::istringstream classic("0.77\nwythoff\n");
  const std::string classic_error = input_error([&] { read_game_list(classic, "games.txt"); });
  EXPECT_TRUE(contains(classic_error, "games.txt line 2: invalid game 'wythoff'")) << classic_error;
  EXPECT_TRUE(contains(classic_error, "not a heap game")) << classic_error;
  std::istringstream empty("# nothing\n\n");
  EXPECT_TRUE(contains(input_error([&] { read_game_list(empty, "games.txt"); }), "lists no games"));
}

// One thread per game: small games gain nothing from more, and a busy machine slows them down.
SweepSettings until_proven() {
  SweepSettings settings;
  settings.until_proven = true;
  settings.threads = 1;
  return settings;
}

TEST(SweepGame, UntilProvenStopsAtTheFirstSizeThatProves) {
  SweepSettings settings = until_proven();
  const SweepRow kayles = sweep_game("0.77", settings);
  EXPECT_EQ(kayles.n, 4096u);
  EXPECT_TRUE(kayles.period.found);
  EXPECT_EQ(kayles.period.period, 12u);
  EXPECT_EQ(kayles.period.preperiod, 71u);
  EXPECT_TRUE(kayles.period.proven);
  EXPECT_EQ(kayles.period.theorem, "guy-smith");
  EXPECT_EQ(kayles.period.proof_needs_n, 2 * 71 + 2 * 12 + 2u);
  EXPECT_EQ(kayles.stats.max_value, 8u);
  EXPECT_EQ(kayles.stats.max_at, 27u);
  EXPECT_EQ(kayles.stats.last_rare, 70);
  EXPECT_EQ(kayles.stopped_by, "");
  EXPECT_EQ(kayles.equivalent_to, "");
  EXPECT_EQ(kayles.sequence_hash.size(), 16u);

  // Grundy's game is never proven: it goes to the cap.
  settings.cap = 10000;
  const SweepRow grundy = sweep_game("4!.0", settings);
  EXPECT_EQ(grundy.n, 10000u);
  EXPECT_FALSE(grundy.period.proven);
  EXPECT_EQ(grundy.stopped_by, kStoppedByMaxN);
  EXPECT_TRUE(row_fits_settings(grundy, settings));
  EXPECT_TRUE(row_fits_settings(kayles, settings));
}

TEST(SweepGame, FixedNComputesExactlyN) {
  SweepSettings settings;
  settings.n = 150;
  settings.threads = 1;
  const SweepRow dawson = sweep_game("0.137", settings);
  EXPECT_EQ(dawson.n, 150u);
  EXPECT_EQ(dawson.period.period, 34u);
  EXPECT_FALSE(dawson.period.proven) << "the proof needs 175 values";
  EXPECT_EQ(dawson.period.theorem, "") << "a theorem is named only for a proven period";
  EXPECT_EQ(dawson.stopped_by, "") << "--n stops every game at n";
  EXPECT_TRUE(row_fits_settings(dawson, settings));
  settings.n = 151;
  EXPECT_FALSE(row_fits_settings(dawson, settings));
}

TEST(SweepGame, SameSequenceSameHashWhateverTheCode) {
  const SweepSettings settings = until_proven();
  const SweepRow seven = sweep_game("0.7", settings);
  const SweepRow seventy = sweep_game("0.70", settings);
  EXPECT_EQ(seven.sequence_hash, seventy.sequence_hash);
  EXPECT_EQ(seventy.equivalent_to, "0.7");
  EXPECT_NE(sweep_game("0.07", settings).sequence_hash, sweep_game("0.137", settings).sequence_hash)
      << "0.07 is 0.137 shifted by one: not the same sequence";
}

TEST(SweepGame, RowsFitTheCapsThatStoppedThem) {
  SweepSettings settings;
  settings.until_proven = true;
  settings.cap = 40000;
  SweepRow row;
  row.period.proven = true;
  for (std::uint64_t n : {4096u, 5000u, 32768u, 40000u}) {
    row.n = n;
    EXPECT_TRUE(row_fits_settings(row, settings)) << n << ": a proof stops a game at any look";
  }
  row.n = 2048;
  EXPECT_FALSE(row_fits_settings(row, settings)) << "below the first size";
  row.n = 40001;
  EXPECT_FALSE(row_fits_settings(row, settings)) << "past the cap";
  row.period.proven = false;
  row.stopped_by = kStoppedByMaxN;
  row.n = 8192;
  EXPECT_FALSE(row_fits_settings(row, settings)) << "the cap of values stops a game only at the cap";
  row.n = 40000;
  EXPECT_TRUE(row_fits_settings(row, settings));
  row.stopped_by = kStoppedByMaxSeconds;
  row.n = 8193;
  EXPECT_TRUE(row_fits_settings(row, settings)) << "the time cap stops a game anywhere below the cap";
}

TEST(SweepGame, TheTimeCapStopsOnlyGamesWithoutASparseSpace) {
  SweepSettings settings = until_proven();
  settings.cap = 1u << 18;
  settings.max_seconds = 1e-9;  // passed at every step
  // 0.06: a third of its positions are rare; judged from 2^16 values on, stopped there.
  const SweepRow dense = sweep_game("0.06", settings);
  EXPECT_EQ(dense.stopped_by, kStoppedByMaxSeconds);
  EXPECT_GE(dense.n, 1u << 16);
  EXPECT_LT(dense.n, settings.cap);
  EXPECT_TRUE(row_fits_settings(dense, settings));
  // 0.354: 132 rare positions by 2^20, so it is sparse and goes on to the cap of values.
  const SweepRow sparse = sweep_game("0.354", settings);
  EXPECT_EQ(sparse.stopped_by, kStoppedByMaxN);
  EXPECT_EQ(sparse.n, settings.cap);
}

TEST(SweepGame, UntilProvenGoesStraightToWhatTheProofNeeds) {
  // 0.127: period 4 after 46578 values; seen at 2^16, its proof needs 93167 values, and the sweep
  // looks there rather than at 2^17.
  SweepSettings settings = until_proven();
  settings.cap = 1u << 20;
  const SweepRow row = sweep_game("0.127", settings);
  EXPECT_TRUE(row.period.proven);
  EXPECT_EQ(row.period.preperiod, 46578u);
  EXPECT_EQ(row.period.period, 4u);
  EXPECT_EQ(row.n, row.period.proof_needs_n);
  EXPECT_EQ(row.n, 93167u);
}

SweepRow sample_row(const std::string& game, const std::string& hash) {
  SweepRow row;
  row.game = game;
  row.n = 4096;
  row.period.found = true;
  row.period.period = 12;
  row.period.preperiod = 71;
  row.period.saltus = -3;
  row.period.proven = true;
  row.period.theorem = "guy-smith";
  row.period.proof_needs_n = 168;
  row.stats.max_value = 8;
  row.stats.max_at = 27;
  row.stats.rare_mask.values = 0xfe;
  row.stats.rare_count = 10;
  row.stats.last_rare = 70;
  row.sequence_hash = hash;
  row.seconds = 1.25;
  return row;
}

TEST(SweepCsv, RowsRoundTripThroughTheirLine) {
  const SweepRow row = sample_row("0.77", "0123456789abcdef");
  const std::string line = to_csv_line(row);
  EXPECT_EQ(line, "0.77,4096,12,71,-3,true,guy-smith,168,8,27,0xfe,10,70,,,0123456789abcdef,1.250");
  EXPECT_EQ(parse_csv_line(line), row);
  EXPECT_EQ(sweep_csv_header(),
            "game,n,period,preperiod,saltus,proven,theorem,proof_needs_n,max_value,max_at,rare_mask,rare_count,"
            "last_rare,stopped_by,equivalent_to,sequence_hash,seconds");

  SweepRow unfound = sample_row("sub:1,3,4", "fedcba9876543210");
  unfound.period = PeriodResult{};
  unfound.stats.last_rare = -1;
  unfound.stopped_by = kStoppedByMaxSeconds;
  const std::string quoted = to_csv_line(unfound);
  EXPECT_EQ(quoted.rfind("\"sub:1,3,4\",4096,,,,false,,,", 0), 0u) << quoted;
  EXPECT_TRUE(contains(quoted, ",-1,max-seconds,,")) << quoted;
  EXPECT_EQ(parse_csv_line(quoted), unfound);

  // An unproven row names no theorem, whatever the row held.
  SweepRow unproven = sample_row("0.137", "0123456789abcdef");
  unproven.period.proven = false;
  unproven.stopped_by = kStoppedByMaxN;
  const SweepRow read = parse_csv_line(to_csv_line(unproven));
  EXPECT_EQ(read.period.theorem, "");
  unproven.period.theorem = "";
  EXPECT_EQ(read, unproven);
}

TEST(SweepCsv, MalformedLinesAreRefused) {
  EXPECT_TRUE(contains(input_error([] { parse_csv_line("0.77,4096"); }), "2 fields"));
  EXPECT_TRUE(contains(input_error([] { parse_csv_line("0.77,40x6,12,71,0,true,guy-smith,168,8,27,0xf,10,70,,,0123456789abcdef,0.1"); }),
                       "n is '40x6'"));
  EXPECT_TRUE(contains(input_error([] { parse_csv_line("0.77,4096,12,71,0,yes,guy-smith,168,8,27,0xf,10,70,,,0123456789abcdef,0.1"); }),
                       "not true or false"));
  EXPECT_TRUE(contains(input_error([] { parse_csv_line("0.77,4096,12,71,0,true,guy-smith,168,8,27,0xf,10,70,,,0123456789abcdef,ab"); }),
                       "seconds is 'ab'"));
  EXPECT_TRUE(contains(input_error([] { parse_csv_line("0.77,4096,,,,false,,,8,27,0xf,10,70,tired,,0123456789abcdef,0.1"); }),
                       "stopped_by is 'tired'"));
  EXPECT_TRUE(contains(input_error([] { parse_csv_line("\"0.77,4096"); }), "never closed"));
}

TEST(SweepCsv, JsonAndMarkdownCarryTheSameRow) {
  const SweepRow row = sample_row("0.77", "0123456789abcdef");
  EXPECT_EQ(json_text(sweep_row_json(row)),
            R"({"game":"0.77","n":4096,"seconds":1.25,"max_value":8,"max_at":27,)"
            R"("stats":{"rare_mask":254,"rare_position_bit":false,"rare_count":10,"last_rare":70},)"
            R"("period":{"found":true,"preperiod":71,"period":12,"saltus":-3,"proven":true,"theorem":"guy-smith",)"
            R"("proof_needs_n":168},"stopped_by":null,"equivalent_to":null,"sequence_hash":"0123456789abcdef"})");
  const std::string table = markdown_table({row});
  std::istringstream lines(table);
  std::string header, rule, body;
  std::getline(lines, header);
  std::getline(lines, rule);
  std::getline(lines, body);
  EXPECT_EQ(header.rfind("| game | n    | period | preperiod | saltus | proven", 0), 0u) << header;
  EXPECT_EQ(rule.rfind("|------|------|", 0), 0u) << rule;
  EXPECT_TRUE(contains(body, "| yes (guy-smith) | 8 @27   | 0xfe      |")) << body;
  EXPECT_EQ(header.size(), body.size()) << "columns line up";
}

TEST(SweepEquivalence, MarksCanonicalFormsAndRepeatedSequencesNeverMerges) {
  std::vector<SweepRow> rows = {sample_row("0.10", "aaaaaaaaaaaaaaaa"), sample_row("0.13", "aaaaaaaaaaaaaaaa"),
                                sample_row("0.77", "bbbbbbbbbbbbbbbb"), sample_row("0.70", "cccccccccccccccc"),
                                sample_row("0.75", "bbbbbbbbbbbbbbbb"), sample_row("0.76", "dddddddddddddddd")};
  rows[5].equivalent_to = "0.1";  // stale marks are recomputed
  mark_equivalent_games(rows);
  ASSERT_EQ(rows.size(), 6u);
  EXPECT_EQ(rows[0].equivalent_to, "0.1") << "0.10 is written 0.1";
  EXPECT_EQ(rows[1].equivalent_to, "0.1") << "same sequence as 0.10, whose code is 0.1";
  EXPECT_EQ(rows[2].equivalent_to, "");
  EXPECT_EQ(rows[3].equivalent_to, "0.7");
  EXPECT_EQ(rows[4].equivalent_to, "0.77");
  EXPECT_EQ(rows[5].equivalent_to, "");
}

constexpr ExistingTable kRefuse = ExistingTable::Refuse, kResume = ExistingTable::Resume,
                        kReplace = ExistingTable::Replace;

class SweepTableTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::random_device rd;
    dir_ = fs::temp_directory_path() / ("sgx-sweep-" + std::to_string(rd()));
    fs::create_directories(dir_);
    path_ = (dir_ / "table.csv").string();
    settings_.n = 4096;
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string file_text() const {
    std::ifstream in(path_, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  void write_file(const std::string& text) const { std::ofstream(path_, std::ios::binary) << text; }
  SweepRow row(const std::string& game) const {
    SweepRow r = sample_row(game, "0123456789abcdef");
    r.period.saltus = 0;
    return r;
  }

  fs::path dir_;
  std::string path_;
  SweepSettings settings_;
  const std::vector<std::string> games_ = {"0.77", "0.07", "0.137"};
};

TEST_F(SweepTableTest, NewTableWritesTheHeaderAndEachRowAtOnce) {
  SweepTable table(path_, games_, settings_, kRefuse);
  EXPECT_EQ(file_text(), sweep_csv_header() + "\n");
  EXPECT_EQ(table.pending(), (std::vector<std::size_t>{0, 1, 2}));
  table.append(2, row("0.137"));
  EXPECT_EQ(file_text(), sweep_csv_header() + "\n" + to_csv_line(row("0.137")) + "\n");
  EXPECT_THROW(table.append(2, row("0.137")), std::logic_error);
  EXPECT_FALSE(table.complete());
}

TEST_F(SweepTableTest, FinishRewritesInSweepOrder) {
  {
    SweepTable table(path_, games_, settings_, kRefuse);
    table.append(1, row("0.07"));
    table.append(2, row("0.137"));
    table.append(0, row("0.77"));
    const auto rows = table.finish();
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_EQ(rows[0].game, "0.77");
    EXPECT_EQ(rows[1].equivalent_to, "0.77") << "the rows share a hash here";
  }
  std::istringstream lines(file_text());
  std::vector<std::string> games;
  for (std::string line; std::getline(lines, line);) games.push_back(line.substr(0, line.find(',')));
  EXPECT_EQ(games, (std::vector<std::string>{"game", "0.77", "0.07", "0.137"}));
  EXPECT_FALSE(fs::exists(temporary_path_for(path_))) << "the temporary file of the final rewrite was left";
}

TEST_F(SweepTableTest, AnExistingTableIsOnlyResumedOrReplacedWhenAsked) {
  const std::string held = sweep_csv_header() + "\n" + to_csv_line(row("0.07")) + "\n" + to_csv_line(row("0.137")) +
                           "\n" + to_csv_line(row("0.77")).substr(0, 20);
  write_file(held);
  const auto exists = thrown<SweepTableExistsError>([&] { SweepTable(path_, games_, settings_, kRefuse); });
  ASSERT_TRUE(exists);
  EXPECT_EQ(exists->path(), path_);
  EXPECT_EQ(std::string(exists->what()), path_ + " holds the table of a sweep with 2 rows, 0.07 to 0.137");
  EXPECT_EQ(file_text(), held);
  write_file(sweep_csv_header() + "\n");
  EXPECT_EQ(std::string(thrown<SweepTableExistsError>([&] { SweepTable(path_, games_, settings_, kRefuse); })->what()),
            path_ + " holds the table of a sweep, with no rows yet");
  write_file(held);
  SweepTable table(path_, games_, settings_, kReplace);
  EXPECT_EQ(file_text(), sweep_csv_header() + "\n") << "replaced by a new table";
  EXPECT_EQ(table.pending(), (std::vector<std::size_t>{0, 1, 2}));
  table.append(1, row("0.07"));
  EXPECT_EQ(file_text(), sweep_csv_header() + "\n" + to_csv_line(row("0.07")) + "\n");
}

TEST_F(SweepTableTest, AFileThatIsNoTableIsNeverReplaced) {
  write_file("precious\n");
  for (const ExistingTable existing : {kRefuse, kReplace, kResume}) {
    const std::string message = input_error([&] { SweepTable(path_, games_, settings_, existing); });
    EXPECT_TRUE(contains(message, path_ + " exists and is not a sg_sweep table") ||
                (existing == kResume && contains(message, path_ + " is not a sg_sweep table")))
        << message;
    EXPECT_EQ(file_text(), "precious\n");
  }
}

TEST_F(SweepTableTest, ResumeKeepsFinishedRowsAndDropsTheOneCutShort) {
  const std::string kept = sweep_csv_header() + "\n" + to_csv_line(row("0.07")) + "\n";
  write_file(kept + to_csv_line(row("0.77")).substr(0, 20));
  SweepTable table(path_, games_, settings_, kResume);
  EXPECT_EQ(table.resumed_rows(), 1u);
  EXPECT_TRUE(table.dropped_partial_line());
  EXPECT_EQ(table.pending(), (std::vector<std::size_t>{0, 2}));
  EXPECT_EQ(file_text(), kept) << "the cut-short line is gone from the file";
  table.append(0, row("0.77"));
  EXPECT_EQ(file_text(), kept + to_csv_line(row("0.77")) + "\n");
}

TEST_F(SweepTableTest, ResumeStartsAMissingOrHeaderlessTable) {
  {
    SweepTable table(path_, games_, settings_, kResume);
    EXPECT_EQ(table.pending().size(), 3u);
  }
  EXPECT_EQ(file_text(), sweep_csv_header() + "\n");
  write_file(sweep_csv_header().substr(0, 10));  // killed while writing the header
  SweepTable table(path_, games_, settings_, kResume);
  EXPECT_EQ(file_text(), sweep_csv_header() + "\n");
}

TEST_F(SweepTableTest, ResumeRefusesRowsThatAreNotThisSweeps) {
  const std::string header = sweep_csv_header() + "\n";
  write_file(header + to_csv_line(row("0.6")) + "\n");
  const auto other_game = thrown<SweepTableOtherGameError>([&] { SweepTable(path_, games_, settings_, kResume); });
  ASSERT_TRUE(other_game);
  EXPECT_EQ(other_game->line(), 2u);
  EXPECT_EQ(other_game->game(), "0.6");
  EXPECT_EQ(std::string(other_game->what()), path_ + " line 2: 0.6 is not in this sweep");
  write_file(header + to_csv_line(row("0.07")) + "\n" + to_csv_line(row("0.07")) + "\n");
  EXPECT_TRUE(
      contains(input_error([&] { SweepTable(path_, games_, settings_, kResume); }), "line 3: 0.07 appears twice"));
  write_file(header + "garbage\n" + to_csv_line(row("0.07")) + "\n");
  EXPECT_TRUE(contains(input_error([&] { SweepTable(path_, games_, settings_, kResume); }), "line 2: damaged row"));
  SweepSettings other = settings_;
  other.n = 8192;
  write_file(header + to_csv_line(row("0.07")) + "\n");
  const auto other_n = thrown<SweepTableOtherSettingsError>([&] { SweepTable(path_, games_, other, kResume); });
  ASSERT_TRUE(other_n);
  EXPECT_EQ(other_n->line(), 2u);
  EXPECT_EQ(other_n->game(), "0.07");
  EXPECT_EQ(other_n->n(), 4096u);
  EXPECT_EQ(std::string(other_n->what()),
            path_ + " line 2: 0.07 was computed to n = 4096, which these settings would not give");
}

}  // namespace
}  // namespace sgx
