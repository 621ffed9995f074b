#include "progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace sgx::cli {

namespace {
constexpr auto kRefresh = std::chrono::milliseconds(250);

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
}  // namespace

StatusLine::StatusLine(bool wanted)
    : enabled_(wanted && isatty(STDERR_FILENO)), start_(std::chrono::steady_clock::now()), last_(start_) {}

bool StatusLine::due() {
  if (!enabled_) return false;
  auto now = std::chrono::steady_clock::now();
  if (now - last_ < kRefresh) return false;
  last_ = now;
  return true;
}

void StatusLine::show(const char* what, const char* unit, std::uint64_t done, std::uint64_t total,
                      const std::string& extra) {
  const double elapsed = std::chrono::duration<double>(last_ - start_).count();
  const double rate = elapsed > 0 ? static_cast<double>(done) / elapsed : 0;
  const double percent = total ? 100.0 * static_cast<double>(done) / static_cast<double>(total) : 0;
  const double remaining = rate > 0 ? static_cast<double>(total - done) / rate : 0;
  std::fprintf(stderr, "\r\033[K %s %llu/%llu (%.1f%%)  %.3g %s/s  elapsed %s  left %s%s", what,
               static_cast<unsigned long long>(done), static_cast<unsigned long long>(total), percent, rate, unit,
               duration_text(elapsed).c_str(), duration_text(remaining).c_str(), extra.c_str());
  std::fflush(stderr);
  shown_ = true;
}

void StatusLine::update(const Progress& p) {
  if (!due()) return;
  char extra[64];
  std::snprintf(extra, sizeof extra, "  largest %u  rare %llu", p.max_value, static_cast<unsigned long long>(p.rare_count));
  show("n", "values", p.n, p.target, note_.empty() ? std::string(extra) : extra + ("  " + note_));
}

void StatusLine::update_cells(std::uint64_t done, std::uint64_t total) {
  if (due()) show("cells", "cells", done, total, "");
}

void StatusLine::finish() {
  if (shown_) {
    std::fprintf(stderr, "\r\033[K");
    std::fflush(stderr);
    shown_ = false;
  }
}

}  // namespace sgx::cli
