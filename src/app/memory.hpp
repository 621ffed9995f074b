#pragma once
// Memory as the tools see it: what the machine can still give (so that a run that cannot fit says
// so at its start, not hours later), what the process holds now (for the progress lines of batch
// logs), and sizes in the units --memory takes.

#include <cstdint>
#include <string>

#include "sgx/numbers.hpp"

namespace sgx::cli {

// Memory a new allocation can have: MemAvailable from /proc/meminfo, or less when the process's
// cgroup (v2 memory.max, v1 memory.limit_in_bytes) leaves less room under its limit. 0 if
// unknown. source, when given, says which of them it is, for messages.
std::uint64_t available_memory_bytes(std::string* source = nullptr);

// The process's resident memory now (/proc/self/statm); 0 if unknown.
std::uint64_t resident_memory_bytes();

// Bytes in --memory's units (powers of 1024): "512", "12K", "350M", "21.6G", "1T" (the library's).
using sgx::bytes_text;

// run_octal without --memory keeps every value in memory, at least one byte each: refuses (a
// UsageError, exit 2) a run of n values that cannot fit beside overhead bytes for the program,
// giving the memory it needs, what is available, and a --memory to give instead (three quarters
// of what is available, if that is at least least_limit). Does nothing when the available memory
// is unknown.
void check_values_fit_in_memory(std::uint64_t n, std::uint64_t overhead, std::uint64_t least_limit);

// run_octal --memory LIMIT (given as text) for a run that would use up to needed bytes without
// it: refuses (a UsageError) a limit above the available memory that the run would grow into.
// Does nothing when the available memory is unknown.
void check_memory_limit_available(std::uint64_t limit, const std::string& text, std::uint64_t needed);

// --memory LIMIT in bytes; a UsageError for a malformed size or one below what the program needs.
std::uint64_t parse_memory_limit(const std::string& text);

// A run of n values: without a limit (0), that its values fit in memory; with --memory LIMIT
// (limit, given as text), that the limit is available (both checks above).
void check_run_fits_in_memory(std::uint64_t n, std::uint64_t limit, const std::string& text);

}  // namespace sgx::cli
