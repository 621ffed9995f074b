"""Tests of the Python package sgx: from the build tree (PYTHONPATH=<build>/python), and as pip installs it
(tests/python_package.sh).

SGX_BIN_DIR names the directory of the command-line tools, whose output the module must match.
"""

import ast
import doctest
import inspect
import os
import pathlib
import signal
import subprocess
import sys

import numpy as np
import pytest

import sgx

BIN_DIR = pathlib.Path(os.environ.get("SGX_BIN_DIR", ""))


def run_octal(*args):
    return subprocess.run([str(BIN_DIR / "run_octal"), *args], check=True, capture_output=True, text=True).stdout


# ---- sequence ----

def test_sequence_equals_run_octal(tmp_path):
    values = sgx.sequence("0.137", 10**6)
    printed = run_octal("0.137", "--n", "1e6", "--print", "--quiet", "--out", str(tmp_path / "run.h5"))
    assert values.dtype == np.uint8
    assert values.shape == (10**6,)
    assert np.array_equal(values, np.array(printed.split(), dtype=np.int64))


def test_kayles_first_values():
    assert sgx.sequence("kayles", 12).tolist() == [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]


def test_dtype_is_the_narrowest_that_holds_the_values():
    nim = sgx.sequence("nim", 300)  # G(n) = n
    assert nim.dtype == np.uint16
    assert np.array_equal(nim, np.arange(300))
    assert sgx.sequence("nim", 256).dtype == np.uint8
    assert sgx.sequence("nim", 257).dtype == np.uint16
    assert sgx.sequence("kayles", 0).size == 0


@pytest.mark.parametrize("engine", ["naive", "sparse", "sweep"])
def test_every_engine_gives_the_same_values(engine):
    reference = sgx.sequence("4!.0", 3000, engine="naive", threads=1)
    assert np.array_equal(sgx.sequence("4!.0", 3000, engine=engine, threads=2), reference)


def test_bad_arguments_are_value_errors():
    with pytest.raises(ValueError, match="invalid game '0.x' at character 3: 'x' is not a hexadecimal digit"):
        sgx.sequence("0.x", 10)
    with pytest.raises(ValueError, match="unknown engine 'fast'"):
        sgx.sequence("kayles", 10, engine="fast")
    with pytest.raises(ValueError, match="n must be >= 0"):
        sgx.sequence("kayles", -1)
    with pytest.raises(ValueError, match="threads must be at least 1"):
        sgx.sequence("kayles", 10, threads=0)


def test_too_many_values_is_a_memory_error_that_says_so():
    # 2^62 one-byte values cannot even be reserved, so this fails at once on any machine.
    with pytest.raises(MemoryError, match="out of memory: ask for fewer values"):
        sgx.sequence("kayles", 2**62)


def test_ctrl_c_raises_keyboard_interrupt():
    # A child process, so that the signal reaches only the computation. It installs Python's own
    # SIGINT handler: a process started in the background may have inherited SIGINT ignored.
    child = subprocess.Popen(
        [sys.executable, "-c",
         "import signal, sgx\n"
         "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
         "print('computing', flush=True)\n"
         "try:\n"
         "    sgx.sequence('4!.0', 2**28)\n"
         "    print('finished')\n"
         "except KeyboardInterrupt:\n"
         "    print('interrupted')\n"],
        stdout=subprocess.PIPE, text=True)
    assert child.stdout.readline() == "computing\n"
    try:
        child.wait(timeout=0.5)  # well inside a computation that takes minutes
    except subprocess.TimeoutExpired:
        pass
    child.send_signal(signal.SIGINT)
    out, _ = child.communicate(timeout=300)
    assert out == "interrupted\n"
    assert child.returncode == 0


# ---- period and stats ----

def test_kayles_period_is_proven():
    period = sgx.period(sgx.sequence("kayles", 200), game="kayles")
    assert (period.found, period.period, period.preperiod, period.saltus) == (True, 12, 71, 0)
    assert period.proven
    assert period.theorem == "guy-smith"
    assert 0 < period.proof_needs_n <= 200
    assert "period=12" in repr(period) and "proven=True" in repr(period)


