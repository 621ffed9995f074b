// Two-dimensional tables (include/sgx/store.hpp, docs/FORMAT.md): the machinery of run files
// (store_hdf5.hpp), another layout. Their root has a kind attribute, which run files (the older
// kind) have not.

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "sgx/store.hpp"
#include "store/store_hdf5.hpp"
#include "store/store_layout.hpp"

namespace sgx {

using namespace hdf5;

namespace {

void write_rows(hid_t file, const std::vector<RowPeriod>& rows) {
  auto group = create_group(file, "rows");
  std::vector<std::uint8_t> found;
  std::vector<std::uint64_t> preperiod, period;
  std::vector<std::int64_t> saltus;
  for (const RowPeriod& row : rows) {
    found.push_back(row.found);
    preperiod.push_back(row.preperiod);
    period.push_back(row.period);
    saltus.push_back(row.saltus);
  }
  write_dataset(group, "found", found);
  write_dataset(group, "preperiod", preperiod);
  write_dataset(group, "period", period);
  write_dataset(group, "saltus", saltus);
}

void write_table(hid_t file, const TableRecord& record) {
  const GameTable& table = record.table;
  const hsize_t side = table.side();
  if (record.rows.size() != side)
    throw StoreError("the table has " + std::to_string(side) + " rows but " + std::to_string(record.rows.size()) +
                     " row results were given");
  write_attribute<std::int32_t>(file, "format_version", kWholeFormatVersion);
  write_string_attribute(file, "kind", kTableKind);
  write_string_attribute(file, "game", game_kind_name(table.game()));
  write_attribute<std::uint64_t>(file, "n", table.n());
  write_attribute<std::uint64_t>(file, "origin", table.origin());
  write_attribute<std::uint32_t>(file, "max_value", table.max_value());
  write_string_attribute(file, "program_version", record.program_version);
  write_string_attribute(file, "created", utc_now_iso8601());
  write_string_attribute(file, "description",
                         "table[i][j] = G(origin + i, origin + j); rows/*[i] describe row a = origin + i");
  table.cells().visit([&](const auto& cells) {
    using T = typename std::decay_t<decltype(cells)>::value_type;
    // Whole rows, about 1 MiB of them per chunk: a row or a corner reads one chunk or a few.
    const hsize_t rows_per_chunk = std::clamp<hsize_t>((hsize_t{1} << 20) / (side * sizeof(T)), 1, side);
    write_array(file, "table", cells.data(), {side, side}, {rows_per_chunk, side});
  });
  write_rows(file, record.rows);
}

// One dataset of /rows, of exactly type T and one entry per row.
template <class T>
std::vector<T> read_row_results(hid_t group, const char* name, hsize_t side) {
  auto dset = open_dataset(group, "/rows", name);
  const std::string where = std::string("/rows/") + name;
  const IntegerType type = dataset_type(dset, where);
  if (type.type_class != H5T_INTEGER || type.size != sizeof(T) || (type.sign == H5T_SGN_2) != std::is_signed_v<T>)
    throw not_ours(where + " has the wrong type");
  const hsize_t length = dataset_length(dset, where);
  if (length != side)
    throw StoreError("is inconsistent: the table has " + std::to_string(side) + " rows but " + where + " holds " +
                     std::to_string(length));
  return read_dataset<T>(dset, length, where);
}

// The root of a table file, checked: its game and n.
struct TableHeader {
  GameKind game;
  std::uint64_t n, origin;
};

TableHeader read_table_header(hid_t file) {
  const std::string kind = file_kind(file);
  if (kind.empty()) throw StoreError("holds the values of a heap game, not a two-dimensional table");
  if (kind != kTableKind) throw not_ours("its kind '" + kind + "' is unknown");
  const std::string name = read_string_attribute(file, "/", "game");
  const std::optional<GameKind> game = parse_table_game(name);
  if (!game) throw not_ours("its game '" + name + "' has no two-dimensional table");
  const auto n = read_attribute<std::uint64_t>(file, "/", "n");
  const auto origin = read_attribute<std::uint64_t>(file, "/", "origin");
  if (origin != table_origin(*game))
    throw StoreError("is inconsistent: attribute origin is " + std::to_string(origin) + " but tables of " + name +
                     " start at " + std::to_string(table_origin(*game)));
  if (n <= origin || n > kMaxTableN)
    throw StoreError("is inconsistent: attribute n is " + std::to_string(n) + ", outside " +
                     std::to_string(origin + 1) + ".." + std::to_string(kMaxTableN));
  return {*game, n, origin};
}

TableRecord read_table_hdf5(const std::string& path) {
  auto file = open_file(path);
  const auto [game, n, origin] = read_table_header(file);
  const hsize_t side = n - origin;
  std::string program_version = read_string_attribute(file, "/", "program_version");

  auto group = open_group(file, "rows");
  const auto found = read_row_results<std::uint8_t>(group, "found", side);
  const auto preperiod = read_row_results<std::uint64_t>(group, "preperiod", side);
  const auto period = read_row_results<std::uint64_t>(group, "period", side);
  const auto saltus = read_row_results<std::int64_t>(group, "saltus", side);
  std::vector<RowPeriod> rows(side);
  for (std::size_t i = 0; i < side; ++i) rows[i] = {found[i] != 0, preperiod[i], period[i], saltus[i]};

  // The big one last: damage elsewhere is found quickly.
  auto dset = open_dataset(file, "/", "table");
  Sequence cells = sequence_for(dset, "/table");
  const std::vector<hsize_t> shape = dataset_shape(dset, "/table");
  if (shape != std::vector<hsize_t>{side, side}) {
    std::string shown;
    for (hsize_t d : shape) shown.append(shown.empty() ? "" : " x ").append(std::to_string(d));
    throw StoreError("is inconsistent: attributes n and origin make " + std::to_string(side) + " x " +
                     std::to_string(side) + " values but /table is " + (shown.empty() ? "a single value" : shown));
  }
  read_into(cells, dset, side * side, "/table");
  return TableRecord{GameTable(game, n, std::move(cells)), std::move(rows), std::move(program_version)};
}

}  // namespace

void write_table_file(const std::string& path, const TableRecord& record) {
  write_file(path, [&record](hid_t file) { write_table(file, record); });
}

TableRecord read_table_file(const std::string& path) {
  return read_checked(path, [&] { return read_table_hdf5(path); }, "table");
}

TableStatus read_table_status(const std::string& path) {
  return read_checked(
      path,
      [&] {
        const TableHeader header = read_table_header(open_file(path));
        return TableStatus{game_kind_name(header.game), header.n};
      },
      "table");
}

}  // namespace sgx
