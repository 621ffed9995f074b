#include "base/atomic_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <utility>

#include "base/os_error.hpp"

namespace sgx {

AtomicFileError::AtomicFileError(Step step, std::string temporary_path, int error)
    : std::runtime_error(os_reason(error)), step_(step), temporary_path_(std::move(temporary_path)), error_(error) {}

std::string temporary_path_for(const std::string& path) { return path + ".tmp-" + std::to_string(::getpid()); }

AtomicFile::AtomicFile(std::string path) : path_(std::move(path)), temporary_path_(temporary_path_for(path_)) {
  fd_ = ::open(temporary_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd_ < 0) throw AtomicFileError(AtomicFileError::Step::Create, temporary_path_, errno);
}

AtomicFile::~AtomicFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_) ::unlink(temporary_path_.c_str());
}

void AtomicFile::write(std::string_view bytes) {
  if (const int error = write_fully(fd_, bytes); error != 0)
    throw AtomicFileError(AtomicFileError::Step::Write, temporary_path_, error);
}

void AtomicFile::commit() {
  if (::fsync(fd_) != 0) throw AtomicFileError(AtomicFileError::Step::Flush, temporary_path_, errno);
  const int closed = ::close(std::exchange(fd_, -1));
  // NFS may report a failed write only here.
  if (closed != 0) throw AtomicFileError(AtomicFileError::Step::Flush, temporary_path_, errno);
  if (::rename(temporary_path_.c_str(), path_.c_str()) != 0)
    throw AtomicFileError(AtomicFileError::Step::Rename, temporary_path_, errno);
  committed_ = true;
  sync_directory_of(path_);
}

int write_fully(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    // At most 1 GiB a call: larger writes are cut short by some systems anyway.
    const ssize_t written = ::write(fd, bytes.data(), std::min<std::size_t>(bytes.size(), std::size_t{1} << 30));
    if (written < 0 && errno == EINTR) continue;
    if (written < 0) return errno;
    bytes.remove_prefix(static_cast<std::size_t>(written));
  }
  return 0;
}

void sync_directory_of(const std::string& path) {
  std::filesystem::path dir = std::filesystem::path(path).parent_path();
  if (dir.empty()) dir = ".";
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;  // some file systems do not allow it
  (void)::fsync(fd);
  ::close(fd);
}

}  // namespace sgx
