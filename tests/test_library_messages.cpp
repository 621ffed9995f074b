// The library speaks in facts, the tools in flags: no string literal of the library (src/ outside
// src/app/, and include/) names a command-line option such as --memory or --resume. The library's
// errors say what happened, with their numbers in typed errors where a caller may advise; the
// tools in src/app/ and the Python module give the advice in their own terms.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

bool identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The string literals of a C++ source, in order, as written between their quotes (escapes kept).
// Comments and character literals are skipped; a quote between digits is a digit separator.
std::vector<std::string> string_literals(const std::string& source) {
  std::vector<std::string> literals;
  const std::size_t size = source.size();
  std::size_t i = 0;
  while (i < size) {
    const char c = source[i];
    if (source.compare(i, 2, "//") == 0) {
      i = source.find('\n', i);
      if (i == std::string::npos) break;
    } else if (source.compare(i, 2, "/*") == 0) {
      i = source.find("*/", i + 2);
      if (i == std::string::npos) break;
      i += 2;
    } else if (c == 'R' && i + 1 < size && source[i + 1] == '"' &&
               (i == 0 || !identifier_char(source[i - 1]) || source[i - 1] == '8' || source[i - 1] == 'u' ||
                source[i - 1] == 'U' || source[i - 1] == 'L')) {
      const std::size_t open = source.find('(', i + 2);
      if (open == std::string::npos) break;
      // Built with append: GCC 12 warns falsely (-Wrestrict) on chains of "literal" + string.
      std::string close = ")";
      close.append(source, i + 2, open - i - 2).append("\"");
      const std::size_t end = source.find(close, open + 1);
      if (end == std::string::npos) break;
      literals.push_back(source.substr(open + 1, end - open - 1));
      i = end + close.size();
    } else if (c == '"' || (c == '\'' && (i == 0 || !std::isalnum(static_cast<unsigned char>(source[i - 1]))))) {
      std::size_t j = i + 1;
      while (j < size && source[j] != c) j += source[j] == '\\' ? 2 : 1;
      if (c == '"') literals.push_back(source.substr(i + 1, j - i - 1));
      i = j + 1;
    } else {
      ++i;
    }
  }
  return literals;
}

// The command-line options a text names: "--" and a lower-case word, not inside a longer word.
// (Scanned by hand: GCC 12's <regex> trips its own maybe-uninitialized warning under the
// sanitizers, and warnings are errors.)
std::vector<std::string> flags_named(const std::string& text) {
  auto is_lower = [](char c) { return c >= 'a' && c <= 'z'; };
  auto in_word = [&](char c) { return is_lower(c) || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-'; };
  std::vector<std::string> flags;
  for (std::size_t i = 0; i + 2 < text.size(); ++i) {
    if (text[i] != '-' || text[i + 1] != '-' || !is_lower(text[i + 2])) continue;
    if (i > 0 && in_word(text[i - 1])) continue;
    std::size_t end = i + 3;
    while (end < text.size() && (is_lower(text[end]) || (text[end] >= '0' && text[end] <= '9') || text[end] == '-')) ++end;
    flags.push_back(text.substr(i, end - i));
    i = end - 1;
  }
  return flags;
}

std::string read_source(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(LibraryMessages, TheScannerFindsFlagsInLiteralsOnly) {
  const std::string source = R"src(
    // a comment may name --memory
    /* and so may --resume here */
    const auto limit = 2'000'000;  char quote = '"';  char dash = '-';
    throw Error("keep within --memory");  // --n
    auto raw = R"x(give --from FILE)x";
    auto fine = "a well-known fact--without flags" "x-- y";
  )src";
  const std::vector<std::string> literals = string_literals(source);
  ASSERT_EQ(literals, (std::vector<std::string>{"keep within --memory", "give --from FILE",
                                                "a well-known fact--without flags", "x-- y"}));
  EXPECT_EQ(flags_named(literals[0]), std::vector<std::string>{"--memory"});
  EXPECT_EQ(flags_named(literals[1]), std::vector<std::string>{"--from"});
  EXPECT_TRUE(flags_named(literals[2]).empty());
  EXPECT_TRUE(flags_named(literals[3]).empty());
  EXPECT_EQ(flags_named("--n N --out FILE.h5"), (std::vector<std::string>{"--n", "--out"}));
}

TEST(LibraryMessages, NoLiteralOfTheLibraryNamesACommandLineFlag) {
  const fs::path root = SGX_SOURCE_DIR;
  std::size_t scanned = 0;
  for (const fs::path& top : {root / "src", root / "include"}) {
    for (const auto& entry : fs::recursive_directory_iterator(top)) {
      const fs::path& path = entry.path();
      if (!entry.is_regular_file()) continue;
      if (fs::relative(path, root / "src").native().starts_with("app/")) continue;  // the tools
      const std::string name = path.filename().string();
      if (!name.ends_with(".cpp") && !name.ends_with(".hpp") && !name.ends_with(".hpp.in")) continue;
      ++scanned;
      for (const std::string& literal : string_literals(read_source(path)))
        for (const std::string& flag : flags_named(literal))
          ADD_FAILURE() << fs::relative(path, root).string() << " names " << flag << " in \"" << literal
                        << "\": say what happened, and let the tool (src/app/) name its options";
    }
  }
  EXPECT_GT(scanned, 40u) << "the library's sources were not found under " << root;
}

}  // namespace
