"""tl.dot's result type is Triton 3.6's (semantic.dot): int32 for int8, fp32
for fp32 and bf16 operands and fp64 for fp64 whatever out_dtype says, and
out_dtype (fp16 or fp32) for fp16 and fp8. fp64 dots accumulate in fp64 (they
gave fp32: (1 + 2^-40)^2 came out 1.0). out_dtype=bfloat16 is refused, as an
accumulator whose dtype is not both the result's and out_dtype (Triton
asserts acc.dtype == out_dtype). Compiled for the CPU and in the
interpreter, against float64 references."""
import numpy as np
import pytest

import tessera
import tessera.language as tl
from tessera import _C

ml_dtypes = pytest.importorskip("ml_dtypes")


@tessera.jit
def _dot(a_ptr, b_ptr, c_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr, OUT: tl.constexpr,
         ACC: tl.constexpr, WANT: tl.constexpr):
    rm, rn, rk = tl.arange(0, M), tl.arange(0, N), tl.arange(0, K)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
    if ACC:
        r = tl.dot(a, b, tl.load(c_ptr + rm[:, None] * N + rn[None, :]), out_dtype=OUT)
    else:
        r = tl.dot(a, b, out_dtype=OUT)
    tl.static_assert(r.dtype == WANT, "unexpected result type")
    tl.store(out_ptr + rm[:, None] * N + rn[None, :], r)


# The interpreter's runs use a kernel of its own (target="interpreter"): a
# kernel once launched compiled keeps a fast launch lane that would run the
# compiled code again inside interpreter.enabled().
_dot_interpreted = tessera.jit(target="interpreter")(_dot.fn)


def _run(interpreted, *args, **kw):
    (_dot_interpreted if interpreted else _dot)[(1,)](*args, **kw)


PARAMS = pytest.mark.parametrize("interpreted", [False, True], ids=["cpu", "interpreter"])
NP = {tl.float64: np.float64, tl.float32: np.float32, tl.float16: np.float16, tl.bfloat16: ml_dtypes.bfloat16,
      tl.int8: np.int8, tl.int32: np.int32, tl.float8e5: ml_dtypes.float8_e5m2}


@PARAMS
@pytest.mark.parametrize("acc", [False, True])
@pytest.mark.parametrize("shape", [(16, 16, 16), (32, 64, 128), (2, 4, 8)])
def test_fp64_dot_accumulates_in_fp64(cpu_target, interpreted, acc, shape):
    M, N, K = shape
    rng = np.random.default_rng(M * N + K)
    a, b, c = rng.standard_normal((M, K)), rng.standard_normal((K, N)), rng.standard_normal((M, N))
    out = np.zeros((M, N))
    # an fp64 accumulator needs out_dtype=tl.float64 (Triton's assert); without one, out_dtype is ignored
    _run(interpreted, a, b, c, out, M=M, N=N, K=K, OUT=tl.float64 if acc else tl.float32, ACC=acc, WANT=tl.float64)
    want = a @ b + (c if acc else 0)
    scale = np.abs(a) @ np.abs(b) + (np.abs(c) if acc else 0)
    assert np.all(np.abs(out - want) <= K * 2.0 ** -52 * scale), np.max(np.abs(out - want) / scale)


@PARAMS
def test_the_reviewed_fp64_example(cpu_target, interpreted):
    a = np.eye(16) * (1 + 2.0 ** -40)
    out = np.zeros((16, 16))
    _run(interpreted, a, a, a, out, M=16, N=16, K=16, OUT=tl.float32, ACC=False, WANT=tl.float64)
    assert out[0, 0] == (1 + 2.0 ** -40) ** 2 != 1.0


# (operands, out_dtype, acc dtype or None, result): Triton 3.6's choices (its interpreter agrees).
RESULTS = [
    (tl.float64, tl.float32, None, tl.float64),
    (tl.float64, tl.float64, None, tl.float64),
    (tl.float64, tl.float64, tl.float64, tl.float64),
    (tl.float32, tl.float16, None, tl.float32),
    (tl.bfloat16, tl.float16, None, tl.float32),
    (tl.float32, tl.float32, tl.float32, tl.float32),
    (tl.float16, tl.float16, None, tl.float16),
    (tl.float16, tl.float32, tl.float32, tl.float32),
    (tl.float16, tl.float16, tl.float16, tl.float16),
    (tl.float8e5, tl.float16, None, tl.float16),
    (tl.int8, tl.float16, None, tl.int32),
    (tl.int8, tl.int32, tl.int32, tl.int32),
]


