"""A block pointer's attributes as Triton code reads them: FlagGems'
generated pointwise kernels store `out.to(out_bptr.type.element_ty)`."""
import numpy as np
import pytest

import tessera
import tessera.language as tl
from tessera import _C


@tessera.jit
def _scale_through_block_pointers(x, out, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    x_bptr = tl.make_block_ptr(x, (n,), (1,), (pid * BLOCK,), (BLOCK,), (0,))
    out_bptr = tl.make_block_ptr(out, (n,), (1,), (pid * BLOCK,), (BLOCK,), (0,))
    value = tl.load(x_bptr, boundary_check=(0,)).to(tl.float32) * 2
    tl.store(out_bptr, value.to(out_bptr.type.element_ty), boundary_check=(0,))
    tl.static_assert(x_bptr.dtype.element_ty == x_bptr.type.element_ty)  # Triton's block_ptr.dtype too


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.int32])
def test_store_converts_to_the_block_pointers_element_type(cpu_target, dtype):
    rng = np.random.default_rng(7)
    x = (rng.standard_normal(37) * 10).astype(dtype)
    out = np.full(37, 99, dtype)
    _scale_through_block_pointers[(3,)](x, out, 37, BLOCK=16)
    np.testing.assert_array_equal(out, (x.astype(np.float32) * 2).astype(dtype))


def test_a_descriptor_has_no_type_attribute_yet(cpu_target):
    src = ("import tessera.language as tl\n\ndef k(x, n):\n"
           "    d = tl.make_tensor_descriptor(x, [n], [1], [16])\n    t = d.type\n")
    with pytest.raises(_C.CompilationError, match="has no attribute 'type'"):
        _C.compile(src, "k", ["*fp32", "i32"], {}, "cpu")


@tessera.jit
def _cast_to_scalar_of(x, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    value = tl.load(x + offs)
    tl.store(out + offs, (value * 3).to(out.dtype.element_ty.scalar))


def test_a_dtypes_scalar_is_itself(cpu_target):
    x = np.arange(8, dtype=np.float32)
    out = np.zeros(8, np.int32)
    _cast_to_scalar_of[(1,)](x, out, BLOCK=8)
    np.testing.assert_array_equal(out, np.arange(8) * 3)


@tessera.jit
def _add_offset(x, out, n, OFFSET: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out + offs, tl.load(x + offs, mask=offs < n) + OFFSET, mask=offs < n)


def test_a_compiled_kernel_takes_its_runtime_arguments_alone_or_every_parameter(cpu_target):
    x = np.random.default_rng(2).standard_normal(40).astype(np.float32)
    kernel = _add_offset.warmup(x, x, 40, OFFSET=5, BLOCK=16, grid=(3,))
    out = np.full(40, np.nan, np.float32)
    kernel[(3,)](x, out, 40, 5, 16)  # every parameter (Triton 3.6)
    np.testing.assert_allclose(out, x + 5)
    out[:] = np.nan
    kernel[(3,)](x, out, 40)  # the runtime ones (FlagGems' launches): the compiled constexprs
    np.testing.assert_allclose(out, x + 5)
    with pytest.raises(TypeError, match="specialize"):
        kernel[(3,)](x, out, 40, 6, 16)  # another constexpr value is another kernel


@tessera.jit
def _logical(x, y, both, either, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a, b = tl.load(x + offs), tl.load(y + offs)
    tl.store(both + offs, a.logical_and(b).to(tl.int8))
    tl.store(either + offs, a.logical_or(b).to(tl.int8))


def test_logical_and_and_or_as_tensor_methods(cpu_target):
    rng = np.random.default_rng(4)
    x, y = rng.integers(-2, 3, 64).astype(np.int32), (rng.random(64) < 0.5).astype(np.float32) * rng.random(64)
    both, either = np.full(64, 7, np.int8), np.full(64, 7, np.int8)
    _logical[(1,)](x, y, both, either, BLOCK=64)
    np.testing.assert_array_equal(both, (x != 0) & (y != 0))
    np.testing.assert_array_equal(either, (x != 0) | (y != 0))
    src = "import tessera.language as tl\n\ndef k(x):\n    f = tl.tensor_logical_and\n"
    with pytest.raises(_C.CompilationError, match="has no attribute"):
        _C.compile(src, "k", ["*fp32"], {}, "cpu")
