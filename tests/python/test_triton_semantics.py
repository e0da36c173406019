"""Language cases where Tessera differed from Triton (issue: Triton's
language tests): each fails before its fix."""
import numpy as np
import pytest

import tessera
import tessera.language as tl
from tessera import _C


@tessera.jit
def _static_range_step(out, STEP: tl.constexpr):
    acc = 0
    for i in tl.static_range(0, 30, step=STEP):
        acc += i
    tl.store(out, acc)


@tessera.jit
def _runtime_range_step(out, n):
    acc = 0
    for i in range(0, n, step=7):
        acc += i
    tl.store(out, acc)


def test_range_step_keyword(cpu_target):
    out = np.zeros(1, np.int32)
    _static_range_step[(1,)](out, STEP=7)
    assert out[0] == sum(range(0, 30, 7))
    _runtime_range_step[(1,)](out, 30)
    assert out[0] == sum(range(0, 30, 7))


@tessera.jit
def _store_mask_false(out):
    tl.store(out + tl.arange(0, 4), tl.full((4,), 5, tl.int32), mask=False)
    tl.store(out + 4 + tl.arange(0, 4), tl.full((4,), 6, tl.int32), mask=True)


def test_store_with_mask_false_stores_nothing(cpu_target):
    out = np.full(8, -1, np.int32)
    _store_mask_false[(1,)](out)
    np.testing.assert_array_equal(out, [-1] * 4 + [6] * 4)


def test_atomic_with_mask_false_is_an_error(cpu_target):
    @tessera.jit
    def k(out):
        tl.atomic_add(out + tl.arange(0, 4), 1, mask=False)
    with pytest.raises(_C.CompilationError, match=r"test_triton_semantics.py:\d+:\d+: error: a mask of False makes atomic_add"):
        k[(1,)](np.zeros(4, np.int32))


@tessera.jit
def _no_parameters():
    pass


def test_a_kernel_without_parameters_launches(cpu_target):
    _no_parameters[(3,)]()


def test_store_of_a_lower_rank_value_is_refused(cpu_target):
    @tessera.jit
    def k(out):
        p = out + tl.arange(0, 4)[:, None] * 4 + tl.arange(0, 4)[None, :]
        tl.store(p, tl.full((4,), 1, tl.int32))

    @tessera.jit
    def mask_rank(out):
        p = out + tl.arange(0, 4)[:, None] * 4 + tl.arange(0, 4)[None, :]
        tl.store(p, tl.full((4, 4), 1, tl.int32), mask=tl.arange(0, 4) < 2)

    out = np.full(16, -1, np.int32)
    for kernel, what in ((k, "value"), (mask_rank, "mask")):
        with pytest.raises(_C.CompilationError, match=r"Cannot broadcast, rank mismatch: the %s has shape \[4\] and the "
                                                      r"pointers \[4, 4\]" % what):
            kernel[(1,)](out)
    assert (out == -1).all()


def test_a_broadcast_error_names_the_operands_types(cpu_target):
    """The operands are f32 tiles; the message once called them tile<4xi1>."""
    @tessera.jit
    def b(x_ptr, y_ptr):
        a = tl.load(x_ptr + tl.arange(0, 4))
        c = tl.load(y_ptr + tl.arange(0, 8))
        tl.store(x_ptr + tl.arange(0, 4), a + c)

    with pytest.raises(_C.CompilationError, match=r"cannot broadcast shapes tile<4xf32> and tile<8xf32>: "
                                                  r"dimension 0 is 4 and 8"):
        b[(1,)](np.zeros(4, np.float32), np.zeros(8, np.float32))


@tessera.jit
def _shift_right(x, s, out):
    r = tl.arange(0, 8)
    tl.store(out + r, tl.load(x + r) >> tl.load(s + r))


def test_signed_right_shift_by_unsigned_is_arithmetic(cpu_target):
    # Triton: the left operand's signedness picks the shift; the result is
    # the promoted type (uint32) holding the arithmetic shift's bits.
    x = np.array([-16, -1, 5, -256, 7, -8, 100, -100], np.int32)
    s = np.array([1, 3, 1, 4, 0, 2, 2, 3], np.uint32)
    out = np.zeros(8, np.uint32)
    _shift_right[(1,)](x, s, out)
    np.testing.assert_array_equal(out.view(np.int32), x >> s.astype(np.int32))
    # uint32 >> int32 stays logical.
    xu = x.view(np.uint32)
    out[:] = 0
    _shift_right[(1,)](xu, s.astype(np.int32), out)
    np.testing.assert_array_equal(out, xu >> s)


@tessera.jit
def _early_return_in_compile_time_if(x, out, FLAG: tl.constexpr, DEEP: tl.constexpr):
    v = tl.load(x)
    if FLAG:
        if DEEP:
            if v > 5:
                tl.store(out, 1)
                return
            tl.store(out + 1, 10)
        else:
            if v > 5:
                tl.store(out, 1)
                return
    tl.store(out + 2, 2)


@pytest.mark.parametrize("deep", [False, True])
def test_return_under_a_runtime_if_inside_a_compile_time_if(cpu_target, deep):
    # The code after the compile-time if runs when the runtime one does not return.
    for value in (3, 7):
        out = np.zeros(3, np.int32)
        _early_return_in_compile_time_if[(1,)](np.array([value], np.int32), out, FLAG=True, DEEP=deep)
        want = [1, 0, 0] if value > 5 else [0, 10 if deep else 0, 2]
        np.testing.assert_array_equal(out, want)


@tessera.jit
def _dtype_facts(out, x):
    t = x.dtype.element_ty
    tl.store(out + 0, t.fp_mantissa_width)
    tl.store(out + 1, t.exponent_bias)
    tl.store(out + 2, t.primitive_bitwidth)
    tl.store(out + 3, tl.int16.int_bitwidth)


@pytest.mark.parametrize("np_dtype,mantissa,bias,bits", [("float16", 10, 15, 16), ("float32", 23, 127, 32),
                                                         ("float64", 52, 1023, 64)])
def test_dtype_format_attributes(cpu_target, np_dtype, mantissa, bias, bits):
    out = np.zeros(4, np.int32)
    _dtype_facts[(1,)](out, np.zeros(1, np_dtype))
    np.testing.assert_array_equal(out, [mantissa, bias, bits, 16])
    d = {"float16": tl.float16, "float32": tl.float32, "float64": tl.float64}[np_dtype]
    assert (d.fp_mantissa_width, d.exponent_bias, d.primitive_bitwidth) == (mantissa, bias, bits)
    assert tl.bfloat16.fp_mantissa_width == 7 and tl.bfloat16.exponent_bias == 127 and tl.int8.int_bitwidth == 8
    with pytest.raises(AttributeError, match="applies to floating-point dtypes"):
        tl.int32.fp_mantissa_width


