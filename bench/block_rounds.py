#!/usr/bin/python3
"""How many rounds a block of heaps would need if every heap of it were decided at once, again and
again, until nothing changes (bench/HISTORY.md, "Deciding a block in rounds").

The sparse kernel decides a block's heaps in order, because a heap's pairs with a partner inside
the block need that partner's value. Decided in rounds instead, every heap of the block would
take its value from the values the previous round gave the others (the first round: from its
pairs with a partner below the block alone), all heaps of a round in parallel. The values stop
changing after at most as many rounds as the block has heaps, and are then right: the first heap
of the block needs no other, so it is right after one round, the second after two at most, and so
on. What matters for many threads is how many rounds it takes in practice, which this counts from
the true values of a game.

    build/bin/run_octal 4!.0 --n 2^20 --print --quiet > grundy.txt
    /usr/bin/python3 bench/block_rounds.py 4!.0 grundy.txt --start 600000 --block 1024

Each round takes the exact mex of every option (not the kernel's candidates), so the count is a
property of the game, not of the kernel.
"""

import argparse
import sys

import numpy as np

# Each game's moves: heaps removed leaving one heap, tokens taken before a split into two heaps,
# whether the two must differ, and the heap sizes a move takes whole.
GAMES = {
    "4!.0": dict(leave_one=[], split_take=[0], unequal=True, take_all=[]),  # Grundy's game
    "0.6": dict(leave_one=[1], split_take=[1], unequal=False, take_all=[1]),
    "0.167": dict(leave_one=[2, 3], split_take=[2, 3], unequal=False, take_all=[1, 3]),
}


def pair_values(values, m, first_a, last_a, unequal):
    """G(a) ^ G(m - a) for first_a <= a <= last_a and a <= m - a (a < m - a when unequal)."""
    last_a = min(last_a, (m - 1) // 2 if unequal else m // 2)
    if first_a > last_a:
        return np.empty(0, dtype=np.int64)
    a = np.arange(first_a, last_a + 1)
    return values[a] ^ values[m - a]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", choices=sorted(GAMES))
    parser.add_argument("values", help="the game's values, one per line (run_octal --print)")
    parser.add_argument("--start", type=int, required=True, help="the block's first heap")
    parser.add_argument("--block", type=int, default=1024, help="heaps in the block")
    args = parser.parse_args()
    game = GAMES[args.game]
    truth = np.loadtxt(args.values, dtype=np.int64)
    start, count = args.start, args.block
    if start < 1 or start + count > len(truth):
        sys.exit(f"block_rounds: the block {start}..{start + count - 1} lies outside the "
                 f"{len(truth)} values in {args.values}; compute more with run_octal --n")
    width = int(truth.max()) * 2 + 2

    # What each heap sees from options with every part below the block: fixed in every round.
    below = np.zeros((count, width), dtype=bool)
    for i in range(count):
        n = start + i
        for take in game["split_take"]:
            m = n - take
            below[i, pair_values(truth, m, max(1, m - start + 1), m, game["unequal"])] = True
        for take in game["leave_one"]:
            if 1 <= n - take < start:
                below[i, truth[n - take]] = True
        if n in game["take_all"]:
            below[i, 0] = True

    def decide(values):
        decided = np.empty(count, dtype=np.int64)
        for i in range(count):
            n = start + i
            seen = below[i].copy()
            for take in game["split_take"]:
                m = n - take
                seen[pair_values(values, m, 1, m - start, game["unequal"])] = True
            for take in game["leave_one"]:
                if n - take >= start:
                    seen[values[n - take]] = True
            decided[i] = np.argmin(seen)  # the mex
        return decided

    values = truth.copy()
    guess = np.array([np.argmin(below[i]) for i in range(count)])
    first_wrong = int((guess != truth[start:start + count]).sum())
    values[start:start + count] = guess
    changed_per_round = []
    while True:
        decided = decide(values)
        changed_per_round.append(int((decided != values[start:start + count]).sum()))
        values[start:start + count] = decided
        if changed_per_round[-1] == 0:
            break
    right = bool((values[start:start + count] == truth[start:start + count]).all())
    print(f"{args.game}: block of {count} from {start}: {first_wrong} first guesses wrong, "
          f"{len(changed_per_round)} rounds (the last changes nothing), changed per round "
          f"{changed_per_round}, values {'right' if right else 'WRONG'}")
    return 0 if right else 1


if __name__ == "__main__":
    sys.exit(main())
