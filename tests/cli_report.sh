#!/bin/sh
# The human report, read by someone who sizes servers: the server the user gave is echoed
# with the job's need beside it and a verdict; without one, the recommendation and why;
# network lines print the need and the link's capacity apart; a TPU job speaks of chips
# and hosts; the help's words. Usage: sh cli_report.sh TRAINSIZE DATA_DIR
# shellcheck source=data/cli/lib.sh
. "$2/cli/lib.sh"

# line KEY: the report line that starts with "  KEY" (and its continuation lines), joined.
line() {
    awk -v k="  $1" '
        found && /^                        / { sub(/^ +/, " "); printf "%s", $0; next }
        found { exit }
        index($0, k) == 1 { found = 1; printf "%s", $0 }
        END { print "" }' "$OUT"
}

# has KEY TEXT: the KEY line contains TEXT (a fixed string).
has() {
    got=$(line "$1")
    case $got in
        *"$2"*) pass ;;
        *) fail "'$1' line lacks '$2': $got" ;;
    esac
}

# lacks KEY TEXT: the KEY line does not contain TEXT.
lacks() {
    got=$(line "$1")
    case $got in
        *"$2"*) fail "'$1' line has '$2': $got" ;;
        *) pass ;;
    esac
}

# The command by an absolute path, for runs from another folder.
TS_ABS=$(cd "$(dirname "$TS")" && pwd)/$(basename "$TS")

A100="--model llama-2-7b --gpu a100-80gb --gpus 8 --zero 3"

# ---- the buyer's own server: echoed, with the need and a verdict ----
# shellcheck disable=SC2086  # word splitting wanted
expect_ok $A100 --host-ram 512GiB --cpu-cores 16
out_width
has "host RAM per server" "512.00 GiB, as given"
has "host RAM per server" "the job needs 172.55 GiB: enough"
lacks "host RAM per server" "1.50 TiB (the job needs"
has "host RAM per server" "below the 2 x GPU memory rule"
has "CPU cores per server" "16, as given; the job needs 72: short by 56"
# shellcheck disable=SC2086
expect_ok $A100 --host-ram 128GiB
has "host RAM per server" "128.00 GiB, as given; the job needs 172.55 GiB: short by 44.55 GiB"
# shellcheck disable=SC2086
expect_ok $A100 --host-ram 2TiB --cpu-cores 128
has "host RAM per server" "2.00 TiB, as given; the job needs 172.55 GiB: enough"
lacks "host RAM per server" "rule"
has "CPU cores per server" "128, as given; the job needs 72: enough"

# Without them: the recommendation and why.
# shellcheck disable=SC2086
expect_ok $A100
has "host RAM per server" "1.50 TiB recommended: 2 x the server's 640.00 GiB of GPU memory"
has "host RAM per server" "the job needs 172.55 GiB"
has "CPU cores per server" "72 needed"
# A job whose own need is above the rule: the need is the reason.
expect_ok --model llama-2-7b --gpu rtx-4090 --gpus 2 --offload optimizer+params --zero 3
has "host RAM per server" "recommended: the job's need"

# A host sold with its RAM and cores (a TPU VM): that host, checked.
expect_ok --model gpt2 --gpu tpu-v5e --gpus 8
has "RAM per host" "384.00 GiB, the host as sold"
has "CPU cores per host" "224, the host as sold: enough"

# Storage given: echoed with its rates and a verdict; chosen: said so.
# shellcheck disable=SC2086
expect_ok $A100 --storage nfs
has "storage" "class nfs, as given"
has "storage" "enough"
expect_ok --model llama-2-7b --gpu a100-80gb --gpus 16 --gpus-per-node 8 --zero 3 --storage nvme-gen4
has "storage" "class nvme-gen4, as given"
has "storage" "short: a local drive serves one server"
# shellcheck disable=SC2086
expect_ok $A100
has "storage" "chosen: the slowest local NVMe that meets the read and checkpoint rates"
expect_ok --model llama-2-7b --gpu a100-80gb --gpus 16 --gpus-per-node 8 --zero 3
has "storage" "chosen: the first shared storage"
has "storage" "in every server as cache and scratch"
# the global batch and why
expect_ok --model llama-2-7b --gpu a100-80gb --gpus 16 --zero 3 --tokens 1e11
check "the Batch line says why that global batch" grep -q "samples: about 4M tokens per step" "$OUT"

