#!/usr/bin/env bash
# The census of results/: every 0.d, 0.dd, 0.ddd and 4.dd code until its period is proven, or to
# MAX_N values, or (games without a sparse space) MAX_SECONDS of computing per game. Each table is
# written to results/census-*.csv as games finish, and results/census-*.md at the end of each.
# Every game keeps its run file in RUNS_DIR, and every sweep runs with --resume, so running the
# script again (after a kill, or with larger caps and the tables moved aside) continues each game
# from its file. At the end scripts/census_summary.py prints the counts and checks. Run from the
# repository root:
#
#   scripts/census.sh [MAX_N [MAX_SECONDS [RUNS_DIR]]]      defaults 2^25, 60, census-runs
#
# SGX_BIN names the folder holding sg_sweep (default build/bin); SGX_THREADS the threads per game
# (default: all cores). The 0.d codes are the first rows of the 0.dd table (0.1 is 0.10).
set -euo pipefail

max_n=${1:-2^25}
max_seconds=${2:-60}
runs=${3:-census-runs}
bin=${SGX_BIN:-build/bin}
threads=()
if [ -n "${SGX_THREADS:-}" ]; then threads=(--threads "$SGX_THREADS"); fi

if [ ! -x "$bin/sg_sweep" ]; then
  echo "census.sh: no sg_sweep in $bin: build it (cmake --build build --target sg_sweep) or name its folder in SGX_BIN" >&2
  exit 2
fi
if [ ! -d results ]; then
  echo "census.sh: no results/ folder here: run it from the repository root" >&2
  exit 2
fi

for spec in '0.??:0.2digit' '4.??:4.2digit' '0.???:0.3digit'; do
  pattern=${spec%%:*}
  table=results/census-${spec#*:}
  echo "census.sh: $(date -u '+%F %T') $pattern to $max_n values or $max_seconds s" >&2
  # The Markdown table replaces the old one only when its sweep has finished: a stopped sweep
  # leaves the last finished table, and the CSV keeps the rows done so far for the next run.
  status=0
  "$bin/sg_sweep" --codes "$pattern" --max-n "$max_n" --max-seconds "$max_seconds" --runs "$runs" \
    "${threads[@]}" --out "$table.csv" --resume > "$table.md.part" || status=$?
  if [ "$status" -ne 0 ]; then
    rm -f "$table.md.part"
    echo "census.sh: the $pattern sweep stopped (exit status $status); $table.csv keeps its finished rows:" \
      "run census.sh again to continue" >&2
    exit "$status"
  fi
  mv "$table.md.part" "$table.md"
done
echo "census.sh: $(date -u '+%F %T') done" >&2
/usr/bin/python3 scripts/census_summary.py results/census-0.2digit.csv results/census-4.2digit.csv \
  results/census-0.3digit.csv
