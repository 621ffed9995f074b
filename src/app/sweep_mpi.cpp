// The sweep across the ranks of an MPI job (built with -DSGX_WITH_MPI=ON).
//
// Protocol, all on MPI_COMM_WORLD:
//   1. rank 0 broadcasts the job (settings and games as text; empty text: nothing to do, exit);
//   2. each worker sends kTagReady, then after each game kTagRow (the n its run file was
//      continued from, a line break, and the row as a CSV line) or kTagFailed (the error message);
//   3. rank 0 answers every message with kTagWork (the index of the next game) or kTagStop.
// Only the main thread calls MPI (MPI_THREAD_FUNNELED); OpenMP threads stay inside a game.

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "cli.hpp"
#include "sweep_cluster.hpp"
#include "sgx/games.hpp"

namespace sgx::cli {

namespace {

constexpr int kTagReady = 1;
constexpr int kTagRow = 2;
constexpr int kTagFailed = 3;
constexpr int kTagWork = 4;
constexpr int kTagStop = 5;

// Texts are short (a job of a million games is a few megabytes), far below MPI's int counts.
int count_of(const std::string& text) {
  if (text.size() > static_cast<std::size_t>(INT32_MAX)) throw std::runtime_error("MPI message too long");
  return static_cast<int>(text.size());
}

void send_text(const std::string& text, int to, int tag) {
  MPI_Send(text.data(), count_of(text), MPI_CHAR, to, tag, MPI_COMM_WORLD);
}

// Receives the message that status describes (from MPI_Probe or MPI_Iprobe).
std::string receive_text(const MPI_Status& status) {
  int length = 0;
  MPI_Get_count(&status, MPI_CHAR, &length);
  std::string text(static_cast<std::size_t>(length), '\0');
  MPI_Recv(text.data(), length, MPI_CHAR, status.MPI_SOURCE, status.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return text;
}

// Rank 0's text reaches every rank: its length first, then the bytes.
void broadcast_text(std::string& text) {
  std::uint64_t length = text.size();
  MPI_Bcast(&length, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  text.resize(length);
  if (length > 0) MPI_Bcast(text.data(), count_of(text), MPI_CHAR, 0, MPI_COMM_WORLD);
}

// First line: the settings; second: the --runs directory (a path may hold spaces); third: the
// command line; then one game per line (games, paths and the command never hold a line break).
std::string encode_job(const SweepJob& job) {
  std::ostringstream out;
  out.precision(17);
  const SweepSettings& s = job.settings;
  out << s.n << ' ' << s.until_proven << ' ' << s.start << ' ' << s.cap << ' ' << s.max_seconds << ' '
      << s.checkpoint_every << ' ' << s.threads << ' ' << s.replace_runs << '\n'
      << s.runs << '\n'
      << s.command << '\n';
  for (const SweepGame& game : job.games) out << game.text << '\n';
  return out.str();
}

SweepJob decode_job(const std::string& text) {
  std::istringstream in(text);
  SweepJob job;
  SweepSettings& s = job.settings;
  in >> s.n >> s.until_proven >> s.start >> s.cap >> s.max_seconds >> s.checkpoint_every >> s.threads >> s.replace_runs;
  in.ignore(1);
  std::getline(in, s.runs);
  std::getline(in, s.command);
  // Each rank parses the games once, as the master did: the rules travel as their text.
  for (std::string game; std::getline(in, game);) job.games.push_back({game, parse_heap_game(game)});
  return job;
}

// The next message for rank 0 from any worker. Open MPI's blocking receive keeps a core busy while
// it waits; the master has nothing else to do, so it polls and sleeps, leaving the core to the
// workers. The sleep stays short next to any game worth sending to another rank.
MPI_Status wait_for_message() {
  auto pause = std::chrono::microseconds(100);
  for (;;) {
    int arrived = 0;
    MPI_Status status;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &arrived, &status);
    if (arrived) return status;
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(20000));
  }
}

// A row and the n its run file was continued from, which the CSV line does not hold.
std::string encode_row(const SweepRow& row) { return std::to_string(row.resumed_from) + "\n" + to_csv_line(row); }

SweepRow decode_row(const std::string& text) {
  const std::size_t end = text.find('\n');
  SweepRow row = parse_csv_line(std::string_view(text).substr(end + 1));
  row.resumed_from = std::stoull(text.substr(0, end));
  return row;
}

void send_index(std::uint64_t index, int to) { MPI_Send(&index, 1, MPI_UINT64_T, to, kTagWork, MPI_COMM_WORLD); }

}  // namespace

Cluster::Cluster(int& argc, char**& argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks_);
}

Cluster::~Cluster() { MPI_Finalize(); }

void Cluster::run(const SweepJob& job, const std::vector<std::size_t>& pending, const RowHandler& on_row) {
  running_ = true;
  std::string text = encode_job(job);
  broadcast_text(text);
  job_sent_ = true;
  if (ranks_ == 1) {
    sweep_locally(job, pending, on_row);
    running_ = false;
    return;
  }
  std::vector<std::size_t> working_on(static_cast<std::size_t>(ranks_), 0);
  std::size_t next = 0;
  for (int active = ranks_ - 1; active > 0;) {
    const MPI_Status status = wait_for_message();
    const std::string message = receive_text(status);
    const std::size_t worker = static_cast<std::size_t>(status.MPI_SOURCE);
    if (status.MPI_TAG == kTagFailed) {
      std::string what = job.games[working_on[worker]].text;
      what.append(": ").append(message);
      throw std::runtime_error(what);
    }
    if (status.MPI_TAG == kTagRow) on_row(working_on[worker], decode_row(message));
    if (next < pending.size()) {
      working_on[worker] = pending[next++];
      send_index(working_on[worker], status.MPI_SOURCE);
    } else {
      send_text("", status.MPI_SOURCE, kTagStop);
      --active;
    }
  }
  running_ = false;
}

int Cluster::serve() {
  std::string text;
  broadcast_text(text);
  if (text.empty()) return kExitOk;
  const SweepJob job = decode_job(text);
  send_text("", 0, kTagReady);
  for (;;) {
    MPI_Status status;
    MPI_Probe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
    if (status.MPI_TAG == kTagStop) {
      receive_text(status);
      return kExitOk;
    }
    std::uint64_t index = 0;
    MPI_Recv(&index, 1, MPI_UINT64_T, 0, kTagWork, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    try {
      send_text(encode_row(sweep_game(job.games.at(index), job.settings)), 0, kTagRow);
    } catch (const std::exception& e) {
      send_text(e.what(), 0, kTagFailed);  // rank 0 reports it and stops the job
    }
  }
}

void Cluster::finish(int exit_code) {
  if (!job_sent_) {
    std::string nothing;
    broadcast_text(nothing);
    job_sent_ = true;
  }
  // Part-way through, the other ranks are computing games nobody will collect: stop them all.
  if (running_ && ranks_ > 1) MPI_Abort(MPI_COMM_WORLD, exit_code == kExitOk ? kExitFailure : exit_code);
}

}  // namespace sgx::cli
