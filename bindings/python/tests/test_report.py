"""Estimate.report(): the human report, byte for byte the text `trainsize estimate` prints
for the same job (both come from the library's trainsize_report)."""

import os
import subprocess

import pytest

import trainsize

EXE = os.environ["TRAINSIZE_EXE"]


def command_report(*args):
    done = subprocess.run([EXE, "estimate", *args], capture_output=True, text=True, check=True)
    return done.stdout


def test_report_equals_the_command():
    r = trainsize.estimate(model="llama-2-7b", gpus=8, zero=3, host_ram="512GiB")
    assert r.report() == command_report("--model", "llama-2-7b", "--gpus", "8", "--zero", "3",
                                        "--host-ram", "512GiB")
    assert "FITS: peak total" in r.report()


def test_report_of_a_job_that_does_not_fit_has_the_advice():
    r = trainsize.estimate(model="llama-2-70b", gpu="a100-80gb")
    text = r.report()
    assert r.advice and "To make it fit" in text
    assert text == command_report("--model", "llama-2-70b", "--gpu", "a100-80gb")


def test_report_of_a_config_dict_and_a_cached_job():
    config = {"model_type": "llama", "num_hidden_layers": 2, "hidden_size": 64,
              "num_attention_heads": 4, "intermediate_size": 128, "vocab_size": 1000}
    a = trainsize.estimate(hf_config=config, gpus=2).report()
    assert a.startswith("trainsize ") and "Memory per GPU" in a
    first = trainsize.estimate(model="gpt2", micro_batch=2)
    second = trainsize.estimate(model="gpt2", micro_batch=2)  # the thread's kept job
    assert first.report() == second.report()


def test_report_needs_the_estimates_job():
    r = trainsize.estimate(model="gpt2")
    detached = trainsize.Estimate(r.trainsize_version, r._table, r._raw)
    with pytest.raises(trainsize.TrainsizeError) as e:
        detached.report()
    assert e.value.field == "report"
