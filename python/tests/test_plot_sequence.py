"""Tests of scripts/plot_sequence.py: which positions it colours rare, for masks of value bits and
for masks with the heap's parity ("1+pos"), against the statistics run_octal stores.

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


def test_split_take_parity_from_the_code():
    plot = load_script()
    assert plot.split_take_parity("0.127") == 1    # 7 at k = 3 splits
    assert plot.split_take_parity("4!.0") == 0     # Grundy's game splits taking nothing
    assert plot.split_take_parity("0.07") == 0
    assert plot.split_take_parity("0.137") == 1
    assert plot.split_take_parity("0.6") == 1
    assert plot.split_take_parity("0.44") is None  # k = 1 and 2
    assert plot.split_take_parity("0.4[4]") is None  # a tail of odd length takes both parities
    assert plot.split_take_parity("0.[44]") is None
    assert plot.split_take_parity("0.[04]") == 0     # k = 2, 4, 6, ...
    assert plot.split_take_parity("0.3") is None     # no split at all


def test_rare_positions_with_the_heaps_parity(tmp_path):
    # Published: 0.127 has 693 rare positions under mask 1+pos, the last at 27106 (to 2^17).
    h5py = pytest.importorskip("h5py")
    plot = load_script()
    path, summary = run_file(tmp_path, "0.127", 2**17)
    assert summary["stats"]["rare_position_bit"] is True
    game, values, mask, _ = plot.load(str(path))
    assert game == "0.127"
    assert str(mask) == "0x1+pos"
    rare = plot.rare_flags(values, np.arange(len(values)), mask)
    assert rare.sum() == 693 == summary["stats"]["rare_count"]
    assert np.flatnonzero(rare)[-1] == 27106 == summary["stats"]["last_rare"]
    # By the value bits alone, half the positions would be taken for rare.
    by_values = plot.rare_flags(values, np.arange(len(values)), plot.RareMask(mask.values))
    assert by_values.sum() > 60000
    with h5py.File(path, "r") as f:
        assert int(f["stats"].attrs["rare_position_bit"]) == 1


def test_rare_positions_by_value_bits(tmp_path):
    plot = load_script()
    pytest.importorskip("h5py")
    path, summary = run_file(tmp_path, "4!.0", 2**14)
    _, values, mask, _ = plot.load(str(path))
    assert not mask.with_position
    assert str(mask) == "0xfe"
    rare = plot.rare_flags(values, np.arange(len(values)), mask)
    assert rare.sum() == summary["stats"]["rare_count"]
    assert np.flatnonzero(rare)[-1] == summary["stats"]["last_rare"]


def test_the_plot_is_written(tmp_path):
    pytest.importorskip("h5py")
    pytest.importorskip("matplotlib")
    path, _ = run_file(tmp_path, "0.127", 5000)
    out = tmp_path / "plot.png"
    printed = subprocess.run([sys.executable, str(SCRIPT), str(path), "--out", str(out)], check=True,
                             capture_output=True, text=True).stdout
    assert printed == f"{out}\n"
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