@tessera.jit
def _flip3(x, out, DIM: tl.constexpr):
    r0 = tl.arange(0, 4)[:, None, None]
    r1 = tl.arange(0, 8)[None, :, None]
    r2 = tl.arange(0, 16)[None, None, :]
    offs = r0 * 128 + r1 * 16 + r2
    v = tl.load(x + offs)
    tl.store(out + offs, tl.flip(v, DIM) if DIM is not None else tl.flip(v))


@pytest.mark.parametrize("dim", [0, 1, 2, -1, None])
@pytest.mark.parametrize("dtype", ["float32", "int8", "float16"])
def test_flip(cpu_target, dim, dtype):
    x = np.random.default_rng(5).integers(-100, 100, 512).astype(dtype).reshape(4, 8, 16)
    out = np.zeros_like(x)
    _flip3[(1,)](x, out, DIM=dim)
    np.testing.assert_array_equal(out, np.flip(x, axis=-1 if dim is None else dim))


@pytest.mark.parametrize("target", ["nvptx", "amdgpu"])
def test_flip_compiles_for_gpus(target):
    if not _C.target_available(target):
        pytest.skip("no %s code generator in this build" % target)
    x = np.zeros(512, np.float32)
    for dim in (0, 2):
        assert len(_flip3.compile_only(target, x, x, DIM=dim).data) > 0


@tessera.jit
def _sort2(x, out, DIM: tl.constexpr, DESC: tl.constexpr):
    offs = tl.arange(0, 4)[:, None] * 64 + tl.arange(0, 64)[None, :]
    tl.store(out + offs, tl.sort(tl.load(x + offs), DIM, descending=DESC))


@pytest.mark.parametrize("dim", [0, 1, None])
@pytest.mark.parametrize("descending", [False, True])
@pytest.mark.parametrize("dtype", ["float32", "int32", "float16", "uint8"])
def test_sort(cpu_target, dim, descending, dtype):
    x = (np.random.default_rng(9).standard_normal((4, 64)) * 50).astype(dtype)
    x[0, :8] = x[0, 8]  # ties
    out = np.zeros_like(x)
    _sort2[(1,)](x, out, DIM=dim, DESC=descending)
    axis = 1 if dim is None else dim
    want = np.sort(x, axis=axis)
    np.testing.assert_array_equal(out, np.flip(want, axis=axis) if descending else want)


@pytest.mark.parametrize("target", ["nvptx", "amdgpu"])
def test_sort_compiles_for_gpus(target):
    if not _C.target_available(target):
        pytest.skip("no %s code generator in this build" % target)
    x = np.zeros(256, np.float32)
    assert len(_sort2.compile_only(target, x, x, DIM=1, DESC=True).data) > 0


@tessera.jit
def _histogram(x, out, BINS: tl.constexpr, MASKED: tl.constexpr):
    r = tl.arange(0, 256)
    v = tl.load(x + r)
    h = tl.histogram(v, BINS, mask=r < 200) if MASKED else tl.histogram(v, BINS)
    tl.store(out + tl.arange(0, BINS), h)


@pytest.mark.parametrize("masked", [False, True])
@pytest.mark.parametrize("dtype", ["int32", "uint8", "int64"])
def test_histogram(cpu_target, masked, dtype):
    x = np.random.default_rng(2).integers(0 if dtype == "uint8" else -3, 40, 256).astype(dtype)
    out = np.full(32, -1, np.int32)
    _histogram[(1,)](x, out, BINS=32, MASKED=masked)
    src = x[:200] if masked else x
    np.testing.assert_array_equal(out, [(src == b).sum() for b in range(32)])  # values outside 0..31 not counted


@tessera.jit
def _gather(src, idx, out, AXIS: tl.constexpr):
    r0 = tl.arange(0, 8)[:, None]
    r1 = tl.arange(0, 16)[None, :]
    s = tl.load(src + r0 * 16 + r1)
    if AXIS == 0:
        i = tl.load(idx + tl.arange(0, 4)[:, None] * 16 + r1)
        tl.store(out + tl.arange(0, 4)[:, None] * 16 + r1, tl.gather(s, i, 0))
    else:
        i = tl.load(idx + r0 * 4 + tl.arange(0, 4)[None, :])
        tl.store(out + r0 * 4 + tl.arange(0, 4)[None, :], tl.gather(s, i, -1))


@pytest.mark.parametrize("dtype", ["float32", "float16", "int8", "float64", "uint16"])
def test_gather(cpu_target, dtype):
    rng = np.random.default_rng(4)
    src = (rng.standard_normal((8, 16)) * 40).astype(dtype)
    if dtype.startswith("float"):
        src[0, :4] = [-0.0, np.nan, np.inf, -np.inf]  # picked bit for bit
    i0 = rng.integers(0, 8, (4, 16)).astype(np.int32)
    i0[0, :4] = 0
    i1 = rng.integers(0, 16, (8, 4)).astype(np.int64)
    out0, out1 = np.zeros((4, 16), dtype), np.zeros((8, 4), dtype)
    _gather[(1,)](src, i0, out0, AXIS=0)
    _gather[(1,)](src, i1, out1, AXIS=1)
    np.testing.assert_array_equal(out0.view(np.uint8), np.take_along_axis(src, i0, 0).view(np.uint8))
    np.testing.assert_array_equal(out1.view(np.uint8), np.take_along_axis(src, i1, 1).view(np.uint8))


def test_errors_carry_tritons_words_and_cause(cpu_target):
    # Triton's tests match these phrases, on the error or on its __cause__
    # (the message without location, which re.match must find at the start).
    import re

    @tessera.jit
    def mod_signedness(x, y, out):
        tl.store(out, tl.load(x) % tl.load(y))

    @tessera.jit
    def float_and(x, out):
        tl.store(out, tl.load(x) & 1)

    ints, uints = np.ones(1, np.int32), np.ones(1, np.uint32)
    with pytest.raises(_C.CompilationError, match="Cannot use .* because they have different signedness") as e:
        mod_signedness[(1,)](ints, uints, ints)
    assert re.match("Cannot use .* because they have different signedness", str(e.value.__cause__))
    assert "test_triton_semantics.py:" in str(e.value)  # our location stays
    with pytest.raises(_C.CompilationError, match="invalid operands of type") as e:
        float_and[(1,)](np.ones(1, np.float32), np.ones(1, np.float32))
    assert str(e.value.__cause__).startswith("invalid operands of type fp32 and int32")


