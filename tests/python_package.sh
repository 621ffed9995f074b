#!/usr/bin/env bash
# Installs the Python package sgx with pip into a fresh virtual environment, as a user would
# (README.md, "From Python"), and runs the module's tests against what was installed.
#
#   python_package.sh SOURCE_DIR BIN_DIR PYTHON
# SOURCE_DIR is the repository, BIN_DIR the command-line tools the tests compare with, PYTHON the
# interpreter the environment is made from (it must see numpy and pytest). Everything the build
# writes goes into a temporary directory: the source tree is left as it was. Exits 77 (skipped)
# when PYTHON cannot make an environment with pip (python3-venv, python3-pip) or build the package
# (python3-setuptools, python3-wheel).
set -euo pipefail
src=$1 bin=$2 python=$3

skip() {
  echo "python_package.sh: skipped: $1" >&2
  exit 77
}
"$python" -c "import ensurepip, venv" 2>/dev/null || skip "$python has no venv with pip (install python3-venv)"
"$python" -c "import setuptools, wheel" 2>/dev/null ||
  skip "$python cannot build the package (install python3-setuptools and python3-wheel)"
"$python" -c "import numpy, pytest" 2>/dev/null || skip "$python cannot import numpy and pytest"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
venv=$work/venv
"$python" -m venv --system-site-packages "$venv"

# What setuptools and CMake would write into the source tree, if they did.
written_into_sources() {
  ls -d "$src"/build/pip "$src"/*.egg-info "$src"/python/*.egg-info 2>/dev/null || true
}
before=$(written_into_sources)
export SGX_BUILD_DIR=$work/build
export CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-2}
if ! "$venv/bin/python" -m pip install --no-build-isolation --no-deps --no-index "$src" >"$work/pip.log" 2>&1; then
  tail -n 40 "$work/pip.log" >&2
  echo "python_package.sh: pip install failed (its output above)" >&2
  exit 1
fi
if [ "$(written_into_sources)" != "$before" ]; then
  echo "python_package.sh: the build wrote into the source tree: $(written_into_sources)" >&2
  exit 1
fi

# From outside the sources and without PYTHONPATH: sgx must be the installed package.
cd "$work"
unset PYTHONPATH
"$venv/bin/python" - "$venv" <<'PY'
import pathlib, sys
import sgx
where = pathlib.Path(sgx.__file__).resolve()
venv = pathlib.Path(sys.argv[1]).resolve()
assert venv in where.parents, f"sgx imported from {where}, not from the environment {venv}"
for name in ("py.typed", "__init__.pyi"):
    assert (where.parent / name).is_file(), f"the installed package has no {name}"
print(f"sgx {sgx.__version__} installed in {where.parent}")
PY
SGX_BIN_DIR=$bin "$venv/bin/python" -m pytest -q -p no:cacheprovider "$src/python/tests/test_sgx.py"
