#!/usr/bin/python3
"""Compares a run's milestones with published figures, and says which agree, which differ and where.

The run's figures are those `sg_period FILE --milestones --json` prints: for every power of two
N <= n the run passed, the counts of each value among G(0..N-1), G(N) (null when the run holds
exactly N values), the largest value and where it first occurs, and the rare-value statistics.

- Marek Rogalski's value counts (results/published/rogalski, in the layout of
  github.com/rogalski-wmii-uni-lodz-pl/octal): the file GAME/N counts the values of G(1..N). The
  run's counts of G(0..N-1), less G(0) = 0 and plus G(N), must equal them, value by value; at an N
  where the run holds exactly N values G(N) is missing and the counts cannot be compared there (a
  run of N + 1 values can).
- Tomek Czajka's table (results/published/tczajka/UnsolvedGames.md, from github.com/tczajka/octal-games):
  for G(0..n-1) the largest value and its first index, the rare mask, the number of rare
  positions and the last one; each must equal the run's at n.

One line per comparison: agree, DIFFER (the values whose counts differ, or the statistics that
differ, and the published file), cannot compare (and why), and one line per game for the
published figures beyond the run's n (not reached). Exit status 0 when everything compared agrees
and something was compared, 1 when anything differs or nothing could be compared, 2 for a usage
error (a missing file, sg_period not found or failing, a file that is not what it should be).
"""

import argparse
import json
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_ROGALSKI = os.path.join(ROOT, "results", "published", "rogalski")
DEFAULT_TCZAJKA = os.path.join(ROOT, "results", "published", "tczajka", "UnsolvedGames.md")
MAX_LISTED = 8  # values whose counts differ, listed on one line


class UsageError(Exception):
    pass


def game_key(name):
    """One spelling per game: sgx's canonical code (0.6, 4!.0) for tczajka's .6 and Grundy's."""
    key = name.strip().lower()
    if key in ("grundy", "grundy's", "4!.0"):
        return "4!.0"
    return "0" + key if key.startswith(".") else key


def shown(path):
    """A default path as the user would write it: relative to the working directory when inside it."""
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


def at(N):
    """2^k = N for a power of two, else N."""
    return f"2^{N.bit_length() - 1} = {N}" if N > 0 and N & (N - 1) == 0 else str(N)


def find_sg_period():
    """$SGX_BIN_DIR/sg_period, else build/bin/sg_period of this repository, else sg_period on PATH."""
    places = [os.path.join(os.environ["SGX_BIN_DIR"], "sg_period")] if os.environ.get("SGX_BIN_DIR") else []
    places.append(os.path.join(ROOT, "build", "bin", "sg_period"))
    for place in places:
        if os.path.isfile(place) and os.access(place, os.X_OK):
            return place
    found = shutil.which("sg_period")
    if not found:
        raise UsageError("sg_period not found: looked in $SGX_BIN_DIR, " + shown(os.path.join(ROOT, "build", "bin"))
                         + " and PATH (build it, set SGX_BIN_DIR, or give the run's JSON with --from-json)")
    return found


def parse_runs(text, source):
    """The run objects of a JSON text: one object per line (sg_period's), or one object or list."""
    try:
        whole = json.loads(text)
        objects = whole if isinstance(whole, list) else [whole]
    except json.JSONDecodeError:
        try:
            objects = [json.loads(line) for line in text.splitlines() if line.strip()]
        except json.JSONDecodeError as e:
            raise UsageError(f"{source}: not JSON ({e})") from None
    if not objects:
        raise UsageError(f"{source}: no run in it")
    for run in objects:
        if not isinstance(run, dict) or not {"game", "n", "milestones"} <= run.keys():
            raise UsageError(f"{source}: a run without game, n and milestones "
                             "(the JSON of sg_period FILE --milestones --json)")
        if not all(isinstance(m, dict) and "n" in m for m in run["milestones"]):
            raise UsageError(f"{source}: a milestone without n")
    return objects


def load_run_files(paths):
    for path in paths:
        if not os.path.isfile(path):
            raise UsageError(f"{path}: no such run file")
    runs = []
    program = find_sg_period() if paths else None
    for path in paths:
        r = subprocess.run([program, path, "--milestones", "--json"], capture_output=True, text=True)
        if r.returncode != 0:
            raise UsageError(f"{program} {path} --milestones --json failed (exit status {r.returncode}): "
                             + (r.stderr.strip() or r.stdout.strip()))
        runs += [(path, run) for run in parse_runs(r.stdout, path)]
    return runs


def load_json_files(paths):
    runs = []
    for path in paths:
        try:
            with open(path) as f:
                text = f.read()
        except OSError as e:
            raise UsageError(f"{path}: {e.strerror}") from None
        runs += [(path, run) for run in parse_runs(text, path)]
    return runs


