#pragma once
// OEIS b-files: a nim-sequence as "n G(n)" lines (https://oeis.org/wiki/B-files), for submitting a
// sequence to the OEIS or comparing with one there.

#include <stdexcept>
#include <string>

#include "sgx/sequence.hpp"

namespace sgx {

// The file could not be written; the message names it and says why. Nothing is left under its
// name: an earlier file there is kept as it was.
class BfileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Writes G(0..n-1), read a block at a time through read (held_or_released in sequence.hpp, or
// run_file_reader in store.hpp), to path, one "n G(n)" line each, after '#' comment lines naming the
// game, the offset (0: the first line is G(0)) and the program (e.g. "run_octal 1.4.0"). The file
// is written beside path and renamed into place, so a reader never sees half of it.
void write_bfile(const std::string& path, const std::string& game, std::uint64_t n, const ValueReader& read,
                 const std::string& program);

}  // namespace sgx
