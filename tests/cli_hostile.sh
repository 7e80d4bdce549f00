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

finish || exit 1
