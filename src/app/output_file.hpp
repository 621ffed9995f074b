#pragma once
// What run_octal checks of the file it is told to write or to continue, before it computes
// anything: a run to resume must exist and hold the same game, and a new run must not replace a
// file that holds work (docs/FORMAT.md, "Resuming").

#include <string>

#include "sgx/store.hpp"

namespace sgx::cli {

// --resume of a file that is not there (exit 2).
void refuse_missing_run(const std::string& path);

// The stored run to continue. Refused, and left as it is, when it does not exist or belongs to
// another game (exit 2), or cannot be trusted: damaged, truncated, another format version
// (StoreError, exit 1).
RunRecord load_run_to_resume(const std::string& path, const std::string& game);

// A new run replaces the file at path if that is a finished run or a table. An unfinished run is
// refused (its values would be lost to a forgotten --resume), and so is anything that is not a
// file of this program, readable as such: another program's file, or one too damaged to tell.
void refuse_to_overwrite(const std::string& path, const std::string& game);

}  // namespace sgx::cli
