#pragma once
// What the tools check of a file they are told to write or to continue, before they compute
// anything: a run to resume must exist and hold the same game, and a new run or table never
// replaces work unasked. A run file may hold days of computing: without --resume, a file of sgx
// at the path (a run, finished or not, or a table) is replaced only with --overwrite, and a file
// that is not of sgx never (docs/FORMAT.md, "Resuming" and "One writer, and files that are not
// runs").

#include <stdexcept>
#include <string>

#include "sgx/store.hpp"

namespace sgx::cli {

// A file of sgx that a new run or table would replace, refused: nothing is wrong with the command
// as typed, but the file is worth more than it (exit 1). The message names what the file holds and
// the ways on.
class ExistingOutputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// --resume of a file that is not there (exit 2).
void refuse_missing_run(const std::string& path);

// The stored run to continue. Refused, and left as it is, when it does not exist or belongs to
// another game (exit 2), or cannot be trusted: damaged, truncated, another format version
// (StoreError, exit 1).
RunRecord load_run_to_resume(const std::string& path, const std::string& game);

// What a tool is about to write over a file: a run of a heap game, which --resume would continue
// if the file held the same game, or a two-dimensional table, which nothing continues.
struct NewOutput {
  std::string game;  // the canonical code, or the table's game ("wythoff")
  bool table = false;
  // The option that puts the output elsewhere, for the message: "--out", or sg_sweep's "--runs".
  std::string place_option = "--out";
};

// Lets a new output be written at path: when nothing is there, or when overwrite is given and the
// file is of sgx. Else refuses, leaving the file exactly as it is: a run or a table with
// ExistingOutputError, saying what it holds ("a finished run of 4!.0 (65536 values)") and the
// ways on; a file that is not of sgx, or too damaged to tell, with a UsageError whatever
// overwrite says.
void refuse_to_replace(const std::string& path, const NewOutput& output, bool overwrite);

}  // namespace sgx::cli
