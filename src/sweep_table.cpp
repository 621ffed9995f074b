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

namespace sgx {

namespace {

[[noreturn]] void system_error(const std::string& what, const std::string& path) {
  std::string message = what;
  message.append(" ").append(path).append(": ").append(std::strerror(errno));
  throw std::runtime_error(message);
}

void write_all(int fd, const std::string& text, const std::string& path) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t wrote = ::write(fd, text.data() + done, text.size() - done);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote < 0) system_error("cannot write", path);
    done += static_cast<std::size_t>(wrote);
  }
  // The row counts as done only once it is on disk: a crash may then lose the game in progress,
  // never a finished one.
  if (::fsync(fd) != 0) system_error("cannot flush", path);
}

// Makes a new or renamed directory entry durable.
void sync_directory_of(const std::string& path) {
  std::filesystem::path dir = std::filesystem::path(path).parent_path();
  if (dir.empty()) dir = ".";
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (fd < 0) return;  // best effort: some file systems do not allow it
  ::fsync(fd);
  ::close(fd);
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

}  // namespace

SweepTable::SweepTable(std::string path, const std::vector<std::string>& games, const SweepSettings& settings,
                       bool resume)
    : path_(std::move(path)), rows_(games.size()), done_(games.size(), false) {
  if (resume && std::filesystem::exists(path_)) {
    read_existing(games, settings);
    fd_ = ::open(path_.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
    if (fd_ < 0) system_error("cannot open", path_);
    return;
  }
  fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd_ < 0 && errno == EEXIST)
    throw SweepInputError(path_ + " already exists: --resume continues that sweep; remove it to start again");
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
      throw SweepInputError(at_line(path_, line_number) + row.game +
                            " is not in this sweep: give the same --codes, or another --out");
    if (done_[found->second]) throw SweepInputError(at_line(path_, line_number) + row.game + " appears twice");
    if (!row_fits_settings(row, settings))
      throw SweepInputError(at_line(path_, line_number) + row.game + " was computed to n = " + std::to_string(row.n) +
                            ", which these settings would not give: resume with the --n (or --max-n) it was made with");
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

  const std::string temporary = path_ + ".tmp";
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) system_error("cannot create", temporary);
  try {
    write_all(fd, text, temporary);
  } catch (...) {
    ::close(fd);
    ::unlink(temporary.c_str());
    throw;
  }
  ::close(fd);
  if (::rename(temporary.c_str(), path_.c_str()) != 0) system_error("cannot rename the table to", path_);
  sync_directory_of(path_);
  rows_ = rows;
  return rows;
}

}  // namespace sgx
