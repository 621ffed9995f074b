#!/usr/bin/python3
"""Counts and checks of the census tables in results/ (scripts/census.sh makes them).

For each census table (every code of a kind: 0.dd, 4.dd, 0.ddd): games, solved (proven), unsolved
by the cap that stopped them, and equivalent to another code; the sum of the seconds column. Then
every published solved game of up to three digits with a long preperiod or period (from the tables
of Flammenkamp and of tczajka/octal-games) and every code with the same values, with each table's
result beside the published one. Tables given with --reruns hold chosen games computed again at
larger caps; they are checked and compared the same way, but need not hold every code.

A table that is half written is refused (exit status 2, one line on stderr): a sweep still
writing it, or stopped before it finished (its lock file is left, or codes are missing: a sweep
marks equal sequences only when it finishes), or a row cut short. --partial counts such a table's
rows anyway and labels it incomplete. An unsolved row that names a theorem, or a solved game whose
period or preperiod differs from the published one, is an error (exit status 1).

    /usr/bin/python3 scripts/census_summary.py results/census-0.2digit.csv results/census-4.2digit.csv \\
        results/census-0.3digit.csv --reruns results/census-reruns.csv
"""

import argparse
import csv
import errno
import fcntl
import itertools
import os
import sys

# Published solved games: code -> (preperiod, period), preperiod = last exception + 1.
PUBLISHED = {
    "0.45": (498, 20), "0.156": (3479, 349), "0.356": (7315, 142), "0.644": (3256, 442),
    "0.165": (5181, 1550), "0.16": (105351, 149459), "0.56": (326640, 144), "0.127": (46578, 4),
    "0.376": (2268248, 4), "0.354": (10061916, 1180),
}

# The columns of a sg_sweep table, in order (README, "Run a sweep").
COLUMNS = ["game", "n", "period", "preperiod", "saltus", "proven", "theorem", "proof_needs_n", "max_value",
           "max_at", "rare_mask", "rare_count", "last_rare", "stopped_by", "equivalent_to", "sequence_hash",
           "seconds"]


class TableError(Exception):
    """A table that cannot be counted: the message says what is wrong, where, and what to do."""


def well_formed(row):
    """Whether the fields the counts read hold what sg_sweep writes there."""
    try:
        int(row["n"])
        float(row["seconds"])
        if row["proven"] == "true":
            int(row["period"])
            int(row["preperiod"])
        return row["proven"] in ("true", "false")
    except ValueError:
        return False


def read_table(path):
    """The rows of a sg_sweep table as dicts; TableError if it is not one or a row is damaged."""
    try:
        with open(path, newline="") as f:
            text = f.read()
    except OSError as e:
        raise TableError(f"cannot read {path}: {e.strerror}") from None
    lines = text.split("\n")
    if lines[0].split(",") != COLUMNS:
        raise TableError(f"{path} is not a sg_sweep table (its first line is not the header {','.join(COLUMNS)})")
    if lines[-1] == "":
        lines.pop()  # the end of the last line
    elif len(lines) > 1:
        raise TableError(f"{path} line {len(lines)}: the last row is cut short (its sweep was stopped while "
                         f"writing it): run the sweep again with --resume, which drops it and goes on")
    rows, seen = [], set()
    for number, fields in enumerate(csv.reader(lines[1:]), start=2):
        if len(fields) != len(COLUMNS):
            raise TableError(f"{path} line {number}: damaged row ({len(fields)} fields, a table row has "
                             f"{len(COLUMNS)})")
        row = dict(zip(COLUMNS, fields))
        if not well_formed(row):
            raise TableError(f"{path} line {number}: damaged row (n, proven, seconds, or a proven row's period "
                             f"and preperiod, are not what sg_sweep writes)")
        if row["game"] in seen:
            raise TableError(f"{path} line {number}: {row['game']} appears twice")
        seen.add(row["game"])
        rows.append(row)
    return rows


def lock_state(path):
    """Why a table's lock file says it is half written, or None: 'held by ...' while a sweep writes
    it, 'left by ...' when its sweep stopped before finishing (a sweep removes it when done)."""
    lock = path + ".lock"
    try:
        fd = os.open(lock, os.O_RDONLY)
    except FileNotFoundError:
        return None
    try:
        holder = os.read(fd, 512).decode(errors="replace").strip() or "a sweep"
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError as e:
            if e.errno in (errno.EWOULDBLOCK, errno.EAGAIN):
                return f"a sweep is writing it now ({holder}, lock {lock})"
            raise
        return f"its sweep stopped before finishing ({holder}; lock {lock} left)"
    finally:
        os.close(fd)


def missing_codes(rows):
    """Codes of the table's kinds (a prefix and a number of digits, as 0.ddd) that it lacks."""
    kinds = {(r["game"].split(".")[0], len(r["game"].split(".")[1])) for r in rows if "." in r["game"]}
    present = {r["game"] for r in rows}
    missing = []
    for prefix, digits in sorted(kinds):
        for code in itertools.product("01234567", repeat=digits):
            game = prefix + "." + "".join(code)
            if game not in present:
                missing.append(game)
    return missing


