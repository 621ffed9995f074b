"""Sprague-Grundy sequences of heap games: compute, find the period, solve positions.

    >>> import sgx
    >>> g = sgx.sequence('kayles', 200)      # numpy array, narrowest unsigned dtype
    >>> sgx.period(g, game='kayles')          # proven by the Guy-Smith theorem
    Period(period=12, preperiod=71, saltus=0, proven=True, theorem='guy-smith', proof_needs_n=168, checked_n=200)
    >>> sgx.solve('nim', [3, 4, 5]).winning_moves
    [<heap 1: 3 -> 1>]

Games are codes (0.137, 4!.0, 0.[3], sub:1,3,4), bash:M, or names (sgx.games()).

The computations are the library's, compiled in sgx._sgx; this module gives each function its
signature and its documentation. Missing values are None, as the JSON reports give null.
"""

import os
from typing import Dict, Iterable, List, Optional, Union

import numpy as np

from . import _sgx
from ._sgx import Milestone, Move, Period, Run, Solution, Stats

__version__: str = _sgx.__version__

__all__ = ["sequence", "period", "stats", "solve", "open", "run", "canonical", "games",
           "Period", "Stats", "Move", "Solution", "Milestone", "Run", "__version__"]

PathLike = Union[str, "os.PathLike[str]"]
Values = Union[np.ndarray, Iterable[int]]


def sequence(game: str, n: int, threads: Optional[int] = None, engine: str = "auto") -> np.ndarray:
    """G(0..n-1) of a heap game, as a numpy array of the narrowest unsigned dtype that holds them.

    game     a code ('0.137', '4!.0', '0.[3]', 'sub:1,3,4'), 'bash:M' (take 1 to M from a heap) or a
             name ('kayles', see sgx.games())
    n        how many values
    threads  OpenMP threads (None: all available)
    engine   'auto', 'sparse', 'sweep' or 'naive'; every engine gives the same values

    Once a period is proven the remaining values follow from it. Ctrl-C stops the computation
    (KeyboardInterrupt). A malformed code raises ValueError.

        >>> sgx.sequence('bash:3', 8).tolist()
        [0, 1, 2, 3, 0, 1, 2, 3]
    """
    return _sgx.sequence(game, n, threads, engine)


def period(values: Union[Values, PathLike], game: Optional[str] = None) -> Period:
    """The eventual period of values (a list or numpy array of non-negative integers), or of the
    run in a file of run_octal (a path: its values are read a block at a time, never all at once).

    With game (the code or name whose values these are), the period is detected and proven as
    run_octal does: .proven is True when a theorem certifies it from the values given, and
    .proof_needs_n says how many values that takes (None when no theorem applies). Without game,
    the period is found by repetition alone (a tail of two full periods covering a quarter of the
    values) and never proven. A file names its game (game, if given, must be the same).

        >>> sgx.period(sgx.sequence('kayles', 120), game='kayles')
        Period(period=12, preperiod=71, saltus=0, proven=False, theorem=None, proof_needs_n=168, checked_n=120)
    """
    return _sgx.period(values, game)


def stats(values: Values, game: Optional[str] = None) -> Stats:
    """Histogram and rare values: a position n is rare under mask m when G(n) & m has an even number
    of bits set; rare_mask is the non-zero mask with the fewest rare positions. With game, whose
    two-heap splits all take k tokens of one parity, the mask may use the heap's parity too
    (rare_position_bit): n is then rare when G(n) & m has as many bits set as n - k, modulo 2.
    Stats.is_rare(values) marks the rare positions.

        >>> s = sgx.stats(sgx.sequence('4!.0', 2**12))
        >>> int(s.is_rare(sgx.sequence('4!.0', 2**12)).sum()) == s.rare_count
        True
    """
    return _sgx.stats(values, game)


def _is_rare(self: Stats, values: Values, start: int = 0) -> np.ndarray:
    """Whether each of values is rare under this rare mask, values[i] being G(start + i): a numpy
    bool array, by the library's own test (the heap's parity included when rare_position_bit)."""
    return _sgx.rare_flags(self, values, start)


def _counts_from_1(self: Milestone) -> List[int]:
    """The counts of G(1..N) by value, as published record runs list them (G(0..N-1) less
    G(0) = 0, plus G(N)). ValueError when G(N) is not known."""
    return _sgx.counts_from_1(self)


Stats.is_rare = _is_rare
Milestone.counts_from_1 = _counts_from_1


def solve(game: str, heaps: Iterable[object], misere: bool = False) -> Solution:
    """Solves a position: a sum of heaps of one game.

    game    a code or name as sgx.sequence takes it, or 'wythoff', 'fibonacci', 'cut'
    heaps   ints for heap games; (a, b) pairs for wythoff; (rows, columns) sheets for cut;
            (n, limit) or n for fibonacci
    misere  whoever makes the last move loses

    Move.index counts the heaps from 1, as the tools print them.

        >>> s = sgx.solve('nim', [3, 4, 5])
        >>> s.value, s.outcome, s.winning_moves
        (2, 'N', [<heap 1: 3 -> 1>])
        >>> s.winning_moves[0].index
        1
    """
    return _sgx.solve(game, heaps, misere)


def open(path: PathLike) -> Run:  # noqa: A001 - sgx.open, as in the tools' documentation
    """Reads a run file of run_octal (HDF5), of any format version: .values as a numpy array, and
    .game, .n, .complete, .target_n, .engine, .program_version, .format_version, .stats, .period
    as stored, and .milestones, the statistics at every power of two N (Milestone; counted from
    the values for a file written before runs kept them). A file of format version 2 with a
    released middle holds no values between G(prefix_n - 1) and G(tail_start): .values then ends
    at prefix_n and .tail holds G(tail_start..n-1). A damaged, missing or foreign file raises
    OSError with the reason.

    The file is read when opened and closed at once; `with sgx.open(path) as run:` works too, and
    the values stay valid after the block.
    """
    return _sgx.open(path)


def run(game: str, path: PathLike, n: Optional[int] = None, *, until_proven: Optional[bool] = None,
        max_n: int = 2**24, threads: Optional[int] = None, checkpoint_every: float = 300.0) -> Run:
    """Computes a run of a heap game into a run file, as run_octal does, and returns it opened
    (sgx.open).

    game              a code or a name, as for sgx.sequence
    path              the run file; a run of the same game there is continued (its values kept),
                      any other file is left as it is (ValueError, or OSError for a file that is
                      not a run)
    n                 exactly n values; with until_proven, at least n
    until_proven      on until the period is proven or max_n values (default: when n is not given)
    max_n             the cap until proven (default 2**24)
    threads           OpenMP threads (default: all available)
    checkpoint_every  seconds between checkpoints while computing (0: only when stopped); Ctrl-C
                      stops with a checkpoint, and a later call continues from it

    sgx.run('kayles', 'kayles.h5').period is proven: period 12 from 71 on.
    """
    return _sgx.run(game, path, n, until_proven, max_n, threads, checkpoint_every)


def canonical(code: str) -> str:
    """The canonical text of a heap game.

        >>> sgx.canonical('kayles'), sgx.canonical('bash:3')
        ('0.77', '0.333')

    ValueError for a malformed code."""
    return _sgx.canonical(code)


def games() -> Dict[str, str]:
    """The named games and their codes, e.g. {'kayles': '0.77', ...}."""
    return _sgx.games()
