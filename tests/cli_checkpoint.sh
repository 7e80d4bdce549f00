#!/bin/sh
# --hf-model and --safetensors: a model found in a Hugging Face cache laid out as
# huggingface_hub writes it, counted from its safetensors headers; the headers win where
# the config under-describes the model; an unknown id, a revision not in the cache and a
# corrupt header are each one line with exit status 2.
# Usage: sh cli_checkpoint.sh TRAINSIZE DATA_DIR
# shellcheck source=data/cli/lib.sh
. "$2/cli/lib.sh"

if ! have_python; then
    echo "SKIP: python3 writes the checkpoints"
    finish
    exit $?
fi

COMMIT=0123456789abcdef0123456789abcdef01234567
HUB=$TMP/hub
SNAP=$HUB/models--org--tiny/snapshots/$COMMIT
mkdir -p "$HUB/models--org--tiny/refs" "$SNAP" "$TMP/outside"
printf '%s' "$COMMIT" >"$HUB/models--org--tiny/refs/main"

# A tiny Llama (hidden 64, ffn 128, 2 layers, 4 heads, 2 kv heads, vocab 256) as
# LlamaForCausalLM names its tensors, and a value head its config does not describe
# (64 parameters); sparse data, headers only.
python3 - "$SNAP" "$TMP/outside" <<'EOF'
import json, os, struct, sys
config = {"model_type": "llama", "hidden_size": 64, "intermediate_size": 128, "num_hidden_layers": 2,
          "num_attention_heads": 4, "num_key_value_heads": 2, "vocab_size": 256,
          "max_position_embeddings": 2048, "rms_norm_eps": 1e-5, "tie_word_embeddings": False}
shapes = {"model.embed_tokens.weight": [256, 64], "model.norm.weight": [64], "lm_head.weight": [256, 64],
          "v_head.summary.weight": [1, 64]}
for l in range(2):
    for name, shape in (("self_attn.q_proj", [64, 64]), ("self_attn.k_proj", [32, 64]),
                        ("self_attn.v_proj", [32, 64]), ("self_attn.o_proj", [64, 64]),
                        ("mlp.gate_proj", [128, 64]), ("mlp.up_proj", [128, 64]), ("mlp.down_proj", [64, 128]),
                        ("input_layernorm", [64]), ("post_attention_layernorm", [64])):
        shapes["model.layers.%d.%s.weight" % (l, name)] = shape
header, off = {}, 0
for name, shape in shapes.items():
    n = 1
    for d in shape:
        n *= d
    header[name] = {"dtype": "BF16", "shape": shape, "data_offsets": [off, off + 2 * n]}
    off += 2 * n
text = json.dumps(header).encode()
for folder in sys.argv[1:]:
    with open(os.path.join(folder, "config.json"), "w") as f:
        json.dump(config, f)
    with open(os.path.join(folder, "model.safetensors"), "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text)
        f.truncate(8 + len(text) + off)
EOF

export HF_HUB_CACHE="$HUB"
G="--gpu a100-80gb"

# Found through refs/main, named by its id, the value head counted beyond the shape.
expect_ok --hf-model org/tiny $G
out_has "org/tiny"
out_has "64 beyond the shape (extra-params"
out_has "not in the shape: v_head.summary 64"
run --hf-model org/tiny $G --json
check "JSON: model.extra_parameters is the value head's 64, extra_tensors names it" \
    python3 -c 'import json,sys; m=json.load(open(sys.argv[1]))["model"]; sys.exit(not (m["extra_parameters"] == 64 and m["extra_tensors"] == "v_head.summary 64" and m["name"] == "org/tiny"))' "$OUT"
# A commit id as the revision; the same with HF_HOME (its hub folder) instead.
expect_ok --hf-model org/tiny --revision "$COMMIT" $G
mkdir -p "$TMP/home" && ln -s "$HUB" "$TMP/home/hub"
(unset HF_HUB_CACHE; HF_HOME="$TMP/home" "$TS" --hf-model org/tiny $G >"$OUT" 2>"$ERR")
rc=$?
if [ "$rc" -eq 0 ] && grep -q -F "org/tiny" "$OUT"; then pass; else fail "HF_HOME/hub is searched"; fi

# Outside the cache: the folder's config.json, named by the folder.
expect_ok --safetensors "$TMP/outside" $G
out_has "outside"
out_has "64 beyond the shape"

# A file without a model: the model must be given, or the folder.
expect_usage --safetensors "$TMP/outside/model.safetensors" $G
err_mentions "give its model"

# Exclusive and dependent options.
expect_usage --hf-model org/tiny --model llama-2-7b
expect_usage --hf-model org/tiny --safetensors "$TMP/outside"
expect_usage --revision main --model llama-2-7b
err_mentions revision

# An id or a revision not in the cache: one line naming it and where it looked.
expect_usage --hf-model org/absent $G
err_mentions "org/absent"
err_mentions "models--org--absent"
expect_usage --hf-model org/tiny --revision v9 $G
err_mentions "v9"
expect_usage --hf-model ../../etc $G
err_mentions "hf-model"

# Headers that hold fewer parameters than a preset's shape: said on stderr, the shape's
# count kept, the estimate made.
run --model llama-2-7b --safetensors "$SNAP/model.safetensors" $G
if [ "$rc" -eq 0 ] && grep -q "fewer than its shape" "$ERR" && [ "$(lines_of "$ERR")" -eq 1 ]; then pass
else fail "fewer parameters: one note, exit 0"; fi
# The note is said with the answer only: a failure after the load stays one line, its error.
run --model llama-2-7b --safetensors "$SNAP/model.safetensors" $G --micro-batch 0
if [ "$rc" -eq 2 ] && ! grep -q "fewer than its shape" "$ERR" && [ "$(lines_of "$ERR")" -eq 1 ] &&
   grep -q "micro-batch" "$ERR"; then pass
else fail "fewer parameters, then invalid input: the error alone, exit 2"; fi

# Corrupt headers: a length past the end, a header that is not JSON, a shard listed but
# missing; each one line naming safetensors and the file, exit status 2.
printf '\377\377\377\377\000\000\000\000{}' >"$SNAP/model.safetensors"
expect_usage --hf-model org/tiny $G
err_mentions "safetensors"
err_mentions "model.safetensors"
printf '\003\000\000\000\000\000\000\000{x]' >"$SNAP/model.safetensors"
expect_usage --hf-model org/tiny $G
err_mentions "not a JSON object"
rm "$SNAP/model.safetensors"
printf '{"weight_map": {"a": "model-00001-of-00002.safetensors"}}' >"$SNAP/model.safetensors.index.json"
expect_usage --hf-model org/tiny $G
err_mentions "model-00001-of-00002.safetensors"

finish
