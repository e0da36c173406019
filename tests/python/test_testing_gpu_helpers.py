"""tessera.testing's GPU-machine helpers, as Triton's: set_gpu_clock locks
and always unlocks the clocks through nvidia-smi; cuda_memcheck reruns the
chosen cases under compute-sanitizer. nvidia-smi and the sanitizer are
replaced here by recorders (this machine has neither)."""
import subprocess
import types

import pytest

import tessera.testing as testing


class Recorder:
    def __init__(self, clocks):
        self.calls, self.clocks = [], clocks

    def check_output(self, command, **kwargs):
        self.calls.append(command[3:])
        if any(c.startswith("--query-gpu=clocks.current.sm") for c in command):
            return b"%d\n" % self.clocks[0]
        if any(c.startswith("--query-gpu=clocks.current.memory") for c in command):
            return b"%d\n" % self.clocks[1]
        return b""


def test_set_gpu_clock_locks_checks_and_unlocks(monkeypatch):
    smi = Recorder((1350, 1215))
    monkeypatch.setattr(subprocess, "check_output", smi.check_output)
    with testing.set_gpu_clock() as (tflops, gbps):
        assert tflops == pytest.approx(1e-6 * 2 * 108 * 4 * 256 * 1350) and gbps == pytest.approx(640 * 2 * 1.215)
    assert smi.calls[:3] == [["-pm", "1"], ["--lock-gpu-clocks=1350,1350"], ["--lock-memory-clocks=1215,1215"]]
    assert smi.calls[-3:] == [["-pm", "0"], ["-rgc"], ["-rmc"]]


def test_set_gpu_clock_unlocks_when_the_clock_did_not_take(monkeypatch):
    smi = Recorder((1980, 1215))
    monkeypatch.setattr(subprocess, "check_output", smi.check_output)
    with pytest.raises(AssertionError, match="must run at 1350 MHz \\(they run at 1980\\)"):
        with testing.set_gpu_clock():
            pass
    assert smi.calls[-3:] == [["-pm", "0"], ["-rgc"], ["-rmc"]]


def test_cuda_memcheck_reruns_only_the_chosen_cases(monkeypatch):
    ran, runs = [], []

    def fake_run(command, **kwargs):
        runs.append(command)
        return types.SimpleNamespace(returncode=0, stdout=b"========= ERROR SUMMARY: 0 errors\n")
    monkeypatch.setattr(subprocess, "run", fake_run)
    monkeypatch.setattr(testing, "_parent_process_name", lambda: "python3")

    @testing.cuda_memcheck(dtype="fp16")
    def test_case(request, dtype):
        ran.append(dtype)

    request = types.SimpleNamespace(node=types.SimpleNamespace(callspec=types.SimpleNamespace(id="fp16")))
    test_case(request=request, dtype="fp32")
    assert ran == ["fp32"] and not runs
    test_case(request=request, dtype="fp16")
    assert ran == ["fp32"] and runs[0][0] == "compute-sanitizer" and runs[0][-1].endswith("::test_case[fp16]")
    monkeypatch.setattr(testing, "_parent_process_name", lambda: "compute-sanitizer")
    test_case(request=request, dtype="fp16")  # inside the sanitizer: the test itself
    assert ran == ["fp32", "fp16"]


def test_cuda_memcheck_fails_on_a_sanitizer_error(monkeypatch):
    monkeypatch.setattr(subprocess, "run", lambda command, **kw: types.SimpleNamespace(
        returncode=0, stdout=b"========= Invalid __global__ read\n========= ERROR SUMMARY: 1 error\n"))
    monkeypatch.setattr(testing, "_parent_process_name", lambda: "python3")

    @testing.cuda_memcheck()
    def test_case(request):
        pass
    request = types.SimpleNamespace(node=types.SimpleNamespace(callspec=types.SimpleNamespace(id="x")))
    with pytest.raises(AssertionError):
        test_case(request=request)
    with pytest.raises(TypeError, match="`request` fixture"):
        test_case()
