"""bench/scaling.py on a tiny run: its CSV's columns and rows, its plot, and its errors."""

import csv
import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "bench" / "scaling.py"
COLUMNS = ["game", "n", "threads", "kind", "seconds", "runs", "speedup", "predicted_speedup", "predicted_seconds",
           "profile_threads", "work_seconds", "span_seconds", "values_per_second", "processors", "cpu"]


def bin_dir():
    return os.environ.get("SGX_BIN_DIR", str(ROOT / "build" / "bin"))


def run(*args):
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True)


def test_tiny_run_writes_its_csv_and_plot(tmp_path):
    prefix = tmp_path / "s"
    done = run("--bin-dir", bin_dir(), "--games", "0.6", "4!.0", "--n", "2^14", "--threads", "1,2",
               "--profile-threads", "8", "--repeat", "1", "--out", str(prefix))
    assert done.returncode == 0, done.stderr
    with open(f"{prefix}.csv", newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        assert reader.fieldnames == COLUMNS
        rows = list(reader)
    processors = len(os.sched_getaffinity(0))
    for game in ("0.6", "4!.0"):
        mine = {int(r["threads"]): r for r in rows if r["game"] == game}
        # The thread counts asked for, and past the processors the powers of two up to the profile's.
        assert sorted(mine) == sorted({1, 2} | {t for t in (4, 8) if t > processors}), rows
        for threads, row in mine.items():
            assert row["n"] == "16384"
            assert int(row["processors"]) == processors
            assert row["kind"] == ("measured" if threads <= processors else "predicted")
            # Two threads and fewer read the blocks' profile (taken on two threads), more the pipeline's.
            assert int(row["profile_threads"]) == (2 if threads < 4 else 8)
            assert float(row["work_seconds"]) >= float(row["span_seconds"]) > 0
            assert 1 <= float(row["predicted_speedup"]) <= threads + 1e-9
            work, span = float(row["work_seconds"]), float(row["span_seconds"])
            assert abs(float(row["predicted_seconds"]) - ((work - span) / threads + span)) < 1e-3
            if row["kind"] == "measured":
                assert float(row["seconds"]) > 0 and row["runs"] == "1"
                assert float(row["values_per_second"]) > 0
                assert float(row["speedup"]) > 0
            else:
                assert row["seconds"] == "" and row["speedup"] == ""
        assert float(mine[1]["speedup"]) == 1.0
        assert float(mine[1]["predicted_speedup"]) == 1.0
    assert "from the profile on" in done.stdout and "\n4!.0           1 " in done.stdout, done.stdout
    assert pathlib.Path(f"{prefix}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_missing_program_is_named(tmp_path):
    done = run("--bin-dir", str(tmp_path), "--games", "0.6", "--n", "100", "--out", str(tmp_path / "s"))
    assert done.returncode == 1
    assert f"no run_octal in {tmp_path}" in done.stderr
    assert not (tmp_path / "s.csv").exists()


def test_a_failed_run_says_which(tmp_path):
    done = run("--bin-dir", bin_dir(), "--games", "0.9x", "--n", "100", "--threads", "1", "--repeat", "1",
               "--out", str(tmp_path / "s"))
    assert done.returncode == 1
    assert "0.9x" in done.stderr and "exited with" in done.stderr


def test_usage_errors(tmp_path):
    for args in (["--threads", "1,x"], ["--threads", "0"], ["--profile-threads", "2"], ["--repeat", "0"]):
        done = run("--bin-dir", bin_dir(), *args, "--out", str(tmp_path / "s"))
        assert done.returncode == 2, args
        assert args[0] in done.stderr, done.stderr
