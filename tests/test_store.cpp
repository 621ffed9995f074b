// The HDF5 run file: round trips, atomic replacement, and refusal of anything damaged or foreign.

#include <gtest/gtest.h>
#include <hdf5.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <iterator>
#include <map>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "sgx/engine.hpp"
#include "sgx/rules.hpp"
#include "sgx/stats.hpp"
#include "sgx/store.hpp"
#include "store/store_write.hpp"

namespace sgx {
namespace {

namespace fs = std::filesystem;

// A fresh directory per test, removed afterwards.
class StoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = std::string("sgx_store_") + info->name() + "_" + std::to_string(::getpid()) + "_" +
                       std::to_string(std::random_device{}());
    for (char& c : name)
      if (c == '/') c = '_';
    dir_ = fs::temp_directory_path() / name;
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ignored;
    fs::remove_all(dir_, ignored);
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  // Everything in the directory: checks that no temporary file is left behind.
  std::vector<std::string> entries() const {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir_)) names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }

  fs::path dir_;
};

// Random values filling the whole range of a type of width bytes; the Sequence has that width
// even when no value would need it (so a zero-length uint32 sequence is tested too).
Sequence random_sequence(unsigned width, std::uint64_t size, unsigned seed) {
  std::mt19937_64 rng(seed);
  Value top = width == 1 ? 0xFF : width == 2 ? 0xFFFF : 0xFFFFFFFF;
  std::uniform_int_distribution<Value> pick(0, top);
  Sequence values;
  if (width > 1) values.widen_to_hold(width == 2 ? 0x100 : 0x10000);
  values.reserve(size);
  for (std::uint64_t i = 0; i < size; ++i) values.push_back(pick(rng));
  return values;
}

RunRecord make_record(Sequence values) {
  RunRecord record;
  record.game = "0.137";
  record.engine = "sparse";
  record.program_version = "0.1.0-test";
  // Stats made up rather than computed: compute_stats sizes its histogram by the largest value,
  // which is up to 2^32 entries for random 32-bit values.
  record.stats.rare_mask.values = 0b1011;
  record.stats.rare_count = 17;
  record.stats.last_rare = 12345;
  // (A released run may keep no tail: then the last value is not there to read.)
  record.stats.max_value = !values.empty() && values.holds(values.size() - 1) ? values[values.size() - 1] : 0;
  record.stats.max_at = values.size() / 2;
  record.stats.histogram = {5, 0, 7, 1u << 31, 0, 0, 0, UINT64_MAX};
  record.values = std::move(values);
  record.period.found = true;
  record.period.preperiod = 53;
  record.period.period = 34;
  record.period.saltus = -3;
  record.period.proven = true;
  record.period.theorem = "guy-smith";
  record.period.proof_needs_n = 177;
  record.period.exceptions = {0, 14, 16, 17, 31, 34, 51, 52};
  record.period.checked_n = record.values.size();
  record.target_n = record.values.size();
  return record;
}

// Field by field, with a message naming the first difference (gtest cannot print a RunInfo).
std::string info_difference(const RunInfo& a, const RunInfo& b) {
  if (a.game != b.game) return "game";
  if (a.engine != b.engine) return "engine";
  if (a.program_version != b.program_version) return "program_version";
  if (a.complete != b.complete) return "complete";
  if (a.target_n != b.target_n) return "target_n";
  if (a.sparse_state.has_value() != b.sparse_state.has_value()) return "sparse_state present";
  if (a.sparse_state) {
    const SparseState &x = *a.sparse_state, &y = *b.sparse_state;
    if (x.mask != y.mask || x.max_value != y.max_value || x.max_at != y.max_at || x.histogram != y.histogram ||
        x.odd_histogram != y.odd_histogram ||
        x.rare_positions != y.rare_positions || x.rare_values != y.rare_values)
      return "sparse_state";
  }
  const auto &s = a.stats, &t = b.stats;
  if (s.rare_mask != t.rare_mask || s.rare_count != t.rare_count || s.last_rare != t.last_rare ||
      s.max_value != t.max_value || s.max_at != t.max_at || s.histogram != t.histogram)
    return "stats";
  const auto &p = a.period, &q = b.period;
  if (p.found != q.found || p.proven != q.proven || p.preperiod != q.preperiod || p.period != q.period ||
      p.saltus != q.saltus || p.theorem != q.theorem || p.proof_needs_n != q.proof_needs_n ||
      p.checked_n != q.checked_n || p.exceptions != q.exceptions)
    return "period";
  return "";
}

std::string difference(const RunRecord& a, const RunRecord& b) {
  if (a.values.size() != b.values.size()) return "values.size()";
  if (a.values.bytes_per_value() != b.values.bytes_per_value()) return "values.bytes_per_value()";
  if (!(a.values == b.values)) return "values";
  return info_difference(a, b);
}