@tessera.jit
def _optional_scale(x, scale, out):
    v = tl.load(x)
    if scale is not None:  # compile-time both ways: None is a constexpr, a pointer is not None
        v = v * tl.load(scale)
    if scale is None:
        v = v + 100
    tl.store(out, v)


def test_is_none_on_runtime_arguments(cpu_target):
    x, s, out = np.array([3.0], np.float32), np.array([2.0], np.float32), np.zeros(1, np.float32)
    _optional_scale[(1,)](x, None, out)
    assert out[0] == 103.0
    _optional_scale[(1,)](x, s, out)
    assert out[0] == 6.0


@tessera.jit
def _dot_precision(a_ptr, b_ptr, out_ptr, PRECISION: tl.constexpr):
    r = tl.arange(0, 32)
    a = tl.load(a_ptr + r[:, None] * 32 + r[None, :])
    b = tl.load(b_ptr + r[:, None] * 32 + r[None, :])
    tl.store(out_ptr + r[:, None] * 32 + r[None, :], tl.dot(a, b, input_precision=PRECISION))


@pytest.mark.parametrize("precision, worst", [("bf16x3", 1e-4), ("bf16x6", 1e-6)])
def test_dot_bf16x3_and_bf16x6_split_f32_operands_into_bf16_terms(cpu_target, precision, worst):
    rng = np.random.default_rng()
    a, b = rng.standard_normal((2, 32, 32)).astype(np.float32)
    out = np.full((32, 32), np.nan, np.float32)
    _dot_precision[(1,)](a, b, out, PRECISION=precision)
    exact = a.astype(np.float64) @ b.astype(np.float64)
    error = np.abs(out - exact).max() / np.abs(exact).max()
    # One bf16 product alone is off by ~1e-2; the split terms recover
    # 16 (x3) and 24 (x6) bits of each operand.
    assert error < worst, error
    with pytest.raises(_C.CompilationError, match='input_precision must be .*"bf16x6", found "bf16x9"'):
        _dot_precision[(1,)](a, b, out, PRECISION="bf16x9")


def _e2m1(nibbles):
    magnitude = np.array([0, 0.5, 1, 1.5, 2, 3, 4, 6])[nibbles & 7]
    return np.where(nibbles & 8, -magnitude, magnitude)


def _e4m3(bits):
    e, m = (bits >> 3) & 0xF, (bits & 7).astype(np.float64)
    magnitude = np.where(e == 0, m / 8 * 2.0 ** -6, (1 + m / 8) * 2.0 ** (e.astype(np.float64) - 7))
    return np.where(bits & 0x80, -magnitude, magnitude)


