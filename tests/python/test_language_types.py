"""tl's types on the Python side, with triton.language.core's semantics:
dtypes by Triton's names, block, pointer, tuple and descriptor types, their
equality and mangling."""
import types
import warnings

import numpy as np
import pytest

import tessera
import tessera.language as tl


def test_dtypes_answer_by_tritons_names_and_take_any_spelling():
    assert [tl.dtype(n).name for n in ("fp16", "float16", "int8", "i8", "uint8", "u8", "i1")] \
        == ["fp16", "fp16", "int8", "int8", "uint8", "uint8", "int1"]
    assert tl.dtype("bf16") is not tl.bfloat16 and tl.dtype("bf16") == tl.bfloat16
    assert tl.dtype(tl.constexpr("fp32")) == tl.float32
    with pytest.raises(TypeError, match="no dtype is named 'fp12'"):
        tl.dtype("fp12")
    assert tl.dtype.is_dtype("fp8e4b15") and not tl.dtype.is_dtype("float32")
    assert tl.void.name == "void" and tl.void.is_void() and tl.void.primitive_bitwidth == 0 and tl.void.mangle() == "V"


@pytest.mark.parametrize("ty,mantissa,bias", [(tl.float8e4b15, 3, 15), (tl.float8e4nv, 3, 7), (tl.float8e4b8, 3, 8),
                                              (tl.float8e5, 2, 15), (tl.float8e5b16, 2, 16)])
def test_fp8_formats(ty, mantissa, bias):
    assert (ty.fp_mantissa_width, ty.exponent_bias, ty.primitive_bitwidth, ty.itemsize) == (mantissa, bias, 8, 1)
    assert ty.is_fp8() and ty.is_floating() and not ty.is_standard_floating()
    assert getattr(ty, "is_" + ty.name)() and ty.mangle() == ty.name


def test_integer_kinds_limits_and_mangling():
    assert tl.int1.kind() == tl.dtype.KIND.BOOLEAN and tl.int8.kind() == tl.dtype.KIND.INTEGRAL
    assert tl.float16.kind() == tl.dtype.KIND.FLOATING
    assert tl.int8.int_signedness == tl.dtype.SIGNEDNESS.SIGNED and tl.uint8.int_signedness == tl.dtype.SIGNEDNESS.UNSIGNED
    assert (tl.int8.get_int_min_value(), tl.int8.get_int_max_value()) == (-128, 127)
    assert (tl.uint16.get_int_min_value(), tl.uint16.get_int_max_value()) == (0, 65535)
    assert [t.mangle() for t in (tl.int32, tl.uint64, tl.int1, tl.bfloat16)] == ["i32", "u64", "u1", "bf16"]
    with pytest.raises(TypeError, match="integer dtypes"):
        tl.float32.get_int_max_value()
    with pytest.raises(AttributeError, match="integer dtypes, not fp32"):
        tl.float32.int_bitwidth
    assert tl.int32.is_int32() and not tl.int32.is_int64() and tl.uint32.is_uint32() and tl.int1.is_int1()


def test_block_types():
    b = tl.block_type(tl.float16, [64, tl.constexpr(32)])
    assert b.shape == (64, 32) and b.numel == 2048 and b.nbytes == 4096 and b.get_block_shapes() == (64, 32)
    assert b.is_block() and b.scalar == tl.float16 and str(b) == "<(64, 32), fp16>" and b.mangle() == "fp16S64_32S"
    assert b == tl.block_type(tl.float16, (64, 32)) and b != tl.block_type(tl.float32, (64, 32))
    assert b != tl.block_type(tl.float16, (32, 64)) and b != tl.float16
    assert b.with_element_ty(tl.int8) == tl.block_type(tl.int8, [64, 32]) and tl.int8.with_element_ty(tl.int16) == tl.int16
    assert len({b, tl.block_type(tl.float16, (64, 32))}) == 1
    with pytest.raises(TypeError, match="0d block_type"):
        tl.block_type(tl.float32, [])
    with pytest.raises(ValueError, match="power of 2"):
        tl.block_type(tl.float32, [48])


def test_pointer_types():
    p, k = tl.pointer_type(tl.float32), tl.pointer_type(tl.float32, const=True)
    assert p.is_ptr() and not p.is_const() and k.is_const() and str(k) == "const_pointer<fp32>"
    assert p == tl.pointer_type(tl.float32) and p != k and p != tl.pointer_type(tl.float32, 3) and p != tl.float32
    assert p.mangle() == "Pfp32" and p.scalar is p and k.short == "*kfp32" and tl.pi32_t == tl.pointer_type(tl.int32)
    with pytest.raises(TypeError, match="expected `dtype`"):
        tl.pointer_type("fp32")


