#pragma once
// Files replaced atomically: written under a temporary name beside the target, flushed to disk,
// then renamed over the target, so that a crash at any instant leaves the old file or the whole
// new one under the final name, never a part of one. Run files, table files, b-files and sweep
// tables are all written this way.

#include <stdexcept>
#include <string>
#include <string_view>

namespace sgx {

// A step of writing an AtomicFile that failed, with the system's error number. what() is the
// system's reason (os_reason); each caller words its own message around it.
class AtomicFileError : public std::runtime_error {
 public:
  enum class Step { Create, Write, Flush, Rename };
  AtomicFileError(Step step, std::string temporary_path, int error);
  Step step() const { return step_; }
  const std::string& temporary_path() const { return temporary_path_; }
  int error() const { return error_; }

 private:
  Step step_;
  std::string temporary_path_;
  int error_;
};

// The name a file has while it is written: <path>.tmp-<pid>, so that processes writing the same
// target never write the same temporary file.
std::string temporary_path_for(const std::string& path);

// The file at path, being written. Nothing appears under path until commit(); a file that is
// destroyed uncommitted (an error was thrown) is removed.
class AtomicFile {
 public:
  // Creates the temporary file (a leftover of a crashed process that had our pid is replaced).
  explicit AtomicFile(std::string path);
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  ~AtomicFile();

  void write(std::string_view bytes);
  // The bytes on disk first, then under their name; then the rename itself made durable.
  void commit();

 private:
  std::string path_;
  std::string temporary_path_;
  int fd_ = -1;
  bool committed_ = false;
};

// Writes all of bytes to fd, resuming after interruptions and short writes. Returns 0, or the
// error number of the write that failed.
int write_fully(int fd, std::string_view bytes);

// Makes a new or renamed directory entry for path durable. Failure is not reported: the file is
// whole either way, and at worst a power cut brings back the previous state of the directory.
void sync_directory_of(const std::string& path);

}  // namespace sgx
