#!/bin/sh
# Install checks: install the build in $1 to a fresh prefix, then build and run a separate
# program against it through pkg-config and through find_package(trainsize).
# Usage: sh tests/install_check.sh BUILD_DIR
set -eu
build=$1
src=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"
passed=0
cmake --install "$build" --prefix "$prefix" >/dev/null
for f in include/trainsize.h bin/trainsize share/man/man1/trainsize.1 \
         share/bash-completion/completions/trainsize; do
  test -e "$prefix/$f" || { echo "install_check: missing $f"; exit 1; }
done
libdir=$(dirname "$(find "$prefix" -name 'libtrainsize.so.2' | head -n 1)")
test -n "$libdir" || { echo "install_check: no libtrainsize.so.2 (SONAME)"; exit 1; }
# The installed command finds its library by its relative RUNPATH, with no loader path set.
env -u LD_LIBRARY_PATH "$prefix/bin/trainsize" --version >/dev/null ||
  { echo "install_check: the installed trainsize does not find its library"; exit 1; }
readelf -d "$prefix/bin/trainsize" | grep -q 'R.*PATH.*\$ORIGIN/\.\./' ||
  { echo "install_check: the installed trainsize has no relative RUNPATH"; exit 1; }
passed=$((passed + 1))

# pkg-config
export PKG_CONFIG_PATH="$libdir/pkgconfig"
cc -std=c11 -Wall -Wextra -Werror "$src/install/consumer.c" -o "$work/consumer_pc" \
   $(pkg-config --cflags --libs libtrainsize)
LD_LIBRARY_PATH=$libdir "$work/consumer_pc"
passed=$((passed + 1))

# find_package(trainsize)
cmake -S "$src/install" -B "$work/cmake" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/cmake" >/dev/null
LD_LIBRARY_PATH=$libdir "$work/cmake/consumer"
passed=$((passed + 1))
echo "$passed passed, 0 failed"
