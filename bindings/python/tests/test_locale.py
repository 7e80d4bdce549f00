"""The C locale of the process does not change the library's numbers.

A Python program may call locale.setlocale(locale.LC_ALL, ...), which sets the C library's
locale too: under de_DE the decimal separator is ",", under ps_AF it is U+066B. The
library's figures, its messages and its text round trips must stay those of the C locale.
The locales are built with localedef into a temporary folder (LOCPATH); without localedef
or glibc's locale sources (Debian: the `locales` package) these tests fail, never skip.
"""

import contextlib
import json
import locale
import os
import shutil
import subprocess
import threading

import pytest

import trainsize

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
HF = os.path.join(REPO, "tests", "data", "hf")
GPU_FILE = os.path.join(REPO, "tests", "data", "gpu", "my-accelerator.json")
LOCALE_SOURCES = "/usr/share/i18n/locales"

#: locale -> its decimal separator
LOCALES = {"de_DE.UTF-8": ",", "ps_AF.UTF-8": "\u066b"}


def _json(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


@pytest.fixture(scope="module")
def locale_dir(tmp_path_factory):
    """A LOCPATH folder holding the LOCALES, built by localedef."""
    localedef = shutil.which("localedef")
    if localedef is None:
        pytest.fail("localedef is not installed: the locale tests need it and glibc's "
                    "locale sources (Debian: apt-get install locales)", pytrace=False)
    folder = tmp_path_factory.mktemp("locales")
    for name in LOCALES:
        source = name.split(".")[0]
        if not os.path.isfile(os.path.join(LOCALE_SOURCES, source)):
            pytest.fail("%s/%s is missing: the locale tests need glibc's locale sources "
                        "(Debian: apt-get install locales)" % (LOCALE_SOURCES, source),
                        pytrace=False)
        proc = subprocess.run([localedef, "-i", source, "-f", "UTF-8",
                               str(folder / name)], capture_output=True, text=True)
        # localedef may exit 1 for mere warnings: what counts is the locale it wrote.
        if not (folder / name / "LC_NUMERIC").is_file():
            pytest.fail("localedef -i %s -f UTF-8 failed (exit %d): %s"
                        % (source, proc.returncode, proc.stderr.strip()), pytrace=False)
    return str(folder)


@contextlib.contextmanager
def process_locale(name, folder):
    """The process's C locale set to ``name`` (LC_ALL) for the block, then restored."""
    saved_locale = locale.setlocale(locale.LC_ALL)
    saved_path = os.environ.get("LOCPATH")
    os.environ["LOCPATH"] = folder  # glibc reads it when setlocale loads a locale
    try:
        try:
            locale.setlocale(locale.LC_ALL, name)
        except locale.Error as exc:
            pytest.fail("setlocale(LC_ALL, %r) with LOCPATH=%s failed: %s"
                        % (name, folder, exc), pytrace=False)
        assert locale.localeconv()["decimal_point"] == LOCALES[name]
        yield
    finally:
        locale.setlocale(locale.LC_ALL, saved_locale)
        if saved_path is None:
            del os.environ["LOCPATH"]
        else:
            os.environ["LOCPATH"] = saved_path


class Refused(tuple):
    """A TrainsizeError as (code, field, message)."""


def outcome(call):
    """call()'s value, or its :class:`Refused`, on a thread of its own: that keeps no
    jobs, so every job is built under the locale in force."""
    out = []

    def run():
        try:
            out.append(call())
        except trainsize.TrainsizeError as exc:
            out.append(Refused((exc.code, exc.field, exc.message)))

    worker = threading.Thread(target=run)
    worker.start()
    worker.join()
    return out[0]


def both(name, folder, calls):
    """Each call's outcome in the C locale, then under ``name``."""
    want = [outcome(c) for c in calls]
    with process_locale(name, folder):
        got = [outcome(c) for c in calls]
    return want, got


JOBS = [
    # Fractional keywords (passed as text, read back by the library).
    dict(model="llama-2-7b", gpu="a100-80gb", gpus=8, zero=3, micro_batch=1, seq=4096,
         tokens=2.5e11, dropout=0.1, allocator_slack=0.075, comm_share=0.25, pue=1.25,
         carbon_intensity=0.385, gpu_hour_usd=2.49, power_usd_per_kwh=0.125,
         headroom="0.15", collective_latency=2.5e-05),
    dict(model="llama-2-7b", gpu="a100-80gb", quantize_base="nf4", lora_rank=16,
         quantize_scratch=0.75, sharded_slack=0.125),
    # Configs and device files with fractional numbers, as files and as dicts.
    dict(hf_config=os.path.join(HF, "gemma-2-9b.json"), tokens=1e9),
    dict(hf_config=_json(os.path.join(HF, "DeepSeek-V3.json")), gpus=64, ep=8, zero=1),
    dict(model="gpt2", gpu_file=GPU_FILE, tokens=1e9),
    dict(model="gpt2", gpu_file=dict(_json(GPU_FILE), cloud_usd_per_hour=2.75,
                                     memory_bandwidth=3.35e12)),
    # A job that does not fit: its advice.
    dict(model="llama-2-13b", gpu="a100-40gb"),
]

BAD = [
    dict(model="gpt2", dropout=1.5),             # a number from 0 to 0.999
    dict(model="gpt2", comm_share=5),            # 0.01 to 1
    dict(model="gpt2", collective_latency=0.5),  # 0 to 0.1
    dict(model="gpt2", host_memory_bandwidth=1),  # 1e+09 to 1e+14
    dict(model="gpt2", pue=0.5),
    dict(model="gpt2", dropout="0,5"),
    dict(model="gpt2", dropout="0\u066b5"),
]


@pytest.mark.parametrize("name", sorted(LOCALES))
def test_estimates_do_not_depend_on_the_locale(name, locale_dir):
    want, got = both(name, locale_dir, [lambda kw=kw: trainsize.estimate(**kw).to_dict()
                                        for kw in JOBS])
    assert not any(isinstance(w, Refused) for w in want), want  # every job is valid
    for kw, w, g in zip(JOBS, want, got):
        assert g == w, (name, sorted(kw))


@pytest.mark.parametrize("name", sorted(LOCALES))
def test_reports_do_not_depend_on_the_locale(name, locale_dir):
    """Estimate.report(): the human report's printf-formatted figures ("47.0% of the GPU")."""
    want, got = both(name, locale_dir, [lambda kw=kw: trainsize.estimate(**kw).report()
                                        for kw in JOBS])
    assert not any(isinstance(w, Refused) for w in want), want
    assert got == want
    assert any("% of the GPU)" in w for w in want)


@pytest.mark.parametrize("name", sorted(LOCALES))
def test_plan_does_not_depend_on_the_locale(name, locale_dir):
    job = dict(model="llama-2-7b", tokens=2.5e11, deadline_days=12.5, budget=123456.75,
               comm_share=0.15, top=5)
    want, got = both(name, locale_dir, [lambda: trainsize.plan(**job).to_dict()])
    assert type(want[0]) is dict and got == want


@pytest.mark.parametrize("name", sorted(LOCALES))
def test_error_messages_do_not_depend_on_the_locale(name, locale_dir):
    want, got = both(name, locale_dir, [lambda kw=kw: trainsize.estimate(**kw)
                                        for kw in BAD])
    for kw, w, g in zip(BAD, want, got):
        assert isinstance(w, Refused), kw
        assert g == w, (name, kw)
    dropout = got[0][2]
    assert "0.999" in dropout and "0,999" not in dropout and "\u066b" not in dropout


@pytest.mark.parametrize("name", sorted(LOCALES))
def test_get_then_set_round_trips(name, locale_dir):
    """Text the library gives back (a parameter's value, its default, advice, a plan's
    layout) is text it takes, under any locale."""
    lib = trainsize._LIB

    def get_set_get(option, text):
        first, second = lib.new_job(), lib.new_job()
        try:
            lib.job_set(first, option, text.encode())
            back = lib.job_get(first, option)
            lib.job_set(second, option, back.encode())
            return back, lib.job_get(second, option)
        finally:
            lib.free_job(first)
            lib.free_job(second)

    numbers = [p for p in trainsize.parameters() if p.kind == "float"]
    assert numbers
    calls = [lambda p=p: get_set_get(p.name, repr(p.min + (p.max - p.min) / 3))
             for p in numbers]
    calls += [lambda p=p: get_set_get(p.name, p.default) for p in numbers if p.default]
    calls += [lambda p=p: trainsize.estimate(model="gpt2", **{p.keyword: p.default}).to_dict()
              for p in numbers if p.default]

    def advice_applied():
        job = JOBS[-1]
        advice = trainsize.estimate(**job).advice
        assert advice
        return [(a, trainsize.estimate(**job, **{k.replace("-", "_"): v
                                                 for k, v in a["set"].items()}).to_dict())
                for a in advice]

    def layout_applied():
        job = dict(model="llama-2-7b", tokens=2.5e11, comm_share=0.15)
        return [trainsize.estimate(**job, **c.layout()).to_dict()
                for c in trainsize.plan(top=3, **job).candidates]

    calls += [advice_applied, layout_applied]
    want, got = both(name, locale_dir, calls)
    for w, g in zip(want, got):
        assert not isinstance(w, Refused), w
        assert g == w, name
    for back, again in want[:len(numbers)]:
        assert back == again
