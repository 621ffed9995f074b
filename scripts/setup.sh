#!/usr/bin/env bash
# Set up a Debian 12 machine for sgx, build it, and run it or test it.
#
#   bash scripts/setup.sh run     install what is missing, build (Release), run a sample computation
#   bash scripts/setup.sh test    install (plot packages too), build with -Werror, run the tests, the MPI
#                                 sweep test, the tests in Debug (asserts on), then ASan+UBSan
#   bash scripts/setup.sh deps    only install the Debian packages
#   bash scripts/setup.sh plots   only install the Python packages the plot scripts use
#
# Works as root (a bare container or chroot has no sudo) and as a user with sudo.
# apt is not touched at all when every package is already installed.
set -euo pipefail

# Everything the build and the tests need. OpenMP comes with g++ (libgomp).
BUILD_PACKAGES=(
  build-essential cmake ninja-build git pkg-config ca-certificates
  libboost-dev libboost-program-options-dev
  libhdf5-dev hdf5-tools zlib1g-dev
  nlohmann-json3-dev
  libgtest-dev libgmock-dev googletest
  libbenchmark-dev
  libopenmpi-dev openmpi-bin
  pybind11-dev python3-dev python3-numpy python3-pytest
  python3-pip python3-venv python3-setuptools python3-wheel
)
# The plot scripts run with /usr/bin/python3, which sees these Debian packages.
PLOT_PACKAGES=(python3-h5py python3-matplotlib)

usage() {
  sed -n '2,8s/^# \{0,1\}//p' "$0"
}

step() { printf '== %s\n' "$*"; }

# Prints the packages among "$@" that are not installed.
missing_packages() {
  local pkg status
  for pkg in "$@"; do
    status=$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null || true)
    [ "$status" = installed ] || printf '%s\n' "$pkg"
  done
}

install_packages() {
  local missing
  mapfile -t missing < <(missing_packages "$@")
  if [ ${#missing[@]} -eq 0 ]; then
    step "packages: all ${#} installed, skipping apt"
    return
  fi
  local as_root=()
  if [ "$(id -u)" -ne 0 ]; then
    if ! command -v sudo >/dev/null 2>&1; then
      echo "setup.sh: missing packages (${missing[*]}) and not root, and sudo is not available" >&2
      exit 1
    fi
    as_root=(sudo)
  fi
  step "packages: installing ${missing[*]}"
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -q --no-install-recommends "${missing[@]}" </dev/null
}

# configure DIR [cmake options...]: configure DIR with Ninja and build it.
configure_and_build() {
  local dir=$1
  shift
  step "configure $dir ($*)"
  cmake -S . -B "$dir" -G Ninja "$@"
  step "build $dir"
  cmake --build "$dir" --parallel "$(nproc)"
}

run_tests() {
  local dir=$1
  step "test $dir"
  # Two tests at a time on two cores: OpenMP threads that spin while they wait would take the core
  # from the thread they wait for, so waiting threads sleep instead.
  OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive} ctest --test-dir "$dir" --output-on-failure -j2 --no-tests=error
}

mode=${1:-}
case "$mode" in
  run | test | deps | plots) ;;
  -h | --help | help)
    usage
    exit 0
    ;;
  *)
    echo "setup.sh: unknown mode '$mode'" >&2
    usage >&2
    exit 2
    ;;
esac

cd "$(dirname "${BASH_SOURCE[0]}")/.."

if [ "$mode" = plots ]; then
  install_packages "${PLOT_PACKAGES[@]}"
  step "plots: use /usr/bin/python3 (it sees python3-matplotlib, and the module sgx from build/python)"
  exit 0
fi

if [ "$mode" = test ]; then
  # The tests also run the plot script and read files with h5py: install those too.
  install_packages "${BUILD_PACKAGES[@]}" "${PLOT_PACKAGES[@]}"
else
  install_packages "${BUILD_PACKAGES[@]}"
fi
if [ "$mode" = deps ]; then
  exit 0
fi

if [ "$mode" = run ]; then
  configure_and_build build -DCMAKE_BUILD_TYPE=Release -DSGX_WERROR=OFF
  # The sample replaces its own earlier file (results/0.137.h5): run_octal refuses to replace a
  # run without --overwrite, and this command must work every time it is run.
  step "run build/bin/run_octal 0.137 --n 1e7 --overwrite"
  build/bin/run_octal 0.137 --n 1e7 --overwrite
  if [ -n "$(missing_packages "${PLOT_PACKAGES[@]}")" ]; then
    step "plots: bash scripts/setup.sh plots installs what scripts/plot_*.py need (${PLOT_PACKAGES[*]})"
  fi
  exit 0
fi

# mode = test
configure_and_build build -DCMAKE_BUILD_TYPE=Release -DSGX_WERROR=ON
run_tests build

# sg_sweep across MPI ranks must give the one-process table. The full suite runs in the other two
# trees, so this one builds only sg_sweep and runs only the MPI test.
step "configure build-mpi (-DSGX_WITH_MPI=ON)"
cmake -S . -B build-mpi -G Ninja -DCMAKE_BUILD_TYPE=Release -DSGX_WERROR=ON -DSGX_WITH_MPI=ON -DSGX_BUILD_BENCH=OFF
step "build build-mpi (sg_sweep)"
cmake --build build-mpi --parallel "$(nproc)" --target sg_sweep
step "test build-mpi (MPI only)"
ctest --test-dir build-mpi -R Mpi --output-on-failure --no-tests=error

# Debug: the asserts on the invariants the kernels and the store rely on, and the standard
# library's bounds checks, which Release builds leave out. Only the tests: no benchmarks, no MPI.
# Optimised a little (-O1: the asserts stay, NDEBUG is not set), and with the smaller sizes of the
# sanitizer build (SGX_SANITIZED, below): unoptimised, the random-code shards took 4 to 5 minutes
# each against about one in Release.
configure_and_build build-debug -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-O1 -DSGX_WERROR=ON \
  -DSGX_BUILD_BENCH=OFF -DSGX_WITH_MPI=OFF
SGX_SANITIZED=1 run_tests build-debug

# The Python module and its tests are left out of this tree: a sanitized extension does not load
# into an unsanitized python3.
configure_and_build build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DSGX_SANITIZE=ON -DSGX_WERROR=ON -DSGX_BUILD_BENCH=OFF
# SGX_SANITIZED tells tests they run slowly under the sanitizers, so they may use smaller sizes.
export SGX_SANITIZED=1
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
run_tests build-asan
