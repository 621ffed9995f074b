#!/usr/bin/python3
"""Plot a nim-sequence stored by run_octal.

Four panels: the sequence (n against G(n), n log-scaled for long runs), the value histogram with
each value's rare and common positions coloured, the rare positions over n, and, when a period was
found, the end of the preperiod with one period drawn beside it. Rare positions follow the file's
mask, with the heap's parity when it has one ("1+pos", docs/FORMAT.md), as the Python module sgx
reads them (installed, or from this repository's build/python).

Usage:
  /usr/bin/python3 scripts/plot_sequence.py results/4!.0.h5 [--out grundy.png]

Needs the Python module sgx and Debian's python3-matplotlib (bash scripts/setup.sh plots installs
it); run it with /usr/bin/python3, the interpreter that sees it, or from a venv with sgx installed.
"""

import argparse
import sys

# Points drawn at most per panel: beyond this the sequence is sampled (every rare position kept).
MAX_POINTS = 200_000


def fail(message):
    print(f"plot_sequence.py: {message}", file=sys.stderr)
    sys.exit(1)


def require_packages():
    """One line naming what is missing, instead of a traceback."""
    missing = []
    for package, debian in (("numpy", "python3-numpy"), ("matplotlib", "python3-matplotlib")):
        try:
            __import__(package)
        except ImportError:
            missing.append(debian)
    if missing:
        fail(f"needs {' and '.join(missing)}: run 'bash scripts/setup.sh plots', then use /usr/bin/python3")


def import_sgx():
    """The Python module sgx: installed (pip install .), or from this repository's build/."""
    import pathlib
    try:
        import sgx
    except ImportError:
        sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "build" / "python"))
        try:
            import sgx
        except ImportError:
            fail("needs the Python module sgx: install it (pip install --no-build-isolation ., see the README) "
                 "or build the repository (bash scripts/setup.sh run)")
    return sgx


def load(path):
    """The run, read by the Python module (any format version)."""
    sgx = import_sgx()
    try:
        run = sgx.open(path)
    except OSError as error:
        fail(str(error))
    if run.tail_start < run.n:
        fail(f"{path} keeps only G(0..{len(run.values) - 1}) and the last values (a bounded run of format "
             "version 2): plot a run that holds every value")
    return run


def rare_flags(run):
    """True where G(n) is rare under the run's mask, by the library's own rule (with the heap's
    parity for a "+pos" mask). Mask 0 (no sparse space) would make every position rare: none is
    shown so."""
    import numpy as np
    if not run.stats.rare_mask:
        return np.zeros(len(run.values), dtype=bool)
    return run.stats.is_rare(run.values)


def mask_text(stats):
    """0x6+pos: the mask's value bits, and +pos when the heap's parity takes part."""
    return f"{stats.rare_mask:#x}" + ("+pos" if stats.rare_position_bit else "")


def sample(values):
    """Indices to draw: all of them, or the largest and the smallest value of each of MAX_POINTS / 2
    even stretches, so that no peak is lost (the largest value among them)."""
    import numpy as np
    n_count = len(values)
    if n_count <= MAX_POINTS:
        return np.arange(n_count)
    stretches = MAX_POINTS // 2
    edges = np.linspace(0, n_count, stretches + 1).astype(np.int64)
    starts, ends = edges[:-1], edges[1:]
    keep = []
    for start, end in zip(starts, ends):
        stretch = values[start:end]
        keep += [start + int(stretch.argmax()), start + int(stretch.argmin())]
    return np.unique(np.asarray(keep, dtype=np.int64))


def headroom(ax, largest):
    """Room above the largest value for the legend, so that it covers no point."""
    ax.set_ylim(bottom=-0.05 * max(largest, 1), top=1.3 * max(largest, 1))


def plot(path, out):
    require_packages()
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    run = load(path)
    game, values, period = run.game, np.asarray(run.values, dtype=np.int64), run.period
    n_count = len(values)
    if n_count == 0:
        fail(f"{path} holds no values")
    rare, mask = rare_flags(run), mask_text(run.stats)
    common_colour, rare_colour = "#4477aa", "#cc3311"

    fig, axes = plt.subplots(2, 2, figsize=(13, 8.5))
    fig.suptitle(f"{game}: G(0..{n_count - 1})", fontsize=14)

    ax = axes[0][0]
    shown = sample(values)
    shown = shown[~rare[shown]]
    ax.scatter(shown, values[shown], s=1, color=common_colour, label="common")
    rare_positions = np.flatnonzero(rare)
    ax.scatter(rare_positions, values[rare_positions], s=4, color=rare_colour, label="rare")
    if n_count > 10_000:
        ax.set_xscale("symlog", linthresh=100)
    ax.set_xlabel("n")
    ax.set_ylabel("G(n)")
    ax.set_title("the sequence")
    headroom(ax, values.max())
    ax.legend(loc="upper left", markerscale=4, ncol=2)

    ax = axes[0][1]
    # Counted by position: with the heap's parity a value is rare at some positions and common at
    # others, so each bar is split into its common and rare positions.
    length = int(values.max()) + 1
    common_counts = np.bincount(values[~rare], minlength=length)
    rare_counts = np.bincount(values[rare], minlength=length)
    value_axis = np.arange(length)
    ax.bar(value_axis, common_counts, width=1.0, color=common_colour, label="common")
    ax.bar(value_axis, rare_counts, bottom=common_counts, width=1.0, color=rare_colour, label="rare")
    ax.set_yscale("log")
    # A value seen once has a bar of height 1: above the axis, not on it; room above for the legend.
    ax.set_ylim(bottom=0.5, top=8 * int((common_counts + rare_counts).max()))
    ax.set_xlabel("value")
    ax.set_ylabel("positions")
    ax.set_title(f"histogram (rare mask {mask})")
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
    if period.found:
        n0, p = period.preperiod, period.period
        start = max(0, n0 - 3 * p)
        stop = min(n_count, n0 + p)
        pre = np.arange(start, min(n0, stop))
        one = np.arange(n0, stop)
        ax.plot(pre, values[pre], ".", color="#999999", label="end of the preperiod")
        ax.plot(one, values[one], "o-", color=common_colour, markersize=3, label="one period")
        proven = f"proven ({period.theorem})" if period.proven else "not proven"
        saltus = f", saltus {period.saltus}" if period.saltus else ""
        ax.set_title(f"period {p}, preperiod {n0}{saltus}, {proven}")
        ax.axvline(n0 - 0.5, color="#999999", linestyle=":")
        headroom(ax, values[start:stop].max())
        ax.legend(loc="upper left", fontsize=8, ncol=2)
        ax.set_xlabel("n")
        ax.set_ylabel("G(n)")
    else:
        # No period to draw: where each value first appears, which shows how the values grow.
        first = np.full(length, -1, dtype=np.int64)
        seen = np.unique(values, return_index=True)
        first[seen[0]] = seen[1]
        shown_values = np.flatnonzero(first >= 0)
        ax.plot(first[shown_values], shown_values, ".", color=common_colour, markersize=4)
        ax.set_title(f"no period in {n_count} values: each value's first position")
        if first.max() > 1000:
            ax.set_xscale("symlog", linthresh=100)
        ax.set_xlabel("n")
        ax.set_ylabel("value")

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
