#!/bin/sh
# The trainsize command: the built-in example job, --version, --help, the catalogue
# listings and the basics of `plan`. Usage: sh cli_basic.sh TRAINSIZE DATA_DIR
# shellcheck source=data/cli/lib.sh
. "$2/cli/lib.sh"

# No arguments: the built-in example job, as a human report.
expect_ok
out_has "llama-2-7b"
out_has "a100-80gb"
out_has "Memory per GPU"
out_has "peak total"
out_has "System"
out_has "Time"
out_width
check "the report says whether the job fits" grep -q -E '^(FITS|DOES NOT FIT):' "$OUT"
check "parameter counts use thousands separators" grep -q -E '[0-9],[0-9]{3},[0-9]{3}' "$OUT"
check "the report has bars" grep -q '|#' "$OUT"
cp "$OUT" "$TMP/default-report"

# `estimate` without job options is the same example job.
expect_ok estimate
check "'trainsize estimate' sizes the example job" cmp -s "$OUT" "$TMP/default-report"

# --version
expect_ok --version
check "--version prints 'trainsize X.Y.Z'" grep -q -E '^trainsize [0-9]+\.[0-9]+\.[0-9]+$' "$OUT"
check "--version prints one line" [ "$(lines_of "$OUT")" = 1 ]
expect_usage --version extra

# --help and COMMAND --help
for args in "--help" "-h" "help" "estimate --help" "estimate -h" "help estimate" \
            "models --help" "gpus --help" "plan --help" "help models" "help gpus" "help plan" \
            "--model llama-2-7b --bogus --help"; do
    # shellcheck disable=SC2086  # word splitting wanted
    expect_ok $args
    out_has "Usage: trainsize"
    out_width
done
expect_usage help no-such-command

# The estimate help lists the parameters of the contract, with defaults.
expect_ok estimate --help
for opt in --model --hf-config --layers --hidden --heads --kv-heads --head-dim --ffn --vocab \
           --experts --experts-per-token --seq --micro-batch --global-batch --tokens \
           --precision --optimizer --gpu --gpus --gpus-per-node --tp --pp --pp-interleave \
           --sp --cp --ep --zero --recompute --attention --dropout --offload --lora-rank \
           --lora-targets --quantize-base --json; do
    check "estimate --help lists $opt" grep -q -E -- "^  $opt( |\$)" "$OUT"
done
check "estimate --help gives defaults" grep -q 'default 2048' "$OUT"
check "estimate --help lists the precision choices" grep -q 'bf16-mixed' "$OUT"

# models
expect_ok models
out_has "llama-2-7b"
out_width
check "models lists several presets" [ "$(lines_of "$OUT")" -ge 4 ]
expect_usage models --bogus
expect_usage models extra

# gpus: every short form of the contract is listed or found.
expect_ok gpus
out_has "a100-80gb"
out_width
check "gpus lists several GPUs" [ "$(lines_of "$OUT")" -ge 10 ]
expect_usage gpus --bogus

# plan: needs a model and --tokens (tests/cli_plan.sh covers it in depth).
expect_usage plan
expect_usage plan --model llama-2-7b
expect_usage plan --json
expect_ok plan --model llama-2-7b --tokens 1e12 --gpu a100-80gb --max-gpus 64

# A warning longer than a line wraps, whole, under its bullet (it was cut at 90 characters).
expect_ok --model llama-2-7b --gpu rtx-4090 --gpus 8 --tp 2 --zero 3
check "a long warning keeps its last word" grep -q '^    per-layer collectives need NVLink-class links$' "$OUT"
check "report lines stay within 100 columns" [ "$(awk '{ if (length($0) > m) m = length($0) } END { print m }' "$OUT")" -le 100 ]

# Units on sizes and token counts, as the README shows them.
expect_ok --model llama-2-7b --gpu-memory 24GiB --tokens 1.5T --global-batch 1 --json
out_has '"gpu_capacity": 25769803776'
out_has '"tokens": 1500000000000'

finish || exit 1