def is_count_dir(path):
    return any(name.isdigit() for name in os.listdir(path))


def load_rogalski(path):
    """{game: {N: file}} from a results root of GAME folders or from one GAME folder."""
    if not os.path.isdir(path):
        raise UsageError(f"{path}: no such directory (--rogalski takes a results root or one GAME folder)")
    if is_count_dir(path):
        folders = {os.path.basename(os.path.normpath(path)): path}
    else:
        folders = {name: os.path.join(path, name) for name in sorted(os.listdir(path))
                   if os.path.isdir(os.path.join(path, name)) and is_count_dir(os.path.join(path, name))}
    if not folders:
        raise UsageError(f"{path}: holds no rogalski counts (files GAME/N, N a number)")
    return {game_key(game): {int(name): os.path.join(folder, name) for name in os.listdir(folder) if name.isdigit()}
            for game, folder in folders.items()}


def read_counts(path):
    counts = {}
    with open(path) as f:
        for number, line in enumerate(f, 1):
            fields = line.split()
            if not fields:
                continue
            if len(fields) != 2 or not all(field.isdigit() for field in fields):
                raise UsageError(f"{path}:{number}: not 'value count': {line.strip()!r}")
            counts[int(fields[0])] = counts.get(int(fields[0]), 0) + int(fields[1])
    return counts


TCZAJKA_COLUMNS = {"game": "game", "n": "n", "largest idx": "max_at", "largest": "max_value",
                   "rare mask": "rare_mask", "num rare": "rare_count", "last rare": "last_rare"}


def parse_number(text):
    base, _, power = text.partition("^")
    return int(base) ** int(power) if power else int(text)


def load_tczajka(path):
    """The rows of tczajka's markdown table that have figures, as dicts of sgx's names."""
    try:
        with open(path) as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise UsageError(f"{path}: {e.strerror}") from None
    columns, rows = None, []
    for number, line in enumerate(lines, 1):
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if columns is None:
            if set(TCZAJKA_COLUMNS) <= {cell.lower() for cell in cells}:
                columns = [TCZAJKA_COLUMNS.get(cell.lower()) for cell in cells]
            continue
        if "|" not in line or set("".join(cells)) <= set(":- "):
            continue
        row = dict(zip(columns, cells))
        if not row.get("n"):
            continue  # a game named, no figures
        try:
            mask, _, position = row["rare_mask"].lower().partition("+")
            rows.append({"game": row["game"], "line": number, "n": parse_number(row["n"]),
                         "max_at": int(row["max_at"]), "max_value": int(row["max_value"]),
                         "rare_mask": int(mask, 16), "rare_position_bit": position == "pos",
                         "rare_count": int(row["rare_count"]), "last_rare": int(row["last_rare"])})
        except (KeyError, ValueError):
            raise UsageError(f"{path}:{number}: a row that is not game | n | figures: {line.strip()!r}") from None
    if columns is None:
        raise UsageError(f"{path}: no table with the columns {' | '.join(TCZAJKA_COLUMNS)}")
    return rows


class Tally:
    def __init__(self):
        self.counts = {"agree": 0, "differ": 0, "cannot compare": 0, "not reached": 0}

    def say(self, kind, line):
        self.counts[kind] += 1
        print(line)


def compare_rogalski(game, run, milestones, published, tally):
    beyond = []
    for N in sorted(published):
        where = f"{game} {at(N)}"
        if N > run["n"]:
            beyond.append(N)
        elif N not in milestones:
            tally.say("cannot compare", f"{where}: cannot compare with rogalski: the run has no milestone at {N}")
        elif milestones[N].get("value_at_n") is None:
            tally.say("cannot compare", f"{where}: cannot compare with rogalski: the run holds exactly {N} values "
                      f"and the counts of G(1..{N}) need G({N}); run to {N + 1} values to compare at {N}")
        else:
            m = milestones[N]
            ours = dict(enumerate(m["histogram"]))
            ours[0] = ours.get(0, 0) - 1  # G(0) = 0 is not counted, G(N) is
            ours[m["value_at_n"]] = ours.get(m["value_at_n"], 0) + 1
            theirs = read_counts(published[N])
            differing = [v for v in sorted(set(ours) | set(theirs)) if ours.get(v, 0) != theirs.get(v, 0)]
            if not differing:
                distinct = sum(1 for count in theirs.values() if count)
                tally.say("agree", f"{where}: agree with rogalski (G(1..{N}): {distinct} distinct values)")
            else:
                listed = "; ".join(f"value {v}: run {ours.get(v, 0)}, published {theirs.get(v, 0)}"
                                   for v in differing[:MAX_LISTED])
                more = f"; and {len(differing) - MAX_LISTED} more values" if len(differing) > MAX_LISTED else ""
                tally.say("differ", f"{where}: DIFFER from rogalski ({published[N]}): {listed}{more}")
    if beyond:
        tally.say("not reached", f"{game} {at(beyond[0])} .. {at(beyond[-1])}: not reached "
                  f"({len(beyond)} rogalski files; the run has n = {run['n']})")


