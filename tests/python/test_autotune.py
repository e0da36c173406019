"""autotune, Config, heuristics and testing.do_bench, with launches that take
a known time (a fake compile whose kernels sleep by BLOCK)."""

import os
import sys
import threading
import time

import numpy as np
import pytest

import tessera
import tessera.language as tl
from tessera import _C


class SleepyKernel:
    def __init__(self, seconds, log):
        self.seconds, self.log = seconds, log

    def launch_ctypes(self, grid, args, stream=None):
        self.log.append(grid)
        time.sleep(self.seconds)


@pytest.fixture
def sleepy(monkeypatch):
    log, compiles = [], []

    def compile(source, entry, signature, constexprs, **kw):
        cx = dict(constexprs)
        compiles.append(cx)
        return SleepyKernel({"16": 0.004, "32": 0.0005, "64": 0.002}.get(cx.get("BLOCK"), 0.0), log)

    monkeypatch.setattr(_C, "compile", compile)
    return log, compiles


def make_kernel(**tune):
    @tessera.autotune(configs=[tessera.Config({"BLOCK": b}, num_warps=4) for b in (16, 32, 64)],
                      key=["n"], warmup=1, rep=5, **tune)
    @tessera.jit
    def k(x_ptr, n, BLOCK: tl.constexpr):
        pass
    return k


def test_autotune_times_configs_and_caches_the_choice(sleepy):
    log, compiles = sleepy
    k = make_kernel()
    x = np.zeros(8, np.float32)
    k[lambda meta: (tessera.cdiv(meta["n"], meta["BLOCK"]),)](x, 256)
    assert k.best_config.kwargs == {"BLOCK": 32}
    assert len(k.bench_times) == 3
    assert log[-1] == (8, 1, 1)                 # the grid saw the chosen BLOCK
    runs = len(log)
    k[(1,)](x, 256)                              # same key: no tuning
    assert len(log) == runs + 1
    k[(1,)](x, 512)                              # new key: tuned again
    assert len(log) > runs + 5
    assert {c["BLOCK"] for c in compiles} == {"16", "32", "64"}


def test_cache_results_keeps_the_timings_on_disk_for_the_next_process(sleepy, tmp_path, monkeypatch):
    # Triton's cache_results: a second autotuner over the same kernel (a new
    # process) launches the best configuration without timing any.
    log, _ = sleepy
    monkeypatch.setenv("TESSERA_CACHE_DIR", str(tmp_path))
    x = np.zeros(8, np.float32)
    first = make_kernel(cache_results=True)
    first[(1,)](x, 256)
    assert first.best_config.kwargs == {"BLOCK": 32} and len(log) > 3
    stored = list((tmp_path / "autotune").iterdir())
    assert len(stored) == 1 and stored[0].name.startswith("k.")
    second = make_kernel(cache_results=True)
    runs = len(log)
    second[(1,)](x, 256)
    assert len(log) == runs + 1 and second.best_config.kwargs == {"BLOCK": 32}  # one launch, nothing timed
    third = make_kernel(cache_results=True)
    third[(1,)](x, 512)                          # another tuning key: timed, and stored beside
    assert len(log) > runs + 4 and len(list((tmp_path / "autotune").iterdir())) == 2
    monkeypatch.setenv("TRITON_CACHE_AUTOTUNING", "1")
    fourth = make_kernel()                       # the environment asks for it too
    runs = len(log)
    fourth[(1,)](x, 512)
    assert len(log) == runs + 1


def test_reset_to_zero_and_hooks(sleepy):
    k = make_kernel(reset_to_zero=["x_ptr"])
    x = np.ones(8, np.float32)
    k[(1,)](x, 3)
    assert not x.any()
    # As Triton's: a user's pre_hook(nargs, reset_only) replaces the default
    # one (which zeroes reset_to_zero), and is also called once after tuning
    # with reset_only=True.
    seen = []
    k = make_kernel(reset_to_zero=["x_ptr"], pre_hook=lambda nargs, reset_only=False: seen.append(
        (nargs.get("BLOCK"), reset_only)))
    x = np.ones(8, np.float32)
    k[(1,)](x, 3)
    assert x.all() and {b for b, reset in seen if not reset} == {16, 32, 64}
    assert [r for _, r in seen].count(True) == 1


