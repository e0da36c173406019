"""The bench's autotuner (tessera.bench.workloads.autotune): configs timed
in interleaved rounds and ranked by their median, so one lucky round of a
slow config or a clock drifting through the list decides nothing."""

import pytest

from tessera.bench import workloads as W


def _tuner(times_by_config, log, fail=()):
    """launch(cfg) whose runs `log` their config; time_ms reads the next of
    that config's scripted times."""
    scripts = {cfg: list(ts) for cfg, ts in times_by_config.items()}

    def launch(cfg):
        def run():
            if cfg in fail:
                raise RuntimeError("%s does not compile\nsecond line" % cfg)
            log.append(cfg)
        return run

    def time_ms(fn):
        log.append(("timed", fn.config))
        return scripts[fn.config].pop(0)
    return launch, time_ms


def test_the_median_of_rounds_ranks_not_one_lucky_round():
    log = []
    # "b" is faster in one round only (as the first config timed on a cool
    # GPU can be); "a" is faster in the other four.
    launch, time_ms = _tuner({"a": [1.0, 1.0, 1.0, 1.0, 1.0], "b": [0.5, 1.2, 1.2, 1.2, 1.2]}, log)
    best = W.autotune(time_ms, launch, ["a", "b"])
    assert best.config == "a"
    best()
    assert log[-1] == "a"


def test_rounds_interleave_the_configs():
    log = []
    launch, time_ms = _tuner({c: [1.0] * 3 for c in "xyz"}, log)
    W.autotune(time_ms, launch, ["x", "y", "z"], rounds=3)
    timed = [e[1] for e in log if isinstance(e, tuple)]
    assert timed == ["x", "y", "z"] * 3
    assert log[:3] == ["x", "y", "z"]  # each compiled (run once) before any timing


def test_configs_that_fail_are_skipped_and_all_failing_is_an_error():
    log = []
    launch, time_ms = _tuner({"ok": [2.0] * 5, "bad": []}, log, fail={"bad"})
    assert W.autotune(time_ms, launch, ["bad", "ok"]).config == "ok"
    launch, time_ms = _tuner({"bad": []}, log, fail={"bad"})
    with pytest.raises(RuntimeError, match=r"no configuration ran \(last: bad: bad does not compile\)"):
        W.autotune(time_ms, launch, ["bad"])


def test_a_single_config_is_not_timed():
    log = []
    launch, time_ms = _tuner({"only": []}, log)
    assert W.autotune(time_ms, launch, ["only"]).config == "only"
    assert log == ["only"]


def test_compile_time_measures_the_largest_bf16_matmul_winner_it_can_launch():
    from tessera.bench.compile_time import DEFAULT_CONFIG, winning_config

    def row(shape, dtype, cfg, workload="matmul"):
        return {"workload": workload, "shape": shape, "dtype": dtype, "configs": {"tessera": cfg, "triton": [1]}}
    rows = [row("4096x4096x4096", "bf16", [128, 128, 64, 4, 4, "pointers"]),
            row("8192x8192x8192", "bf16", [128, 256, 64, 8, 3, "persistent-ws"]),
            row("8192x8192x8192", "fp16", [64, 64, 64, 4, 4, "pointers"]),
            row("16384x64x128", "bf16", [64, 64, 64, 4, 2, "pointers"], workload="attention"),
            {"workload": "matmul", "shape": "8192x8192x8192", "dtype": "bf16", "skip": "no device"}]
    assert winning_config(rows) == (128, 256, 64, 8, 3, "persistent-ws")
    rows[1]["configs"]["tessera"] = [128, 256, 64, 8, 3, "descriptors-ws"]
    assert winning_config(rows) == (128, 256, 64, 8, 3, "descriptors-ws")
    # A kind the child has no launcher for: the largest winner it has is measured.
    rows[1]["configs"]["tessera"] = [128, 256, 64, 8, 3, "split-k"]
    assert winning_config(rows) == (128, 128, 64, 4, 4, "pointers")
    assert winning_config(rows[2:]) is None
    assert DEFAULT_CONFIG[-1] == "persistent-ws"
