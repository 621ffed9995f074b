#include "engine/run_file_saver.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <limits>
#include <utility>

#include "sgx/version.hpp"

namespace sgx {

namespace {

// User and system CPU seconds of the process so far, all threads.
double cpu_seconds() {
  struct rusage usage {};
  if (::getrusage(RUSAGE_SELF, &usage) != 0) return 0;
  auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

// The statistics of a run whose values are released: from the rare-value state the engine kept
// (its mask may be an earlier choice rather than the best one), as the released values are not
// in memory to count.
SparseStats stats_of_kept_state(const Engine& engine) {
  const SparseState state = *engine.sparse_state();
  SparseStats stats;
  stats.rare_mask = state.mask;
  // Counted from the histograms: games without two-heap splits list no rare positions.
  stats.rare_count = rare_count_of(state.histogram, state.odd_histogram, state.mask);
  stats.last_rare = state.rare_positions.empty() ? -1 : static_cast<std::int64_t>(state.rare_positions.back());
  stats.max_value = state.max_value;
  stats.max_at = state.max_at;
  stats.histogram = state.histogram;
  return stats;
}

}  // namespace

RunFileSaver::RunFileSaver(const std::string& path, RunInfo stored, bool resume, double every_seconds,
                           Provenance stretch, SplitTakeParity splits)
    : path_(path), stored_(std::move(stored)), stretch_(std::move(stretch)), every_seconds_(every_seconds),
      started_(std::chrono::steady_clock::now()), last_checkpoint_(started_) {
  if (resume && !read_run_status(path).holds_every_value()) {
    saved_n_ = read_run_status(path).n;
    return;
  }
  writer_.emplace(resume ? RunFileWriter::resume(path) : RunFileWriter::start(path, stored_.game));
  saved_n_ = writer_->saved_n();
  durable_n_ = writer_->durable_n();
  if (stored_.counter) {
    counted_ = StatsCounter(*std::move(stored_.counter), splits);
  } else if (resume && read_run_status(path).has_released()) {
    // Written before runs kept their counts: the released values are counted again from the file.
    counted_ = count_values(saved_n_, run_file_reader(path), splits);
  } else {
    counted_ = StatsCounter(splits);  // the values in memory are counted at the first write
  }
  stored_.counter.reset();
}

std::uint64_t RunFileSaver::release_limit() const {
  const std::uint64_t on_disk = writer_ ? durable_n_ : std::numeric_limits<std::uint64_t>::max();
  return write_ ? std::min(on_disk, write_->reads_from) : on_disk;
}

template <class Job>
void RunFileSaver::start_write(const Sequence& values, bool is_checkpoint, Job job) {
  // A whole file (version 2) takes every value kept.
  const std::uint64_t reads_from =
      writer_ ? writer_->first_value_read(values) : values.has_released() ? values.tail_start() : 0;
  // Every write counts the values it has not counted yet: they must still be in memory.
  write_.emplace(PinnedValues(values), is_checkpoint,
                 counted_ ? std::min(reads_from, counted_->counted()) : reads_from);
  write_->done = std::async(std::launch::async, [job = std::move(job), &view = write_->values.view()]() mutable {
    job(view);
  });
}

template <class Job>
void RunFileSaver::guarded(Job job) const {
  try {
    job();
  } catch (const StoreError& e) {
    std::string message = e.what();
    message += saved_n_ > 0 ? "; " + path_ + " still holds the " + std::to_string(saved_n_) + " values saved before"
                            : "; no values were saved";
    throw StoreError(message);
  }
}

bool RunFileSaver::keep_up(Engine& engine, std::uint64_t target) {
  bool checkpointed = false;
  if (write_ && write_->done.wait_for(std::chrono::seconds(0)) == std::future_status::ready)
    checkpointed = collect_write();
  if (!write_) {
    if (checkpoint_due(engine))
      start_checkpoint(engine, target);
    else if (writer_ && writer_->has_complete_segment(engine.values().size()))
      start_write(engine.values(), false, [this](const ValuesView& values) {
        count(values);
        writer_->write_complete_segments(values);
      });
  }
  engine.set_release_limit(release_limit());
  return checkpointed;
}

void RunFileSaver::checkpoint(const Engine& engine, std::uint64_t target) {
  wait_for_write();
  if (engine.values().size() != saved_n_) {  // else the file holds these values already
    start_checkpoint(engine, target);
    wait_for_write();
  }
}

SparseStats RunFileSaver::final_stats(const Engine& engine) {
  wait_for_write();
  if (engine.values().has_released()) return stats_of_kept_state(engine);
  count(engine.values());
  return counted_->stats();
}

void RunFileSaver::finish(const RunInfo& info, const Sequence& values) {
  wait_for_write();
  start_write(values, true, [this, info = info](const ValuesView& view) mutable {
    count(view);
    if (counted_) info.counter = counted_->state();
    save(info, view);
  });
  wait_for_write();
}

RunInfo RunFileSaver::info_for(const Engine& engine) const {
  RunInfo info = stored_;
  info.engine = merge_kernel_names(stored_.engine, engine.kernels_used());
  info.program_version = kVersion;
  info.sparse_state.reset();
  if (engine.values().has_released()) info.sparse_state = engine.sparse_state();
  if (computed_any(engine)) info.provenance.push_back(stretch_so_far(engine));
  return info;
}

Provenance RunFileSaver::stretch_so_far(const Engine& engine) const {
  return sgx::stretch_so_far(stretch_, engine.values().size(),
                             std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count(),
                             cpu_seconds());
}

bool RunFileSaver::checkpoint_due(const Engine& engine) const {
  return every_seconds_ > 0 && engine.values().size() != saved_n_ &&
         std::chrono::duration<double>(std::chrono::steady_clock::now() - last_checkpoint_).count() >= every_seconds_;
}

void RunFileSaver::start_checkpoint(const Engine& engine, std::uint64_t target) {
  // With values released the statistics are the rare-value state's, whose mask the run keeps. (A
  // run without counts, continued from a version-2 file, has its values released.)
  const bool stats_from_counter = !engine.values().has_released();
  RunInfo info = info_for(engine);
  info.complete = false;
  info.target_n = target;
  if (!stats_from_counter) info.stats = stats_of_kept_state(engine);
  info.period = engine.proven_period().value_or(PeriodResult{});
  start_write(engine.values(), true,
              [this, info = std::move(info), stats_from_counter](const ValuesView& values) mutable {
                count(values);
                if (counted_) info.counter = counted_->state();
                if (stats_from_counter) info.stats = counted_->stats();
                save(info, values);
              });
  last_checkpoint_ = std::chrono::steady_clock::now();
}

void RunFileSaver::count(const ValuesView& values) {
  if (counted_) counted_->add(values, values.size());
}

bool RunFileSaver::collect_write() {
  const bool is_checkpoint = write_->is_checkpoint;
  const std::uint64_t n = write_->values.view().size();
  try {
    guarded([&] { write_->done.get(); });
  } catch (...) {
    write_.reset();
    throw;
  }
  write_.reset();  // unpins the values
  if (writer_) durable_n_ = writer_->durable_n();
  if (is_checkpoint) saved_n_ = n;
  return is_checkpoint;
}

void RunFileSaver::wait_for_write() {
  if (write_) collect_write();
}

void RunFileSaver::save(const RunInfo& info, const ValuesView& values) {
  if (writer_)
    writer_->save(info, values);
  else
    write_run_file(path_, info, values);
}

}  // namespace sgx
