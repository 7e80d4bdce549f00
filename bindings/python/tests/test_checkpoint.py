"""hf_model=, revision=, safetensors= and checkpoint(): a model found in a Hugging Face cache
laid out as huggingface_hub writes it, counted from its safetensors headers, as the command's
--hf-model, --revision and --safetensors do (tests/cli_checkpoint.sh builds the same cache).

Run from the repository root:
    LIBTRAINSIZE=build/libtrainsize.so TRAINSIZE_EXE=build/programs/trainsize \
        python3 -m pytest -q bindings/python/tests
"""

import json
import os
import shutil
import struct
import subprocess
import tempfile

import pytest

import trainsize

EXE = os.environ["TRAINSIZE_EXE"]
Status = trainsize.Status
COMMIT = "0123456789abcdef0123456789abcdef01234567"
OTHER_COMMIT = "89abcdef0123456789abcdef0123456789abcdef"
GPU = "a100-80gb"

# A tiny Llama (hidden 64, ffn 128, 2 layers, 4 heads, 2 kv heads, vocab 256) as
# LlamaForCausalLM names its tensors.
CONFIG = {"model_type": "llama", "hidden_size": 64, "intermediate_size": 128, "num_hidden_layers": 2,
          "num_attention_heads": 4, "num_key_value_heads": 2, "vocab_size": 256,
          "max_position_embeddings": 2048, "rms_norm_eps": 1e-5, "tie_word_embeddings": False}


def llama_shapes(head):
    """The tiny Llama's tensors, and a value head of ``head`` parameters its config does not
    describe."""
    shapes = {"model.embed_tokens.weight": [256, 64], "model.norm.weight": [64],
              "lm_head.weight": [256, 64], "v_head.summary.weight": [1, head]}
    for layer in range(2):
        for name, shape in (("self_attn.q_proj", [64, 64]), ("self_attn.k_proj", [32, 64]),
                            ("self_attn.v_proj", [32, 64]), ("self_attn.o_proj", [64, 64]),
                            ("mlp.gate_proj", [128, 64]), ("mlp.up_proj", [128, 64]),
                            ("mlp.down_proj", [64, 128]), ("input_layernorm", [64]),
                            ("post_attention_layernorm", [64])):
            shapes["model.layers.%d.%s.weight" % (layer, name)] = shape
    return shapes


