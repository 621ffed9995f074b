// The HDF5 run file: round trips, atomic replacement, and refusal of anything damaged or foreign.

#include <gtest/gtest.h>
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

#include "sgx/store.hpp"

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
  record.stats.rare_mask = 0b1011;
  record.stats.rare_count = 17;
  record.stats.last_rare = 12345;
  record.stats.max_value = values.empty() ? 0 : values[values.size() - 1];
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

// Field by field, with a message naming the first difference (gtest cannot print a RunRecord).
std::string difference(const RunRecord& a, const RunRecord& b) {
  if (a.game != b.game) return "game";
  if (a.engine != b.engine) return "engine";
  if (a.program_version != b.program_version) return "program_version";
  if (a.complete != b.complete) return "complete";
  if (a.target_n != b.target_n) return "target_n";
  if (a.values.size() != b.values.size()) return "values.size()";
  if (a.values.bytes_per_value() != b.values.bytes_per_value()) return "values.bytes_per_value()";
  if (!(a.values == b.values)) return "values";
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
  record.stats.rare_mask = ~std::uint64_t{0};
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
  detail::write_run_file_as_version(path("v2.h5"), record, 2);
  EXPECT_NE(store_error_message([&] { read_run_status(path("v2.h5")); }).find("newer format version 2"),
            std::string::npos);
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
            path("v99.h5") + " was written by a newer format version 99; this program reads version 1");
  detail::write_run_file_as_version(path("v0.h5"), record, 0);
  EXPECT_EQ(store_error_message([&] { read_run_file(path("v0.h5")); }),
            path("v0.h5") + " was written by an older format version 0; this program reads version 1");
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
}  // namespace sgx
