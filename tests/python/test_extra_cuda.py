"""tl.extra.cuda beyond libdevice (globaltimer, smid, num_threads,
num_warps, gdc_wait, gdc_launch_dependents), tl.extra.hip's memrealtime,
and language functions passed as tl.constexpr arguments, as Triton's tests
pass them."""
import os

import numpy as np
import pytest

import tessera
import tessera.language as tl
from tessera import _C
from tessera.language.extra import libdevice


@tessera.jit
def _timed(out, clock: tl.constexpr):
    start = clock()
    acc = tl.zeros((128,), tl.float32)
    for i in range(2000):
        acc += tl.sin(acc + i)
    end = clock()
    tl.store(out, start)
    tl.store(out + 1, end)
    tl.store(out + 2, tl.sum(acc).to(tl.int64))


@pytest.mark.parametrize("clock", ["globaltimer", "memrealtime"])
def test_clocks_count_nanoseconds_forward_on_the_host(cpu_target, clock):
    out = np.zeros(3, np.int64)
    import time
    before = time.time_ns()
    _timed[(1,)](out, clock=tl.extra.cuda.globaltimer if clock == "globaltimer" else tl.extra.hip.memrealtime)
    after = time.time_ns()
    assert before <= out[0] <= out[1] <= after


@tessera.jit
def _realtime(out):
    tl.store(out, tl.extra.hip.memrealtime())


@pytest.mark.parametrize("target, instruction", [("amdgpu", "s_memrealtime"), ("nvptx", "%globaltimer")])
def test_memrealtime_reads_the_targets_constant_rate_counter(target, instruction):
    if not _C.target_available(target):
        pytest.skip("no %s code generator in this build" % target)
    asm = _realtime.compile_only(target, np.zeros(1, np.int64)).assembly
    assert asm.count(instruction) == 1, asm


@tessera.jit
def _facts(out, ids):
    n: tl.constexpr = tl.extra.cuda.num_threads()
    w: tl.constexpr = tl.extra.cuda.num_warps()
    tl.extra.cuda.gdc_wait()
    tl.store(out + tl.arange(0, n), tl.full((n,), w, tl.int32))
    tl.store(ids + tl.program_id(0), tl.extra.cuda.smid())
    tl.extra.cuda.gdc_launch_dependents()


def test_launch_facts_and_smid(cpu_target):
    out = np.zeros(512, np.int32)
    ids = np.full(16, -1, np.int32)
    _facts[(16,)](out, ids, num_warps=8)
    # 8 warps of the language's 32 threads; each program stored 8 there.
    np.testing.assert_array_equal(out, [8] * 256 + [0] * 256)
    assert ((ids >= 0) & (ids < os.cpu_count())).all(), ids


def test_nvptx_reads_the_special_registers():
    if not _C.target_available("nvptx"):
        pytest.skip("no nvptx code generator in this build")
    out = np.zeros(3, np.int64)
    ptx = _timed.compile_only("nvptx", out, clock=tl.extra.cuda.globaltimer).assembly
    assert ptx.count("%globaltimer") == 2
    o = np.zeros(512, np.int32)
    ptx = _facts.compile_only("nvptx", o, o).assembly
    assert ptx.count("%smid") == 1
    assert "griddepcontrol.wait;" in ptx and "griddepcontrol.launch_dependents;" in ptx
    # Before sm_90 there are no dependent launches: nothing to emit.
    old = _facts.compile_only("nvptx", o, o, arch="sm_80").assembly
    assert "griddepcontrol" not in old and "%smid" in old


@pytest.mark.parametrize("target", ["amdgpu", "spirv"])
def test_targets_without_the_registers_say_so(target):
    if not _C.target_available(target):
        pytest.skip("no %s code generator in this build" % target)
    out = np.zeros(3, np.int64)
    with pytest.raises(_C.CompilationError, match="'globaltimer' is not available on the %s target" % target):
        _timed.compile_only(target, out, clock=tl.extra.cuda.globaltimer)


@tessera.jit
def _apply(x, out, F: tl.constexpr):
    tl.store(out + tl.arange(0, 8), F(tl.load(x + tl.arange(0, 8))))


@pytest.mark.parametrize("fn,ref", [(tl.sigmoid, lambda v: 1 / (1 + np.exp(-v))), (tl.exp, np.exp),
                                    (libdevice.rcp_rn, lambda v: 1 / v), (tl.math.sqrt, np.sqrt)])
def test_language_functions_as_constexpr_arguments(cpu_target, fn, ref):
    x = np.linspace(0.5, 4, 8).astype(np.float32)
    out = np.full(8, np.nan, np.float32)
    _apply[(1,)](x, out, F=fn)
    np.testing.assert_allclose(out, ref(x.astype(np.float64)), rtol=1e-6)


@tessera.jit
def _double(x):
    return x * 2


def _other_double():
    @tessera.jit
    def _double(x):  # the same name, another function
        return x * 3
    return _double


def test_jit_functions_as_constexpr_arguments(cpu_target):
    x = np.ones(8, np.float32)
    out = np.full(8, np.nan, np.float32)
    _apply[(1,)](x, out, F=_double)
    np.testing.assert_array_equal(out, 2)
    _apply[(1,)](x, out, F=_other_double())
    np.testing.assert_array_equal(out, 3)
    _apply[(1,)](x, out, F=_double)
    np.testing.assert_array_equal(out, 2)