def test_restore_value_and_post_hook(sleepy):
    k = make_kernel(restore_value=["x_ptr"])
    x = np.arange(8, dtype=np.float32)
    k[(1,)](x, 3)
    np.testing.assert_array_equal(x, np.arange(8))  # restored after every timed run
    done = []
    k = make_kernel(post_hook=lambda nargs, exception: done.append(exception))
    k[(1,)](x, 5)
    assert done and set(done) == {None}  # after every timed run, with no exception


def test_triton_constructor_and_pruning(sleepy):
    _, compiles = sleepy
    from tessera.autotune import Autotuner

    @tessera.jit
    def k(x_ptr, n, BLOCK: tl.constexpr):
        pass

    seen = {}

    def early(configs, nargs, **kwargs):
        seen["early"] = (sorted(nargs), sorted(kwargs))
        return configs[1:]

    configs = [tessera.Config({"BLOCK": b}) for b in (16, 32, 64, 128)]
    tuner = Autotuner(k, k.arg_names, configs, ["n"], None, None,
                      prune_configs_by={"early_config_prune": early, "top_k": 2,
                                        "perf_model": lambda **kw: -kw["BLOCK"]})
    tuner[(1,)](np.zeros(4, np.float32), 20)
    assert seen["early"] == (["n", "x_ptr"], ["grid"])
    assert sorted(c.kwargs["BLOCK"] for c in tuner.configs_timings) == [64, 128]  # the model's top 2
    assert (20, "float32") in tuner.cache  # Triton's key: the key arguments, then the dtypes


def _counting_tuner(prune_configs_by, timed):
    @tessera.jit
    def k(x_ptr, n, BLOCK: tl.constexpr):
        pass

    def do_bench(call, quantiles):
        call()
        timed.append(True)
        return [1.0] * 3

    configs = [tessera.Config({"BLOCK": b}) for b in (16, 32, 64, 128)]
    return tessera.Autotuner(k, k.arg_names, configs, ["n"], None, None, prune_configs_by=prune_configs_by,
                             do_bench=do_bench)


def test_pruning_to_none_is_an_autotuner_error(sleepy):
    tuner = _counting_tuner({"early_config_prune": lambda configs, nargs, **kw: []}, [])
    with pytest.raises(_C.TesseraError) as e:
        tuner[(1,)](np.zeros(4, np.float32), 20)
    assert str(e.value) == ("Autotuner error: No valid autotuner configs after pruning. `early_config_prune` should "
                            "return at least one config.")
    assert type(e.value).__name__ == "AutotunerError"


@pytest.mark.parametrize("prune", ["early_config_prune", "perf_model"])
def test_one_config_left_after_pruning_is_launched_untimed(sleepy, prune):
    timed = []
    by = {"early_config_prune": lambda configs, nargs, **kw: configs[2:3]} if prune == "early_config_prune" else \
        {"perf_model": lambda **kw: abs(kw["BLOCK"] - 64), "top_k": 1}
    tuner = _counting_tuner(by, timed)
    tuner[(1,)](np.zeros(4, np.float32), 20)
    assert tuner.best_config.kwargs == {"BLOCK": 64} and not timed


def test_a_fractional_top_k_is_of_the_configs_left_and_keeps_one(sleepy):
    timed = []
    tuner = _counting_tuner({"early_config_prune": lambda configs, nargs, **kw: configs[:2],
                             "perf_model": lambda **kw: kw["BLOCK"], "top_k": 0.4}, timed)
    tuner[(1,)](np.zeros(4, np.float32), 20)  # int(2 * 0.4) is 0: one is kept
    assert tuner.best_config.kwargs == {"BLOCK": 16} and not timed


