#!/usr/bin/python3
"""How run_octal scales with threads on this machine, measured beside what its profile predicts.

Usage:
  bench/scaling.py [--bin-dir DIR] [--games GAME ...] [--n N] [--threads T,T,...]
                   [--profile-threads P] [--repeat K] [--out PREFIX] [--scratch DIR]

For each game (default Grundy's game 4!.0, Officers 0.6 and 0.167, each to --n, default 2^24):
  - timed runs: `run_octal GAME --n N --threads T --json` for T = 1, 2, 4, ... up to the processors
    this process may use (and that number itself), each --repeat times (3), the median wall time
    kept; the measured speedup is the one-thread time over it;
  - two profiles (`--profile`, bench/README.md "Work and span"): one on two threads, the blocks
    the sparse kernel decides in below four threads, and one on --profile-threads threads (64, or
    the processors where there are more, at most 128), the pipeline it runs from four on. Each
    thread count's prediction, T1 / ((T1 - Tinf) / T + Tinf), is read from the profile of the
    decomposition that count runs; so is each power of two past the processors up to the
    profile's threads, predicted only.

It prints a table, and writes PREFIX.csv (default scaling.csv) and PREFIX.png, the measured speedup
against the predicted one for each game (the plot needs matplotlib: `bash scripts/setup.sh plots`).
Run files go to a temporary folder (or --scratch) and are deleted. The exit status is 1 when a run
fails or the plot cannot be drawn (the CSV is written first), 2 for a usage error.

CSV columns, one row per game and thread count:
  game, n, threads, kind ("measured": a timed run; "predicted": a count past the processors),
  seconds (median wall time; empty when predicted), runs, speedup (measured; empty when predicted),
  predicted_speedup (the profile's work over the time below), predicted_seconds ((work - span) /
  threads + span), profile_threads (the profile they are read from), work_seconds, span_seconds
  (that profile's), values_per_second (measured), processors, cpu
The pipeline does more work than blocks (about a third), so a measured speedup over one thread on
many threads comes out below the predicted one by about that much; compare predicted_seconds with
seconds as well.
"""

import argparse
import csv
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_GAMES = ["4!.0", "0.6", "0.167"]
PIPELINE_LEAST_THREADS = 4  # src/base/tuning.hpp, kPipelineLeastThreads
MOST_PROFILED_THREADS = 128  # the profile's largest thread count
COLUMNS = ["game", "n", "threads", "kind", "seconds", "runs", "speedup", "predicted_speedup", "predicted_seconds",
           "profile_threads", "work_seconds", "span_seconds", "values_per_second", "processors", "cpu"]


def say(msg):
    print(msg, file=sys.stderr, flush=True)


class RunFailed(Exception):
    pass


def processors():
    return len(os.sched_getaffinity(0))


def cpu_model():
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return ""


def thread_counts(most):
    counts, t = [], 1
    while t < most:
        counts.append(t)
        t *= 2
    counts.append(most)
    return counts


def parse_threads(text):
    try:
        counts = sorted({int(part) for part in text.split(",") if part.strip()})
    except ValueError:
        raise argparse.ArgumentTypeError(f"--threads {text!r}: give thread counts separated by commas, e.g. 1,2,4")
    if not counts or counts[0] < 1:
        raise argparse.ArgumentTypeError(f"--threads {text!r}: thread counts are 1 or more")
    if counts[0] != 1:
        counts.insert(0, 1)  # the speedups are against one thread
    return counts


def predicted_seconds(work, span, threads):
    return (work - span) / threads + span


def predicted(work, span, threads):
    bound = predicted_seconds(work, span, threads)
    return work / bound if bound > 0 else 1.0


