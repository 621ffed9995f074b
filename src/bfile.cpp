#include "sgx/bfile.hpp"

#include <charconv>
#include <cstring>
#include <filesystem>

#include "atomic_file.hpp"

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

void write_bfile(const std::string& path, const std::string& game, const Sequence& values,
                 const std::string& program) {
  const std::uint64_t n = values.size();
  if (values.has_released())
    fail(path, "G(" + std::to_string(values.prefix_end()) + ".." + std::to_string(values.tail_start() - 1) +
                   ") were released to stay within a memory bound, and a b-file lists every value");
  if (std::filesystem::is_directory(path)) fail(path, "it is a directory");
  try {
    AtomicFile file(path);
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
  } catch (const AtomicFileError& e) {
    fail(path, std::strerror(e.error()));
  }
}

}  // namespace sgx
