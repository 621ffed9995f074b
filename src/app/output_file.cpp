#include "output_file.hpp"

#include <filesystem>
#include <system_error>

#include "cli.hpp"

namespace sgx::cli {

namespace fs = std::filesystem;

void refuse_missing_run(const std::string& path) {
  std::error_code error;
  if (!fs::exists(path, error))
    throw UsageError(path + " does not exist: there is no run to resume (leave out --resume to start one)");
}

RunRecord load_run_to_resume(const std::string& path, const std::string& game) {
  refuse_missing_run(path);
  RunRecord previous = read_run_file(path);
  if (previous.game != game)
    throw UsageError(path + " holds a run of " + previous.game + ", not " + game +
                     ": give the same game, or another --out");
  return previous;
}

void refuse_to_overwrite(const std::string& path, const std::string& game) {
  std::error_code error;
  if (!fs::exists(path, error)) return;
  RunStatus status;
  try {
    if (read_file_kind(path) == FileKind::Table) return;
    status = read_run_status(path);
  } catch (const StoreError& e) {
    throw UsageError(path + " exists and is not a run file of sgx, so it is left as it is (" + e.what() +
                     "): choose another --out, or delete the file");
  }
  if (status.complete) return;
  std::string message = path + " holds an unfinished run of " + status.game + " (" + std::to_string(status.n) +
                        " of " + std::to_string(status.target_n) + " values)";
  message += status.game == game ? ": continue it with --resume, or delete the file to start again"
                                 : ": choose another --out, or delete the file";
  throw UsageError(message);
}

}  // namespace sgx::cli
