# Helpers shared by the tests/cli_*.sh scripts, which source this file. Not a test itself.
# The scripts run as: sh tests/cli_X.sh /path/to/trainsize /path/to/tests/data
# POSIX sh only (dash runs them).

if [ $# -lt 2 ] || [ ! -x "$1" ] || [ ! -d "$2" ]; then
    echo "usage: sh $0 /path/to/trainsize /path/to/tests/data" >&2
    exit 2
fi
TS=$1
DATA=$2
FIX=$DATA/cli
passed=0
failed=0
TMP=$(mktemp -d "${TMPDIR:-/tmp}/trainsize-cli.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
trap 'exit 1' HUP INT TERM
OUT=$TMP/out
ERR=$TMP/err
rc=0

# run ARGS...: run the command; stdout in $OUT, stderr in $ERR, exit status in $rc.
run() {
    "$TS" "$@" >"$OUT" 2>"$ERR"
    rc=$?
}

# describe ARGS...: the command line, quoted, for messages.
describe() {
    d="trainsize"
    for a in "$@"; do
        d="$d '$a'"
    done
    printf '%s' "$d"
}

pass() {
    passed=$((passed + 1))
}

# fail MESSAGE: count a failure and show what the command printed.
fail() {
    failed=$((failed + 1))
    printf 'FAIL: %s\n' "$1"
    printf '  exit status %s\n' "$rc"
    if [ -s "$OUT" ]; then head -n 5 "$OUT" | sed 's/^/  stdout: /'; fi
    if [ -s "$ERR" ]; then head -n 5 "$ERR" | sed 's/^/  stderr: /'; fi
}

# check DESCRIPTION COMMAND...: pass when COMMAND succeeds.
check() {
    desc=$1
    shift
    if "$@"; then pass; else fail "$desc"; fi
}

lines_of() {
    wc -l <"$1" | tr -d ' '
}

# expect_ok ARGS...: exit 0, something on stdout, nothing on stderr.
expect_ok() {
    run "$@"
    if [ "$rc" -ne 0 ]; then
        fail "$(describe "$@"): exit status $rc, want 0"
    elif [ ! -s "$OUT" ]; then
        fail "$(describe "$@"): nothing on stdout"
    elif [ -s "$ERR" ]; then
        fail "$(describe "$@"): unexpected output on stderr"
    else
        pass
    fi
}

# expect_error STATUS ARGS...: exit STATUS, nothing on stdout, exactly one line on stderr
# that starts with "trainsize: ".
expect_error() {
    want=$1
    shift
    run "$@"
    if [ "$rc" -ne "$want" ]; then
        fail "$(describe "$@"): exit status $rc, want $want"
    elif [ -s "$OUT" ]; then
        fail "$(describe "$@"): stdout not empty on error"
    elif [ "$(lines_of "$ERR")" != 1 ]; then
        fail "$(describe "$@"): want exactly one line on stderr, got $(lines_of "$ERR")"
    elif ! head -n 1 "$ERR" | grep -q '^trainsize: .'; then
        fail "$(describe "$@"): stderr line does not start with 'trainsize: '"
    else
        pass
    fi
}

# expect_usage ARGS...: invalid input (exit status 2).
expect_usage() {
    expect_error 2 "$@"
}

# err_mentions WORD: the last error line names WORD (an option or field).
err_mentions() {
    if grep -q -- "$1" "$ERR"; then pass; else fail "stderr does not mention '$1'"; fi
}

# out_has TEXT: stdout of the last run contains TEXT (a fixed string).
out_has() {
    if grep -q -F -- "$1" "$OUT"; then pass; else fail "stdout lacks '$1'"; fi
}

# out_width: no line of stdout is longer than 100 columns, and it is plain ASCII.
out_width() {
    long=$(awk 'length($0) > 100' "$OUT" | head -n 1)
    if [ -n "$long" ]; then
        fail "line longer than 100 columns: $long"
    elif LC_ALL=C grep -q '[^ -~]' "$OUT"; then
        fail "stdout is not printable ASCII"
    else
        pass
    fi
}

have_python() {
    command -v python3 >/dev/null 2>&1 && python3 -c 'import json' >/dev/null 2>&1
}

finish() {
    printf '%d passed, %d failed\n' "$passed" "$failed"
    [ "$failed" -eq 0 ]
}
