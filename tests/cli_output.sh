#!/bin/sh
# The trainsize command when standard output cannot be written: exit status 1 and a
# message on stderr, never a crash or a silent success. Also checks that errors leave
# stdout empty when it is a pipe. Usage: sh cli_output.sh TRAINSIZE DATA_DIR
# shellcheck source=data/cli/lib.sh
. "$2/cli/lib.sh"

# expect_write_failure DESCRIPTION ARGS...: with stdout already closed.
expect_write_failure() {
    desc=$1
    shift
    "$TS" "$@" >&- 2>"$ERR"
    rc=$?
    : >"$OUT"
    if [ "$rc" -ne 1 ]; then
        fail "$desc: exit status $rc with stdout closed, want 1"
    elif ! grep -q '^trainsize: .*standard output' "$ERR"; then
        fail "$desc: no message about standard output"
    else
        pass
    fi
}

for args in "" "--json" "models" "gpus --json" "--help" "estimate --help" "--version"; do
    # shellcheck disable=SC2086  # word splitting wanted
    expect_write_failure "trainsize $args" $args
done

# A full disk (Linux /dev/full).
if [ -w /dev/full ]; then
    for args in "" "--json" "gpus" "models --json"; do
        # shellcheck disable=SC2086
        "$TS" $args >/dev/full 2>"$ERR"
        rc=$?
        if [ "$rc" -eq 1 ] && grep -q '^trainsize: ' "$ERR"; then
            pass
        else
            fail "trainsize $args >/dev/full: exit status $rc, want 1 with a message"
        fi
    done
fi

# Through a pipe, an error still writes nothing on stdout.
bytes=$("$TS" --model llama-2-7b --tp abc --json 2>/dev/null | wc -c | tr -d ' ')
check "an error writes nothing into a pipe" [ "$bytes" = 0 ]
bytes=$("$TS" --json 2>/dev/null | wc -c | tr -d ' ')
check "--json writes into a pipe" [ "$bytes" -gt 0 ]

# An output that fits in a pipe's buffer arrives in one piece and the command succeeds.
"$TS" --json >"$OUT" 2>"$ERR"
rc=$?
check "--json exit status 0" [ "$rc" -eq 0 ]
check "--json output ends with a newline" [ "$(tail -c 1 "$OUT" | od -An -c | tr -d ' ')" = '\n' ]

finish || exit 1
