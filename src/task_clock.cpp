#include "task_clock.hpp"

#include <thread>

namespace sgx {

double seconds_per_tick() {
  static const double calibrated = [] {
    const auto wall_start = std::chrono::steady_clock::now();
    const Ticks tick_start = read_ticks();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    const Ticks ticks = read_ticks() - tick_start;
    const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - wall_start;
    return ticks > 0 ? wall.count() / static_cast<double>(ticks) : 0.0;
  }();
  return calibrated;
}

}  // namespace sgx