def elements(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def write_checkpoint(folder, head=64):
    """config.json and model.safetensors (BF16, the data sparse: headers only) in
    ``folder``; the parameters the header lists."""
    os.makedirs(folder, exist_ok=True)
    header, off = {}, 0
    for name, shape in llama_shapes(head).items():
        header[name] = {"dtype": "BF16", "shape": shape, "data_offsets": [off, off + 2 * elements(shape)]}
        off += 2 * elements(shape)
    text = json.dumps(header).encode()
    with open(os.path.join(folder, "config.json"), "w") as f:
        json.dump(CONFIG, f)
    with open(os.path.join(folder, "model.safetensors"), "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text)
        f.truncate(8 + len(text) + off)
    return off // 2


class Cache:
    """A Hugging Face cache under HF_HOME (``home``/hub) holding org/tiny at COMMIT
    (refs/main) and OTHER_COMMIT (refs/v2, a 128-parameter value head), and the same
    checkpoint in a folder outside it."""

    def __init__(self, root):
        self.home = os.path.join(root, "home")
        self.hub = os.path.join(self.home, "hub")
        repo = os.path.join(self.hub, "models--org--tiny")
        self.snapshot = os.path.join(repo, "snapshots", COMMIT)
        self.parameters = write_checkpoint(self.snapshot)
        write_checkpoint(os.path.join(repo, "snapshots", OTHER_COMMIT), head=128)
        os.makedirs(os.path.join(repo, "refs"))
        for ref, commit in (("main", COMMIT), ("v2", OTHER_COMMIT)):
            with open(os.path.join(repo, "refs", ref), "w") as f:
                f.write(commit)
        self.outside = os.path.join(root, "outside")
        write_checkpoint(self.outside)


@pytest.fixture
def cache(monkeypatch):
    # A short folder: the library's one-line messages shorten a long path, which could cut
    # the file names the tests look for.
    root = tempfile.mkdtemp(prefix="ts-")
    try:
        c = Cache(root)
        monkeypatch.setenv("HF_HUB_CACHE", c.hub)
        yield c
    finally:
        shutil.rmtree(root)


def cli_json(*args):
    """The command's JSON (its environment is this process's: HF_HUB_CACHE included)."""
    proc = subprocess.run([EXE, *args, "--json"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def refused(call, code, field, keyword, *mentions):
    with pytest.raises(trainsize.TrainsizeError) as e:
        call()
    err = e.value
    assert (err.code, err.field, err.keyword) == (code, field, keyword), repr(err)
    for text in mentions:
        assert text in err.message, err.message
    return err


# ---- the cache -------------------------------------------------------------------------

def test_hf_model_is_found_through_refs_main_and_named_by_its_id(cache):
    r = trainsize.estimate(hf_model="org/tiny", gpu=GPU)
    model = r.to_dict()["model"]
    assert model["name"] == "org/tiny"
    assert model["parameters"] == cache.parameters  # the headers' count, exactly


def test_headers_win_where_they_hold_more_than_the_config(cache):
    # The value head (1 x 64) is beyond what config.json describes: extra_params.
    r = trainsize.estimate(hf_model="org/tiny", gpu=GPU)
    assert r.to_dict()["model"]["extra_parameters"] == 64
    assert "64 beyond the shape" in r.report()
    # which tensors: the value head, not the final norm of as many (it sits beside the layers)
    assert r.to_dict()["model"]["extra_tensors"] == "v_head.summary 64"
    assert "not in the shape: v_head.summary 64" in r.report()
    # Without the checkpoint the config alone describes 64 fewer.
    config_only = trainsize.estimate(hf_config=os.path.join(cache.snapshot, "config.json"), gpu=GPU)
    assert config_only.to_dict()["model"]["parameters"] == cache.parameters - 64


def test_revision_as_a_branch_and_as_a_commit_id(cache):
    assert trainsize.estimate(hf_model="org/tiny", revision="v2", gpu=GPU) \
        .to_dict()["model"]["extra_parameters"] == 128
    assert trainsize.estimate(hf_model="org/tiny", revision=OTHER_COMMIT, gpu=GPU) \
        .to_dict()["model"]["extra_parameters"] == 128
    assert trainsize.estimate(hf_model="org/tiny", revision="main", gpu=GPU) \
        .to_dict()["model"]["extra_parameters"] == 64


def test_hf_home_hub_is_searched_when_hf_hub_cache_is_unset(cache, monkeypatch):
    monkeypatch.delenv("HF_HUB_CACHE")
    monkeypatch.delenv("HUGGINGFACE_HUB_CACHE", raising=False)
    monkeypatch.setenv("HF_HOME", cache.home)
    assert trainsize.estimate(hf_model="org/tiny", gpu=GPU).to_dict()["model"]["name"] == "org/tiny"


def test_no_cache_to_search(monkeypatch):
    for name in ("HF_HUB_CACHE", "HUGGINGFACE_HUB_CACHE", "HF_HOME", "XDG_CACHE_HOME", "HOME"):
        monkeypatch.delenv(name, raising=False)
    refused(lambda: trainsize.estimate(hf_model="org/tiny"), Status.E_UNKNOWN, "hf-model", "hf_model",
            "no Hugging Face cache", "HF_HUB_CACHE")


def test_the_cache_is_read_again_on_each_call(cache):
    # A job built from hf_model is never kept: the cache may change between calls.
    assert trainsize.estimate(hf_model="org/tiny", gpu=GPU).to_dict()["model"]["extra_parameters"] == 64
    with open(os.path.join(cache.hub, "models--org--tiny", "refs", "main"), "w") as f:
        f.write(OTHER_COMMIT)
    assert trainsize.estimate(hf_model="org/tiny", gpu=GPU).to_dict()["model"]["extra_parameters"] == 128
    assert trainsize.estimate(**{"hf-model": "org/tiny", "gpu": GPU}).to_dict()["model"][
        "extra_parameters"] == 128


# ---- the same as the command -------------------------------------------------------------

@pytest.mark.parametrize("kwargs,args", [
    (dict(hf_model="org/tiny", gpu=GPU), ["--hf-model", "org/tiny", "--gpu", GPU]),
    (dict(hf_model="org/tiny", revision="v2", gpu=GPU, gpus=2, zero=3),
     ["--hf-model", "org/tiny", "--revision", "v2", "--gpu", GPU, "--gpus", "2", "--zero", "3"]),
    # Shape keywords apply after the checkpoint, wherever they stand.
    (dict(layers=4, hf_model="org/tiny", gpu=GPU), ["--layers", "4", "--hf-model", "org/tiny", "--gpu", GPU]),
    (dict(safetensors="{outside}", gpu=GPU), ["--safetensors", "{outside}", "--gpu", GPU]),
    (dict(hf_config="{outside}/config.json", safetensors="{outside}/model.safetensors", gpu=GPU),
     ["--hf-config", "{outside}/config.json", "--safetensors", "{outside}/model.safetensors", "--gpu", GPU]),
], ids=["hf-model", "revision", "shape-override", "safetensors-folder", "hf-config-and-file"])
def test_estimate_equals_the_command(cache, kwargs, args):
    kwargs = {k: v.format(outside=cache.outside) if isinstance(v, str) else v for k, v in kwargs.items()}
    args = [a.format(outside=cache.outside) for a in args]
    r = trainsize.estimate(**kwargs)
    expected = cli_json("estimate", *args)
    assert r.to_dict() == expected
    assert json.loads(r.to_json()) == expected


def test_plan_equals_the_command(cache):
    p = trainsize.plan(top=3, hf_model="org/tiny", tokens=1e9, gpu="a100-80gb", max_gpus=8)
    assert p.candidates
    assert p.to_dict() == cli_json("plan", "--top", "3", "--hf-model", "org/tiny", "--tokens", "1e9",
                                   "--gpu", "a100-80gb", "--max-gpus", "8")


def test_fewer_parameters_than_the_shape_warn_and_keep_the_shape(cache):
    # A preset's shape against the tiny checkpoint: the shape's count stays, as the command's.
    kwargs = dict(model="llama-2-7b", safetensors=os.path.join(cache.snapshot, "model.safetensors"), gpu=GPU)
    with pytest.warns(UserWarning, match="fewer than its shape describes"):
        r = trainsize.estimate(**kwargs)
    model = r.to_dict()["model"]
    assert model["extra_parameters"] == 0
    assert model["parameters"] == trainsize.estimate(model="llama-2-7b", gpu=GPU).model.parameters
    assert r.to_dict() == cli_json("estimate", "--model", "llama-2-7b", "--safetensors",
                                   kwargs["safetensors"], "--gpu", GPU)


# ---- errors ----------------------------------------------------------------------------

def test_unknown_id_or_revision_names_it_and_the_folder_searched(cache):
    refused(lambda: trainsize.estimate(hf_model="org/absent"), Status.E_UNKNOWN, "hf-model", "hf_model",
            "org/absent", "models--org--absent")
    refused(lambda: trainsize.estimate(hf_model="org/tiny", revision="v9"), Status.E_UNKNOWN, "revision",
            "revision", '"v9"')
    refused(lambda: trainsize.estimate(hf_model="org/tiny", revision="../x"), Status.E_INVALID, "revision",
            "revision", "not a revision name")
    refused(lambda: trainsize.estimate(hf_model="../../etc"), Status.E_INVALID, "hf-model", "hf_model",
            "not a Hub id")
    refused(lambda: trainsize.estimate(hf_model=7), Status.E_INVALID, "hf-model", "hf_model", "expected a str")
    refused(lambda: trainsize.estimate(hf_model="org/tiny", revision=b"main"), Status.E_INVALID, "revision",
            "revision", "expected a str")


def test_corrupt_headers_name_safetensors_and_the_file(cache):
    st = os.path.join(cache.snapshot, "model.safetensors")
    with open(st, "wb") as f:  # a header length past the file's end
        f.write(b"\xff\xff\xff\xff\x00\x00\x00\x00{}")
    refused(lambda: trainsize.estimate(hf_model="org/tiny"), Status.E_INVALID, "safetensors", "hf_model",
            "safetensors", "model.safetensors", "header length runs past the end")
    with open(st, "wb") as f:  # a header that is not JSON
        f.write(b"\x03\x00\x00\x00\x00\x00\x00\x00{x]")
    refused(lambda: trainsize.estimate(safetensors=cache.snapshot), Status.E_PARSE, "safetensors",
            "safetensors", "not a JSON object")
    os.remove(st)  # a shard listed but missing
    with open(os.path.join(cache.snapshot, "model.safetensors.index.json"), "w") as f:
        f.write('{"weight_map": {"a": "model-00001-of-00002.safetensors"}}')
    refused(lambda: trainsize.estimate(hf_model="org/tiny"), Status.E_IO, "safetensors", "hf_model",
            "model-00001-of-00002.safetensors")


@pytest.mark.parametrize("kwargs,field,keyword,says", [
    (dict(hf_model="org/tiny", model="llama-2-7b"), "hf-model", "hf_model", "exclude each other"),
    (dict(hf_model="org/tiny", hf_config={"model_type": "llama"}), "hf-model", "hf_model",
     "exclude each other"),
    (dict(hf_model="org/tiny", safetensors="x.safetensors"), "safetensors", "safetensors",
     "give one checkpoint"),
    (dict(model="llama-2-7b", revision="main"), "revision", "revision", "goes with hf_model"),
    (dict(model="llama-2-7b", **{"revision": "main", "hf-model": None}), "revision", "revision",
     "goes with hf_model"),
])
def test_exclusive_and_dependent_keywords(cache, kwargs, field, keyword, says):
    # Refused before anything is read, by estimate() and plan() alike.
    for call in (lambda: trainsize.estimate(**kwargs), lambda: trainsize.plan(tokens=1e9, **kwargs)):
        refused(call, Status.E_INVALID, field, keyword, says)


# ---- checkpoint() ----------------------------------------------------------------------

def test_checkpoint_counts_the_headers(cache):
    layers = cache.parameters - 2 * 256 * 64 - 64 - 64
    groups = [{"name": "model.layers.#", "parameters": layers, "tensors": 18, "layers": 2},
              {"name": "lm_head", "parameters": 256 * 64, "tensors": 1, "layers": 0},
              {"name": "model.embed_tokens", "parameters": 256 * 64, "tensors": 1, "layers": 0},
              {"name": "model.norm", "parameters": 64, "tensors": 1, "layers": 0},
              {"name": "v_head.summary", "parameters": 64, "tensors": 1, "layers": 0}]
    expected = {"parameters": cache.parameters, "bytes": 2 * cache.parameters,
                "tensors": len(llama_shapes(64)), "files": 1, "dtype": "BF16", "groups": groups}
    assert trainsize.checkpoint(cache.outside) == expected
    import pathlib
    assert trainsize.checkpoint(pathlib.Path(cache.outside) / "model.safetensors") == expected


def test_checkpoint_errors_carry_the_library_message(cache, tmp_path):
    refused(lambda: trainsize.checkpoint(str(tmp_path / "absent.safetensors")), Status.E_IO,
            "safetensors", "path", "absent.safetensors")
    bad = tmp_path / "bad.safetensors"
    bad.write_bytes(b"\x03\x00\x00\x00\x00\x00\x00\x00{x]")
    refused(lambda: trainsize.checkpoint(bad), Status.E_PARSE, "safetensors", "path", "bad.safetensors")
    refused(lambda: trainsize.checkpoint("a\0b"), Status.E_INVALID, "path", "path", "NUL")
    shutil.rmtree(cache.outside)
    refused(lambda: trainsize.checkpoint(cache.outside), Status.E_IO, "safetensors", "path")