std::string read_bytes(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void write_bytes(const std::string& file, const std::string& bytes) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::string store_error_message(const std::function<void()>& action) {
  try {
    action();
  } catch (const StoreError& e) {
    return e.what();
  }
  return "(no StoreError thrown)";
}

// Runs a shell command and returns its exit status and standard output.
std::pair<int, std::string> run(const std::string& command) {
  std::string output;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) return {-1, ""};
  char buffer[4096];
  while (std::size_t got = std::fread(buffer, 1, sizeof buffer, pipe)) output.append(buffer, got);
  int status = ::pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

// Whether text holds a quoted "YYYY-MM-DDThh:mm:ssZ" (std::regex trips GCC 12 warnings under ASan).
bool has_iso8601_utc_string(const std::string& text) {
  const std::string shape = "\"dddd-dd-ddTdd:dd:ddZ\"";
  for (std::size_t start = 0; start + shape.size() <= text.size(); ++start) {
    bool match = true;
    for (std::size_t i = 0; i < shape.size() && match; ++i) {
      char c = text[start + i];
      match = shape[i] == 'd' ? std::isdigit(static_cast<unsigned char>(c)) != 0 : c == shape[i];
    }
    if (match) return true;
  }
  return false;
}

bool have_h5py() { return run("/usr/bin/python3 -c 'import h5py' 2>/dev/null").first == 0; }

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

// Flips bytes one at a time (on a copy) and reads: each read must either refuse the file with a
// StoreError or return exactly the original record (a flip in unused space is harmless).
// read_and_compare reads the file and names the first difference from the original ("" if none).
using ReadAndCompare = std::function<std::string(const std::string& file)>;
struct FlipOutcome {
  int refused = 0, harmless = 0;
  std::vector<std::string> wrong;      // "byte 123: different values", one per wrong read
  std::map<std::string, int> reasons;  // refusal message without the path, for the summary
};

// Overwrites one byte of file in place.
void poke(const std::string& file, std::size_t position, char byte) {
  std::fstream out(file, std::ios::binary | std::ios::in | std::ios::out);
  out.seekp(static_cast<std::streamoff>(position));
  out.put(byte);
}

FlipOutcome flip_and_read(const std::string& original, const std::string& scratch,
                          const ReadAndCompare& read_and_compare, const std::vector<std::size_t>& positions, unsigned seed,
                          const std::function<void(std::size_t)>& before_read) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> nonzero(1, 255);
  FlipOutcome outcome;
  const std::string bytes = read_bytes(original);
  write_bytes(scratch, bytes);
  for (std::size_t position : positions) {
    poke(scratch, position, static_cast<char>(bytes[position] ^ nonzero(rng)));
    before_read(position);
    try {
      std::string diff = read_and_compare(scratch);
      if (diff.empty())
        ++outcome.harmless;
      else
        outcome.wrong.push_back("byte " + std::to_string(position) + ": different " + diff);
    } catch (const StoreError& e) {
      ++outcome.refused;
      std::string reason = std::string(e.what()).substr(scratch.size() + 1);
      ++outcome.reasons[reason.substr(0, reason.find(" ("))];
    }
    poke(scratch, position, bytes[position]);
  }
  return outcome;
}

// Runs flip_and_read in a child process, so that a crash is reported as a failure rather than
// ending the test program, and so that what HDF5 1.10 leaks while refusing damaged files (a few
// hundred bytes each, inside the library, seen by LeakSanitizer) goes away with the child.
FlipOutcome flip_and_read_in_child(const std::string& original, const std::string& scratch,
                                   const ReadAndCompare& read_and_compare, const std::vector<std::size_t>& positions,
                                   unsigned seed) {
  int channel[2];
  if (::pipe(channel) != 0) throw std::runtime_error("pipe failed");
  std::fflush(nullptr);
  pid_t child = ::fork();
  if (child == 0) {
    ::close(channel[0]);
    auto send = [&](const std::string& message) {
      for (std::size_t done = 0; done < message.size();) {
        ssize_t written = ::write(channel[1], message.data() + done, message.size() - done);
        if (written <= 0) break;
        done += static_cast<std::size_t>(written);
      }
    };
    // One item a line: P position being read, R count, H count, W text, E count reason.
    FlipOutcome outcome = flip_and_read(original, scratch, read_and_compare, positions, seed,
                                        [&](std::size_t position) { send("P " + std::to_string(position) + "\n"); });
    std::ostringstream text;
    text << "R " << outcome.refused << "\nH " << outcome.harmless << "\n";
    for (const auto& wrong : outcome.wrong) text << "W " << wrong << "\n";
    for (const auto& [reason, count] : outcome.reasons) text << "E " << count << " " << reason << "\n";
    send(text.str());
    ::_exit(0);  // no atexit handlers, no leak check: the parent judges
  }
  ::close(channel[1]);
  std::string message;
  char buffer[4096];
  while (ssize_t got = ::read(channel[0], buffer, sizeof buffer)) {
    if (got < 0) break;
    message.append(buffer, static_cast<std::size_t>(got));
  }
  ::close(channel[0]);
  int status = 0;
  ::waitpid(child, &status, 0);
  FlipOutcome outcome;
  std::string last_position = "none";
  std::istringstream lines(message);
  for (std::string line; std::getline(lines, line);) {
    std::string rest = line.substr(2);
    if (line[0] == 'P') last_position = rest;
    if (line[0] == 'R') outcome.refused = std::stoi(rest);
    if (line[0] == 'H') outcome.harmless = std::stoi(rest);
    if (line[0] == 'W') outcome.wrong.push_back(rest);
    if (line[0] == 'E') outcome.reasons[rest.substr(rest.find(' ') + 1)] = std::stoi(rest);
  }
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
      << "the reading process died" << (WIFSIGNALED(status) ? " of signal " + std::to_string(WTERMSIG(status)) : "")
      << " while reading the file with byte " << last_position << " damaged";
  return outcome;
}

void print_summary(const char* label, std::size_t size, const FlipOutcome& outcome) {
  std::ostringstream text;
  text << label << " (" << size << " bytes): " << outcome.refused << " refused, " << outcome.harmless
       << " harmless, " << outcome.wrong.size() << " wrong\n";
  for (const auto& [reason, count] : outcome.reasons) text << "    " << count << "x " << reason << "\n";
  std::cout << text.str();
}

// A small file, every byte: here metadata (superblock, object headers, attributes, chunk index)
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

// ----------------------------------------------------------------------------------------------
// Runs with a released middle (run_octal --memory): format version 2, G(0..P-1) in /values,
// G(L..n-1) in /tail, and the rare-value state the run resumes from in /sparse.

