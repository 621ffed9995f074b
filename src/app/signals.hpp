#pragma once
// Stopping a long run cleanly by signal: SIGINT (Ctrl-C), SIGTERM (kill, a batch system's time
// limit or cancel) and SIGUSR1 (Slurm's --signal=B:USR1@SECONDS, sent ahead of the time limit).
// The handler only records the signal; the run looks at it between engine steps, writes a
// checkpoint and exits. A second signal of the same kind ends the process at once (the default
// action), for an impatient second Ctrl-C: the last checkpoint on disk is safe either way.

#include <csignal>
#include <string>

namespace sgx::cli {

// Catches the stop signals for as long as it lives (one at a time in a process).
class StopSignals {
 public:
  StopSignals();
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  // The first stop signal received, or 0 if none has come.
  int received() const;

 private:
  struct sigaction previous_int_ {}, previous_term_ {}, previous_usr1_ {};
};

// "SIGINT", "SIGTERM", "SIGUSR1", or "signal N".
std::string signal_name(int signal);

// The exit status after a clean stop on signal, checkpoint written:
//   SIGUSR1  0    the checkpoint-and-stop request was carried out (a requeue script goes on)
//   SIGINT   130  and SIGTERM 143: 128 + the signal number, what a shell reports for a process
//                 ended by that signal, so scripts and make see that the run was interrupted
int exit_code_after_stop(int signal);

}  // namespace sgx::cli