# ---- links: the need and the capacity apart ----
expect_ok --model llama-2-7b --gpu a100-80gb --gpus 16 --network eth-10g
out_width
has "between servers" "needs 96.2 GB/s (769 Gbit/s) per server"
has "between servers" "link 8 x eth-10g = 10.0 GB/s (80.0 Gbit/s), as given: 9.6x short"
lacks "between servers" "link: 8 x eth-10g"
expect_ok --model llama-2-7b --gpu a100-80gb --gpus 16 --tp 8 --pp 2
has "between servers" "needs 678 MB/s (5.42 Gbit/s) per server; link 8 x eth-25g = 25.0 GB/s (200 Gbit/s), chosen"
has "between servers" "the slowest that keeps exposed communication under 10% of a step"
# Several servers and no data-parallel traffic: the link chosen is still named.
expect_ok --model llama-2-7b --gpu a100-80gb --gpus 16 --pp 16 --layers 32
has "between servers" "no data-parallel traffic"
has "between servers" "link 8 x eth-25g = 25.0 GB/s (200 Gbit/s), chosen"
# One server: a link given is said to be unused.
# shellcheck disable=SC2086
expect_ok $A100 --network ib-ndr
has "between servers" "none needed (one server; the ib-ndr given is not used)"

# ---- words: a TPU job speaks of chips and hosts ----
expect_ok --model llama-2-7b --gpu tpu-v5e --gpus 16 --zero 3 --tokens 1e9
out_width
check "TPU layout in hosts and chips" grep -q '^Layout  *2 hosts x 8 chips;' "$OUT"
check "TPU memory per chip" grep -q '^Memory per chip ' "$OUT"
check "TPU hosts line" grep -q '^  hosts  *2 x 8 chips$' "$OUT"
check "TPU: chip-hours" grep -q 'chip-hours' "$OUT"
# (The checklist's texts are the library's.)
check "TPU: no GPU in the report's words" sh -c "! sed '/^Warnings\$/,\$d' '$OUT' | grep -q GPU"
# A GPU job keeps its words.
# shellcheck disable=SC2086
expect_ok $A100
check "GPU layout in nodes and GPUs" grep -q '^Layout  *1 node x 8 GPUs;' "$OUT"

# ---- words: the help ----
expect_ok estimate --help
check "no default reads 'from the model or the other settings'" \
    sh -c "! grep -q 'other settings' '$OUT'"
for opt in network storage gpu-prices plan-gpus; do
    run estimate --help
    text=$(awk -v o="  --$opt " 'index($0, o) == 1 { f = 1; printf "%s", $0; next }
                                  f && /^                          / { printf "%s", $0; next }
                                  f { exit }' "$OUT")
    case $text in
        *"other settings"*) fail "--$opt: the default does not say what it is: $text" ;;
        *"default"*) pass ;;
        *) fail "--$opt has no default in the help: $text" ;;
    esac
