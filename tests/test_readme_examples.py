"""Every console example of the README, run as a reader would run it, prints what the README shows.

The examples run in order in one scratch folder that looks like the repository's root (build/bin/
holds the tools under test, scripts/ the repository's scripts, results/ starts with only the
published data), so that one
example may use the files an earlier one wrote, as the README's reader would. Each `$ COMMAND` runs
in bash; the lines after it are what it must print, its output followed by its errors when it fails:

- a line `...` stands for any number of lines, and `...` inside a line for any text;
- the numbers of lines that depend on the machine and the clock (time, profile, speedup, stretches,
  values_per_second) are not compared, only the words around them;
- an example whose command prints nothing shows no lines after it.

An example the suite cannot afford (minutes of computing) has the line
`<!-- example not run: WHY -->` right before its fence.
"""

import os
import pathlib
import re
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
NOT_RUN = "<!-- example not run:"

# Lines whose numbers depend on the machine or the clock.
MACHINE_LINES = re.compile(r"^(time|profile|speedup|stretches|  \d+\. )\b")
NUMBER = re.compile(r"\d+(\.\d+)?(e[+-]?\d+)?")
JSON_MACHINE_KEYS = re.compile(r'"(seconds|values_per_second|peak_rss_bytes|threads)":[0-9.e+-]+')


def examples():
    """(line number, [(command, expected lines)]) for each console example not marked as not run."""
    lines = README.read_text(encoding="utf-8").splitlines()
    found = []
    i = 0
    while i < len(lines):
        if lines[i].strip() == "```console":
            start = i
            skipped = i > 0 and lines[i - 1].startswith(NOT_RUN)
            i += 1
            steps = []
            while lines[i].strip() != "```":
                if lines[i].startswith("$ "):
                    steps.append((lines[i][2:], []))
                else:
                    assert steps, f"README.md:{i + 1}: output before any command"
                    steps[-1][1].append(lines[i])
                i += 1
            if not skipped:
                found.append((start + 1, steps))
        i += 1
    return found


def masked(line):
    if MACHINE_LINES.match(line):
        line = NUMBER.sub("#", line)
        if line.startswith("stretches"):
            line = line.split(",")[0]  # the dates; host, command and commit are this machine's
    return JSON_MACHINE_KEYS.sub(lambda m: f'"{m.group(1)}":#', line)


def pattern(expected):
    """A regular expression for the whole output the expected lines describe."""
    parts = []
    for line in expected:
        if line.strip() == "...":
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            pieces = [re.escape(piece) for piece in masked(line).split("...")]
            parts.append(r"[^\n]*".join(pieces) + r"\n")
    return "".join(parts)


def plot_packages_installed():
    return subprocess.run(["/usr/bin/python3", "-c", "import h5py, matplotlib"], capture_output=True).returncode == 0


@pytest.fixture(scope="module")
def scratch(tmp_path_factory):
    folder = tmp_path_factory.mktemp("readme")
    bin_dir = pathlib.Path(os.environ.get("SGX_BIN_DIR", ROOT / "build" / "bin")).resolve()
    (folder / "build").mkdir()
    (folder / "build" / "bin").symlink_to(bin_dir)
    (folder / "scripts").symlink_to(ROOT / "scripts")
    (folder / "results").mkdir()
    (folder / "results" / "published").symlink_to(ROOT / "results" / "published")
    return folder


def test_the_readme_has_examples():
    assert len(examples()) >= 10


@pytest.mark.parametrize("line,steps", examples(), ids=[f"README.md:{line}" for line, _ in examples()])
def test_example(scratch, line, steps):
    if any("scripts/plot_" in command for command, _ in steps) and not plot_packages_installed():
        pytest.skip("the plot scripts need python3-h5py and python3-matplotlib (bash scripts/setup.sh plots)")
    for command, expected in steps:
        result = subprocess.run(["bash", "-c", command], cwd=scratch, capture_output=True, text=True, timeout=600)
        # What a reader sees on a terminal: the output, and the errors of a command that fails (the
        # progress lines a tool writes when its stderr is a log, as here, are not shown).
        shown = result.stdout + (result.stderr if result.returncode != 0 else "")
        output = "".join(masked(out.rstrip()) + "\n" for out in shown.splitlines())
        assert re.fullmatch(pattern(expected), output), (
            f"README.md:{line}: `{command}` printed\n{result.stdout}\nwhere the README shows\n" + "\n".join(expected))
