// The HDF5 run file: round trips, atomic replacement, and refusal of anything damaged or foreign.

#include "store_test_support.hpp"

namespace sgx {
namespace {

using namespace store_test;
namespace fs = std::filesystem;

// ----------------------------------------------------------------------------------------------
// Round trips.

struct Shape {
  unsigned width;
  std::uint64_t size;
};

class StoreRoundTrip : public StoreTest, public ::testing::WithParamInterface<Shape> {};

TEST_P(StoreRoundTrip, ValuesStatsAndPeriodComeBackExactly) {
  auto [width, size] = GetParam();
  RunRecord record = make_record(random_sequence(width, size, 1000 * width + static_cast<unsigned>(size)));
  ASSERT_EQ(record.values.bytes_per_value(), width);
  write_run_file(path("run.h5"), record);
  RunRecord back = read_run_file(path("run.h5"));
  EXPECT_EQ(difference(record, back), "");
  EXPECT_EQ(entries(), std::vector<std::string>{"run.h5"});
}

INSTANTIATE_TEST_SUITE_P(WidthsAndSizes, StoreRoundTrip,
                         ::testing::Values(Shape{1, 0}, Shape{1, 1}, Shape{1, 1000}, Shape{1, 3'000'000},
                                           Shape{2, 0}, Shape{2, 1}, Shape{2, 1000}, Shape{2, 3'000'000},
                                           Shape{4, 0}, Shape{4, 1}, Shape{4, 1000}, Shape{4, 3'000'000}),
                         [](const auto& param_info) {
                           return "u" + std::to_string(8 * param_info.param.width) + "_n" +
                                  std::to_string(param_info.param.size);
                         });

TEST_F(StoreTest, ExtremeFieldValuesAndEmptyListsRoundTrip) {
  RunRecord record = make_record(Sequence::from_vector({0, 1, 1, 2, 0xFFFFFFFF}));
  record.game = "";
  record.engine = "sweep+shortcut";
  record.program_version = std::string(300, 'v');
  record.stats.last_rare = -1;
  record.stats.rare_mask.values = ~std::uint64_t{0};
  record.stats.histogram.clear();
  record.period = PeriodResult{};
  record.period.saltus = INT64_MIN;
  record.period.preperiod = UINT64_MAX;
  write_run_file(path("x.h5"), record);
  RunRecord back = read_run_file(path("x.h5"));
  EXPECT_EQ(difference(record, back), "");
  EXPECT_TRUE(back.stats.histogram.empty());
  EXPECT_TRUE(back.period.exceptions.empty());
}

TEST_F(StoreTest, ReadingAndWritingPrintNothing) {
  RunRecord record = make_record(random_sequence(1, 100, 7));
  ::testing::internal::CaptureStderr();
  write_run_file(path("a.h5"), record);
  (void)read_run_file(path("a.h5"));
  EXPECT_THROW(read_run_file(path("missing.h5")), StoreError);
  write_bytes(path("junk.h5"), "not an HDF5 file at all");
  EXPECT_THROW(read_run_file(path("junk.h5")), StoreError);
  EXPECT_THROW(write_run_file(path("no/such/dir.h5"), record), StoreError);
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
}

// ----------------------------------------------------------------------------------------------
// Checkpoints: a run file of a run that has not reached its target.

TEST_F(StoreTest, UnfinishedRunRoundTripsWithItsTarget) {
  RunRecord record = make_record(random_sequence(2, 5000, 20));
  record.complete = false;
  record.target_n = 1u << 20;
  record.period = PeriodResult{};
  write_run_file(path("run.h5"), record);
  RunRecord back = read_run_file(path("run.h5"));
  EXPECT_EQ(difference(record, back), "");
  EXPECT_FALSE(back.complete);
  EXPECT_EQ(back.target_n, 1u << 20);
}

// A complete run's target is its n, whatever the caller left in target_n.
TEST_F(StoreTest, CompleteRunsTargetIsItsLength) {
  RunRecord record = make_record(random_sequence(1, 700, 21));
  record.target_n = 5;
  write_run_file(path("run.h5"), record);
  EXPECT_EQ(read_run_file(path("run.h5")).target_n, 700u);
}

// The values given apart (a running engine's, not copied) make the same file.
TEST_F(StoreTest, ValuesGivenApartAreWrittenTheSame) {
  RunRecord record = make_record(random_sequence(4, 3000, 22));
  const RunInfo& info = record;
  write_run_file(path("run.h5"), info, record.values);
  EXPECT_EQ(difference(record, read_run_file(path("run.h5"))), "");
}

TEST_F(StoreTest, StatusIsReadWithoutTheValues) {
  RunRecord record = make_record(random_sequence(2, 100'000, 23));
  record.game = "0.007";
  record.complete = false;
  record.target_n = 200'000;
  write_run_file(path("run.h5"), record);
  RunStatus status = read_run_status(path("run.h5"));
  EXPECT_EQ(status.game, "0.007");
  EXPECT_EQ(status.n, 100'000u);
  EXPECT_FALSE(status.complete);
  EXPECT_EQ(status.target_n, 200'000u);
  EXPECT_EQ(store_error_message([&] { read_run_status(path("missing.h5")); }), path("missing.h5") + " does not exist");
  detail::write_run_file_as_version(path("v5.h5"), record, 5);
  EXPECT_NE(store_error_message([&] { read_run_status(path("v5.h5")); }).find("newer format version 5"),
            std::string::npos);
}

// A whole (version-1) file read a block at a time: each range as stored, of every width, and the
// header alone with LoadValues::None.
TEST_F(StoreTest, WholeRunIsReadInRanges) {
  for (unsigned width : {1u, 2u, 4u}) {
    SCOPED_TRACE("width " + std::to_string(width));
    const RunRecord record = make_record(random_sequence(width, 70'000, 60 + width));
    write_run_file(path("run.h5"), record);
    const ValueReader read = run_file_reader(path("run.h5"));
    for (auto [from, to] : {std::pair<std::uint64_t, std::uint64_t>{0, 1}, {65'530, 70'000}, {123, 40'123}, {5, 5}}) {
      std::vector<Value> got(to - from, 7);
      read(from, to, got.data());
      for (std::uint64_t i = from; i < to; ++i) ASSERT_EQ(got[i - from], record.values[i]) << "G(" << i << ")";
    }
    Value out = 0;
    EXPECT_EQ(store_error_message([&] { read(69'999, 70'001, &out); }),
              path("run.h5") + " holds G(0..70000-1): G(69999..70001-1) is not in it");
    const RunRecord header = read_run_file(path("run.h5"), LoadValues::None);
    EXPECT_TRUE(header.values.empty());
    EXPECT_EQ(header.game, record.game);
    EXPECT_EQ(header.stats, record.stats);
    EXPECT_EQ(header.period, record.period);
  }
}

TEST_F(StoreTest, CheckCanWriteLeavesNothingBehind) {
  EXPECT_NO_THROW(check_can_write(path("run.h5")));
  write_run_file(path("old.h5"), make_record(random_sequence(1, 10, 24)));
  EXPECT_NO_THROW(check_can_write(path("old.h5")));
  EXPECT_EQ(entries(), std::vector<std::string>{"old.h5"});
}

TEST_F(StoreTest, CheckCanWriteRefusesWhatWritingWouldRefuse) {
  write_bytes(path("plain"), "x");
  EXPECT_NE(store_error_message([&] { check_can_write(path("plain/run.h5")); }).find("not a directory"),
            std::string::npos);
  EXPECT_NE(store_error_message([&] { check_can_write(path("no/such/run.h5")); }).find("directory does not exist"),
            std::string::npos);
  fs::create_directory(path("taken"));
  EXPECT_EQ(store_error_message([&] { check_can_write(path("taken")); }),
            "cannot write " + path("taken") + ": is a directory");
  EXPECT_EQ(entries(), (std::vector<std::string>{"plain", "taken"}));
}

// ----------------------------------------------------------------------------------------------
// Writing: failures name the file and the reason, leave no temporary file, keep the old file.

TEST_F(StoreTest, WriteIntoMissingDirectoryThrows) {
  std::string target = path("no_such_dir/run.h5");
  std::string message = store_error_message([&] { write_run_file(target, make_record(Sequence{})); });
  EXPECT_NE(message.find("cannot create " + target), std::string::npos) << message;
  EXPECT_NE(message.find("directory does not exist"), std::string::npos) << message;
  EXPECT_TRUE(entries().empty());
}

// Works for root too: nobody can create a file under a regular file.
TEST_F(StoreTest, WriteUnderARegularFileThrows) {
  write_bytes(path("plain"), "x");
  std::string target = path("plain/run.h5");
  std::string message = store_error_message([&] { write_run_file(target, make_record(Sequence{})); });
  EXPECT_NE(message.find(target), std::string::npos) << message;
  EXPECT_NE(message.find("not a directory"), std::string::npos) << message;
  EXPECT_EQ(entries(), std::vector<std::string>{"plain"});
}

// Root may write anywhere, so this one only runs for other users.
TEST_F(StoreTest, WriteIntoReadOnlyDirectoryThrows) {
  if (::geteuid() == 0) GTEST_SKIP() << "root ignores directory permissions";
  fs::create_directory(path("locked"));
  fs::permissions(path("locked"), fs::perms::owner_read | fs::perms::owner_exec);
  std::string message = store_error_message([&] { write_run_file(path("locked/run.h5"), make_record(Sequence{})); });
  fs::permissions(path("locked"), fs::perms::owner_all);
  EXPECT_EQ(message, "cannot write " + path("locked/run.h5") + ": permission denied");
  EXPECT_TRUE(fs::is_empty(path("locked")));
}

TEST_F(StoreTest, WritingOverAnExistingFileReplacesIt) {
  RunRecord first = make_record(random_sequence(1, 500, 1));
  RunRecord second = make_record(random_sequence(2, 700, 2));
  second.game = "4.007";
  write_run_file(path("run.h5"), first);
  write_run_file(path("run.h5"), second);
  EXPECT_EQ(difference(second, read_run_file(path("run.h5"))), "");
  EXPECT_EQ(entries(), std::vector<std::string>{"run.h5"});
}

// The temporary name is taken (by a directory): the write fails before touching the target.
TEST_F(StoreTest, FailedWriteLeavesTheOldFileIntact) {
  RunRecord old_record = make_record(random_sequence(1, 500, 3));
  write_run_file(path("run.h5"), old_record);
  std::string temp_name = "run.h5.tmp-" + std::to_string(::getpid());
  fs::create_directory(path(temp_name));
  std::string message =
      store_error_message([&] { write_run_file(path("run.h5"), make_record(random_sequence(2, 900, 4))); });
  EXPECT_NE(message.find("cannot write " + path("run.h5")), std::string::npos) << message;
  EXPECT_EQ(difference(old_record, read_run_file(path("run.h5"))), "");
  fs::remove(path(temp_name));
  EXPECT_EQ(entries(), std::vector<std::string>{"run.h5"});
}

// The failure comes at the very end (rename onto a directory), after the whole file was written.
TEST_F(StoreTest, LateFailureRemovesTheTemporaryFile) {
  fs::create_directory(path("taken"));
  std::string message =
      store_error_message([&] { write_run_file(path("taken"), make_record(random_sequence(1, 5000, 5))); });
  EXPECT_NE(message.find("cannot write " + path("taken") + ": is a directory"), std::string::npos) << message;
  EXPECT_EQ(entries(), std::vector<std::string>{"taken"});
}

// ----------------------------------------------------------------------------------------------
// Reading: refuse, with a clear message, anything that is not a complete, intact file of ours.

TEST_F(StoreTest, MissingFileIsRefused) {
  std::string message = store_error_message([&] { read_run_file(path("nope.h5")); });
  EXPECT_EQ(message, path("nope.h5") + " does not exist");
}

TEST_F(StoreTest, NonHdf5FileIsRefused) {
  write_bytes(path("text.h5"), "G(0) = 0\nG(1) = 1\n");
  EXPECT_EQ(store_error_message([&] { read_run_file(path("text.h5")); }), path("text.h5") + " is not an HDF5 file");
  write_bytes(path("empty.h5"), "");
  EXPECT_NE(store_error_message([&] { read_run_file(path("empty.h5")); }).find("is not an HDF5 file"),
            std::string::npos);
}

TEST_F(StoreTest, DirectoryIsRefused) {
  EXPECT_EQ(store_error_message([&] { read_run_file(dir_.string()); }), dir_.string() + " is not a regular file");
}

TEST_F(StoreTest, OtherFormatVersionsAreRefused) {
  RunRecord record = make_record(random_sequence(1, 100, 6));
  detail::write_run_file_as_version(path("v99.h5"), record, 99);
  EXPECT_EQ(store_error_message([&] { read_run_file(path("v99.h5")); }),
            path("v99.h5") + " was written by a newer format version 99; this program reads versions 1 to 4");
  detail::write_run_file_as_version(path("v5.h5"), record, 5);
  EXPECT_EQ(store_error_message([&] { read_run_status(path("v5.h5")); }),
            path("v5.h5") + " was written by a newer format version 5; this program reads versions 1 to 4");
  detail::write_run_file_as_version(path("v0.h5"), record, 0);
  EXPECT_EQ(store_error_message([&] { read_run_file(path("v0.h5")); }),
            path("v0.h5") + " was written by an older format version 0; this program reads versions 1 to 4");
}

TEST_F(StoreTest, TruncatedFilesAreRefused) {
  write_run_file(path("run.h5"), make_record(random_sequence(2, 100'000, 8)));
  std::string bytes = read_bytes(path("run.h5"));
  ASSERT_GT(bytes.size(), 4096u);
  for (std::size_t length : {std::size_t{0}, std::size_t{1}, std::size_t{8}, std::size_t{47}, std::size_t{100},
                             std::size_t{512}, std::size_t{2048}, bytes.size() / 3, bytes.size() / 2,
                             bytes.size() - 4096, bytes.size() - 100, bytes.size() - 1}) {
    write_bytes(path("cut.h5"), bytes.substr(0, length));
    std::string message = store_error_message([&] { read_run_file(path("cut.h5")); });
    EXPECT_EQ(message.find(path("cut.h5") + " "), 0u) << message;
    // Once the superblock (the first 48 bytes) is whole, HDF5 knows how long the file should be.
    if (length >= 100) {
      EXPECT_NE(message.find("is truncated"), std::string::npos) << length << ": " << message;
    }
  }
}

// is most of the file, so this exercises the metadata checksums.
TEST_F(StoreTest, EveryByteFlipInASmallFileIsDetectedOrHarmless) {
  RunRecord record = make_record(random_sequence(2, 300, 9));
  write_run_file(path("small.h5"), record);
  std::size_t size = fs::file_size(path("small.h5"));
  std::vector<std::size_t> positions(size);
  std::iota(positions.begin(), positions.end(), 0);
  FlipOutcome outcome = flip_and_read_in_child(
      path("small.h5"), path("flip.h5"), [&](const std::string& file) { return difference(record, read_run_file(file)); },
      positions, 10);
  print_summary("every byte of a small file", size, outcome);
  EXPECT_EQ(outcome.wrong, std::vector<std::string>{});
  EXPECT_EQ(outcome.refused + outcome.harmless, static_cast<int>(size));
  EXPECT_GT(outcome.refused, static_cast<int>(size / 2));
}

// A file with several chunks of values.
TEST_F(StoreTest, RandomByteFlipsInALargerFileAreDetectedOrHarmless) {
  Sequence values;
  values.widen_to_hold(0x10000);
  std::mt19937 rng(11);
  std::uniform_int_distribution<Value> small(0, 3000);
  for (int i = 0; i < 700'000; ++i) values.push_back(small(rng));  // 3 chunks of 1 MiB
  RunRecord record = make_record(std::move(values));
  write_run_file(path("large.h5"), record);
  std::size_t size = fs::file_size(path("large.h5"));
  std::mt19937_64 pick_rng(12);
  std::uniform_int_distribution<std::size_t> anywhere(0, size - 1);
  std::vector<std::size_t> positions;
  for (int i = 0; i < 300; ++i) positions.push_back(anywhere(pick_rng));
  // Every byte of the first metadata block (superblock, root group, /values and its chunk index)
  // and of the end (the /stats and /period groups, written last).
  for (std::size_t i = 0; i < 2048; ++i) positions.push_back(i);
  for (std::size_t i = 0; i < 512; ++i) positions.push_back(size - 1 - i);
  FlipOutcome outcome = flip_and_read_in_child(
      path("large.h5"), path("flip.h5"), [&](const std::string& file) { return difference(record, read_run_file(file)); },
      positions, 13);
  print_summary("start, end and random bytes of a 3-chunk file", size, outcome);
  EXPECT_EQ(outcome.wrong, std::vector<std::string>{});
  EXPECT_EQ(outcome.refused + outcome.harmless, static_cast<int>(positions.size()));
  EXPECT_GT(outcome.refused, 2000);
}

// ----------------------------------------------------------------------------------------------
// Other tools see the file as documented in docs/FORMAT.md.

TEST_F(StoreTest, H5dumpShowsTheDocumentedHeader) {
  if (run("command -v h5dump >/dev/null 2>&1").first != 0) GTEST_SKIP() << "h5dump is not installed";
  write_run_file(path("run.h5"), make_record(random_sequence(2, 5000, 14)));
  auto [status, header] = run("h5dump -A -p '" + path("run.h5") + "' 2>&1");
  ASSERT_EQ(status, 0) << header;
  for (const char* part : {"ATTRIBUTE \"format_version\"", "ATTRIBUTE \"game\"", "\"0.137\"", "ATTRIBUTE \"n\"",
                           "ATTRIBUTE \"complete\"", "ATTRIBUTE \"target_n\"", "ATTRIBUTE \"created\"",
                           "ATTRIBUTE \"description\"", "DATASET \"values\"",
                           "H5T_STD_U16LE", "FLETCHER32", "DEFLATE", "GROUP \"stats\"", "DATASET \"histogram\"",
                           "GROUP \"period\"", "ATTRIBUTE \"theorem\"", "DATASET \"exceptions\""})
    EXPECT_NE(header.find(part), std::string::npos) << "missing " << part << " in\n" << header;
  EXPECT_NE(header.find("\"values[n] = G(n), G(0) at index 0\""), std::string::npos) << header;
  EXPECT_TRUE(has_iso8601_utc_string(header)) << "no ISO 8601 UTC time in\n" << header;
}

// The h5py snippet of docs/FORMAT.md, with Debian's python3-h5py.
TEST_F(StoreTest, H5pyReadsTheValuesAndTheGame) {
  if (!have_h5py()) GTEST_SKIP() << "/usr/bin/python3 has no h5py (apt-get install python3-h5py)";
  RunRecord record = make_record(random_sequence(4, 1000, 15));
  write_run_file(path("run.h5"), record);
  std::string script = "import h5py\n"
                       "with h5py.File('" + path("run.h5") + "', 'r') as f:\n"
                       "    game = f.attrs['game'].decode()\n"
                       "    values = f['values'][:]\n"
                       "    print(game, len(values), values[0], values[999], values.dtype)\n";
  write_bytes(path("read.py"), script);
  auto [status, output] = run("/usr/bin/python3 '" + path("read.py") + "' 2>&1");
  ASSERT_EQ(status, 0) << output;
  EXPECT_EQ(output, "0.137 1000 " + std::to_string(record.values[0]) + " " + std::to_string(record.values[999]) +
                        " uint32\n");
}

// Files from before checkpoints existed have neither attribute; they were written only at the end
// of a run, so they read as complete.
TEST_F(StoreTest, FilesWithoutCompleteAndTargetReadAsComplete) {
  if (!have_h5py()) GTEST_SKIP() << "/usr/bin/python3 has no h5py (apt-get install python3-h5py)";
  RunRecord record = make_record(random_sequence(1, 1000, 25));
  record.complete = false;
  record.target_n = 4000;
  write_run_file(path("run.h5"), record);
  std::string script = "import h5py\n"
                       "with h5py.File('" + path("run.h5") + "', 'r+') as f:\n"
                       "    del f.attrs['complete']\n"
                       "    del f.attrs['target_n']\n";
  write_bytes(path("edit.py"), script);
  auto [status, output] = run("/usr/bin/python3 '" + path("edit.py") + "' 2>&1");
  ASSERT_EQ(status, 0) << output;
  RunRecord back = read_run_file(path("run.h5"));
  EXPECT_TRUE(back.complete);
  EXPECT_EQ(back.target_n, 1000u);
  EXPECT_TRUE(read_run_status(path("run.h5")).complete);
}

// Checksums make this impossible by accident; h5py can do it on purpose.
TEST_F(StoreTest, AttributeNDisagreeingWithTheValuesIsRefused) {
  if (!have_h5py()) GTEST_SKIP() << "/usr/bin/python3 has no h5py (apt-get install python3-h5py)";
  write_run_file(path("run.h5"), make_record(random_sequence(1, 1000, 16)));
  std::string script = "import h5py, numpy\n"
                       "with h5py.File('" + path("run.h5") + "', 'r+') as f:\n"
                       "    f.attrs.modify('n', numpy.uint64(999))\n";
  write_bytes(path("edit.py"), script);
  auto [status, output] = run("/usr/bin/python3 '" + path("edit.py") + "' 2>&1");
  ASSERT_EQ(status, 0) << output;
  EXPECT_EQ(store_error_message([&] { read_run_file(path("run.h5")); }),
            path("run.h5") + " is inconsistent: attribute n is 999 but /values holds 1000 values");
}

}  // namespace

TEST(KernelNames, AResumedRunNamesEachKernelInOrderOfUseOnceAcrossTheResume) {
  EXPECT_EQ(merge_kernel_names("", "sparse"), "sparse");
  EXPECT_EQ(merge_kernel_names("sparse", ""), "sparse");
  EXPECT_EQ(merge_kernel_names("sparse", "sparse"), "sparse");
  EXPECT_EQ(merge_kernel_names("sparse", "sweep"), "sparse+sweep");
  EXPECT_EQ(merge_kernel_names("sparse+sweep", "sweep"), "sparse+sweep");
  EXPECT_EQ(merge_kernel_names("sparse+sweep", "sweep+sparse"), "sparse+sweep+sparse");
  EXPECT_EQ(merge_kernel_names("naive", "sparse+sweep"), "naive+sparse+sweep");
}

}  // namespace sgx