def test_period_of_a_run_file_is_read_in_blocks(tmp_path):
    path = tmp_path / "0.137.h5"
    run_octal("0.137", "--n", "1e5", "--no-shortcut", "--quiet", "--out", str(path))
    from_file = sgx.period(path)
    assert (from_file.found, from_file.period, from_file.preperiod, from_file.proven) == (True, 34, 52, True)
    assert from_file.exceptions == [0, 14, 16, 17, 31, 34, 51]
    assert from_file.checked_n == 100000
    in_memory = sgx.period(sgx.open(path).values, game="dawson")
    assert repr(sgx.period(str(path), game="0.137")) == repr(in_memory)
    with pytest.raises(ValueError, match="holds a run of 0.137, not kayles"):
        sgx.period(path, game="kayles")


def planted(preperiod, period, length, saltus, seed):
    """A random preperiod, then a random block of period values repeated, each repetition saltus more."""
    rng = np.random.default_rng(seed)
    block = rng.integers(0, 199, period, dtype=np.uint8)
    block[0] = 199  # only here in the block: period is its least period
    tail = np.resize(block, length - preperiod) + saltus * (np.arange(length - preperiod) // period)
    head = rng.integers(0, 199, preperiod, dtype=np.uint8)
    if preperiod and head[-1] == tail[period - 1] - saltus:
        head[-1] = (head[-1] + 1) % 199
    return np.concatenate([head, tail]).astype(np.uint8)


@pytest.mark.parametrize("preperiod, period, saltus, game", [
    (0, 2**22 + 1, 0, "grundy"), (3_000_017, 5_000_011, 0, "grundy"), (1_999_993, 2**23 + 3, 2, "0.[3]")])
def test_periods_of_millions_are_found_from_two_periods_on(preperiod, period, saltus, game):
    values = planted(preperiod, period, preperiod + 2 * period + 1, saltus, seed=period)
    found = sgx.period(values, game=game)
    assert (found.found, found.period, found.preperiod, found.saltus) == (True, period, preperiod, saltus)
    assert not sgx.period(values[:-1], game=game).found  # one value less: not two full periods


def test_too_few_values_leave_the_period_unproven():
    period = sgx.period(sgx.sequence("kayles", 120), game="kayles")
    assert not period.proven
    assert period.theorem is None  # null in the JSON unless proven
    assert period.proof_needs_n > 120
    assert "theorem=None" in repr(period)


def test_missing_values_are_none_as_in_the_json():
    # No theorem applies to Grundy's game: no proof to need.
    grundy = sgx.period(sgx.sequence("4!.0", 1000), game="4!.0")
    assert (grundy.proven, grundy.theorem, grundy.proof_needs_n) == (False, None, None)
    unfound = sgx.period([3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8])
    assert not unfound.found
    assert (unfound.preperiod, unfound.period, unfound.saltus, unfound.theorem, unfound.proof_needs_n) == (
        None, None, None, None, None)


def test_period_of_plain_values():
    period = sgx.period([5, 0, 1, 2] + [0, 1, 2] * 30)
    assert (period.found, period.period, period.preperiod, period.proven) == (True, 3, 1, False)
    assert sgx.period(np.arange(100), game=None).saltus == 1


def test_period_refuses_values_that_are_not_nim_values():
    with pytest.raises(ValueError, match="values\\[1\\] is -2"):
        sgx.period([1, -2, 3])
    with pytest.raises(TypeError, match="integers"):
        sgx.period([0.5, 1.5])


def test_stats_match_a_count_in_numpy():
    values = sgx.sequence("0.137", 5000)
    stats = sgx.stats(values)
    counts = np.bincount(values)
    # One count for every value below a power of two: the counts of every mask come from it.
    assert np.array_equal(stats.histogram[:counts.size], counts)
    assert not stats.histogram[counts.size:].any()
    rare = np.array([bin(v & stats.rare_mask).count("1") % 2 == 0 for v in values.tolist()])
    assert stats.rare_count == rare.sum()
    assert stats.last_rare == np.flatnonzero(rare)[-1]
    assert stats.max_value == values.max() and stats.max_at == values.argmax()
    assert repr(stats).startswith("Stats(rare_mask=0x")
    # Other integer dtypes, byte orders and strides give the same counts.
    for same in (values.astype(">u4"), values.astype(np.int64), values.tolist()):
        assert sgx.stats(same).rare_count == stats.rare_count
    assert sgx.stats(values[::2]).rare_count == sgx.stats(values[::2].copy()).rare_count
    assert np.array_equal(stats.is_rare(values), rare)


def test_is_rare_marks_the_rare_positions_of_grundys_game():
    values = sgx.sequence("4!.0", 2**16)
    stats = sgx.stats(values, game="4!.0")
    flags = stats.is_rare(values)
    assert flags.dtype == np.bool_ and flags.shape == values.shape
    assert flags.sum() == stats.rare_count
    assert np.flatnonzero(flags)[-1] == stats.last_rare
    loop = [bin(v & stats.rare_mask).count("1") % 2 == 0 for v in values.tolist()]
    assert flags.tolist() == loop
    # values[i] is G(start + i).
    assert np.array_equal(stats.is_rare(values[1000:], start=1000), flags[1000:])


def test_is_rare_uses_the_heaps_parity_when_the_mask_does():
    # 0.051: its only split takes 2 tokens, so the rare test may use the heap's parity.
    values = sgx.sequence("0.051", 2**14)
    stats = sgx.stats(values, game="0.051")
    assert stats.rare_position_bit
    flags = stats.is_rare(values)
    loop = [bin(v & stats.rare_mask).count("1") % 2 == n % 2 for n, v in enumerate(values.tolist())]
    assert flags.tolist() == loop
    assert flags.sum() == stats.rare_count
    assert np.flatnonzero(flags)[-1] == stats.last_rare
    with pytest.raises(ValueError, match="start"):
        stats.is_rare(values, start=-1)


# ---- solve ----

def test_solve_nim():
    solution = sgx.solve("nim", [3, 4, 5])
    assert (solution.value, solution.outcome, solution.mover_wins) == (2, "N", True)
    [move] = solution.winning_moves
    assert (move.index, move.before, move.after) == (1, 3, [1])  # heaps count from 1, as the tools print
    assert repr(move) == "<heap 1: 3 -> 1>"


def test_solve_other_games_and_misere():
    assert sgx.solve("wythoff", [(3, 5)]).outcome == "P"
    [move] = sgx.solve("cut", [(2, 4)]).winning_moves
    assert move.after == [(2, 2), (2, 2)]
    misere = sgx.solve("nim", [1, 1], misere=True)
    assert (misere.value, misere.outcome) == (1, "N")


def test_solve_refuses_bad_positions():
    with pytest.raises(ValueError, match="negative"):
        sgx.solve("nim", [-3])
    with pytest.raises(ValueError, match="invalid game"):
        sgx.solve("0.x", [3])


def test_solve_says_what_is_beyond_reach_without_command_line_advice():
    # The library says how far it computes; the command-line advice (run_octal, --from) is sg_solve's.
    with pytest.raises(ValueError, match=r"heap 5000000 is beyond the heaps whose values are computed on the spot "
                                         r"for 0.77 \(up to 1048576\)$"):
        sgx.solve("kayles", [5_000_000])


# ---- files, names ----

def test_open_reads_what_run_octal_wrote(tmp_path):
    path = tmp_path / "0.137.h5"
    run_octal("0.137", "--n", "1e5", "--quiet", "--out", str(path))
    run = sgx.open(path)
    assert np.array_equal(run.values, sgx.sequence("0.137", 10**5))
    assert (run.game, run.n, run.complete, run.target_n) == ("0.137", 10**5, True, 10**5)
    assert (run.period.period, run.period.preperiod, run.period.proven) == (34, 52, True)
    assert run.stats.rare_mask == sgx.stats(run.values, "0.137").rare_mask
    assert run.stats.rare_position_bit and sgx.stats(run.values, "0.137").rare_position_bit
    assert not sgx.stats(run.values).rare_position_bit  # no game: masks of value bits only
    assert "game='0.137'" in repr(run)


def test_open_reads_a_run_with_memory_whole(tmp_path):
    # Format version 3 with prefix_n: the run kept a prefix and a tail in memory, every value is on
    # disk. 2^25 values of sub:1,3,4 (G(n) = a repeating 0,1,0,1,2,3,2) at two bytes under 128 MB.
    n = 2**25
    path = tmp_path / "bounded.h5"
    run_octal("sub:1,3,4", "--n", str(n), "--no-shortcut", "--memory", "128M", "--quiet", "--out", str(path))
    run = sgx.open(path)
    assert run.format_version == 3
    assert run.n == n and run.values.shape == (n,)
    assert np.array_equal(run.values[:14], [0, 1, 0, 1, 2, 3, 2] * 2)
    assert np.array_equal(run.values, np.resize(np.array([0, 1, 0, 1, 2, 3, 2], dtype=run.values.dtype), n))
    assert run.tail.size == 0 and run.tail_start == n
    assert "kept=" not in repr(run)


def test_open_gives_the_milestones_the_run_counted(tmp_path):
    # 0.167 to 2^12 + 1: the counts at every power of two, and G(1..16) as published record runs
    # list them (rogalski-wmii-uni-lodz-pl/octal, results/0.167/16: 0:1 1:5 2:4 3:2 4:3 6:1).
    path = tmp_path / "0.167.h5"
    run_octal("0.167", "--n", "4097", "--quiet", "--out", str(path))
    run = sgx.open(path)
    values = sgx.sequence("0.167", 4097)
    assert [m.n for m in run.milestones] == [2**k for k in range(13)]
    for m in run.milestones:
        assert np.array_equal(np.trim_zeros(m.stats.histogram, "b"), np.bincount(values[:m.n]))
        assert m.value_at_n == values[m.n]
        assert m.stats.rare_mask == sgx.stats(values[:m.n], "0.167").rare_mask
    assert run.milestones[4].counts_from_1() == [1, 5, 4, 2, 3, 0, 1]
    # A run that ends at a power of two does not know G(N) there.
    run_octal("0.167", "--n", "4096", "--quiet", "--overwrite", "--out", str(path))
    last = sgx.open(path).milestones[-1]
    assert last.n == 4096 and last.value_at_n is None
    with pytest.raises(ValueError, match="run it to 4097"):
        last.counts_from_1()


def write_version_2_file(path, values, prefix_n, tail_start):
    """A run file of format version 2, as an older run_octal --memory wrote it: G(0..prefix_n-1)
    in /values, G(tail_start..n-1) in /tail, the rare-value state in /sparse."""
    h5py = pytest.importorskip("h5py")
    n = len(values)
    histogram = np.bincount(values).astype(np.uint64)

    def text(value):
        return np.bytes_(value)

    with h5py.File(path, "w") as f:
        f.attrs["format_version"] = np.int32(2)
        f.attrs["game"] = text("0.137")
        f.attrs["n"] = np.uint64(n)
        f.attrs["prefix_n"] = np.uint64(prefix_n)
        f.attrs["tail_start"] = np.uint64(tail_start)
        f.attrs["complete"] = np.uint8(1)
        f.attrs["target_n"] = np.uint64(n)
        f.attrs["engine"] = text("sparse")
        f.attrs["program_version"] = text("0.9")
        f.create_dataset("values", data=values[:prefix_n], fletcher32=True, chunks=True)
        f.create_dataset("tail", data=values[tail_start:], fletcher32=True, chunks=True)
        stats = f.create_group("stats")
        for name, value in [("rare_mask", np.uint64(0)), ("rare_count", np.uint64(0)), ("last_rare", np.int64(-1)),
                            ("max_value", np.uint32(values.max())), ("max_at", np.uint64(values.argmax()))]:
            stats.attrs[name] = value
        period = f.create_group("period")
        for name, value in [("found", np.uint8(0)), ("proven", np.uint8(0)), ("preperiod", np.uint64(0)),
                            ("period", np.uint64(0)), ("saltus", np.int64(0)), ("theorem", text("none")),
                            ("proof_needs_n", np.uint64(0)), ("checked_n", np.uint64(0))]:
            period.attrs[name] = value
        sparse = f.create_group("sparse")
        sparse.attrs["mask"] = np.uint64(0)
        sparse.attrs["max_value"] = np.uint32(values.max())
        sparse.attrs["max_at"] = np.uint64(values.argmax())
        sparse.create_dataset("histogram", data=histogram)


def test_open_reads_a_version_2_file_as_it_holds(tmp_path):
    values = sgx.sequence("0.137", 5000)
    path = tmp_path / "v2.h5"
    write_version_2_file(path, values, prefix_n=1000, tail_start=4000)
    run = sgx.open(path)
    assert (run.format_version, run.n, run.tail_start) == (2, 5000, 4000)
    assert np.array_equal(run.values, values[:1000])
    assert np.array_equal(run.tail, values[4000:])
    assert run.values.dtype == values.dtype
    assert "kept='G(0..999) and G(4000..4999)'" in repr(run)
    # The same file with nothing released reads whole.
    write_version_2_file(tmp_path / "whole.h5", values, prefix_n=5000, tail_start=5000)
    whole = sgx.open(tmp_path / "whole.h5")
    assert np.array_equal(whole.values, values) and whole.tail.size == 0
    # Written before runs kept milestones: counted from the values when the file holds them all.
    assert [m.n for m in whole.milestones] == [2**k for k in range(13)]
    assert run.milestones == []


def test_open_refuses_a_missing_file(tmp_path):
    with pytest.raises(OSError, match="none.h5"):
        sgx.open(tmp_path / "none.h5")


def test_canonical_and_games():
    assert sgx.canonical("kayles") == "0.77"
    assert sgx.canonical("0.1370") == "0.137"
    assert sgx.games()["kayles"] == "0.77"
    with pytest.raises(ValueError):
        sgx.canonical("kayles!")


def test_bash_and_every_heap_game_word():
    assert sgx.sequence("bash:3", 9).tolist() == [0, 1, 2, 3, 0, 1, 2, 3, 0]
    assert sgx.canonical("bash:3") == "0.333"
    assert sgx.period(sgx.sequence("bash:3", 100), game="bash:3").period == 4
    assert sgx.stats(sgx.sequence("BASH:2", 30), game="bash:2").max_value == 2
    with pytest.raises(ValueError, match="not a heap game"):
        sgx.sequence("wythoff", 10)


def test_open_is_a_context_manager(tmp_path):
    path = tmp_path / "kayles.h5"
    sgx.run("kayles", path, 500)
    with sgx.open(path) as run:
        values = run.values
        assert run.n == 500
    assert values[:24].tolist() == KAYLES_FIRST
    assert run.period.period == 12


PUBLIC_FUNCTIONS = ["sequence", "period", "stats", "solve", "open", "run", "canonical", "games"]
PUBLIC_CLASSES = ["Period", "Stats", "Move", "Solution", "Milestone", "Run"]


def test_every_function_has_a_signature():
    assert list(inspect.signature(sgx.sequence).parameters) == ["game", "n", "threads", "engine"]
    assert inspect.signature(sgx.run).parameters["max_n"].kind is inspect.Parameter.KEYWORD_ONLY
    for name in PUBLIC_FUNCTIONS:
        assert inspect.signature(getattr(sgx, name)) is not None
        assert getattr(sgx, name).__doc__
    assert list(inspect.signature(sgx.Stats.is_rare).parameters) == ["self", "values", "start"]
    assert list(inspect.signature(sgx.Milestone.counts_from_1).parameters) == ["self"]


def stub_definitions():
    """The functions and classes of the stub next to the package, by name, as ast nodes."""
    stub = pathlib.Path(sgx.__file__).with_name("__init__.pyi")
    assert pathlib.Path(sgx.__file__).with_name("py.typed").is_file()
    tree = ast.parse(stub.read_text(encoding="utf-8"))
    return {node.name: node for node in tree.body if isinstance(node, (ast.FunctionDef, ast.ClassDef))}


def parameter_names(arguments):
    return [a.arg for a in arguments.posonlyargs + arguments.args + arguments.kwonlyargs]


def test_the_stub_has_every_function_and_class_with_its_signature():
    stub = stub_definitions()
    assert set(stub) == set(PUBLIC_FUNCTIONS + PUBLIC_CLASSES)
    assert set(sgx.__all__) == set(PUBLIC_FUNCTIONS + PUBLIC_CLASSES + ["__version__"])
    for name in PUBLIC_FUNCTIONS:
        assert parameter_names(stub[name].args) == list(inspect.signature(getattr(sgx, name)).parameters), name
    for name in PUBLIC_CLASSES:
        cls = getattr(sgx, name)
        public = {a for a in dir(cls) if not a.startswith("_")}
        in_stub = {node.name for node in stub[name].body if isinstance(node, ast.FunctionDef)}
        assert public == {a for a in in_stub if not a.startswith("_")}, name
    stats_is_rare = next(n for n in stub["Stats"].body if getattr(n, "name", "") == "is_rare")
    assert parameter_names(stats_is_rare.args) == ["self", "values", "start"]


def test_docstrings():
    assert "narrowest unsigned dtype" in sgx.sequence.__doc__
    assert "proven" in sgx.period.__doc__
    # The examples in the docstrings give what they show.
    results = doctest.testmod(sgx, extraglobs={"sgx": sgx}, optionflags=doctest.ELLIPSIS)
    assert results.attempted >= 6
    assert results.failed == 0


# ---- run ----

KAYLES_FIRST = [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7]


def test_run_computes_kayles_until_proven_into_a_file(tmp_path):
    path = tmp_path / "kayles.h5"
    run = sgx.run("kayles", path)
    assert run.game == "0.77"
    assert run.complete
    assert run.values[:24].tolist() == KAYLES_FIRST
    assert (run.period.period, run.period.preperiod, run.period.proven) == (12, 71, True)
    # Period 12 from 71 on, in the values themselves.
    assert np.array_equal(run.values[71:run.n - 12], run.values[83:run.n])
    assert run.values[70] != run.values[82]
    assert np.array_equal(run.values, sgx.sequence("kayles", run.n, engine="naive"))
    last = run.milestones[-1]
    counted = sgx.stats(run.values[:last.n], game="kayles")
    assert (last.stats.rare_count, last.stats.max_value) == (counted.rare_count, counted.max_value)
    assert sgx.open(path).n == run.n


def test_run_to_n_matches_run_octal_and_resuming_extends_the_file(tmp_path):
    path = tmp_path / "0.137.h5"
    first = sgx.run("0.137", path, 5000, threads=1, checkpoint_every=0)
    assert (first.n, first.complete, first.target_n) == (5000, True, 5000)
    longer = sgx.run("0.137", path, 20000)
    assert longer.n == 20000
    assert np.array_equal(longer.values[:5000], first.values)
    assert np.array_equal(longer.values, sgx.sequence("0.137", 20000, engine="naive"))
    printed = run_octal("0.137", "--n", "20000", "--print", "--quiet", "--out", str(tmp_path / "cli.h5"))
    assert longer.values.tolist() == [int(v) for v in printed.split()]
    # Fewer values than the file holds: the stored ones are kept, and nothing is added.
    assert sgx.run("0.137", path, 100).n == 20000


def test_run_refuses_a_file_of_another_game_and_leaves_it(tmp_path):
    path = tmp_path / "run.h5"
    sgx.run("0.137", path, 1000)
    before = path.read_bytes()
    with pytest.raises(ValueError, match="holds a run of 0.137, not 0.77"):
        sgx.run("kayles", path, 1000)
    assert path.read_bytes() == before
    with pytest.raises(ValueError):
        sgx.run("kayles", tmp_path / "other.h5", -1)
    with pytest.raises(ValueError):
        sgx.run("kayles", tmp_path / "other.h5", until_proven=False)
