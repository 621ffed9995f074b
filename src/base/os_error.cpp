#include "base/os_error.hpp"

#include <cctype>
#include <cstring>

namespace sgx {

std::string lowercase_first(std::string text) {
  if (text.size() > 1 && std::isupper(static_cast<unsigned char>(text[0])) &&
      std::islower(static_cast<unsigned char>(text[1])))
    text[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(text[0])));
  return text;
}

std::string os_reason(int error) { return lowercase_first(std::strerror(error)); }

}  // namespace sgx
