#pragma once
// What the tests of the store share: a fresh directory per test, random records, the first
// difference between two records, running a command, and flipping bytes of a file to see every
// damage refused or harmless.

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

namespace sgx::store_test {

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
inline Sequence random_sequence(unsigned width, std::uint64_t size, unsigned seed) {
  std::mt19937_64 rng(seed);
  Value top = width == 1 ? 0xFF : width == 2 ? 0xFFFF : 0xFFFFFFFF;
  std::uniform_int_distribution<Value> pick(0, top);
  Sequence values;
  if (width > 1) values.widen_to_hold(width == 2 ? 0x100 : 0x10000);
  values.reserve(size);
  for (std::uint64_t i = 0; i < size; ++i) values.push_back(pick(rng));
  return values;
}

inline RunRecord make_record(Sequence values) {
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
inline std::string info_difference(const RunInfo& a, const RunInfo& b) {
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

inline std::string difference(const RunRecord& a, const RunRecord& b) {
  if (a.values.size() != b.values.size()) return "values.size()";
  if (a.values.bytes_per_value() != b.values.bytes_per_value()) return "values.bytes_per_value()";
  if (!(a.values == b.values)) return "values";
  return info_difference(a, b);
}

inline std::string read_bytes(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

inline void write_bytes(const std::string& file, const std::string& bytes) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

inline std::string store_error_message(const std::function<void()>& action) {
  try {
    action();
  } catch (const StoreError& e) {
    return e.what();
  }
  return "(no StoreError thrown)";
}

// Runs a shell command and returns its exit status and standard output.
inline std::pair<int, std::string> run(const std::string& command) {
  std::string output;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) return {-1, ""};
  char buffer[4096];
  while (std::size_t got = std::fread(buffer, 1, sizeof buffer, pipe)) output.append(buffer, got);
  int status = ::pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

// Whether text holds a quoted "YYYY-MM-DDThh:mm:ssZ" (std::regex trips GCC 12 warnings under ASan).
inline bool has_iso8601_utc_string(const std::string& text) {
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

inline bool have_h5py() { return run("/usr/bin/python3 -c 'import h5py' 2>/dev/null").first == 0; }


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
inline void poke(const std::string& file, std::size_t position, char byte) {
  std::fstream out(file, std::ios::binary | std::ios::in | std::ios::out);
  out.seekp(static_cast<std::streamoff>(position));
  out.put(byte);
}

inline FlipOutcome flip_and_read(const std::string& original, const std::string& scratch,
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
inline FlipOutcome flip_and_read_in_child(const std::string& original, const std::string& scratch,
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

inline void print_summary(const char* label, std::size_t size, const FlipOutcome& outcome) {
  std::ostringstream text;
  text << label << " (" << size << " bytes): " << outcome.refused << " refused, " << outcome.harmless
       << " harmless, " << outcome.wrong.size() << " wrong\n";
  for (const auto& [reason, count] : outcome.reasons) text << "    " << count << "x " << reason << "\n";
  std::cout << text.str();
}

// A small file, every byte: here metadata (superblock, object headers, attributes, chunk index)

}  // namespace sgx::store_test
