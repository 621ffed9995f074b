#include "output_file.hpp"

#include <filesystem>
#include <system_error>

#include "cli.hpp"

namespace sgx::cli {

namespace fs = std::filesystem;

namespace {

// What a file of sgx holds, in a few words for a message, and whether it is of the output's kind
// and game (a run of the same game is what --resume continues).
struct HeldWork {
  std::string text;
  bool same = false;
};

HeldWork held_work(const std::string& path, const NewOutput& output) {
  if (read_file_kind(path) == FileKind::Table) {
    const TableStatus table = read_table_status(path);
    return {"the table of " + table.game + " (N = " + std::to_string(table.n) + ")",
            output.table && table.game == output.game};
  }
  const RunStatus run = read_run_status(path);
  const std::string size = run.complete ? std::to_string(run.n) + " values"
                                        : std::to_string(run.n) + " of " + std::to_string(run.target_n) + " values";
  return {std::string(run.complete ? "a finished" : "an unfinished") + " run of " + run.game + " (" + size + ")",
          !output.table && run.game == output.game};
}

}  // namespace

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

void refuse_to_replace(const std::string& path, const NewOutput& output, bool overwrite) {
  std::error_code error;
  if (!fs::exists(path, error)) return;
  HeldWork held;
  try {
    held = held_work(path, output);
  } catch (const StoreError& e) {
    throw UsageError(path + " exists and is not a run file of sgx, so it is left as it is (" + e.what() +
                     "): choose another " + output.place_option + ", or delete the file");
  }
  if (overwrite) return;
  // A run of the same game continues with --resume; anything else --resume would refuse.
  if (held.same && !output.table)
    throw ExistingOutputError(path + " holds " + held.text + ": continue or extend it with --resume, or replace it "
                              "with --overwrite");
  if (held.same)
    throw ExistingOutputError(path + " holds " + held.text + ": replace it with --overwrite, or choose another " +
                              output.place_option);
  const std::string writing = output.table ? "the table of " + output.game : "a run of " + output.game;
  throw ExistingOutputError(path + " holds " + held.text + ", not " + writing + ": replace it with --overwrite, or "
                            "choose another " + output.place_option);
}

}  // namespace sgx::cli
