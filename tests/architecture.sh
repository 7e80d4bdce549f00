#!/bin/sh
# docs/architecture.md's whiteboard, held to the sources: every #include "..." of a file
# is one its row allows, and the library files that allocate are exactly the ones the
# allocation table lists. Fails naming each difference.
# Usage: architecture.sh REPO_ROOT
root=${1:?usage: architecture.sh REPO_ROOT}
doc=$root/docs/architecture.md
cd "$root" || exit 2
fail=0
bad() { echo "architecture: $1" >&2; fail=1; }

# The include rows: the whiteboard's first table, "| `sources` | `allowed` ... |".
rows=$(awk '/^### The whiteboard/ {on = 1} on && /^\| `/ && /may include/ == 0 {print} /^The library allocates/ {exit}' "$doc")
[ -n "$rows" ] || bad "no whiteboard rows in $doc"

# Where the compiler finds "name" from a source in folder dir.
resolve() {
    for d in "$1" include lib; do
        [ -f "$d/$2" ] && { realpath -m --relative-to=. "$d/$2"; return; }
    done
    echo "(generated)/$2" # made by the build (cgo's _cgo_export.h)
}

# matches PATH 'glob glob ...': whether PATH matches one of the globs (patterns, not
# expanded against the files: a subshell with globbing off).
matches() (
    set -f
    p=$1
    for g in $2; do
        # shellcheck disable=SC2254
        case $p in $g) exit 0 ;; esac
    done
    exit 1
)

out=$(mktemp) # the loop runs in a pipe's subshell: its findings come back through a file
echo "$rows" | while IFS='|' read -r _ sources allowed _; do
    sources=$(echo "$sources" | tr -d '`')
    allowed=$(echo "$allowed" | tr -d '`')
    for f in $sources; do
        [ -f "$f" ] || continue
        dir=$(dirname "$f")
        grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" | while IFS= read -r line; do
            name=$(echo "$line" | sed 's/.*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/')
            path=$(resolve "$dir" "$name")
            matches "$path" "$allowed" || echo "architecture: $f:${line%%:*} includes $path, which its row ($allowed) does not allow" >&2
        done
    done
done 2>&1 | tee "$out" >&2
[ -s "$out" ] && fail=1
rm -f "$out"

# The allocators: the library files that call an allocator, against the table's.
listed=$(awk '/^\| library file \| what it allocates/ {on = 1; next} on && /^\|---/ {next} on && /^\| `/ {print} on && !/^\|/ {exit}' "$doc" |
         sed 's/^| `\([^`]*\)`.*/\1/' | sort)
found=$(grep -l -E '\b(malloc|calloc|realloc|strdup)[[:space:]]*\(' lib/*.c lib/cli/*.c | sort)
[ -n "$listed" ] || bad "no allocation table in $doc"
for f in $found; do echo "$listed" | grep -qx "$f" || bad "$f allocates but the allocation table does not list it"; done
for f in $listed; do echo "$found" | grep -qx "$f" || bad "$f is listed as allocating but calls no allocator"; done

# One way only: the library never names the program or a binding, a binding never names
# the program (code or comment: a path written there is a dependency waiting to happen).
for f in $(grep -l -E '(^|[^/[:alnum:]_])(programs|bindings)/' lib/*.[ch] lib/cli/*.[ch] include/*.h); do
    bad "$f names $(grep -n -o -E '(programs|bindings)/[[:alnum:]_./]*' "$f" | head -1), above the library"
done
# The command's layer sits on top: no other file of the library includes it.
for f in $(grep -l -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*"(cli/)?cli\.h"' lib/*.[ch]); do
    bad "$f includes the command's cli.h: the command is above the rest of the library"
done
for f in $(grep -l -E '(^|[^/[:alnum:]_])programs/' $(find bindings -type f \( -name '*.c' -o -name '*.h' -o -name '*.js' -o -name '*.py' -o -name '*.rs' -o -name '*.go' -o -name '*.txt' \) -not -path '*/tests/*' | sort)); do
    bad "$f names $(grep -n -o -E 'programs/[[:alnum:]_./]*' "$f" | head -1): a binding uses the library, not the program"
done

# The library never prints, exits or aborts: the command inside it writes through its
# caller's writers only (a printf format attribute is no call).
for f in lib/*.[ch] lib/cli/*.[ch]; do
    hit=$(grep -n -E '\b(stdout|stderr|stdin|exit|_Exit|abort|printf|puts|fputs|fputc|putchar|fwrite|perror)\b[[:space:]]*[(;,)]' "$f" |
          grep -v 'format(printf' | head -1)
    [ -z "$hit" ] || bad "$f prints, exits or aborts: line $hit"
done

n=$(echo "$rows" | wc -l)
[ $fail -eq 0 ] && echo "architecture: $n include rows and $(echo "$found" | wc -l) allocating files as the whiteboard says"
exit $fail
