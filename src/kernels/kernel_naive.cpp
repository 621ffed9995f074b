// The textbook kernel: every option of every heap, then the mex. O(n^2) for split games.
// It is the reference every other kernel is tested against, so it stays plain.

#include <algorithm>
#include <bit>
#include <limits>

#include "kernels/kernel.hpp"
#include "kernels/value_set.hpp"

namespace sgx {

namespace {

class NaiveKernel final : public Kernel {
 public:
  using Kernel::Kernel;

  void attach(const Sequence& values) override { bound_ = value_bound(values); }

  void compute(Sequence& values, std::uint64_t target) override {
    ValueMarks seen(bound_);
    extend_widening(values, target, [&](auto& g) { return run(g, target, seen); });
  }

  KernelKind kind() const override { return KernelKind::Naive; }

 private:
  // Computes until target or until a value does not fit T; returns that value.
  template <class T>
  Value run(ValueVector<T>& g, std::uint64_t target, ValueMarks& seen) {
    const Value type_max = std::numeric_limits<T>::max();
    while (g.size() < target) {
      const std::uint64_t n = g.size();
      seen.clear();
      moves_.mark_simple_options(g, n, seen);
      for (const SplitMove& move : moves_.split_two()) {
        if (move.take + 2 > n) break;
        const std::uint64_t m = n - move.take;
        const std::uint64_t last = move.largest_first_part(m);
        for (std::uint64_t a = 1; a <= last; ++a) seen.insert(static_cast<Value>(g[a] ^ g[m - a]));
      }
      const Value value = seen.first_missing();
      if (value >= bound_) {
        bound_ *= 2;
        seen.reset(bound_);
      }
      if (value > type_max) return value;
      g.push_back(static_cast<T>(value));
    }
    return 0;
  }

  std::uint64_t bound_ = 1;  // a power of two above every value so far
};

}  // namespace

std::unique_ptr<Kernel> make_naive_kernel(const Rules& rules) { return std::make_unique<NaiveKernel>(rules); }

}  // namespace sgx
