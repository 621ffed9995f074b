#pragma once
// Writing run files (include/sgx/store.hpp): what the library keeps to itself.

#include <string>

#include "sgx/store.hpp"

namespace sgx::detail {

// write_run_file, but stamping another format_version: lets tests check that files of other
// versions are refused. Not for normal use.
void write_run_file_as_version(const std::string& path, const RunRecord& record, int format_version);

}  // namespace sgx::detail
