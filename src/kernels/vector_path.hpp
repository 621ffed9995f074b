#pragma once
// Which vector instructions the kernels' hot loops use: chosen once from what the processor has
// (pair_search, pair_screen). Private to the library.

#include <ostream>

namespace sgx {

// The versions of the vectorised loops, each faster than the one before. Avx512 means AVX-512 F,
// BW and VBMI (byte permutes); Avx2 also needs POPCNT.
enum class VectorPath { Portable, Avx2, Avx512 };

// The fastest version this processor runs.
VectorPath best_vector_path();

// The version to use now: the best one, unless a test limited it.
VectorPath vector_path();

// For tests only, so that each version can be checked on a processor that has a faster one: from
// now on, in every thread, use no version faster than limit (VectorPath::Avx512 lifts the limit).
void limit_vector_path(VectorPath limit);

// The version's name, as in VectorPath (test names and messages show it).
std::ostream& operator<<(std::ostream& out, VectorPath path);

}  // namespace sgx