def test_tuples_and_their_types():
    t = tl.tuple([1, 2.5, tl.float32])
    assert len(t) == 3 and list(t) == [1, 2.5, tl.float32] and t[tl.constexpr(0)] == 1 and t[1] == 2.5
    assert t[1:] == tl.tuple([2.5, tl.float32]) and t[tl.slice(0, 2, None)] == (1, 2.5)
    assert t + (4,) == tl.tuple([1, 2.5, tl.float32, 4]) and tl.tuple([7]) * tl.constexpr(3) == (7, 7, 7)
    assert t.type == tl.tuple_type([tl.constexpr_type(1), tl.constexpr_type(2.5), tl.constexpr_type(tl.float32)])
    assert t.type.mangle() == "Tconstexpr_type[1]_constexpr_type[2.5]_constexpr_type[fp32]T"
    named = tl.tuple([3, 4], tl.tuple_type([tl.constexpr_type(3), tl.constexpr_type(4)], ["x", "y"]))
    assert (named.x, named.y) == (3, 4) and str(named.type) == "[x:constexpr_type[3],y:constexpr_type[4]]"
    with pytest.raises(AttributeError, match="no field 'z'"):
        named.z
    assert isinstance(t, tl.base_value) and isinstance(tl.constexpr(1), tl.base_value)
    assert tl.slice(1, None, 2).type.name == "slice_type"


def test_constexpr_type_and_base_type():
    assert tl.constexpr_type(4) == tl.constexpr_type(4) and tl.constexpr_type(4) != tl.constexpr_type(5)
    assert repr(tl.constexpr_type(4)) == "constexpr_type[4]" == tl.constexpr_type(4).mangle()
    with pytest.raises(NotImplementedError):
        tl.base_type() == tl.base_type()
    with pytest.raises(NotImplementedError, match="mangling"):
        tl.base_type().mangle()


def test_tensor_descriptor_types():
    block = tl.block_type(tl.bfloat16, [16, 32])
    base = tl.tensor_descriptor_base_type(block)
    assert str(base) == "tensor_descriptor<<(16, 32), bf16>>" and base.mangle() == "TDbf16S16_32S"
    shape = tl.tuple_type([tl.int32, tl.int32])
    full = tl.tensor_descriptor_type(block, shape, shape)
    assert full == tl.tensor_descriptor_type(block, shape, shape) and full != base
    assert full != tl.tensor_descriptor_type(block, shape, tl.tuple_type([tl.int64, tl.int64]))
    assert issubclass(tl.tensor_descriptor, tl.tensor_descriptor_base)
    with pytest.raises(TypeError, match="exist only inside a kernel"):
        tl.tensor_descriptor()


def test_check_bit_width_warns_on_wide_constant_shifts():
    class Value:
        type = tl.block_type(tl.int16, [8])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        tl.check_bit_width(Value(), tl.constexpr(16))
        tl.check_bit_width(Value(), tl.constexpr(15))
        tl.check_bit_width(3, tl.constexpr(99))
    assert len(caught) == 1 and "exceeds the maximum bitwidth (16)" in str(caught[0].message)


def test_constant_min_and_max_and_negative_zero():
    assert tl.builtin_max(1, tl.constexpr(7), 3, _semantic=object()) == 7
    assert tl.builtin_min(2.5, 1.5, _semantic=object()) == tl.constexpr(1.5)
    assert tl.is_builtin(tl.builtin_max) and tl.is_negative_zero(-0.0) and not tl.is_negative_zero(0.0)
    with pytest.raises(ValueError, match="_semantic"):
        tl.builtin_max(1, 2)  # outside a kernel, as Triton's builtins
    with pytest.raises(ValueError, match="NaN or -0.0"):
        tl.builtin_min(-0.0, 1.0, _semantic=object())
    with pytest.raises(ValueError, match="propagate_nan"):
        tl.builtin_max(1, 2, propagate_nan=tl.PropagateNan.ALL, _semantic=object())
    assert tl.N_ROUNDS_DEFAULT == 10 and tl.math.core is tl and tl.T.__name__ == "T"


@tessera.jit
def _lowest(dtype):
    # FlagGems' get_dtype_min: Triton hands a called function its non-tensor
    # arguments as tl.constexpr objects, so `.value` is the dtype itself.
    dtype_ = dtype.value
    if dtype_.is_floating():
        return float("-inf")
    if dtype_.is_int_signed():
        width: tl.constexpr = dtype_.int_bitwidth
        return -1 * 2 ** (width - 1)
    return 0


