#include "sgx/sweep_table.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include "base/atomic_file.hpp"

namespace sgx {

namespace {

[[noreturn]] void system_error(const std::string& what, const std::string& path, int error = errno) {
  std::string message = what;
  message.append(" ").append(path).append(": ").append(std::strerror(error));
  throw std::runtime_error(message);
}

// Appends text to the table. The row counts as done only once it is on disk: a crash may then
// lose the game in progress, never a finished one.
void write_all(int fd, const std::string& text, const std::string& path) {
  if (const int error = write_fully(fd, text); error != 0) system_error("cannot write", path, error);
  if (::fsync(fd) != 0) system_error("cannot flush", path);
}

std::string read_whole_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) system_error("cannot read", path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string at_line(const std::string& path, std::size_t line_number) {
  return path + " line " + std::to_string(line_number) + ": ";
}

// Replaces the file at path with text, atomically (AtomicFile), its errors worded as the others.
void replace_file(const std::string& path, const std::string& text) {
  try {
    AtomicFile file(path);
    file.write(text);
    file.commit();
  } catch (const AtomicFileError& e) {
    switch (e.step()) {
      case AtomicFileError::Step::Create: system_error("cannot create", e.temporary_path(), e.error());
      case AtomicFileError::Step::Write: system_error("cannot write", e.temporary_path(), e.error());
      case AtomicFileError::Step::Flush: system_error("cannot flush", e.temporary_path(), e.error());
      case AtomicFileError::Step::Rename: system_error("cannot rename the table to", path, e.error());
    }
    throw;
  }
}

// What a sweep's table at path holds, for the message that refuses to replace it: its rows and
// the first and last games. Throws SweepInputError when the file is no sweep's table.
std::string describe_table(const std::string& path) {
  const std::string text = read_whole_file(path);
  const std::string header = sweep_csv_header() + "\n";
  if (text.compare(0, header.size(), header) != 0 && header.compare(0, text.size(), text) != 0)
    throw SweepInputError(path + " exists and is not a sg_sweep table (its first line is not the header " +
                          sweep_csv_header() + "), so it is left as it is");
  std::vector<std::string> games;  // of the whole rows; a line cut short by a kill is left out
  for (std::size_t start = header.size(); start < text.size();) {
    const std::size_t end = text.find('\n', start);
    if (end == std::string::npos) break;
    try {
      games.push_back(parse_csv_line(std::string_view(text).substr(start, end - start)).game);
    } catch (const SweepInputError&) {
      games.push_back("?");
    }
    start = end + 1;
  }
  if (games.empty()) return path + " holds the table of a sweep, with no rows yet";
  return path + " holds the table of a sweep with " + std::to_string(games.size()) +
         (games.size() == 1 ? " row, " + games.front() : " rows, " + games.front() + " to " + games.back());
}

}  // namespace

SweepTable::SweepTable(std::string path, const std::vector<std::string>& games, const SweepSettings& settings,
                       ExistingTable existing)
    : path_(std::move(path)), rows_(games.size()), done_(games.size(), false) {
  if (existing == ExistingTable::Resume && std::filesystem::exists(path_)) {
    read_existing(games, settings);
    fd_ = ::open(path_.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
    if (fd_ < 0) system_error("cannot open", path_);
    return;
  }
  start_new(existing);
}

// The header of a new table, in a file of its own or in place of a sweep's table (replaced
// atomically, so that a failure leaves the old one whole).
void SweepTable::start_new(ExistingTable existing) {
  if (std::filesystem::exists(path_)) {
    const std::string held = describe_table(path_);
    if (existing != ExistingTable::Replace) throw SweepTableExistsError(path_, held);
    replace_file(path_, sweep_csv_header() + "\n");
    fd_ = ::open(path_.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
    if (fd_ < 0) system_error("cannot open", path_);
    return;
  }
  fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd_ < 0 && errno == EEXIST) throw SweepTableExistsError(path_, describe_table(path_));
  if (fd_ < 0) system_error("cannot create", path_);
  write_line(sweep_csv_header());
  sync_directory_of(path_);
}

SweepTable::~SweepTable() {
  if (fd_ >= 0) ::close(fd_);
}

// Reads the rows back. What counts as done is exactly what is in the file, so resuming after any
// kill neither repeats nor loses a finished game. Only the last line may be cut short (the write
// in progress when the process died); it is cut off the file. Anything else wrong is an error:
// the file is someone else's, or damaged, and is left as it is.
void SweepTable::read_existing(const std::vector<std::string>& games, const SweepSettings& settings) {
  std::map<std::string, std::size_t> index_of;
  for (std::size_t i = 0; i < games.size(); ++i) index_of.emplace(games[i], i);

  const std::string text = read_whole_file(path_);
  const std::string header = sweep_csv_header() + "\n";
  std::size_t valid = 0;  // bytes of the file that hold whole, accepted lines
  if (text.compare(0, header.size(), header) == 0) {
    valid = header.size();
  } else if (header.compare(0, text.size(), text) != 0) {
    throw SweepInputError(path_ + " is not a sg_sweep table (its first line is not the header " +
                          sweep_csv_header() + ")");
  }
  std::size_t line_number = 1;
  while (valid > 0 && valid < text.size()) {
    ++line_number;
    const std::size_t end = text.find('\n', valid);
    const bool last = end == std::string::npos || end + 1 == text.size();
    SweepRow row;
    try {
      if (end == std::string::npos) throw SweepInputError("no end of line");
      row = parse_csv_line(std::string_view(text).substr(valid, end - valid));
    } catch (const SweepInputError& e) {
      if (last) break;  // the row being written when the sweep was killed
      throw SweepInputError(at_line(path_, line_number) + "damaged row (" + e.what() + ")");
    }
    const auto found = index_of.find(row.game);
    if (found == index_of.end())
      throw SweepTableOtherGameError(line_number, row.game,
                                     at_line(path_, line_number) + row.game + " is not in this sweep");
    if (done_[found->second]) throw SweepInputError(at_line(path_, line_number) + row.game + " appears twice");
    if (!row_fits_settings(row, settings))
      throw SweepTableOtherSettingsError(line_number, row.game, row.n,
                                         at_line(path_, line_number) + row.game + " was computed to n = " +
                                             std::to_string(row.n) + ", which these settings would not give");
    rows_[found->second] = std::move(row);
    done_[found->second] = true;
    ++resumed_rows_;
    valid = end + 1;
  }
  if (valid < text.size() || valid == 0) {
    dropped_partial_line_ = valid < text.size() && valid > 0;
    if (::truncate(path_.c_str(), static_cast<off_t>(valid)) != 0) system_error("cannot truncate", path_);
  }
  if (valid == 0) {  // not even the header survived: start the table afresh
    const int fd = ::open(path_.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
    if (fd < 0) system_error("cannot open", path_);
    write_all(fd, header, path_);
    ::close(fd);
  }
}

std::vector<std::size_t> SweepTable::pending() const {
  std::vector<std::size_t> left;
  for (std::size_t i = 0; i < done_.size(); ++i)
    if (!done_[i]) left.push_back(i);
  return left;
}

void SweepTable::write_line(const std::string& line) { write_all(fd_, line + "\n", path_); }

void SweepTable::append(std::size_t index, const SweepRow& row) {
  if (index >= done_.size() || done_[index]) throw std::logic_error("sweep row " + row.game + " written twice");
  write_line(to_csv_line(row));
  rows_[index] = row;
  done_[index] = true;
}

bool SweepTable::complete() const {
  for (bool done : done_)
    if (!done) return false;
  return true;
}

std::vector<SweepRow> SweepTable::finish() {
  if (!complete()) throw std::logic_error("sweep table finished before every game was done");
  std::vector<SweepRow> rows = rows_;
  mark_equivalent_games(rows);
  std::string text = sweep_csv_header() + "\n";
  for (const SweepRow& row : rows) text.append(to_csv_line(row)).append("\n");

  replace_file(path_, text);
  rows_ = rows;
  return rows;
}

}  // namespace sgx
