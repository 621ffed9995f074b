#pragma once
// Memory taken from the system a page at a time: reserved, not committed (MAP_NORESERVE), so that a
// page takes memory only once written. For blocks too large to be worth malloc's bookkeeping, and for
// address space reserved far ahead of what is written (a run's whole target).

#include <cstddef>

namespace sgx {

enum class PageSize {
  kSmall,  // the system's pages (4 KiB)
  kHuge,   // huge pages where the system gives them on request (transparent huge pages in "madvise"
           // mode, Debian's default): fewer first touches for a block written all through
};

// A block of `bytes` bytes, zero-filled; throws std::bad_alloc if the system refuses.
void* map_pages(std::size_t bytes, PageSize size = PageSize::kSmall);

// Gives back a block from map_pages whole.
void unmap_pages(void* block, std::size_t bytes) noexcept;

}  // namespace sgx
