#!/bin/sh
# The manual page and the bash completion the command writes (and the build installs):
# every option of --help is in the page, the page renders without warnings, and the
# completion offers subcommands, options, choice values, presets and GPUs.
# Usage: sh cli_manpage.sh TRAINSIZE DATA_DIR
# shellcheck source=data/cli/lib.sh
. "$2/cli/lib.sh"

expect_ok help --man
cp "$OUT" "$TMP/trainsize.1"
check "the page starts with its title" grep -q '^\.TH TRAINSIZE 1 ' "$TMP/trainsize.1"
for section in NAME SYNOPSIS DESCRIPTION ESTIMATE PLAN MODELS GPUS CALIBRATE 'EXIT STATUS'; do
    check "the page has its $section section" grep -q "^\.SH $section\$" "$TMP/trainsize.1"
done
# every job option of `estimate --help`, as the page writes it (\-\-NAME)
run estimate --help
sed -n 's/^  --\([a-z0-9-]*\).*/\1/p' "$OUT" | sort -u >"$TMP/options"
check "estimate --help lists options" [ "$(lines_of "$TMP/options")" -gt 100 ]
missing=0
while read -r name; do
    roff=$(printf '%s' "$name" | sed 's/-/\\\\-/g')
    case "$name" in model | json | help) continue ;; esac
    grep -q "^\.B \\\\-\\\\-$roff\( \|\$\)" "$TMP/trainsize.1" || { missing=1; describe "not in the page: --$name"; }
done <"$TMP/options"
check "every job option of --help is in the page" [ "$missing" = 0 ]
if command -v nroff >/dev/null 2>&1; then
    nroff -man -ww "$TMP/trainsize.1" >"$TMP/page.txt" 2>"$TMP/page.err"
    check "the page renders" [ -s "$TMP/page.txt" ]
    check "the page renders without warnings" [ ! -s "$TMP/page.err" ]
    check "the rendered page shows an option" grep -q -- '--precision' "$TMP/page.txt"
else
    fail "nroff (groff-base) is not installed"
fi

expect_ok help --bash-completion
cp "$OUT" "$TMP/completion.bash"
if command -v bash >/dev/null 2>&1; then
    complete_words() { # WORD... (the last one being completed): prints the candidates
        bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _trainsize; printf "%s\n" "${COMPREPLY[@]}"' \
            sh "$TMP/completion.bash" "$@"
    }
    complete_words trainsize pl >"$TMP/c"
    check "completion: a subcommand" grep -qx plan "$TMP/c"
    complete_words trainsize --preci >"$TMP/c"
    check "completion: an option" grep -qx -- --precision "$TMP/c"
    complete_words trainsize --precision bf >"$TMP/c"
    check "completion: a choice's values" grep -qx bf16-mixed "$TMP/c"
    complete_words trainsize --model llava >"$TMP/c"
    check "completion: a preset" grep -qx llava-1.5-7b "$TMP/c"
    complete_words trainsize --gpu h100 >"$TMP/c"
    check "completion: a GPU" grep -qx h100-80gb "$TMP/c"
    complete_words trainsize plan --deadl >"$TMP/c"
    check "completion: a plan option" grep -qx -- --deadline-days "$TMP/c"
    complete_words trainsize --freeze-vision "" >"$TMP/c"
    check "completion: a flag's values" grep -qx false "$TMP/c"
    complete_words trainsize help "" >"$TMP/c"
    check "completion: help's commands" grep -qx estimate "$TMP/c"
else
    fail "bash is not installed"
fi

finish || exit 1
