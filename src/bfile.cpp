#include "sgx/bfile.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>

namespace sgx {

namespace {

[[noreturn]] void fail(const std::string& path, const std::string& why) {
  throw BfileError("cannot write the b-file " + path + ": " + why);
}

// The open temporary file; removed unless it was renamed into place.
class TemporaryFile {
 public:
  TemporaryFile(std::string final_path)
      : final_path_(std::move(final_path)), path_(final_path_ + ".tmp-" + std::to_string(::getpid())) {
    fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd_ < 0) fail(final_path_, std::strerror(errno));
  }
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;
  ~TemporaryFile() {
    if (fd_ >= 0) ::close(fd_);
    if (!renamed_) ::unlink(path_.c_str());
  }

  void write(const std::string& text) {
    for (std::size_t done = 0; done < text.size();) {
      const ssize_t wrote = ::write(fd_, text.data() + done, text.size() - done);
      if (wrote < 0 && errno == EINTR) continue;
      if (wrote < 0) fail(final_path_, std::strerror(errno));
      done += static_cast<std::size_t>(wrote);
    }
  }

  // On disk first, then under its name: a crash leaves the old file or the whole new one.
  void commit() {
    if (::fsync(fd_) != 0) fail(final_path_, std::strerror(errno));
    const int closed = ::close(fd_);
    fd_ = -1;
    if (closed != 0) fail(final_path_, std::strerror(errno));
    if (::rename(path_.c_str(), final_path_.c_str()) != 0) fail(final_path_, std::strerror(errno));
    renamed_ = true;
  }

 private:
  std::string final_path_;
  std::string path_;
  int fd_ = -1;
  bool renamed_ = false;
};

void append_number(std::string& out, std::uint64_t value) {
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, value).ptr;
  out.append(digits, end);
}

}  // namespace

void write_bfile(const std::string& path, const std::string& game, const Sequence& values,
                 const std::string& program) {
  const std::uint64_t n = values.size();
  if (values.has_released())
    fail(path, "G(" + std::to_string(values.prefix_end()) + ".." + std::to_string(values.tail_start() - 1) +
                   ") were released to stay within a memory bound, and a b-file lists every value");
  if (std::filesystem::is_directory(path)) fail(path, "it is a directory");
  TemporaryFile file(path);
  std::string text = "# G(n), n = 0.." + std::to_string(n == 0 ? 0 : n - 1) +
                     ": the Sprague-Grundy values (nim-sequence) of the heap game " + game + "\n" +
                     "# offset 0: the first line is G(0)\n" + "# written by sgx " + program + "\n";
  for (std::uint64_t i = 0; i < n; ++i) {
    append_number(text, i);
    text += ' ';
    append_number(text, values[i]);
    text += '\n';
    if (text.size() >= (std::size_t{1} << 20)) {
      file.write(text);
      text.clear();
    }
  }
  file.write(text);
  file.commit();
}

}  // namespace sgx
