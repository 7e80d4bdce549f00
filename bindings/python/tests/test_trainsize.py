"""Tests of the Python binding against the built library and the trainsize command.

Run from the repository root:
    LIBTRAINSIZE=build/libtrainsize.so TRAINSIZE_EXE=build/programs/trainsize \
        python3 -m pytest -q bindings/python/tests
"""

import ctypes
import json
import math
import os
import pickle
import re
import shutil
import subprocess
import sys
import threading

import pytest

import trainsize
from trainsize import _ffi, _lib, _structs

EXE = os.environ["TRAINSIZE_EXE"]
LIB = os.environ["LIBTRAINSIZE"]
HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE_ROOT = os.path.dirname(HERE)
REPO = os.path.dirname(os.path.dirname(PACKAGE_ROOT))
HF = os.path.join(REPO, "tests", "data", "hf")
GPU_FILE = os.path.join(REPO, "tests", "data", "gpu", "my-accelerator.json")


# ---- helpers ---------------------------------------------------------------------------

def option_text(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    return str(value)


def cli_args(kwargs):
    """The command line that matches estimate()/plan() keywords."""
    args = []
    for key, value in kwargs.items():
        args += ["--" + key.replace("_", "-"), option_text(value)]
    return args


def run_cli(*args, check=True):
    proc = subprocess.run([EXE, *args], capture_output=True, text=True, timeout=120)
    if check:
        assert proc.returncode == 0, proc.stderr
    return proc


def cli_json(*args):
    return json.loads(run_cli(*args).stdout)


def cli_error_line(*args):
    proc = run_cli(*args, check=False)
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    assert proc.stdout == ""
    line = proc.stderr.strip()
    assert line.startswith("trainsize: ")
    return line[len("trainsize: "):]


def same_json(a, b):
    """Equal as parsed JSON, and with the keys in the same order at every level."""
    assert a == b
    if isinstance(a, dict):
        assert list(a) == list(b)
        for k in a:
            same_json(a[k], b[k])
    elif isinstance(a, list):
        for x, y in zip(a, b):
            same_json(x, y)


# ---- the spec's example calls ----------------------------------------------------------

SPEC_JOB = dict(model="llama-2-7b", gpu="a100-80gb", gpus=8, zero=3, micro_batch=1, seq=4096,
                precision="bf16-mixed")


def test_spec_estimate_example():
    r = trainsize.estimate(**SPEC_JOB)
    assert isinstance(r, trainsize.Estimate)
    assert isinstance(r.memory.peak_total, int) and r.memory.peak_total > 0
    assert r.memory.peak_total == r.memory.peak_allocated + r.memory.overhead
    assert r.memory.fits is True
    assert r.model.name == "llama-2-7b"
    assert r.layout.gpus == 8 and r.layout.gpu == "a100-80gb"
    assert isinstance(r.time.seconds, float)
    assert isinstance(r.warnings, list)
    same_json(r.to_dict(), cli_json("estimate", "--json", *cli_args(SPEC_JOB)))


def test_spec_plan_example():
    p = trainsize.plan(model="llama-2-70b", tokens=2e12, deadline_days=30)
    assert isinstance(p, trainsize.Plan)
    assert p.evaluated > 0 and p.candidates
    c = p.candidates[0]
    assert isinstance(c, trainsize.Candidate) and isinstance(c.gpu, str) and c.gpu
    assert c.seconds <= 30 * 86400
    same_json(p.to_dict(), cli_json("plan", "--json", "--model", "llama-2-70b",
                                     "--tokens", "2e12", "--deadline-days", "30"))


def test_version_matches_command():
    out = run_cli("--version").stdout.split()
    assert out == ["trainsize", trainsize.version()]
    assert re.fullmatch(r"\d+\.\d+\.\d+", trainsize.version())
    assert trainsize.abi_version() == trainsize.EXPECTED_ABI == 2


def test_package_version_is_the_library_version():
    with open(os.path.join(PACKAGE_ROOT, "pyproject.toml"), encoding="utf-8") as f:
        m = re.search(r'^version\s*=\s*"([^"]+)"', f.read(), re.M)
    assert m and m.group(1) == trainsize.version()


# ---- estimate() equals `trainsize estimate --json` --------------------------------------

CONFIGS = [
    dict(model="gpt2"),
    dict(model="llama-2-70b", gpu="h100-80gb", gpus=64, tp=8, pp=2, sp=True,
         recompute="selective", micro_batch=2, global_batch=1024, tokens=2e12),
    dict(model="mixtral-8x7b", gpu="h100-80gb", gpus=16, ep=8, zero=1, seq=4096,
         tokens=1_000_000_000),
    dict(model="llama-3-8b", gpu="rtx-4090", lora_rank=16, lora_targets=["q", "k", "v", "o"],
         quantize_base="nf4", micro_batch=4),
    dict(model="gpt2-xl", precision="fp32", optimizer="sgd-momentum", attention="eager",
         dropout=0.1, offload="optimizer", zero=3, gpus=4),
    dict(model="llama-2-13b", gpu="a100-40gb", gpus=16, gpus_per_node=4, pp=4,
         pp_interleave=2, micro_batch=1, global_batch=64, recompute="full", tokens=3e11,
         network="ib-hdr", storage="nfs"),
    dict(model="gemma-2b", layers=12, hidden=1536, seq=8192, cp=2, gpus=2,
         precision="fp8-mixed", gpu="h100-80gb"),
    dict(hf_config=os.path.join(HF, "Mistral-7B-v0.1.json"), layers=8, gpus=2),
    dict(model="qwen2.5-7b", gpu_file=GPU_FILE, gpus=8, zero=2, tokens=1e10),
    # The largest micro-batch and sequence that fit (memory.max_micro_batch, max_seq).
    dict(model="llama-2-7b", gpu="a100-80gb", gpus=8, zero=3, seq=2048, tokens=1e10,
         largest_fit=True),
    # DPO with its frozen reference model (memory.reference_weights, layout.method).
    dict(model="llama-3-8b", gpu="h100-80gb", gpus=8, zero=3, seq=2048, method="dpo"),
    # PPO: its critic and a colocated rollout engine (memory.critic_state, time.rollout_seconds).
    dict(model="qwen2.5-7b", gpu="h100-80gb", gpus=8, zero=3, seq=1024, method="ppo"),
    # PPO with its critic and a reward model on GPUs of their own (memory.critic_gpu_peak,
    # system.reward_nodes, time.critic_seconds).
    dict(model="qwen2.5-7b", gpu="h100-80gb", gpus=8, zero=3, seq=1024, method="ppo",
         critic_model="llama-3.2-1b", critic_gpus=8, reward_model="llama-3.2-1b", reward_gpus=8,
         tokens=1e8),
    # GRPO with its engines on GPUs of their own (system.rollout_nodes).
    dict(model="qwen2.5-7b", gpu="h100-80gb", gpus=8, zero=3, seq=1024, method="grpo",
         rollout="separate", rollout_gpus=8, rollout_tp=2, tokens=1e8),
    # Distillation from a frozen teacher (memory.teacher_weights).
    dict(model="llama-3.2-1b", gpus=8, zero=3, method="distill", teacher="llama-3-8b"),
    # A vision-language model with its tower trained (memory.vision_weights, activations_vision).
    dict(model="llava-1.5-7b", gpu="h100-80gb", gpus=8, zero=3, seq=2048, freeze_vision=False),
    dict(hf_config=os.path.join(HF, "Qwen2.5-VL-7B-Instruct.json"), gpus=8, zero=3, images=2,
         method="dpo"),
]


@pytest.mark.parametrize("kwargs", CONFIGS, ids=lambda k: k.get("model") or "hf-config")
def test_estimate_equals_cli_json(kwargs):
    r = trainsize.estimate(**kwargs)
    same_json(r.to_dict(), cli_json("estimate", "--json", *cli_args(kwargs)))


LARGEST_FIT_JOBS = [
    dict(model="llama-2-7b", gpu="a100-80gb", gpus=8, zero=3, seq=4096),
    dict(model="llama-2-13b", gpu="h100-80gb", gpus=16, tp=2, zero=1, global_batch=64,
         recompute="selective"),
]


@pytest.mark.parametrize("kwargs", LARGEST_FIT_JOBS, ids=lambda k: k["model"])
def test_largest_fit_agrees_with_the_estimate(kwargs):
    """largest_fit() is what estimate(largest_fit=True) reports; the micro-batch it gives
    fits and the next larger one does not."""
    found = trainsize.largest_fit(**kwargs)
    assert isinstance(found, trainsize.LargestFit)
    mb, seq = found
    assert (mb, seq) == (found.max_micro_batch, found.max_seq) and mb > 0 and seq > 0
    r = trainsize.estimate(largest_fit=True, **kwargs)
    assert (r.memory.max_micro_batch, r.memory.max_seq) == (mb, seq)
    assert trainsize.largest_fit(largest_fit=True, **kwargs) == found
    assert trainsize.estimate(**kwargs).memory.max_micro_batch == 0  # largest-fit false
    assert trainsize.estimate(**dict(kwargs, micro_batch=mb)).memory.fits
    nxt = mb + 1
    if "global_batch" in kwargs:  # then the next larger divides a rank's share
        share = kwargs["global_batch"] // r.layout.data_parallel
        nxt = min(d for d in range(mb + 1, share + 1) if share % d == 0)
    assert not trainsize.estimate(**dict(kwargs, micro_batch=nxt)).memory.fits
    assert trainsize.estimate(**dict(kwargs, seq=seq)).memory.fits
    assert found.to_dict() == {"max_micro_batch": mb, "max_seq": seq}
    assert pickle.loads(pickle.dumps(found)) == found


def test_vision_language_model():
    """The tower and projector are counted and held; a frozen tower is not trained."""
    r = trainsize.estimate(model="llava-1.5-7b", gpu="h100-80gb", gpus=8, zero=3)
    assert r.model.parameters == 7_063_427_072
    assert (r.model.vision_parameters, r.model.projector_parameters) == (303_507_456, 20_979_712)
    assert r.model.trainable_parameters == r.model.parameters - r.model.vision_parameters
    assert r.memory.vision_weights > 0 and r.memory.activations_vision == 0
    with pytest.raises(trainsize.TrainsizeError) as info:
        trainsize.estimate(model="llava-1.5-7b", seq=512)
    assert info.value.field == "images"


def test_largest_fit_of_a_job_that_never_fits_and_errors():
    assert tuple(trainsize.largest_fit(model="llama-2-70b", gpu="rtx-4090")) == (0, 0)
    with pytest.raises(trainsize.TrainsizeError) as info:
        trainsize.largest_fit(model="gpt2", tp=2, gpus=3)
    assert info.value.code == trainsize.Status.E_LAYOUT
    with pytest.raises(trainsize.TrainsizeError, match="did you mean"):
        trainsize.largest_fit(model="gpt2", micro_bach=2)


def test_example_job_and_example_script_equal_bare_command():
    expected = cli_json("--json")
    same_json(trainsize.estimate(**SPEC_JOB).to_dict(), expected)
    # the library's list of the example job is the spec's job, spelled as the command spells it
    assert trainsize.example_settings() == [(k.replace("_", "-"), str(v)) for k, v in SPEC_JOB.items()]
    env = dict(os.environ, PYTHONPATH=PACKAGE_ROOT)
    proc = subprocess.run([sys.executable, os.path.join(PACKAGE_ROOT, "example.py")],
                          capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 0, proc.stderr
    same_json(json.loads(proc.stdout), expected)


def test_hf_config_dict_and_bytes_equal_the_file():
    path = os.path.join(HF, "Mixtral-8x7B-v0.1.json")
    with open(path, "rb") as f:
        text = f.read()
    common = dict(gpus=8, ep=8, zero=3)
    from_file = trainsize.estimate(hf_config=path, **common).to_dict()
    import pathlib
    assert trainsize.estimate(hf_config=pathlib.Path(path), **common).to_dict() == from_file
    # Mixtral's config has no _name_or_path: read from a file the model is named after the
    # file ("Mixtral-8x7B-v0.1"), from text or a dict after its model_type; the rest is the
    # same.
    assert from_file["model"]["name"] == "Mixtral-8x7B-v0.1"
    for config in (text, json.loads(text)):
        from_text = trainsize.estimate(hf_config=config, **common).to_dict()
        assert from_text["model"]["name"] == "mixtral"
        from_text["model"]["name"] = from_file["model"]["name"]
        assert from_text == from_file
    same_json(from_file, cli_json("estimate", "--json", "--hf-config", path,
                                  *cli_args(common)))


def test_gpu_file_dict_equals_the_file():
    with open(GPU_FILE, encoding="utf-8") as f:
        device = json.load(f)
    a = trainsize.estimate(model="gpt2", gpu_file=GPU_FILE).to_dict()
    b = trainsize.estimate(model="gpt2", gpu_file=device).to_dict()
    assert a == b and a["layout"]["gpu"] == device["name"]


def test_model_first_then_the_other_keywords():
    # Shape keywords override the preset wherever they stand, as on the command line.
    a = trainsize.estimate(layers=6, model="gpt2").to_dict()
    b = trainsize.estimate(model="gpt2", layers=6).to_dict()
    assert a == b
    assert a["model"]["parameters"] < trainsize.estimate(model="gpt2").model.parameters


def test_value_conversions():
    base = trainsize.estimate(model="gpt2", tokens=2000000000000).to_dict()
    assert trainsize.estimate(model="gpt2", tokens=2e12).to_dict() == base
    assert trainsize.estimate(model="gpt2", tokens="2e12").to_dict() == base
    assert trainsize.estimate(model="gpt2", sp=True, tp=2, gpus=2).to_dict() == \
        trainsize.estimate(model="gpt2", sp="true", tp="2", gpus="2").to_dict()
    # None means "not given".
    assert trainsize.estimate(model="gpt2", tokens=2e12, zero=None).to_dict() == base
    # Lists and tuples are joined with commas.
    assert trainsize.estimate(model="gpt2", lora_rank=8, lora_targets=("q", "v")).to_dict() == \
        trainsize.estimate(model="gpt2", lora_rank=8, lora_targets="q,v").to_dict()


def test_sections_attribute_and_key_access():
    r = trainsize.estimate(model="gpt2")
    assert r.memory["peak_total"] == r.memory.peak_total
    assert r["memory"] is r.memory and r["trainsize_version"] == trainsize.version()
    assert "peak_total" in r.memory and "peak_total" in dir(r.memory)
    assert dict(r.memory) == r.memory.to_dict()
    with pytest.raises(AttributeError, match="no field 'nope'"):
        r.memory.nope
    with pytest.raises(AttributeError):
        r.memory.peak_total = 1
    with pytest.raises(AttributeError):
        r.nope
    assert r == trainsize.estimate(model="gpt2")


def test_result_fields_cover_the_json():
    r = trainsize.estimate(model="gpt2").to_dict()
    for f in trainsize.result_fields():
        node = r
        for key in f.path.split("."):
            node = node[key]
        assert f.type in ("u64", "f64", "bool", "string", "choice", "flags")
    leaves = []

    def walk(prefix, d):
        for k, v in d.items():
            if isinstance(v, dict):
                walk(prefix + k + ".", v)
            else:
                leaves.append(prefix + k)
    walk("", r)
    # every leaf is a result field, but for the advice (a list, empty when the job fits)
    assert sorted(leaves) == sorted(["trainsize_version", "advice"] +
                                    [f.path for f in trainsize.result_fields()])


def test_parameters_catalogue():
    params = {p.keyword: p for p in trainsize.parameters()}
    assert params["micro_batch"].name == "micro-batch" and params["micro_batch"].kind == "int"
    assert "bf16-mixed" in params["precision"].choices
    assert params["deadline_days"].kind == "float"
    # The planner's policy comes from the library: what plan() refuses, and why.
    assert "layout" in params["tp"].plan_refusal and params["seq"].plan_refusal is None
    with pytest.raises(trainsize.TrainsizeError, match="tp: not a keyword of plan"):
        trainsize.plan(model="gpt2", tokens=10**9, tp=2)
    # A job no layout can hold raises, as estimate() does, instead of an empty plan.
    with pytest.raises(trainsize.TrainsizeError, match="learned positions"):
        trainsize.plan(model="gpt2", seq=2048, tokens=10**9)


def test_warnings_are_names():
    r = trainsize.estimate(model="llama-2-70b", gpu="rtx-4090", gpus=1)
    assert r.memory.fits is False
    assert "does-not-fit" in r.warnings
    assert all(isinstance(w, str) and w for w in r.warnings)
    same_json(r.to_dict(), cli_json("estimate", "--json", "--model", "llama-2-70b",
                                    "--gpu", "rtx-4090", "--gpus", "1"))


def test_results_pickle_and_copy():
    import copy
    import pickle
    r = trainsize.estimate(model="gpt2")
    assert pickle.loads(pickle.dumps(r)) == r
    assert copy.deepcopy(r).to_dict() == r.to_dict()
    p = trainsize.plan(top=2, **PLAN_SMALL)
    assert pickle.loads(pickle.dumps(p)) == p


def test_concurrent_estimates():
    expected = trainsize.estimate(**SPEC_JOB).to_dict()
    results, errors = [], []

    def work():
        try:
            for _ in range(50):
                results.append(trainsize.estimate(**SPEC_JOB).to_dict() == expected)
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)
    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len(results) == 400 and all(results)


def test_kept_jobs_answer_as_new_ones(tmp_path):
    """Keywords seen before reuse their job: the answers equal a fresh job's (the command's
    JSON), across more keyword sets than a thread keeps, and values of other types or
    orders are other jobs."""
    jobs = [dict(model="gpt2", gpus=n, micro_batch=1 + n % 3) for n in (1, 2, 4, 8)] + \
        [dict(model="llama-2-7b", seq=256 * k) for k in range(1, 40)]
    first = [trainsize.estimate(**kw).to_dict() for kw in jobs]
    again = [trainsize.estimate(**kw).to_dict() for kw in reversed(jobs)][::-1]
    assert first == again
    for kw, d in list(zip(jobs, first))[:4]:
        same_json(d, cli_json("estimate", "--json", *cli_args(kw)))
    # 1, 1.0 and True are different text for the library: one is not the other's job.
    assert trainsize.estimate(model="gpt2", hfu=1).to_dict() == \
        trainsize.estimate(model="gpt2", hfu=1.0).to_dict()
    with pytest.raises(trainsize.TrainsizeError):
        trainsize.estimate(model="gpt2", gpus=True)
    assert trainsize.estimate(model="gpt2", gpus=1).memory.fits
    # Order matters as it does for the command: a shape keyword after model overrides it.
    assert trainsize.estimate(model="gpt2", layers=2).model.parameters < \
        trainsize.estimate(model="gpt2").model.parameters


def test_kept_jobs_go_with_their_thread():
    """A thread's kept jobs are freed when the thread ends, not kept for the process."""
    import gc
    import weakref
    refs = []

    def work():
        trainsize.estimate(model="gpt2", gpus=2)
        refs.append(weakref.ref(trainsize._PER_THREAD.jobs))
        assert trainsize._PER_THREAD.jobs.by_key
    t = threading.Thread(target=work)
    t.start()
    t.join()
    gc.collect()
    assert refs and refs[0]() is None
    assert trainsize._PER_THREAD.jobs is not None  # this thread's own are still there


def test_config_files_are_read_on_every_call(tmp_path):
    """A path names a file that may change between calls: it is never a kept job."""
    path = tmp_path / "config.json"
    with open(os.path.join(HF, "Mistral-7B-v0.1.json"), encoding="utf-8") as f:
        config = json.load(f)
    path.write_text(json.dumps(config), encoding="utf-8")
    before = trainsize.estimate(hf_config=str(path)).model.parameters
    config["num_hidden_layers"] = 2
    path.write_text(json.dumps(config), encoding="utf-8")
    assert trainsize.estimate(hf_config=str(path)).model.parameters < before


# ---- plan() equals `trainsize plan --json` ---------------------------------------------

PLAN_SMALL = dict(model="gpt2", gpu=["a100-40gb", "rtx-4090"], max_gpus=16, tokens=1e9)


def test_plan_equals_cli_json():
    p = trainsize.plan(**PLAN_SMALL)
    expected = cli_json("plan", "--json", *cli_args(PLAN_SMALL))
    same_json(p.to_dict(), expected)
    assert 0 < len(p.candidates) <= trainsize.PLAN_TOP_DEFAULT
    assert {c.gpu for c in p.candidates} <= {"a100-40gb", "rtx-4090"}
    assert trainsize.plan(gpu="a100-40gb,rtx-4090", model="gpt2", max_gpus=16,
                          tokens=1e9).to_dict() == p.to_dict()


def test_plan_top_and_objective():
    p = trainsize.plan(top=3, objective="time", **PLAN_SMALL)
    assert len(p.candidates) == 3 and p.objective == "time"
    same_json(p.to_dict(), cli_json("plan", "--json", "--top", "3", "--objective", "time",
                                    *cli_args(PLAN_SMALL)))


def test_plan_candidate_is_a_real_estimate():
    p = trainsize.plan(**PLAN_SMALL)
    job = {k: v for k, v in PLAN_SMALL.items() if k not in ("gpu", "max_gpus")}
    for c in p.candidates[:3]:
        r = trainsize.estimate(**job, **c.layout())
        assert r.memory.peak_total == c.peak_total
        assert r.time.wall_seconds == c.seconds  # the wall clock, interruptions included
        assert r.system.cost_cloud_usd == c.cost
        assert r.warnings == c.warnings
        assert r.system.nodes == c.nodes
        # The estimate says which layout it used: the candidate's.
        for key in ("tp", "pp", "pp_interleave", "ep", "zero", "micro_batch", "global_batch",
                    "recompute"):
            assert r.layout[key] == getattr(c, key), key


def test_plan_nothing_fits():
    p = trainsize.plan(model="llama-3.1-405b", gpu="rtx-4090", max_gpus=1, tokens=1e9)
    assert p.candidates == []
    same_json(p.to_dict(), cli_json("plan", "--json", "--model", "llama-3.1-405b", "--gpu",
                                    "rtx-4090", "--max-gpus", "1", "--tokens", "1e9"))


# ---- the search's pruning counts, progress and exhaustive -------------------------------

# Large enough that the floors prune configurations and skip GPU counts whole.
PLAN_PRUNED = dict(model="llama-3-8b", tokens=1e11, gpu=["h100-80gb", "a100-80gb"], max_gpus=64)
PRUNING = ("pruned_memory", "pruned_bound", "bounds", "counts_skipped")


def test_plan_pruning_counts_equal_cli_json():
    p = trainsize.plan(**PLAN_PRUNED)
    want = cli_json("plan", "--json", *cli_args(PLAN_PRUNED))
    same_json(p.to_dict(), want)  # the keys in the command's order too
    assert list(want)[list(want).index("least_overshoot") + 1:][:5] == [*PRUNING, "objective"]
    for key in PRUNING:
        assert getattr(p, key) == want[key], key
    # Read from the library, not left at their defaults: this search prunes.
    assert p.pruned_bound > 0 and p.bounds > 0 and p.counts_skipped > 0
    assert p.estimated + p.pruned_memory + p.pruned_bound <= p.evaluated


def test_plan_exhaustive_gives_the_same_candidates():
    pruned = trainsize.plan(**PLAN_PRUNED)
    full = trainsize.plan(exhaustive=True, **PLAN_PRUNED)
    assert full.candidates == pruned.candidates and full.candidates
    assert full.pruned_bound == 0 and full.counts_skipped == 0
    assert full.estimated > pruned.estimated
    same_json(full.to_dict(), cli_json("plan", "--json", "--exhaustive", "true",
                                       *cli_args(PLAN_PRUNED)))


def test_plan_progress_counts_up_to_total():
    calls = []
    p = trainsize.plan(progress=lambda *a: calls.append(a), **PLAN_PRUNED)
    assert p == trainsize.plan(**PLAN_PRUNED)  # a callback that goes on changes nothing
    total = calls[0][1]
    assert [c[0] for c in calls] == list(range(1, total + 1))
    assert all(c[1] == total for c in calls)
    examined = [c[2] for c in calls]
    assert examined == sorted(examined) and examined[-1] == p.evaluated
    # Positional arguments, ints.
    assert all(type(x) is int for c in calls for x in c)


def test_plan_progress_cancels():
    calls = []

    def stop_at_3(done, total, examined):
        calls.append(done)
        return done == 3  # a truthy answer stops the search

    with pytest.raises(trainsize.TrainsizeError) as e:
        trainsize.plan(progress=stop_at_3, **PLAN_PRUNED)
    assert e.value.code == trainsize.Status.E_CANCELLED and e.value.code == -11
    assert "cancel" in e.value.message
    assert calls == [1, 2, 3]  # not called again once cancelled
    # Any truthy value cancels; the next plan is whole again.
    with pytest.raises(trainsize.TrainsizeError, match="cancel"):
        trainsize.plan(progress=lambda *a: "yes", **PLAN_PRUNED)
    assert trainsize.plan(progress=lambda *a: 0, **PLAN_PRUNED).candidates


def test_plan_progress_exception_cancels_and_is_raised():
    calls = []

    def fails(done, total, examined):
        calls.append(done)
        if done == 2:
            raise KeyError("from the callback")

    with pytest.raises(KeyError, match="from the callback"):
        trainsize.plan(progress=fails, **PLAN_PRUNED)
    assert calls == [1, 2]

    class Falsy:
        def __bool__(self):
            raise RuntimeError("no truth value")

    with pytest.raises(RuntimeError, match="no truth value"):
        trainsize.plan(progress=lambda *a: Falsy(), **PLAN_PRUNED)
    with pytest.raises(KeyboardInterrupt):
        trainsize.plan(progress=lambda *a: (_ for _ in ()).throw(KeyboardInterrupt), **PLAN_PRUNED)


def test_plan_progress_refused():
    with pytest.raises(trainsize.TrainsizeError) as e:
        trainsize.plan(progress=42, **PLAN_SMALL)
    assert e.value.code == trainsize.Status.E_INVALID and e.value.keyword == "progress"
    assert "callable" in e.value.message


def test_plan_progress_needs_the_library_function(monkeypatch):
    monkeypatch.setattr(trainsize._LIB.fn, "plan_with_progress", None)
    with pytest.raises(trainsize.TrainsizeError) as e:
        trainsize.plan(progress=lambda *a: None, **PLAN_SMALL)
    assert e.value.code == trainsize.Status.E_UNSUPPORTED and e.value.keyword == "progress"
    assert "trainsize_plan_with_progress" in e.value.message
    assert trainsize.plan(**PLAN_SMALL).candidates  # without progress, trainsize_plan


# ---- errors ----------------------------------------------------------------------------

def test_error_unknown_keyword():
    with pytest.raises(trainsize.TrainsizeError) as e:
        trainsize.estimate(model="gpt2", foo_bar=1)
    assert isinstance(e.value, ValueError)
    assert e.value.code == trainsize.Status.E_UNKNOWN
    assert e.value.field == "foo-bar" and e.value.keyword == "foo_bar"
    assert "foo-bar" in str(e.value)
    # Status is made on first use, yet is trainsize.Status for pickle, dir() and import *.
    assert pickle.loads(pickle.dumps(e.value.code)) is trainsize.Status.E_UNKNOWN
    assert "Status" in dir(trainsize) and "Status" in trainsize.__all__


@pytest.mark.parametrize("kwargs,code,field", [
    (dict(model="gpt2", gpus="x"), trainsize.Status.E_INVALID, "gpus"),
    (dict(model="gpt2", gpus=1.5), trainsize.Status.E_INVALID, "gpus"),
    (dict(model="gpt2", micro_batch=0), trainsize.Status.E_INVALID, "micro-batch"),
    (dict(model="gpt2", precision="fp13"), None, "precision"),
    (dict(model="gpt2", dropout=float("nan")), trainsize.Status.E_INVALID, "dropout"),
    (dict(model="no-such-model"), trainsize.Status.E_UNKNOWN, "model"),
    (dict(model="gpt2", gpu="no-such-gpu"), trainsize.Status.E_UNKNOWN, "gpu"),
    (dict(model="gpt2", tp=5), trainsize.Status.E_LAYOUT, None),
    (dict(model="gpt2", gpus=8, tp=8), trainsize.Status.E_LAYOUT, None),
])
def test_error_bad_value_matches_cli(kwargs, code, field):
    with pytest.raises(trainsize.TrainsizeError) as e:
        trainsize.estimate(**kwargs)
    if code is not None:
        assert e.value.code == code
    if field is not None:
        assert e.value.field == field
    assert e.value.message == cli_error_line("estimate", "--json", *cli_args(kwargs))


def test_error_no_model():
    with pytest.raises(trainsize.TrainsizeError) as e:
        trainsize.estimate()
    assert e.value.code == trainsize.Status.E_INVALID and e.value.field == "model"


def test_error_malformed_hf_config_dict():
    with pytest.raises(trainsize.TrainsizeError) as e:
        trainsize.estimate(hf_config={"model_type": "llama"})
    assert e.value.field == "num_hidden_layers" and e.value.keyword == "hf_config"
    with pytest.raises(trainsize.TrainsizeError) as e:
        trainsize.estimate(hf_config={"model_type": "no-such-type"})
    assert e.value.code == trainsize.Status.E_UNKNOWN
    with pytest.raises(trainsize.TrainsizeError) as e:
        trainsize.estimate(hf_config={"model_type": "llama", "hidden_size": object()})
    assert e.value.field == "hf-config" and e.value.code == trainsize.Status.E_INVALID
    with pytest.raises(trainsize.TrainsizeError) as e:
        trainsize.estimate(hf_config={"model_type": "llama", "hidden_size": float("inf")})
    assert e.value.field == "hf-config"
    with pytest.raises(trainsize.TrainsizeError) as e:
        trainsize.estimate(hf_config=b"{not json")
    assert e.value.code == trainsize.Status.E_PARSE


def test_error_hf_config_file():
    with pytest.raises(trainsize.TrainsizeError) as e:
        trainsize.estimate(hf_config="/no/such/config.json")
    assert e.value.code == trainsize.Status.E_IO
    with pytest.raises(trainsize.TrainsizeError) as e:
        trainsize.estimate(hf_config=12)
    assert e.value.field == "hf-config"


def test_error_exclusive_keywords():
    with pytest.raises(trainsize.TrainsizeError, match="exclude"):
        trainsize.estimate(model="gpt2", hf_config=os.path.join(HF, "gpt2.json"))
    with pytest.raises(trainsize.TrainsizeError, match="exclude"):
        trainsize.estimate(model="gpt2", gpu="h100-80gb", gpu_file=GPU_FILE)


def test_error_bad_python_values():
    for value in (object(), {"a": 1}, [1, object()], b"bytes", "nul\0byte", "\udc80"):
        with pytest.raises(trainsize.TrainsizeError) as e:
            trainsize.estimate(model="gpt2", precision=value)
        assert e.value.field == "precision" and e.value.keyword == "precision"


def test_error_plan():
    with pytest.raises(trainsize.TrainsizeError) as e:
        trainsize.plan(model="gpt2")  # no tokens
    assert e.value.code == trainsize.Status.E_INVALID
    for key in ("tp", "gpus", "micro_batch", "zero", "recompute", "gpu_memory"):
        with pytest.raises(trainsize.TrainsizeError) as e:
            trainsize.plan(model="gpt2", tokens=1e9, **{key: 2})
        assert e.value.keyword == key and "plan" in e.value.message
    with pytest.raises(trainsize.TrainsizeError) as e:
        trainsize.plan(model="gpt2", tokens=1e9, gpu=["a100-40gb", "no-such-gpu"])
    assert e.value.code == trainsize.Status.E_UNKNOWN
    for top in (0, 101, 2.5, True, "3"):
        with pytest.raises(trainsize.TrainsizeError) as e:
            trainsize.plan(model="gpt2", tokens=1e9, top=top)
        assert e.value.field == "top"


def test_hostile_input_never_crashes():
    deep = {}
    node = deep
    for _ in range(200):
        node["x"] = {}
        node = node["x"]
    deep["model_type"] = "llama"
    with pytest.raises(trainsize.TrainsizeError) as e:
        trainsize.estimate(hf_config=deep)
    assert e.value.code in (trainsize.Status.E_LIMIT, trainsize.Status.E_PARSE)
    with pytest.raises(trainsize.TrainsizeError) as e:
        trainsize.estimate(hf_config={"model_type": "llama", "pad": "x" * (2 << 20)})
    assert e.value.code == trainsize.Status.E_LIMIT
    with pytest.raises(trainsize.TrainsizeError):
        trainsize.estimate(hf_config=b"\xff\xfe\x00garbage")
    with pytest.raises(trainsize.TrainsizeError):
        trainsize.estimate(model="x" * 100000)
    with pytest.raises(trainsize.TrainsizeError):
        trainsize.estimate(**{"y" * 5000: 1})
    with pytest.raises(trainsize.TrainsizeError):
        trainsize.estimate(model="gpt2", gpus=10**30)


# ---- loading and the ABI check ---------------------------------------------------------

def test_library_from_env():
    assert os.path.samefile(trainsize._LIB.path, LIB)


def test_abi_mismatch_is_refused(monkeypatch):
    monkeypatch.setattr(_lib, "EXPECTED_ABI", trainsize.EXPECTED_ABI + 1)
    with pytest.raises(trainsize.LibraryError, match="ABI version") as e:
        _lib.load()
    assert isinstance(e.value, ImportError)
    with pytest.raises(trainsize.LibraryError):
        _lib.check_abi(1, "x", expected=2)
    assert _lib.check_abi(1, "x", expected=1) == 1


def test_abi_mismatch_fails_the_import(tmp_path):
    # A copy of the package written for another ABI: importing it must fail, clearly.
    pkg = tmp_path / "trainsize"
    shutil.copytree(os.path.join(PACKAGE_ROOT, "trainsize"), pkg,
                    ignore=shutil.ignore_patterns("__pycache__"))
    src = (pkg / "_lib.py").read_text(encoding="utf-8")
    assert "\nEXPECTED_ABI = 2\n" in src
    (pkg / "_lib.py").write_text(src.replace("\nEXPECTED_ABI = 2\n", "\nEXPECTED_ABI = 3\n"),
                                 encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    proc = subprocess.run([sys.executable, "-c", "import trainsize"], capture_output=True,
                          text=True, env=env, timeout=60, cwd=tmp_path)
    assert proc.returncode != 0
    assert "LibraryError" in proc.stderr and "ABI version 2" in proc.stderr
    assert "written for ABI version 3" in proc.stderr


def test_struct_layout_mismatch_is_refused(monkeypatch):
    # A mirror that reads the wrong member: the import-time cross-check must notice.
    paths = dict(_structs.RESULT_PATHS)
    paths["memory.weights"] = ("memory", "gradients")
    monkeypatch.setattr(_structs, "RESULT_PATHS", paths)
    with pytest.raises(trainsize.LibraryError, match="memory.weights"):
        _lib.load()


def test_struct_size_mismatch_is_refused(monkeypatch):
    class Short(ctypes.Structure):
        _fields_ = [("x", ctypes.c_char * 16)]
    monkeypatch.setattr(_structs, "PlanStats", Short)
    if trainsize._LIB.fn.struct_size is None:
        pytest.fail("the library lacks trainsize_struct_size(); this check needs it")
    with pytest.raises(trainsize.LibraryError, match="PlanStats|Short"):
        _lib.load()


def test_plan_stats_of_a_library_before_the_pruning_counts_load(monkeypatch):
    # Such a library writes the shorter struct into the binding's longer one: accepted.
    register = _ffi.register

    def older(cdll, missing):
        ns = register(cdll, missing)
        size = ns.struct_size
        ns.struct_size = lambda which: (_structs.PLAN_STATS_BEFORE_PRUNING
                                        if which == _structs.STRUCT_PLAN_STATS else size(which))
        return ns

    monkeypatch.setattr(_ffi, "register", older)
    assert _structs.PLAN_STATS_BEFORE_PRUNING == 56
    _lib.load()


def test_missing_library_is_a_clear_import_error(monkeypatch):
    monkeypatch.setenv("LIBTRAINSIZE", "/no/such/libtrainsize.so")
    with pytest.raises(ImportError, match="LIBTRAINSIZE"):
        _lib.load()


def run_without_library_variable(site, code):
    """Run Python code with `site` as its only added path and no LIBTRAINSIZE: the package
    must find its library by itself. Returns standard output."""
    env = {k: v for k, v in os.environ.items() if k not in ("LIBTRAINSIZE", "PYTHONPATH")}
    env["PYTHONPATH"] = str(site)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, timeout=60, cwd=site)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_library_next_to_the_package(tmp_path):
    # A copy of the package with the library inside it, and no LIBTRAINSIZE.
    pkg = tmp_path / "trainsize"
    shutil.copytree(os.path.join(PACKAGE_ROOT, "trainsize"), pkg,
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(LIB, pkg / "libtrainsize.so")
    path, peak = run_without_library_variable(
        tmp_path, "import trainsize; print(trainsize._LIB.path); "
        "print(trainsize.estimate(model='gpt2').memory.peak_total)").split()
    assert path == str(pkg / "libtrainsize.so")
    assert int(peak) == trainsize.estimate(model="gpt2").memory.peak_total


def copy_checkout(tmp_path):
    """The library's sources and the binding, copied (no build outputs)."""
    checkout = tmp_path / "checkout"
    shutil.copytree(os.path.join(REPO, "lib"), checkout / "lib")
    shutil.copytree(os.path.join(REPO, "include"), checkout / "include")
    shutil.copytree(PACKAGE_ROOT, checkout / "bindings" / "python",
                    ignore=shutil.ignore_patterns("__pycache__", "build", "*.egg-info", "*.so*"))
    return checkout


def test_pip_install_in_a_fresh_venv_offline(tmp_path):
    """`python3 -m venv v && v/bin/pip install --no-index bindings/python`: a fresh venv
    with nothing but the interpreter's own pip, no index, build isolation on (the backend
    needs no package), and the installed package carries its library."""
    checkout = copy_checkout(tmp_path)
    venv = tmp_path / "v"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    proc = subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "--no-index",
                           str(checkout / "bindings" / "python")],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    env = {k: v for k, v in os.environ.items() if k not in ("LIBTRAINSIZE", "PYTHONPATH")}
    out = subprocess.run([str(venv / "bin" / "python"), "-c",
                          "import json, trainsize; print(trainsize._LIB.path); "
                          "print(json.dumps(trainsize.estimate(model='gpt2').to_dict()))"],
                         capture_output=True, text=True, cwd=str(tmp_path), env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    path, result = out.stdout.split("\n", 1)
    assert path.startswith(str(venv)) and "libtrainsize.so" in path
    same_json(json.loads(result), cli_json("estimate", "--json", "--model", "gpt2"))


def test_pip_install_builds_and_ships_the_library(tmp_path):
    """`pip install bindings/python` from a checkout compiles libtrainsize into the package
    (the in-tree build backend): the installed package imports with no LIBTRAINSIZE and no
    CMake build, and answers as the command does. Runs on a copy of the checkout's
    sources, so the build leaves nothing in the tree."""
    checkout = copy_checkout(tmp_path)
    target = tmp_path / "site"
    proc = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-index",
                           "--no-build-isolation", "--target", str(target),
                           str(checkout / "bindings" / "python")],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    shipped = [n for n in os.listdir(target / "trainsize") if n.startswith("libtrainsize.so")]
    assert shipped == ["libtrainsize.so.%d" % trainsize.EXPECTED_ABI]
    path, result = run_without_library_variable(
        target, "import json, trainsize; print(trainsize._LIB.path); "
        "print(json.dumps(trainsize.estimate(model='gpt2').to_dict()))").split("\n", 1)
    assert path == str(target / "trainsize" / shipped[0])
    same_json(json.loads(result), cli_json("estimate", "--json", "--model", "gpt2"))


def test_to_dict_non_finite_is_null():
    # The command prints non-finite numbers as null; so does to_dict(), whether it is
    # compiled from the raw fields or built from sections.
    from trainsize._results import _plain
    assert _plain(float("inf")) is None and _plain(math.pi) == math.pi
    r = trainsize.estimate(model="gpt2")
    lib, table = trainsize._LIB, trainsize._TABLE
    raw = list(r._raw)
    for path, bad in (("time.seconds", float("inf")), ("time.gpu_hours", float("nan"))):
        raw[lib.positions[next(i for i, f in enumerate(lib.fields) if f.path == path)]] = bad
    changed = trainsize.Estimate(r.trainsize_version, table, tuple(raw))
    d = changed.to_dict()
    assert d["time"]["seconds"] is None and d["time"]["gpu_hours"] is None
    assert d["memory"] == r.to_dict()["memory"]
    assert changed.time.to_dict()["seconds"] is None
    assert math.isinf(changed.time.seconds)


def test_fields_the_mirror_lacks_are_read_one_by_one(monkeypatch):
    """A field this binding's struct mirror does not know (as in a newer library) is read
    through trainsize_result_field_get; the result is the same."""
    paths = dict(_structs.RESULT_PATHS)
    for path in ("memory.peak_total", "layout.gpu", "layout.recompute", "warnings",
                 "memory.fits", "time.seconds"):
        del paths[path]
    monkeypatch.setattr(_structs, "RESULT_PATHS", paths)
    lib = _lib.load()
    assert sorted(f.path for f in lib._slow) == sorted(
        ["memory.peak_total", "layout.gpu", "layout.recompute", "warnings", "memory.fits",
         "time.seconds"])
    for kwargs in (SPEC_JOB, dict(model="llama-2-7b", gpu="a100-80gb", recompute="full")):
        job = lib.new_job()
        try:
            for key, value in kwargs.items():
                lib.job_set(job, key.replace("_", "-"), option_text(value).encode())
            raw = lib.read_raw(lib.estimate_buffer(job))
        finally:
            lib.free_job(job)
        r = trainsize.Estimate._from_raw(lib.version, lib.fields, lib.decoders, raw,
                                        positions=lib.positions)
        expected = dict(trainsize.estimate(**kwargs).to_dict(), advice=[])
        assert r.to_dict() == expected
        assert r.layout.recompute == expected["layout"]["recompute"]
        assert r.warnings == expected["warnings"]


def test_advice_makes_the_job_fit():
    """A job that does not fit gets advice; each, applied, fits with its peak (and the
    CLI's JSON says the same)."""
    job = dict(model="llama-2-7b", gpu="a100-80gb")
    r = trainsize.estimate(**job)
    assert not r.memory.fits and r.advice
    for a in r.advice:
        changed = dict(job, **{k.replace("-", "_"): v for k, v in a["set"].items()})
        after = trainsize.estimate(**changed)
        assert after.memory.fits
        assert after.memory.peak_total == a["peak_total"]
    assert trainsize.estimate(model="gpt2", gpu="h100-80gb").advice == []


def test_plan_for_a_described_gpu():
    """plan(gpu_file=...) plans for that GPU alone; its candidates are real estimates."""
    p = trainsize.plan(model="gpt2", tokens=1e9, gpu_file=GPU_FILE, max_gpus=8, top=3)
    assert p.candidates and all(c.gpu == p.candidates[0].gpu for c in p.candidates)
    c = p.candidates[0]
    r = trainsize.estimate(model="gpt2", tokens=1e9, gpu_file=GPU_FILE, gpus=c.gpus,
                           gpus_per_node=c.gpus_per_node, tp=c.tp, pp=c.pp,
                           pp_interleave=c.pp_interleave, zero=c.zero, micro_batch=c.micro_batch,
                           global_batch=c.global_batch, recompute=c.recompute)
    assert r.memory.peak_total == c.peak_total
