// Run files of bounded runs (a released middle) and runs written as they go: the kept values and
// the rare-value state round trip, and files that contradict themselves are refused.

#include "store_test_support.hpp"

namespace sgx {
namespace {

using namespace store_test;
namespace fs = std::filesystem;

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

}  // namespace
}  // namespace sgx
