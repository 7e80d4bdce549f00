#!/bin/sh
# The shared library exports exactly the symbols of tests/abi/exports.txt: a symbol added
# or lost is an ABI change that must be made on purpose (jansson's check-exports).
# Usage: sh check_exports.sh LIBTRAINSIZE.so EXPORTS.txt
set -eu
actual=$(nm -D --defined-only "$1" | awk '$2 == "T" { print $3 }' | sort)
expected=$(sort "$2")
if [ "$actual" != "$expected" ]; then
    echo "exported symbols differ from $2:"
    printf '%s\n' "$actual" > /tmp/trainsize-exports.$$
    printf '%s\n' "$expected" | diff - /tmp/trainsize-exports.$$ || true
    rm -f /tmp/trainsize-exports.$$
    echo "0 passed, 1 failed"
    exit 1
fi
echo "1 passed, 0 failed"
