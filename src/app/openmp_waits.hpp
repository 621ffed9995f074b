#pragma once

namespace sgx::cli {

// How OpenMP threads wait between parallel regions (the sparse kernel's blocks have one each, a few
// hundred microseconds of work). On an idle machine a waiting thread should spin: waking a
// sleeping one takes some 20 microseconds here (Grundy's game to 2^23 on two threads, blocks of
// 1024 heaps: 2.44 s sleeping, 2.39-2.40 s spinning; with blocks of 256, to 2^22, 6.3 s against
// 4.3 s). With anything else runnable, spinning takes the core from the thread it waits for (to
// 2^20 beside one busy process: 2.0 s sleeping, 3.2 s spinning for ever, 2.7 s spinning a
// millisecond). So, unless OMP_WAIT_POLICY or GOMP_SPINCOUNT is set, the tools look at start-up:
// when, at some look over a few tens of milliseconds, no other thread on the machine is ready to
// run, they spin about a millisecond before sleeping (GOMP_SPINCOUNT=kOpenmpSpinCount, tuning.hpp),
// else they sleep at once (OMP_WAIT_POLICY=passive).
//
// The OpenMP runtime reads these when it is loaded, so the program starts itself again with one
// set. A function in the program's .preinit_array, which runs before the libraries' initializers,
// cannot set them instead: the C library's own initializer runs after it and puts back the
// environment the process was given. Call first thing in main; if restarting fails, the program
// goes on as it is.
//
// A run with nothing to choose (one thread: --threads 1, or one processor without --profile; or
// --help, --version) neither looks nor restarts: on an idle machine that saves a one-thread run of
// 0.16 until proven (some 55 ms) 4 to 9 ms, on a busy one the whole look, 50 ms (its 167 ms ->
// 101-112 ms at load 15-23).
void choose_openmp_waits(char** argv);

}  // namespace sgx::cli
