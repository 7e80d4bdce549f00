#!/bin/sh
# shellcheck disable=SC2086  # $M is split into words on purpose
# Hostile input for the command: malformed, truncated, huge and deeply nested JSON,
# non-UTF-8 bytes, numbers beyond 32 and 64 bits, NaN and infinity, zero and negative
# sizes, layouts that do not divide, unknown names. Each must exit 2 with one line on
# stderr and nothing on stdout, and never crash or hang.
# Usage: sh cli_hostile.sh TRAINSIZE DATA_DIR
# shellcheck source=data/cli/lib.sh
. "$2/cli/lib.sh"

M="--model llama-2-7b --gpu a100-80gb"
llama='"model_type": "llama", "num_hidden_layers": 2, "hidden_size": 64, "num_attention_heads": 4, "intermediate_size": 128, "vocab_size": 100'

config() { # config NAME TEXT: write a config.json fixture into $TMP
    printf '%s' "$2" >"$TMP/$1.json"
}

# Malformed and truncated JSON.
config unclosed "{$llama"
config trailing "{$llama} x"
config comma "{$llama,}"
config single-quotes "{'model_type': 'llama'}"
config bare-word "{$llama, \"tie_word_embeddings\": yes}"
config bad-escape "{\"model_type\": \"ll\\qama\"}"
config lone-surrogate "{\"model_type\": \"\\ud800\", $llama}"
for f in unclosed trailing comma single-quotes bare-word bad-escape lone-surrogate; do
    expect_usage --hf-config "$TMP/$f.json"
done

# Deeply nested (100,000 levels) and huge (over 1 MiB) documents.
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "["; for (i = 0; i < 100000; i++) printf "]" }' >"$TMP/deep.json"
expect_usage --hf-config "$TMP/deep.json"
awk 'BEGIN { printf "{\"model_type\": \"llama\", \"pad\": \""; for (i = 0; i < 1200000; i++) printf "x"; printf "\"}" }' >"$TMP/huge.json"
expect_usage --hf-config "$TMP/huge.json"
err_mentions hf-config

# Non-UTF-8 bytes and NUL inside the document.
printf '{"model_type": "ll\377ama"}' >"$TMP/latin.json"
expect_usage --hf-config "$TMP/latin.json"
printf '{"model_type": "llama"\000}' >"$TMP/nul.json"
expect_usage --hf-config "$TMP/nul.json"

# Numbers beyond 32 and 64 bits, NaN, infinity, zero, negative and fractional sizes.
for v in 4294967296 18446744073709551616 1e400 NaN Infinity -Infinity 0 -4096 64.5 '"64"' null true; do
    config num "{\"model_type\": \"llama\", \"num_hidden_layers\": 2, \"hidden_size\": $v, \"num_attention_heads\": 4, \"intermediate_size\": 128, \"vocab_size\": 100}"
    expect_usage --hf-config "$TMP/num.json"
done
err_mentions hidden_size

# Non-UTF-8 and control bytes on the command line.
expect_usage "$(printf '\055\055mod\377el')" llama-2-7b
expect_usage --model "$(printf 'llama\377')"
expect_usage $M --precision "$(printf 'bf16\001')"

# Command-line numbers beyond 32 and 64 bits, NaN, infinity, zero and negative.
for v in 2147483648 4294967297 18446744073709551615 18446744073709551616 -1 0 NaN inf -inf 0x10 1e-3 ' 8' '8 '; do
    expect_usage $M --gpus "$v"
done
for v in nan -0.5 1.0000001 1e309; do
    expect_usage $M --dropout "$v"
done

# A size under 1 MiB with a unit is no memory either; a subnormal is no setting; a GPU
# priced twice would lose a price.
expect_usage $M --gpu-memory 5B
expect_usage $M --host-ram 1KiB
expect_usage $M --cuda-context 5B
expect_usage $M --dropout 1e-320
expect_usage plan --model gpt2 --tokens 1e9 --deadline-days 1e-320
expect_usage $M --gpu-prices h100-80gb=2,H100_80GB=3
expect_usage $M --gpu-prices h100-80gb=1e-320

