#pragma once
// G(0..n-1) in memory, stored in the narrowest unsigned type that holds every value so far.
// Widening (8 -> 16 -> 32 bits) happens on demand and copies once; values never shrink back.

#include <cstdint>
#include <type_traits>
#include <variant>
#include <vector>

namespace sgx {

using Value = std::uint32_t;

class Sequence {
 public:
  using Storage =
      std::variant<std::vector<std::uint8_t>, std::vector<std::uint16_t>, std::vector<std::uint32_t>>;

  Sequence() = default;

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

  Value operator[](std::uint64_t n) const {
    return std::visit([n](const auto& v) -> Value { return v[n]; }, storage_);
  }

  // Appends one value, widening first if it does not fit.
  void push_back(Value value);
  // Makes sure the storage type can hold value.
  void widen_to_hold(Value value);
  void reserve(std::uint64_t n);
  void resize(std::uint64_t n);  // new entries are 0
  void truncate(std::uint64_t n);

  // Calls f with the underlying std::vector<T>& (T = uint8_t, uint16_t or uint32_t).
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
  Storage storage_{std::vector<std::uint8_t>{}};
};

}  // namespace sgx
