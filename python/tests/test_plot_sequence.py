"""Tests of scripts/plot_sequence.py: which positions it colours rare (through the Python module),
for masks of value bits and for masks with the heap's parity ("1+pos"), against the statistics
run_octal stores.

Run from the build tree as the module's tests are (SGX_BIN_DIR names the tools)."""

import importlib.util
import json
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

BIN_DIR = pathlib.Path(os.environ.get("SGX_BIN_DIR", ""))
SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "scripts" / "plot_sequence.py"


def load_script():
    spec = importlib.util.spec_from_file_location("plot_sequence", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_file(tmp_path, game, n):
    """A run file of game to n, and run_octal's JSON summary of it."""
    path = tmp_path / "run.h5"
    out = subprocess.run([str(BIN_DIR / "run_octal"), game, "--n", str(n), "--json", "--out", str(path)],
                         check=True, capture_output=True, text=True).stdout
    return path, json.loads(out)


def test_rare_positions_with_the_heaps_parity(tmp_path):
    # Published: 0.127 has 693 rare positions under mask 1+pos, the last at 27106 (to 2^17).
    plot = load_script()
    path, summary = run_file(tmp_path, "0.127", 2**17)
    assert summary["stats"]["rare_position_bit"] is True
    run = plot.load(str(path))
    assert run.game == "0.127"
    assert plot.mask_text(run.stats) == "0x1+pos"
    rare = plot.rare_flags(run)
    assert rare.sum() == 693 == summary["stats"]["rare_count"]
    assert np.flatnonzero(rare)[-1] == 27106 == summary["stats"]["last_rare"]


def test_rare_positions_by_value_bits(tmp_path):
    plot = load_script()
    path, summary = run_file(tmp_path, "4!.0", 2**14)
    run = plot.load(str(path))
    assert not run.stats.rare_position_bit
    assert plot.mask_text(run.stats) == "0xfe"
    rare = plot.rare_flags(run)
    assert rare.sum() == summary["stats"]["rare_count"]
    assert np.flatnonzero(rare)[-1] == summary["stats"]["last_rare"]


def test_the_plot_is_written(tmp_path):
    pytest.importorskip("matplotlib")
    path, _ = run_file(tmp_path, "0.127", 5000)
    out = tmp_path / "plot.png"
    printed = subprocess.run([sys.executable, str(SCRIPT), str(path), "--out", str(out)], check=True,
                             capture_output=True, text=True).stdout
    assert printed == f"{out}\n"
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
