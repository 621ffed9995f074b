#pragma once
// Processors as the tools see them: how many this process may run on, so that --threads beyond
// them is lowered with a note rather than left to make the run several times slower.

namespace sgx::cli {

// Processors this process may run on: its CPU affinity (taskset, a batch system's binding), or
// fewer when its cgroup's CPU quota (v2 cpu.max, v1 cpu.cfs_quota_us) allows less, rounded up.
// 0 if unknown.
unsigned usable_processors();

// The threads a tool runs for --threads requested: requested, or usable_processors() when that is
// fewer, said in one line on stderr unless quiet. Without --threads (0), OpenMP's default
// (OMP_NUM_THREADS, else the affinity), lowered the same way but silently. More threads than
// processors do no more work at once; they only make each of the kernels' parallel regions wait
// for threads that are not running (measured in bench/HISTORY.md, "Work and span").
int threads_to_use(const char* tool, int requested, bool quiet);

// The same for a run that measures its work and span (run_octal --profile): --threads requested is
// kept even beyond the processors, with a note, since the profile is of the decomposition that many
// threads use (the sparse kernel's differs below and above tuning::kPipelineLeastThreads) and its
// task times leave out the time a thread was stopped. Only its wall time suffers. Beyond the
// processors, more than the profile's largest count (128) is a UsageError.
int threads_to_profile(const char* tool, int requested, bool quiet);

}  // namespace sgx::cli
