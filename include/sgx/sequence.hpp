#pragma once
// G(0..n-1) in memory, stored in the narrowest unsigned type that holds every value so far.
// Widening (8 -> 16 -> 32 bits) happens on demand and copies once; values never shrink back.
//
// Bounded memory (run_octal --memory): once no kernel will read them again, the values between a
// prefix and the tail can be released, G(prefix_end()..tail_start()-1). The sequence keeps its
// indices (G(n) is still at [n]), but the pages of the released part go back to the system and
// are mapped inaccessible, so a stray read fails loudly instead of returning a wrong value. The
// tail moves up as n grows; the prefix stays. Whole-sequence operations (max_value, to_vector,
// ==) need every value and refuse a sequence with a released part.

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <new>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace sgx {

using Value = std::uint32_t;

// G(from..to-1) into out[0..to-from-1]: how an analysis reads values that are not in memory, a
// block at a time (a run file: run_file_reader in store.hpp). Errors are the reader's to throw.
using ValueReader = std::function<void(std::uint64_t from, std::uint64_t to, Value* out)>;
// Values a pass over a run file asks a ValueReader for at a time, its blocks starting at multiples
// of it: one chunk of the file's 8-bit values, two of 16-bit ones (chunks of 1 MiB, store_hdf5.cpp),
// so that each chunk is inflated once a pass. 2^18 inflated each chunk four times: the analysis of
// 2^30 values of 0.167 from its file took 42 s, nearly all of it in zlib.
inline constexpr std::uint64_t kValueReadBlock = std::uint64_t{1} << 20;

// The values a bounded run keeps, for messages: "G(0..4095) and G(900000..999999)" for a prefix
// ending at prefix_end and a tail from tail_start to n - 1 (either may be empty).
std::string kept_values_text(std::uint64_t prefix_end, std::uint64_t tail_start, std::uint64_t n);

// The values' allocator, new elements left unwritten. Where the storage comes from is the
// library's affair (sequence.cpp); only what the hot loops inline is here.
template <class T>
struct PageAllocator {
  using value_type = T;
  PageAllocator() = default;
  template <class U>
  PageAllocator(const PageAllocator<U>&) noexcept {}

  T* allocate(std::size_t count);
  void deallocate(T* block, std::size_t count) noexcept;
  // Growing a vector leaves the new values unwritten, so that storage with a released middle can
  // be set up without touching its pages (Sequence::resize writes its zeros itself).
  template <class U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }

  friend bool operator==(const PageAllocator&, const PageAllocator&) { return true; }
};

// The value types of a Sequence, the only ones the library allocates for.
extern template struct PageAllocator<std::uint8_t>;
extern template struct PageAllocator<std::uint16_t>;
extern template struct PageAllocator<std::uint32_t>;

// The storage of one value type.
template <class T>
using ValueVector = std::vector<T, PageAllocator<T>>;

class Sequence {
 public:
  using Storage = std::variant<ValueVector<std::uint8_t>, ValueVector<std::uint16_t>, ValueVector<std::uint32_t>>;

  Sequence() = default;
  // Copies hold the same kept values and release the same part (a plain copy would read it).
  Sequence(const Sequence& other);
  Sequence& operator=(const Sequence& other);
  Sequence(Sequence&&) noexcept = default;
  Sequence& operator=(Sequence&&) noexcept = default;

  std::uint64_t size() const {
    return std::visit([](const auto& v) -> std::uint64_t { return v.size(); }, storage_);
  }
  bool empty() const { return size() == 0; }
  unsigned bytes_per_value() const {
    return std::visit([](const auto& v) -> unsigned { return sizeof(v[0]); }, storage_);
  }
  // Largest value the current type can hold.
  Value type_max() const;
  // Largest value stored (0 when empty); one pass over the values.
  Value max_value() const;

  // G(n), which must be held (checked in Debug builds; a released value's page faults anyway).
  Value operator[](std::uint64_t n) const {
    assert(holds(n));
    return std::visit([n](const auto& v) -> Value { return v[n]; }, storage_);
  }

  // Appends one value, widening first if it does not fit.
  void push_back(Value value);
  // Makes sure the storage type can hold value.
  void widen_to_hold(Value value);
  void reserve(std::uint64_t n);
  void resize(std::uint64_t n);  // new entries are 0
  void truncate(std::uint64_t n);

  // Bounded memory (see the top of the file). Releases G(prefix_end..tail_start-1): the first
  // call fixes prefix_end, later ones may only move tail_start up (tail_start <= size()).
  void release(std::uint64_t prefix_end, std::uint64_t tail_start);
  // Appends released values up to tail_start without writing them, the size() values so far
  // becoming the prefix: how a bounded run's file is read back (prefix, then the tail pushed).
  void append_released(std::uint64_t tail_start);
  bool has_released() const { return tail_start_ > prefix_end_; }
  // Kept: G(0..prefix_end()-1) and G(tail_start()..size()-1). Both 0 while nothing is released.
  std::uint64_t prefix_end() const { return prefix_end_; }
  std::uint64_t tail_start() const { return tail_start_; }
  bool holds(std::uint64_t n) const { return n < size() && (n < prefix_end_ || n >= tail_start_); }
  // kept_values_text of this sequence.
  std::string kept_text() const { return kept_values_text(prefix_end_, tail_start_, size()); }
  // Values held in memory.
  std::uint64_t kept_count() const { return size() - (tail_start_ - prefix_end_); }

