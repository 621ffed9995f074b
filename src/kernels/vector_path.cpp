#include "kernels/vector_path.hpp"

#include <algorithm>
#include <atomic>

namespace sgx {

namespace {

std::atomic<VectorPath> path_limit{VectorPath::Avx512};

VectorPath best_path_of_this_cpu() {
#if defined(__x86_64__) || defined(__i386__)
  if (!__builtin_cpu_supports("popcnt")) return VectorPath::Portable;
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vbmi"))
    return VectorPath::Avx512;
  if (__builtin_cpu_supports("avx2")) return VectorPath::Avx2;
#endif
  return VectorPath::Portable;
}

}  // namespace

VectorPath best_vector_path() {
  static const VectorPath best = best_path_of_this_cpu();
  return best;
}

VectorPath vector_path() { return std::min(best_vector_path(), path_limit.load(std::memory_order_relaxed)); }

void limit_vector_path(VectorPath limit) { path_limit.store(limit, std::memory_order_relaxed); }

std::ostream& operator<<(std::ostream& out, VectorPath path) {
  switch (path) {
    case VectorPath::Portable: return out << "Portable";
    case VectorPath::Avx2: return out << "Avx2";
    case VectorPath::Avx512: return out << "Avx512";
  }
  return out << "Unknown";
}

}  // namespace sgx
