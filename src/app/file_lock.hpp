#pragma once
// One writer per output file. A process that writes a file (a run file, a sweep's CSV) first takes
// an exclusive advisory lock (flock) on a lock file beside it, PATH.lock, and writes into it who
// holds it: pid, host and start time, as one line of text. A second process that wants to write
// the same file finds the lock taken and stops at once, naming the holder. The kernel releases the
// lock when its holder ends, however it ends, so a lock left by a killed process (kill -9) blocks
// nobody: its stale text is simply replaced by the next holder's. The holder removes the lock file
// when it is done.

#include <string>

namespace sgx::cli {

// The lock file of path: path + ".lock".
std::string lock_path_for(const std::string& path);

class FileLock {
 public:
  // Takes the lock of path for this process. Throws StoreError (exit 1: the same command works
  // once the holder is done) when another process holds it, naming the holder, and when the lock
  // file cannot be created (a missing or read-only directory).
  explicit FileLock(const std::string& path);
  ~FileLock();
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

 private:
  std::string lock_path_;
  int fd_ = -1;
};

}  // namespace sgx::cli
