#!/usr/bin/env bash
# sg_sweep across MPI ranks gives the same table as one process: all two-digit octal games.
#   mpi_sweep.sh MPIRUN SG_SWEEP
# Rows may arrive in any order and the seconds differ, so tables are compared without the
# seconds column, sorted by game.
set -euo pipefail
mpirun=$1
sg_sweep=$2

# Open MPI in a container or a CI machine: root is allowed, ranks may outnumber cores, ranks talk
# over shared memory only (no network), and everything starts locally without ssh.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_plm=isolated OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_MCA_rmaps_base_oversubscribe=1
# Each rank one thread: the test machine may have two cores for everything.
export OMP_NUM_THREADS=1

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

table() { cut -d, -f1-14 "$1" | sort; }

"$mpirun" --oversubscribe -np 2 "$sg_sweep" --codes '0.??' --n 4096 --out mpi2.csv --quiet
"$mpirun" --oversubscribe -np 3 "$sg_sweep" --codes '0.??' --n 4096 --out mpi3.csv --quiet
"$sg_sweep" --codes '0.??' --n 4096 --out one.csv --quiet

rows=$(($(wc -l <one.csv) - 1))
if [ "$rows" -ne 64 ]; then
  echo "expected 64 rows in the single-process table, found $rows" >&2
  exit 1
fi
for ranks in 2 3; do
  if ! diff <(table one.csv) <(table "mpi$ranks.csv"); then
    echo "the table of $ranks MPI ranks differs from the single-process one" >&2
    exit 1
  fi
done
grep -q '^0\.77,4096,12,71,0,true,guy-smith,' one.csv || { echo "Kayles row is wrong" >&2; exit 1; }
echo "64 games: the tables of 1, 2 and 3 ranks agree"
