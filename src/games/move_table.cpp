#include "games/move_table.hpp"

namespace sgx {

void MoveTable::cover(std::uint64_t heap) {
  // Without a tail nothing lies past the last finite digit.
  const std::uint64_t last = rules_.has_tail() ? heap : std::min<std::uint64_t>(heap, rules_.largest_take());
  for (std::uint64_t k = covered_; k <= last; ++k) {
    const Digit d = rules_.digit(k);
    if (k > 0 && (d.bits & kLeaveOne)) leave_one_.push_back(k);
    if (d.bits & kLeaveTwo) split_two_.push_back({k, d.unequal});
    if (d.bits & kLeaveThree) split_three_.push_back({k, d.unequal});
  }
  covered_ = std::max(covered_, last + 1);
}

}  // namespace sgx
