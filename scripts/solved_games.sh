#!/usr/bin/env bash
# Runs every published solved game of results/solved-games.txt until its period is proven, one game
# at a time, and checks each against the published preperiod and period and against the number of
# values its proof should need. Prints one Markdown row per game (the table of results/README.md,
# "Published solved games") and exits non-zero if any game is not proven with exactly those figures.
#
#   scripts/solved_games.sh OUT_DIR [CODE ...]
#
# After building build/bin/run_octal (Release), from any directory. OUT_DIR receives each
# game's run file (CODE.h5 with CODE.h5.d/) and its JSON summary (CODE.json); a run file of 2^30
# values takes about 480 MB. With CODE arguments only those games of the list are run. A game whose
# list entry says 'until' runs as
#
#   build/bin/run_octal CODE --json --quiet --out OUT_DIR/CODE.h5 --max-n 2^30 --memory 1G --threads 1
#
# and one that says 'n' with --n 2^30 in place of --max-n 2^30.
#
# SGX_SOLVED_TIMEOUT=SECONDS stops a game that runs longer (run_octal then checkpoints and exits
# with status 130; the game counts as a failure). Not run by CI: the whole list takes about 20
# minutes on two cores.
set -euo pipefail

if [[ $# -lt 1 || $1 == -h || $1 == --help ]]; then
  sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
out=$1
shift
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bin=$root/build/bin/run_octal
list=$root/results/solved-games.txt
python=/usr/bin/python3
[[ -x $bin ]] || { echo "solved_games.sh: $bin is missing; build it first" >&2; exit 2; }
[[ -x $python ]] || { echo "solved_games.sh: $python is missing" >&2; exit 2; }
mkdir -p "$out"

declare -A wanted=()
for code in "$@"; do wanted[$code]=1; done

echo "| code | preperiod | period | values the proof needs | n computed | time (s) | peak RSS (MiB) | theorem | source |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |"
failures=0
games=0
while read -r code preperiod period needs run source; do
  [[ -z $code || $code == \#* ]] && continue
  if [[ $# -gt 0 && -z ${wanted[$code]:-} ]]; then continue; fi
  games=$((games + 1))
  json=$out/$code.json
  case $run in
    until) size=(--max-n 2^30) ;;
    n) size=(--n 2^30) ;;
    *) echo "solved_games.sh: $code: unknown run '$run' in $list" >&2; exit 2 ;;
  esac
  status=0
  timeout -s INT "${SGX_SOLVED_TIMEOUT:-0}" "$bin" "$code" --json --quiet --out "$out/$code.h5" \
    "${size[@]}" --memory 1G --threads 1 < /dev/null > "$json" || status=$?
  if [[ $status -ne 0 ]]; then
    echo "solved_games.sh: $code: run_octal exited with status $status" >&2
    failures=$((failures + 1))
    continue
  fi
  "$python" - "$json" "$code" "$preperiod" "$period" "$needs" "$source" <<'EOF' || failures=$((failures + 1))
import json, sys
path, code, preperiod, period, needs, source = sys.argv[1:]
run = json.load(open(path))
p = run["period"]
want = {"proven": True, "preperiod": int(preperiod), "period": int(period),
        "proof_needs_n": int(needs)}
got = {"proven": p["proven"], "preperiod": p["preperiod"], "period": p["period"],
       "proof_needs_n": p["proof_needs_n"]}
print(f"| `{code}` | {p['preperiod']} | {p['period']} | {p['proof_needs_n']} | {run['n']} | "
      f"{run['seconds']:.2f} | {run['peak_rss_bytes'] / 2**20:.0f} | {p['theorem'] or '-'} | {source} |")
bad = [k for k in want if got[k] != want[k]]
if bad:
    for k in bad:
        print(f"solved_games.sh: {code}: {k} is {got[k]}, published {want[k]}", file=sys.stderr)
    sys.exit(1)
EOF
done < "$list"

if [[ $failures -ne 0 ]]; then
  echo "solved_games.sh: $failures of $games games disagree with the published figures or failed" >&2
  exit 1
fi
echo "solved_games.sh: all $games games proven with the published preperiod and period" >&2
