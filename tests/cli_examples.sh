#!/bin/sh
# The example programs (examples/configurator.c, admission.c, setups.c): exit statuses and
# the key lines. They are built next to the trainsize command (or, when the command is the
# valgrind wrapper in the tests' build directory, in ../examples).
# Usage: sh cli_examples.sh TRAINSIZE DATA_DIR
# shellcheck source=data/cli/lib.sh
. "$2/cli/lib.sh"

DIR=$(dirname "$1")
if [ ! -x "$DIR/configurator" ] && [ -x "$DIR/../examples/configurator" ]; then
    DIR=$DIR/../examples
fi

# ex PROGRAM ARGS...: run an example; stdout in $OUT, stderr in $ERR, status in $rc.
ex() {
    prog=$1
    shift
    "$DIR/$prog" "$@" >"$OUT" 2>"$ERR"
    rc=$?
}

# want STATUS DESCRIPTION: the last run exited with STATUS.
want() {
    if [ "$rc" -eq "$1" ]; then pass; else fail "$2: exit status $rc, want $1"; fi
}

for prog in configurator admission setups; do
    check "$prog is built" test -x "$DIR/$prog"
done

# ---- configurator: three builds, each checked against the estimate ----
ex configurator llama-2-7b 1e11 30
want 0 "configurator llama-2-7b 1e11 30"
check "configurator: three builds" test "$(grep -c '^#[0-9]' "$OUT")" = 3
check "configurator: every build checked" test "$(grep -c 'checked .*same\|checked .*planner' "$OUT")" = 3
out_has 'per server'
out_has 'host RAM'
out_has 'CPU cores'
out_has 'storage'
out_has 'network'
out_has 'cost'
ex configurator llama-2-70b 2e12 0.001
want 0 "configurator with an impossible deadline"
out_has 'Nothing fits'
ex configurator no-such-model 1e9
want 2 "configurator with an unknown model"
check "configurator: the error names the model" grep -q 'model' "$ERR"
ex configurator gpt2
want 2 "configurator without tokens"

# ---- admission: admit 0, reject 1, invalid input 2 ----
NODE="--node-gpu a100-80gb --node-gpus 8 --node-ram-gib 1024"
# shellcheck disable=SC2086
ex admission $NODE model=llama-2-7b zero=3 micro-batch=2
want 0 "admission: Llama-2-7B ZeRO-3 on 8 x A100-80GB"
check "admission: one ADMIT line" grep -q -x 'ADMIT: peak [0-9.]* GiB of 79.15 GiB per GPU' "$OUT"
# shellcheck disable=SC2086
ex admission $NODE model=llama-2-70b
want 1 "admission: Llama-2-70B without sharding"
check "admission: rejects what does not fit" grep -q '^REJECT: does not fit' "$OUT"
ex admission --node-gpu a100-80gb --node-gpus 8 --node-ram-gib 64 model=llama-2-7b zero=3
want 1 "admission: 64 GiB of host RAM"
check "admission: rejects host-ram-short" grep -q '^REJECT: host-ram-short' "$OUT"
# shellcheck disable=SC2086
ex admission $NODE --node-cores 4 model=llama-2-7b zero=3
want 1 "admission: 4 CPU cores"
check "admission: rejects cpu-cores-short" grep -q '^REJECT: cpu-cores-short' "$OUT"
# shellcheck disable=SC2086
ex admission $NODE model=llama-2-7b gpus=16
want 1 "admission: more GPUs than the node"
# shellcheck disable=SC2086
ex admission $NODE model=no-such-model
want 2 "admission: unknown model"
check "admission: nothing on stdout on invalid input" test ! -s "$OUT"
# shellcheck disable=SC2086
ex admission $NODE model=llama-2-7b tp=3
want 2 "admission: a layout that does not divide"
# shellcheck disable=SC2086
ex admission $NODE model=llama-2-7b not-a-pair
want 2 "admission: not NAME=VALUE"
ex admission --node-gpu a100-80gb --node-gpus 8 model=llama-2-7b
want 2 "admission: no --node-ram-gib"
ex admission --node-gpu no-such-gpu --node-gpus 8 --node-ram-gib 1024 model=gpt2
want 2 "admission: unknown node GPU"

# ---- setups: three setups, each job on one row ----
ex setups
want 0 "setups"
out_has '(a) small research'
out_has '(b) mid-size company'
out_has '(c) large cluster'
check "setups: GPT-2 fits the research setup" grep -q 'GPT-2 full fine-tune.* yes ' "$OUT"
check "setups: QLoRA fits the research setup" grep -q 'QLoRA nf4.* yes ' "$OUT"
check "setups: Llama-2-7B full does not fit two consumer GPUs" \
    grep -q 'Llama-2-7B full, 2 GPUs.* NO ' "$OUT"
check "setups: Llama-2-70B does not fit 8 x A100-40GB" grep -q 'Llama-2-70B full, 8 x A100.* NO ' "$OUT"
check "setups: the planner placed Llama-3-70B" grep -q 'planner: [0-9]* GPUs' "$OUT"
out_width

finish
