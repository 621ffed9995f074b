// Damaged run files, through the real tools: a segment file that is missing, truncated or holds a
// flipped byte is named by every reader (which segment file, which values), and sg_period --verify
// reads every chunk of every segment through its checksum and lists each damaged stretch of
// values, G(a..b-1) and where it lies, with exit status 1.

#include <gtest/gtest.h>
#include <hdf5.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sgx/sequence.hpp"
#include "sgx/store.hpp"
#include "tool_test.hpp"

namespace {

namespace fs = std::filesystem;

using sgx::testing::contains;
using sgx::testing::read_file;
using sgx::testing::Result;

// Where the bytes of chunk index of a dataset lie in an HDF5 file: its first byte and its size.
struct ChunkPlace {
  haddr_t address = HADDR_UNDEF;
  hsize_t size = 0;
};

ChunkPlace chunk_place(const std::string& file, const char* dataset, hsize_t index) {
  ChunkPlace place;
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  const hid_t d = f >= 0 ? H5Dopen2(f, dataset, H5P_DEFAULT) : -1;
  const hid_t space = d >= 0 ? H5Dget_space(d) : -1;  // HDF5 1.10 takes no H5S_ALL here
  hsize_t offset[1] = {};
  unsigned filters = 0;
  if (space >= 0) H5Dget_chunk_info(d, space, index, offset, &filters, &place.address, &place.size);
  if (space >= 0) H5Sclose(space);
  if (d >= 0) H5Dclose(d);
  if (f >= 0) H5Fclose(f);
  return place;
}

void flip_byte(const std::string& file, std::uint64_t at) {
  std::fstream stream(file, std::ios::in | std::ios::out | std::ios::binary);
  stream.seekg(static_cast<std::streamoff>(at));
  const char byte = static_cast<char>(stream.get() ^ 0x5a);
  stream.seekp(static_cast<std::streamoff>(at));
  stream.put(byte);
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

class VerifyTest : public sgx::testing::ToolTest {
 protected:
  // Kayles to 2^22, written as it goes: segments of G(0..2^16-1), then doubling up to
  // G(2^21..2^22-1), the last of two chunks of 2^20 values (one byte each), the others of one.
  void SetUp() override {
    ToolTest::SetUp();
    const Result made = run("run_octal", {"kayles", "--n", "2^22", "--out", "k.h5", "--quiet"});
    ASSERT_EQ(made.exit_code, 0) << made.err;
  }
  std::string segment(const std::string& name) const { return path("k.h5.d/" + name); }

  static constexpr const char* kSecond = "values-000000065536-000000131072.h5";
  static constexpr const char* kLast = "values-000002097152-000004194304.h5";
};

TEST_F(VerifyTest, AWholeRunHasEveryChecksumHold) {
  const Result r = run("sg_period", {"k.h5", "--verify"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "k.h5: every checksum holds (4194304 values in 7 segments, 8 chunks)\n");
  EXPECT_EQ(r.err, "");
  ASSERT_EQ(run("run_octal", {"kayles", "--n", "1000", "--out", "small.h5", "--quiet"}).exit_code, 0);
  EXPECT_EQ(run("sg_period", {"small.h5", "--verify"}).out,
            "small.h5: every checksum holds (1000 values in 1 segment, 1 chunk)\n");
}

TEST_F(VerifyTest, AFlippedByteIsNamedWithTheValuesOfItsChunk) {
  const ChunkPlace second_chunk = chunk_place(segment(kLast), "values", 1);
  ASSERT_NE(second_chunk.address, HADDR_UNDEF);
  ASSERT_GT(second_chunk.size, 0u);
  flip_byte(segment(kLast), second_chunk.address + second_chunk.size / 2);
  const std::string damaged = read_file(path("k.h5")) + read_file(segment(kLast));

  const Result r = run("sg_period", {"k.h5", "--verify"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "k.h5: G(3145728..4194304-1) in segment file k.h5.d/" + std::string(kLast) +
                       ": the chunk fails its checksum\n");
  EXPECT_EQ(r.err, "sg_period: k.h5 is damaged: 1048576 of its 4194304 values in 1 stretch (listed above); the "
                   "others are whole\n");
  // The readers name the segment file and its values too.
  const Result analysed = run("sg_period", {"k.h5"});
  EXPECT_EQ(analysed.exit_code, 1);
  EXPECT_EQ(analysed.err, "sg_period: k.h5 is damaged: its segment file k.h5.d/" + std::string(kLast) +
                              ", which holds G(2097152..4194304-1), fails its checksum\n");
  const Result resumed = run("run_octal", {"kayles", "--n", "2^23", "--resume", "--out", "k.h5"});
  EXPECT_EQ(resumed.exit_code, 1);
  EXPECT_TRUE(contains(resumed.err, "k.h5 is damaged: its segment file k.h5.d/" + std::string(kLast) +
                                        ", which holds G(2097152..4194304-1), fails its checksum"))
      << resumed.err;
  EXPECT_EQ(read_file(path("k.h5")) + read_file(segment(kLast)), damaged) << "a refusal changed the file";
}

TEST_F(VerifyTest, AMissingSegmentIsNamed) {
  fs::remove(segment(kSecond));
  const Result r = run("sg_period", {"k.h5", "--verify"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "k.h5: G(65536..131072-1) in segment file k.h5.d/" + std::string(kSecond) +
                       ": the file is missing (no such file or directory)\n");
  EXPECT_EQ(r.err, "sg_period: k.h5 is damaged: 65536 of its 4194304 values in 1 stretch (listed above); the "
                   "others are whole\n");
  const Result printed = run("run_octal", {"kayles", "--resume", "--print=70000:70002", "--out", "k.h5"});
  EXPECT_EQ(printed.exit_code, 1);
  EXPECT_EQ(printed.out, "");
  EXPECT_EQ(printed.err, "run_octal: k.h5 is damaged: its segment file k.h5.d/" + std::string(kSecond) +
                             ", which holds G(65536..131072-1), is missing (no such file or directory)\n");
}

TEST_F(VerifyTest, ATruncatedSegmentIsNamed) {
  const std::string whole = read_file(segment(kSecond));
  std::ofstream(segment(kSecond), std::ios::binary | std::ios::trunc) << whole.substr(0, whole.size() / 2);
  const std::string damaged = read_file(path("k.h5")) + read_file(segment(kSecond));

  const Result r = run("sg_period", {"k.h5", "--verify"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "k.h5: G(65536..131072-1) in segment file k.h5.d/" + std::string(kSecond) +
                       ": the file is truncated (shorter than its header says)\n");
  // Every reader names it; before, each said only "k.h5 is truncated".
  const std::string named = "k.h5 is damaged: its segment file k.h5.d/" + std::string(kSecond) +
                            ", which holds G(65536..131072-1), is truncated (shorter than its header says)\n";
  const Result analysed = run("sg_period", {"k.h5"});
  EXPECT_EQ(analysed.exit_code, 1);
  EXPECT_EQ(analysed.err, "sg_period: " + named);
  const Result resumed = run("run_octal", {"kayles", "--n", "2^23", "--resume", "--out", "k.h5"});
  EXPECT_EQ(resumed.exit_code, 1);
  EXPECT_EQ(resumed.err, "run_octal: " + named);
  const Result solved = run("sg_solve", {"kayles", "70000", "--from", "k.h5"});
  EXPECT_EQ(solved.exit_code, 1);
  EXPECT_TRUE(contains(solved.err, named)) << solved.err;
  EXPECT_EQ(read_file(path("k.h5")) + read_file(segment(kSecond)), damaged) << "a refusal changed the file";
}

TEST_F(VerifyTest, EveryDamagedStretchIsListedInOrder) {
  const ChunkPlace first_chunk = chunk_place(segment(kLast), "values", 0);
  ASSERT_NE(first_chunk.address, HADDR_UNDEF);
  flip_byte(segment(kLast), first_chunk.address + first_chunk.size / 2);
  fs::remove(segment(kSecond));
  const Result r = run("sg_period", {"k.h5", "--verify"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(lines_of(r.out), (std::vector<std::string>{
                                 "k.h5: G(65536..131072-1) in segment file k.h5.d/" + std::string(kSecond) +
                                     ": the file is missing (no such file or directory)",
                                 "k.h5: G(2097152..3145728-1) in segment file k.h5.d/" + std::string(kLast) +
                                     ": the chunk fails its checksum"}));
  EXPECT_EQ(r.err, "sg_period: k.h5 is damaged: 1114112 of its 4194304 values in 2 stretches (listed above); the "
                   "others are whole\n");
}

// Files that are no runs or whose own record is damaged get one line on stderr; each file is
// verified whatever the others hold.
TEST_F(VerifyTest, EachFileIsVerifiedOnItsOwn) {
  std::ofstream(path("notes.h5")) << "my notes\n";
  ASSERT_EQ(run("run_octal", {"wythoff", "--n", "64", "--out", "w.h5", "--quiet"}).exit_code, 0);
  const Result r = run("sg_period", {"notes.h5", "w.h5", "k.h5", "--verify"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "w.h5: every checksum holds (the table of wythoff, N = 64)\n"
                   "k.h5: every checksum holds (4194304 values in 7 segments, 8 chunks)\n");
  EXPECT_EQ(r.err, "sg_period: notes.h5 is not an HDF5 file\n");
  for (const std::vector<std::string>& args : {std::vector<std::string>{"k.h5", "--verify", "--json"},
                                               std::vector<std::string>{"k.h5", "--verify", "--table"}}) {
    const Result usage = run("sg_period", args);
    EXPECT_EQ(usage.exit_code, 2);
    EXPECT_EQ(lines_of(usage.err).size(), 1u) << usage.err;
  }
}

// A whole file (format version 1, as write_run_file writes): its /values, chunk by chunk.
TEST_F(VerifyTest, AWholeFileIsVerifiedChunkByChunk) {
  sgx::RunRecord record = sgx::read_run_file(path("k.h5"), sgx::LoadValues::All);
  sgx::write_run_file(path("whole.h5"), record);
  const Result r = run("sg_period", {"whole.h5", "--verify"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "whole.h5: every checksum holds (4194304 values in one file, 4 chunks)\n");
  const ChunkPlace third = chunk_place(path("whole.h5"), "values", 2);
  ASSERT_NE(third.address, HADDR_UNDEF);
  flip_byte(path("whole.h5"), third.address + third.size / 2);
  const Result damaged = run("sg_period", {"whole.h5", "--verify"});
  EXPECT_EQ(damaged.exit_code, 1);
  EXPECT_EQ(damaged.out, "whole.h5: G(2097152..3145728-1) in /values: the chunk fails its checksum\n");
}

}  // namespace
