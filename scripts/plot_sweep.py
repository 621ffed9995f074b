#!/usr/bin/python3
"""Plot a table written by sg_sweep: every game's period against its preperiod.

Proven games are drawn filled, games periodic so far but unproven hollow, and games with no
period found are listed beside the plot. Both axes are log-scaled (period and preperiod range
over orders of magnitude).

Usage:
  /usr/bin/python3 scripts/plot_sweep.py results/census-0.2digit.csv [--out census.png]

Needs Debian's python3-matplotlib (bash scripts/setup.sh plots installs it); run it with
/usr/bin/python3, the interpreter that sees it.
"""

import argparse
import csv
import sys


def fail(message):
    print(f"plot_sweep.py: {message}", file=sys.stderr)
    sys.exit(1)


def read_rows(path):
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError as error:
        fail(f"cannot read {path}: {error.strerror}")
    needed = {"game", "n", "period", "preperiod", "proven"}
    if not rows or not needed <= set(rows[0]):
        fail(f"{path} is not a table written by sg_sweep (columns {', '.join(sorted(needed))} expected)")
    return rows


def number(text):
    return int(text) if text not in ("", None) else None


def plot(path, out):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        fail("needs python3-matplotlib: run 'bash scripts/setup.sh plots', then use /usr/bin/python3")

    rows = read_rows(path)
    # Games marked equivalent to another are drawn once, under the simpler code.
    rows = [row for row in rows if not row.get("equivalent_to")]
    proven = [row for row in rows if row["proven"] in ("1", "true", "yes") and number(row["period"])]
    unproven = [row for row in rows if row not in proven and number(row["period"])]
    no_period = [row["game"] for row in rows if not number(row["period"])]

    fig, ax = plt.subplots(figsize=(10, 7))
    for group, style, label in ((proven, dict(color="#4477aa"), "proven"),
                                (unproven, dict(facecolors="none", edgecolors="#cc3311"), "periodic so far")):
        # A preperiod of 0 is drawn at 0.5 so that it shows on a log scale.
        xs = [max(number(row["preperiod"]), 0.5) for row in group]
        ys = [number(row["period"]) for row in group]
        ax.scatter(xs, ys, s=30, label=f"{label} ({len(group)})", **style)
        for row, x, y in zip(group, xs, ys):
            ax.annotate(row["game"], (x, y), fontsize=7, xytext=(3, 3), textcoords="offset points")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("preperiod (0 drawn at 0.5)")
    ax.set_ylabel("period")
    ax.set_title(f"{path}: {len(rows)} games")
    ax.legend(loc="upper left")
    if no_period:
        ax.text(1.01, 1.0, "no period found:\n" + "\n".join(no_period), transform=ax.transAxes,
                va="top", fontsize=8)
    fig.tight_layout()
    try:
        fig.savefig(out, dpi=100)
    except OSError as error:
        fail(f"cannot write {out}: {error.strerror}")
    print(out)


def main():
    parser = argparse.ArgumentParser(description="Plot an sg_sweep table: periods against preperiods.")
    parser.add_argument("table", help="a CSV table written by sg_sweep --out")
    parser.add_argument("--out", help="PNG to write (default: the table's name with .png)")
    args = parser.parse_args()
    out = args.out or (args.table[:-4] if args.table.endswith(".csv") else args.table) + ".png"
    plot(args.table, out)


if __name__ == "__main__":
    main()