  // Calls f with the underlying ValueVector<T>& (T = uint8_t, uint16_t or uint32_t).
  // Hot loops go through here so that they are compiled once per type.
  template <class F>
  decltype(auto) visit(F&& f) {
    return std::visit(std::forward<F>(f), storage_);
  }
  template <class F>
  decltype(auto) visit(F&& f) const {
    return std::visit(std::forward<F>(f), storage_);
  }

  std::vector<Value> to_vector() const;
  static Sequence from_vector(const std::vector<Value>& values);

  friend bool operator==(const Sequence& a, const Sequence& b);

 private:
  // Throws std::logic_error naming what if part of the sequence is released.
  void require_whole(const char* what) const;
  // The kept values of v in new storage of type Wide with at least the given capacity; released
  // values are neither read nor written.
  template <class Wide, class Vector>
  ValueVector<Wide> kept_copy(const Vector& v, std::uint64_t capacity) const;
  // Moves the values into storage of type Wide with the given capacity, copying only kept values.
  template <class Wide>
  void move_to_storage(std::uint64_t capacity);
  // Gives the released part's pages back (after the storage moved or the range grew).
  void release_storage_pages();

  Storage storage_{ValueVector<std::uint8_t>{}};
  std::uint64_t prefix_end_ = 0;
  std::uint64_t tail_start_ = 0;
};

// G(from..to-1) of values: the held ones from memory, a released middle (a bounded run) through
// read_released, e.g. run_file_reader of the run's file. values must outlive the reader.
ValueReader held_or_released(const Sequence& values, const ValueReader& read_released = {});

// The values of a Sequence as they are when the view is taken, G(0..size()-1), read only and
// without a copy: what code that only reads values takes (writing them to a file, counting them),
// so that it serves a Sequence (which converts, as a std::string does to a std::string_view) and
// values another thread is reading while the Sequence goes on growing (PinnedValues). Released
// values are no more readable here than in the Sequence.
class ValuesView {
 public:
  using Spans = std::variant<std::span<const std::uint8_t>, std::span<const std::uint16_t>, std::span<const std::uint32_t>>;

  ValuesView(const Sequence& values)  // implicit, like std::string_view from std::string
      : spans_(values.visit([](const auto& v) -> Spans { return std::span(v.data(), v.size()); })),
        prefix_end_(values.prefix_end()),
        tail_start_(values.tail_start()) {}

  std::uint64_t size() const {
    return std::visit([](const auto& v) -> std::uint64_t { return v.size(); }, spans_);
  }
  bool empty() const { return size() == 0; }
  Value operator[](std::uint64_t n) const {
    assert(holds(n));
    return std::visit([n](const auto& v) -> Value { return v[n]; }, spans_);
  }
  // As in Sequence.
  bool has_released() const { return tail_start_ > prefix_end_; }
  std::uint64_t prefix_end() const { return prefix_end_; }
  std::uint64_t tail_start() const { return tail_start_; }
  bool holds(std::uint64_t n) const { return n < size() && (n < prefix_end_ || n >= tail_start_); }
  std::string kept_text() const { return kept_values_text(prefix_end_, tail_start_, size()); }
  // Calls f with the values as a std::span<const T> (T = uint8_t, uint16_t or uint32_t).
  template <class F>
  decltype(auto) visit(F&& f) const {
    return std::visit(std::forward<F>(f), spans_);
  }

 private:
  Spans spans_;
  std::uint64_t prefix_end_, tail_start_;
};

// The values of a Sequence as a ValuesView that another thread may read while the Sequence goes
// on computing (run_octal's writer thread), and that stays valid for as long as this object lives.
// Appending within the capacity never moves the values already there, and never writes them;
// but widening the type, or appending past the capacity, moves the values to new storage and
// frees the old block. While a block is pinned, freeing it waits (PageAllocator::deallocate) until
// its last PinnedValues is gone, so the view goes on reading the old block, whose values are the
// same. The Sequence's owner must still not truncate, overwrite or release (Sequence::release)
// values the view is read for. Made on the Sequence's thread; destroyed on any.
class PinnedValues {
 public:
  explicit PinnedValues(const Sequence& values);
  ~PinnedValues();
  PinnedValues(PinnedValues&& other) noexcept : view_(other.view_), block_(std::exchange(other.block_, nullptr)) {}
  PinnedValues& operator=(PinnedValues&&) = delete;
  PinnedValues(const PinnedValues&) = delete;
  PinnedValues& operator=(const PinnedValues&) = delete;

  const ValuesView& view() const { return view_; }

 private:
  ValuesView view_;
  const void* block_;  // nullptr: nothing pinned (no storage, or moved from)
};

}  // namespace sgx
