#pragma once
// Every tuning constant of the kernels, the engine, the tables and the command-line tools in one
// place, each with its reason and the measurement behind it (or a plain "not measured"). None of
// them affects results: the kernels' and the engine's only speed, the tools' memory and how often
// they report.

#include <cstddef>
#include <cstdint>
#include <iterator>

namespace sgx::tuning {

// Heaps per block in the sparse kernel. Within a block, pairs whose partner is known before the
// block starts are enumerated in parallel, a group of kSparseGroup heaps a task; the rest in
// order. Larger blocks give more tasks (the longest of them is part of the span) and cost fewer
// thread start-ups; the ordered part reads the near rare positions of a whole block in vectors,
// so it grows with the block only by a compare a vector. Measured with 1024 against 256 (one
// thread, to 2^19, instructions counted by callgrind): Grundy's game 9.57e9 against 9.75e9, 0.6
// 11.94e9 against 12.08e9; on two threads to 2^22, the span fell from 43% to 34% of the work on
// Grundy's game and from 43% to 40% on 0.6 (run_octal --profile). Flowing on two threads
// (sparse/blocks.cpp, flow_block), Grundy's game to 2^23: 2.39-2.42 s against 2.55-2.61 s with
// 512 and 2.42-2.54 s with 768; 2048 moved more work to the chain than it saved the markings.
inline constexpr std::uint64_t kSparseBlock = 1024;
// On one thread no block is shared, so only the ordered part's pairs grow with its width: there
// blocks of kSparseBlockOneThread. Three alternating runs each, one thread to 2^22: 0.167 1.10 s
// with 1024 against 1.01 s with 512, 0.6 4.65 against 4.57 s, Grundy's game 3.39 against 3.31 s.
inline constexpr std::uint64_t kSparseBlockOneThread = 512;
static_assert(kSparseBlock % 64 == 0 && kSparseBlockOneThread % 64 == 0,
              "the ordered part reads the near rare positions in vectors of 64 bytes");
static_assert(kSparseBlockOneThread <= kSparseBlock, "the near rare positions are laid out for the wider block");
// The sparse kernel's ordered part settles most heaps by comparing the options it alone sees
// with the heap's kQuickCandidates least common values not yet seen (decide_quickly); games with
// more than kQuickMovesAtMost two-heap splits or one-heap moves take the full decision.
inline constexpr int kQuickCandidates = 4;
inline constexpr std::size_t kQuickMovesAtMost = 4;

// The sparse kernel's pipeline (sparse/pipeline.cpp), on kPipelineLeastThreads threads or
// more past the first heaps. A group of kSparseGroup heaps from s on has its far pairs (partner below
// s + 64 - D[0]) listed once the heaps below that are decided; then, for each later distance
// D[k], its pairs with the rare r in [D[k], D[k-1]) are screened against its candidates once the
// heaps below s + 64 - D[k] are decided; the thread deciding heaps in order compares only the
// pairs with r up to the last distance. A band has D[k] - 64 heaps of slack before that thread
// needs it (Grundy's game has 50 rare positions below 256, 112 below 512, 208 below 1024). D[0] / 64
// groups can be worked on at once ahead of it. The band before the last also lists further
// candidates (the longest band task), so it has 768 - 64 heaps of slack: with {2048, 1024, 512,
// 256}, the chain waited for it in the profile's longest path at 19000 of 65000 groups (Grundy's
// game to 2^22, two threads), with {2048, 1024, 768, 256} at 5000 (span 6.6-7.0% of the work ->
// 5.9-6.2%; 0.6: 6.7% -> 5.5-6.1%). Measured with {8192, 4096, 2048, 1024, 512, 256} while the bands
// were marked, not screened: their marking was a third of the work. Once the far stage no longer
// looked for rare values, the band before the last was the one waited for: at 1024 (slack 960
// heaps), with the last band in two tasks, the chain's waits fell from 0.087-0.090 s to
// 0.056-0.071 s (Grundy's game to 2^24, two threads, three rounds alternating), the work level.
// With the chain faster, the far stage's path through the bands was the one waited for: a far
// stage at 2560 and the further candidates at 1152 took the waits from 0.042-0.047 s to
// 0.033-0.036 s (Grundy's game and 0.6 to 2^24, two threads), with 16-27% more full decisions on
// the chain (the last band strikes more) and the work level. {2560, 1280, 1024, 256}, {2560, 1536,
// 1280, 256} and {2560, 1280, 1024, 512, 256} waited more or worked more; {3072, 1792, 1280, 256}
// cost 0.6 10% more work.
inline constexpr std::uint64_t kPipelineDistances[] = {2560, 1536, 1152, 256};
inline constexpr std::uint64_t kPipelineNear = kPipelineDistances[std::size(kPipelineDistances) - 1];
// A group's far stage in the pipeline, its band before the last (which lists the further
// candidates) and its last band, each run as this many tasks side by side, each for a part of its
// heaps (screened and marked a vector at a time as a whole group is), so that they take half the
// time of one task against their slack. Grundy's game to 2^24 on two threads: the span 5.29% of
// the work with neither split, 4.58-4.64% with the far stage's, 3.93-4.25% with both; the work
// level, then +1.4% (the band's screening in halves). Four parts: the work +25%. See
// bench/HISTORY.md, "Cheaper bookkeeping, a chain that lags one heap, two stages in halves" and
// "The first candidate on a branch".
inline constexpr std::uint64_t kFarParts = 2;
static_assert(kPipelineNear % 64 == 0 && kPipelineNear > 64 && kPipelineNear <= kSparseBlock,
              "the near rare positions are read in vectors of 64 bytes, laid out for a block");
// The pipeline runs on at least this many threads; fewer decide in blocks. Its span is a seventh of
// the blocks' but its work about a third more (the candidates it lists ahead; bench/HISTORY.md,
// "Where the pipeline's extra work goes" and "Blocks below four threads"), so the bound
// (T1 - Tinf) / p + Tinf favours blocks on few threads. From the two decompositions'
// profiles on two threads (Grundy's game to 2^23: blocks T1 4.71 s, Tinf 0.61 s; pipeline 6.11 s,
// 0.12 s; 0.6: 6.14 s, 0.77 s; 7.43 s, 0.14 s) the bounds are 2.66 against 3.11 s on 2 threads,
// 1.98 against 2.12 s on 3 and 1.63 against 1.62 s on 4 (0.6: 3.45 / 3.79, 2.56 / 2.57, 2.11 /
// 1.96). Measured on two threads, blocks took 2.74 s against 3.26 s (1.66 against 1.40 times one
// thread's 4.56 s). Blocks that flow (sparse/blocks.cpp, flow_block) kept the tie on 4 threads:
// 1.72 against 1.71 s from four-thread profiles (flow T1 4.97 s, Tinf 0.64 s; pipeline 6.45 s,
// 0.13 s).
inline constexpr int kPipelineLeastThreads = 4;
// Fewer heaps left than this, and the pipeline's filling and draining cost more than it gains:
// they go in blocks.
inline constexpr std::uint64_t kPipelineLeastHeaps = 4096;
// The pipeline starts after this many blocks in a row without a wrong speculation: a wrong one
// voids what the chain decided after it, up to where its confirmation ran. Not measured.
inline constexpr std::uint64_t kPipelineAfterQuietBlocks = 8;

// Heaps of a game with values below 64 and at most this many rare positions are decided one at a
// time (lone_heap.hpp) instead of in blocks. One thread to 2^20, alone against in blocks: 0.167
// (60 rare positions) 7.7 and 7.9 against 2.7 million values a second, 0.127 (693) 4.8 and 7.3
// against 1.5; 0.165 level at 2906 rare positions (2^18: 0.75 and 0.77 against 1.18 and 0.76),
// and at 11530 (2^20).
inline constexpr std::size_t kLoneRareAtMost = 2048;
// The same for values below 128 (two words of bits, so that the far rare pairs are marked twice):
// 0.14 (1896 rare positions) ran at 0.83 million values a second alone against 1.37 in blocks
// (one thread to 2^22), 0.336 (223) at 2.4 against 2.1, 0.174 (57) at 7.1 against 1.7.
inline constexpr std::size_t kLoneRareAtMostTwoWords = 1024;
// And below 256 (four words), where the far pairs are marked four times; one thread to 2^22, alone
// against blocks: 0.245 (151 rare positions) 3.0 and 3.4 against 0.8 and 1.3 million values a
// second, 0.374 (246) 2.4 and 2.3 against 0.76 and 0.64, 0.161 (489) 2.0 and 2.1 against 1.4 and
// 0.87, 0.36 (516) 1.3 to 1.8 against 0.89 to 1.06, 0.362 (529) 2.0 to 3.2 against 2.2 to 2.4.
// No game we know has 600 to 2000 rare positions and values from 128, so the crossing is not
// measured: this is the two-word limit.
inline constexpr std::size_t kLoneRareAtMostFourWords = 1024;
// Heaps decided alone between two looks at the run's state (each look makes room for them).
inline constexpr std::uint64_t kLoneStretch = 4096;
// The ordered part takes values on speculation (sparse/blocks.cpp, decide_in_order) only after
// this many blocks in a row whose guesses were all right. Among the first thousands of heaps, where
// new rare positions are many, a wrong guess costs its block's speculations after it. Past them
// guesses are hardly ever wrong (to 2^22: Grundy's game the last at 82860, 0.6 at 20627, 0.167
// never), so the rule then changes nothing (bench/HISTORY.md, "Speculative full decisions").
inline constexpr std::uint64_t kSpeculateAfterQuietBlocks = 1;
// Heaps the sparse kernel pairs with each rare position in one go: a rare r that pairs with all of
// them meets their partners in consecutive places (one vector XOR, then a store per heap).
inline constexpr std::uint64_t kSparseGroup = 64;
// Heaps per task in the sparse kernel's work heap by heap, after a block's groups are marked (the
// pairs of a heap whose screening failed, its scan for rare values, its candidates): most heaps
// need little, a few thousands of pairs, so small tasks keep the longest one short. Not measured
// against other sizes.
inline constexpr std::uint64_t kSparseHeapsPerTask = 8;
// The sparse kernel fetches the partners of the rare position this many places ahead of the one it
// is pairing (see mark_rare_pairs_of_group).
inline constexpr std::ptrdiff_t kSparsePrefetchAhead = 8;
// Of the rare positions that pair with every heap of a group, the sparse kernel marks the values
// of the first few hundred and only screens the rest against each heap's least unseen common
// values (pair_screen.hpp), when the run is at least kScreenMinPairs longer. How many it marks
// adapts: a heap whose candidates all turn up must be marked after all, so the number doubles
// when more than 1/kScreenRemarkHigh of the screened heaps were, and halves (down to
// kScreenMarkedLeast) when fewer than 1/kScreenRemarkLow were, judged every kScreenReviewHeaps.
// Grundy's game settles at 256 or 512; Treblecross, with thousands of rare positions and values
// past 1000, climbs past 10000 by 2^18 and screens little.
inline constexpr std::ptrdiff_t kScreenMarkedFirst = 384;
inline constexpr std::ptrdiff_t kScreenMarkedLeast = 128;
inline constexpr std::ptrdiff_t kScreenMarkedStep = 2;  // the doubling and halving above
inline constexpr std::ptrdiff_t kScreenMinPairs = 64;
inline constexpr std::uint64_t kScreenRemarkHigh = 8;
inline constexpr std::uint64_t kScreenRemarkLow = 64;
inline constexpr std::uint64_t kScreenReviewHeaps = 4096;
// Candidate values per heap when the sparse kernel screens rare pairs (pair_screen.hpp): each
// heap's least common values not yet seen. 12 candidates keep every running minimum and
// candidate in a vector register (16 took 2 candidates from memory each pair) and, with the
// adaptive count of pairs marked first, fall back to marking about as often (7% of the heaps of
// Grundy's game and 0.6 to 2^22, against 6% and 10% with 16): best of 4 or 5 alternating runs
// against 16, one thread to 2^21, Grundy's game 1.28 -> 1.26 s and 0.6 1.81 -> 1.64 s; two
// threads to 2^24, 7.03 -> 6.73 s and 8.52 -> 8.03 s. 8, 10 and 24 were slower, 14 no faster.
inline constexpr int kScreenSlots = 12;
// Parallelise a sparse block only when it has at least this many pairs to enumerate.
inline constexpr std::uint64_t kSparseParallelMinPairs = 16384;
// Before each heap's scan, the sparse kernel marks its probe pairs (a, m - a) for a group of
// heaps at once: a is one of the first kProbePositions positions of each of the kProbeValues
// most frequent values so far (chosen again each time n doubles). Pairs of two frequent values
// give the rare values the scan must find; the scan's first pairs, whose small parts have small
// values, give few of them. In place of the first 256 pairs, on one thread to 2^20: Grundy's
// game 1.02 -> 0.69 s, 0.6 1.30 -> 0.97 s; 64 x 4, 64 x 8 and 256 x 4 were slower, 128 x 8
// and 96 x 6 no faster.
inline constexpr std::uint64_t kProbeValues = 128;
inline constexpr std::uint64_t kProbeRechoiceGrowth = 2;  // "each time n doubles"; not measured against others
inline constexpr std::uint64_t kProbePositions = 6;
// While values lie below 64 (and AVX-512 marks a group's pairs as bits, pair_bits.hpp), a probe
// pair costs a fraction of an instruction, so more of them pay: 0.167 on one thread to 2^22 took
// 1.31 s with 6, 1.19 s with 9, 1.12-1.15 s with 12 and 1.12-1.20 s with 16 (Grundy's game,
// marking bytes, took 2.50 s with 12 against 2.12 s with 6 to 2^21).
inline constexpr std::uint64_t kProbePositionsAsBits = 12;
// The probe parts are looked for among the first this many values only. Some of the most frequent
// values of Grundy's game first come late and seldom (value 207: 33 times in 12.6 million values,
// the 6th at 3.6 million), and the scan for them read millions of values on one thread each time
// the values doubled (1.8 ms at 12.6 million). Of its 128 probe values, 9 have fewer than 6
// places below 2^20; 0.6 has all of its by 2^16.
inline constexpr std::uint64_t kProbeScanReach = std::uint64_t{1} << 20;
// The sparse kernel's scan for rare values lists pairs in chunks of at least this many before
// checking whether every rare value it needs is present.
inline constexpr std::uint64_t kSparseScanChunk = 64;
// The scan's lookups (once few values are missing) start with chunks of kSparseSearchChunks times
// the marked chunk, doubling.
inline constexpr std::uint64_t kSparseSearchChunks = 16;
// Where pairs are compared with the wanted values rather than looked up (AVX2, portable, and
// AVX-512 for values too wide for its lookup; pair_search.hpp), at most this many are compared at
// once: fewer take 2, 4 or 8 vector compares per vector of pairs, this many 16, and more go in
// batches of this many. The sparse kernel's scan also marks whole chunks of pairs while more than
// this many values are missing. Not measured against other counts.
inline constexpr int kSearchedValues = 16;
// Re-choose the rare mask when the rare list has grown by this factor since the last choice, and
// not before it holds kMaskRechoiceLeast positions (the first few say little about the best mask;
// a choice costs a transform of the histogram and, when the mask changes, a pass over the values).
// Not measured against other values.
inline constexpr std::uint64_t kMaskRechoiceGrowth = 2;
inline constexpr std::uint64_t kMaskRechoiceLeast = 16;

// A bounded run (--memory) keeps at least this many of the last values: more than an engine step
// (kEngineStep) and a block, so that every value a step reads near n is held.
inline constexpr std::uint64_t kBoundedMinTail = 1u << 17;

// Heaps per block in the sweep kernel (same idea: pairs of parts both below the block are swept
// for the whole block at once, in parallel).
inline constexpr std::uint64_t kSweepBlock = 256;
// Heaps per task when the sweep hands a block's heaps to its threads (a dynamic schedule): a heap
// is thousands of pairs by the time the sweep runs in parallel (kSweepParallelMinHeap), so chunks
// only save scheduling. Not measured against other chunks.
inline constexpr int kSweepHeapsPerTask = 4;
// The sweep marks its pairs kSweepMarkUnroll to a loop turn (sweep_pairs): with one, the loop's
// own counting and branch cost as much as the store (marking took 30% less time on Treblecross
// unrolled eightfold). Other factors not measured.
inline constexpr int kSweepMarkUnroll = 8;
// The sweep's reversed copy of G grows kSweepReversedGrowth-fold (at least to the target), so
// that G is copied again only each time n has doubled: a copy costs about as much as one heap's
// pairs at that n. Not measured against other factors.
inline constexpr std::uint64_t kSweepReversedGrowth = 2;
// With AVX-512, the sweep marks each heap's first pairs in chunks of kSweepMarkChunk and looks the
// rest up (take_xor_values) once the last kSweepSample pairs of a chunk show fewer new values than
// one per kSweepLookupCost pairs: a value first met in the lookup costs about that many marks (the
// vector that holds it is gone through again; still the best after the lookup took its values
// after each run of vectors: 8 and 16 were slower, as 64 was).
inline constexpr std::uint64_t kSweepMarkChunk = 512;
inline constexpr std::uint64_t kSweepSample = 128;
inline constexpr std::uint64_t kSweepLookupCost = 32;
// The sweep's first lookup wants the least kSweepFirstRank values not seen yet (at least
// kSweepLeastRank), more when over 1/kSweepTwiceHigh of the heaps had to look again for the rest,
// fewer when under 1/kSweepTwiceLow did, judged every kSweepReviewHeaps (see kernel_sweep.cpp).
inline constexpr std::uint64_t kSweepFirstRank = 64;
inline constexpr std::uint64_t kSweepLeastRank = 8;
inline constexpr std::uint64_t kSweepTwiceHigh = 16;
inline constexpr std::uint64_t kSweepTwiceLow = 64;
inline constexpr std::uint64_t kSweepReviewHeaps = 4096;
// When the count moves, it grows by half (lookup_rank / kSweepRankGrowthShare) or shrinks by a
// quarter (lookup_rank / kSweepRankShrinkShare): faster up than down, as a heap looked up twice
// costs more than a value wanted in vain. And the sweep stops looking up for good once more than
// 1/kSweepLookupGiveUpShare of the heaps reviewed had every pair marked after all (Lasker's Nim,
// every heap). Not measured against other steps or shares.
inline constexpr std::uint64_t kSweepRankGrowthShare = 2;
inline constexpr std::uint64_t kSweepRankShrinkShare = 4;
inline constexpr std::uint64_t kSweepLookupGiveUpShare = 2;
// The sweep looks pairs up only for games with at most this many two-heap splits, whose ranges of
// pairs a heap keeps in a fixed array; a game with more marks every pair. Every code of up to
// eight split digits fits; not measured, since no game the project studies has more.
inline constexpr int kSweepLookupMaxSplits = 8;
// Below this heap size the sweep kernel runs single-threaded.
inline constexpr std::uint64_t kSweepParallelMinHeap = 4096;

// The auto kernel leaves sparse for sweep once kAutoSwitchMinHeap heaps are computed and more
// than 1/kAutoRareFraction of them are rare; where the sweep looks pairs up (AVX-512), once more
// than 1/kAutoLookupRareFraction are. Measured at 2^17, the sparse kernel's time over the
// sweep's rises with the final rare share. Sweep marking every pair: 0.56 at 7% (0.206), 0.76
// at 13% (0.016), about 1 near 20% (0.314, 0.114, 0.163), 1.3 to 1.6 from 22% (0.371, 0.024,
// 0.224) and 2 at 40% (0.036, 0.76): the switch is at one in five. Sweep looking up: 0.6 at
// 1.8% (0.172), 0.85 at 2.1% (0.127), 1.1 at 7% (0.206), 1.5 at 10% (0.15), 1.6 at 8%
// (0.007), 1.7 at 13% (0.016), 1.8 to 2.8 from 20%: the switch is also at one in sixteen, from
// 2^16 on (Grundy's game has 7% rare positions at 2^14, under 2% at 2^16).
inline constexpr std::uint64_t kAutoSwitchMinHeap = 1u << 14;
inline constexpr std::uint64_t kAutoLookupSwitchMinHeap = 1u << 16;
inline constexpr std::uint64_t kAutoRareFraction = 5;
inline constexpr std::uint64_t kAutoLookupRareFraction = 16;
// A sweep gives way to sparse again when fewer than 1/kAutoReturnFraction (looking up:
// 1/kAutoLookupReturnFraction) of the positions are rare (checked each time n passes a power of
// two; the gap to the switching share keeps it from flapping).
inline constexpr std::uint64_t kAutoReturnFraction = 6;
inline constexpr std::uint64_t kAutoLookupReturnFraction = 20;

// The engine hands work to a kernel in steps of at most this many values, so that progress,
// signals and period checks are seen often enough.
inline constexpr std::uint64_t kEngineStep = 1u << 16;
// Steps are sized from the measured rate to take about this long, between the first (and
// smallest) step and kEngineStep: where values are slow (sweep at large n), the caller's
// callback (status line, checkpoints, stop signals) still runs several times a second.
inline constexpr double kEngineStepSeconds = 0.2;
inline constexpr std::uint64_t kEngineMinStep = 64;
inline constexpr std::uint64_t kEngineFirstStep = 1u << 10;
// A step is at most kEngineStepGrowth times the one before: the rate falls as n grows, and a
// short step (cut by the target or a period check) says little about the next. Step sizes change
// only how often the callback runs. Not measured against other factors.
inline constexpr std::uint64_t kEngineStepGrowth = 2;
// With the period shortcut on, the engine asks for a proven period once n reaches
// kFirstPeriodCheck and again each time n has grown kPeriodCheckGrowth-fold, or at once at the n
// a period seen needs for its proof (next_proof_target). One analysis reads
// every value, so with doubling all the checks together cost about twice the last one, and a
// period provable at n is used by 2n. To 2^20 on one thread (CPU time), the checks at 64, 128, ...,
// 2^20 took 0.08 s beside 1.67 s for the values of 0.6, 0.02 s beside 0.81 s for Grundy's game
// and 0.04 s beside 16.9 s for Treblecross: under 5%. Other factors not measured.
inline constexpr std::uint64_t kFirstPeriodCheck = 64;
inline constexpr std::uint64_t kPeriodCheckGrowth = 2;
// On more than one thread, a look from this many values on runs beside the kernels (engine.cpp,
// Engine::LookBeside). Below it a look takes under 4 ms on one thread, and its result at once
// lets a period proven early (0.137 at 175 values) fill the rest at once: taken a few steps later,
// 0.137 to 10^6 on two threads ran at 9.4e6 values a second instead of 2.5e8.
inline constexpr std::uint64_t kLookBesideFrom = std::uint64_t{1} << 20;
// A bounded run keeps the first 1/kBoundedPrefixShare of the values it may hold as its prefix and
// the rest as its tail: the sparse kernel reads small parts a from the prefix (Grundy's game and
// 0.6 look past a = 10000 for a rare value now and then by n = 2^18) and the partners of rare
// positions near n from the tail (Grundy's last rare position is 48399022, so every pair of a
// rare position meets its partner there). Not measured against other shares.
inline constexpr std::uint64_t kBoundedPrefixShare = 4;

// Sequences take blocks of at least kPageBlockBytes from the system (mmap), where a bounded run
// can give released whole pages back and make them unreadable; smaller blocks come from operator
// new, as a mapping costs a system call and its own pages. Not measured against other sizes.
inline constexpr std::size_t kPageBlockBytes = std::size_t{64} << 10;

// The two-dimensional tables (table2d.cpp) run in tiles of kTableTile x kTableTile cells, the tiles
// of one anti-diagonal in parallel: a wave of single cells is a few microseconds of work, about
// what a barrier costs with sleeping OpenMP waits, while a tile of 32 x 32 cells is some 1000
// cells of work per barrier and still gives a table of 1024 waves of up to 16 tiles for the
// threads. Not measured against other sizes.
inline constexpr std::uint64_t kTableTile = 32;
// Rows per task when the rows' periods are looked for in parallel (a dynamic schedule): rows of a
// table differ in cost (a periodic row is done sooner). Not measured against other chunks.
inline constexpr int kTableRowsPerTask = 8;

// ---- The command-line tools (src/app/) ----

// The status line on a terminal is redrawn at most every kStatusRefreshMilliseconds: four times a
// second reads as live, and a redraw is one short write. Not measured.
inline constexpr int kStatusRefreshMilliseconds = 250;
// run_octal --memory LIMIT: what the process needs besides the values (code, libraries, HDF5,
// OpenMP's threads), and the least limit accepted. A run of 1000 values ends at 19 MiB resident on
// two threads (kayles, 0.6 and 4!.0 alike, peak_rss_bytes of --json); 64 MiB leaves room for more
// threads' own sets and HDF5's buffers.
inline constexpr std::uint64_t kMemoryOverhead = std::uint64_t{64} << 20;
inline constexpr std::uint64_t kMinMemoryLimit = std::uint64_t{128} << 20;
// Of what --memory leaves after kMemoryOverhead, the engine's values may take 1/kValueMemoryShare:
// the rest holds the checkpoint's image of them (compressed, never larger than the values) or, at
// the end of a run that kept every value, the period analysis. Follows from what the rest must
// hold; the acceptance runs of bounded memory check it.
inline constexpr std::uint64_t kValueMemoryShare = 2;
// Under --memory the period analysis holds its window's borders at up to 4 bytes a difference, and
// perhaps the window's values too (4 bytes each, when the tail kept does not hold them): a window
// of 1/kAnalysisMemoryShare of the values' memory (or kPeriodWindow, whichever is less) keeps both,
// and the few blocks of kValueReadBlock values (4 MiB each) that its scans hold, within the half of
// the limit that is not for the values. Follows from those sizes; not timed.
inline constexpr std::uint64_t kAnalysisMemoryShare = 8;
// On an idle machine the tools let a waiting OpenMP thread spin this many turns, about a
// millisecond, before it sleeps (GOMP_SPINCOUNT; src/app/openmp_waits.hpp says when): spinning
// took Grundy's game to 2^22 on two threads from 6.3 s (sleeping) to 4.3 s, and the cap limits the
// loss should the machine get busy later (to 2^20 beside one busy process: 2.0 s sleeping, 3.2 s
// spinning for ever, 2.7 s spinning a millisecond). Other counts not measured.
inline constexpr std::uint64_t kOpenmpSpinCount = 1000000;
// How long the tools look for a moment when nothing but themselves is ready to run, before they
// take the machine for busy (src/app/openmp_waits.hpp). A reader started with the tool in a
// pipeline runs for its first milliseconds: /usr/bin/python3 reading JSON, 18 ms from start to its
// first read; jq 5 ms. A look takes microseconds and the wait between looks a millisecond, so an
// idle machine is seen at the first moment it is.
inline constexpr int kIdleLookMilliseconds = 50;

}  // namespace sgx::tuning