class Runner:
    def __init__(self, run_octal, scratch):
        self.run_octal = run_octal
        self.scratch = scratch

    def run(self, game, n, threads, profile):
        out = os.path.join(self.scratch, "run.h5")
        command = [self.run_octal, game, "--n", n, "--threads", str(threads), "--json", "--quiet",
                   "--out", out, "--overwrite"]
        if profile:
            command.append("--profile")
        done = subprocess.run(command, capture_output=True, text=True)
        for path in (out, out + ".lock"):
            if os.path.exists(path):
                os.remove(path)
        if done.returncode != 0:
            raise RunFailed(f"{' '.join(command)} exited with {done.returncode}: {done.stderr.strip()}")
        try:
            return json.loads(done.stdout)
        except json.JSONDecodeError as e:
            raise RunFailed(f"{' '.join(command)} printed no JSON ({e}): {done.stdout[:200]!r}")


def measure_game(runner, game, n, counts, profile_threads, repeat, machine):
    say(f"{game}: profiles on 2 and {profile_threads} threads")
    blocks_run = runner.run(game, n, 2, True)
    values = blocks_run["n"]
    blocks = blocks_run["profile"]
    pipeline = runner.run(game, n, profile_threads, True)["profile"]
    rows, one_thread = [], None
    most = machine["processors"]
    # Past the processors, the powers of two up to the profile's threads are predicted only.
    beyond = [t for t in thread_counts(profile_threads) if t > most]
    for threads in sorted(set(counts) | set(beyond)):
        profile, profiled_on = (pipeline, profile_threads) if threads >= PIPELINE_LEAST_THREADS else (blocks, 2)
        work, span = profile["work_seconds"], profile["span_seconds"]
        row = {"game": game, "n": values, "threads": threads,
               "predicted_speedup": round(predicted(work, span, threads), 3),
               "predicted_seconds": round(predicted_seconds(work, span, threads), 4),
               "profile_threads": profiled_on, "work_seconds": round(work, 4), "span_seconds": round(span, 4),
               **machine}
        if threads > most:
            row.update(kind="predicted")
        else:
            runs = []
            for k in range(repeat):
                say(f"{game}: {threads} thread{'s' if threads > 1 else ''}, run {k + 1} of {repeat}")
                runs.append(runner.run(game, n, threads, False))
            seconds = statistics.median(r["seconds"] for r in runs)
            if threads == 1:
                one_thread = seconds
            row.update(kind="measured", seconds=round(seconds, 4), runs=repeat,
                       speedup=round(one_thread / seconds, 3) if one_thread and seconds > 0 else None,
                       values_per_second=round(values / seconds) if seconds > 0 else None)
        rows.append(row)
    return rows


def write_csv(path, rows):
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=COLUMNS)
        writer.writeheader()
        for row in rows:
            writer.writerow({c: "" if row.get(c) is None else row.get(c) for c in COLUMNS})


def text_table(rows):
    lines = [f"{'game':8} {'threads':>7} {'seconds':>9} {'speedup':>8} {'predicted':>9} {'(seconds)':>9}  "
             "from the profile on"]
    for r in rows:
        seconds = f"{r['seconds']:.3f}" if r.get("seconds") is not None else "-"
        speedup = f"{r['speedup']:.2f}" if r.get("speedup") is not None else "-"
        lines.append(f"{r['game']:8} {r['threads']:>7} {seconds:>9} {speedup:>8} {r['predicted_speedup']:>9.2f} "
                     f"{r['predicted_seconds']:>9.3f}  {r['profile_threads']} threads")
    return "\n".join(lines)


