#include "sgx/sequence.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <limits>
#include <mutex>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "base/pages.hpp"
#include "base/tuning.hpp"

namespace sgx {

namespace {

// Gives the whole pages inside [begin, end) of a block from allocate_value_block back to the
// system and makes them inaccessible, so that a stray read of a released value fails loudly.
// Does nothing for a small block.
void release_pages(void* block, std::size_t block_bytes, std::size_t begin, std::size_t end) {
  if (block_bytes < tuning::kPageBlockBytes) return;
  const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  const auto base = reinterpret_cast<std::uintptr_t>(block);
  const std::uintptr_t first = (base + begin + page - 1) / page * page;  // whole pages only
  const std::uintptr_t last = (base + std::min(end, block_bytes)) / page * page;
  if (last <= first) return;
  // A fresh inaccessible mapping in place of those pages: their memory is freed, and the block's
  // addresses stay reserved until the block is unmapped as a whole.
  void* done = mmap(reinterpret_cast<void*>(first), last - first, PROT_NONE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
  if (done == MAP_FAILED) throw std::bad_alloc();
}

// The storage PageAllocator hands out. Large blocks are reserved from the system without being
// committed, so that a run's storage can be reserved for its whole target, 2^36 values and more,
// however little of it stays in memory; small blocks come from operator new.
void* allocate_value_block(std::size_t bytes) {
  return bytes < tuning::kPageBlockBytes ? ::operator new(bytes) : map_pages(bytes);
}

void free_value_block(void* block, std::size_t bytes) noexcept {
  if (bytes < tuning::kPageBlockBytes)
    ::operator delete(block);
  else
    unmap_pages(block, bytes);
}

// Storage blocks pinned by PinnedValues. A pinned block that is freed is only marked so here, and
// given back when its last pin goes: another thread is still reading it.
class BlockPins {
 public:
  // Never destroyed: a Sequence of static duration may free its storage after it would be.
  static BlockPins& instance() {
    static BlockPins* const pins = new BlockPins;
    return *pins;
  }

  void pin(const void* block) {
    const std::lock_guard lock(mutex_);
    ++pins_[block].count;
  }

  void unpin(const void* block) {
    std::size_t freed_bytes = 0;
    {
      const std::lock_guard lock(mutex_);
      const auto pin = pins_.find(block);
      if (--pin->second.count > 0) return;
      freed_bytes = pin->second.freed_bytes;
      pins_.erase(pin);
    }
    if (freed_bytes > 0) free_value_block(const_cast<void*>(block), freed_bytes);
  }

  // False when the block is pinned: it is then freed by its last unpin.
  bool may_free_now(const void* block, std::size_t bytes) {
    const std::lock_guard lock(mutex_);
    const auto pin = pins_.find(block);
    if (pin == pins_.end()) return true;
    pin->second.freed_bytes = bytes;
    return false;
  }

 private:
  struct Pin {
    int count = 0;
    std::size_t freed_bytes = 0;  // > 0 once the block's owner has freed it
  };
  std::mutex mutex_;
  std::unordered_map<const void*, Pin> pins_;
};

}  // namespace

template <class T>
T* PageAllocator<T>::allocate(std::size_t count) {
  if (count > std::size_t(-1) / sizeof(T)) throw std::bad_array_new_length();
  return static_cast<T*>(allocate_value_block(count * sizeof(T)));
}

template <class T>
void PageAllocator<T>::deallocate(T* block, std::size_t count) noexcept {
  if (BlockPins::instance().may_free_now(block, count * sizeof(T))) free_value_block(block, count * sizeof(T));
}

template struct PageAllocator<std::uint8_t>;
template struct PageAllocator<std::uint16_t>;
template struct PageAllocator<std::uint32_t>;

std::string kept_values_text(std::uint64_t prefix_end, std::uint64_t tail_start, std::uint64_t n) {
  std::string kept;
  if (prefix_end > 0) kept = "G(0.." + std::to_string(prefix_end - 1) + ")";
  if (tail_start < n)
    kept.append(kept.empty() ? "" : " and ")
        .append("G(" + std::to_string(tail_start) + ".." + std::to_string(n - 1) + ")");
  return kept.empty() ? "no values" : kept;
}

Sequence::Sequence(const Sequence& other) : prefix_end_(other.prefix_end_), tail_start_(other.tail_start_) {
  other.visit([this](const auto& v) {
    using T = typename std::decay_t<decltype(v)>::value_type;
    storage_ = kept_copy<T>(v, v.size());
  });
  release_storage_pages();
}

Sequence& Sequence::operator=(const Sequence& other) {
  if (this != &other) *this = Sequence(other);
  return *this;
}

Value Sequence::type_max() const {
  return visit([](const auto& v) -> Value {
    return std::numeric_limits<typename std::decay_t<decltype(v)>::value_type>::max();
  });
}

void Sequence::require_whole(const char* what) const {
  if (has_released())
    throw std::logic_error(std::string(what) + " needs every value, but G(" + std::to_string(prefix_end_) + ".." +
                           std::to_string(tail_start_ - 1) + ") was released to bound memory");
}

Value Sequence::max_value() const {
  require_whole("Sequence::max_value");
  return visit([](const auto& v) -> Value { return v.empty() ? 0 : *std::max_element(v.begin(), v.end()); });
}

template <class Wide, class Vector>
ValueVector<Wide> Sequence::kept_copy(const Vector& v, std::uint64_t capacity) const {
  ValueVector<Wide> copy;
  copy.reserve(std::max<std::uint64_t>(capacity, v.size()));
  copy.resize(v.size());  // unwritten: the released part, if any, is never touched
  // (Wide is never narrower at run time; the cast keeps the other instantiations quiet.)
  auto copy_range = [&](std::uint64_t from, std::uint64_t to) {
    for (std::uint64_t n = from; n < to; ++n) copy[n] = static_cast<Wide>(v[n]);
  };
  if (has_released()) {
    copy_range(0, prefix_end_);
    copy_range(tail_start_, v.size());
  } else {
    copy_range(0, v.size());
  }
  return copy;
}

template <class Wide>
void Sequence::move_to_storage(std::uint64_t capacity) {
  Storage moved = visit([&](const auto& v) -> Storage { return kept_copy<Wide>(v, capacity); });
  storage_ = std::move(moved);
  release_storage_pages();
}

void Sequence::release_storage_pages() {
  if (!has_released()) return;
  visit([this](auto& v) {
    const std::size_t width = sizeof(v[0]);
    release_pages(v.data(), v.capacity() * width, prefix_end_ * width, tail_start_ * width);
  });
}

void Sequence::widen_to_hold(Value value) {
  if (value <= type_max()) return;
  // Copy into the next type wide enough; at most two copies over a whole run.
  const std::uint64_t capacity = visit([](const auto& v) -> std::uint64_t { return v.capacity(); });
  if (value <= std::numeric_limits<std::uint16_t>::max())
    move_to_storage<std::uint16_t>(capacity);
  else
    move_to_storage<std::uint32_t>(capacity);
}

void Sequence::push_back(Value value) {
  widen_to_hold(value);
  visit([this, value](auto& v) {
    using T = typename std::decay_t<decltype(v)>::value_type;
    // Growing the vector itself would copy the released part too.
    if (has_released() && v.size() == v.capacity()) move_to_storage<T>(2 * v.capacity() + 1);
  });
  visit([value](auto& v) { v.push_back(static_cast<typename std::decay_t<decltype(v)>::value_type>(value)); });
}

void Sequence::reserve(std::uint64_t n) {
  visit([this, n](auto& v) {
    using T = typename std::decay_t<decltype(v)>::value_type;
    if (n <= v.capacity()) return;
    if (has_released())
      move_to_storage<T>(n);
    else
      v.reserve(n);
  });
}

void Sequence::resize(std::uint64_t n) {
  if (n < tail_start_) throw std::logic_error("Sequence::resize below the kept tail");
  reserve(n);
  visit([n](auto& v) {
    const std::uint64_t old_size = v.size();
    v.resize(n);
    if (n > old_size) std::fill(v.begin() + static_cast<std::ptrdiff_t>(old_size), v.end(), 0);
  });
}

void Sequence::truncate(std::uint64_t n) {
  if (n < size()) resize(n);
}

void Sequence::release(std::uint64_t prefix_end, std::uint64_t tail_start) {
  if (prefix_end > tail_start || tail_start > size())
    throw std::logic_error("Sequence::release: the released part must lie inside the sequence");
  if (has_released() && (prefix_end != prefix_end_ || tail_start < tail_start_))
    throw std::logic_error("Sequence::release: the prefix is fixed and the tail only moves up");
  if (prefix_end == tail_start) return;
  prefix_end_ = prefix_end;
  tail_start_ = tail_start;
  release_storage_pages();
}

void Sequence::append_released(std::uint64_t tail_start) {
  if (has_released()) throw std::logic_error("Sequence::append_released: a part is released already");
  const std::uint64_t prefix_end = size();
  if (tail_start <= prefix_end) return;
  reserve(tail_start);
  visit([tail_start](auto& v) { v.resize(tail_start); });  // unwritten (PageAllocator::construct)
  release(prefix_end, tail_start);
}

std::vector<Value> Sequence::to_vector() const {
  require_whole("Sequence::to_vector");
  return visit([](const auto& v) { return std::vector<Value>(v.begin(), v.end()); });
}

Sequence Sequence::from_vector(const std::vector<Value>& values) {
  Sequence s;
  if (!values.empty()) s.widen_to_hold(*std::max_element(values.begin(), values.end()));
  s.reserve(values.size());
  for (Value v : values) s.push_back(v);
  return s;
}

PinnedValues::PinnedValues(const Sequence& values)
    : view_(values), block_(view_.visit([](const auto& v) -> const void* { return v.data(); })) {
  if (block_) BlockPins::instance().pin(block_);
}

PinnedValues::~PinnedValues() {
  if (block_) BlockPins::instance().unpin(block_);
}

bool operator==(const Sequence& a, const Sequence& b) {
  a.require_whole("Sequence ==");
  b.require_whole("Sequence ==");
  if (a.size() != b.size()) return false;
  return a.visit([&b](const auto& x) {
    return b.visit([&x](const auto& y) { return std::equal(x.begin(), x.end(), y.begin()); });
  });
}

ValueReader held_or_released(const Sequence& values, const ValueReader& read_released) {
  return [&values, read_released](std::uint64_t from, std::uint64_t to, Value* out) {
    // Released values lie in [prefix_end, tail_start): below and above it they are held.
    const std::uint64_t released_from = std::clamp(values.prefix_end(), from, to);
    const std::uint64_t released_to = std::clamp(values.tail_start(), released_from, to);
    values.visit([&](const auto& g) {
      std::copy(g.begin() + static_cast<std::ptrdiff_t>(from), g.begin() + static_cast<std::ptrdiff_t>(released_from), out);
      std::copy(g.begin() + static_cast<std::ptrdiff_t>(released_to), g.begin() + static_cast<std::ptrdiff_t>(to),
                out + (released_to - from));
    });
    if (released_from == released_to) return;
    if (!read_released)
      throw std::invalid_argument("G(" + std::to_string(released_from) + ".." + std::to_string(released_to - 1) +
                                  ") were released to stay within a memory bound, and nothing reads them back");
    read_released(released_from, released_to, out + (released_from - from));
  };
}

}  // namespace sgx