@tessera.jit
def _dot_scaled(a_ptr, a_scale_ptr, b_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    a = tl.load(a_ptr + tl.arange(0, M)[:, None] * (K // 2) + tl.arange(0, K // 2)[None, :])
    a_scale = tl.load(a_scale_ptr + tl.arange(0, M)[:, None] * (K // 32) + tl.arange(0, K // 32)[None, :])
    b = tl.load(b_ptr + tl.arange(0, K)[:, None] * N + tl.arange(0, N)[None, :])
    c = tl.dot_scaled(a, a_scale, "e2m1", b, None, "e4m3")
    tl.store(out_ptr + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :], c)


def test_dot_scaled_decodes_mx_operands_and_their_scales(cpu_target):
    rng = np.random.default_rng()
    M, N, K = 32, 16, 64
    a = rng.integers(0, 256, (M, K // 2), dtype=np.uint8)          # two e2m1 per byte, low nibble first
    a_scale = rng.integers(120, 135, (M, K // 32), dtype=np.uint8)  # e8m0: 2^(s - 127) per 32 along k
    b = rng.integers(0, 256, (K, N), dtype=np.uint8)
    b[(b & 0x7F) == 0x7F] = 0x3C                                    # no e4m3 NaNs
    out = np.full((M, N), np.nan, np.float32)
    _dot_scaled[(1,)](a, a_scale, b, out, M=M, N=N, K=K)
    a_values = np.stack([_e2m1(a & 0xF), _e2m1(a >> 4)], axis=-1).reshape(M, K)
    a_values *= np.repeat(2.0 ** (a_scale.astype(np.float64) - 127), 32, axis=1)
    expected = a_values @ _e4m3(b)
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-5 * np.abs(expected).max())


@tessera.jit
def _dot_scaled_nvfp4(a_ptr, a_scale_ptr, b_ptr, b_scale_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr,
                      K: tl.constexpr):
    a = tl.load(a_ptr + tl.arange(0, M)[:, None] * (K // 2) + tl.arange(0, K // 2)[None, :])
    a_scale = tl.load(a_scale_ptr + tl.arange(0, M)[:, None] * (K // 16) + tl.arange(0, K // 16)[None, :])
    b = tl.load(b_ptr + tl.arange(0, K)[:, None] * N + tl.arange(0, N)[None, :])
    b_scale = tl.load(b_scale_ptr + tl.arange(0, N)[:, None] * (K // 32) + tl.arange(0, K // 32)[None, :])
    c = tl.dot_scaled(a, a_scale.to(tl.float8e4nv, bitcast=True), "e2m1", b, b_scale, "e5m2")
    tl.store(out_ptr + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :], c)


def _e5m2(bits):
    e, m = (bits >> 2) & 0x1F, (bits & 3).astype(np.float64)
    magnitude = np.where(e == 0, m / 4 * 2.0 ** -14, (1 + m / 4) * 2.0 ** (e.astype(np.float64) - 15))
    return np.where(bits & 0x80, -magnitude, magnitude)


def test_dot_scaled_takes_float8e4nv_scales_per_16_elements(cpu_target):
    # NVFP4's scales (Triton 3.6's verify_scaled_shape): an e4m3 factor per 16 elements along k.
    rng = np.random.default_rng()
    M, N, K = 32, 16, 64
    a = rng.integers(0, 256, (M, K // 2), dtype=np.uint8)
    a_scale = rng.integers(0x30, 0x48, (M, K // 16), dtype=np.uint8)  # e4m3 bits of 0.25 .. 4, positive
    b = rng.integers(0, 256, (K, N), dtype=np.uint8)
    b[(b & 0x7C) == 0x7C] = 0x3C                                       # no e5m2 infinities or NaNs
    b_scale = rng.integers(124, 130, (N, K // 32), dtype=np.uint8)     # e8m0 on the other side
    out = np.full((M, N), np.nan, np.float32)
    _dot_scaled_nvfp4[(1,)](a, a_scale, b, b_scale, out, M=M, N=N, K=K)
    a_values = np.stack([_e2m1(a & 0xF), _e2m1(a >> 4)], axis=-1).reshape(M, K) * np.repeat(_e4m3(a_scale), 16, axis=1)
    b_values = _e5m2(b) * np.repeat(2.0 ** (b_scale.astype(np.float64) - 127), 32, axis=1).T
    # (each scaled operand has at most 6 significant bits: exact in the bf16 the dot takes)
    expected = a_values @ b_values
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-5 * np.abs(expected).max())


@tessera.jit
def _dot_scaled_batched(a_ptr, a_scale_ptr, b_ptr, b_scale_ptr, out_ptr, B: tl.constexpr, M: tl.constexpr,
                        N: tl.constexpr, K: tl.constexpr):
    bi = tl.arange(0, B)[:, None, None]
    a = tl.load(a_ptr + bi * (M * K // 2) + tl.arange(0, M)[None, :, None] * (K // 2) + tl.arange(0, K // 2)[None, None, :])
    a_scale = tl.load(a_scale_ptr + tl.arange(0, M)[:, None] * (K // 32) + tl.arange(0, K // 32)[None, :])
    b = tl.load(b_ptr + bi * (K * N) + tl.arange(0, K)[None, :, None] * N + tl.arange(0, N)[None, None, :])
    b_scale = tl.load(b_scale_ptr + bi * (N * K // 32) + tl.arange(0, N)[None, :, None] * (K // 32) +
                      tl.arange(0, K // 32)[None, None, :])
    c = tl.dot_scaled(a, a_scale, "e2m1", b, b_scale, "e5m2")
    tl.store(out_ptr + bi * (M * N) + tl.arange(0, M)[None, :, None] * N + tl.arange(0, N)[None, None, :], c)


def test_dot_scaled_takes_a_batch(cpu_target):
    # 3-D operands (Triton 3.6 takes them); lhs's scale [M, K // 32] shared by the batch, as Triton shapes it,
    # rhs's one per batch entry.
    rng = np.random.default_rng()
    B, M, N, K = 2, 16, 32, 64
    a = rng.integers(0, 256, (B, M, K // 2), dtype=np.uint8)
    a_scale = rng.integers(120, 135, (M, K // 32), dtype=np.uint8)
    b = rng.integers(0, 256, (B, K, N), dtype=np.uint8)
    b[(b & 0x7C) == 0x7C] = 0x3C
    b_scale = rng.integers(124, 130, (B, N, K // 32), dtype=np.uint8)
    out = np.full((B, M, N), np.nan, np.float32)
    _dot_scaled_batched[(1,)](a, a_scale, b, b_scale, out, B=B, M=M, N=N, K=K)
    a_values = np.stack([_e2m1(a & 0xF), _e2m1(a >> 4)], axis=-1).reshape(B, M, K)
    a_values *= np.repeat(2.0 ** (a_scale.astype(np.float64) - 127), 32, axis=1)[None]
    b_values = _e5m2(b) * np.repeat(2.0 ** (b_scale.astype(np.float64) - 127), 32, axis=2).transpose(0, 2, 1)
    expected = a_values @ b_values
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-5 * np.abs(expected).max())


def test_dot_scaled_refuses_unknown_formats(cpu_target):
    @tessera.jit
    def k(a_ptr, out_ptr):
        r = tl.arange(0, 32)
        a = tl.load(a_ptr + r[:, None] * 32 + r[None, :])
        tl.store(out_ptr + r[:, None] * 32 + r[None, :], tl.dot_scaled(a, None, "e3m4", a, None, "e4m3"))
    with pytest.raises(_C.CompilationError, match="formats are e2m1, e4m3, e5m2, bf16 and fp16, not e3m4"):
        k[(1,)](np.zeros((32, 32), np.uint8), np.zeros((32, 32), np.float32))


@tessera.jit
def _first(a, b):
    return a


@tessera.jit
def _recurrence(a1, b1, a2, b2):
    return a1 * a2, b1 * a2 + b2


@tessera.jit
def _argmax_combine(v0, i0, v1, i1):
    gt = v0 > v1
    return tl.where(gt, v0, v1), tl.where(gt, i0, i1)


@tessera.jit
def _scans(X, Y, FIRST, REC, ARG, N: tl.constexpr, REVERSE: tl.constexpr):
    r = tl.arange(0, N)
    x, y = tl.load(X + r), tl.load(Y + r)
    tl.store(FIRST + r, tl.associative_scan(x, 0, _first, reverse=REVERSE))
    _, rec = tl.associative_scan((x, y), 0, _recurrence, reverse=REVERSE)
    tl.store(REC + r, rec)
    _, index = tl.associative_scan((x, r.to(tl.int64)), 0, _argmax_combine, reverse=REVERSE)
    tl.store(ARG + r, index)


@pytest.mark.parametrize("reverse", [False, True])
def test_scans_with_order_dependent_combines(cpu_target, reverse):
    # A reverse scan is the forward scan of the flipped line (Triton's): what
    # came first in scan order is the combine's left operand.
    rng = np.random.default_rng()
    n = 64
    x, y = rng.standard_normal((2, n)).astype(np.float32)
    first, rec = np.full((2, n), np.nan, np.float32)
    arg = np.full(n, -7, np.int64)  # the int64 operand of a tuple scan is stored whole
    _scans[(1,)](x, y, first, rec, arg, N=n, REVERSE=reverse)
    xs, ys = (x[::-1], y[::-1]) if reverse else (x, y)
    acc, expected_rec, best, expected_arg = 0.0, [], 0, []
    for i in range(n):
        acc = xs[i] * acc + ys[i]
        expected_rec.append(acc)
        best = i if xs[i] >= xs[best] else best
        expected_arg.append(n - 1 - best if reverse else best)
    flip = (lambda a: np.asarray(a)[::-1]) if reverse else np.asarray
    np.testing.assert_array_equal(first, np.full(n, xs[0]))
    np.testing.assert_allclose(rec, flip(expected_rec), rtol=1e-4, atol=1e-5)
    np.testing.assert_array_equal(arg, flip(expected_arg))


@tessera.jit
def _cumulative(X, S, N: tl.constexpr):
    r = tl.arange(0, N)
    x = tl.load(X + r)
    s = tl.cumsum(x, 0)
    tl.static_assert(s.dtype == tl.float32)
    tl.static_assert(tl.cumsum(x.to(tl.int8), 0).dtype == tl.int32)
    tl.static_assert(tl.cumprod(x.to(tl.int8), 0).dtype == tl.int8)
    tl.static_assert(tl.cumprod(x, 0).dtype == tl.float32)
    tl.store(S + r, s)


def test_cumsum_of_bf16_accumulates_in_f32_and_cumprod_keeps_narrow_ints(cpu_target):
    n = 512
    bits = (np.ones(n, np.float32).view(np.uint32) >> 16).astype(np.uint16)  # 1.0 in bf16
    s = np.zeros(n, np.float32)
    _cumulative[(1,)](tessera.reinterpret(tessera.from_numpy(bits), tl.bfloat16), s, N=n)
    # In bf16 the sum would stop at 256 (256 + 1 rounds back to 256); in f32 it is exact.
    np.testing.assert_array_equal(s, np.arange(1, n + 1, dtype=np.float32))


@tessera.jit
def _introspect(x, out, FUNC: tl.constexpr):
    acc = 0
    acc = acc.to(tl.int64)                        # a number's methods are its scalar's
    one = 1
    tl.static_assert(one.dtype == tl.int32 and (2**40).dtype == tl.int64 and (1.5).dtype == tl.float32)
    tl.static_assert(isinstance(x, tl.tensor) and isinstance(x.dtype, tl.pointer_type))
    tl.static_assert(isinstance(FUNC, tl.constexpr) and not isinstance(x, tl.constexpr))
    tl.static_assert(isinstance(one, int) and not isinstance(one, (float, tl.tensor)))
    tl.static_assert(hasattr(x, "dtype") and not hasattr(x.dtype, "no_such_field"))
    tl.static_assert(getattr(x.dtype, "no_such_field", 7) == 7)
    v = getattr(tl, FUNC)(tl.load(x), 0.5)        # a tl function chosen by name
    tl.store(out, v + acc.to(tl.float32))


def test_python_introspection_on_compile_time_values(cpu_target):
    x, out = np.array([2.0], np.float32), np.zeros(1, np.float32)
    _introspect[(1,)](x, out, FUNC="minimum")
    assert out[0] == 0.5
    _introspect[(1,)](x, out, FUNC="maximum")
    assert out[0] == 2.0


@tessera.jit
def _nested_returns(C, V, Out):
    val = 0
    if tl.load(C) != 0:
        if tl.load(C + 1) != 0:
            val = tl.load(V)
        else:
            return                      # skips the store after the outer if
    else:
        if tl.load(C + 2) != 0:
            val = tl.load(V + 1)
        else:
            val = tl.load(V + 2)
    tl.store(Out, val)
    if tl.load(C + 3) != 0:
        if tl.load(C + 1) != 0:
            return
        tl.store(Out + 1, 5)            # only when not returned just above
    tl.store(Out + 2, 7)


@tessera.jit
def _pick(c, a, b):
    if c > 0:
        if c > 10:
            return a * 100
        return a
    return b


@tessera.jit
def _helper_returns(C, Out):
    tl.store(Out, _pick(tl.load(C), 3, 4))


@pytest.mark.parametrize("c0, c1, c2, c3", [(c0, c1, c2, c3) for c0 in (0, 1) for c1 in (0, 1) for c2 in (0, 1)
                                            for c3 in (0, 1)])
def test_returns_nested_in_runtime_ifs_skip_the_rest_of_the_function(cpu_target, c0, c1, c2, c3):
    out = np.full(3, -1, np.int32)
    _nested_returns[(1,)](np.array([c0, c1, c2, c3], np.int32), np.array([10, 20, 30], np.int32), out)
    returned = c0 and not c1
    stored = -1 if returned else (10 if c0 else 20 if c2 else 30)
    late_return = not returned and c3 and c1
    assert list(out) == [stored, -1 if returned or late_return or not c3 else 5,
                         -1 if returned or late_return else 7]


def test_a_helper_returns_from_nested_runtime_ifs(cpu_target):
    out = np.zeros(1, np.int32)
    for c, expected in ((-1, 4), (5, 3), (11, 300)):
        _helper_returns[(1,)](np.array([c], np.int32), out)
        assert out[0] == expected


@tessera.jit
def _spin_lock_increment(Lock, X):
    one = tl.full((1,), 1, dtype=tl.int32).item()      # a one-element tile as a scalar
    zero = tl.full((1, 1), 0, dtype=tl.int32).item()
    while tl.atomic_cas(Lock, zero, one) == 1:
        pass
    tl.store(X, tl.load(X) + one)
    tl.atomic_xchg(Lock, zero)


def test_item_makes_a_scalar_of_a_one_element_tile(cpu_target):
    lock, x = np.zeros(1, np.int32), np.zeros(1, np.int32)
    _spin_lock_increment[(64,)](lock, x)
    assert x[0] == 64 and lock[0] == 0


@tessera.jit
def _item_of_a_load(X, Y):
    tl.store(Y, tl.load(X + tl.arange(0, 1)).item() * 2)


@pytest.mark.parametrize("target", ["cpu", "nvptx", "amdgpu", "spirv"])
def test_item_of_a_loaded_tile_on_every_target(target):
    # item() of a runtime tile is a one-element reduction: GPUs had no layout
    # for the rank-0 reshape it used to be.
    if not _C.target_available(target):
        pytest.skip("no %s code generator in this build" % target)
    x = np.array([21], np.int32)
    y = np.zeros(1, np.int32)
    if target == "cpu":
        _item_of_a_load[(1,)](x, y)
        assert y[0] == 42
    else:
        assert len(_item_of_a_load.compile_only(target, x, y).data) > 0


@tessera.jit
def _index_scalar_pointer(Z, N: tl.constexpr):
    z_ptr = Z
    z_ptr = z_ptr[None, None, :]                  # ':' passes over a scalar, as in Triton
    tl.static_assert(len(z_ptr.shape) == 2)
    tl.store(z_ptr, tl.full((1, 1), N, tl.int32))
    r = tl.arange(0, N)
    tl.store(Z + 1 + r[:, :], r[:])               # ':' beyond the rank keeps the tile


def test_subscripts_of_scalars_and_extra_colons(cpu_target):
    z = np.full(5, -1, np.int32)
    _index_scalar_pointer[(1,)](z, N=4)
    assert list(z) == [4, 0, 1, 2, 3]


@tessera.jit
def _typed_constants(X, Out):
    p = X.to(tl.pi32_t)                                   # *fp32 seen as *i32
    tl.static_assert(p.dtype == tl.pi32_t and tl.TRITON_MAX_TENSOR_NUMEL == 1048576)
    tl.store(Out, tl.load(p))


def test_pi32_t_and_the_tile_size_limit(cpu_target):
    x, out = np.array([1.0], np.float32), np.zeros(1, np.int32)
    _typed_constants[(1,)](x, out)
    assert out[0] == x.view(np.int32)[0]
    assert tl.pi32_t == tl.pointer_type(tl.int32) and tl.TRITON_MAX_TENSOR_NUMEL == 1 << 20


@tessera.jit
def _dot_batches(X, Y, Z, RANK: tl.constexpr):
    shape: tl.constexpr = [2] * (RANK - 2) + [16, 16]   # Python's list repetition
    r = tl.arange(0, 256 << (RANK - 2))
    x = tl.load(X + r).reshape(shape)
    y = tl.load(Y + r).reshape(shape)
    z = tl.dot(x, tl.trans(y), acc=tl.full(shape, 1.0, tl.float32), input_precision="ieee")  # trans: the last two
    tl.store(Z + r, z.reshape([256 << (RANK - 2)]))


@pytest.mark.parametrize("rank", [3, 4, 5])
def test_dot_over_several_batch_dimensions(cpu_target, rank):
    rng = np.random.default_rng()
    shape = (2,) * (rank - 2) + (16, 16)
    x, y = rng.standard_normal((2,) + shape).astype(np.float32)
    z = np.full(shape, np.nan, np.float32)
    _dot_batches[(1,)](x, y, z, RANK=rank)
    np.testing.assert_allclose(z, np.matmul(x.astype(np.float64), np.swapaxes(y, -1, -2)) + 1.0, rtol=1e-5, atol=1e-5)


@tessera.jit
def _load_mask_false(In, Out, N: tl.constexpr):
    r = tl.arange(0, N)
    tl.store(Out + r, tl.load(In + r, mask=False, other=7.0))
    tl.store(Out + N, tl.load(In, mask=False, other=3.0))


def test_load_with_mask_false_reads_nothing_and_gives_other(cpu_target):
    out = np.full(9, np.nan, np.float32)
    _load_mask_false[(1,)](np.ones(8, np.float32), out, N=8)
    assert list(out) == [7.0] * 8 + [3.0]
    # Nothing is read: an empty array (its address faults on any access) will do.
    _load_mask_false[(1,)](np.empty(0, np.float32), out, N=8)
    assert list(out) == [7.0] * 8 + [3.0]


@tessera.jit
def _unsplat(x):
    condition = tl.load(x + tl.arange(0, 1)) > 42      # a one-element tile as the condition
    if condition:
        tl.store(x, 42)


def test_a_one_element_tile_is_an_if_condition(cpu_target):
    for value, expected in ((41, 41), (43, 42)):
        x = np.full(1, value, np.int32)
        _unsplat[(1,)](x)
        assert x[0] == expected


@tessera.jit
def _const_copy(src: tl.const, dst, N: tl.constexpr, CHOOSE_SRC: tl.constexpr):
    r = tl.arange(0, N)
    out = src if CHOOSE_SRC else dst                 # compile-time choice: no merge of types
    tl.store(dst + r, tl.load(out + r) * 2)


def test_const_pointers_read_and_refuse_stores(cpu_target):
    src, dst = np.arange(8, dtype=np.float32), np.ones(8, np.float32)
    _const_copy[(1,)](src, dst, N=8, CHOOSE_SRC=True)
    np.testing.assert_array_equal(dst, src * 2)

    @tessera.jit
    def store_through(src: tl.const, N: tl.constexpr):
        p = tl.broadcast_to((src + tl.arange(0, N))[:, None], (N, 2))   # still const when derived
        tl.store(p, 1.0)
    with pytest.raises(_C.CompilationError, match="Cannot store to a constant pointer") as e:
        store_through[(1,)](src, N=8)
    assert e.value.error_message.startswith("Cannot store to a constant pointer")   # Triton's attribute


@tessera.jit
def _none_bounds(N: tl.constexpr):
    data = tl.arange(0, N)
    tl.static_assert(data[None, None:].shape == [1, N])              # a None bound is no bound
    tl.static_assert(data[None, :None, None].shape == [1, N, 1])
    tl.static_assert(data[None, None:None:None, None].shape == [1, N, 1])


def test_slices_with_none_bounds(cpu_target):
    _none_bounds[(1,)](N=8)

    @tessera.jit
    def bounded(x):
        x[10:]
    with pytest.raises(_C.CompilationError, match="unsupported tensor index"):
        bounded[(1,)](np.zeros(4, np.float32))


@tessera.jit
def _clamp_sign(x, lo):
    # Per-element control flow: nested ifs, an early return, a variable set on one path.
    y = x
    if x < lo:
        return -1, lo
    elif x == lo:
        y = x * 2
    else:
        if x > 100:
            return 1, 100
    return 0, y


@tessera.jit
def _pairs(a0, a1, a2, a3):
    return a0 + a3, a1 + a2, a2 + a1, a3 + a0           # reverses the sum order within each group of 4


@tessera.jit
def _map_kernel(X, S, Y, P, N: tl.constexpr):
    r = tl.arange(0, N)
    x = tl.load(X + r)
    s, y = tl.map_elementwise(_clamp_sign, x, 5)        # a scalar operand is broadcast
    tl.store(S + r, s)
    tl.store(Y + r, y)
    tl.store(P + r, tl.map_elementwise(_pairs, x, pack=4))


def test_map_elementwise_with_per_element_control_flow(cpu_target):
    rng = np.random.default_rng()
    n = 64
    x = rng.integers(-50, 200, n).astype(np.int32)
    x[:3] = [5, 4, 101]
    s, y, p = np.full((3, n), -7, np.int32)
    _map_kernel[(1,)](x, s, y, p, N=n)
    np.testing.assert_array_equal(s, np.where(x < 5, -1, np.where(x > 100, 1, 0)))
    np.testing.assert_array_equal(y, np.where(x < 5, 5, np.where(x == 5, 10, np.where(x > 100, 100, x))))
    groups = x.reshape(-1, 4)
    np.testing.assert_array_equal(p.reshape(-1, 4), groups + groups[:, ::-1])


@tessera.jit
def _through_descriptors(x_desc, z_desc, BM: tl.constexpr, BN: tl.constexpr):
    tl.static_assert(isinstance(x_desc, tl.tensor_descriptor) and not isinstance(x_desc, tl.tensor))
    tl.static_assert(isinstance(z_desc, (tl.tensor, tl.tensor_descriptor)) and not isinstance(BM, tl.tensor_descriptor))
    i = tl.program_id(0) * BM
    j = tl.program_id(1) * BN
    x = x_desc.load([i, j])                                   # out of bounds: zero
    tl.store_tensor_descriptor(z_desc, [i, j], tl.cat(x, x + 1, dim=1).reshape(BM, 2, BN).sum(1))


def test_host_tensor_descriptors_and_cat_along_a_dimension(cpu_target):
    from tessera.tools.tensor_descriptor import TensorDescriptor
    x = np.random.default_rng().standard_normal((40, 70)).astype(np.float32)   # ragged against 16 x 32
    z = np.full_like(x, np.nan)
    _through_descriptors[(3, 3)](TensorDescriptor.from_tensor(x, [16, 32]),
                                 TensorDescriptor.from_tensor(z, block_shape=[16, 32]), BM=16, BN=32)
    np.testing.assert_allclose(z, 2 * x.astype(np.float64) + 1, rtol=1e-6, atol=1e-6)
    with pytest.raises(ValueError, match="last dimension must be contiguous"):
        TensorDescriptor.from_tensor(x.T, [16, 16])
    with pytest.raises(ValueError, match="powers of two"):
        TensorDescriptor.from_tensor(x, [16, 24])


@tessera.jit
def _scaled_into_descriptor_dtype(x_desc, z_ptr, n, BLOCK: tl.constexpr):
    z_desc = tl.make_tensor_descriptor(z_ptr, shape=[n], strides=[1], block_shape=[BLOCK])
    tl.static_assert(x_desc.dtype == tl.float32 and z_desc.dtype == tl.float16)
    i = tl.program_id(0) * BLOCK
    z_desc.store([i], (x_desc.load([i]) * 3.0).to(z_desc.dtype))


def test_a_descriptor_has_its_element_dtype(cpu_target):
    from tessera.tools.tensor_descriptor import TensorDescriptor
    x = np.random.default_rng().standard_normal(100).astype(np.float32)
    z = np.full(100, np.nan, np.float16)
    _scaled_into_descriptor_dtype[(4,)](TensorDescriptor.from_tensor(x, [32]), z, 100, BLOCK=32)
    np.testing.assert_allclose(z, (3 * x.astype(np.float64)).astype(np.float16), rtol=1e-3)


@tessera.jit
def _padded_block(x_ptr, z_ptr, n, BLOCK: tl.constexpr, PAD: tl.constexpr):
    x_desc = tl.make_tensor_descriptor(x_ptr, shape=[n], strides=[1], block_shape=[BLOCK], padding_option=PAD)
    z_desc = tl.make_tensor_descriptor(z_ptr, shape=[BLOCK], strides=[1], block_shape=[BLOCK])
    z_desc.store([0], x_desc.load([n - BLOCK // 2]))


@pytest.mark.parametrize("pad", ["zero", "nan"])
def test_a_made_descriptor_pads_past_its_end_as_asked(cpu_target, pad):
    x = np.random.default_rng().standard_normal(100).astype(np.float32)
    z = np.full(32, 7.0, np.float32)
    _padded_block[(1,)](x, z, 100, BLOCK=32, PAD=pad)
    np.testing.assert_array_equal(z[:16], x[84:])
    assert np.isnan(z[16:]).all() if pad == "nan" else (z[16:] == 0).all()


@tessera.jit
def _pointers_as_addresses(A, Out):
    r = tl.arange(0, 16)
    p = tl.load(A + r).to(tl.pi32_t)                  # int64 values as pointers
    tl.store(Out + r, tl.where(r > 3, p, p + 1))     # stored back as their addresses


def test_pointer_values_store_into_int64(cpu_target):
    a = np.arange(1000, 1016, dtype=np.int64) * 64
    out = np.zeros(16, np.int64)
    _pointers_as_addresses[(1,)](a, out)
    np.testing.assert_array_equal(out, np.where(np.arange(16) > 3, a, a + 4))   # p + 1 steps one int32


@tessera.jit
def _checked_add(a, b):
    wide = a.to(tl.int64) + b.to(tl.int64)
    tl.device_assert((wide >= -2**31) & (wide <= 2**31 - 1), "int32 sum overflows")
    return a + b


@tessera.jit(debug=True)
def _sanitized_sums(Z, X, BLOCK: tl.constexpr):
    vals = tl.load(X + tl.arange(0, BLOCK))
    tl.store(Z, tl.reduce(vals, 0, _checked_add))
    tl.store(X + tl.arange(0, BLOCK), tl.associative_scan(vals, 0, _checked_add))


def test_asserts_in_reduce_and_scan_combines(cpu_target):
    x = np.zeros(512, np.int32)
    x[:300] = 32
    z = np.zeros(1, np.int32)
    _sanitized_sums[(1,)](z, x, BLOCK=512)
    assert z[0] == 9600 and x[-1] == 9600
    x = np.full(512, 2**30, np.int32)              # the sums overflow int32: the check in the combine fires
    with pytest.raises(tessera.DeviceAssertionError, match="int32 sum overflows"):
        _sanitized_sums[(1,)](z, x, BLOCK=512)


@tessera.jit
def _top(X, Y, Z, K: tl.constexpr):
    r = tl.arange(0, 4)[:, None] * 16 + tl.arange(0, 16)[None, :]
    out = tl.arange(0, 4)[:, None] * K + tl.arange(0, K)[None, :]
    x = tl.load(X + r)
    tl.store(Y + out, tl.topk(x, K))
    tl.store(Z + out, tl.topk(x, K, descending=False))


@pytest.mark.parametrize("k", [1, 4, 16])
def test_topk_along_the_last_dimension(cpu_target, k):
    x = np.random.default_rng().standard_normal((4, 16)).astype(np.float32)
    y, z = np.full((2, 4, k), np.nan, np.float32)
    _top[(1,)](x, y, z, K=k)
    np.testing.assert_array_equal(y, -np.sort(-x, 1)[:, :k])
    np.testing.assert_array_equal(z, np.sort(x, 1)[:, :k])


@tessera.jit
def _count_with_condition(x, out, n):
    i = 0
    while tl.condition(i < n, disable_licm=True):
        i = i + tl.load(x)
    for j in tl.range(0, 3, disable_licm=True):
        i = i + j
    tl.store(out, i)


def test_condition_and_range_take_disable_licm(cpu_target):
    out = np.zeros(1, np.int32)
    _count_with_condition[(1,)](np.array([2], np.int32), out, 7)
    assert out[0] == 8 + 3  # 2, 4, 6, 8; then 0 + 1 + 2


@tessera.jit
def _split_to_scalars(X, Z1, Z2):
    z1, z2 = tl.split(tl.load(X + tl.arange(0, 2)))
    tl.static_assert(z1.shape == [] and z2.shape == [])
    tl.store(Z1, z1)
    tl.store(Z2, z2)


@tessera.jit
def _unsplat_condition(x, EXPLICIT: tl.constexpr):
    condition = tl.load(x + tl.arange(0, 1)) > 42  # a one-element tile
    if EXPLICIT:
        condition = condition.item()
    if condition:
        tl.store(x, 42)


@pytest.mark.parametrize("target", ["cpu", "nvptx", "amdgpu", "spirv"])
def test_scalars_out_of_tiles_on_every_target(target):
    # split of a [2] tile and the unsplat of a [1] condition make scalars by
    # a one-element reduction: GPU layouts had no place for them.
    if not _C.target_available(target):
        pytest.skip("no %s code generator in this build" % target)
    for dt in (np.float16, np.float32, np.int64):
        x = np.array([3.5, -7.25]).astype(dt)
        z1, z2 = np.zeros(1, dt), np.zeros(1, dt)
        if target == "cpu":
            _split_to_scalars[(1,)](x, z1, z2)
            assert z1[0] == x[0] and z2[0] == x[1]
        else:
            assert len(_split_to_scalars.compile_only(target, x, z1, z2).data) > 0
    for y, explicit in ((41, False), (43, False), (41, True), (43, True)):
        x = np.full(1, y, np.int32)
        if target == "cpu":
            _unsplat_condition[(1,)](x, explicit)
            assert x[0] == min(y, 42)
        else:
            assert len(_unsplat_condition.compile_only(target, x, explicit).data) > 0


@tessera.jit
def _bitonic(x, out, N: tl.constexpr, DESCENDING: tl.constexpr):
    rows = N * tl.arange(0, 2)[:, None] + tl.arange(0, N)[None, :]
    tl.store(out + rows, tl.bitonic_merge(tl.load(x + rows), descending=DESCENDING))


def _merge_network(a, descending):
    # The textbook bitonic merge: half-cleaners at distances n/2, n/4, ..., 1.
    a, n = a.copy(), a.shape[-1]
    d = n // 2
    while d >= 1:
        for i in (i for i in range(n) if not i & d):
            lo, hi = a[..., i].copy(), a[..., i + d].copy()
            swap = (lo > hi) != bool(descending)
            a[..., i], a[..., i + d] = np.where(swap, hi, lo), np.where(swap, lo, hi)
        d //= 2
    return a


@pytest.mark.parametrize("n", [2, 16, 128])
@pytest.mark.parametrize("descending", [0, 1])
def test_bitonic_merge(cpu_target, n, descending):
    rng = np.random.default_rng(n + descending)
    out = np.full((2, n), np.nan, np.float32)
    # Any input: the network's own result; a bitonic one comes out sorted.
    x = rng.standard_normal((2, n)).astype(np.float32)
    _bitonic[(1,)](x, out, N=n, DESCENDING=descending)
    np.testing.assert_array_equal(out, _merge_network(x, descending))
    b = np.concatenate([np.sort(x[:, : n // 2]), -np.sort(-x[:, n // 2:])], axis=1)
    _bitonic[(1,)](b, out, N=n, DESCENDING=descending)
    np.testing.assert_array_equal(out, -np.sort(-b) if descending else np.sort(b))


def test_num_warps_must_be_a_power_of_two_before_compiling(cpu_target):
    @tessera.jit
    def k(x):
        pass
    x = np.zeros(4, np.float32)
    # As Triton: an AssertionError (Tessera's is a ValueError too).
    with pytest.raises(AssertionError, match="must be a power of 2"):
        k[(1,)](x, num_warps=3)
    with pytest.raises(ValueError, match="must be a power of 2"):
        k.compile_only("nvptx", x, num_warps=6)
    k[(1,)](x, num_warps=2)


def test_descriptor_rows_of_fewer_than_16_bytes_are_refused(cpu_target):
    @tessera.jit
    def k(ptr):
        desc = tl.make_tensor_descriptor(ptr, [128, 128], [128, 1], [8, 4])
        desc.store([0, 0], tl.zeros([8, 4], dtype=tl.int16))
    with pytest.raises(_C.CompilationError) as e:
        k[(1,)](np.zeros((128, 128), np.int16))
    assert "Descriptor block shape must have at least 16 bytes" in str(e.value.__cause__)


@tessera.jit
def _item_of_pointers(X, Y):
    p = (X + tl.arange(0, 1)).item()
    tl.store(Y, tl.load(p))
    b = (tl.load(X + tl.arange(0, 1)) > 0).item()
    tl.store(Y + 1, b.to(tl.float32))


def test_item_of_a_pointer_tile(cpu_target):
    x, y = np.array([5.0], np.float32), np.zeros(2, np.float32)
    _item_of_pointers[(1,)](x, y)
    np.testing.assert_array_equal(y, [5.0, 1.0])
    if _C.target_available("nvptx"):
        assert len(_item_of_pointers.compile_only("nvptx", x, y).data) > 0


def test_a_failed_static_assert_has_no_cause_and_keeps_its_message(cpu_target):
    # Triton's CompileTimeAssertionFailure: raised without a cause; other errors carry the bare message as theirs.
    @tessera.jit
    def k(x):
        tl.static_assert(isinstance(0, tl.tensor))

    with pytest.raises(_C.CompileTimeAssertionFailure) as e:
        k[(1,)](np.zeros(1, np.float32))
    assert e.value.__cause__ is None and e.value.error_message.startswith("static_assert failed")