def test_heuristics(sleepy):
    _, compiles = sleepy

    @tessera.heuristics({"BLOCK": lambda args: tessera.next_power_of_2(args["n"])})
    @tessera.jit
    def k(x_ptr, n, BLOCK: tl.constexpr):
        pass

    k[(1,)](np.zeros(4, np.float32), 20)
    assert compiles[-1]["BLOCK"] == "32"


@pytest.mark.parametrize("threads", ["1", "3", None])  # None: unset, as many as cores
def test_configs_compile_side_by_side_before_they_are_timed(sleepy, monkeypatch, threads):
    _, compiles = sleepy
    spans = []
    timed = _C.compile

    def slow_compile(*args, **kw):  # as the real one, the GIL released meanwhile
        start = time.perf_counter()
        time.sleep(0.05)
        kernel = timed(*args, **kw)
        spans.append((start, time.perf_counter(), threading.get_ident()))
        return kernel

    monkeypatch.setattr(_C, "compile", slow_compile)
    monkeypatch.setattr(sys.modules["tessera.autotune"].os, "cpu_count", lambda: 8)
    if threads is None:
        monkeypatch.delenv("TESSERA_AUTOTUNE_THREADS", raising=False)
    else:
        monkeypatch.setenv("TESSERA_AUTOTUNE_THREADS", threads)
    k = make_kernel()
    k[(1,)](np.zeros(8, np.float32), 256)
    assert k.best_config.kwargs == {"BLOCK": 32}
    assert sorted(c["BLOCK"] for c in compiles) == ["16", "32", "64"]  # each once: the timing found them compiled
    overlapping = any(a[0] < b[1] and b[0] < a[1] for a in spans for b in spans if a is not b)
    assert overlapping == (threads != "1")
    assert (len({t for _, _, t in spans}) > 1) == (threads != "1")


def test_autotuned_heuristics_compile_with_their_rules(sleepy, monkeypatch):
    _, compiles = sleepy
    monkeypatch.setattr(sys.modules["tessera.autotune"].os, "cpu_count", lambda: 8)

    @tessera.autotune(configs=[tessera.Config({"BLOCK": b}, num_warps=4) for b in (16, 32, 64)], key=["n"],
                      warmup=1, rep=5)
    @tessera.heuristics({"EVEN": lambda args: args["n"] % 2 == 0})
    @tessera.jit
    def k(x_ptr, n, BLOCK: tl.constexpr, EVEN: tl.constexpr):
        pass

    k[(1,)](np.zeros(8, np.float32), 256)
    assert sorted((c["BLOCK"], c["EVEN"]) for c in compiles) == [("16", "True"), ("32", "True"), ("64", "True")]


def test_config():
    c = tessera.Config({"BLOCK": 128}, num_warps=8, num_stages=2)
    assert c.all_kwargs() == {"BLOCK": 128, "num_warps": 8, "num_ctas": 1, "num_stages": 2}
    with pytest.raises(NotImplementedError, match="ir_override"):
        tessera.Config({}, ir_override="k.ttgir")
    assert "BLOCK: 128" in str(c)


def test_do_bench_modes():
    calls = []
    f = lambda: (calls.append(1), time.sleep(0.001))
    t = tessera.testing.do_bench(f, warmup=2, rep=10)
    assert 0.5 < t < 50 and len(calls) > 5
    lo, med, hi = tessera.testing.do_bench(f, warmup=1, rep=5, quantiles=[0.2, 0.5, 0.8])
    assert lo <= med <= hi
    times = tessera.testing.do_bench(f, rep=5, return_mode="all")
    assert isinstance(times, list) and all(x > 0 for x in times)
    # Modes of one run would be ideal; two runs differ by noise, so only
    # check that each mode is a plausible time for a 1 ms sleep.
    for mode in ("min", "max", "median"):
        assert 0.5 < tessera.testing.do_bench(f, rep=5, return_mode=mode) < 100


