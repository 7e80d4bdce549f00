#!/bin/sh
# The trainsize command's JSON: the shape of the contract (docs/cli.md), valid
# JSON, the catalogue listings, and options that must give the same job. Usage:
#   sh cli_json.sh TRAINSIZE DATA_DIR
# shellcheck source=data/cli/lib.sh
. "$2/cli/lib.sh"

# check_estimate_json FILE VERSION: the object of `estimate --json` has every key of the
# contract, with its type, "trainsize_version" first, no duplicate key, one object.
check_estimate_json() {
    python3 - "$1" "$2" <<'PY'
import json, sys

path, version = sys.argv[1], sys.argv[2]
text = open(path, encoding="utf-8").read()
problems = []

def no_duplicates(pairs):
    keys = [k for k, _ in pairs]
    for k in set(keys):
        if keys.count(k) > 1:
            problems.append("duplicate key %r" % k)
    return dict(pairs)

try:
    doc = json.loads(text, object_pairs_hook=no_duplicates)
except ValueError as e:
    print("invalid JSON: %s" % e)
    sys.exit(1)
if not text.endswith("}\n"):
    problems.append("does not end with '}' and a newline")
if not isinstance(doc, dict):
    print("not an object")
    sys.exit(1)
if list(doc)[:1] != ["trainsize_version"]:
    problems.append("first key is not trainsize_version")
if doc.get("trainsize_version") != version:
    problems.append("trainsize_version %r != --version %r" % (doc.get("trainsize_version"), version))

INT, NUM, BOOL, STR = "int", "number", "bool", "str"
want = {
    "model": {"name": STR, "parameters": INT, "trainable_parameters": INT,
              "active_parameters": INT},
    "memory": {"weights": INT, "gradients": INT, "optimizer": INT, "activations": INT,
               "peak_allocated": INT, "overhead": INT, "peak_total": INT,
               "gpu_capacity": INT, "fits": BOOL},
    "system": {"nodes": INT, "gpus_per_node": INT, "host_ram_per_node": INT,
               "cpu_cores_per_node": INT, "interconnect_rate_per_node": INT,
               "storage_capacity": INT, "storage_read_rate": INT, "power_watts": NUM},
    "time": {"flops": NUM, "seconds": NUM},
}

def kind_ok(v, kind):
    if kind == BOOL:
        return isinstance(v, bool)
    if kind == STR:
        return isinstance(v, str)
    if isinstance(v, bool):
        return False
    if kind == INT:
        return isinstance(v, int) and v >= 0
    return isinstance(v, (int, float))

for section, fields in want.items():
    obj = doc.get(section)
    if not isinstance(obj, dict):
        problems.append("no object %r" % section)
        continue
    for name, kind in fields.items():
        if name not in obj:
            problems.append("missing %s.%s" % (section, name))
        elif not kind_ok(obj[name], kind):
            problems.append("%s.%s is %r, want %s" % (section, name, obj[name], kind))
m = doc.get("memory", {})
if all(isinstance(m.get(k), int) for k in ("peak_allocated", "overhead", "peak_total")):
    if m["peak_total"] != m["peak_allocated"] + m["overhead"]:
        problems.append("memory.peak_total != peak_allocated + overhead")
if isinstance(m.get("fits"), bool) and isinstance(m.get("peak_total"), int):
    if m["fits"] != (m["peak_total"] <= m["gpu_capacity"]):
        problems.append("memory.fits disagrees with peak_total and gpu_capacity")
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
PY
}

# check_listing_json FILE KEY...: a JSON array of objects, each with the KEYs.
check_listing_json() {
    python3 - "$@" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1], encoding="utf-8"))
keys = sys.argv[2:]
ok = isinstance(doc, list) and len(doc) > 0
for item in doc if ok else []:
    if not isinstance(item, dict) or any(k not in item for k in keys):
        print("bad item: %r" % (item,))
        ok = False
        break
sys.exit(0 if ok else 1)
PY
}

# json_get FILE DOTTED.PATH: print one value of an estimate's JSON.
json_get() {
    python3 -c '
import json, sys
v = json.load(open(sys.argv[1]))
for k in sys.argv[2].split("."):
    v = v[k]
print(json.dumps(v))' "$1" "$2"
}

run --version
version=$(sed 's/^trainsize //' "$OUT")

# The JSON of several jobs, including the example job and a config file.
n=0
for args in "--json" \
            "estimate --json" \
            "--model llama-2-7b --gpu a100-80gb --gpus 8 --zero 3 --json" \
            "--json --model llama-2-7b --gpu h100-80gb --gpus 16 --tp 2 --pp 2 --sp" \
            "--model llama-2-7b --gpus 1 --json" \
            "--model llama-2-7b --gpus 8 --attention eager --recompute full --json" \
            "--hf-config $FIX/tiny-llama.json --gpus 1 --json"; do
    n=$((n + 1))
    # shellcheck disable=SC2086  # word splitting wanted
    expect_ok $args
    cp "$OUT" "$TMP/job$n.json"
    check "JSON starts with '{'" [ "$(head -c 1 "$OUT")" = "{" ]
    check "JSON has trainsize_version" grep -q '"trainsize_version"' "$OUT"
    check "JSON has peak_total" grep -q '"peak_total"' "$OUT"
    if have_python; then
        check "JSON of '$args' follows the contract" check_estimate_json "$OUT" "$version"
    fi
done

