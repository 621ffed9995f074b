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

void StatusLine::update(const Progress& p) {
  if (!enabled_) return;
  auto now = std::chrono::steady_clock::now();
  if (now - last_ < kRefresh) return;
  last_ = now;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double rate = elapsed > 0 ? static_cast<double>(p.n) / elapsed : 0;
  const double percent = p.target ? 100.0 * static_cast<double>(p.n) / static_cast<double>(p.target) : 0;
  const double remaining = rate > 0 ? static_cast<double>(p.target - p.n) / rate : 0;
  std::fprintf(stderr, "\r\033[K n %llu/%llu (%.1f%%)  %.3g values/s  elapsed %s  left %s  largest %u  rare %llu",
               static_cast<unsigned long long>(p.n), static_cast<unsigned long long>(p.target), percent, rate,
               duration_text(elapsed).c_str(), duration_text(remaining).c_str(), p.max_value,
               static_cast<unsigned long long>(p.rare_count));
  std::fflush(stderr);
  shown_ = true;
}

void StatusLine::finish() {
  if (shown_) {
    std::fprintf(stderr, "\r\033[K");
    std::fflush(stderr);
    shown_ = false;
  }
}

}  // namespace sgx::cli
