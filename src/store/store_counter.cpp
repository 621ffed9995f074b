#include "store/store_counter.hpp"

#include <cstdint>
#include <string>
#include <vector>

#include "store/store_layout.hpp"

namespace sgx {

using namespace hdf5;

namespace {

// Milestone fields a column each; value_at_n and last_rare are -1 where there is none.
struct MilestoneColumns {
  std::vector<std::uint64_t> n, max_at, rare_mask, rare_count, histogram_start, histograms;
  std::vector<std::uint32_t> max_value;
  std::vector<std::uint8_t> rare_position_bit;
  std::vector<std::int64_t> value_at_n, last_rare;
};

MilestoneColumns columns_of(const std::vector<Milestone>& milestones) {
  MilestoneColumns c;
  c.histogram_start.push_back(0);
  for (const Milestone& m : milestones) {
    c.n.push_back(m.n);
    c.value_at_n.push_back(m.value_at_n ? std::int64_t{*m.value_at_n} : -1);
    c.max_value.push_back(m.stats.max_value);
    c.max_at.push_back(m.stats.max_at);
    c.rare_mask.push_back(m.stats.rare_mask.values);
    c.rare_position_bit.push_back(m.stats.rare_mask.with_position);
    c.rare_count.push_back(m.stats.rare_count);
    c.last_rare.push_back(m.stats.last_rare);
    c.histograms.insert(c.histograms.end(), m.stats.histogram.begin(), m.stats.histogram.end());
    c.histogram_start.push_back(c.histograms.size());
  }
  return c;
}

// A required dataset of exactly length entries.
template <class T>
std::vector<T> read_column(hid_t group, const std::string& at, const char* name, std::size_t length) {
  std::vector<T> column = read_optional_list<T>(group, at, name);
  if (column.size() != length)
    throw StoreError("is inconsistent: " + at + "/" + name + " has " + std::to_string(column.size()) +
                     " entries, not " + std::to_string(length));
  return column;
}

std::vector<Milestone> read_milestones(hid_t file, const std::string& game) {
  auto group = open_group(file, "milestones");
  const std::string at = "/milestones";
  const std::vector<std::uint64_t> n = read_optional_list(group, at, "n");
  const std::size_t k = n.size();
  const auto value_at_n = read_column<std::int64_t>(group, at, "value_at_n", k);
  const auto max_value = read_column<std::uint32_t>(group, at, "max_value", k);
  const auto max_at = read_column<std::uint64_t>(group, at, "max_at", k);
  const auto rare_mask = read_column<std::uint64_t>(group, at, "rare_mask", k);
  const auto position_bit = read_column<std::uint8_t>(group, at, "rare_position_bit", k);
  const auto rare_count = read_column<std::uint64_t>(group, at, "rare_count", k);
  const auto last_rare = read_column<std::int64_t>(group, at, "last_rare", k);
  const auto start = read_column<std::uint64_t>(group, at, "histogram_start", k + 1);
  const std::vector<std::uint64_t> histograms = read_optional_list(group, at, "histograms");
  std::vector<Milestone> milestones(k);
  for (std::size_t i = 0; i < k; ++i) {
    if (start[i] > start[i + 1] || start[i + 1] > histograms.size())
      throw StoreError("is inconsistent: " + at + "/histogram_start does not lie within /milestones/histograms");
    if (value_at_n[i] < -1 || value_at_n[i] > std::int64_t{0xFFFFFFFF})
      throw StoreError("is inconsistent: " + at + "/value_at_n holds " + std::to_string(value_at_n[i]));
    Milestone& m = milestones[i];
    m.n = n[i];
    if (value_at_n[i] >= 0) m.value_at_n = static_cast<Value>(value_at_n[i]);
    m.stats.max_value = max_value[i];
    m.stats.max_at = max_at[i];
    m.stats.rare_mask = {rare_mask[i], position_bit[i] != 0, false};
    if (m.stats.rare_mask.with_position)  // the game's splits decide which way it flips, as for /stats
      m.stats.rare_mask.odd_takes = position_mask_takes_odd(game, at + "/rare_position_bit");
    m.stats.rare_count = rare_count[i];
    m.stats.last_rare = last_rare[i];
    m.stats.histogram.assign(histograms.begin() + static_cast<std::ptrdiff_t>(start[i]),
                             histograms.begin() + static_cast<std::ptrdiff_t>(start[i + 1]));
  }
  return milestones;
}

}  // namespace

void write_counter(hid_t file, const StatsCounter::State& state) {
  auto counter = create_group(file, "counter");
  write_attribute<std::uint64_t>(counter, "counted", state.counted);
  write_attribute<std::uint32_t>(counter, "max_value", state.max_value);
  write_attribute<std::uint64_t>(counter, "max_at", state.max_at);
  write_dataset(counter, "histogram", state.histogram);
  write_dataset(counter, "odd_histogram", state.odd_histogram);
  write_dataset(counter, "last_at", state.last_at);

  const MilestoneColumns c = columns_of(state.milestones);
  auto milestones = create_group(file, "milestones");
  write_dataset(milestones, "n", c.n);
  write_dataset(milestones, "value_at_n", c.value_at_n);
  write_dataset(milestones, "max_value", c.max_value);
  write_dataset(milestones, "max_at", c.max_at);
  write_dataset(milestones, "rare_mask", c.rare_mask);
  write_dataset(milestones, "rare_position_bit", c.rare_position_bit);
  write_dataset(milestones, "rare_count", c.rare_count);
  write_dataset(milestones, "last_rare", c.last_rare);
  write_dataset(milestones, "histogram_start", c.histogram_start);
  write_dataset(milestones, "histograms", c.histograms);
}

std::optional<StatsCounter::State> read_counter(hid_t file, const RunStatus& status) {
  const bool has_counter = check_tri(H5Lexists(file, "counter", H5P_DEFAULT), "/counter");
  const bool has_milestones = check_tri(H5Lexists(file, "milestones", H5P_DEFAULT), "/milestones");
  if (!has_counter && !has_milestones) return std::nullopt;
  if (has_counter != has_milestones)
    throw StoreError(std::string("is inconsistent: it has ") + (has_counter ? "/counter" : "/milestones") +
                     " without " + (has_counter ? "/milestones" : "/counter"));
  auto counter = open_group(file, "counter");
  const std::string at = "/counter";
  StatsCounter::State state;
  state.counted = read_attribute<std::uint64_t>(counter, at, "counted");
  state.max_value = read_attribute<std::uint32_t>(counter, at, "max_value");
  state.max_at = read_attribute<std::uint64_t>(counter, at, "max_at");
  state.histogram = read_optional_list(counter, at, "histogram");
  state.odd_histogram = read_optional_list(counter, at, "odd_histogram");
  state.last_at = read_optional_list<std::int64_t>(counter, at, "last_at");
  state.milestones = read_milestones(file, status.game);
  if (state.counted != status.n)
    throw StoreError("is inconsistent: /counter counts " + std::to_string(state.counted) + " values of its " +
                     std::to_string(status.n));
  const std::string fault = check_counter_state(state);
  if (!fault.empty()) throw StoreError("is inconsistent: /counter and /milestones: " + fault);
  return state;
}

}  // namespace sgx
