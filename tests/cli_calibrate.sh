#!/bin/sh
# `trainsize calibrate RUNS.json`: the calibration on stdout (which --calibration takes),
# the fit run by run on stderr, and bad input refused in one line naming the run and key.
# Usage: sh cli_calibrate.sh TRAINSIZE DATA_DIR
# shellcheck source=data/cli/lib.sh
. "$2/cli/lib.sh"

cat >"$TMP/runs.json" <<'RUNS'
{"runs": [
  {"name": "8b on 8", "job": {"model": "llama-3-8b", "gpu": "h100-80gb", "gpus": 8, "zero": 3, "seq": 4096},
   "measured": {"step_seconds": 0.7, "peak_reserved_bytes": 60e9}},
  {"name": "8b on 4, full recompute", "job": {"model": "llama-3-8b", "gpu": "h100-80gb", "gpus": 4, "zero": 3,
   "seq": 4096, "recompute": "full"}, "measured": {"step_seconds": 0.9}},
  {"name": "8b on 8, micro-batch 2", "job": {"model": "llama-3-8b", "gpu": "h100-80gb", "gpus": 8, "zero": 3,
   "seq": 2048, "micro-batch": 2}, "measured": {"tokens_per_s_per_gpu": 9500}}
]}
RUNS

"$TS" calibrate "$TMP/runs.json" --date 2026-12-01 >"$OUT" 2>"$ERR"
rc=$?
check "calibrate: exit 0" [ "$rc" -eq 0 ]
check "calibrate: the calibration on stdout" grep -q '"trainsize_calibration": 1' "$OUT"
check "calibrate: its date" grep -q '"date": "2026-12-01"' "$OUT"
check "calibrate: the fit on stderr, run by run" grep -q '^  8b on 4, full recompute ' "$ERR"
check "calibrate: the median errors" grep -q '^step time, median error: .* before, .* after, .* with each run left out$' "$ERR"
check "calibrate: what it fitted" grep -q '^fitted: gemm-share ' "$ERR"
check "calibrate: what it left out" grep -q '^not fitted .*network-efficiency' "$ERR"
cp "$OUT" "$TMP/site.json"

# The file applies: the report says so, the JSON too, and a job on another GPU is warned.
expect_ok estimate --calibration "$TMP/site.json" --model llama-3-8b --gpu h100-80gb --gpus 8 --zero 3 --seq 4096
# (the Conventions line wraps: compared with its lines joined)
check "the report names the calibration" sh -c "tr '\n' ' ' <'$OUT' | tr -s ' ' | grep -q 'site calibration: 3 runs on h100-80gb, 2026-12-01'"
expect_ok estimate --json --calibration "$TMP/site.json" --model llama-3-8b --gpu a100-80gb --gpus 8 --zero 3
out_has '"calibration": "3 runs on h100-80gb, 2026-12-01"'
out_has '"calibration-other-gpu"'
expect_ok plan --json --calibration "$TMP/site.json" --model gpt2 --tokens 1e9 --gpu h100-80gb --top 2
# The default date is today's.
"$TS" calibrate "$TMP/runs.json" >"$OUT" 2>/dev/null
check "calibrate: today's date by default" grep -q "\"date\": \"$(date -u +%Y-%m-%d)\"" "$OUT"

# Bad input: one line, naming the run and the key; nothing on stdout.
printf '{"runs": [{"name": "x", "job": {"model": "gpt2", "microbatch": 2}, "measured": {"step_seconds": 1}}]}' \
    >"$TMP/bad.json"
expect_error 2 calibrate "$TMP/bad.json"
err_mentions 'runs\[0\] ("x"): job: unknown parameter'
printf '[{"job": {"model": "llama-2-70b", "gpu": "a100-80gb"}, "measured": {"step_seconds": 9}}]' >"$TMP/bad.json"
expect_error 2 calibrate "$TMP/bad.json"
err_mentions 'does not fit its GPU'
printf '[{"job": {"model": "gpt2"}, "measured": {"step_seconds": 1e999}}]' >"$TMP/bad.json"
expect_error 2 calibrate "$TMP/bad.json"
err_mentions 'measured: step_seconds'
printf '{"runs": [' >"$TMP/bad.json"
expect_error 2 calibrate "$TMP/bad.json"
expect_error 2 calibrate "$TMP/missing.json"
err_mentions 'cannot open'
# not a regular file: refused at once, never waited on
mkfifo "$TMP/fifo.json"
expect_error 2 calibrate "$TMP/fifo.json"
err_mentions 'not a regular file'
expect_error 2 calibrate
expect_error 2 calibrate "$TMP/runs.json" --date 1/12/2026
err_mentions -- '--date'
expect_error 2 calibrate "$TMP/runs.json" --bogus
# A calibration that is not one: refused by estimate, naming it.
printf '{"trainsize_calibration": 1, "library_version": "0.0.1", "runs": 1, "gpus": ["x"], "settings": {}}' \
    >"$TMP/old.json"
expect_error 2 estimate --calibration "$TMP/old.json"
err_mentions 'library_version'
expect_ok calibrate --help
out_has "Usage: trainsize calibrate RUNS.json"

finish || exit 1
