#include "sgx/sequence.hpp"

#include <algorithm>
#include <limits>

namespace sgx {

Value Sequence::type_max() const {
  return visit([](const auto& v) -> Value {
    return std::numeric_limits<typename std::decay_t<decltype(v)>::value_type>::max();
  });
}

Value Sequence::max_value() const {
  return visit([](const auto& v) -> Value { return v.empty() ? 0 : *std::max_element(v.begin(), v.end()); });
}

void Sequence::widen_to_hold(Value value) {
  if (value <= type_max()) return;
  // Copy into the next type wide enough; at most two copies over a whole run.
  auto widen = [this](auto wider) {
    using Wide = decltype(wider);
    std::vector<Wide> copy;
    visit([&copy](const auto& v) {
      copy.reserve(v.capacity());
      copy.assign(v.begin(), v.end());
    });
    storage_ = std::move(copy);
  };
  if (value <= std::numeric_limits<std::uint16_t>::max())
    widen(std::uint16_t{});
  else
    widen(std::uint32_t{});
}

void Sequence::push_back(Value value) {
  widen_to_hold(value);
  visit([value](auto& v) { v.push_back(static_cast<typename std::decay_t<decltype(v)>::value_type>(value)); });
}

void Sequence::reserve(std::uint64_t n) {
  visit([n](auto& v) { v.reserve(n); });
}

void Sequence::resize(std::uint64_t n) {
  visit([n](auto& v) { v.resize(n); });
}

void Sequence::truncate(std::uint64_t n) {
  visit([n](auto& v) {
    if (n < v.size()) v.resize(n);
  });
}

std::vector<Value> Sequence::to_vector() const {
  return visit([](const auto& v) { return std::vector<Value>(v.begin(), v.end()); });
}

Sequence Sequence::from_vector(const std::vector<Value>& values) {
  Sequence s;
  if (!values.empty()) s.widen_to_hold(*std::max_element(values.begin(), values.end()));
  s.reserve(values.size());
  for (Value v : values) s.push_back(v);
  return s;
}

bool operator==(const Sequence& a, const Sequence& b) {
  if (a.size() != b.size()) return false;
  return a.visit([&b](const auto& x) {
    return b.visit([&x](const auto& y) { return std::equal(x.begin(), x.end(), y.begin()); });
  });
}

}  // namespace sgx
