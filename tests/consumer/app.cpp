// A library user's program: Kayles' first twelve values.
#include <iostream>

#include "sgx/engine.hpp"

int main() {
  const sgx::Sequence values = sgx::compute_sequence(sgx::parse_rules("kayles"), 12);
  for (std::uint64_t n = 0; n < values.size(); ++n) std::cout << (n ? " " : "") << values[n];
  std::cout << "\n";
}
