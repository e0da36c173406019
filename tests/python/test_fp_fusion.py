"""enable_fp_fusion (Triton's launch option): by default a mul feeding an add
may become an fma; enable_fp_fusion=False keeps them apart in the PTX (no
contract flag for LLVM) and in SPIR-V (NoContraction on each float mul), on
launches, warmup and compile_only alike, and a kernel compiled one way is
never reused for the other."""
import re

import numpy as np
import pytest

import tessera
import tessera.language as tl
from tessera import _C


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
