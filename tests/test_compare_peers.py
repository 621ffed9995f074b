"""bench/compare_peers.py: it reads what the peers print, computes ogsolve's checksum, and with no peer at
hand still prints its table and exits 0."""

import importlib.util
import os
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "bench" / "compare_peers.py"
spec = importlib.util.spec_from_file_location("compare_peers", SCRIPT)
compare_peers = importlib.util.module_from_spec(spec)
spec.loader.exec_module(compare_peers)


def mex(values):
    m = 0
    while m in values:
        m += 1
    return m


def octal_06(n):
    """G(0..n-1) of 0.6, by the definition: take one, leaving one or two nonempty heaps."""
    g = []
    for heap in range(n):
        options = set()
        rest = heap - 1
        if rest >= 1:
            options.add(g[rest])
            options.update(g[a] ^ g[rest - a] for a in range(1, rest // 2 + 1))
        g.append(mex(options))
    return g


def test_analyzer_lines():
    parse = compare_peers.parse_analyzer_line
    assert parse("n=2^13 largest G[7384]=85 rare_mask=7e num_rare=821 last_rare=8189\n") == (13, 7384, 85)
    assert parse("n=2^1 largest G[0]=0 rare_mask=0pos num_rare=1 last_rare=0") == (1, 0, 0)
    assert parse("Found period start=105351 period=149459\n") == ("period", 105351, 149459)
    assert parse("") is None
    assert parse("something else") is None


def test_ogsolve_report():
    text = ("Predicted number of naive iterations to solve 0.6:\n taking: 98  breaking: 2401  total: 2499\n"
            "Solving 0.6 with rc2:\n found period of length 34 and pre-period 53\n"
            " nimber of 99: 2  losing positions: 9.00%  checksum: 2F5A010B\n"
            " iterations:  taking: 98  breaking: 2722  total: 2820  RC effort/rebuilds: 408/25\n"
            " calculation time: 78.24µs\n")
    assert compare_peers.parse_ogsolve(text) == {"last_n": 99, "last": 2, "checksum": 0x2F5A010B,
                                                 "period": 34, "preperiod": 53}
    assert compare_peers.parse_ogsolve("") == {}


def test_checksum_is_the_one_ogsolve_prints():
    # ogsolve 0.6 -m rc2 -n 99 prints "nimber of 99: 2 ... checksum: 2F5A010B".
    values = octal_06(100)
    assert values[-1] == 2
    assert compare_peers.fletcher(values) == 0x2F5A010B


def test_powers_of_two():
    assert compare_peers.log2_exact(1 << 22) == 22
    assert compare_peers.log2_exact(1) == 0
    assert compare_peers.log2_exact(3) is None
    assert compare_peers.log2_exact(None) is None


@pytest.mark.skipif(not os.environ.get("SGX_BIN_DIR"), reason="needs SGX_BIN_DIR holding run_octal")
def test_without_peers_a_table_and_status_0(tmp_path):
    run_octal = pathlib.Path(os.environ["SGX_BIN_DIR"]) / "run_octal"
    missing = tmp_path / "missing"
    result = subprocess.run([sys.executable, str(SCRIPT), "--quick", "--rows", "0.6", "--sgx", str(run_octal),
                             "--tczajka", str(missing), "--ogsolve", str(missing), "--scratch", str(tmp_path)],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert "| work | sgx s | tczajka s | ogsolve s | sgx's lead | checks |" in result.stdout
    assert "| 0.6 to 2^16 |" in result.stdout
    assert "tczajka: skipped, no sources: give --tczajka DIR" in result.stdout
    assert "ogsolve: skipped, no sources: give --ogsolve DIR" in result.stdout
