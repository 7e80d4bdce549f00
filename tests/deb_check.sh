#!/bin/sh
# The Debian package: `cpack -G DEB` in the build $1 gives a .deb with the library, header,
# pkg-config and CMake files, the command, its manual page and completion; unpacked in a
# fresh folder, its command runs from there (its relative RUNPATH finds the library).
# Usage: sh tests/deb_check.sh BUILD_DIR
set -eu
build=$(cd "$1" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$build" && cpack -G DEB -B "$work/out" >/dev/null)
deb=$(find "$work/out" -maxdepth 1 -name 'libtrainsize_*.deb' | head -n 1)
test -n "$deb" || { echo "deb_check: cpack made no libtrainsize_*.deb"; exit 1; }
dpkg-deb --field "$deb" Package Version Depends >"$work/fields"
grep -q '^Package: libtrainsize$' "$work/fields" || { echo "deb_check: wrong package name"; exit 1; }
dpkg-deb --contents "$deb" >"$work/contents"
for f in ./usr/bin/trainsize ./usr/include/trainsize.h ./usr/share/man/man1/trainsize.1 \
         ./usr/share/bash-completion/completions/trainsize libtrainsize.so.2 \
         pkgconfig/libtrainsize.pc cmake/trainsize/trainsizeConfig.cmake; do
  grep -q -- "$f" "$work/contents" || { echo "deb_check: the package lacks $f"; exit 1; }
done
dpkg-deb -x "$deb" "$work/root"
env -u LD_LIBRARY_PATH "$work/root/usr/bin/trainsize" --version | grep -q '^trainsize [0-9]' ||
  { echo "deb_check: the unpacked trainsize does not run"; exit 1; }
env -u LD_LIBRARY_PATH "$work/root/usr/bin/trainsize" >/dev/null ||
  { echo "deb_check: the unpacked trainsize's example job fails"; exit 1; }
echo "deb_check: $(basename "$deb"): $(wc -l <"$work/contents") entries, unpacked and run; 1 passed, 0 failed"
