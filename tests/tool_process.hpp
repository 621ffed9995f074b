#pragma once
// Running a tool from the build tree as a process of its own, for tests that must signal it,
// kill it or run two at once: fork/exec with stdout and stderr to files, then wait.

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "sgx/store.hpp"
#include "tool_test.hpp"

namespace sgx::testing {

// How a tool run ended.
struct Ending {
  bool exited = false;  // false: ended by a signal
  int code = -1;        // exit status, or the signal
  std::string out, err;
  double seconds = 0;
};

// One run of a tool from the build tree, in its own process, in directory dir; stdout and stderr
// go to files under dir/logs. environment ("NAME=value") comes before the test's own.
class Process {
 public:
  Process(const std::string& tool, const std::vector<std::string>& args, const std::filesystem::path& dir,
          std::vector<std::string> environment = {})
      : out_(dir / "logs" / "stdout"), err_(dir / "logs" / "stderr"), started_(std::chrono::steady_clock::now()) {
    std::filesystem::create_directories(dir / "logs");
    const std::string program = std::string(SGX_BIN_DIR) + "/" + tool;
    std::vector<std::string> words{program};
    words.insert(words.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& word : words) argv.push_back(word.data());
    argv.push_back(nullptr);
    for (char** variable = environ; *variable; ++variable) environment.emplace_back(*variable);
    std::vector<char*> envp;
    for (auto& variable : environment) envp.push_back(variable.data());
    envp.push_back(nullptr);
    const std::string where = dir.string(), out = out_.string(), err = err_.string();
    pid_ = ::fork();
    if (pid_ == 0) {  // only async-signal-safe calls from here to exec
      int in_fd = ::open("/dev/null", O_RDONLY);
      int out_fd = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      int err_fd = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (in_fd < 0 || out_fd < 0 || err_fd < 0 || ::chdir(where.c_str()) != 0) ::_exit(126);
      ::dup2(in_fd, 0);
      ::dup2(out_fd, 1);
      ::dup2(err_fd, 2);
      ::execve(program.c_str(), argv.data(), envp.data());
      ::_exit(127);
    }
  }
  Process(const Process&) = delete;
  Process& operator=(const Process&) = delete;
  ~Process() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }

  pid_t pid() const { return pid_; }
  void send(int signal) const { ::kill(pid_, signal); }

  bool catches(int signal) const {
    std::ifstream status("/proc/" + std::to_string(pid_) + "/status");
    for (std::string line; std::getline(status, line);)
      if (line.rfind("SigCgt:", 0) == 0) return (std::stoull(line.substr(7), nullptr, 16) >> (signal - 1)) & 1;
    return false;
  }

  // Waits until the process has a handler for signal (Linux: SigCgt in /proc/PID/status), so a
  // signal sent afterwards meets the handler, not the default action. False if it ended first.
  bool wait_until_it_catches(int signal) const {
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (std::chrono::steady_clock::now() < give_up) {
      if (catches(signal)) return true;
      siginfo_t info{};
      if (::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid_)
        return false;  // it has ended
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return false;
  }

  // Whether it has ended (it is still waited for by wait()).
  bool has_ended() const {
    siginfo_t info{};
    return ::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid_;
  }

  Ending wait() {
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
    Ending ending;
    ending.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    ending.exited = WIFEXITED(status);
    ending.code = ending.exited ? WEXITSTATUS(status) : WTERMSIG(status);
    ending.out = read_file(out_);
    ending.err = read_file(err_);
    return ending;
  }

 private:
  pid_t pid_ = -1;
  std::filesystem::path out_, err_;
  std::chrono::steady_clock::time_point started_;
};

// Watches the run file at path while process (a run_octal writing it) runs, and kills the process
// with SIGKILL as soon as the file holds an unfinished checkpoint that meets when. False when the
// run finished, or ended, first.
inline bool kill_at_checkpoint(Process& process, const std::string& path,
                               const std::function<bool(const RunStatus&)>& when) {
  for (;;) {
    try {
      const RunStatus status = read_run_status(path);
      if (status.complete) return false;
      if (when(status)) {
        process.send(SIGKILL);
        return true;
      }
    } catch (const StoreError&) {
      // not written yet, or being replaced
    }
    if (process.has_ended()) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

inline std::string describe(const Ending& e) {
  std::string text = e.exited ? "exit " + std::to_string(e.code) : "signal " + std::to_string(e.code);
  return text.append(", stderr: ").append(e.err);
}

}  // namespace sgx::testing
