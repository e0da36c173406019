"""fp_downcast_rounding="rtz" rounds toward zero on every cast to a
narrower float type, as Triton 3.6's semantic.cast accepts it (its NVIDIA
backend lowers fp32 -> fp16 to cvt.rz.f16.f32); only fp32 -> bf16 compiled
before. Against an independent float64 reference (the magnitude truncated to
the destination's ulp) on random values of many binades with NaN, +-inf,
overflow and subnormals, compiled for the CPU and in the interpreter; the
GPU targets compile it."""
import numpy as np
import pytest

import tessera
import tessera.language as tl
from tessera import _C

ml_dtypes = pytest.importorskip("ml_dtypes")

# dtype -> (numpy type, mantissa bits, smallest normal exponent, largest finite, has inf)
FORMATS = {
    tl.float64: (np.float64, 52, -1022, np.finfo(np.float64).max, True),
    tl.float32: (np.float32, 23, -126, float(np.finfo(np.float32).max), True),
    tl.float16: (np.float16, 10, -14, 65504.0, True),
    tl.bfloat16: (ml_dtypes.bfloat16, 7, -126, 3.3895313892515355e38, True),
    tl.float8e5: (ml_dtypes.float8_e5m2, 2, -14, 57344.0, True),
    tl.float8e4nv: (ml_dtypes.float8_e4m3fn, 3, -6, 448.0, False),
}


def toward_zero(x, dst):
    _, mbits, emin, fmax, has_inf = FORMATS[dst]
    a = np.abs(x)
    with np.errstate(all="ignore"):
        e = np.maximum(np.floor(np.log2(np.where(np.isfinite(a) & (a > 0), a, 1.0))), emin)
        ulp = np.exp2(e - mbits)
        q = np.minimum(np.floor(a / ulp) * ulp, fmax)
    q = np.where(np.isinf(a), np.inf if has_inf else fmax, q)
    return np.where(np.isnan(x), np.nan, np.copysign(q, x))


@tessera.jit
def _rtz(x_ptr, out_ptr, DST: tl.constexpr, N: tl.constexpr):
    i = tl.arange(0, N)
    tl.store(out_ptr + i, tl.cast(tl.load(x_ptr + i), DST, fp_downcast_rounding="rtz"))


def _inputs(rng, src, dst, n=2048):
    _, mbits, emin, fmax, _ = FORMATS[dst]
    # across the destination's range, subnormals to past the largest value
    x = rng.standard_normal(n) * np.exp2(rng.integers(emin - mbits - 2, int(np.log2(fmax)) + 3, n))
    with np.errstate(over="ignore"):  # past the source's range: inf
        x = x.astype(FORMATS[src][0]).astype(np.float64)
    specials = [np.nan, np.inf, -np.inf, fmax, -fmax, 0.0, -0.0, 1.0, -1.0]
    x[:len(specials)] = specials
    return x.astype(FORMATS[src][0])


# The interpreter's runs use a kernel of its own (target="interpreter"): a
# kernel once launched compiled keeps a fast launch lane that would run the
# compiled code again inside interpreter.enabled().
_rtz_interpreted = tessera.jit(target="interpreter")(_rtz.fn)

PAIRS = [(tl.float64, tl.float32), (tl.float64, tl.float16), (tl.float64, tl.bfloat16), (tl.float32, tl.float16),
         (tl.float32, tl.bfloat16), (tl.float32, tl.float8e5), (tl.float32, tl.float8e4nv),
         (tl.float16, tl.float8e5), (tl.float16, tl.float8e4nv), (tl.bfloat16, tl.float8e5),
         (tl.float64, tl.float8e4nv)]


@pytest.mark.parametrize("interpreted", [False, True], ids=["cpu", "interpreter"])
@pytest.mark.parametrize("src,dst", PAIRS, ids=lambda d: d.name)
def test_rtz_rounds_toward_zero(cpu_target, interpreted, src, dst):
    rng = np.random.default_rng(hash((src.name, dst.name)) % 2**32)
    x = _inputs(rng, src, dst)
    out = np.zeros(x.size, FORMATS[dst][0])
    (_rtz_interpreted if interpreted else _rtz)[(1,)](x, out, DST=dst, N=x.size)
    got, want = out.astype(np.float64), toward_zero(x.astype(np.float64), dst)
    bad = ~((got == want) & (np.signbit(got) == np.signbit(want)) | np.isnan(got) & np.isnan(want))
    assert not bad.any(), (x[bad][:5], got[bad][:5], want[bad][:5])


def test_the_reviewed_example(cpu_target):
    x = np.array([np.nan, 3e9, -3e9, -2.7, 2.7, -1.0, 300.0, 65520.0], np.float32)
    out = np.zeros(8, np.float16)
    _rtz[(1,)](x, out, DST=tl.float16, N=8)
    np.testing.assert_array_equal(out, np.array([np.nan, 65504, -65504, -2.69921875, 2.69921875, -1, 300, 65504],
                                                np.float16))


@pytest.mark.parametrize("target", ["nvptx", "amdgpu", "spirv"])
def test_rtz_compiles_for_gpus(target):
    if not _C.target_available(target):
        pytest.skip("no %s code generator in this build" % target)
    for src, dst in [(tl.float32, tl.float16), (tl.float64, tl.float32), (tl.float16, tl.float8e5)]:
        x = np.zeros(256, FORMATS[src][0])
        assert len(_rtz.compile_only(target, x, np.zeros(256, FORMATS[dst][0]), DST=dst, N=256).data) > 0
