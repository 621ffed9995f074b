#!/usr/bin/python3
"""Counts and checks of the census tables in results/ (scripts/census.sh makes them).

For each table: games, solved (proven), unsolved by what stopped them, and equivalent to another
code; the sum of the seconds column. Then every published solved game of up to three digits
with a long preperiod or period (from the tables of Flammenkamp and of tczajka/octal-games) and
each code of the tables marked the same as it, with the census's result beside the published one. Unsolved rows that
name a theorem are reported as errors (exit status 1).

    /usr/bin/python3 scripts/census_summary.py results/census-0.2digit.csv results/census-4.2digit.csv \\
        results/census-0.3digit.csv
"""

import csv
import sys

# Published solved games: code -> (preperiod, period), preperiod = last exception + 1.
PUBLISHED = {
    "0.45": (498, 20), "0.156": (3479, 349), "0.356": (7315, 142), "0.644": (3256, 442),
    "0.165": (5181, 1550), "0.16": (105351, 149459), "0.56": (326640, 144), "0.127": (46578, 4),
    "0.376": (2268248, 4), "0.354": (10061916, 1180),
}


def read_rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def main(paths):
    bad = 0
    every = {}
    for path in paths:
        rows = read_rows(path)
        solved = [r for r in rows if r["proven"] == "true"]
        stopped = {}
        for r in rows:
            if r["proven"] != "true":
                stopped[r["stopped_by"]] = stopped.get(r["stopped_by"], 0) + 1
                if r["theorem"]:
                    print(f"ERROR {path}: unsolved {r['game']} names the theorem {r['theorem']}")
                    bad += 1
        equivalent = sum(1 for r in rows if r["equivalent_to"])
        distinct_unsolved = sum(1 for r in rows if r["proven"] != "true" and not r["equivalent_to"])
        seconds = sum(float(r["seconds"]) for r in rows)
        caps = ", ".join(f"{cap}: {count}" for cap, count in sorted(stopped.items()))
        print(f"{path}: {len(rows)} games, {len(solved)} solved, {len(rows) - len(solved)} unsolved "
              f"({caps}; "
              f"{distinct_unsolved} not equivalent to another code), {equivalent} equivalent to another code; "
              f"{seconds:.0f} s of game time")
        for r in rows:
            every[r["game"]] = r
    print("published solved games and their equivalents in the tables:")
    for code, (preperiod, period) in PUBLISHED.items():
        # The published code itself, written canonically, and every code marked the same as it.
        group = [g for g, r in every.items() if g == code or r["equivalent_to"] == code]
        for game in sorted(group):
            r = every[game]
            if r["proven"] == "true":
                agrees = (int(r["preperiod"]), int(r["period"])) == (preperiod, period)
                verdict = "agrees" if agrees else f"DISAGREES: {r['preperiod']}/{r['period']}"
                bad += 0 if agrees else 1
            else:
                verdict = f"unsolved at n = {r['n']} ({r['stopped_by']}; the proof needs " \
                          f"{2 * preperiod + 2 * period} values and more)"
            print(f"  {game:7} published {preperiod}/{period}: {verdict}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
