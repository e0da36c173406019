"""tl.sort, tl.topk and tl.bitonic_merge run Triton's bitonic network
(triton/language/standard.py): each compare-and-swap lets an element take its
partner's value where (element > partner) != (flip ^ it is the pair's upper
one). NaN compares false, so a pair holding a NaN becomes two copies of one
of its values (Triton's sort is no permutation then); topk's pairs of runs
reduce with tl.max / tl.min, which drop NaN. Checked against a numpy model
of that network on random tiles with NaNs, compiled for the CPU and in the
interpreter; without NaN the network is an ordinary sort (np.sort)."""
import numpy as np
import pytest

import tessera
import tessera.language as tl

ml_dtypes = pytest.importorskip("ml_dtypes")


# ---- the reference: Triton's network over the last axis, in numpy

def _exchange(x, bit, flip):
    idx = np.arange(x.shape[-1])
    partner = x[..., idx ^ (1 << bit)]
    upper = ((idx >> bit) & 1).astype(bool)
    with np.errstate(invalid="ignore"):
        return np.where((x > partner) != (flip ^ upper), partner, x)


def _stage(x, stage, flip_bit, descending):
    idx = np.arange(x.shape[-1])
    flip = ((idx >> flip_bit) & 1).astype(bool) if flip_bit >= 0 else np.full(idx.shape, descending)
    for bit in range(stage - 1, -1, -1):
        x = _exchange(x, bit, flip)
    return x


def ref_sort(x, descending=False):
    log_n = x.shape[-1].bit_length() - 1
    for s in range(1, log_n + 1):
        x = _stage(x, s, s if s < log_n else -1, descending)
    return x


