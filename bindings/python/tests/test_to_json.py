"""Estimate.to_json(): the estimate's JSON, byte for byte the text `trainsize estimate
--json` prints for the same job (both come from the library's trainsize_result_json)."""

import json
import os
import subprocess

import pytest

import trainsize

EXE = os.environ["TRAINSIZE_EXE"]


def command_json(*args):
    done = subprocess.run([EXE, "estimate", "--json", *args], capture_output=True, text=True,
                          check=True)
    return done.stdout


def test_to_json_equals_the_command():
    r = trainsize.estimate(model="llama-2-7b", gpus=8, zero=3, host_ram="512GiB")
    assert r.to_json() == command_json("--model", "llama-2-7b", "--gpus", "8", "--zero", "3",
                                       "--host-ram", "512GiB")


def test_to_json_of_a_job_that_does_not_fit_lists_the_advice():
    r = trainsize.estimate(model="llama-2-70b", gpu="a100-80gb")
    text = r.to_json()
    assert text == command_json("--model", "llama-2-70b", "--gpu", "a100-80gb")
    parsed = json.loads(text)
    assert parsed["advice"] and parsed["advice"][0]["fits"] is True
    assert len(parsed["advice"]) == len(r.advice)


def test_to_json_parses_to_the_dict():
    r = trainsize.estimate(model="mixtral-8x7b", gpus=32, ep=8, tp=2, zero=1)
    parsed = json.loads(r.to_json())
    d = r.to_dict()
    assert parsed["memory"]["peak_total"] == d["memory"]["peak_total"]
    assert parsed["time"]["seconds"] == d["time"]["seconds"]
    assert parsed["trainsize_version"] == r.trainsize_version


def test_to_json_needs_the_estimates_job():
    r = trainsize.estimate(model="gpt2")
    detached = trainsize.Estimate(r.trainsize_version, r._table, r._raw)
    with pytest.raises(trainsize.TrainsizeError) as e:
        detached.to_json()
    assert e.value.field == "to_json"


def test_uncertainty_is_the_command_s():
    """How sure an estimate is: a section like the others, equal to the command's JSON, its
    band around the estimate (low <= 1 <= high), wider for a GPU without measured runs."""
    for job in (dict(model="llama-3-8b", gpus=8, zero=3), dict(model="llama-3-8b", gpu="mi300x", gpus=8, zero=3)):
        r = trainsize.estimate(**job)
        args = []
        for k, v in job.items():
            args += ["--" + k.replace("_", "-"), str(v)]
        assert r.to_dict()["uncertainty"] == json.loads(command_json(*args))["uncertainty"]
        u = r.uncertainty
        assert u.time_low <= 1.0 <= u.time_high and u.memory_low <= 1.0 <= u.memory_high
    assert "widened: an architecture without runs" in r.uncertainty.basis
    h100 = trainsize.estimate(model="llama-3-8b", gpus=8, zero=3).uncertainty
    assert u.time_high / u.time_low > h100.time_high / h100.time_low
