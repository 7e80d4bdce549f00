"""calibration=: a site calibration applied as the command's --calibration applies it (a
path, a dict or bytes), in estimate() and plan(), never kept with a cached job, and its
refusals the library's."""

import json
import os

import pytest

import trainsize
from test_trainsize import cli_error_line, cli_json, same_json

CALIBRATION = {
    "trainsize_calibration": 1, "library_version": trainsize.version(), "date": "2026-12-01",
    "runs": 5, "gpus": ["h100-80gb"],
    "settings": {"gemm-share": 0.62, "network-efficiency": 0.85, "step-overhead": 0.2},
}
JOB = dict(model="llama-3-8b", gpu="h100-80gb", gpus=16, zero=3, tokens=1e10)


@pytest.fixture
def path(tmp_path):
    p = tmp_path / "site.json"
    p.write_text(json.dumps(CALIBRATION))
    return str(p)


def cli(path, **job):
    args = []
    for k, v in job.items():
        args += ["--" + k.replace("_", "-"), str(v)]
    return cli_json("estimate", "--json", "--calibration", path, *args)


def test_every_form_is_the_command(path):
    want = cli(path, **JOB)
    assert want["layout"]["calibration"] == "5 runs on h100-80gb, 2026-12-01"
    for value in (path, CALIBRATION, json.dumps(CALIBRATION).encode()):
        same_json(trainsize.estimate(calibration=value, **JOB).to_dict(), want)
    plain = trainsize.estimate(**JOB)
    assert plain.to_dict()["layout"]["calibration"] == ""
    assert trainsize.estimate(calibration=path, **JOB).time.step_seconds > plain.time.step_seconds


def test_keywords_win_and_other_gpus_warn(path):
    r = trainsize.estimate(calibration=path, step_overhead=0.1, **dict(JOB, gpu="a100-80gb"))
    same_json(r.to_dict(), cli(path, **dict(JOB, gpu="a100-80gb", step_overhead=0.1)))
    assert "calibration-other-gpu" in r.warnings


def test_not_kept_with_a_cached_job(path):
    """The file is read on each call: a calibration fitted again is the one used."""
    first = trainsize.estimate(calibration=path, **JOB).time.step_seconds
    with open(path, "w") as f:
        json.dump(dict(CALIBRATION, settings={"gemm-share": 0.9}), f)
    assert trainsize.estimate(calibration=path, **JOB).time.step_seconds < first


def test_plan_takes_it(path):
    job = dict(model="gpt2", tokens=1e9, gpu="h100-80gb", top=3)
    got = trainsize.plan(calibration=path, **job)
    want = cli_json("plan", "--json", "--calibration", path, "--model", "gpt2", "--tokens", "1e9",
                    "--gpu", "h100-80gb", "--top", "3")
    assert [c.seconds for c in got.candidates] == [c["seconds"] for c in want["candidates"]]


def test_refusals_are_the_library_s(tmp_path):
    bad = dict(CALIBRATION, settings={"hfu": 0.5})
    p = tmp_path / "bad.json"
    p.write_text(json.dumps(bad))
    with pytest.raises(trainsize.TrainsizeError) as e:
        trainsize.estimate(model="gpt2", calibration=bad)
    assert str(e.value) == cli_error_line("estimate", "--calibration", str(p), "--model", "gpt2") \
        .replace(str(p) + ": ", "")
    with pytest.raises(trainsize.TrainsizeError, match="calibration"):
        trainsize.estimate(model="gpt2", calibration=os.path.join(str(tmp_path), "missing.json"))
    with pytest.raises(trainsize.TrainsizeError, match="calibration"):
        trainsize.estimate(model="gpt2", calibration=42)
    # a version past 32 bits (sscanf's %u wrapped it onto this one's), a forged date
    for key, value, message in (("library_version", "0.4294967297", "expected MAJOR.MINOR.PATCH"),
                                ("library_version", "0" * 30 + ".1", "expected MAJOR.MINOR.PATCH"),
                                ("date", "2026-01-01\nFITS", "date: expected a date"),
                                ("gpus", ["h100-80gb\x1b[2J"], "control character")):
        with pytest.raises(trainsize.TrainsizeError, match=message):
            trainsize.estimate(model="gpt2", calibration=dict(CALIBRATION, **{key: value}))


def test_calibrate_is_the_command_s(tmp_path):
    runs = {"runs": [
        {"name": "a", "job": {"model": "llama-3-8b", "gpu": "h100-80gb", "gpus": 8, "zero": 3, "seq": 4096},
         "measured": {"step_seconds": 0.7}},
        {"job": {"model": "llama-3-8b", "gpu": "h100-80gb", "gpus": 4, "zero": 3, "seq": 4096,
                 "recompute": "full"}, "measured": {"step_seconds": 0.9}},
    ]}
    p = tmp_path / "runs.json"
    p.write_text(json.dumps(runs))
    want = cli_json("calibrate", str(p), "--date", "2026-12-01")
    for value in (runs, runs["runs"], str(p), json.dumps(runs).encode()):
        assert trainsize.calibrate(value, date="2026-12-01") == want
    got = trainsize.calibrate(runs, date="2026-12-01")
    r = trainsize.estimate(calibration=got, model="llama-3-8b", gpu="h100-80gb", gpus=8, zero=3, seq=4096)
    assert r.to_dict()["layout"]["calibration"] == "2 runs on h100-80gb, 2026-12-01"
    with pytest.raises(trainsize.TrainsizeError, match=r'runs\[0\] \("run 1"\): measured: needs'):
        trainsize.calibrate([{"job": {"model": "gpt2"}, "measured": {}}])
    with pytest.raises(trainsize.TrainsizeError, match="cannot read"):
        trainsize.calibrate(str(tmp_path / "missing.json"))
    # the date the library records: a calendar date, checked here as for the command
    for day in ("2026-13-45", "2026-02-29", "26\n\x1b[31m"):
        with pytest.raises(trainsize.TrainsizeError, match=r"date: expected a calendar date, YYYY-MM-DD"):
            trainsize.calibrate(runs, date=day)
    os.mkfifo(str(tmp_path / "fifo.json"))  # refused at once, never waited on
    with pytest.raises(trainsize.TrainsizeError, match="not a regular file"):
        trainsize.calibrate(str(tmp_path / "fifo.json"))