@PARAMS
@pytest.mark.parametrize("operands,out_dtype,acc,result", RESULTS, ids=lambda v: getattr(v, "name", str(v)))
def test_result_types_are_tritons(cpu_target, interpreted, operands, out_dtype, acc, result):
    rng = np.random.default_rng(5)
    M = N = K = 16
    a = rng.integers(-3, 4, (M, K)).astype(NP[operands])
    b = rng.integers(-3, 4, (K, N)).astype(NP[operands])
    c = rng.integers(-3, 4, (M, N)).astype(NP[acc or result])
    out = np.zeros((M, N), NP[result])
    _run(interpreted, a, b, c, out, M=M, N=N, K=K, OUT=out_dtype, ACC=acc is not None, WANT=result)
    want = a.astype(np.float64) @ b.astype(np.float64) + (c.astype(np.float64) if acc else 0)
    np.testing.assert_array_equal(out.astype(np.float64), want)  # small integers: exact in every type


# (operands, out_dtype, acc dtype, message): refused at compile time (ValueError in the interpreter).
REFUSED = [
    (tl.float16, tl.bfloat16, None, "out_dtype=bfloat16 is unsupported"),
    (tl.float32, tl.bfloat16, None, "out_dtype=bfloat16 is unsupported"),
    (tl.float16, tl.float64, None, "tl.dot of fp16 operands: out_dtype must be float32 or float16, found fp64"),
    (tl.float32, tl.float16, tl.float16, "tl.dot of fp32 operands gives fp32 whatever out_dtype is; its accumulator "
                                         "must be fp32, found fp16"),
    (tl.float16, tl.float32, tl.float16, "tl.dot of fp16 operands gives fp32 with out_dtype=fp32; its accumulator "
                                         "must be fp32, found fp16"),
    (tl.float64, tl.float32, tl.float64, "the accumulator's dtype fp64 must be out_dtype, which is fp32"),
    (tl.int8, tl.float32, tl.int32, "the accumulator's dtype int32 must be out_dtype, which is fp32"),
]


@PARAMS
@pytest.mark.parametrize("operands,out_dtype,acc,message", REFUSED, ids=lambda v: getattr(v, "name", None))
def test_what_triton_refuses_is_refused(cpu_target, interpreted, operands, out_dtype, acc, message):
    a = np.ones((16, 16), NP[operands])
    c = np.zeros((16, 16), NP[acc or tl.float32])
    out = np.zeros((16, 16), np.float64)
    error = Exception if interpreted else _C.CompilationError
    with pytest.raises(error, match=message):
        _run(interpreted, a, a, c, out, M=16, N=16, K=16, OUT=out_dtype, ACC=acc is not None, WANT=tl.float32)


@pytest.mark.parametrize("target,arch", [("nvptx", "sm_80"), ("nvptx", "sm_90a"), ("amdgpu", "gfx942"),
                                         ("spirv", None)])
def test_fp64_dots_compile_for_gpus_with_fp64_sums(target, arch):
    # No matrix unit here has an f64 shape Tessera uses: the SIMT lanes' fmas, in fp64.
    if not _C.target_available(target):
        pytest.skip("no %s code generator in this build" % target)
    x = np.zeros((64, 64))
    binary = _dot.compile_only(target, x, x, x, x, arch=arch, M=64, N=64, K=64, OUT=tl.float64, ACC=True,
                               WANT=tl.float64)
    asm = binary.assembly or ""
    if target == "nvptx":
        assert "fma.rn.f64" in asm and "f32" not in asm
    elif target == "amdgpu":
        assert "_f64" in asm and "v_fmac_f32" not in asm and "v_fma_f32" not in asm
