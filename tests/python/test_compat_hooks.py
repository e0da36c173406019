"""Triton's runtime hooks under tessera.compat (knobs.runtime's launch and
jit hooks, kernel-load hooks, knobs.compilation.listener) called by
Tessera's launches and compiles, on the cpu target."""
import numpy as np
import pytest

import tessera
import tessera.compat
import tessera.language as tl
import importlib

jit_module = importlib.import_module("tessera.jit")  # the module, not the decorator


@pytest.fixture
def knobs(cpu_target):
    was = tessera.compat.installed()
    tessera.compat.install(replace=True)
    import triton.knobs as knobs
    yield knobs
    runtime = knobs.runtime
    for chain in (runtime.launch_enter_hook, runtime.launch_exit_hook, runtime.kernel_load_start_hook,
                  runtime.kernel_load_end_hook):
        for call in list(chain.calls):
            chain.remove(call)
    runtime.jit_cache_hook = runtime.jit_post_compile_hook = None
    knobs.compilation.listener = None
    if not was:
        tessera.compat.uninstall()


def make_kernel():
    def scale(x, out, n, FACTOR: tl.constexpr, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        tl.store(out + offs, tl.load(x + offs, mask=offs < n) * FACTOR, mask=offs < n)
    return tessera.jit(scale, launch_metadata=lambda grid, metadata, args: {"name": "scale_%d" % args["n"],
                                                                              "blocks": grid[0]})


def test_launch_hooks_see_each_launch_and_leave_the_fast_lane_when_removed(knobs):
    kernel = make_kernel()
    seen = []
    enter = lambda metadata: seen.append(("enter", dict(metadata.get())))
    leave = lambda metadata: seen.append(("exit", metadata.get()["name"]))
    knobs.runtime.launch_enter_hook.add(enter)
    knobs.runtime.launch_exit_hook.add(leave)
    assert jit_module.launch_hook is not None
    x = np.random.default_rng(1).standard_normal(37).astype(np.float32)
    out = np.full(37, np.nan, np.float32)
    kernel[(3,)](x, out, 37, FACTOR=2.0, BLOCK=16)
    np.testing.assert_allclose(out, 2 * x, rtol=1e-6)
    assert [s[0] for s in seen] == ["enter", "exit"]
    assert seen[0][1]["name"] == "scale_37" and seen[0][1]["blocks"] == 3 and "stream" in seen[0][1]
    assert seen[1] == ("exit", "scale_37")
    knobs.runtime.launch_enter_hook.remove(enter)
    knobs.runtime.launch_exit_hook.remove(leave)
    assert jit_module.launch_hook is None  # no hook left: launches keep the fast lane
    kernel[(3,)](x, out, 37, FACTOR=2.0, BLOCK=16)
    assert len(seen) == 2


def test_a_plain_function_as_the_enter_hook(knobs):
    kernel, seen = make_kernel(), []
    knobs.runtime.launch_enter_hook = lambda metadata: seen.append(metadata.get()["name"])
    try:
        x = np.ones(8, np.float32)
        kernel[(1,)](x, np.zeros(8, np.float32), 8, FACTOR=1.0, BLOCK=8)
        assert seen == ["scale_8"]
    finally:
        knobs.runtime.launch_enter_hook = knobs.HookChain()
    assert jit_module.launch_hook is None


def test_jit_hooks_and_the_listener_are_told_of_each_compile(knobs):
    kernel, told, heard = make_kernel(), [], []
    knobs.runtime.jit_cache_hook = lambda **kw: told.append(("cache", kw)) and False
    knobs.runtime.jit_post_compile_hook = lambda **kw: told.append(("post", kw))
    knobs.compilation.listener = lambda **kw: heard.append(kw)
    x, out = np.ones(16, np.float32), np.zeros(16, np.float32)
    kernel[(1,)](x, out, 16, FACTOR=3.0, BLOCK=16)
    kernel[(1,)](x, out, 16, FACTOR=3.0, BLOCK=16)  # cached: no compile, no hook
    assert [t[0] for t in told] == ["cache", "post"]
    post = told[1][1]
    assert post["fn"].jit_function is kernel and post["fn"].name == "make_kernel.<locals>.scale"
    assert post["repr"].startswith("make_kernel.<locals>.scale[num_warps=") and "x: *fp32" in post["repr"]
    assert post["compile"]["num_ctas"] == 1 and post["compile"]["is_warmup"] is False
    assert not post["is_manual_warmup"] and post["already_compiled"] and not told[0][1]["already_compiled"]
    assert '"name": ' in post["compile"]["specialization_data"]
    assert len(heard) == 1 and heard[0]["times"].total >= 0 and isinstance(heard[0]["cache_hit"], bool)
    np.testing.assert_allclose(out, 3.0)
    assert post["compile"]["enable_fp_fusion"] is True and "enable_fp_fusion=True" in post["repr"]
    told.clear()
    kernel[(1,)](x, out, 16, FACTOR=3.0, BLOCK=16, enable_fp_fusion=False)  # another compile, told so
    assert [t[0] for t in told] == ["cache", "post"] and told[1][1]["compile"]["enable_fp_fusion"] is False
    assert "enable_fp_fusion=False" in told[1][1]["repr"]


def test_a_cache_hook_that_answers_true_declines_the_compile(knobs):
    kernel = make_kernel()
    knobs.runtime.jit_cache_hook = lambda **kw: True
    x = np.ones(16, np.float32)
    assert kernel.warmup(x, x, 16, FACTOR=1.0, BLOCK=16, grid=(1,)) is None
    with pytest.raises(RuntimeError, match="declined to compile"):
        kernel[(1,)](x, x, 16, FACTOR=1.0, BLOCK=16)
    knobs.runtime.jit_cache_hook = None
    assert kernel.warmup(x, x, 16, FACTOR=1.0, BLOCK=16, grid=(1,)) is not None


def test_kernel_load_hooks_bracket_a_compile(knobs):
    kernel, calls = make_kernel(), []
    knobs.runtime.kernel_load_start_hook.add(lambda module, function, name, group, h: calls.append(("start", module)))
    knobs.runtime.kernel_load_end_hook.add(lambda module, function, name, group, h: calls.append(("end", name)))
    kernel.warmup(np.ones(4, np.float32), np.ones(4, np.float32), 4, FACTOR=1.0, BLOCK=4, grid=(1,))
    assert calls[0] == ("start", None) and calls[1][0] == "end" and calls[1][1]


def test_the_stages_hook_is_refused(knobs):
    with pytest.raises(NotImplementedError, match="MLIR pipeline"):
        knobs.runtime.add_stages_inspection_hook = lambda *a: None
    knobs.runtime.add_stages_inspection_hook = None


def test_launch_hooks_compose_with_the_profiler(knobs, tmp_path, monkeypatch):
    from tessera import profiler
    monkeypatch.chdir(tmp_path)
    kernel, seen = make_kernel(), []
    knobs.runtime.launch_enter_hook.add(seen.append)
    session = profiler.start("both", hook="triton")
    x = np.ones(8, np.float32)
    kernel[(1,)](x, np.zeros(8, np.float32), 8, FACTOR=1.0, BLOCK=8)
    profiler.finalize(session)
    assert len(seen) == 1 and "scale_8" in (tmp_path / "both.hatchet").read_text()
    knobs.runtime.launch_enter_hook.remove(seen.append)
    assert jit_module.launch_hook is None


def test_chains_and_lazy_dicts():
    from tessera.compat.hooks import HookChain, LazyDict, CompileTimes
    order = []
    chain = HookChain(reversed=True)
    chain.add(lambda: order.append(1))
    chain.add(lambda: order.append(2))
    chain()
    assert order == [2, 1]
    d = LazyDict({"a": 1})
    d.add(lambda x: {"b": x}, (5,))
    assert d.get() == {"a": 1, "b": 5}
    assert CompileTimes(1, [("a", 2), ("b", 3)], 4).total == 10


def test_knob_types(knobs, monkeypatch, tmp_path):
    monkeypatch.setenv("TRITON_CACHE_MANAGER", "triton.runtime.cache:FileCacheManager")
    assert knobs.cache.manager_class.__name__ == "FileCacheManager"
    monkeypatch.setenv("TRITON_CACHE_MANAGER", "collections:OrderedDict")
    with pytest.raises(RuntimeError, match="not of type 'CacheManager'"):
        knobs.cache.manager_class
    monkeypatch.setenv("TRITON_CACHE_MANAGER", "collections")
    with pytest.raises(RuntimeError, match="MODULE:CLASS"):
        knobs.cache.manager_class
    fake = tmp_path / "ptxas"
    fake.write_text("#!/bin/sh\necho 'Cuda compilation tools, release 12.8, V12.8.93'\n")
    fake.chmod(0o755)
    monkeypatch.setenv("TRITON_PTXAS_PATH", str(fake))
    tool = knobs.nvidia.ptxas
    assert isinstance(tool, knobs.NvidiaTool) and (tool.path, tool.version) == (str(fake), "12.8")
    monkeypatch.setenv("PATH", str(tmp_path / "nothing"))
    monkeypatch.setenv("TRITON_NVDISASM_PATH", str(tmp_path / "missing"))
    if not any(__import__("os").path.exists(p) for p in ("/usr/local/cuda/bin/nvdisasm", "/opt/cuda/bin/nvdisasm")):
        with pytest.raises(RuntimeError, match="Cannot find nvdisasm"):
            knobs.nvidia.nvdisasm
    assert knobs.env_str_callable_default("X_TESSERA_UNSET", lambda: "made").get() == "made"


def test_runtime_jit_and_compiler_names(knobs):
    import triton
    from triton.runtime.jit import JitFunctionInfo, serialize_specialization_data
    from triton.compiler import LazyDict
    import json
    info = JitFunctionInfo("m", "f", None)
    assert (info.module, info.name, info.jit_function) == ("m", "f", None)
    text = serialize_specialization_data("m.f", {"x": "*fp32"}, {(1,): 16}, {}, {"num_warps": 4}, ("k",))
    data = json.loads(text)
    assert data["name"] == "m.f" and data["signature"] == {"x": "*fp32"} and data["constant_vals"] == [16]
    assert data["options"] == {"num_warps": 4} and LazyDict({"a": 1}).get() == {"a": 1}

    @triton.must_use_result("the result is the point")
    def f():
        return 1
    assert f._must_use_result == "the result is the point"


def test_preload_compiles_what_a_hook_was_told(knobs):
    kernel, data = make_kernel(), []
    knobs.runtime.jit_cache_hook = lambda **kw: data.append(kw["compile"]["specialization_data"]) and False
    x, out = np.ones(16, np.float32), np.zeros(16, np.float32)
    first = kernel.warmup(x, out, 16, FACTOR=2.0, BLOCK=16, grid=(1,))
    knobs.runtime.jit_cache_hook = None
    assert len(data) == 1 and len(first.hash) == 64
    for cache in kernel.device_caches.values():
        cache[0].clear()  # a view: the kernels are gone
    assert not kernel.cache
    again = kernel.preload(data[0])
    assert again.hash == first.hash and len(kernel.cache) == 1
    counted = []
    knobs.runtime.jit_cache_hook = lambda **kw: counted.append(kw) and False
    kernel[(1,)](x, out, 16, FACTOR=2.0, BLOCK=16)  # the preloaded kernel: nothing compiles
    knobs.runtime.jit_cache_hook = None
    assert not counted
    np.testing.assert_allclose(out, 2.0)

    def other(x, out, n, FACTOR: tl.constexpr, BLOCK: tl.constexpr):
        pass
    with pytest.raises(RuntimeError, match="Specialization data is for .*scale but trying to preload for .*other"):
        tessera.jit(other).preload(data[0])
