#include "base/pages.hpp"

#include <sys/mman.h>

#include <new>

namespace sgx {

void* map_pages(std::size_t bytes, PageSize size) {
  void* block = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (block == MAP_FAILED) throw std::bad_alloc();
  // A hint: where the system declines it, the block is only slower to fill.
  if (size == PageSize::kHuge) madvise(block, bytes, MADV_HUGEPAGE);
  return block;
}

void unmap_pages(void* block, std::size_t bytes) noexcept { munmap(block, bytes); }

}  // namespace sgx