def half_written(path, rows, census):
    """Why the table is not a finished sweep's, or an empty string."""
    why = lock_state(path) or ""
    missing = missing_codes(rows) if census else []
    if missing:
        why += ("; " if why else "") + (f"{len(missing)} codes missing (the first {missing[0]}): its sweep "
                                        f"has not finished")
    return why


def count(path, rows, note):
    """Prints a table's counts and its unsolved games by cap; returns the number of errors."""
    errors = 0
    solved = [r for r in rows if r["proven"] == "true"]
    unsolved = [r for r in rows if r["proven"] != "true"]
    by_cap = {}
    for r in unsolved:
        by_cap.setdefault(r["stopped_by"] or "none", []).append(r)
        if r["theorem"]:
            print(f"ERROR {path}: unsolved {r['game']} names the theorem {r['theorem']}")
            errors += 1
    equivalent = sum(1 for r in rows if r["equivalent_to"])
    seconds = sum(float(r["seconds"]) for r in rows)
    caps = ", ".join(f"{cap}: {len(games)}" for cap, games in sorted(by_cap.items()))
    print(f"{path}{note}: {len(rows)} games, {len(solved)} solved, {len(unsolved)} unsolved ({caps or 'none'}), "
          f"{equivalent} equivalent to another code; {seconds:.0f} s of game time")
    for cap, games in sorted(by_cap.items()):
        distinct = [r["game"] for r in games if not r["equivalent_to"]]
        print(f"  stopped by {cap}: {len(games)} rows, {len(distinct)} not equivalent to another code: "
              f"{' '.join(distinct)}")
    return errors


def root_of(game, marks):
    """The code a chain of equivalence marks ends at (0.470 -> 0.47 -> 0.45)."""
    seen = set()
    while marks.get(game) and game not in seen:
        seen.add(game)
        game = marks[game]
    return game


def proof_needs(code, preperiod, period):
    """Values the Guy-Smith proof of an octal game's period needs: 2 preperiod + 2 period + t, t its
    largest take (docs/THEORY.md section 3)."""
    take = len(code.split(".")[1].rstrip("0"))
    return 2 * preperiod + 2 * period + take


def compare_published(tables):
    """Prints every published game's rows and verdicts; returns the number of disagreements."""
    marks = {}
    for _, rows in tables:
        for r in rows:
            if r["equivalent_to"]:
                marks.setdefault(r["game"], r["equivalent_to"])
    errors = 0
    print("published solved games and the codes with the same values in the tables:")
    for code, (preperiod, period) in PUBLISHED.items():
        root = root_of(code, marks)
        found = False
        for path, rows in tables:
            for r in rows:
                if r["game"] != code and root_of(r["game"], marks) != root:
                    continue
                found = True
                if r["proven"] == "true":
                    agrees = (int(r["preperiod"]), int(r["period"])) == (preperiod, period)
                    verdict = f"agrees (n = {r['n']})" if agrees else \
                        f"DISAGREES: {r['preperiod']}/{r['period']} (n = {r['n']})"
                    errors += 0 if agrees else 1
                else:
                    verdict = f"unsolved at n = {r['n']} (stopped by {r['stopped_by']}; the proof of {code} " \
                              f"needs {proof_needs(code, preperiod, period)} values)"
                print(f"  {r['game']:7} published {preperiod}/{period}: {verdict}  [{os.path.basename(path)}]")
        if not found:
            print(f"  {code:7} published {preperiod}/{period}: not in the tables")
    return errors


def main(argv):
    parser = argparse.ArgumentParser(description="Counts and checks of the census tables (sg_sweep CSV files).")
    parser.add_argument("tables", nargs="+", help="census tables: every code of a kind, as 0.ddd")
    parser.add_argument("--reruns", nargs="*", default=[], help="tables of chosen games computed at larger caps")
    parser.add_argument("--partial", action="store_true", help="count half-written tables too, labelled incomplete")
    args = parser.parse_args(argv)

    tables = []
    try:
        for path, census in [(p, True) for p in args.tables] + [(p, False) for p in args.reruns]:
            rows = read_table(path)
            why = half_written(path, rows, census)
            if why and not args.partial:
                raise TableError(f"{path} is half written: {why}; finish it with its sweep's --resume, "
                                 f"or pass --partial to count its rows anyway")
            tables.append((path, rows, census, f" (INCOMPLETE: {why})" if why else ""))
    except TableError as e:
        print(f"census_summary.py: {e}", file=sys.stderr)
        return 2

    errors = sum(count(path, rows, note) for path, rows, _, note in tables)
    errors += compare_published([(path, rows) for path, rows, _, _ in tables])
    unsolved = sum(1 for _, rows, _, _ in tables for r in rows if r["proven"] != "true")
    theorems = sum(1 for _, rows, _, _ in tables for r in rows if r["proven"] != "true" and r["theorem"])
    print(f"unsolved rows naming a theorem: {theorems} of {unsolved}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