// The rare-value state of values as a bounded run keeps it: the histogram and the rare list of
// every value, under the best mask, with the largest value.
SparseState state_of(const Sequence& values) {
  const SparseStats stats = compute_stats(values);
  SparseState state;
  state.mask = stats.rare_mask;
  state.histogram = stats.histogram;
  state.rare_positions = rare_positions(values, stats.rare_mask);
  for (std::uint64_t position : state.rare_positions) state.rare_values.push_back(values[position]);
  state.max_value = stats.max_value;
  state.max_at = stats.max_at;
  return state;
}

// A record of size random values of width bytes (below 256, 3000 or 70000: every width, and
// histograms of a sensible size) with G(prefix_end..tail_start-1) released, as a bounded run
// writes it: its stats and rare-value state count every value. all: every value, to compare with.
struct ReleasedRun {
  RunRecord record;
  std::vector<Value> all;
};

ReleasedRun released_run(unsigned width, std::uint64_t size, std::uint64_t prefix_end, std::uint64_t tail_start,
                         unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<Value> pick(0, width == 1 ? 255 : width == 2 ? 2999 : 69999);
  Sequence values;
  if (width > 1) values.widen_to_hold(width == 2 ? 0x100 : 0x10000);
  values.reserve(size);
  for (std::uint64_t i = 0; i < size; ++i) values.push_back(pick(rng));
  ReleasedRun run;
  run.all = values.to_vector();
  const SparseStats stats = compute_stats(values);
  SparseState state = state_of(values);
  values.release(prefix_end, tail_start);
  run.record = make_record(std::move(values));
  run.record.complete = false;
  run.record.target_n = 4 * size;
  run.record.stats = stats;
  run.record.sparse_state = std::move(state);
  return run;
}

// Compares the values read back with the ones written: the same released part, and every kept
// value equal. "" when they agree.
std::string kept_difference(const std::vector<Value>& all, const Sequence& expected, const Sequence& back) {
  if (back.size() != expected.size()) return "size " + std::to_string(back.size());
  if (back.bytes_per_value() != expected.bytes_per_value()) return "width " + std::to_string(back.bytes_per_value());
  if (back.prefix_end() != expected.prefix_end() || back.tail_start() != expected.tail_start())
    return "released part " + std::to_string(back.prefix_end()) + ".." + std::to_string(back.tail_start());
  if (back.kept_count() != expected.kept_count()) return "kept_count " + std::to_string(back.kept_count());
  for (std::uint64_t n = 0; n < back.size(); ++n) {
    if (!back.holds(n)) continue;
    if (back[n] != all[n]) return "G(" + std::to_string(n) + ") = " + std::to_string(back[n]);
  }
  return "";
}

// Reads and edits files with the HDF5 C API, as any other program may: an edited file is intact
// (its checksums are right) but may say what read_run_file must not believe.
class Hdf5File {
 public:
  Hdf5File(const std::string& file, unsigned flags) : id_(H5Fopen(file.c_str(), flags, H5P_DEFAULT)) {}
  ~Hdf5File() {
    if (id_ >= 0) H5Fclose(id_);
  }
  Hdf5File(const Hdf5File&) = delete;
  Hdf5File& operator=(const Hdf5File&) = delete;
  bool is_open() const { return id_ >= 0; }