def test_do_bench_on_a_gpu_without_events_waits_for_the_device_in_each_call():
    # Launches on a GPU return before the kernel ends: timing them alone
    # would rank configurations by launch cost.
    seen = []
    times = tessera.testing._HostClock(lambda: seen.append("sync")).times(lambda: seen.append("call"), 3)
    assert seen == ["sync", "call", "sync", "call", "sync", "call", "sync"] and len(times) == 3


def test_bench_plots_rows_whose_peers_differ(tmp_path):
    # int8 matmul has torch but no Triton or cuBLAS: the plot leaves gaps
    # (it raised a shape mismatch on the H200 and ended the bench).
    pytest.importorskip("matplotlib")
    from tessera.bench.report import plot
    rows = [{"workload": "matmul", "target": "nvptx", "shape": "8x8x8", "dtype": d, "value": 1.0, "unit": "TFLOP/s",
             "peers": {"triton": 2.0, "cublas": 3.0} if d != "i8" else {"torch": 1.5},
             "ceiling_name": "cuBLAS" if d != "i8" else "torch", "ceiling": 3.0 if d != "i8" else 1.5}
            for d in ["bf16", "i8", "fp16"]]
    paths = plot(rows, str(tmp_path))
    assert paths and all(os.path.getsize(p) > 0 for p in paths)


def test_bench_writes_plain_lines_into_a_log():
    # Progress is rewritten in place only on a terminal: a piped log gets one
    # plain line per step and no control codes.
    import subprocess
    import sys
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(tessera.__file__)))
    r = subprocess.run([sys.executable, "-m", "tessera.bench", "--target", "cpu", "--workload", "vector_add",
                        "--shape", "4096", "--reps", "2", "--no-compile-time"],
                       capture_output=True, text=True, timeout=300, env=env)
    assert r.returncode == 0, r.stderr
    assert "\x1b[" not in r.stderr + r.stdout and "\r" not in r.stderr + r.stdout
    assert "cpu vector_add 4096 fp32 ..." in r.stderr


def test_bench_skips_a_dtype_a_workload_has_no_version_of(tmp_path):
    # --dtype applies to every chosen workload; one that cannot be built in
    # a dtype (attention in fp8) is a row that says so, not a traceback.
    from tessera.bench.__main__ import main
    out = tmp_path / "rows.json"
    main(["--target", "cpu", "--workload", "vector_add", "--shape", "4096", "--dtype", "fp32,fp8", "--reps", "2",
          "--no-compile-time", "--json", str(out)])
    import json
    rows = json.loads(out.read_text())["rows"]
    (fp8,) = [r for r in rows if r.get("dtype") == "fp8"]
    assert fp8["skip"].startswith("no fp8 version of vector_add")
    (fp32,) = [r for r in rows if r.get("dtype") == "fp32"]
    assert "skip" not in fp32 and fp32["max_rel_err"] < 1e-6


@tessera.autotune(configs=[tessera.Config({"BLOCK": 128}), tessera.Config({"BLOCK": 16}), tessera.Config({"BLOCK": 32})],
                  key=["n"])
@tessera.jit
def _asserting(x_ptr, n, LIMIT: tl.constexpr, BLOCK: tl.constexpr):
    tl.static_assert(BLOCK <= LIMIT)   # tutorial 06: BLOCK_N <= HEAD_DIM
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) + 1.0, mask=offs < n)


def test_configurations_a_static_assert_refuses_are_skipped_as_tritons_are(cpu_target):
    x = np.zeros(16, np.float32)
    _asserting[(1,)](x, 16, LIMIT=64)
    assert _asserting.best_config.kwargs["BLOCK"] in (16, 32)
    assert _asserting.configs_timings[[c for c in _asserting.configs if c.kwargs["BLOCK"] == 128][0]][0] == float("inf")
    assert (x > 0).all()
    with pytest.raises(tessera.CompileTimeAssertionFailure, match="static_assert failed") as e:
        _asserting.fn[(1,)](x, 16, LIMIT=64, BLOCK=128)
    assert isinstance(e.value, tessera.CompilationError)
