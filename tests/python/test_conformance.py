"""The conformance corpus (conformance/cases) as pytest tests on the CPU
target: one test per case x dtype. Inputs are fresh random values each run;
the seed is in the report header (rerun with TESSERA_SEED=<seed>). Also
checks that the runner itself catches unwritten elements and stray writes."""

import os

import numpy as np
import pytest

import tessera
import tessera.language as tl
from tessera import conformance as conf

pytestmark = pytest.mark.usefixtures("test_target")

CASES = conf.load_corpus()
# The corpus runs on TESSERA_TEST_TARGET (cpu by default; nvptx on a GPU machine).
RUN = conf.Target(os.environ.get("TESSERA_TEST_TARGET", "cpu"), "run")
CPU = conf.Target("cpu", "run")


def _params():
    for case in CASES:
        for dtype in case.dtypes:
            marks = []
            if case.reason("xfail", dtype):
                marks.append(pytest.mark.xfail(reason=case.reason("xfail", dtype), strict=True))
            if case.reason("skip", dtype):
                marks.append(pytest.mark.skip(reason=case.reason("skip", dtype)))
            yield pytest.param(case, dtype, id="%s[%s]" % (case.name, dtype), marks=marks)


@pytest.mark.parametrize("case,dtype", _params())
def test_case(case, dtype, conformance_seed):
    r = conf.run_case(case, dtype, RUN, conformance_seed)
    if r.status in ("skip", "unsupported"):
        pytest.skip(r.message)
    assert r.status in ("pass", "xpass"), "%s (seed %d)" % (r.message, conformance_seed)
    assert r.status == "pass", "xpass: " + r.message   # an xfail case that passes: drop the mark


# ---- the runner's own checks


@tessera.jit
def _half_store(x_ptr, out_ptr, n, SHIFT: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs + SHIFT, tl.load(x_ptr + offs), mask=offs + SHIFT < n + SHIFT * 2)


def _runner_case(shift, n):
    return conf.Case("selftest.shift%d" % shift, _half_store,
                     lambda rng, dt: dict(x_ptr=conf.rand(rng, 64, dt), out_ptr=conf.Out(n, dt), n=n, SHIFT=shift,
                                          BLOCK=64),
                     lambda a: {"out_ptr": np.resize(a["x_ptr"], n)}, dtypes=["fp32", "i8", "i1"])


@pytest.fixture
def private_registry(monkeypatch):
    monkeypatch.setattr(conf.Case, "registry", [])


@pytest.mark.parametrize("dtype", ["fp32", "i8", "i1"])
def test_runner_catches_unwritten_and_stray_writes(private_registry, dtype):
    ok = conf.run_case(_runner_case(0, 64), dtype, RUN, 1)
    assert ok.status == "pass", ok.message
    unwritten = conf.run_case(_runner_case(0, 80), dtype, RUN, 1)   # 16 elements never stored
    assert unwritten.status == "fail" and "never written" in unwritten.message, unwritten.message
    past_end = conf.run_case(_runner_case(4, 60), dtype, RUN, 1)     # writes 4 elements past the end
    assert past_end.status == "fail" and "guard" in past_end.message, past_end.message


def test_round_float_is_single_rounding():
    # 1 + 2^-8 + 2^-30 rounds up to bf16's 1 + 2^-7; via float32 it would tie to 1.
    assert conf.round_float([1 + 2 ** -8 + 2 ** -30], "bf16").astype(np.float64)[0] == 1 + 2 ** -7
    assert conf.round_float([500.0, np.inf], "fp8e4nv").astype(np.float64).tolist() == [448.0, 448.0]
    assert conf.round_float([61440.0], "fp8e5").astype(np.float64)[0] == np.inf


def test_matrix_outputs(tmp_path, private_registry):
    case = _runner_case(0, 64)
    targets = conf.find_targets()
    assert [t.name for t in targets][:1] == ["cpu"]
    results = conf.run_matrix(targets, [(case, "fp32")], 3)
    conf.write_json(tmp_path / "r.json", 3, targets, results)
    conf.write_junit(tmp_path / "r.xml", 3, targets, results)
    import json
    import xml.etree.ElementTree as ET
    data = json.loads((tmp_path / "r.json").read_text())
    assert data["seed"] == 3 and {r["target"] for r in data["results"]} == {t.name for t in targets}
    suites = ET.parse(tmp_path / "r.xml").getroot().findall("testsuite")
    assert len(suites) == len(targets)
    for t in targets:
        if t.mode == "skip":
            assert "no code generator" in t.reason or "no " in t.reason


def test_junit_holds_any_message_as_valid_xml(tmp_path):
    # Compiler messages carry quotes, markup and terminal escapes; the file
    # stays XML that JUnit readers parse, with the counts per suite.
    import xml.etree.ElementTree as ET
    message = 'error: "a" < \'b\' & c\x1b[31m\x00 ]]> done'
    targets = [conf.Target("cpu", "run"), conf.Target("nvptx", "skip", "no device")]
    results = [conf.Result("k.add", "fp32", "cpu", "pass", seconds=0.25),
               conf.Result("k.add", "fp16", "cpu", "fail", message),
               conf.Result("k.dot", "fp32", "cpu", "unsupported", "needs shared memory"),
               conf.Result("k.add", "fp32", "nvptx", "skip", "no device")]
    conf.write_junit(tmp_path / "r.xml", 7, targets, results)
    root = ET.parse(tmp_path / "r.xml").getroot()
    cpu, nvptx = root.findall("testsuite")
    assert (cpu.get("name"), cpu.get("tests"), cpu.get("failures"), cpu.get("skipped")) == ("conformance.cpu", "3", "1", "1")
    assert nvptx.get("skipped") == "1" and nvptx.find("testcase/skipped").get("message") == "no device"
    assert cpu.find("properties/property").attrib == {"name": "seed", "value": "7"}
    cases = cpu.findall("testcase")
    assert [(c.get("classname"), c.get("name")) for c in cases] == [
        ("conformance.cpu.k.add", "fp32"), ("conformance.cpu.k.add", "fp16"), ("conformance.cpu.k.dot", "fp32")]
    assert cases[0].find("*") is None and cases[0].get("time") == "0.250"
    assert cases[1].find("failure").get("message") == message.replace("\x1b", "\ufffd").replace("\x00", "\ufffd")
    assert cases[2].find("skipped").get("message") == "needs shared memory"
