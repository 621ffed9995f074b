#pragma once
// Which kernel computes a sequence (engine.hpp lists them), and the error a kernel raises when a
// bounded run needs a value it released. Apart from the engine so that the kernels, which are
// below it, need not include it.

#include <cstdint>
#include <stdexcept>
#include <string>

namespace sgx {

enum class KernelKind { Auto, Naive, Sparse, Sweep };

KernelKind parse_kernel_kind(const std::string& name);  // throws std::invalid_argument
std::string to_string(KernelKind kind);

// A bounded run needed a value it no longer holds. The values computed before it stay good.
class MemoryReachError : public std::runtime_error {
 public:
  MemoryReachError(std::uint64_t heap, std::uint64_t needed, const std::string& what)
      : std::runtime_error(what), heap_(heap), needed_(needed) {}
  std::uint64_t heap() const { return heap_; }      // the heap whose value could not be decided
  std::uint64_t needed() const { return needed_; }  // a position it needed, released
 private:
  std::uint64_t heap_;
  std::uint64_t needed_;
};

}  // namespace sgx
