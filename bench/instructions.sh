#!/bin/sh
# Instructions per estimate, counted exactly by callgrind inside trainsize_estimate, for
# each of bench_estimate's jobs. Usage: bench/instructions.sh PATH/TO/bench_estimate
# (needs valgrind). The count is what the CPU would retire, whatever its clock or load.
set -eu
bench=${1:?usage: instructions.sh PATH/TO/bench_estimate}
command -v valgrind >/dev/null || { echo "instructions: valgrind is not installed"; exit 0; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
printf '%-48s %16s\n' "job" "instructions/est"
k=0
while line=$("$bench" --instructions "$k" 2>/dev/null); do
  name=${line%%	*}
  runs=${line##*	}
  valgrind --tool=callgrind --toggle-collect=trainsize_estimate \
    --callgrind-out-file="$out/cg.$k" "$bench" --instructions "$k" >/dev/null 2>&1
  total=$(sed -n 's/^totals: *\([0-9]*\).*/\1/p; s/^summary: *\([0-9]*\).*/\1/p' "$out/cg.$k" | tail -n 1)
  printf '%-48s %16d\n' "$name" $((total / runs))
  k=$((k + 1))
done