# Layouts that do not divide.
expect_usage $M --gpus 8 --tp 3               # GPUs by TP
expect_usage $M --gpus 12 --tp 4 --pp 2       # GPUs by TP x PP... 12 / 8
expect_usage $M --gpus 6 --tp 6               # heads (32) by TP
expect_usage $M --gpus 8 --pp 8 --pp-interleave 8  # 64 virtual stages for 32 layers + 2 slots
expect_usage --model mixtral-8x7b --gpus 6 --ep 3
expect_usage $M --gpus 8 --global-batch 12
expect_usage $M --gpus 16 --gpus-per-node 6

# Unknown names.
expect_usage --model llama-9-9b
expect_usage $M --gpu a100-81gb
expect_usage $M --optimizer adamw-4bit
expect_usage $M --lora-rank 8 --lora-targets q,lm_head

# The command's own messages (unknown commands and options, --top, --date, paths) and
# tables (the plan's GPU column, calibrate's run names) under text that is not one
# printable line: valid UTF-8 out, never a raw C1 control, line separator or
# bidirectional override, never half a character where a value is cut.
utf8_clean() { # utf8_clean WHAT BYTES...: $OUT and $ERR are valid UTF-8 without BYTES
    what=$1
    shift
    for f in "$OUT" "$ERR"; do
        if ! iconv -f UTF-8 -t UTF-8 "$f" >/dev/null 2>&1; then fail "$what: $f is not valid UTF-8"; return; fi
        for b in "$@"; do
            if LC_ALL=C grep -q -F -- "$b" "$f"; then fail "$what: a raw control in $f"; return; fi
        done
    done
    pass
}
C1=$(printf '\302\205')
LS=$(printf '\342\200\250')
RLO=$(printf '\342\200\256')
LONG=$(printf 'x%.0s' 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63)
E_ACUTE=$(printf '\303\251')
run "a${C1}b"; utf8_clean "unknown command with C1" "$C1"
run estimate --model gpt2 "--a${LS}b"; utf8_clean "unknown option with U+2028" "$LS"
run "a${RLO}b"; utf8_clean "unknown command with U+202E" "$RLO"
run "$(printf 'a\377b')"; utf8_clean "unknown command with 0xff"
run "${LONG}${E_ACUTE}"; utf8_clean "a command cut at 64 bytes"
run "--${LONG}${E_ACUTE}"; utf8_clean "an option cut at 64 bytes"
run plan --model gpt2 --tokens 1e9 --top "$(printf 'x%.0s' 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31)${E_ACUTE}"
utf8_clean "plan --top cut at 32 bytes"
run calibrate "$TMP/none${LS}.json"; utf8_clean "calibrate's path" "$LS"
run estimate --hf-config "$TMP/none$(printf '\377').json"; utf8_clean "--hf-config's path"
# a device file's GPU name of two-byte letters, cut to the plan table's 14 characters
sed 's/"name": *"[^"]*"/"name": "x\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9"/' \
    "$DATA/gpu/my-accelerator.json" >"$TMP/gpu-e.json"
run plan --gpu-file "$TMP/gpu-e.json" --model gpt2 --tokens 1e9
if [ "$rc" = 0 ]; then utf8_clean "the plan table's GPU column"; else fail "plan with a device file: exit $rc"; fi
# calibrate's table of runs, names of four-byte characters cut to 34
printf '{"runs": [{"name": "%s", "job": {"model": "gpt2"}, "measured": {"step_seconds": 0.2}}]}' \
    "$(printf '\360\237\230\200%.0s' 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23)" >"$TMP/runs-emoji.json"
run calibrate "$TMP/runs-emoji.json" --date 2026-12-07
if [ "$rc" = 0 ]; then utf8_clean "calibrate's table"; else fail "calibrate with emoji names: exit $rc"; fi

finish || exit 1
