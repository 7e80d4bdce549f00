#!/bin/sh
# Every global symbol the static library defines carries the project's prefix: trainsize_
# for the API, ts_ for what is internal (docs/architecture.md, "Names"), so that a program
# linking libtrainsize.a statically cannot collide with an internal name.
# Usage: sh check_internal_names.sh LIBTRAINSIZE.a
set -eu
bad=$(nm -g --defined-only "$1" 2>/dev/null | awk 'NF == 3 { print $3 }' |
      grep -v -e '^trainsize_' -e '^ts_' -e '^__odr_asan' -e '^__asan' -e '^__ubsan' -e '^__tsan' \
              -e '^__sancov' -e '^__llvm' | sort -u || true)
if [ -n "$bad" ]; then
    echo "globals without the trainsize_ or ts_ prefix:"
    printf '%s\n' "$bad"
    echo "0 passed, 1 failed"
    exit 1
fi
echo "1 passed, 0 failed"
