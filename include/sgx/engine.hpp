#pragma once
// The engine: computes G(0..n-1) of a heap game with one of several kernels.
//   naive   the textbook loop with a bitset mex; the reference the tests trust
//   sparse  the rare-value method (MATH.md section 4), exact for every code
//   sweep   exhaustive XOR-pair sweep, block-parallel, for games with no useful sparse space
//   auto    sparse while the rare list is sparse, sweep while it is not (checked as n grows)
// Once a period is proven (period.hpp) the remaining values follow from it, unless the
// shortcut is turned off.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "sgx/period.hpp"
#include "sgx/rules.hpp"
#include "sgx/sequence.hpp"

namespace sgx {

enum class KernelKind { Auto, Naive, Sparse, Sweep };

KernelKind parse_kernel_kind(const std::string& name);  // throws std::invalid_argument
std::string to_string(KernelKind kind);

struct EngineOptions {
  KernelKind kernel = KernelKind::Auto;
  int threads = 0;             // 0: all available (OpenMP default)
  bool period_shortcut = true; // fill values from a proven period
};

// What the engine reports while it runs; return false from the callback to stop early.
struct Progress {
  std::uint64_t n = 0;         // values computed so far
  std::uint64_t target = 0;
  Value max_value = 0;
  std::uint64_t rare_count = 0;
};
using ProgressCallback = std::function<bool(const Progress&)>;

class Kernel;  // one kernel's state (kernel.hpp, private to the library)

class Engine {
 public:
  Engine(Rules rules, EngineOptions options);
  // Continues from values already known (a resumed run).
  Engine(Rules rules, EngineOptions options, Sequence known_values);
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Extends the sequence to n values. Returns false if the callback asked to stop. The callback
  // runs between steps sized to take a fraction of a second each (at most 65536 values).
  bool compute_to(std::uint64_t n, const ProgressCallback& progress = {});

  const Sequence& values() const { return values_; }
  const Rules& rules() const { return rules_; }
  // The proven period, once found (only checked while the shortcut is on).
  const std::optional<PeriodResult>& proven_period() const { return proven_period_; }
  // Kernels used so far, e.g. "sparse" or "sparse+sweep" or "sparse+period".
  std::string kernels_used() const;
  // Rare-list size of the running sparse kernel (0 for other kernels).
  std::uint64_t live_rare_count() const;

 private:
  void use_kernel(KernelKind kind);
  void switch_kernel_if_better();
  void adapt_step(std::uint64_t values_done, double seconds);
  bool try_period_shortcut();
  // Keeps max_value_ up to date with the values from index from on.
  void note_largest(std::uint64_t from);
  void fill_from_period(std::uint64_t target);

  Rules rules_;
  EngineOptions options_;
  Sequence values_;
  std::unique_ptr<Kernel> kernel_;
  KernelKind active_ = KernelKind::Naive;
  std::string kernels_used_;
  std::optional<PeriodResult> proven_period_;
  Value max_value_ = 0;  // largest value so far, for progress reports
  std::uint64_t next_period_check_ = 64;
  std::uint64_t next_sparse_check_ = 0;  // auto: when a sweep next asks whether sparse would do
  std::uint64_t step_;  // values per step of compute_to, adapted to the kernel's speed
};

// Convenience: G(0..n-1) with the given kernel.
Sequence compute_sequence(const Rules& rules, std::uint64_t n, KernelKind kernel = KernelKind::Auto,
                          int threads = 0, bool period_shortcut = false);

}  // namespace sgx
