"""tessera.profiler (Triton's proton API) and its viewer: scopes, launches
named by launch_metadata, activate/deactivate, the hatchet file."""
import json
import sys

import numpy as np
import pytest

import tessera
import tessera.language as tl
import tessera.profiler as proton
import tessera.profiler.viewer as viewer


def _metadata(grid, kernel, args):
    return {"name": "%s [N=%d]" % (kernel.name, args["n"]), "flops32": 2.0 * args["n"], "bytes": 12 * args["n"]}


@tessera.jit(launch_metadata=_metadata)
def _axpy(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, 2.0 * tl.load(x_ptr + offs, mask=offs < n) + tl.load(y_ptr + offs, mask=offs < n),
             mask=offs < n)


@tessera.autotune(configs=[tessera.Config({"BLOCK": 64}), tessera.Config({"BLOCK": 128})], key=["n"])
@tessera.jit(launch_metadata=_metadata)
def _axpy_tuned(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) + 1.0, mask=offs < n)


def test_scopes_and_launches_make_a_tree_with_counts_times_and_rates(tmp_path, cpu_target):
    n = 1000
    x = np.random.default_rng().standard_normal(n).astype(np.float32)
    y, z = np.zeros(n, np.float32), np.full(n, np.nan, np.float32)
    grid = (tessera.cdiv(n, 128),)
    _axpy[grid](x, y, n, BLOCK=128)                 # before any session: not recorded
    _axpy_tuned[lambda meta: (tessera.cdiv(n, meta["BLOCK"]),)](x, z, n)  # tuned before profiling
    session = proton.start(str(tmp_path / "prof"), hook="triton")
    for _ in range(3):
        with proton.scope("outer", {"flops32": 10.0}):
            _axpy[grid](x, y, n, BLOCK=128)
    proton.deactivate(session)
    _axpy[grid](x, y, n, BLOCK=128)                 # deactivated: not recorded
    proton.activate(session)
    _axpy_tuned[lambda meta: (tessera.cdiv(n, meta["BLOCK"]),)](x, z, n)
    proton.finalize()
    jit_module = sys.modules["tessera.jit"]
    assert jit_module.launch_hook is None             # no session left: launches are plain again
    np.testing.assert_allclose(y, 10 * x.astype(np.float64), rtol=1e-5)  # every launch ran once
    np.testing.assert_allclose(z, x.astype(np.float64) + 1, rtol=1e-6)

    data = json.load(open(tmp_path / "prof.hatchet"))
    root = data[0]
    names = {c["frame"]["name"]: c for c in root["children"]}
    assert set(names) == {"outer", "_axpy_tuned [N=1000]"}
    outer = names["outer"]
    assert outer["metrics"]["count"] == 3 and outer["metrics"]["flops32"] == 30.0
    (inner,) = outer["children"]
    assert inner["frame"]["name"] == "_axpy [N=1000]"
    assert inner["metrics"]["count"] == 3 and inner["metrics"]["flops32"] == 6000.0
    assert 0 < inner["metrics"]["time (ns)"] <= outer["metrics"]["time (ns)"]

    tree, metrics = viewer.parse(["time/ms", "count", "gflop32/s", "gbyte/s"], str(tmp_path / "prof.hatchet"))
    frame = next(c for c in tree.children if c.name == "outer").children[0]
    assert frame.derived("count") == 3
    seconds = frame.metrics["time (ns)"] / 1e9
    assert frame.derived("gflop32/s") == pytest.approx(6000.0 / seconds / 1e9)
    assert frame.derived("gbyte/s") == pytest.approx(36000.0 / seconds / 1e9)
    assert frame.derived("time/ms") == pytest.approx(seconds * 1e3)
    assert tree.derived("count") == 4                 # the root sums its children
    out = tmp_path / "tree.txt"
    with open(out, "w") as f:
        viewer.print_tree(tree, metrics, file=f)
    text = out.read_text()
    assert "time/ms  count  gflop32/s  gbyte/s  name" in text and "└─ " in text and "_axpy [N=1000]" in text
    with pytest.raises(ValueError, match="unknown metric 'tflops'"):
        viewer.parse(["tflops"], str(tmp_path / "prof.hatchet"))
    kept, _ = viewer.parse(["count"], str(tmp_path / "prof.hatchet"), exclude="tuned")
    assert [c.name for c in kept.children] == ["outer"]


def test_misuse_is_an_error_and_launches_outside_sessions_are_plain(cpu_target):
    with pytest.raises(ValueError, match="hook must be None or 'triton'"):
        proton.start("x", hook="cupti")
    with pytest.raises(RuntimeError, match="without an open scope"):
        proton.exit_scope()
    with pytest.raises(ValueError, match="no session 99"):
        proton.activate(99)
    jit_module = sys.modules["tessera.jit"]
    assert jit_module.launch_hook is None