  bool has(const char* name) const { return H5Lexists(id_, name, H5P_DEFAULT) > 0; }
  bool has_attribute(const char* name) const { return H5Aexists(id_, name) > 0; }
  // (Through H5Oopen: HDF5 1.10.8 fails to write an attribute of a group opened by
  // H5Aopen_by_name.)
  std::int64_t int_attribute(const char* object, const char* name) const {
    std::int64_t value = -1;
    hid_t owner = H5Oopen(id_, object, H5P_DEFAULT);
    hid_t attr = H5Aopen(owner, name, H5P_DEFAULT);
    if (attr < 0 || H5Aread(attr, H5T_NATIVE_INT64, &value) < 0) ADD_FAILURE() << "cannot read " << object << " " << name;
    H5Aclose(attr);
    H5Oclose(owner);
    return value;
  }
  void set_attribute(const char* object, const char* name, std::uint64_t value) {
    hid_t owner = H5Oopen(id_, object, H5P_DEFAULT);
    hid_t attr = H5Aopen(owner, name, H5P_DEFAULT);
    if (attr < 0 || H5Awrite(attr, H5T_NATIVE_UINT64, &value) < 0) ADD_FAILURE() << "cannot write " << object << " " << name;
    H5Aclose(attr);
    H5Oclose(owner);
  }
  // The whole dataset, as type.
  template <class T>
  std::vector<T> dataset(const char* name, hid_t type) const {
    hid_t dset = H5Dopen2(id_, name, H5P_DEFAULT);
    hid_t space = H5Dget_space(dset);
    std::vector<T> data(static_cast<std::size_t>(H5Sget_simple_extent_npoints(space)));
    if (dset < 0 || (!data.empty() && H5Dread(dset, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data()) < 0))
      ADD_FAILURE() << "cannot read " << name;
    H5Sclose(space);
    H5Dclose(dset);
    return data;
  }
  void remove(const char* name) {
    if (H5Ldelete(id_, name, H5P_DEFAULT) < 0) ADD_FAILURE() << "cannot delete " << name;
  }
  // Replaces a dataset by one holding data, stored as file_type (contiguous, no filters).
  template <class T>
  void replace(const char* name, const std::vector<T>& data, hid_t memory_type, hid_t file_type) {
    remove(name);
    const hsize_t length = data.size();
    hid_t space = H5Screate_simple(1, &length, nullptr);
    hid_t dset = H5Dcreate2(id_, name, file_type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (dset < 0 || (length > 0 && H5Dwrite(dset, memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data()) < 0))
      ADD_FAILURE() << "cannot write " << name;
    H5Dclose(dset);
    H5Sclose(space);
  }

 private:
  hid_t id_;
};

struct ReleasedShape {
  unsigned width;
  std::uint64_t size, prefix_end, tail_start;
};

class StoreReleasedRoundTrip : public StoreTest, public ::testing::WithParamInterface<ReleasedShape> {};

TEST_P(StoreReleasedRoundTrip, KeptValuesAndTheRareValueStateComeBackExactly) {
  const auto [width, size, prefix_end, tail_start] = GetParam();
  const ReleasedRun run = released_run(width, size, prefix_end, tail_start, width * 7 + static_cast<unsigned>(prefix_end));
  const Sequence& values = run.record.values;
  ASSERT_TRUE(values.has_released());
  ASSERT_EQ(values.bytes_per_value(), width);
  write_run_file(path("run.h5"), run.record);
  EXPECT_EQ(entries(), std::vector<std::string>{"run.h5"});

  const RunRecord back = read_run_file(path("run.h5"));
  EXPECT_EQ(back.values.size(), size);
  EXPECT_EQ(back.values.prefix_end(), prefix_end);
  EXPECT_EQ(back.values.tail_start(), tail_start);
  EXPECT_TRUE(back.values.has_released());
  EXPECT_EQ(back.values.kept_count(), prefix_end + (size - tail_start));
  EXPECT_EQ(kept_difference(run.all, values, back.values), "");
  EXPECT_EQ(info_difference(run.record, back), "");
  ASSERT_TRUE(back.sparse_state.has_value());
  EXPECT_FALSE(back.sparse_state->rare_positions.empty());
  EXPECT_EQ(back.sparse_state->rare_positions.size(), back.sparse_state->rare_values.size());
  EXPECT_EQ(back.sparse_state->max_value, *std::max_element(run.all.begin(), run.all.end()));
  EXPECT_EQ(std::accumulate(back.sparse_state->histogram.begin(), back.sparse_state->histogram.end(), std::uint64_t{0}),
            size);

  const RunStatus status = read_run_status(path("run.h5"));
  EXPECT_EQ(status.game, "0.137");
  EXPECT_EQ(status.n, size);
  EXPECT_EQ(status.prefix_n, prefix_end);
  EXPECT_EQ(status.tail_start, tail_start);
  EXPECT_TRUE(status.has_released());
  EXPECT_FALSE(status.complete);
  EXPECT_EQ(status.target_n, 4 * size);

  // The layout docs/FORMAT.md describes.
  Hdf5File file(path("run.h5"), H5F_ACC_RDONLY);
  ASSERT_TRUE(file.is_open());
  EXPECT_EQ(file.int_attribute("/", "format_version"), 2);
  EXPECT_EQ(file.int_attribute("/", "n"), static_cast<std::int64_t>(size));
  EXPECT_EQ(file.int_attribute("/", "prefix_n"), static_cast<std::int64_t>(prefix_end));
  EXPECT_EQ(file.int_attribute("/", "tail_start"), static_cast<std::int64_t>(tail_start));
  const auto prefix = file.dataset<Value>("values", H5T_NATIVE_UINT32);
  const auto tail = file.dataset<Value>("tail", H5T_NATIVE_UINT32);
  EXPECT_TRUE(std::equal(prefix.begin(), prefix.end(), run.all.begin(), run.all.begin() + prefix_end) &&
              prefix.size() == prefix_end);
  EXPECT_TRUE(std::equal(tail.begin(), tail.end(), run.all.begin() + tail_start, run.all.end()) &&
              tail.size() == size - tail_start);
  EXPECT_EQ(file.dataset<std::uint64_t>("sparse/rare_positions", H5T_NATIVE_UINT64),
            run.record.sparse_state->rare_positions);
}

INSTANTIATE_TEST_SUITE_P(WidthsAndParts, StoreReleasedRoundTrip,
                         ::testing::Values(ReleasedShape{1, 300'000, 4099, 200'003},
                                           ReleasedShape{2, 300'000, 4099, 200'003},
                                           ReleasedShape{4, 300'000, 65'536, 131'072},
                                           // /tail in five chunks of 1 MiB
                                           ReleasedShape{4, 1'200'000, 10, 100'000},
                                           // no prefix kept, or no tail kept
                                           ReleasedShape{1, 300'000, 0, 250'000},
                                           ReleasedShape{2, 300'000, 1000, 300'000}),
                         [](const auto& param_info) {
                           const ReleasedShape& shape = param_info.param;
                           return "u" + std::to_string(8 * shape.width) + "_n" + std::to_string(shape.size) + "_P" +
                                  std::to_string(shape.prefix_end) + "_L" + std::to_string(shape.tail_start);
                         });

// Files whose every value is there stay exactly what older programs read, with or without a
// rare-value state.
// Format version 3, a run saved as it goes: a piece per checkpoint, complete segments in place of
// their pieces, the last segment joined at the end; read back exactly, and a lost segment refused.
TEST_F(StoreTest, RunWrittenAsItGoesKeepsSegmentsAndReadsBack) {
  const Sequence all = random_sequence(2, 200'000, 40);
  RunRecord record = make_record(Sequence{});
  record.provenance = {Provenance{"run_octal 0.137 --n 200000", "0.1.0-test", "abc123", "host-a", 2,
                                  "2026-01-01T00:00:00Z", "2026-01-01T00:01:00Z", 60.5, 100.25, 0, 200'000}};
  RunInfo info = record;
  info.complete = false;
  info.target_n = 200'000;
  Sequence growing;
  growing.widen_to_hold(0x100);
  auto grow_to = [&](std::uint64_t n) {
    while (growing.size() < n) growing.push_back(all[growing.size()]);
  };
  const std::string directory = segment_directory(path("run.h5"));
  auto segment_files = [&] {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(directory)) names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  };
  using Names = std::vector<std::string>;

  RunFileWriter writer = RunFileWriter::start(path("run.h5"), record.game);
  grow_to(1000);
  writer.save(info, growing);
  EXPECT_EQ(segment_files(), Names{"values-000000000000-000000001000.h5"});
  grow_to(70'000);
  writer.save(info, growing);
  EXPECT_EQ(segment_files(), (Names{"values-000000000000-000000065536.h5", "values-000000065536-000000070000.h5"}));
  EXPECT_EQ(read_run_status(path("run.h5")).format_version, kSegmentedFormatVersion);
  grow_to(140'000);
  writer.write_complete_segments(growing);
  EXPECT_EQ(writer.durable_n(), 131'072u);
  EXPECT_EQ(read_run_status(path("run.h5")).n, 70'000u) << "the manifest changes only at a save";
  grow_to(200'000);
  info.complete = true;
  writer.save(info, growing);
  EXPECT_EQ(segment_files(), (Names{"values-000000000000-000000065536.h5", "values-000000065536-000000131072.h5",
                                    "values-000000131072-000000200000.h5"}));
  EXPECT_EQ(entries(), (Names{"run.h5", "run.h5.d"})) << "no temporary file is left";

  const RunRecord back = read_run_file(path("run.h5"));
  EXPECT_TRUE(back.complete);
  EXPECT_TRUE(back.values == all);
  ASSERT_EQ(back.provenance.size(), 1u);
  const Provenance& row = back.provenance[0];
  EXPECT_EQ(row.command, "run_octal 0.137 --n 200000");
  EXPECT_EQ(row.commit, "abc123");
  EXPECT_EQ(row.host, "host-a");
  EXPECT_EQ(row.threads, 2u);
  EXPECT_EQ(row.ended, "2026-01-01T00:01:00Z");
  EXPECT_EQ(row.wall_seconds, 60.5);
  EXPECT_EQ(row.cpu_seconds, 100.25);
  EXPECT_EQ(row.values_computed, 200'000u);
  std::vector<Value> across;  // a range across two segments
  for (std::uint64_t k = 131'070; k < 131'075; ++k) across.push_back(all[k]);
  EXPECT_EQ(read_run_values(path("run.h5"), 131'070, 131'075), across);
  std::vector<Value> block(across.size());
  run_file_reader(path("run.h5"))(131'070, 131'075, block.data());
  EXPECT_EQ(block, across);
  EXPECT_EQ(RunFileWriter::resume(path("run.h5")).saved_n(), 200'000u);

  // A lost segment file is refused, never read as values; ranges in the other segments still read.
  fs::remove(directory + "/values-000000065536-000000131072.h5");
  EXPECT_EQ(store_error_message([&] { read_run_file(path("run.h5")); }),
            path("run.h5") + " is damaged: its segment file run.h5.d/values-000000065536-000000131072.h5, which " +
                "holds G(65536..131072-1), is missing (no such file or directory)");
  EXPECT_EQ(read_run_values(path("run.h5"), 0, 1)[0], all[0]);
}

TEST_F(StoreTest, WholeRunsStayVersionOne) {
  RunRecord record = make_record(random_sequence(2, 5000, 40));
  write_run_file(path("plain.h5"), record);
  record.sparse_state = state_of(record.values);
  write_run_file(path("state.h5"), record);
  for (const char* name : {"plain.h5", "state.h5"}) {
    Hdf5File file(path(name), H5F_ACC_RDONLY);
    ASSERT_TRUE(file.is_open());
    EXPECT_EQ(file.int_attribute("/", "format_version"), 1) << name;
    EXPECT_FALSE(file.has("tail")) << name;
    EXPECT_FALSE(file.has_attribute("prefix_n")) << name;
    EXPECT_FALSE(file.has_attribute("tail_start")) << name;
    EXPECT_EQ(file.dataset<Value>("values", H5T_NATIVE_UINT32), record.values.to_vector()) << name;
    EXPECT_EQ(file.has("sparse"), std::string(name) == "state.h5");
  }
  const RunRecord plain = read_run_file(path("plain.h5"));
  EXPECT_FALSE(plain.sparse_state.has_value());
  EXPECT_FALSE(plain.values.has_released());
  const RunRecord with_state = read_run_file(path("state.h5"));
  EXPECT_EQ(difference(record, with_state), "");
  ASSERT_TRUE(with_state.sparse_state.has_value());
  EXPECT_EQ(with_state.sparse_state->histogram, compute_stats(record.values).histogram);
  EXPECT_FALSE(with_state.values.has_released());
  const RunStatus status = read_run_status(path("state.h5"));
  EXPECT_FALSE(status.has_released());
  EXPECT_EQ(status.n, 5000u);
  EXPECT_EQ(status.prefix_n, 0u);
  EXPECT_EQ(status.tail_start, 0u);
}

// Without its state a bounded run could never continue, and a state that contradicts the values
// would make it continue wrongly: neither is written, and a file already there stays.
TEST_F(StoreTest, ReleasedValuesAreNotWrittenWithoutAConsistentState) {
  ReleasedRun run = released_run(1, 300'000, 4099, 200'003, 41);
  RunRecord without_state = make_record(random_sequence(1, 10, 42));
  without_state.values = std::move(run.record.values);
  EXPECT_EQ(store_error_message([&] { write_run_file(path("run.h5"), without_state); }),
            "cannot write " + path("run.h5") +
                ": G(4099..200002) was released to bound memory, and such a file needs the rare-value state to be "
                "resumed, but none was given");
  EXPECT_TRUE(entries().empty());

  const RunRecord old_record = make_record(random_sequence(1, 500, 43));
  write_run_file(path("run.h5"), old_record);
  const SparseState& state = *run.record.sparse_state;
  auto write_with = [&](const SparseState& wrong) {
    RunInfo info = run.record;
    info.sparse_state = wrong;
    write_run_file(path("run.h5"), info, without_state.values);
  };
  SparseState one_value_short = state;
  one_value_short.rare_values.pop_back();
  const std::size_t rare = state.rare_positions.size();
  EXPECT_EQ(store_error_message([&] { write_with(one_value_short); }),
            "cannot write " + path("run.h5") + ": the rare-value state is inconsistent: rare_positions holds " +
                std::to_string(rare) + " positions but rare_values " + std::to_string(rare - 1) + " values");
  SparseState counted_twice = state;
  counted_twice.histogram[0] += 1;
  EXPECT_EQ(store_error_message([&] { write_with(counted_twice); }),
            "cannot write " + path("run.h5") +
                ": the rare-value state is inconsistent: the histogram counts 300001 positions, not n = 300000");
  SparseState more_odd_than_all = state;
  more_odd_than_all.odd_histogram.assign(2, 0);
  more_odd_than_all.odd_histogram[1] = state.histogram[1] + 1;
  EXPECT_EQ(store_error_message([&] { write_with(more_odd_than_all); }),
            "cannot write " + path("run.h5") + ": the rare-value state is inconsistent: odd_histogram counts " +
                std::to_string(state.histogram[1] + 1) + " odd positions of value 1, more than the histogram's " +
                "positions of it");
  EXPECT_EQ(difference(old_record, read_run_file(path("run.h5"))), "");
  EXPECT_EQ(entries(), std::vector<std::string>{"run.h5"});
}

// Each edit leaves an intact HDF5 file that says something impossible; the reader names it and
// changes nothing.
TEST_F(StoreTest, ReleasedFilesThatContradictThemselvesAreRefused) {
  const ReleasedRun run = released_run(1, 300'000, 4099, 200'003, 44);
  const SparseState& state = *run.record.sparse_state;
  const std::size_t rare = state.rare_positions.size();
  ASSERT_GT(rare, 2u);
  std::vector<std::uint64_t> swapped = state.rare_positions;
  std::swap(swapped[0], swapped[1]);
  std::vector<std::uint64_t> beyond = state.rare_positions;
  beyond.back() = 300'000;
  std::vector<std::uint64_t> counted_twice = state.histogram;
  counted_twice[state.rare_values[0]] += 1;
  std::vector<std::uint32_t> one_less(state.rare_values.begin(), state.rare_values.end() - 1);
  const std::vector<std::uint8_t> short_tail(99'996, 1);

  struct Edit {
    std::string what;
    std::function<void(Hdf5File&)> edit;
    std::string message;
    bool status_refused;  // the header alone is wrong: read_run_status refuses it too
  };
  const std::vector<Edit> edits = {
      {"no /sparse", [](Hdf5File& f) { f.remove("sparse"); },
       "is inconsistent: G(4099..200002) is released from memory but the file has no /sparse group, the "
       "rare-value state such a run resumes from",
       false},
      {"short /tail", [&](Hdf5File& f) { f.replace("tail", short_tail, H5T_NATIVE_UINT8, H5T_STD_U8LE); },
       "is inconsistent: attributes n and tail_start make 99997 tail values but /tail holds 99996", false},
      {"/tail of another type",
       [&](Hdf5File& f) {
         f.replace("tail", std::vector<std::uint16_t>(99'997, 1), H5T_NATIVE_UINT16, H5T_STD_U16LE);
       },
       "is inconsistent: /values and /tail have different types", false},
      {"no /tail", [](Hdf5File& f) { f.remove("tail"); }, "is not an sgx run file: it has no /tail dataset", false},
      {"rare_values shorter",
       [&](Hdf5File& f) { f.replace("sparse/rare_values", one_less, H5T_NATIVE_UINT32, H5T_STD_U32LE); },
       "is inconsistent: in /sparse, rare_positions holds " + std::to_string(rare) + " positions but rare_values " +
           std::to_string(rare - 1) + " values",
       false},
      {"rare_positions out of order",
       [&](Hdf5File& f) { f.replace("sparse/rare_positions", swapped, H5T_NATIVE_UINT64, H5T_STD_U64LE); },
       "is inconsistent: in /sparse, rare_positions is not increasing: " + std::to_string(swapped[1]) + " follows " +
           std::to_string(swapped[0]),
       false},
      {"rare position beyond n",
       [&](Hdf5File& f) { f.replace("sparse/rare_positions", beyond, H5T_NATIVE_UINT64, H5T_STD_U64LE); },
       "is inconsistent: in /sparse, rare position 300000 is not below n = 300000", false},
      {"histogram counts one more",
       [&](Hdf5File& f) { f.replace("sparse/histogram", counted_twice, H5T_NATIVE_UINT64, H5T_STD_U64LE); },
       "is inconsistent: in /sparse, the histogram counts 300001 positions, not n = 300000", false},
      {"max_at beyond n", [](Hdf5File& f) { f.set_attribute("sparse", "max_at", 300'000); },
       "is inconsistent: in /sparse, max_at is 300000, not below n = 300000", false},
      {"prefix_n wrong", [](Hdf5File& f) { f.set_attribute("/", "prefix_n", 4100); },
       "is inconsistent: attribute prefix_n is 4100 but /values holds 4099 values", false},
      {"tail_start beyond n", [](Hdf5File& f) { f.set_attribute("/", "tail_start", 300'001); },
       "is inconsistent: attributes prefix_n 4099, tail_start 300001 and n 300000 are not in increasing order", true},
      {"prefix_n beyond tail_start", [](Hdf5File& f) { f.set_attribute("/", "prefix_n", 200'004); },
       "is inconsistent: attributes prefix_n 200004, tail_start 200003 and n 300000 are not in increasing order", true},
  };
  write_run_file(path("good.h5"), run.record);
  const std::string good = read_bytes(path("good.h5"));
  for (const Edit& edit : edits) {
    write_bytes(path("run.h5"), good);
    {
      Hdf5File file(path("run.h5"), H5F_ACC_RDWR);
      ASSERT_TRUE(file.is_open()) << edit.what;
      edit.edit(file);
    }
    const std::string edited = read_bytes(path("run.h5"));
    ASSERT_TRUE(edited != good) << edit.what << ": the edit changed nothing";
    EXPECT_EQ(store_error_message([&] { read_run_file(path("run.h5")); }), path("run.h5") + " " + edit.message)
        << edit.what;
    if (edit.status_refused)
      EXPECT_EQ(store_error_message([&] { read_run_status(path("run.h5")); }), path("run.h5") + " " + edit.message)
          << edit.what;
    else
      EXPECT_EQ(read_run_status(path("run.h5")).tail_start, 200'003u) << edit.what;
    EXPECT_TRUE(read_bytes(path("run.h5")) == edited) << edit.what << ": reading changed the file";
  }
  // The unedited file reads, so each refusal above is the edit's.
  EXPECT_EQ(kept_difference(run.all, run.record.values, read_run_file(path("good.h5")).values), "");
}

// As for version 1: a damaged byte is found or changes nothing, and never makes the reader
// write into the released part (which would crash the child process that reads).
TEST_F(StoreTest, EveryByteFlipInASmallReleasedFileIsDetectedOrHarmless) {
  const ReleasedRun released = released_run(2, 1000, 100, 600, 48);
  write_run_file(path("small.h5"), released.record);
  std::size_t size = fs::file_size(path("small.h5"));
  std::vector<std::size_t> positions(size);
  std::iota(positions.begin(), positions.end(), 0);
  FlipOutcome outcome = flip_and_read_in_child(
      path("small.h5"), path("flip.h5"),
      [&](const std::string& file) {
        const RunRecord back = read_run_file(file);
        const std::string values = kept_difference(released.all, released.record.values, back.values);
        return values.empty() ? info_difference(released.record, back) : values;
      },
      positions, 49);
  print_summary("every byte of a small file with a released middle", size, outcome);
  EXPECT_EQ(outcome.wrong, std::vector<std::string>{});
  EXPECT_EQ(outcome.refused + outcome.harmless, static_cast<int>(size));
  EXPECT_GT(outcome.refused, static_cast<int>(size / 2));
}

// The whole point of the state: a bounded run continues from its file to the values a run with
// every value in memory computes. Grundy's game (its rare positions all lie below 83000), with
// G(100000..119999) released: the prefix and the tail hold every value the sparse kernel reads.
TEST_F(StoreTest, BoundedRunContinuesFromItsFile) {
  const Rules rules = parse_rules("grundy");
  const Sequence whole = compute_sequence(rules, 600'000, KernelKind::Sparse, 1, false);
  EngineOptions options;
  options.kernel = KernelKind::Sparse;
  options.threads = 1;
  options.period_shortcut = false;
  Engine first(rules, options);
  first.compute_to(400'000);
  RunInfo info;
  info.game = rules.canonical();
  info.engine = first.kernels_used();
  info.complete = false;
  info.target_n = 600'000;
  info.sparse_state = first.sparse_state();
  ASSERT_TRUE(info.sparse_state.has_value());
  Sequence kept = first.values();
  kept.release(100'000, 120'000);
  write_run_file(path("run.h5"), info, kept);

  RunRecord stored = read_run_file(path("run.h5"));
  EXPECT_EQ(stored.values.prefix_end(), 100'000u);
  EXPECT_EQ(stored.values.tail_start(), 120'000u);
  EXPECT_EQ(info_difference(info, stored), "");
  // From here on the run keeps the prefix and the last 280000 values.
  options.value_memory = 2 * 380'000;
  Engine resumed(rules, options, std::move(stored.values), std::move(stored.sparse_state));
  resumed.compute_to(600'000);
  const Sequence& values = resumed.values();
  ASSERT_EQ(values.size(), 600'000u);
  EXPECT_EQ(values.prefix_end(), 100'000u);
  EXPECT_EQ(values.tail_start(), 320'000u);
  for (std::uint64_t n = 0; n < values.size(); ++n) {
    if (!values.holds(n)) continue;
    ASSERT_EQ(values[n], whole[n]) << "G(" << n << ")";
  }
  EXPECT_EQ(resumed.sparse_state()->histogram, compute_stats(whole).histogram);
}

TEST_F(StoreTest, H5dumpShowsTheDocumentedBoundedLayout) {
  if (run("command -v h5dump >/dev/null 2>&1").first != 0) GTEST_SKIP() << "h5dump is not installed";
  write_run_file(path("run.h5"), released_run(2, 300'000, 4099, 200'003, 45).record);
  auto [status, header] = run("h5dump -A -p '" + path("run.h5") + "' 2>&1");
  ASSERT_EQ(status, 0) << header;
  for (const char* part : {"ATTRIBUTE \"prefix_n\"", "ATTRIBUTE \"tail_start\"", "DATASET \"values\"",
                           "DATASPACE  SIMPLE { ( 4099 ) / ( H5S_UNLIMITED ) }", "DATASET \"tail\"",
                           "DATASPACE  SIMPLE { ( 99997 ) / ( H5S_UNLIMITED ) }", "H5T_STD_U16LE", "FLETCHER32",
                           "GROUP \"sparse\"", "ATTRIBUTE \"mask\"", "ATTRIBUTE \"max_at\"", "DATASET \"histogram\"",
                           "DATASET \"rare_positions\"", "DATASET \"rare_values\"", "H5T_STD_U32LE"})
    EXPECT_NE(header.find(part), std::string::npos) << "missing " << part << " in\n" << header;
}

// The h5py snippet of docs/FORMAT.md, as printed there, on a file with a released middle.
TEST_F(StoreTest, TheDocumentedH5pySnippetTellsABoundedFile) {
  if (!have_h5py()) GTEST_SKIP() << "/usr/bin/python3 has no h5py (apt-get install python3-h5py)";
  const std::string doc = read_bytes(std::string(SGX_SOURCE_DIR) + "/docs/FORMAT.md");
  const std::string open = "```python\n";
  const auto start = doc.find(open);
  ASSERT_NE(start, std::string::npos) << "no python snippet in docs/FORMAT.md";
  std::string script = doc.substr(start + open.size(), doc.find("```", start + open.size()) - start - open.size());
  const std::string example = "results/0.137.h5";
  ASSERT_NE(script.find(example), std::string::npos) << script;
  script.replace(script.find(example), example.size(), path("run.h5"));
  write_bytes(path("read.py"), script);

  const ReleasedRun released = released_run(1, 300'000, 4099, 200'003, 46);
  write_run_file(path("run.h5"), released.record);
  auto [status, output] = run("/usr/bin/python3 '" + path("read.py") + "' 2>&1");
  ASSERT_EQ(status, 0) << output;
  std::string first_ten, last_ten;
  for (int k = 0; k < 10; ++k) {
    first_ten.append(k ? " " : "").append(std::to_string(released.all[k]));
    last_ten.append(k ? " " : "").append(std::to_string(released.all[299'990 + k]));
  }
  // numpy prints small arrays in one line, numbers right-aligned to the widest.
  auto squeeze = [](std::string text) {
    std::string out;
    for (char c : text)
      if (!(c == ' ' && !out.empty() && (out.back() == ' ' || out.back() == '['))) out += c;
    for (std::size_t at; (at = out.find(" ]")) != std::string::npos;) out.erase(at, 1);
    return out;
  };
  EXPECT_EQ(squeeze(output), "0.137 300000 values, of which G(0..4098) and G(200003..299999) are stored: [" +
                                 first_ten + "] [" + last_ten + "]\ncheckpoint of an unfinished run: 300000 of 1200000 values\n"
                                 "period 34 preperiod 53 proven\n");
}

// ----------------------------------------------------------------------------------------------
// Two-dimensional tables: their own layout, the same writing and the same strict reading.

TableRecord make_table_record(TableGame game, std::uint64_t n) {
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
  for (auto [game, n] : {std::pair{TableGame::Wythoff, 1}, std::pair{TableGame::Wythoff, 64},
                         std::pair{TableGame::Wythoff, 300}, std::pair{TableGame::Cut, 3}, std::pair{TableGame::Cut, 90}}) {
    const TableRecord record = make_table_record(game, static_cast<std::uint64_t>(n));
    write_table_file(path("table.h5"), record);
    const TableRecord back = read_table_file(path("table.h5"));
    EXPECT_EQ(table_difference(record, back), "") << table_game_name(game) << " " << n;
    EXPECT_EQ(read_file_kind(path("table.h5")), FileKind::Table);
    EXPECT_EQ(entries(), std::vector<std::string>{"table.h5"});
  }
  // Both widths were written: 64 fits a byte, 300 does not.
  EXPECT_EQ(make_table_record(TableGame::Wythoff, 64).table.cells().bytes_per_value(), 1u);
  EXPECT_EQ(make_table_record(TableGame::Wythoff, 300).table.cells().bytes_per_value(), 2u);
}

TEST_F(StoreTest, TableAndRunFilesRefuseEachOther) {
  write_table_file(path("table.h5"), make_table_record(TableGame::Cut, 20));
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
  const TableRecord record = make_table_record(TableGame::Wythoff, 10);
  EXPECT_EQ(store_error_message([&] { write_table_file(path("no/dir/t.h5"), record); }),
            "cannot create " + path("no/dir/t.h5") + ": directory does not exist");
  // An existing file is replaced whole, by rename.
  write_bytes(path("t.h5"), "old contents");
  write_table_file(path("t.h5"), record);
  EXPECT_EQ(table_difference(record, read_table_file(path("t.h5"))), "");
  EXPECT_EQ(entries(), std::vector<std::string>{"t.h5"});
  // Row results that do not match the table are a programming error, refused before any write.
  TableRecord wrong = make_table_record(TableGame::Wythoff, 10);
  wrong.rows.pop_back();
  EXPECT_NE(store_error_message([&] { write_table_file(path("w.h5"), wrong); }).find("10 rows but 9 row results"),
            std::string::npos);
  EXPECT_EQ(entries(), std::vector<std::string>{"t.h5"});
}

TEST_F(StoreTest, EveryByteFlipInASmallTableFileIsDetectedOrHarmless) {
  const TableRecord record = make_table_record(TableGame::Wythoff, 40);
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
  write_table_file(path("w.h5"), make_table_record(TableGame::Wythoff, 300));
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
  write_table_file(path("cut.h5"), make_table_record(TableGame::Cut, 160));
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
    write_table_file(path("cut.h5"), make_table_record(TableGame::Cut, 40));
    write_bytes(path("edit.py"), "import h5py, numpy\nwith h5py.File('" + path("cut.h5") + "', 'r+') as f:\n    " + edit + "\n");
    auto [status, output] = run("/usr/bin/python3 '" + path("edit.py") + "' 2>&1");
    ASSERT_EQ(status, 0) << output;
    EXPECT_EQ(store_error_message([&] { read_table_file(path("cut.h5")); }), path("cut.h5") + " " + message) << edit;
  }
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
