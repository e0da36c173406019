"""libdevice's argument and result types against Triton 3.6's libdevice
(triton/language/extra/cuda/libdevice.py): mulhi is defined on two int32,
uint32, int64 or uint64 of one type only (8- and 16-bit integers gave the
unsigned high half, so mulhi(int8(-1), int8(1)) was 0); isnan, isinf, finitef
and isfinited give int1 (Triton casts __nv_isnanf's int32 to int1); jn and yn
on fp16 and bf16 compute in fp32 and round back like the rest of libdevice
here (they returned fp32; Triton's take fp32 and fp64 only). Compiled for the
CPU and, where the interpreter can run them, interpreted."""
import numpy as np
import pytest

import tessera
import tessera.language as tl
from tessera import _C
from tessera.language.extra import libdevice as ld

ml_dtypes = pytest.importorskip("ml_dtypes")

PARAMS = pytest.mark.parametrize("interpreted", [False, True], ids=["cpu", "interpreter"])


# The interpreter's runs use kernels of their own (target="interpreter"): a
# kernel once launched compiled keeps a fast launch lane that would run the
# compiled code again inside interpreter.enabled().
_INTERPRETED = {}


def _interpreted(kernel):
    if kernel.fn not in _INTERPRETED:
        _INTERPRETED[kernel.fn] = tessera.jit(target="interpreter")(kernel.fn)
    return _INTERPRETED[kernel.fn]


def _run(kernel, interpreted, *args, **kw):
    (_interpreted(kernel) if interpreted else kernel)[(1,)](*args, **kw)


@tessera.jit
def _mulhi(x_ptr, y_ptr, out_ptr, N: tl.constexpr):
    i = tl.arange(0, N)
    r = ld.mulhi(tl.load(x_ptr + i), tl.load(y_ptr + i))
    tl.static_assert(r.dtype == x_ptr.dtype.element_ty)
    tl.store(out_ptr + i, r)


@PARAMS
@pytest.mark.parametrize("dtype", [np.int32, np.uint32, np.int64, np.uint64])
def test_mulhi_is_the_high_half_of_the_exact_product(cpu_target, interpreted, dtype):
    rng = np.random.default_rng(np.dtype(dtype).itemsize + np.issubdtype(dtype, np.signedinteger))
    info = np.iinfo(dtype)
    x, y = (rng.integers(info.min, info.max, 256, dtype=dtype, endpoint=True) for _ in range(2))
    x[:4], y[:4] = [info.min, info.max, 0, 1], [info.max, info.min, info.min, info.min]
    out = np.zeros_like(x)
    _run(_mulhi, interpreted, x, y, out, N=256)
    bits = info.bits
    want = [(int(a) * int(b)) >> bits for a, b in zip(x, y)]  # floor: the high half, signed as the type
    np.testing.assert_array_equal(out, np.array([w & ((1 << bits) - 1) for w in want], np.uint64).astype(dtype))


@PARAMS
@pytest.mark.parametrize("dtypes", [(np.int8, np.int8), (np.int16, np.int16), (np.uint8, np.uint8),
                                    (np.uint16, np.uint16), (np.int32, np.uint32), (np.uint64, np.int64)],
                         ids=lambda d: "%s-%s" % (np.dtype(d[0]).name, np.dtype(d[1]).name))
def test_mulhi_refuses_what_triton_does_not_define(cpu_target, interpreted, dtypes):
    x, y = np.full(4, -1).astype(dtypes[0]), np.ones(4, dtypes[1])
    error = Exception if interpreted else _C.CompileTimeAssertionFailure
    names = tuple(np.dtype(d).name for d in dtypes)  # numpy's integer names are tl's
    with pytest.raises(error, match="libdevice.mulhi takes two int32, uint32, int64 or uint64 values of one type "
                                    r"\(as Triton's\), found %s and %s" % names):
        _run(_mulhi, interpreted, x, y, np.zeros(4, dtypes[0]), N=4)


@tessera.jit
def _classify(x_ptr, nan_ptr, inf_ptr, fin_ptr, N: tl.constexpr):
    i = tl.arange(0, N)
    x = tl.load(x_ptr + i)
    nan, inf = ld.isnan(x), ld.isinf(x)
    fin = ld.finitef(x) if x.dtype == tl.float32 else ld.isfinited(x)
    tl.static_assert(nan.dtype == tl.int1 and inf.dtype == tl.int1 and fin.dtype == tl.int1, "Triton's are int1")
    tl.store(nan_ptr + i, nan)
    tl.store(inf_ptr + i, inf)
    tl.store(fin_ptr + i, fin)


@PARAMS
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_classification_gives_int1(cpu_target, interpreted, dtype):
    rng = np.random.default_rng(2)
    x = (rng.standard_normal(64) * 1e3).astype(dtype)
    x[rng.random(64) < 0.2] = np.nan
    x[rng.random(64) < 0.2] = np.inf
    x[rng.random(64) < 0.1] = -np.inf
    outs = [np.ones(64, np.bool_) for _ in range(3)]
    _run(_classify, interpreted, x, *outs, N=64)
    for got, want in zip(outs, (np.isnan(x), np.isinf(x), np.isfinite(x))):
        np.testing.assert_array_equal(got, want)


@tessera.jit
def _bessel(n_ptr, x_ptr, j_ptr, y_ptr, N: tl.constexpr):
    i = tl.arange(0, N)
    n, x = tl.load(n_ptr + i), tl.load(x_ptr + i)
    j, y = ld.jn(n, x), ld.yn(n, x)
    tl.static_assert(j.dtype == x.dtype and y.dtype == x.dtype, "jn and yn keep x's type")
    tl.store(j_ptr + i, j)
    tl.store(y_ptr + i, y)


@pytest.mark.parametrize("dtype", [np.float16, ml_dtypes.bfloat16], ids=["fp16", "bf16"])
def test_jn_and_yn_of_16_bit_floats_are_the_fp32_results_rounded(cpu_target, dtype):
    rng = np.random.default_rng(8)
    n = rng.integers(0, 6, 128).astype(np.int32)
    x = rng.uniform(0.5, 30, 128).astype(dtype)
    j, y = np.zeros(128, dtype), np.zeros(128, dtype)
    _bessel[(1,)](n, x, j, y, N=128)
    j32, y32 = np.zeros(128, np.float32), np.zeros(128, np.float32)
    _bessel[(1,)](n, x.astype(np.float32), j32, y32, N=128)
    np.testing.assert_array_equal(j.astype(np.float64), j32.astype(dtype).astype(np.float64))
    np.testing.assert_array_equal(y.astype(np.float64), y32.astype(dtype).astype(np.float64))
    mpmath = pytest.importorskip("mpmath")
    want = np.array([float(mpmath.besselj(int(k), float(v))) for k, v in zip(n, x)])
    assert np.all(np.abs(j32 - want) <= 1e-5 * np.maximum(np.abs(want), 1.0))
