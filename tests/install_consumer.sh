#!/usr/bin/env bash
# Installs the build into a temporary prefix and builds a small program against it both ways a
# user would: CMake's find_package(sgx) and pkg-config. Each must print Kayles' first values.
#
#   install_consumer.sh BUILD_DIR CONSUMER_SOURCE_DIR LIBDIR CXX [FLAGS]
# LIBDIR is the install's library directory under the prefix (lib); FLAGS are extra compile and
# link flags the library needs (the sanitizers' in a sanitizer build). CMAKE names the cmake to
# use (the one that configured the build; cmake from PATH if unset).
set -euo pipefail
build=$1 consumer=$2 libdir=$3 cxx=$4 flags=${5:-}
expected="0 1 2 3 1 4 3 2 1 4 2 6"
cmake=${CMAKE:-cmake}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix

"$cmake" --install "$build" --prefix "$prefix" >/dev/null

check() {  # check WAY OUTPUT
  if [ "$2" != "$expected" ]; then
    echo "install_consumer.sh: the $1 program printed '$2', expected '$expected'" >&2
    exit 1
  fi
  echo "$1: $2"
}

"$cmake" -S "$consumer" -B "$work/cmake-build" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CXX_COMPILER="$cxx" \
  -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_BUILD_TYPE=Release >/dev/null
"$cmake" --build "$work/cmake-build" >/dev/null
check find_package "$("$work/cmake-build/app")"

export PKG_CONFIG_PATH=$prefix/$libdir/pkgconfig
# shellcheck disable=SC2046,SC2086  # the flags are lists of words
"$cxx" $flags "$consumer/app.cpp" $(pkg-config --cflags --libs sgx) -o "$work/app-pkg-config"
check pkg-config "$("$work/app-pkg-config")"