TCZAJKA_FIELDS = ["max_value", "max_at", "rare_mask", "rare_position_bit", "rare_count", "last_rare"]


def run_figures(figures):
    """The run's statistics (of a milestone or of the whole run) under the names of TCZAJKA_FIELDS."""
    stats = figures.get("stats") or {}
    return {"max_value": figures.get("max_value"), "max_at": figures.get("max_at"),
            **{field: stats.get(field) for field in TCZAJKA_FIELDS[2:]}}


def describe(figures):
    mask = f"{figures['rare_mask']:#x}" + ("+pos" if figures["rare_position_bit"] else "") \
        if isinstance(figures["rare_mask"], int) else "?"
    return (f"largest {figures['max_value']} at {figures['max_at']}, rare mask {mask}, "
            f"{figures['rare_count']} rare, last at {figures['last_rare']}")


def compare_tczajka(game, run, milestones, rows, path, tally):
    for row in rows:
        N, where = row["n"], f"{game} {at(row['n'])}"
        if N > run["n"]:
            tally.say("not reached", f"{where}: not reached (tczajka's {row['game']} at n = {N}; "
                      f"the run has n = {run['n']})")
            continue
        if N in milestones:
            ours = run_figures(milestones[N])
        elif N == run["n"]:
            ours = run_figures(run)
        else:
            tally.say("cannot compare", f"{where}: cannot compare with tczajka: the run has no milestone at {N}")
            continue
        differing = [field for field in TCZAJKA_FIELDS if ours[field] != row[field]]
        if not differing:
            tally.say("agree", f"{where}: agree with tczajka ({describe(ours)})")
        else:
            listed = "; ".join(f"{field}: run {ours[field]}, published {row[field]}" for field in differing)
            tally.say("differ", f"{where}: DIFFER from tczajka ({path} line {row['line']}): {listed}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("runs", nargs="*", metavar="RUN.h5", help="run files, read with sg_period --milestones --json")
    parser.add_argument("--from-json", action="append", default=[], metavar="FILE",
                        help="the output of sg_period --milestones --json saved in FILE (repeatable)")
    parser.add_argument("--rogalski", metavar="DIR", help="rogalski's results: a root of GAME folders or one "
                        "GAME folder (default, when neither source is given: results/published/rogalski)")
    parser.add_argument("--tczajka", metavar="FILE", help="tczajka's UnsolvedGames.md table (default, when "
                        "neither source is given: results/published/tczajka/UnsolvedGames.md)")
    args = parser.parse_args(argv)
    if not args.runs and not args.from_json:
        parser.error("give a run file or --from-json FILE")
    if args.rogalski is None and args.tczajka is None:
        args.rogalski, args.tczajka = shown(DEFAULT_ROGALSKI), shown(DEFAULT_TCZAJKA)
    try:
        rogalski = load_rogalski(args.rogalski) if args.rogalski is not None else None
        tczajka = load_tczajka(args.tczajka) if args.tczajka is not None else None
        runs = load_json_files(args.from_json) + load_run_files(args.runs)
        tally = Tally()
        for source, run in runs:
            game = game_key(run["game"])
            print(f"{run['game']}: n = {run['n']} ({source})")
            milestones = {m["n"]: m for m in run["milestones"]}
            if rogalski is not None:
                if game in rogalski:
                    compare_rogalski(run["game"], run, milestones, rogalski[game], tally)
                else:
                    print(f"{run['game']}: no rogalski counts of this game in {args.rogalski}")
            if tczajka is not None:
                rows = [row for row in tczajka if game_key(row["game"]) == game]
                if rows:
                    compare_tczajka(run["game"], run, milestones, rows, args.tczajka, tally)
                else:
                    print(f"{run['game']}: no row of this game in {args.tczajka}")
    except UsageError as e:
        print(f"compare_published.py: {e}", file=sys.stderr)
        return 2
    c = tally.counts
    print(f"summary: {c['agree']} agree, {c['differ']} differ, {c['cannot compare']} cannot compare, "
          f"{c['not reached']} not reached")
    if c["differ"]:
        return 1
    if not c["agree"]:
        print("compare_published.py: nothing was compared, so nothing agrees", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
