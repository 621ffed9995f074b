#!/usr/bin/python3
"""Plot a nim-sequence stored by run_octal.

Four panels: the sequence (n against G(n), n log-scaled for long runs), the value histogram with
rare and common values coloured, the rare positions over n, and, when a period was found, the end
of the preperiod with one period drawn beside it.

Usage:
  /usr/bin/python3 scripts/plot_sequence.py results/4!.0.h5 [--out grundy.png]

Needs Debian's python3-h5py and python3-matplotlib (bash scripts/setup.sh plots installs them);
run it with /usr/bin/python3, the interpreter that sees them.
"""

import argparse
import sys

# Points drawn at most per panel: beyond this the sequence is sampled (every rare position kept).
MAX_POINTS = 200_000


def fail(message):
    print(f"plot_sequence.py: {message}", file=sys.stderr)
    sys.exit(1)


def load(path):
    try:
        import h5py
        import numpy as np
    except ImportError:
        fail("needs python3-h5py and python3-matplotlib: run 'bash scripts/setup.sh plots', "
             "then use /usr/bin/python3")
    try:
        with h5py.File(path, "r") as f:
            values = np.asarray(f["values"][:], dtype=np.int64)
            game = f.attrs["game"].decode() if isinstance(f.attrs["game"], bytes) else str(f.attrs["game"])
            mask = int(f["stats"].attrs["rare_mask"]) if "stats" in f else 0
            period = {}
            if "period" in f and int(f["period"].attrs["found"]):
                attrs = f["period"].attrs
                period = {key: int(attrs[key]) for key in ("preperiod", "period", "saltus", "proven")}
                period["theorem"] = attrs["theorem"].decode() if isinstance(attrs["theorem"], bytes) else ""
    except (OSError, KeyError) as error:
        fail(f"cannot read {path} as a run file: {error}")
    return game, values, mask, period


def rare_flags(values, mask):
    """True where popcount(G(n) & mask) is even: the rare values of the sparse-space method."""
    import numpy as np
    bits = np.bitwise_and(values, mask)
    parity = np.zeros_like(bits)
    while bits.any():
        parity ^= bits & 1
        bits >>= 1
    return parity == 0


def sample(n_count):
    """Indices to draw: all of them, or an even sample of MAX_POINTS."""
    import numpy as np
    if n_count <= MAX_POINTS:
        return np.arange(n_count)
    return np.unique(np.linspace(0, n_count - 1, MAX_POINTS).astype(np.int64))


def plot(path, out):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    game, values, mask, period = load(path)
    n_count = len(values)
    if n_count == 0:
        fail(f"{path} holds no values")
    rare = rare_flags(values, mask) if mask else np.zeros(n_count, dtype=bool)
    common_colour, rare_colour = "#4477aa", "#cc3311"

    fig, axes = plt.subplots(2, 2, figsize=(13, 8.5))
    fig.suptitle(f"{game}: G(0..{n_count - 1})", fontsize=14)

    ax = axes[0][0]
    shown = sample(n_count)
    shown = shown[~rare[shown]]
    ax.scatter(shown, values[shown], s=1, color=common_colour, label="common")
    rare_positions = np.flatnonzero(rare)
    ax.scatter(rare_positions, values[rare_positions], s=4, color=rare_colour, label="rare")
    if n_count > 10_000:
        ax.set_xscale("symlog", linthresh=100)
    ax.set_xlabel("n")
    ax.set_ylabel("G(n)")
    ax.set_title("the sequence")
    ax.legend(loc="upper left", markerscale=4)

    ax = axes[0][1]
    counts = np.bincount(values)
    value_axis = np.arange(len(counts))
    value_is_rare = rare_flags(value_axis, mask) if mask else np.zeros(len(counts), dtype=bool)
    ax.bar(value_axis[~value_is_rare], counts[~value_is_rare], width=1.0, color=common_colour, label="common")
    ax.bar(value_axis[value_is_rare], counts[value_is_rare], width=1.0, color=rare_colour, label="rare")
    ax.set_yscale("log")
    ax.set_xlabel("value")
    ax.set_ylabel("positions")
    ax.set_title(f"histogram (rare mask {mask:#x})")
    ax.legend()

    ax = axes[1][0]
    if len(rare_positions):
        ax.step(rare_positions, np.arange(1, len(rare_positions) + 1), where="post", color=rare_colour)
        ax.set_title(f"rare positions: {len(rare_positions)}, last at {rare_positions[-1]}")
        if rare_positions[-1] > 1000:
            ax.set_xscale("symlog", linthresh=100)
    else:
        ax.set_title("no rare positions")
    ax.set_xlabel("n")
    ax.set_ylabel("rare positions up to n")

    ax = axes[1][1]
    if period:
        n0, p = period["preperiod"], period["period"]
        start = max(0, n0 - 3 * p)
        stop = min(n_count, n0 + p)
        pre = np.arange(start, min(n0, stop))
        one = np.arange(n0, stop)
        ax.plot(pre, values[pre], ".", color="#999999", label="end of the preperiod")
        ax.plot(one, values[one], "o-", color=common_colour, markersize=3, label="one period")
        proven = f"proven ({period['theorem']})" if period["proven"] else "not proven"
        saltus = f", saltus {period['saltus']}" if period["saltus"] else ""
        ax.set_title(f"period {p}, preperiod {n0}{saltus}, {proven}")
        ax.axvline(n0 - 0.5, color="#999999", linestyle=":")
        ax.legend()
    else:
        ax.text(0.5, 0.5, "no period found", ha="center", va="center", transform=ax.transAxes)
        ax.set_title("period")
    ax.set_xlabel("n")
    ax.set_ylabel("G(n)")

    fig.tight_layout()
    try:
        fig.savefig(out, dpi=100)
    except OSError as error:
        fail(f"cannot write {out}: {error}")
    print(out)


def main():
    parser = argparse.ArgumentParser(description="Plot a nim-sequence stored by run_octal.")
    parser.add_argument("file", help="an HDF5 run file written by run_octal")
    parser.add_argument("--out", help="PNG to write (default: the file name with .png)")
    args = parser.parse_args()
    out = args.out or (args.file[:-3] if args.file.endswith(".h5") else args.file) + ".png"
    plot(args.file, out)


if __name__ == "__main__":
    main()
