#include "file_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <string>

#include "cli.hpp"
#include "base/os_error.hpp"
#include "sgx/store.hpp"

namespace sgx::cli {

namespace {

// "pid 1234 on host node17 since 2026-11-25 14:30:05 UTC": who holds a lock, as its file says.
std::string holder_text() {
  char host[256] = "unknown";
  ::gethostname(host, sizeof host - 1);
  return "pid " + std::to_string(::getpid()) + " on host " + host + " since " + utc_now_text();
}

// The holder's line in an open lock file; empty if it has not written it yet.
std::string read_holder(int fd) {
  std::string text;
  char buffer[512];
  ssize_t got;
  off_t offset = 0;
  while ((got = ::pread(fd, buffer, sizeof buffer, offset)) > 0) {
    text.append(buffer, static_cast<std::size_t>(got));
    offset += got;
  }
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  return text;
}

// Whether fd still is the file named path: a holder removes the lock file when it is done, so a
// lock taken on a file just removed guards nothing and must be taken again on the new one.
bool still_named(int fd, const std::string& path) {
  struct stat opened {}, named {};
  return ::fstat(fd, &opened) == 0 && ::stat(path.c_str(), &named) == 0 && opened.st_dev == named.st_dev &&
         opened.st_ino == named.st_ino;
}

}  // namespace

std::string lock_path_for(const std::string& path) { return path + ".lock"; }

FileLock::FileLock(const std::string& path) : lock_path_(lock_path_for(path)) {
  for (;;) {
    fd_ = ::open(lock_path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0)
      throw StoreError("cannot write " + path + ": its lock file " + lock_path_ + " cannot be created: " +
                       os_reason(errno));
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
      const int error = errno;
      const std::string holder = error == EWOULDBLOCK ? read_holder(fd_) : "";
      ::close(fd_);
      fd_ = -1;
      if (error != EWOULDBLOCK) throw StoreError("cannot lock " + lock_path_ + ": " + os_reason(error));
      throw StoreError(path + " is being written by another process (" +
                       (holder.empty() ? std::string("it is just starting") : holder) + ", lock " + lock_path_ +
                       "): wait until it ends, or choose another --out");
    }
    if (still_named(fd_, lock_path_)) break;
    ::close(fd_);  // removed by a holder that just ended: take the new one
  }
  const std::string holder = holder_text() + "\n";
  // The text is for people; the lock itself is the flock, so a failed write changes nothing.
  [[maybe_unused]] const bool written =
      ::ftruncate(fd_, 0) == 0 && ::pwrite(fd_, holder.data(), holder.size(), 0) == static_cast<ssize_t>(holder.size());
}

FileLock::~FileLock() {
  if (fd_ < 0) return;
  // Removed while still held: a process that opened it meanwhile finds it no longer named and
  // takes a fresh one (still_named).
  ::unlink(lock_path_.c_str());
  ::close(fd_);
}

}  // namespace sgx::cli
