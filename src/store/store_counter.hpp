#pragma once
// The statistics a run counted as it went (private to the library; docs/FORMAT.md, /counter and
// /milestones): the counter's state, which a resumed run counts on from, and the statistics at
// every power of two, the form in which record runs are published.

#include <optional>

#include "sgx/stats.hpp"
#include "sgx/store.hpp"
#include "store/store_hdf5.hpp"

namespace sgx {

// /counter and /milestones of a run file.
void write_counter(hid_t file, const StatsCounter::State& state);
// Both, or none (a file written before them, or by a program that did not count). Refused when
// they do not hold together or do not count the file's n values.
std::optional<StatsCounter::State> read_counter(hid_t file, const RunStatus& status);

}  // namespace sgx
