"""scripts/check_layout.py: the repository keeps its layout, and each kind of fault in a small
made-up repository is reported on a line of its own, with exit status 1."""

import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "check_layout.py"


def check(root):
    result = subprocess.run([sys.executable, str(SCRIPT), str(root)], capture_output=True, text=True)
    return result.returncode, result.stdout


def write(root, relative, text):
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


@pytest.fixture
def tidy(tmp_path):
    """A repository in layout: base/ below store/, a public header of each."""
    write(tmp_path, "include/sgx/sequence.hpp", "#pragma once\n")
    write(tmp_path, "include/sgx/store.hpp", '#pragma once\n#include "sgx/sequence.hpp"\n')
    write(tmp_path, "src/base/sequence.cpp", '#include "sgx/sequence.hpp"\n')
    write(tmp_path, "src/base/os_error.hpp", "#pragma once\n")
    write(tmp_path, "src/store/store_read.cpp", '#include "sgx/store.hpp"\n#include "base/os_error.hpp"\n')
    write(tmp_path, "src/app/cli.hpp", "#pragma once\n")
    write(tmp_path, "src/app/tool.cpp", '#include "cli.hpp"\n#include "sgx/store.hpp"\n')
    return tmp_path


def test_the_repository_keeps_its_layout():
    status, out = check(ROOT)
    assert status == 0, out
    assert "includes only downward" in out


def test_a_tidy_repository_passes(tidy):
    assert check(tidy)[0] == 0


def test_an_include_that_reaches_up_is_named(tidy):
    write(tidy, "src/base/numbers.cpp", '#include "sgx/store.hpp"\n')
    status, out = check(tidy)
    assert status == 1
    assert out.strip() == ('src/base/numbers.cpp: #include "sgx/store.hpp" reaches up from base/ to store/ '
                           "(layers, lowest first: base < games < analysis < kernels < sparse < store < engine "
                           "< play < sweep < app)")


def test_an_include_cycle_is_named(tidy):
    write(tidy, "src/store/store_hdf5.hpp", '#pragma once\n#include "store/store_chunks.hpp"\n')
    write(tidy, "src/store/store_chunks.cpp", '#include "store/store_hdf5.hpp"\n')
    status, out = check(tidy)
    assert status == 1
    assert "closes an include cycle: store/store_chunks -> store/store_hdf5 -> store/store_chunks" in out


def test_a_private_header_without_its_folder_is_named(tidy):
    write(tidy, "src/store/store_write.cpp", '#include "os_error.hpp"\n')
    status, out = check(tidy)
    assert status == 1
    assert 'src/store/store_write.cpp: #include "os_error.hpp": include a private header by its path' in out


def test_a_long_file_and_an_unknown_folder_are_named(tidy):
    write(tidy, "tests/test_long.cpp", "// a line\n" * 801)
    write(tidy, "src/gadgets/gadget.cpp", "")
    write(tidy, "include/sgx/gadget.hpp", "#pragma once\n")
    status, out = check(tidy)
    assert status == 1
    lines = out.splitlines()
    assert "tests/test_long.cpp: 801 lines, more than 800: split it by what its parts do" in lines
    assert any(line.startswith("src/gadgets/: a folder in no layer") for line in lines)
    assert any(line.startswith("include/sgx/gadget.hpp: include/sgx/gadget.hpp is in no layer") for line in lines)


def test_no_repository_is_a_usage_error(tmp_path):
    status, _ = check(tmp_path)
    assert status == 2
