"""scripts/census_summary.py on tables the real sg_sweep writes, and on the half-written and wrong
tables it must refuse. CTest runs it with SGX_BIN_DIR set to the build's bin/ folder."""

import csv
import fcntl
import os
import subprocess
import sys

import pytest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts", "census_summary.py")
BIN = os.environ.get("SGX_BIN_DIR", "")


def sweep(tmp_path, codes, name):
    """A table of codes made by sg_sweep until proven, to at most 2^14 values."""
    if not os.path.exists(os.path.join(BIN, "sg_sweep")):
        pytest.skip("SGX_BIN_DIR does not name a folder holding sg_sweep")
    out = str(tmp_path / name)
    subprocess.run([os.path.join(BIN, "sg_sweep"), "--codes", codes, "--max-n", "2^14", "--threads", "1",
                    "--quiet", "--out", out], check=True)
    return out


def summary(*args):
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True)


def rewrite(path, edit):
    """Rewrites a table with edit(rows) applied to its rows (dicts)."""
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        columns, rows = reader.fieldnames, list(reader)
    rows = edit(rows)
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, columns, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def test_counts_a_finished_census_table(tmp_path):
    table = sweep(tmp_path, "0.?", "one-digit.csv")
    r = summary(table)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    # 0.6 is open; 0.5 and 0.7 have the values of 0.3.
    assert lines[0] == f"{table}: 8 games, 7 solved, 1 unsolved (max-n: 1), 2 equivalent to another code; " \
                       "0 s of game time"
    assert lines[1] == "  stopped by max-n: 1 rows, 1 not equivalent to another code: 0.6"
    assert "  0.45    published 498/20: not in the tables" in lines
    assert lines[-1] == "unsolved rows naming a theorem: 0 of 1"


def test_compares_published_games_and_their_equivalents(tmp_path):
    census = sweep(tmp_path, "0.?", "one-digit.csv")
    reruns = sweep(tmp_path, "0.4?", "reruns.csv")
    r = summary(census, "--reruns", reruns)
    assert r.returncode == 0, r.stderr
    assert "  0.45    published 498/20: agrees (n = 4096)  [reruns.csv]" in r.stdout.splitlines()
    assert "  0.47    published 498/20: agrees (n = 4096)  [reruns.csv]" in r.stdout.splitlines()

    rewrite(reruns, lambda rows: [dict(row, period="21") if row["game"] == "0.45" else row for row in rows])
    r = summary(census, "--reruns", reruns)
    assert r.returncode == 1
    assert "  0.45    published 498/20: DISAGREES: 498/21 (n = 4096)  [reruns.csv]" in r.stdout.splitlines()


def test_an_unproven_published_game_says_what_its_proof_needs(tmp_path):
    census = sweep(tmp_path, "0.?", "one-digit.csv")
    reruns = sweep(tmp_path, "0.354", "reruns.csv")  # 2^14 values: far short of its period
    r = summary(census, "--reruns", reruns)
    assert r.returncode == 0, r.stderr
    assert "  0.354   published 10061916/1180: unsolved at n = 16384 (stopped by max-n; the proof of 0.354 " \
           "needs 20126195 values)  [reruns.csv]" in r.stdout.splitlines()


def test_an_unsolved_row_naming_a_theorem_is_an_error(tmp_path):
    table = sweep(tmp_path, "0.?", "one-digit.csv")
    rewrite(table, lambda rows: [dict(row, theorem="guy-smith") if row["game"] == "0.6" else row for row in rows])
    r = summary(table)
    assert r.returncode == 1
    assert f"ERROR {table}: unsolved 0.6 names the theorem guy-smith" in r.stdout.splitlines()
    assert r.stdout.splitlines()[-1] == "unsolved rows naming a theorem: 1 of 1"


def test_a_table_missing_codes_is_refused_unless_partial(tmp_path):
    table = sweep(tmp_path, "0.?", "one-digit.csv")
    rewrite(table, lambda rows: [row for row in rows if row["game"] != "0.3"])
    r = summary(table)
    assert r.returncode == 2
    assert r.stdout == ""
    assert r.stderr == f"census_summary.py: {table} is half written: 1 codes missing (the first 0.3): its " \
                       "sweep has not finished; finish it with its sweep's --resume, or pass --partial to " \
                       "count its rows anyway\n"
    r = summary(table, "--partial")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith(f"{table} (INCOMPLETE: 1 codes missing (the first 0.3): its sweep has not "
                               "finished): 7 games, 6 solved, 1 unsolved")


def test_a_row_cut_short_is_refused(tmp_path):
    table = sweep(tmp_path, "0.?", "one-digit.csv")
    with open(table, "rb+") as f:
        f.truncate(os.path.getsize(table) - 20)
    r = summary(table, "--partial")
    assert r.returncode == 2
    assert r.stderr == f"census_summary.py: {table} line 9: the last row is cut short (its sweep was stopped " \
                       "while writing it): run the sweep again with --resume, which drops it and goes on\n"


def test_a_damaged_row_or_another_file_is_refused(tmp_path):
    table = sweep(tmp_path, "0.?", "one-digit.csv")
    with open(table) as f:
        lines = f.readlines()
    with open(table, "w") as f:
        f.writelines(lines[:3] + ["0.2,4096,2\n"] + lines[4:])
    r = summary(table, "--partial")
    assert r.returncode == 2
    assert r.stderr == f"census_summary.py: {table} line 4: damaged row (3 fields, a table row has 17)\n"

    with open(table, "w") as f:
        f.writelines(lines)
    rewrite(table, lambda rows: [dict(row, period="") if row["game"] == "0.4" else row for row in rows])
    r = summary(table, "--partial")
    assert r.returncode == 2
    assert r.stderr == f"census_summary.py: {table} line 6: damaged row (n, proven, seconds, or a proven row's " \
                       "period and preperiod, are not what sg_sweep writes)\n"

    other = tmp_path / "other.csv"
    other.write_text("a,b\n1,2\n")
    r = summary(str(other))
    assert r.returncode == 2
    assert r.stderr.startswith(f"census_summary.py: {other} is not a sg_sweep table")
    r = summary(str(tmp_path / "absent.csv"))
    assert r.returncode == 2
    assert r.stderr == f"census_summary.py: cannot read {tmp_path / 'absent.csv'}: No such file or directory\n"


def test_a_table_with_a_lock_file_is_half_written(tmp_path):
    table = sweep(tmp_path, "0.?", "one-digit.csv")
    lock = table + ".lock"
    with open(lock, "w") as f:
        f.write("pid 1 on host h since 2026-01-01 00:00:00 UTC\n")
    r = summary(table)
    assert r.returncode == 2
    assert r.stderr.startswith(f"census_summary.py: {table} is half written: its sweep stopped before finishing "
                               f"(pid 1 on host h since 2026-01-01 00:00:00 UTC; lock {lock} left)")
    with open(lock) as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        r = summary(table)
    assert r.returncode == 2
    assert r.stderr.startswith(f"census_summary.py: {table} is half written: a sweep is writing it now "
                               f"(pid 1 on host h since 2026-01-01 00:00:00 UTC, lock {lock})")