def ref_topk(x, k, descending=True):
    log_n, log_k = x.shape[-1].bit_length() - 1, k.bit_length() - 1
    for s in range(1, log_k + 1):
        x = _stage(x, s, s if s < log_n else -1, descending)
    for s in range(log_k + 1, log_n + 1):
        runs = x.reshape(x.shape[:-1] + (x.shape[-1] // (2 * k), 2, k))
        x = (np.fmax if descending else np.fmin)(runs[..., 0, :], runs[..., 1, :]).reshape(x.shape[:-1] + (-1,))
        x = _stage(x, log_k, log_k if s < log_n else -1, descending)
    return x


def ref_bitonic_merge(x, descending=False):
    return _stage(x, x.shape[-1].bit_length() - 1, -1, descending)


# ---- the kernels

@tessera.jit
def _networks(x, srt, dsc, mrg, mrgd, R: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, R)[:, None] * N + tl.arange(0, N)[None, :]
    v = tl.load(x + offs)
    tl.store(srt + offs, tl.sort(v))
    tl.store(dsc + offs, tl.sort(v, descending=True))
    tl.store(mrg + offs, tl.bitonic_merge(v))
    tl.store(mrgd + offs, tl.bitonic_merge(v, descending=True))


@tessera.jit
def _sort_dim0(x, out, R: tl.constexpr, N: tl.constexpr, DESC: tl.constexpr):
    offs = tl.arange(0, R)[:, None] * N + tl.arange(0, N)[None, :]
    tl.store(out + offs, tl.sort(tl.load(x + offs), 0, descending=DESC))


@tessera.jit
def _topk(x, top, bottom, R: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    offs = tl.arange(0, R)[:, None] * N + tl.arange(0, N)[None, :]
    v = tl.load(x + offs)
    t = tl.topk(v, K)
    if K < N:  # the reduction steps widen as tl.max does (as in Triton)
        tl.static_assert(t.dtype == (tl.float32 if v.dtype == tl.float16 or v.dtype == tl.bfloat16 else
                                     tl.int32 if v.dtype == tl.int8 else v.dtype))
    out = tl.arange(0, R)[:, None] * K + tl.arange(0, K)[None, :]
    tl.store(top + out, t)
    tl.store(bottom + out, tl.topk(v, K, descending=False))


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


def _inputs(rng, shape, dtype, nan_fraction=0.3, signed_zeros=False):
    x = rng.integers(-6, 6, shape).astype(np.float64)
    if signed_zeros:
        x[x == 0] = np.where(rng.random(int((x == 0).sum())) < 0.5, -0.0, 0.0)
    if np.dtype(dtype).kind == "f" or dtype is ml_dtypes.bfloat16:
        x[rng.random(shape) < nan_fraction] = np.nan
    return x.astype(dtype)


def _bits(a):
    a = np.ascontiguousarray(a)
    return a.view(np.dtype("u%d" % a.dtype.itemsize))


FLOATS = [np.float32, np.float64, np.float16, ml_dtypes.bfloat16]


@pytest.mark.parametrize("interpreted", [False, True], ids=["cpu", "interpreter"])
@pytest.mark.parametrize("dtype", FLOATS + [np.int32], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("rows,n", [(1, 8), (1, 64), (4, 32)])
def test_sort_and_bitonic_merge_are_tritons_network(cpu_target, interpreted, dtype, rows, n):
    rng = np.random.default_rng(rows * 1000 + n)
    for trial in range(3):
        x = _inputs(rng, (rows, n), dtype, nan_fraction=[0.0, 0.2, 0.6][trial], signed_zeros=True)
        outs = [np.zeros_like(x) for _ in range(4)]
        _run(_networks, interpreted, x, *outs, R=rows, N=n)
        want = [ref_sort(x), ref_sort(x, True), ref_bitonic_merge(x), ref_bitonic_merge(x, True)]
        for name, got, w in zip(["sort", "sort descending", "bitonic_merge", "bitonic_merge descending"], outs, want):
            np.testing.assert_array_equal(_bits(got), _bits(w), err_msg="%s of\n%r" % (name, x))
        if trial == 0:  # no NaN: an ordinary sort
            w = np.sort(x.astype(np.float64), axis=-1)
            np.testing.assert_array_equal(outs[0].astype(np.float64), w)
            np.testing.assert_array_equal(outs[1].astype(np.float64), w[:, ::-1])


@pytest.mark.parametrize("interpreted", [False, True], ids=["cpu", "interpreter"])
def test_the_reviewed_example(cpu_target, interpreted):
    # What Triton 3.6 gives (its interpreter agrees): the NaNs are gone, 0, 1 and 5 doubled.
    x = np.array([[1, np.nan, 3, 2, np.nan, -1, 0, 5]], np.float32)
    outs = [np.zeros_like(x) for _ in range(4)]
    _run(_networks, interpreted, x, *outs, R=1, N=8)
    np.testing.assert_array_equal(outs[0], [[0, 1, 0, 2, 1, 5, 3, 5]])
    np.testing.assert_array_equal(outs[1], [[5, 3, 5, 1, 2, 0, 1, 0]])


@pytest.mark.parametrize("interpreted", [False, True], ids=["cpu", "interpreter"])
@pytest.mark.parametrize("descending", [False, True])
def test_sort_along_the_first_dimension(cpu_target, interpreted, descending):
    rng = np.random.default_rng(17)
    x = _inputs(rng, (16, 4), np.float32)
    out = np.zeros_like(x)
    _run(_sort_dim0, interpreted, x, out, R=16, N=4, DESC=descending)
    want = ref_sort(np.ascontiguousarray(x.T), descending).T
    np.testing.assert_array_equal(_bits(out), _bits(want))


@pytest.mark.parametrize("interpreted", [False, True], ids=["cpu", "interpreter"])
@pytest.mark.parametrize("dtype", FLOATS + [np.int32, np.int8], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("rows,n,k", [(1, 32, 1), (1, 32, 4), (2, 16, 8), (4, 8, 8), (1, 64, 16)])
def test_topk_is_tritons_bitonic_top_k(cpu_target, interpreted, dtype, rows, n, k):
    rng = np.random.default_rng(rows * 100 + n + k)
    for nan_fraction in (0.0, 0.25):
        x = _inputs(rng, (rows, n), dtype, nan_fraction)
        wide = np.float32 if dtype in (np.float16, ml_dtypes.bfloat16) else np.int32 if dtype == np.int8 else dtype
        out_dtype = wide if k < n else dtype
        top, bottom = np.zeros((rows, k), out_dtype), np.zeros((rows, k), out_dtype)
        _run(_topk, interpreted, x, top, bottom, R=rows, N=n, K=k)
        xw = x.astype(out_dtype)
        f64 = lambda a: a.astype(np.float64)  # (numpy's testing sees no bf16 NaN as equal)
        np.testing.assert_array_equal(f64(top), f64(ref_topk(xw, k)), err_msg=repr(x))
        np.testing.assert_array_equal(f64(bottom), f64(ref_topk(xw, k, False)), err_msg=repr(x))
        if nan_fraction == 0:  # no NaN: the k largest (smallest), sorted
            s = np.sort(x.astype(np.float64), axis=-1)
            np.testing.assert_array_equal(top.astype(np.float64), s[:, ::-1][:, :k])
            np.testing.assert_array_equal(bottom.astype(np.float64), s[:, :k])