if have_python; then
    # The default job (no arguments) and `--json` alone describe the same job.
    check "--json alone is the example job" \
        [ "$(json_get "$TMP/job1.json" model.name)" = '"llama-2-7b"' ]
    # A config file gives its name.
    check "--hf-config gives the config's name" \
        [ "$(json_get "$TMP/job7.json" model.name)" = '"cli-test/tiny-llama"' ]

    # Option order does not matter: --model is applied before shape overrides.
    run --layers 4 --model llama-2-7b --gpus 1 --json
    cp "$OUT" "$TMP/a.json"
    run --model llama-2-7b --gpus 1 --layers 4 --json
    check "--layers before or after --model gives the same estimate" cmp -s "$OUT" "$TMP/a.json"
    run --model llama-2-7b --gpus 1 --json
    check "--layers overrides the preset" \
        [ "$(json_get "$OUT" model.parameters)" != "$(json_get "$TMP/a.json" model.parameters)" ]
    run --hf-config "$FIX/tiny-llama.json" --gpus 1 --layers 8 --json
    cp "$OUT" "$TMP/b.json"
    run --layers 8 --hf-config "$FIX/tiny-llama.json" --gpus 1 --json
    check "--layers on top of --hf-config, in any order" cmp -s "$OUT" "$TMP/b.json"
    check "--layers overrides the config" \
        [ "$(json_get "$OUT" model.parameters)" != "$(json_get "$TMP/job7.json" model.parameters)" ]

    # --NAME=VALUE is --NAME VALUE; a bare BOOL is true.
    run --model llama-2-7b --gpus 8 --tp 2 --json
    cp "$OUT" "$TMP/tp.json"
    run --model=llama-2-7b --gpus=8 --tp=2 --json
    check "--NAME=VALUE equals --NAME VALUE" cmp -s "$OUT" "$TMP/tp.json"
    run --model llama-2-7b --gpus 8 --tp 2 --sp --json
    cp "$OUT" "$TMP/sp.json"
    run --model llama-2-7b --gpus 8 --tp 2 --sp true --json
    check "--sp equals --sp true" cmp -s "$OUT" "$TMP/sp.json"
    run --model llama-2-7b --gpus 8 --tp 2 --sp=true --json
    check "--sp equals --sp=true" cmp -s "$OUT" "$TMP/sp.json"
    run --model llama-2-7b --gpus 8 --tp 2 --sp false --json
    check "--sp false equals no --sp" cmp -s "$OUT" "$TMP/tp.json"
    # The last of a repeated option wins.
    run --model llama-2-7b --gpus 8 --tp 4 --tp 2 --json
    check "the last --tp wins" cmp -s "$OUT" "$TMP/tp.json"
fi

# Fit advice: "advice" is an array, empty when the job fits; for a job that does not fit,
# every entry set with its options gives a job that fits with that peak.
if have_python; then
    check "advice is empty when the job fits" [ "$(json_get "$TMP/job3.json" advice)" = "[]" ]
    run --model llama-2-7b --gpu a100-80gb --json
    cp "$OUT" "$TMP/advice.json"
    check "a job that does not fit gets advice" \
        python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if not d["memory"]["fits"] and len(d["advice"]) >= 1 else 1)' "$TMP/advice.json"
    python3 -c '
import json, sys
for a in json.load(open(sys.argv[1]))["advice"]:
    print(" ".join("--%s %s" % kv for kv in a["set"].items()), a["peak_total"])' "$TMP/advice.json" > "$TMP/advice.txt"
    while read -r line; do
        peak=${line##* }
        opts=${line% *}
        # shellcheck disable=SC2086  # word splitting wanted
        run --model llama-2-7b --gpu a100-80gb $opts --json
        check "advice '$opts' applied fits" [ "$(json_get "$OUT" memory.fits)" = "true" ]
        check "advice '$opts' applied has its peak" [ "$(json_get "$OUT" memory.peak_total)" = "$peak" ]
    done < "$TMP/advice.txt"
fi

# The catalogue listings.
expect_ok models --json
if have_python; then
    check "models --json is an array of presets" \
        check_listing_json "$OUT" name family parameters active_parameters source
fi
expect_ok gpus --json
if have_python; then
    check "gpus --json is an array of GPUs" \
        check_listing_json "$OUT" name full_name memory_bytes memory_bandwidth flops_bf16 tdp_watts \
            vendor kind flops_fp16 flops_fp8 flops_fp4 datatypes scale_up_domain per_host \
            host_ram_bytes host_cores fp16 price_source price_date
    # Per-datatype figures as a buyer reads them: V100 takes no bf16 (its FP16 rate apart),
    # TPUs no fp16; the TPU VM is the host; prices carry their date.
    check "gpus --json gives datatypes, TPU hosts and price dates" python3 - "$OUT" <<'PY'
import json, sys
g = {r["name"]: r for r in json.load(open(sys.argv[1], encoding="utf-8"))}
v, t, h = g["v100-32gb"], g["tpu-v5p"], g["h100-80gb"]
ok = (v["flops_bf16"] == 0 and v["flops_fp16"] == 125e12 and "bf16" not in v["datatypes"]
      and t["kind"] == "tpu" and t["vendor"] == "Google" and "fp16" not in t["datatypes"]
      and t["flops_fp16"] == 0 and t["per_host"] == 4 and t["host_ram_bytes"] == 448 << 30
      and h["kind"] == "gpu" and h["datatypes"] == ["fp32", "bf16", "fp16", "fp8"]
      and h["price_date"] == "2026-11" and g["gb300"]["scale_up_domain"] == 72)
sys.exit(0 if ok else 1)
PY
fi

finish || exit 1
