#include "signals.hpp"

namespace sgx::cli {

namespace {

volatile std::sig_atomic_t stop_signal = 0;

void record_stop_signal(int signal) {
  if (stop_signal == 0) stop_signal = signal;
}

void catch_signal(int signal, struct sigaction& previous) {
  struct sigaction action {};
  action.sa_handler = record_stop_signal;
  sigemptyset(&action.sa_mask);
  // SA_RESETHAND: the second signal of a kind takes the default action (ends the process).
  // SA_RESTART: system calls under way (a checkpoint being written) go on instead of failing.
  action.sa_flags = SA_RESETHAND | SA_RESTART;
  sigaction(signal, &action, &previous);
}

}  // namespace

StopSignals::StopSignals() {
  stop_signal = 0;
  catch_signal(SIGINT, previous_int_);
  catch_signal(SIGTERM, previous_term_);
  catch_signal(SIGUSR1, previous_usr1_);
}

StopSignals::~StopSignals() {
  sigaction(SIGINT, &previous_int_, nullptr);
  sigaction(SIGTERM, &previous_term_, nullptr);
  sigaction(SIGUSR1, &previous_usr1_, nullptr);
}

int StopSignals::received() const { return stop_signal; }

std::string signal_name(int signal) {
  switch (signal) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    case SIGUSR1: return "SIGUSR1";
  }
  return "signal " + std::to_string(signal);
}

int exit_code_after_stop(int signal) { return signal == SIGUSR1 ? 0 : 128 + signal; }

}  // namespace sgx::cli
