#pragma once
// A run session's file, written as the run goes (RunFileSaver), with the statistics of the run so
// far, which its checkpoints and its final record share. Private to the session (run_session.hpp).

#include <chrono>
#include <cstdint>
#include <future>
#include <optional>
#include <string>

#include "sgx/engine.hpp"
#include "sgx/provenance.hpp"
#include "sgx/sequence.hpp"
#include "sgx/stats.hpp"
#include "sgx/store.hpp"

namespace sgx {

// Saves the run to its file as it goes (format version 3, RunFileWriter): each complete segment
// of values as soon as it is computed, and every so many seconds (and when stopped) the values
// since the last checkpoint with the record of the run, marked unfinished; at the end the finished
// run. Whatever happens during a save (a kill, a full disk), the file still holds the previous
// one; a failed save says what is safe. A run resumed from a version-2 file (a bounded run, its
// released values in no file) goes on writing whole version-2 files, as it began.
//
// While the engine computes, the writing is done by a writer thread, one write at a time (a
// checkpoint, or the segments completed since the last write), so that the engine does not wait
// for the disk. The writer reads the engine's own values, with no copy, through a PinnedValues
// taken when the write starts (sequence.hpp says why that is safe while the engine appends and
// widens). Between engine steps keep_up collects a finished write, rethrowing its error here on
// the main thread, and starts the next one that is due. What is on disk is only what finished
// writes put there: only that may be released (a bounded run), and only that is named in a failure's
// message; nor is a value the write under way reads released before it ends. A checkpoint on a
// stop, and the final save, wait for the write under way, and then for their own.
class RunFileSaver {
 public:
  // stretch: this stretch of the run as it starts (command, host, ..., first_n); splits: the
  // game's, for the statistics counted.
  RunFileSaver(const std::string& path, RunInfo stored, bool resume, double every_seconds, Provenance stretch,
               SplitTakeParity splits);

  // False for a run continued from a version-2 file: its released values are in no file.
  bool holds_every_value() const { return writer_.has_value(); }

  // n of the last checkpoint finished (or of the file resumed).
  std::uint64_t saved_n() const { return saved_n_; }

  // Values below this are on disk and not read by the write under way: a bounded engine may
  // release them.
  std::uint64_t release_limit() const;

  // Between engine steps: collects the write the writer thread finished, if any, and starts the
  // next one due (a checkpoint, or the segments completed since the last write); then lets the
  // engine release what is on disk. True when it finished a checkpoint.
  bool keep_up(Engine& engine, std::uint64_t target);

  // A checkpoint now, the engine stopped: after the write under way; returns once it is written.
  void checkpoint(const Engine& engine, std::uint64_t target);

  // The statistics of the values so far, for the finished run: the writes' counts carried on to n
  // (no second pass over the values), or with values released, the rare-value state's, as the
  // checkpoints have them. After the write under way.
  SparseStats final_stats(const Engine& engine);

  // The finished run; info_for(engine) with the final statistics and period filled in. Written
  // as every write is, and waited for.
  void finish(const RunInfo& info, const Sequence& values);

  // The record of the run to save: the stored one, with this stretch's row of /provenance when it
  // has computed anything.
  RunInfo info_for(const Engine& engine) const;

  // Whether this stretch of the run has computed a value. One that has not (a resume that only
  // looks) adds no row to /provenance: a stretch of 0 values says nothing.
  bool computed_any(const Engine& engine) const { return engine.values().size() > stretch_.first_n; }

  // This stretch of the run, up to now.
  Provenance stretch_so_far(const Engine& engine) const;

 private:
  // A write on the writer thread.
  struct Write {
    PinnedValues values;  // what it writes, readable until it is collected
    bool is_checkpoint;   // else the complete segments only
    // The values it reads lie in the prefix kept in memory and from here on.
    std::uint64_t reads_from;
    std::future<void> done;
  };

  bool checkpoint_due(const Engine& engine) const;
  // The record of the run so far, marked unfinished. Its statistics are counted on the writer
  // thread too, from the values added since the last write (counted_, touched by one write at a
  // time); with values released, /stats is the rare-value state's.
  void start_checkpoint(const Engine& engine, std::uint64_t target);
  // Starts job(values) on the writer thread.
  template <class Job>
  void start_write(const Sequence& values, bool is_checkpoint, Job job);
  // Waits for the write under way to end; its error, if any, is thrown here, saying what the file
  // still holds. True for a checkpoint.
  bool collect_write();
  void wait_for_write();
  // On the writer thread: counts the values not counted yet (counted_), and saves.
  void count(const ValuesView& values);
  void save(const RunInfo& info, const ValuesView& values);
  // Runs a write, or waits for one; a failure says what the file still holds.
  template <class Job>
  void guarded(Job job) const;

  std::string path_;
  RunInfo stored_;  // what stays the same from save to save: game, kernels of earlier sessions
  Provenance stretch_;
  std::optional<RunFileWriter> writer_;  // none for a run continued from a version-2 file
  std::uint64_t saved_n_ = 0;    // n of the last checkpoint finished
  std::uint64_t durable_n_ = 0;  // writer_->durable_n() as of the last write finished
  // The statistics and milestones of the values written, advanced by each write on the writer
  // thread, before it writes (none for a run continued from a version-2 file).
  std::optional<StatsCounter> counted_;
  double every_seconds_;
  std::chrono::steady_clock::time_point started_;
  std::chrono::steady_clock::time_point last_checkpoint_;  // when the last checkpoint began
  // The write under way on the writer thread. Declared after what it uses, so that it is destroyed
  // first: std::async's future waits for the thread.
  std::optional<Write> write_;
};

}  // namespace sgx
