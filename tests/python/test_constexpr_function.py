"""@tessera.constexpr_function (Triton's @triton.constexpr_function): Python
functions kernels call at compile time on compile-time values, through the
C API's constexpr_call; compiled and interpreted, with clear errors."""

import numpy as np
import pytest

import tessera
import tessera.language as tl
from tessera import interpreter


@tessera.constexpr_function
def log2(n):
    n = int(n)
    out = 0
    while n > 1:
        n >>= 1
        out += 1
    return out


@tessera.constexpr_function
def block_for(dtype, n, *, halve=False):
    """Reads a dtype's width; a keyword argument."""
    return n // 2 if halve or dtype.primitive_bitwidth == 16 else n


@tessera.constexpr_function
def pair(n):
    return (n, "tag", tl.float16)


@tessera.jit
def constexpr_fn_kernel(x_ptr, out_ptr, N: tl.constexpr, HALVE: tl.constexpr):
    L: tl.constexpr = log2(N)
    B: tl.constexpr = block_for(x_ptr.dtype.element_ty, N, halve=HALVE)
    P: tl.constexpr = pair(B)
    tl.static_assert(P[1] == "tag")
    offs = tl.arange(0, B)
    tl.store(out_ptr + offs, (tl.load(x_ptr + offs) * L).to(P[2]))


@pytest.mark.parametrize("interpret", [False, True])
@pytest.mark.parametrize("halve", [False, True])
def test_a_kernel_calls_python_at_compile_time(interpret, halve):
    x = np.random.default_rng(4).standard_normal(64).astype(np.float32)
    out = np.full(64, np.nan, dtype=np.float16)
    if interpret:
        with interpreter.enabled():
            constexpr_fn_kernel[(1,)](x, out, N=64, HALVE=halve)
    else:
        constexpr_fn_kernel[(1,)](x, out, N=64, HALVE=halve)
    n = 32 if halve else 64
    np.testing.assert_array_equal(out[:n], (x[:n] * 6).astype(np.float16))
    assert np.isnan(out[n:]).all()


@tl.constexpr
def accumulator_type(dtype):
    # A plain function wrapped as a constexpr global (FlagGems' cumsum): Triton calls it while compiling.
    return tl.float32 if dtype.is_fp16() or dtype.is_bf16() else (tl.int64 if dtype.is_int() else dtype)


@tessera.jit
def wrapped_function_kernel(x_ptr, out_ptr, N: tl.constexpr):
    acc: tl.constexpr = accumulator_type(x_ptr.dtype.element_ty)
    offs = tl.arange(0, N)
    tl.store(out_ptr + offs, tl.cumsum(tl.load(x_ptr + offs).to(acc), 0))


@pytest.mark.parametrize("interpret", [False, True])
@pytest.mark.parametrize("dtype, out_dtype", [(np.float16, np.float32), (np.int16, np.int64), (np.float64, np.float64)])
def test_a_function_wrapped_as_a_constexpr_global(interpret, dtype, out_dtype):
    rng = np.random.default_rng()
    x = (rng.standard_normal(64) * 100).astype(dtype)
    out = np.zeros(64, out_dtype)
    if interpret:
        with interpreter.enabled():
            wrapped_function_kernel[(1,)](x, out, N=64)
    else:
        wrapped_function_kernel[(1,)](x, out, N=64)
    np.testing.assert_allclose(out, np.cumsum(x.astype(np.float64)), rtol=1e-5)
    assert accumulator_type(tl.bfloat16) == tl.float32  # from Python, the function


def test_from_python_it_is_the_function():
    assert log2(1024) == 10 and log2(tl.constexpr(8)) == 3
    assert block_for(tl.float16, 64) == 32
    assert isinstance(log2, tessera.ConstexprFunction) and len(log2.cache_key) == 64


@tessera.constexpr_function
def fails(n):
    raise ValueError("n is %d" % n)


@tessera.constexpr_function
def gives_an_object(n):
    return object()


@tessera.constexpr_function
def gives_a_function(n):
    return tl.sigmoid


@tessera.jit
def calls_returning_a_function(x_ptr, N: tl.constexpr):
    M: tl.constexpr = gives_a_function(N)


@tessera.jit
def calls_failing(x_ptr, N: tl.constexpr):
    M: tl.constexpr = fails(N)


@tessera.jit
def calls_with_a_tile(x_ptr):
    M: tl.constexpr = log2(tl.load(x_ptr))


@tessera.jit
def calls_returning_an_object(x_ptr, N: tl.constexpr):
    M: tl.constexpr = gives_an_object(N)


def test_errors_name_the_function_and_the_kernels_line():
    x = np.zeros(4, np.int32)
    with pytest.raises(tessera.CompilationError, match=r"constexpr function .*fails raised ValueError: n is 5") as e:
        calls_failing[(1,)](x, N=5)
    assert "M: tl.constexpr = fails(N)" in str(e.value)
    with pytest.raises(tessera.CompilationError,
                       match=r"constexpr function .*log2 takes compile-time values; its argument 1 is tensor"):
        calls_with_a_tile[(1,)](x)
    with pytest.raises(tessera.CompilationError, match=r"gives_an_object raised TypeError: cannot use a object"):
        calls_returning_an_object[(1,)](x, N=5)
    with pytest.raises(tessera.CompilationError, match=r"gives_a_function returned tessera.language.sigmoid, which is "
                                                       r"not a compile-time value"):
        calls_returning_a_function[(1,)](x, N=5)


def test_editing_the_function_changes_its_id_and_so_the_compile_cache_key():
    def make(k):
        src = "def scale(n):\n    return n * %d\n" % k
        ns = {}
        exec(compile(src, "<scale%d>" % k, "exec"), ns)
        return tessera.constexpr_function(ns["scale"])
    a, b = make(2), make(3)
    assert a._tessera_constexpr_function_id != b._tessera_constexpr_function_id


def test_a_wrapped_function_made_by_exec_without_a_module():
    # exec into globals without __name__ gives a function whose __module__ is None.
    namespace = {}
    exec("def doubled(n):\n    return n * 2\n", namespace)
    doubled = tl.constexpr(namespace["doubled"])
    assert namespace["doubled"].__module__ is None

    @tessera.jit
    def doubled_block(out_ptr, N: tl.constexpr):
        offs = tl.arange(0, doubled(N))
        tl.store(out_ptr + offs, offs)

    out = np.full(16, -1, np.int32)
    doubled_block[(1,)](out, N=8)
    np.testing.assert_array_equal(out, np.arange(16))


@tessera.constexpr_function
def _flag():
    return 1


@tessera.jit
def _stores_flag(out_ptr):
    flag: tl.constexpr = _flag()
    tl.store(out_ptr, flag)


def test_a_replaced_source_recompiles_the_kernels_calling_it():
    out = np.zeros(1, np.int32)
    _stores_flag[(1,)](out)
    key = _stores_flag.cache_key
    original = _flag.src
    _flag._unsafe_update_src(original.replace("return 1", "return 2"))
    try:
        assert _stores_flag.cache_key != key and _flag() == 2
        _stores_flag[(1,)](out)  # not the kernel compiled for the old source
        assert out[0] == 2
    finally:
        _flag._unsafe_update_src(original)
    assert _stores_flag.cache_key == key
    with pytest.raises(ValueError, match="does not define _flag"):
        _flag._unsafe_update_src("def other():\n    return 3\n")
