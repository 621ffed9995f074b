#pragma once
// System errors in the words of this project's messages, which continue after a colon:
// "cannot write out.h5: no space left on device".

#include <string>

namespace sgx {

// text with its first letter lowercased when it begins an ordinary word ("No space" -> "no space");
// a word in capitals ("HDF5") stays as it is.
std::string lowercase_first(std::string text);

// strerror(error), as lowercase_first gives it.
std::string os_reason(int error);

}  // namespace sgx
