"""capacity(): what a server can train, equal to `trainsize capacity --json` for the same
GPUs (both come from the library's trainsize_capacity and trainsize_capacity_json), and
refused as the command refuses, naming the keyword."""

import json
import os
import subprocess

import pytest

import trainsize

EXE = os.environ["TRAINSIZE_EXE"]
Status = trainsize.Status
METHODS = ["pretraining", "full-fine-tuning", "lora", "qlora", "dpo", "grpo"]


def command(*args):
    """`trainsize capacity --json ARGS`: its parsed output."""
    done = subprocess.run([EXE, "capacity", "--json", *args], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def command_refusal(*args):
    """`trainsize capacity ARGS` that fails: its message, without the "trainsize: " prefix."""
    done = subprocess.run([EXE, "capacity", *args], capture_output=True, text=True)
    assert done.returncode != 0 and done.stdout == ""
    return done.stderr.strip().split("trainsize: ", 1)[1]


@pytest.mark.parametrize("kwargs, args", [
    ({"gpu": "h100-80gb", "gpus": 8}, ["--gpu", "h100-80gb", "--gpus", "8"]),
    ({"gpu": "rtx-4090", "gpus": 1, "seq": 2048}, ["--gpu", "rtx-4090", "--gpus", "1", "--seq", "2048"]),
])
def test_capacity_equals_the_command(kwargs, args):
    got = trainsize.capacity(**kwargs)
    assert got == command(*args)
    assert list(got) == ["gpu", "gpus", "seq", "micro_batch", "methods"]
    assert [m["method"] for m in got["methods"]] == METHODS
    # something fits each way on these GPUs: a model, its size and the job that reproduces it
    for m in got["methods"]:
        assert m["model"] and m["parameters"] > 0 and m["peak_total"] > 0
        assert m["args"].startswith("--model %s --gpu %s --gpus %d " % (m["model"], kwargs["gpu"], kwargs["gpus"]))


def test_defaults_are_the_command_s():
    assert trainsize.capacity() == command()


def test_servers_and_units_as_the_command_reads_them():
    # 2 servers of an H100's 8 GPUs; the host RAM in the command's units
    got = trainsize.capacity(servers=2, host_ram="2TiB")
    assert got["gpus"] == 16
    assert got == command("--servers", "2", "--host-ram", "2TiB")
    assert "--gpus-per-node 8 " in got["methods"][0]["args"]
    got = trainsize.capacity("a100-80gb", servers=1, gpus_per_node=4)
    assert got["gpus"] == 4 and got == command("--gpu", "a100-80gb", "--servers", "1", "--gpus-per-node", "4")


@pytest.mark.parametrize("kwargs, args, field, code", [
    ({"gpus": 0}, ["--gpus", "0"], "gpus", Status.E_INVALID),
    ({"gpu": "no-such-gpu"}, ["--gpu", "no-such-gpu"], "gpu", Status.E_UNKNOWN),
    ({"micro_batch": 0}, ["--micro-batch", "0"], "micro-batch", Status.E_INVALID),
    ({"seq": "4k"}, ["--seq", "4k"], "seq", Status.E_INVALID),
    ({"servers": 0}, ["--servers", "0"], "servers", Status.E_INVALID),
])
def test_refused_as_the_command_refuses(kwargs, args, field, code):
    with pytest.raises(trainsize.TrainsizeError) as info:
        trainsize.capacity(**kwargs)
    keyword = next(iter(kwargs))
    assert info.value.code == code and info.value.field == field and info.value.keyword == keyword
    assert str(info.value) == command_refusal(*args)


def test_gpus_and_servers_exclude_each_other():
    with pytest.raises(trainsize.TrainsizeError, match="exclude each other") as info:
        trainsize.capacity(gpus=8, servers=1)
    assert info.value.keyword == "servers"


def test_the_library_names_the_keyword():
    # The library's own check, past the probe's: its field becomes the keyword.
    lib = trainsize._LIB
    keywords = {"gpus": "gpus", "gpu": "gpu"}
    with pytest.raises(trainsize.TrainsizeError) as info:
        lib.capacity_json(b"h100-80gb", 0, 0, 2048, 1, 0, keywords)
    assert info.value.field == "gpus" and info.value.keyword == "gpus"
    with pytest.raises(trainsize.TrainsizeError) as info:
        lib.capacity_json(b"no-such-gpu", 8, 0, 2048, 1, 0, keywords)
    assert info.value.code == Status.E_UNKNOWN and info.value.keyword == "gpu"
