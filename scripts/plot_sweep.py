#!/usr/bin/python3
"""Plot a table written by sg_sweep: every game's period against its preperiod.

Proven games are drawn filled, games periodic so far but unproven hollow, and games with no
period found are listed beside the plot. Games with the same preperiod and period share a point
and one label. Both axes are logarithmic (period and preperiod range over orders of magnitude),
the preperiod's linear below 1 so that a preperiod of 0 is drawn at 0.

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


# Where a label may go beside its point, in points: right, left, above, below, then the corners,
# then the same farther out (with a line to the point).
NEAR = [(6, 0, "left", "center"), (-6, 0, "right", "center"), (0, 6, "center", "bottom"), (0, -6, "center", "top"),
        (5, 5, "left", "bottom"), (5, -5, "left", "top"), (-5, 5, "right", "bottom"), (-5, -5, "right", "top")]
OFFSETS = NEAR + [(4 * dx, 4 * dy, ha, va) for dx, dy, ha, va in NEAR]


def place_labels(ax, labels):
    """Each label beside its point where it covers no point, no other label and stays inside the axes:
    the first free place of OFFSETS, tried in order, points of many labels first. A label with no free
    place takes the farthest right one, with a line to its point."""
    from matplotlib.transforms import Bbox
    renderer = ax.figure.canvas.get_renderer()
    inside = ax.get_window_extent(renderer)
    taken = []
    for x, y, _ in labels:
        px, py = ax.transData.transform((x, y))
        taken.append(Bbox.from_bounds(px - 4, py - 4, 8, 8))
    for x, y, text in sorted(labels, key=lambda label: -label[2].count(",")):
        for dx, dy, ha, va in OFFSETS:
            # Farther out, a thin line shows whose label it is.
            line = None if (dx, dy, ha, va) in NEAR else dict(arrowstyle="-", color="#999999", linewidth=0.5)
            label = ax.annotate(text, (x, y), xytext=(dx, dy), textcoords="offset points", ha=ha, va=va, fontsize=7,
                                arrowprops=line)
            box = label.get_window_extent(renderer)
            fits = inside.x0 <= box.x0 and box.x1 <= inside.x1 and inside.y0 <= box.y0 and box.y1 <= inside.y1
            if fits and not any(box.overlaps(other) for other in taken):
                taken.append(box)
                break
            label.remove()
        else:
            label = ax.annotate(text, (x, y), xytext=(24, 12), textcoords="offset points", fontsize=7,
                                arrowprops=dict(arrowstyle="-", color="#999999", linewidth=0.5))
            taken.append(label.get_window_extent(renderer))


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
    labels = []  # (preperiod, period, text)
    for group, style, label in ((proven, dict(color="#4477aa"), "proven"),
                                (unproven, dict(facecolors="none", edgecolors="#cc3311"), "periodic so far")):
        if not group:
            continue
        # Games with the same preperiod and period share a point and one label naming them all.
        games_at = {}
        for row in group:
            games_at.setdefault((number(row["preperiod"]), number(row["period"])), []).append(row["game"])
        xs = [x for x, _ in games_at]
        ys = [y for _, y in games_at]
        ax.scatter(xs, ys, s=30, label=f"{label} ({len(group)})", zorder=3, **style)
        for (x, y), games in games_at.items():
            lines = [", ".join(games[i:i + 4]) for i in range(0, len(games), 4)]
            labels.append((x, y, "\n".join(lines)))
    # The preperiod may be 0: linear below 1, logarithmic above, so 0 is drawn where it is.
    ax.set_xscale("symlog", linthresh=1)
    ax.set_xlim(left=-0.3)
    ax.set_yscale("log")
    ax.set_xlabel("preperiod")
    ax.set_ylabel("period")
    ax.set_title(f"{path}: {len(rows)} games")
    if proven or unproven:
        ax.legend(loc="upper left")
    place_labels(ax, labels)
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
