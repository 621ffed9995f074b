#include "progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "cli.hpp"
#include "memory.hpp"
#include "base/tuning.hpp"

namespace sgx::cli {

namespace {
constexpr auto kRefresh = std::chrono::milliseconds(tuning::kStatusRefreshMilliseconds);

std::string duration_text(double seconds) {
  const long s = static_cast<long>(seconds);
  char buf[32];
  if (s < 60)
    std::snprintf(buf, sizeof buf, "%lds", s);
  else if (s < 3600)
    std::snprintf(buf, sizeof buf, "%ldm%02lds", s / 60, s % 60);
  else
    std::snprintf(buf, sizeof buf, "%ldh%02ldm", s / 3600, (s / 60) % 60);
  return buf;
}

// Values per second and seconds left, from done values of total in elapsed seconds (started
// from first), for work that grows as the values do (a table's cells).
struct Pace {
  double rate = 0;
  double remaining = 0;
};
Pace pace_of(std::uint64_t first, std::uint64_t done, std::uint64_t total, double elapsed) {
  Pace pace;
  if (elapsed > 0 && done > first) pace.rate = static_cast<double>(done - first) / elapsed;
  if (pace.rate > 0 && total > done) pace.remaining = static_cast<double>(total - done) / pace.rate;
  return pace;
}

std::string left_text(double seconds) { return seconds < 0 ? "unknown" : duration_text(seconds); }
}  // namespace

double work_to(KernelKind kernel, std::uint64_t n) {
  const auto heaps = static_cast<double>(n);
  return kernel == KernelKind::Sparse ? heaps : heaps * heaps / 2;
}

double WorkClock::seconds_left(const Progress& progress, double elapsed) {
  if (!started_ || progress.kernel != kernel_ || progress.n < n0_) {
    started_ = true;
    kernel_ = progress.kernel;
    n0_ = progress.n;
    t0_ = elapsed;
  }
  const double done = work_to(kernel_, progress.n) - work_to(kernel_, n0_);
  if (done <= 0 || elapsed <= t0_) return progress.n >= progress.target ? 0 : -1;
  const double left = std::max(0.0, work_to(kernel_, progress.target) - work_to(kernel_, progress.n));
  return left * (elapsed - t0_) / done;
}

StatusLine::StatusLine(bool wanted)
    : enabled_(wanted && isatty(STDERR_FILENO)), start_(std::chrono::steady_clock::now()), last_(start_) {}

bool StatusLine::due() {
  if (!enabled_) return false;
  auto now = std::chrono::steady_clock::now();
  if (now - last_ < kRefresh) return false;
  last_ = now;
  return true;
}

void StatusLine::show(const char* what, const char* unit, std::uint64_t done, std::uint64_t total, double left,
                      const std::string& extra) {
  const double elapsed = std::chrono::duration<double>(last_ - start_).count();
  const Pace pace = pace_of(0, done, total, elapsed);
  const double percent = total ? 100.0 * static_cast<double>(done) / static_cast<double>(total) : 0;
  std::fprintf(stderr, "\r\033[K %s %llu/%llu (%.1f%%)  %.3g %s/s  elapsed %s  left %s%s", what,
               static_cast<unsigned long long>(done), static_cast<unsigned long long>(total), percent, pace.rate, unit,
               duration_text(elapsed).c_str(), left_text(left).c_str(), extra.c_str());
  std::fflush(stderr);
  shown_ = true;
}

void StatusLine::update(const Progress& p) {
  if (!due()) return;
  char extra[64];
  std::snprintf(extra, sizeof extra, "  largest %u  rare %llu", p.max_value, static_cast<unsigned long long>(p.rare_count));
  const double left = clock_.seconds_left(p, std::chrono::duration<double>(last_ - start_).count());
  show("n", "values", p.n, p.target, left, note_.empty() ? std::string(extra) : extra + ("  " + note_));
}

void StatusLine::update_cells(std::uint64_t done, std::uint64_t total) {
  if (!due()) return;
  const Pace pace = pace_of(0, done, total, std::chrono::duration<double>(last_ - start_).count());
  show("cells", "cells", done, total, pace.rate > 0 ? pace.remaining : -1, "");
}

void StatusLine::finish() {
  if (shown_) {
    std::fprintf(stderr, "\r\033[K");
    std::fflush(stderr);
    shown_ = false;
  }
}

ProgressLog::ProgressLog(const char* tool, bool wanted, double every_seconds, std::string file, std::uint64_t first_n)
    : tool_(tool),
      enabled_(wanted && !isatty(STDERR_FILENO)),
      every_seconds_(every_seconds),
      file_(std::move(file)),
      first_n_(first_n),
      start_(std::chrono::steady_clock::now()),
      last_(start_) {}

void ProgressLog::update(const Progress& progress) {
  if (!enabled_ || every_seconds_ <= 0) return;
  if (std::chrono::duration<double>(std::chrono::steady_clock::now() - last_).count() < every_seconds_) return;
  write(progress, "");
}

void ProgressLog::checkpoint(const Progress& progress, std::uint64_t saved_n) {
  if (enabled_) write(progress, "  checkpoint of " + std::to_string(saved_n) + " values");
}

void ProgressLog::write(const Progress& progress, const std::string& event) {
  ++lines_;
  last_ = std::chrono::steady_clock::now();
  const double elapsed = std::chrono::duration<double>(last_ - start_).count();
  const Pace pace = pace_of(first_n_, progress.n, progress.target, elapsed);
  const double left = clock_.seconds_left(progress, elapsed);
  const double percent =
      progress.target ? 100.0 * static_cast<double>(progress.n) / static_cast<double>(progress.target) : 0;
  std::error_code error;
  const std::uintmax_t file_bytes = std::filesystem::file_size(file_, error);
  const std::string file_size = error ? std::string("none yet") : bytes_text(file_bytes);
  std::fprintf(stderr, "%s: %s n %llu/%llu (%.1f%%)  %.3g values/s  left %s  rare %llu  resident %s  file %s%s%s%s\n",
               tool_, utc_now_text().c_str(), static_cast<unsigned long long>(progress.n),
               static_cast<unsigned long long>(progress.target), percent, pace.rate, left_text(left).c_str(),
               static_cast<unsigned long long>(progress.rare_count), bytes_text(resident_memory_bytes()).c_str(),
               file_size.c_str(), note_.empty() ? "" : "  ", note_.c_str(), event.c_str());
  std::fflush(stderr);
}

void ProgressLog::finish(std::uint64_t n, const SparseStats& stats) {
  if (!enabled_ || lines_ == 0) return;
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const Pace pace = pace_of(first_n_, n, n, elapsed);
  std::error_code error;
  const std::uintmax_t file_bytes = std::filesystem::file_size(file_, error);
  std::fprintf(stderr, "%s: %s done: n %llu, %llu computed in %s (%.3g values/s)  largest %u  rare %llu  resident %s  "
               "file %s\n",
               tool_, utc_now_text().c_str(), static_cast<unsigned long long>(n),
               static_cast<unsigned long long>(n - std::min(n, first_n_)), duration_text(elapsed).c_str(), pace.rate,
               stats.max_value, static_cast<unsigned long long>(stats.rare_count),
               bytes_text(resident_memory_bytes()).c_str(), error ? "none" : bytes_text(file_bytes).c_str());
  std::fflush(stderr);
}

}  // namespace sgx::cli
