#include "sgx/bfile.hpp"

#include <charconv>
#include <cstring>
#include <filesystem>
#include <vector>

#include "base/atomic_file.hpp"

namespace sgx {

namespace {

[[noreturn]] void fail(const std::string& path, const std::string& why) {
  throw BfileError("cannot write the b-file " + path + ": " + why);
}

void append_number(std::string& out, std::uint64_t value) {
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, value).ptr;
  out.append(digits, end);
}

}  // namespace

void write_bfile(const std::string& path, const std::string& game, std::uint64_t n, const ValueReader& read,
                 const std::string& program) {
  if (std::filesystem::is_directory(path)) fail(path, "it is a directory");
  try {
    AtomicFile file(path);
    file.write("# G(n), n = 0.." + std::to_string(n == 0 ? 0 : n - 1) +
               ": the Sprague-Grundy values (nim-sequence) of the heap game " + game + "\n" +
               "# offset 0: the first line is G(0)\n" + "# written by sgx " + program + "\n");
    std::vector<Value> block(std::min(n, kValueReadBlock));
    std::string text;
    for (std::uint64_t from = 0; from < n; from += kValueReadBlock) {
      const std::uint64_t count = std::min(n - from, kValueReadBlock);
      read(from, from + count, block.data());
      text.clear();
      for (std::uint64_t i = 0; i < count; ++i) {
        append_number(text, from + i);
        text += ' ';
        append_number(text, block[i]);
        text += '\n';
      }
      file.write(text);
    }
    file.commit();
  } catch (const AtomicFileError& e) {
    fail(path, std::strerror(e.error()));
  }
}

}  // namespace sgx