done
# Every model type the reader takes (as its error lists them) is in --hf-config's help.
# (A short path: the library's message has 255 bytes.)
cp "$FIX/unknown-type.json" "$TMP/u.json"
(cd "$TMP" && "$TS_ABS" --hf-config u.json) >"$OUT" 2>"$ERR"
types=$(sed -n 's/.*(supported: \(.*\)).*/\1/p' "$ERR" | tr ',' ' ')
check "the reader lists its model types" [ -n "$types" ]
# the whole list, to its last type, fits the message beside a 17-character unknown name
check "the reader's list is whole" grep -q 'mllama)' "$ERR"
run estimate --help
hf=$(awk 'index($0, "  --hf-config ") == 1 { f = 1; printf "%s", $0; next }
          f && /^                          / { printf "%s", $0; next }
          f { exit }' "$OUT" | tr -s ' ')
# "deepseek_v2/_v3" in the reader's list is two types; "llama(4)", "qwen2(_moe)" and
# "gemma(2/3)" name a type and its siblings.
# shellcheck disable=SC2086  # one type a line
types=$(printf '%s\n' $types | awk '
    /\(/ { b = $0; sub(/\(.*/, "", b); print b; in_ = $0; sub(/.*\(/, "", in_); sub(/\).*/, "", in_)
            n = split(in_, p, "/"); for (i = 1; i <= n; i++) print b p[i]; next }
    /\// { b = $0; sub(/\/.*/, "", b); print b; s = b; sub(/_[^_]*$/, "", s); r = $0; sub(/.*\//, "", r); print s r; next }
    { print }')
for t in $types; do
    case "$hf " in
        *" $t "* | *" $t,"* | *" $t;"* | *" $t)"*) pass ;;
        *) fail "--hf-config's help lacks model type $t" ;;
    esac
done
# `trainsize version` (a slip for --version) names every command, help included.
expect_usage version
check "the unknown-command error names help" grep -q 'commands: [a-z, ]*help' "$ERR"
expect_usage help no-such-command
check "help's unknown-command error names help" grep -q 'commands: [a-z, ]*help' "$ERR"

# ---- the buying decision: facility, buy or rent, goodput, the largest that fits ----
# shellcheck disable=SC2086
expect_ok $A100 --tokens 1e10
out_width
has "largest that fits" "micro-batch 4, sequence 9,984"
has "racks" "1 rack, up to 7 servers a rack"
has "racks" "air cooling"
has "power supplies" "6 x 3.00 kW per server, 3+3 redundant"
has "fabric" "no scale-out switches"
has "cloud" "nothing up front"
has "owned" "up front (servers \$132,480"
has "break-even" "owning pays off after"
has "failures" "interruptions expected (0.000474 per GPU-day)"
has "wall time" "goodput"
has "total" "on a cluster that never fails"
expect_ok --model llama-3-70b --gpu gb200 --gpus 72 --tp 4 --zero 3
has "racks" "1 rack, up to 18 trays a rack (an NVL72 is sold as a rack)"
has "racks" "liquid cooling (an NVL72 rack is liquid-cooled)"
has "power supplies" "48 x 5.50 kW in the rack's power shelves"
check "liquid cooling in the checklist" grep -q "a rack needs liquid cooling" "$OUT"
expect_ok --model llama-2-7b --gpu h100-80gb --gpus 256 --zero 3
has "fabric" "12 switches of 64 ports in 2 tiers"
# shellcheck disable=SC2086
expect_ok $A100 --gpu-hour-usd 0.3
has "break-even" "never: renting costs less"
# shellcheck disable=SC2086
expect_ok $A100 --interruptions-per-gpu-day 0
has "failures" "none"
# The JSON carries them too, with largest-fit asked for.
# shellcheck disable=SC2086
expect_ok $A100 --largest-fit --json
out_has '"max_micro_batch": 5'
out_has '"max_seq": 10496'
out_has '"cooling": "air"'
out_has '"psu_redundancy": "3+3"'
out_has '"goodput": '

# ---- the model's name: _name_or_path, else its folder or file name ----
mkdir -p "$TMP/Qwen3-8B"
cp "$DATA/hf/Qwen3-8B.json" "$TMP/Qwen3-8B/config.json"
expect_ok --hf-config "$TMP/Qwen3-8B/config.json" --gpu h100-80gb --gpus 8 --zero 3
check "config.json named by its folder" grep -q 'what it takes to train Qwen3-8B$' "$OUT"
expect_ok --hf-config "$DATA/hf/gemma-2-9b.json" --gpu h100-80gb --gpus 8 --zero 3 --json
out_has '"name": "gemma-2-9b"'
expect_ok --hf-config "$DATA/hf/Llama-2-7b-hf.json" --gpu h100-80gb --gpus 8 --zero 3 --json
out_has '"name": "meta-llama/Llama-2-7b-hf"'
# A file of another name and no folder to go by keeps the model type.
cp "$DATA/hf/Qwen3-8B.json" "$TMP/hf-config"
(cd "$TMP" && "$TS_ABS" --hf-config hf-config --gpu h100-80gb --gpus 8 --json) >"$OUT" 2>"$ERR"
out_has '"name": "qwen3"'

finish || exit 1
