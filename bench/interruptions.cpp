// How often, and for how long, this machine takes a running core away from the program.
//
// `run_octal --profile` times every task and sums each region's longest one into the span. Where
// the operating system or a hypervisor stops a core for tens of microseconds many times a second,
// a task that caught such a stop looks that much longer, and with tasks of tens of microseconds
// the longest of a region nearly always caught one: the span then reads longer than the run's own
// chain. Run this on the machine before trusting a profile's span (pinned to one core, idle
// otherwise):
//
//     taskset -c 1 build/bench/interruptions          # 2 seconds, gaps of 5 microseconds and more
//     taskset -c 1 build/bench/interruptions 10 2     # 10 seconds, gaps of 2 microseconds and more
//
// It reads the clock in a loop; two reads further apart than the threshold mean the loop did not
// run in between. It prints how many such gaps a second, the share of the time they took, and how
// long they were.

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace {

bool parse_positive(const char* text, double& out) {
  char* end = nullptr;
  out = std::strtod(text, &end);
  return end != text && *end == '\0' && out > 0 && out < 1e6;
}

}  // namespace

int main(int argc, char** argv) {
  double seconds = 2;
  double threshold_us = 5;
  const char* usage = "usage: interruptions [SECONDS] [THRESHOLD_MICROSECONDS], both positive (defaults 2 and 5)";
  if (argc > 3) {
    std::fprintf(stderr, "interruptions: %d arguments, at most 2 expected\n%s\n", argc - 1, usage);
    return 2;
  }
  for (int k = 1; k < argc; ++k)
    if (!parse_positive(argv[k], k == 1 ? seconds : threshold_us)) {
      std::fprintf(stderr, "interruptions: '%s' is not a positive number of %s\n%s\n", argv[k],
                   k == 1 ? "seconds" : "microseconds", usage);
      return 2;
    }
  using Clock = std::chrono::steady_clock;
  const auto threshold = std::chrono::duration<double, std::micro>(threshold_us);
  const auto length = std::chrono::duration<double>(seconds);
  // Gaps by length: [t, 2t), [2t, 4t), ... the last bucket open-ended.
  constexpr int kBuckets = 10;
  std::uint64_t counts[kBuckets] = {};
  std::uint64_t gaps = 0;
  std::chrono::duration<double, std::micro> lost{0};
  const Clock::time_point start = Clock::now();
  Clock::time_point last = start;
  for (;;) {
    const Clock::time_point now = Clock::now();
    const std::chrono::duration<double, std::micro> gap = now - last;
    last = now;
    if (gap >= threshold) {
      ++gaps;
      lost += gap;
      int bucket = 0;
      for (double bound = 2 * threshold_us; gap.count() >= bound && bucket < kBuckets - 1; bound *= 2) ++bucket;
      ++counts[bucket];
    }
    if (now - start >= length) break;
  }
  const double elapsed = std::chrono::duration<double>(last - start).count();
  std::printf("%llu gaps of %g microseconds or more in %.2f s: %.0f a second, %.2f%% of the time",
              static_cast<unsigned long long>(gaps), threshold_us, elapsed, static_cast<double>(gaps) / elapsed,
              100 * lost.count() / 1e6 / elapsed);
  if (gaps > 0) std::printf(", %.1f microseconds each on average", lost.count() / static_cast<double>(gaps));
  std::printf("\n");
  double from = threshold_us;
  for (int bucket = 0; bucket < kBuckets; ++bucket, from *= 2) {
    if (counts[bucket] == 0) continue;
    if (bucket == kBuckets - 1)
      std::printf("  %g us and more: %llu\n", from, static_cast<unsigned long long>(counts[bucket]));
    else
      std::printf("  %g to %g us: %llu\n", from, 2 * from, static_cast<unsigned long long>(counts[bucket]));
  }
  return 0;
}
