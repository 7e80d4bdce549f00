#!/bin/sh
# shellcheck disable=SC2086  # $M is split into words on purpose
# The trainsize command on invalid input: exit status 2, exactly one line on stderr
# ("trainsize: ..." naming the option or field), nothing on stdout; never a crash.
# Usage: sh cli_errors.sh TRAINSIZE DATA_DIR
# shellcheck source=data/cli/lib.sh
. "$2/cli/lib.sh"

M="--model llama-2-7b --gpu a100-80gb"

# Options and commands the command does not know.
expect_usage --bogus
err_mentions bogus
expect_usage $M --bogus 1
expect_usage $M --bogus=1
expect_usage estimate --no-such-option
expect_usage -x
expect_usage --
expect_usage $M extra-argument
expect_usage no-such-command
err_mentions no-such-command
expect_usage $M --json=1
expect_usage $M --json --json=true

# A missing value.
expect_usage $M --tp
err_mentions tp
expect_usage $M --tp --json
err_mentions tp
expect_usage --model
expect_usage --hf-config
expect_usage $M --gpu

# Bad numbers and values: the library names the field.
expect_usage $M --tp abc
err_mentions tp
expect_usage $M --tp=abc
err_mentions tp
expect_usage $M --tp ''
expect_usage $M --tp=
expect_usage $M --tp -1
expect_usage $M --tp 1.5
expect_usage $M --gpus 0
err_mentions gpus
expect_usage $M --gpus 99999999999999999999999
err_mentions gpus
expect_usage $M --gpus 18446744073709551616
expect_usage $M --gpus 1e999
expect_usage $M --gpus nan
expect_usage $M --seq 0
expect_usage $M --dropout 2
expect_usage $M --dropout inf
expect_usage $M --zero 4
err_mentions zero
expect_usage $M --precision fp7
err_mentions precision
expect_usage $M --optimizer sgdd
expect_usage $M --sp maybe
expect_usage $M --sp=maybe
expect_usage $M --lora-targets q,x

# Unknown catalogue names.
expect_usage --model no-such-model
err_mentions model
expect_usage --model llama-2-7b --gpu no-such-gpu
err_mentions gpu

# A layout that does not divide.
expect_usage $M --gpus 8 --tp 3
expect_usage $M --gpus 8 --tp 16

# No model at all (job options given, so not the example job).
expect_usage --gpus 8
err_mentions model

# Hugging Face configs: unreadable, malformed, incomplete.
expect_usage --hf-config /nonexistent/config.json
err_mentions /nonexistent/config.json
expect_usage --hf-config "$FIX"
expect_usage --hf-config "$FIX/truncated.json"
expect_usage --hf-config "$FIX/empty.json"
expect_usage --hf-config "$FIX/not-an-object.json"
expect_usage --hf-config "$FIX/missing-key.json"
err_mentions num_hidden_layers
expect_usage --hf-config "$FIX/bad-value.json"
err_mentions hidden_size
expect_usage --hf-config "$FIX/unknown-type.json"
err_mentions not-a-transformer
expect_usage --hf-config "$FIX/tiny-llama.json" --model llama-2-7b
expect_usage --hf-config "$FIX/tiny-llama.json" --json --gpus 0

# The same with --json: still nothing on stdout.
expect_usage --json $M --tp abc
expect_usage --json --hf-config "$FIX/truncated.json"

# The catalogue commands and help.
expect_usage models --json --bogus
expect_usage gpus extra
expect_usage help bogus

# Text that could break the one-line rule, and very long arguments.
nl='
'
expect_usage "--bad${nl}option"
expect_usage $M --gpu "a${nl}b"
expect_usage $M --precision "bf16${nl}x"
long=$(awk 'BEGIN { s = ""; for (i = 0; i < 5000; i++) s = s "x"; print s }')
expect_usage "--$long"
expect_usage $M --gpu "$long"
expect_usage $M --tp "$long"
expect_usage --model "$long"
expect_usage --hf-config "/nonexistent/$long"

# Inputs that used to pass, or to fail with two lines or a result's name.
expect_usage --model llama-2-7b --gpu nosuch --gpu-file "$DATA/gpu/my-accelerator.json"
err_mentions gpu-file
sed 's/"name": "my-accelerator"/"name": "h100-80gb"/' "$DATA/gpu/my-accelerator.json" >"$TMP/h100.json"
expect_usage --model llama-2-7b --gpu-file "$TMP/h100.json"
err_mentions "catalogue GPU"
expect_usage --model gpt2 --seq 2048
err_mentions "learned positions"
expect_usage $M --gpus 8 --tp 8 --sp --seq 4097
err_mentions seq
expect_usage $M --micro-batch 1e9
err_mentions micro-batch

finish || exit 1