@tessera.jit
def _row_max(x_ptr, out_ptr, N: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    lowest = _lowest(x_ptr.dtype.element_ty)
    x = tl.load(x_ptr + offs, mask=offs < N.value, other=lowest)
    tl.store(out_ptr, tl.max(x, axis=0))


@pytest.mark.parametrize("dtype", [np.float32, np.int16, np.uint8])
def test_constexpr_value_attribute(dtype):
    rng = np.random.default_rng()
    n = 37  # ragged: the padding takes the dtype's lowest value
    x = (rng.standard_normal(n) * 50).astype(dtype) if dtype is np.float32 else \
        rng.integers(np.iinfo(dtype).min, np.iinfo(dtype).max, n).astype(dtype)
    out = np.full(1, 7, dtype)
    _row_max[(1,)](x, out, N=n, BLOCK=64)
    assert out[0] == x.max()


_PREDICATES = ("is_int8", "is_int16", "is_int32", "is_int64", "is_uint8", "is_uint16", "is_uint32", "is_uint64",
               "is_fp16", "is_bf16", "is_fp32", "is_fp64", "is_int1", "is_standard_floating", "is_floating",
               "is_int_signed", "is_int_unsigned", "is_fp8", "is_void", "is_block")


@tessera.jit
def _predicates(x_ptr, out_ptr):
    d = x_ptr.dtype.element_ty
    tl.store(out_ptr + 0, d.is_int8())
    tl.store(out_ptr + 1, d.is_int16())
    tl.store(out_ptr + 2, d.is_int32())
    tl.store(out_ptr + 3, d.is_int64())
    tl.store(out_ptr + 4, d.is_uint8())
    tl.store(out_ptr + 5, d.is_uint16())
    tl.store(out_ptr + 6, d.is_uint32())
    tl.store(out_ptr + 7, d.is_uint64())
    tl.store(out_ptr + 8, d.is_fp16())
    tl.store(out_ptr + 9, d.is_bf16())
    tl.store(out_ptr + 10, d.is_fp32())
    tl.store(out_ptr + 11, d.is_fp64())
    tl.store(out_ptr + 12, d.is_int1())
    tl.store(out_ptr + 13, d.is_standard_floating())
    tl.store(out_ptr + 14, d.is_floating())
    tl.store(out_ptr + 15, d.is_int_signed())
    tl.store(out_ptr + 16, d.is_int_unsigned())
    tl.store(out_ptr + 17, d.is_fp8())
    tl.store(out_ptr + 18, d.is_void())
    tl.store(out_ptr + 19, d.is_block())


@pytest.mark.parametrize("dtype, name", [(np.int8, "int8"), (np.int16, "int16"), (np.int32, "int32"),
                                         (np.int64, "int64"), (np.uint8, "uint8"), (np.uint16, "uint16"),
                                         (np.uint32, "uint32"), (np.uint64, "uint64"), (np.float16, "fp16"),
                                         (np.float32, "fp32"), (np.float64, "fp64"), (np.bool_, "int1")])
def test_dtype_predicates_in_kernels(dtype, name):
    # Triton's dtype methods, each from the dtype's name (tl's own on the Python side).
    out = np.full(len(_PREDICATES), 7, np.int8)
    _predicates[(1,)](np.zeros(1, dtype), out)
    want = [getattr(getattr(tl, {"fp16": "float16", "fp32": "float32", "fp64": "float64"}.get(name, name)), p)()
            for p in _PREDICATES]
    assert list(out) == [int(w) for w in want]


@tessera.jit
def _scale_if_given(x_ptr, w_ptr, out_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    if w_ptr:  # FlagGems' batch_norm: a pointer is true when not null
        x = x * tl.load(w_ptr + offs)
    tl.store(out_ptr + offs, x + w_ptr.to(tl.int1).to(tl.float32) if w_ptr is not None else x)


def test_pointer_as_a_condition():
    rng = np.random.default_rng()
    x, w = rng.standard_normal(16).astype(np.float32), rng.standard_normal(16).astype(np.float32)
    out = np.full(16, np.nan, np.float32)
    _scale_if_given[(1,)](x, w, out, N=16)
    np.testing.assert_allclose(out, x * w + 1.0, rtol=1e-6)
    _scale_if_given[(1,)](x, None, out, N=16)
    np.testing.assert_array_equal(out, x)


_platform = types.ModuleType("_platform")  # as torch.version: constants read through a module
_platform.version = types.ModuleType("_platform.version")
_platform.version.hip = None
_platform.version.cuda = "12.8"


@tessera.jit
def _through_module_constants(out_ptr, OUT: tl.constexpr):
    if tl.constexpr(_platform.version.hip is not None):  # torchao's fp8 kernels
        tl.store(out_ptr, 1.0)
    elif _platform.version.cuda == "12.8":
        tl.store(out_ptr, 2.0)
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    # A scalar takes a new dimension wherever the None stands: shape [1] (torchao's blockwise kernels).
    offs = pid_n[:, None] * 2 + pid_m[None, :]
    tl.store(out_ptr + 1 + offs, tl.full(offs.shape, 3.0, OUT))


def test_module_constants_scalar_subscripts_and_torch_dtypes():
    torch = pytest.importorskip("torch")
    out = np.zeros(5, np.float32)
    _through_module_constants[(2, 2)](out, OUT=torch.float32)  # a torch dtype as a tl.constexpr: tl.float32
    assert list(out) == [2.0, 3.0, 3.0, 3.0, 3.0]
    _platform.version.cuda = None
    try:
        _through_module_constants[(2, 2)](out := np.zeros(5, np.float32), OUT=torch.float32)
        assert out[0] == 0.0  # neither branch: the edited constant reached the kernel
    finally:
        _platform.version.cuda = "12.8"
