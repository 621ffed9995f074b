// Table files of two-dimensional games: round trips, refusals, and the documented layout.

#include "store_test_support.hpp"

namespace sgx {
namespace {

using namespace store_test;
namespace fs = std::filesystem;

// ----------------------------------------------------------------------------------------------
// Two-dimensional tables: their own layout, the same writing and the same strict reading.

TableRecord make_table_record(GameKind game, std::uint64_t n) {
  GameTable table = compute_table(game, n);
  std::vector<RowPeriod> rows = analyze_rows(table);
  return TableRecord{std::move(table), std::move(rows), "0.1.0-test"};
}

std::string table_difference(const TableRecord& a, const TableRecord& b) {
  if (a.table.game() != b.table.game()) return "game";
  if (a.table.n() != b.table.n() || a.table.origin() != b.table.origin()) return "n or origin";
  if (a.table.cells().bytes_per_value() != b.table.cells().bytes_per_value()) return "value type";
  if (!(a.table.cells() == b.table.cells())) return "cells";
  if (a.rows != b.rows) return "rows";
  if (a.program_version != b.program_version) return "program_version";
  return "";
}

TEST_F(StoreTest, TablesRoundTripExactly) {
  for (auto [game, n] : {std::pair{GameKind::Wythoff, 1}, std::pair{GameKind::Wythoff, 64},
                         std::pair{GameKind::Wythoff, 300}, std::pair{GameKind::Cut, 3}, std::pair{GameKind::Cut, 90}}) {
    const TableRecord record = make_table_record(game, static_cast<std::uint64_t>(n));
    write_table_file(path("table.h5"), record);
    const TableRecord back = read_table_file(path("table.h5"));
    EXPECT_EQ(table_difference(record, back), "") << game_kind_name(game) << " " << n;
    EXPECT_EQ(read_file_kind(path("table.h5")), FileKind::Table);
    EXPECT_EQ(entries(), std::vector<std::string>{"table.h5"});
  }
  // Both widths were written: 64 fits a byte, 300 does not.
  EXPECT_EQ(make_table_record(GameKind::Wythoff, 64).table.cells().bytes_per_value(), 1u);
  EXPECT_EQ(make_table_record(GameKind::Wythoff, 300).table.cells().bytes_per_value(), 2u);
}

TEST_F(StoreTest, TableAndRunFilesRefuseEachOther) {
  write_table_file(path("table.h5"), make_table_record(GameKind::Cut, 20));
  write_run_file(path("run.h5"), make_record(random_sequence(1, 100, 30)));
  EXPECT_EQ(read_file_kind(path("run.h5")), FileKind::Run);
  EXPECT_EQ(store_error_message([&] { read_run_file(path("table.h5")); }),
            path("table.h5") + " holds a two-dimensional table of cut, not the values of a heap game");
  EXPECT_EQ(store_error_message([&] { read_run_status(path("table.h5")); }),
            path("table.h5") + " holds a two-dimensional table of cut, not the values of a heap game");
  EXPECT_EQ(store_error_message([&] { read_table_file(path("run.h5")); }),
            path("run.h5") + " holds the values of a heap game, not a two-dimensional table");
  EXPECT_EQ(store_error_message([&] { read_file_kind(path("none.h5")); }), path("none.h5") + " does not exist");
}

TEST_F(StoreTest, TableWritesFailLikeRunWrites) {
  const TableRecord record = make_table_record(GameKind::Wythoff, 10);
  EXPECT_EQ(store_error_message([&] { write_table_file(path("no/dir/t.h5"), record); }),
            "cannot create " + path("no/dir/t.h5") + ": directory does not exist");
  // An existing file is replaced whole, by rename.
  write_bytes(path("t.h5"), "old contents");
  write_table_file(path("t.h5"), record);
  EXPECT_EQ(table_difference(record, read_table_file(path("t.h5"))), "");
  EXPECT_EQ(entries(), std::vector<std::string>{"t.h5"});
  // Row results that do not match the table are a programming error, refused before any write.
  TableRecord wrong = make_table_record(GameKind::Wythoff, 10);
  wrong.rows.pop_back();
  EXPECT_NE(store_error_message([&] { write_table_file(path("w.h5"), wrong); }).find("10 rows but 9 row results"),
            std::string::npos);
  EXPECT_EQ(entries(), std::vector<std::string>{"t.h5"});
}

TEST_F(StoreTest, EveryByteFlipInASmallTableFileIsDetectedOrHarmless) {
  const TableRecord record = make_table_record(GameKind::Wythoff, 40);
  write_table_file(path("small.h5"), record);
  std::size_t size = fs::file_size(path("small.h5"));
  std::vector<std::size_t> positions(size);
  std::iota(positions.begin(), positions.end(), 0);
  FlipOutcome outcome = flip_and_read_in_child(
      path("small.h5"), path("flip.h5"),
      [&](const std::string& file) { return table_difference(record, read_table_file(file)); }, positions, 31);
  print_summary("every byte of a small table file", size, outcome);
  EXPECT_EQ(outcome.wrong, std::vector<std::string>{});
  EXPECT_EQ(outcome.refused + outcome.harmless, static_cast<int>(size));
  EXPECT_GT(outcome.refused, static_cast<int>(size / 2));
}

TEST_F(StoreTest, H5dumpShowsTheDocumentedTableLayout) {
  if (run("command -v h5dump >/dev/null 2>&1").first != 0) GTEST_SKIP() << "h5dump is not installed";
  write_table_file(path("w.h5"), make_table_record(GameKind::Wythoff, 300));
  auto [status, header] = run("h5dump -H -p '" + path("w.h5") + "' 2>&1");
  ASSERT_EQ(status, 0) << header;
  for (const char* part : {"ATTRIBUTE \"kind\"", "ATTRIBUTE \"game\"", "ATTRIBUTE \"n\"", "ATTRIBUTE \"origin\"",
                           "ATTRIBUTE \"max_value\"", "DATASET \"table\"", "H5T_STD_U16LE",
                           "DATASPACE  SIMPLE { ( 300, 300 ) / ( 300, 300 ) }", "CHUNKED ( 300, 300 )", "FLETCHER32",
                           "DEFLATE", "SHUFFLE", "GROUP \"rows\"", "DATASET \"found\"", "DATASET \"preperiod\"",
                           "DATASET \"period\"", "DATASET \"saltus\"", "H5T_STD_I64LE"})
    EXPECT_NE(header.find(part), std::string::npos) << "missing " << part << " in\n" << header;
  auto [status_a, attributes] = run("h5dump -a /kind -a /game -a /origin '" + path("w.h5") + "' 2>&1");
  ASSERT_EQ(status_a, 0) << attributes;
  EXPECT_NE(attributes.find("\"table2d\""), std::string::npos) << attributes;
  EXPECT_NE(attributes.find("\"wythoff\""), std::string::npos) << attributes;
  // G(1, 2) = 0 and G(3, 4) = 2, as h5dump shows them.
  auto [status_v, values] = run("h5dump -d '/table[1,2;;1,1]' -d '/table[3,4;;1,1]' '" + path("w.h5") + "' 2>&1");
  ASSERT_EQ(status_v, 0) << values;
  EXPECT_NE(values.find("(1,2): 0"), std::string::npos) << values;
  EXPECT_NE(values.find("(3,4): 2"), std::string::npos) << values;
}

// The h5py snippet for tables in docs/FORMAT.md.
TEST_F(StoreTest, H5pyReadsATableAndItsRows) {
  if (!have_h5py()) GTEST_SKIP() << "/usr/bin/python3 has no h5py (apt-get install python3-h5py)";
  write_table_file(path("cut.h5"), make_table_record(GameKind::Cut, 160));
  std::string script = "import h5py\n"
                       "with h5py.File('" + path("cut.h5") + "', 'r') as f:\n"
                       "    origin = int(f.attrs['origin'])\n"
                       "    table = f['table']\n"
                       "    rows = f['rows']\n"
                       "    a = 2\n"
                       "    i = a - origin\n"
                       "    print(f.attrs['kind'].decode(), f.attrs['game'].decode(), int(f.attrs['n']), origin, table.shape,\n"
                       "          table[4 - origin, 2 - origin], bool(rows['found'][i]), int(rows['preperiod'][i]),\n"
                       "          int(rows['period'][i]), int(rows['saltus'][i]))\n";
  write_bytes(path("read.py"), script);
  auto [status, output] = run("/usr/bin/python3 '" + path("read.py") + "' 2>&1");
  ASSERT_EQ(status, 0) << output;
  // G(4, 2) = 1: a 4 x 2 sheet has one cut, into two 2 x 2 sheets (value 0 each).
  EXPECT_EQ(output, "table2d cut 160 2 (158, 158) 1 True 55 34 0\n");
}

TEST_F(StoreTest, TableAttributesThatDisagreeAreRefused) {
  if (!have_h5py()) GTEST_SKIP() << "/usr/bin/python3 has no h5py (apt-get install python3-h5py)";
  const std::vector<std::pair<std::string, std::string>> edits = {
      {"f.attrs.modify('n', numpy.uint64(50))", "is inconsistent: the table has 48 rows but /rows/found holds 38"},
      {"f.attrs.modify('origin', numpy.uint64(0))", "is inconsistent: attribute origin is 0 but tables of cut start at 2"},
      {"f.attrs.modify('n', numpy.uint64(100000))", "is inconsistent: attribute n is 100000, outside 3..16384"},
      {"del f['rows/saltus']", "is not an sgx table file: it has no /rows/saltus dataset"},
      {"del f['table']; f.create_dataset('table', data=numpy.zeros((5, 5), dtype='u1'))",
       "is inconsistent: attributes n and origin make 38 x 38 values but /table is 5 x 5"},
      {"del f['table']; f.create_dataset('table', data=numpy.zeros((38, 38), dtype='i2'))",
       "is not an sgx table file: /table is not an 8-, 16- or 32-bit unsigned integer dataset"},
  };
  for (const auto& [edit, message] : edits) {
    write_table_file(path("cut.h5"), make_table_record(GameKind::Cut, 40));
    write_bytes(path("edit.py"), "import h5py, numpy\nwith h5py.File('" + path("cut.h5") + "', 'r+') as f:\n    " + edit + "\n");
    auto [status, output] = run("/usr/bin/python3 '" + path("edit.py") + "' 2>&1");
    ASSERT_EQ(status, 0) << output;
    EXPECT_EQ(store_error_message([&] { read_table_file(path("cut.h5")); }), path("cut.h5") + " " + message) << edit;
  }
}

}  // namespace
}  // namespace sgx
