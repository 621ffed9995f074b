#pragma once
// The processes one sweep runs on.
//
// Built with MPI (-DSGX_WITH_MPI=ON, sweep_mpi.cpp), every rank of the job takes part: rank 0, the
// master, reads the games, hands them out one at a time to whichever rank asks (game costs differ
// by many orders of magnitude, so a rank asks for the next game when it finishes one) and writes
// the rows as they come back; the other ranks compute, each game with all its OpenMP threads.
// Built without MPI (sweep_local.cpp), or run as a single rank, one process does it all.
// The rows are the same either way: only the order in which games finish differs.

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "sgx/sweep.hpp"

namespace sgx::cli {

struct SweepJob {
  std::vector<SweepGame> games;
  SweepSettings settings;
};

// Called on the master for each finished game, in the order the games finish.
using RowHandler = std::function<void(std::size_t index, const SweepRow& row)>;

// The games at the indices pending, one after another in this process.
inline void sweep_locally(const SweepJob& job, const std::vector<std::size_t>& pending, const RowHandler& on_row) {
  for (std::size_t index : pending) on_row(index, sweep_game(job.games[index], job.settings));
}

class Cluster {
 public:
  // Starts MPI when built with it (MPI may take its own options out of argc/argv).
  Cluster(int& argc, char**& argv);
  ~Cluster();
  Cluster(const Cluster&) = delete;
  Cluster& operator=(const Cluster&) = delete;

  bool is_master() const { return rank_ == 0; }
  int ranks() const { return ranks_; }

  // Master: computes the games at the indices pending across the ranks, calling on_row as each
  // finishes. Call at most once.
  void run(const SweepJob& job, const std::vector<std::size_t>& pending, const RowHandler& on_row);
  // Other ranks: wait for the master's job and compute what it hands out. Returns the exit code.
  int serve();
  // Master, last: lets the other ranks go when run was never called (help, an input error), and
  // stops the whole job when run failed part-way (the rows written so far stay in the table).
  void finish(int exit_code);

 private:
  int rank_ = 0;
  int ranks_ = 1;
  bool job_sent_ = false;
  bool running_ = false;  // inside run: set when it starts, cleared when it returns normally
};

}  // namespace sgx::cli
