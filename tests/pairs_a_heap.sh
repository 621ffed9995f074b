#!/usr/bin/env bash
# bench/pairs_a_heap on real run files: it checks every heap it counts against the file's value
# (a wrong count exits non-zero), so a run through it tests the counting; the rare positions it
# lists are checked against the published count, and bad input against its messages.
#   pairs_a_heap.sh RUN_OCTAL PAIRS_A_HEAP
set -euo pipefail
run_octal=$1
pairs_a_heap=$2

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

fail() { echo "$*" >&2; exit 1; }

# Grundy's game to 2^21: Flammenkamp's tables give mask 0xfe with 1274 rare positions (0 among
# them; the tool lists those from 1 on, the ones a heap pairs with).
"$run_octal" '4!.0' --n 2^21 --threads 2 --no-shortcut --out grundy.h5 --quiet
"$pairs_a_heap" grundy.h5 --groups 4 >grundy.txt || fail "pairs_a_heap failed on Grundy's game: $(cat grundy.txt)"
grep -q "^sgx's mask: even takes mask 0xfe, 1273 rare;" grundy.txt || fail "Grundy's game: $(cat grundy.txt)"
grep -q "^RC2's classes for each parity of the takes: even takes classes, " grundy.txt ||
  fail "no RC2 line: $(cat grundy.txt)"
[ "$(grep -c '^  floor: ' grundy.txt)" -eq 3 ] || fail "expected a floor for each of three classifications"
grep -q "^  per heap: rare pairs 1273.0, " grundy.txt ||
  fail "every heap past 2^20 pairs with all 1273: $(cat grundy.txt)"

# 0.167 splits taking 2 and 3 tokens: a classification for each parity.
"$run_octal" 0.167 --n 2^16 --threads 1 --no-shortcut --out 0.167.h5 --quiet
"$pairs_a_heap" 0.167.h5 --groups 2 >0.167.txt || fail "pairs_a_heap failed on 0.167: $(cat 0.167.txt)"
grep -q "^RC2's classes for each parity of the takes: even takes classes, [0-9]* rare; odd takes classes, " 0.167.txt ||
  fail "0.167: $(cat 0.167.txt)"

# Bad input: a clear message and a non-zero status.
expect_error() {
  local status=$1 message=$2
  shift 2
  local got=0
  "$pairs_a_heap" "$@" >out.txt 2>err.txt || got=$?
  [ "$got" -eq "$status" ] || fail "pairs_a_heap $*: status $got, expected $status"
  grep -q -e "$message" err.txt || fail "pairs_a_heap $*: expected '$message', got: $(cat err.txt)"
}
expect_error 2 "usage: pairs_a_heap"
expect_error 2 "unexpected argument '--bogus'" grundy.h5 --bogus
expect_error 1 "pairs_a_heap: .*missing.h5" missing.h5
expect_error 2 "--groups takes a whole number from 1 on, not .0." grundy.h5 --groups 0
expect_error 2 "--groups takes a whole number from 1 on, not .x." grundy.h5 --groups x
expect_error 1 "too few for 9999 groups" grundy.h5 --groups 9999
"$run_octal" 0.3 --n 2^12 --out nim.h5 --quiet
expect_error 1 "is not a finite code splitting into at most two heaps" nim.h5
echo "pairs_a_heap: counts checked against the files, the published rare count and its errors"
