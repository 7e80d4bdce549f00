#!/bin/sh
# trainsize capacity: the largest model each way of training fits, with the options that
# give that job in full (which estimate must fit with the same peak); its JSON; and bad
# input, one line with exit status 2.
# Usage: sh cli_capacity.sh TRAINSIZE DATA_DIR
# shellcheck source=data/cli/lib.sh
. "$2/cli/lib.sh"

expect_ok capacity
out_has "what 8 x h100-80gb can train (sequence 2048, micro-batch 1)"
out_has "qlora"
out_width
expect_ok capacity --gpu rtx-4090 --gpus 1 --seq 1024
out_has "what 1 x rtx-4090 can train (sequence 1024"

# Every entry's options, given to estimate, fit with the entry's peak.
if have_python; then
    run capacity --gpu a100-80gb --servers 2 --json
    cp "$OUT" "$TMP/capacity.json"
    check "capacity --json: 6 methods on 16 GPUs" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(not (d["gpus"] == 16 and [m["method"] for m in d["methods"]] ==
              ["pretraining", "full-fine-tuning", "lora", "qlora", "dpo", "grpo"]))' "$TMP/capacity.json"
    python3 -c '
import json, sys
for m in json.load(open(sys.argv[1]))["methods"]:
    if m["model"]:
        print(m["peak_total"], m["args"])' "$TMP/capacity.json" >"$TMP/entries"
    while read -r peak args; do
        # shellcheck disable=SC2086  # the options are words on purpose
        run estimate $args --json
        if [ "$rc" -eq 0 ] && python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))["memory"]
sys.exit(not (m["fits"] and m["peak_total"] == int(sys.argv[2])))' "$OUT" "$peak"; then pass
        else fail "estimate $args: not the capacity's fit"; fi
    done <"$TMP/entries"
fi

# Bad input.
expect_usage capacity --gpus 0
err_mentions gpus
expect_usage capacity --gpu no-such-gpu
expect_usage capacity --servers 0
err_mentions servers
expect_usage capacity --servers abc
expect_usage capacity --gpus 8 --servers 2
expect_usage capacity --seq
expect_usage capacity --bogus 1
err_mentions bogus
expect_usage capacity extra

# Its help, and the main help names it.
expect_ok capacity --help
out_has "Usage: trainsize capacity"
expect_ok help capacity
expect_ok --help
out_has "capacity [OPTIONS]"

finish