def draw(path, rows, machine, n_text):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise RunFailed("no plot: matplotlib is missing for this Python (install it with bash scripts/setup.sh plots)")
    fig, ax = plt.subplots(figsize=(7, 5))
    games = list(dict.fromkeys(r["game"] for r in rows))
    largest = max(r["threads"] for r in rows)
    ax.plot([1, largest], [1, largest], color="0.75", linestyle=":", label="ideal")
    for k, game in enumerate(games):
        color = f"C{k}"
        mine = [r for r in rows if r["game"] == game]
        # The prediction at every count between, from the profile of the decomposition it runs.
        profiles = {r["profile_threads"]: (r["work_seconds"], r["span_seconds"]) for r in mine}
        between = range(1, largest + 1)
        curve = []
        for t in between:
            work, span = profiles[max(profiles) if t >= PIPELINE_LEAST_THREADS else min(profiles)]
            curve.append(predicted(work, span, t))
        ax.plot(between, curve, color=color, linestyle="--", label=f"{game} predicted")
        measured = [r for r in mine if r.get("speedup") is not None]
        ax.plot([r["threads"] for r in measured], [r["speedup"] for r in measured], color=color, marker="o",
                linestyle="-", label=f"{game} measured")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log", base=2)
    from matplotlib.ticker import FormatStrFormatter
    for axis in (ax.xaxis, ax.yaxis):
        axis.set_major_formatter(FormatStrFormatter("%g"))
    ax.set_xlabel("threads")
    ax.set_ylabel("speedup over one thread")
    ax.set_title(f"run_octal to n = {n_text} on {machine['processors']} processors"
                 f"{' (' + machine['cpu'] + ')' if machine['cpu'] else ''}", fontsize=9)
    ax.legend(fontsize=8, loc="upper left")
    ax.grid(True, which="major", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def find_run_octal(bin_dir):
    candidates = [bin_dir] if bin_dir else [os.environ.get("SGX_BIN_DIR"), os.path.join(ROOT, "build", "bin")]
    for folder in candidates:
        if folder and os.access(os.path.join(folder, "run_octal"), os.X_OK):
            return os.path.join(folder, "run_octal")
    found = shutil.which("run_octal")
    if found and not bin_dir:
        return found
    where = bin_dir or "$SGX_BIN_DIR, build/bin or the PATH"
    raise RunFailed(f"no run_octal in {where}: build sgx first (README, quick start) or give --bin-dir")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin-dir", help="the folder of run_octal (default $SGX_BIN_DIR, then build/bin)")
    parser.add_argument("--games", nargs="+", default=DEFAULT_GAMES, help="game codes (default 4!.0 0.6 0.167)")
    parser.add_argument("--n", default="2^24", help="values each run computes (default 2^24; 2^26 on a big node)")
    parser.add_argument("--threads", type=parse_threads,
                        help="thread counts to time, e.g. 1,2,4 (default 1, 2, 4, ... up to the processors)")
    parser.add_argument("--profile-threads", type=int,
                        help="threads of the pipeline's profile (default 64, or the processors if more)")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs per thread count, median kept (3)")
    parser.add_argument("--out", default="scaling", help="PREFIX of PREFIX.csv and PREFIX.png (default scaling)")
    parser.add_argument("--scratch", help="folder for the run files (default a temporary one)")
    args = parser.parse_args(argv)
    most = processors()
    profile_threads = args.profile_threads or min(MOST_PROFILED_THREADS, max(64, most))
    if not PIPELINE_LEAST_THREADS <= profile_threads <= MOST_PROFILED_THREADS:
        parser.error(f"--profile-threads {profile_threads}: the pipeline's profile takes "
                     f"{PIPELINE_LEAST_THREADS} to {MOST_PROFILED_THREADS} threads")
    if args.repeat < 1:
        parser.error(f"--repeat {args.repeat}: at least 1")
    counts = args.threads or thread_counts(most)
    machine = {"processors": most, "cpu": cpu_model()}
    try:
        runner = Runner(find_run_octal(args.bin_dir), None)
        with tempfile.TemporaryDirectory(prefix="sgx-scaling-", dir=args.scratch) as scratch:
            runner.scratch = scratch
            rows = []
            for game in args.games:
                rows += measure_game(runner, game, args.n, counts, profile_threads, args.repeat, machine)
        print(f"run_octal to n = {args.n}, {most} processors ({machine['cpu'] or 'processor unknown'}), "
              f"median of {args.repeat}; predictions from each decomposition's profile")
        print(text_table(rows))
        write_csv(args.out + ".csv", rows)
        print(f"wrote {args.out}.csv")
        draw(args.out + ".png", rows, machine, args.n)
        print(f"wrote {args.out}.png")
    except RunFailed as e:
        say(f"scaling.py: {e}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
