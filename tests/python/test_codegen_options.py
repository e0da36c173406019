"""Triton's launch options that change the code. enable_fp_fusion: by
default a mul feeding an add may become an fma; enable_fp_fusion=False keeps
them apart in the PTX (no contract flag for LLVM) and in SPIR-V
(NoContraction on each float mul). maxnreg: PTX's .maxnreg, which ptxas
honours. enable_reflect_ftz: flushing subnormals (nvptx). All on launches,
warmup, compile_only and autotune configs alike, and a kernel compiled one
way is never reused for another."""
import os
import re
import subprocess

import numpy as np
import pytest

import tessera
import tessera.language as tl
from tessera import _C
from tessera.language.extra import libdevice


@tessera.jit
def _mul_add(data, N: tl.constexpr):
    ptrs = data + tl.arange(0, N)
    tl.store(ptrs, tl.load(ptrs) * 1.5 + 1.0)


def _fused(ptx):
    return re.search(r"\b(mad|fma)\.r[nzmp]\.(ftz\.)?f32", ptx) is not None


@pytest.mark.skipif(not _C.target_available("nvptx"), reason="no nvptx code generator in this build")
@pytest.mark.parametrize("option", [None, True, False])
def test_ptx_fuses_unless_told_not_to(option):
    x = np.random.default_rng(1).standard_normal(128).astype(np.float32)
    kw = {} if option is None else {"enable_fp_fusion": option}
    ptx = _mul_add.compile_only("nvptx", x, N=128, **kw).assembly
    assert _fused(ptx) == (option is not False)
    if option is False:
        assert re.search(r"\bmul\.rn\.f32", ptx) and re.search(r"\badd\.rn\.f32", ptx)


@pytest.mark.skipif(not _C.target_available("spirv"), reason="no spirv code generator in this build")
def test_spirv_marks_muls_no_contraction():
    x = np.ones(64, np.float32)
    assert "NoContraction" not in _mul_add.compile_only("spirv", x, N=64).assembly
    assert "NoContraction" in _mul_add.compile_only("spirv", x, N=64, enable_fp_fusion=False).assembly


def test_launches_keep_the_two_kernels_apart(cpu_target):
    # One way then the other then back: each launch gets the kernel compiled
    # as it asked (warmup's kernel is the one a launch would run).
    x = np.random.default_rng(2).standard_normal(64).astype(np.float32)
    kernels = []
    for option in (True, False, True, None, False):
        y = x.copy()
        kw = {} if option is None else {"enable_fp_fusion": option}
        kernels.append(_mul_add[(1,)](y, N=64, **kw))
        np.testing.assert_allclose(y, x * np.float32(1.5) + np.float32(1.0), rtol=1e-6)
        assert _mul_add.warmup(y, N=64, grid=(1,), **kw) is kernels[-1]
    fused, unfused = kernels[0], kernels[1]
    assert fused is not unfused
    assert kernels[2] is fused and kernels[3] is fused and kernels[4] is unfused


@tessera.jit
def _heavy(X, Y, N: tl.constexpr):
    r = tl.arange(0, N)
    x = tl.load(X + r[:, None] * N + r[None, :])
    tl.store(Y + r[:, None] * N + r[None, :], tl.exp(x) * tl.sin(x) + tl.sqrt(tl.abs(x)))


@pytest.mark.skipif(not _C.target_available("nvptx"), reason="no nvptx code generator in this build")
@pytest.mark.parametrize("maxnreg", [None, 40])
def test_maxnreg_caps_ptx_registers(maxnreg, tmp_path):
    x = np.ones((64, 64), np.float32)
    kw = {} if maxnreg is None else {"maxnreg": maxnreg}
    ptx = _heavy.compile_only("nvptx", x, x, N=64, **kw).assembly
    caps = re.findall(r"\.visible \.entry [^{;]*\.maxnreg (\d+)", ptx)
    assert caps == ([] if maxnreg is None else [str(maxnreg)])
    ptxas = "/usr/local/cuda/bin/ptxas"
    if os.path.exists(ptxas):
        (tmp_path / "k.ptx").write_text(ptx)
        out = subprocess.run([ptxas, "-arch", "sm_90a", "-v", str(tmp_path / "k.ptx"), "-o", os.devnull],
                             capture_output=True, text=True, check=True)
        used = int(re.search(r"Used (\d+) registers", out.stderr).group(1))
        assert used == maxnreg if maxnreg else used > 40  # uncapped, this kernel takes more


def test_maxnreg_on_launches_and_configs(cpu_target):
    # The host target has no register cap: it compiles and runs the same,
    # but a kernel asked with a cap is kept apart from one without.
    x = np.random.default_rng(3).random((16, 16)).astype(np.float32)
    want = np.exp(x) * np.sin(x) + np.sqrt(np.abs(x))
    kernels = []
    for cap in (None, 32, None):
        y = np.zeros_like(x)
        kernels.append(_heavy[(1,)](x, y, N=16, **({} if cap is None else {"maxnreg": cap})))
        np.testing.assert_allclose(y, want, rtol=1e-5)
    assert kernels[0] is kernels[2] and kernels[1] is not kernels[0]
    tuned = tessera.autotune([tessera.Config({}, num_warps=4, maxnreg=32)], key=[])(_heavy)
    y = np.zeros_like(x)
    tuned[(1,)](x, y, N=16)
    np.testing.assert_allclose(y, want, rtol=1e-5)
    with pytest.raises(ValueError, match="maxnreg must be a non-negative int"):
        _heavy[(1,)](x, y, N=16, maxnreg=-1)


@tessera.jit
def _exp2(data):
    ptrs = data + tl.arange(0, 128)
    tl.store(ptrs, tl.math.exp2(tl.load(ptrs)))


@tessera.jit
def _libdevice_exp2(data):
    ptrs = data + tl.arange(0, 128)
    tl.store(ptrs, libdevice.exp2(tl.load(ptrs)))


@pytest.mark.skipif(not _C.target_available("nvptx"), reason="no nvptx code generator in this build")
@pytest.mark.parametrize("option", [None, False, True])
def test_reflect_ftz_flushes_libdevice_only_when_asked(option):
    # Triton's enable_reflect_ftz is libdevice's FTZ paths; Tessera keeps
    # subnormals there unless asked (Triton's default is to flush). The
    # approximate tl.math.exp2 is the hardware's ex2, which flushes (.ftz,
    # Triton's default) whatever the option.
    x = np.full(128, -127.0, np.float32)
    kw = {} if option is None else {"enable_reflect_ftz": option}
    assert re.search(r"ex2\.approx\.ftz\.f32", _exp2.compile_only("nvptx", x, **kw).assembly)
    accurate = _libdevice_exp2.compile_only("nvptx", x, **kw).assembly
    plain = _libdevice_exp2.compile_only("nvptx", x).assembly
    assert (accurate != plain) == bool(option), accurate


def test_reflect_ftz_keeps_its_own_kernel(cpu_target):
    x = np.full(128, -3.0, np.float32)
    plain = _exp2.warmup(x, grid=(1,))
    assert _exp2.warmup(x, grid=(1,), enable_reflect_ftz=True) is not plain
    assert _exp2.warmup(x, grid=(1,), enable_reflect_ftz=False) is plain
