"""scripts/compare_published.py on saved JSON made here from short sequences, and end to end on runs of
run_octal read back by sg_period --milestones. CTest runs it with SGX_BIN_DIR set to the build's bin/
folder; the end-to-end tests skip while that sg_period has no --milestones."""

import json
import os
import shutil
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "scripts", "compare_published.py")
PUBLISHED = os.path.join(HERE, "..", "results", "published")
ROGALSKI_GAMES = ["0.014", "0.034", "0.161", "0.167", "0.172"]
BIN = os.environ.get("SGX_BIN_DIR", "")
SANITIZED = bool(os.environ.get("SGX_SANITIZED"))


def octal_values(code, n):
    """G(0..n-1) of the octal game code (0.d1d2...), straight from the rules: small n only."""
    digits = [int(d) for d in code.split(".")[1]]
    g = []
    for heap in range(n):
        options = set()
        for k, d in enumerate(digits, 1):
            rest = heap - k
            if rest < 0:
                break
            if d & 1 and rest == 0:
                options.add(0)
            if d & 2 and rest > 0:
                options.add(g[rest])
            if d & 4 and rest >= 2:
                options.update(g[a] ^ g[rest - a] for a in range(1, rest // 2 + 1))
        g.append(min(set(range(len(options) + 1)) - options))
    return g


def grundy_values(n):
    """G(0..n-1) of Grundy's game (split a heap into two unequal heaps), straight from the rules."""
    g = []
    for heap in range(n):
        options = {g[a] ^ g[heap - a] for a in range(1, (heap + 1) // 2)}
        g.append(min(set(range(len(options) + 1)) - options))
    return g


def statistics(values, mask):
    rare = [i for i, v in enumerate(values) if bin(v & mask).count("1") % 2]
    return {"rare_mask": mask, "rare_position_bit": False, "rare_count": len(rare),
            "last_rare": rare[-1] if rare else -1}


def run_json(game, values, mask=1):
    """The object sg_period --milestones --json prints for a run holding values (as documented)."""
    milestones, N = [], 1
    while N <= len(values):
        prefix = values[:N]
        histogram = [prefix.count(v) for v in range(max(prefix) + 1)]
        milestones.append({"n": N, "value_at_n": values[N] if N < len(values) else None, "histogram": histogram,
                           "max_value": max(prefix), "max_at": prefix.index(max(prefix)),
                           "stats": statistics(prefix, mask)})
        N *= 2
    return {"game": game, "n": len(values), "max_value": max(values), "max_at": values.index(max(values)),
            "stats": statistics(values, mask), "milestones": milestones}


def save(tmp_path, name, *runs):
    path = tmp_path / name
    path.write_text("".join(json.dumps(run) + "\n" for run in runs))
    return str(path)


def compare(*args, env=None, script=SCRIPT):
    return subprocess.run([sys.executable, script, *args], capture_output=True, text=True, env=env)


def test_the_five_games_computed_here_agree_with_the_committed_counts(tmp_path):
    runs = [run_json(game, octal_values(game, 2**9 + 1)) for game in ROGALSKI_GAMES]
    r = compare("--from-json", save(tmp_path, "runs.json", *runs))
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    for game in ROGALSKI_GAMES:
        for k in range(1, 10):
            assert any(line.startswith(f"{game} 2^{k} = {2**k}: agree with rogalski") for line in lines), game
        last = 40 if game == "0.167" else 28
        assert f"{game} 2^10 = 1024 .. 2^{last} = {2**last}: not reached ({last - 9} rogalski files; " \
               "the run has n = 513)" in lines
        assert any(line.startswith(f"{game}: no row of this game in ") for line in lines)
    assert lines[-1] == "summary: 45 agree, 0 differ, 0 cannot compare, 5 not reached"


def test_a_tampered_published_count_differs_and_names_the_value(tmp_path):
    folder = tmp_path / "0.167"
    shutil.copytree(os.path.join(PUBLISHED, "rogalski", "0.167"), folder)
    counts = (folder / "256").read_text().splitlines()
    value, count = counts[3].split()
    counts[3] = f"{value} {int(count) + 1}"
    (folder / "256").write_text("\n".join(counts) + "\n")

    run = save(tmp_path, "run.json", run_json("0.167", octal_values("0.167", 2**9 + 1)))
    r = compare("--from-json", run, "--rogalski", str(folder))  # one GAME folder
    assert r.returncode == 1, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    assert f"0.167 2^8 = 256: DIFFER from rogalski ({folder / '256'}): value {value}: run {count}, " \
           f"published {int(count) + 1}" in lines
    assert "0.167 2^9 = 512: agree with rogalski (G(1..512): 23 distinct values)" in lines
    assert lines[-1] == "summary: 8 agree, 1 differ, 0 cannot compare, 1 not reached"


def test_a_run_of_exactly_a_power_of_two_cannot_compare_its_counts_there(tmp_path):
    run = save(tmp_path, "run.json", run_json("0.161", octal_values("0.161", 2**8)))
    r = compare("--from-json", run, "--rogalski", os.path.join(PUBLISHED, "rogalski"))
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    assert "0.161 2^8 = 256: cannot compare with rogalski: the run holds exactly 256 values and the counts of " \
           "G(1..256) need G(256); run to 257 values to compare at 256" in lines
    assert "0.161 2^7 = 128: agree with rogalski (G(1..128): 8 distinct values)" in lines
    assert lines[-1] == "summary: 7 agree, 0 differ, 1 cannot compare, 1 not reached"


def test_a_differing_run_names_every_value_it_counts_otherwise(tmp_path):
    values = octal_values("0.014", 2**6 + 1)
    values[40] = 99  # G(40) off: counted from N = 64 on
    r = compare("--from-json", save(tmp_path, "run.json", run_json("0.014", values)), "--rogalski",
                os.path.join(PUBLISHED, "rogalski"))
    assert r.returncode == 1
    wrong = [line for line in r.stdout.splitlines() if "DIFFER" in line]
    assert len(wrong) == 1 and wrong[0].startswith("0.014 2^6 = 64: DIFFER from rogalski (")
    assert f"value {octal_values('0.014', 41)[40]}: run " in wrong[0] and "value 99: run 1, published 0" in wrong[0]


TABLE = """game  | n     | largest idx | largest | rare mask | num rare | last rare
:---  | ----- | ----------- | --------| --------: | -------: | --------:
Grundy's | 2^5 | {g[max_at]} | {g[max_value]} | {g_mask:x} | {g[rare_count]} | {g[last_rare]}
.167  | 2^8   | {a[max_at]} | {a[max_value]} | {a_mask:x} | {a[rare_count]} | {a[last_rare]}
.167  | 2^7   | {b[max_at]} | {b[max_value]} | {b_mask:x} | {wrong} | {b[last_rare]}
.167  | 2^10  | 1 | 2 | 3 | 4 | 5
.6    |
"""


def test_rare_statistics_against_a_table_of_tczajka_form(tmp_path):
    runs = [run_json("4!.0", grundy_values(33), mask=2), run_json("0.167", octal_values("0.167", 2**8), mask=5)]
    at = {(run["game"], m["n"]): dict(m, **m["stats"]) for run in runs for m in run["milestones"]}
    a, b = at[("0.167", 256)], at[("0.167", 128)]
    table = tmp_path / "UnsolvedGames.md"
    table.write_text("# Unsolved games\n\n" + TABLE.format(g=at[("4!.0", 32)], g_mask=2, a=a, a_mask=5, b=b,
                                                          b_mask=5, wrong=b["rare_count"] + 1))
    r = compare("--from-json", save(tmp_path, "runs.json", *runs), "--tczajka", str(table))
    assert r.returncode == 1, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    assert f"4!.0 2^5 = 32: agree with tczajka (largest {at[('4!.0', 32)]['max_value']} at " \
           f"{at[('4!.0', 32)]['max_at']}, rare mask 0x2, {at[('4!.0', 32)]['rare_count']} rare, last at " \
           f"{at[('4!.0', 32)]['last_rare']})" in lines
    assert any(line.startswith("0.167 2^8 = 256: agree with tczajka (") for line in lines)
    assert f"0.167 2^7 = 128: DIFFER from tczajka ({table} line 7): rare_count: run {b['rare_count']}, " \
           f"published {b['rare_count'] + 1}" in lines
    assert "0.167 2^10 = 1024: not reached (tczajka's .167 at n = 1024; the run has n = 256)" in lines
    assert lines[-1] == "summary: 2 agree, 1 differ, 0 cannot compare, 1 not reached"

    # sgx's name of Grundy's game matches too; a run with no published figure compares nothing.
    r = compare("--from-json", save(tmp_path, "grundy.json", dict(runs[0], game="grundy")), "--tczajka", str(table))
    assert r.returncode == 0 and "grundy 2^5 = 32: agree with tczajka" in r.stdout
    r = compare("--from-json", save(tmp_path, "kayles.json", run_json("0.77", octal_values("0.77", 40))))
    assert r.returncode == 1
    assert r.stdout.splitlines()[-1] == "summary: 0 agree, 0 differ, 0 cannot compare, 0 not reached"
    assert r.stderr == "compare_published.py: nothing was compared, so nothing agrees\n"


def test_usage_errors_say_what_is_wrong_without_a_traceback(tmp_path):
    run = save(tmp_path, "run.json", run_json("0.167", octal_values("0.167", 20)))
    for args, message in [
            (["--from-json", str(tmp_path / "none.json")], f"{tmp_path / 'none.json'}: No such file or directory"),
            (["--from-json", run, "--rogalski", str(tmp_path / "none")], f"{tmp_path / 'none'}: no such directory"),
            (["--from-json", run, "--rogalski", str(tmp_path)], f"{tmp_path}: holds no rogalski counts"),
            (["--from-json", run, "--tczajka", run], f"{run}: no table with the columns"),
            (["--from-json", save(tmp_path, "bad.json", {"game": "0.167", "n": 20})], f"{tmp_path / 'bad.json'}: a run "
             "without game, n and milestones"),
            ([str(tmp_path / "none.h5")], f"{tmp_path / 'none.h5'}: no such run file")]:
        r = compare(*args)
        assert r.returncode == 2, args
        assert r.stderr.startswith("compare_published.py: " + message) and "Traceback" not in r.stderr, r.stderr
    r = compare()
    assert r.returncode == 2 and "give a run file or --from-json FILE" in r.stderr

    # sg_period nowhere: a copy of the script away from any build tree, with an empty PATH.
    (tmp_path / "scripts").mkdir()
    script = shutil.copy(SCRIPT, tmp_path / "scripts")
    (tmp_path / "run.h5").write_text("")
    r = compare(str(tmp_path / "run.h5"), "--rogalski", os.path.join(PUBLISHED, "rogalski"), script=script,
                env={"PATH": str(tmp_path / "scripts")})
    assert r.returncode == 2
    assert r.stderr.startswith("compare_published.py: sg_period not found: looked in $SGX_BIN_DIR, ")
    assert "--from-json" in r.stderr


def sg_period_with_milestones():
    program = os.path.join(BIN, "sg_period")
    if not os.path.exists(program):
        pytest.skip("SGX_BIN_DIR does not name a folder holding sg_period")
    usage = subprocess.run([program, "--help"], capture_output=True, text=True).stdout
    if "--milestones" not in usage:
        pytest.skip("this sg_period has no --milestones yet")


def run_octal(tmp_path, game, n):
    out = str(tmp_path / f"{game}.h5")
    subprocess.run([os.path.join(BIN, "run_octal"), game, "--n", str(n), "--out", out, "--threads", "1",
                    "--quiet"], check=True)
    return out


def test_runs_agree_with_rogalski_at_every_power_of_two(tmp_path):
    sg_period_with_milestones()
    k = 12 if SANITIZED else 18
    files = [run_octal(tmp_path, game, 2**k + 1) for game in ROGALSKI_GAMES]
    r = compare(*files, "--rogalski", os.path.join(PUBLISHED, "rogalski"), env=dict(os.environ, SGX_BIN_DIR=BIN))
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    for game in ROGALSKI_GAMES:
        for j in range(1, k + 1):
            assert any(line.startswith(f"{game} 2^{j} = {2**j}: agree with rogalski") for line in lines), (game, j)
    assert lines[-1] == f"summary: {5 * k} agree, 0 differ, 0 cannot compare, 5 not reached"


@pytest.mark.parametrize("game, k", [("grundy", 21), ("0.04", 17)])
def test_runs_agree_with_tczajka(tmp_path, game, k):
    sg_period_with_milestones()
    if SANITIZED and k > 17:
        pytest.skip("2^21 values of Grundy's game take too long under SGX_SANITIZED (sanitizer or Debug build)")
    r = compare(run_octal(tmp_path, game, 2**k), "--tczajka", os.path.join(PUBLISHED, "tczajka", "UnsolvedGames.md"),
                env=dict(os.environ, SGX_BIN_DIR=BIN))
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.splitlines()[-1] == "summary: 1 agree, 0 differ, 0 cannot compare, 0 not reached"
