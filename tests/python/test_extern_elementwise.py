"""Extern functions (Triton's @core.extern and core.extern_elementwise): a
library's functions of a device library, chosen by the arguments' dtypes.
Their bodies run in Python while a kernel compiles (python/tessera/_extern.py)
and in the interpreter; nvptx calls libdevice's __nv_* and amdgpu ocml's
__ocml_* functions, every other target (and the interpreter) Tessera's own
version of each listed function (language/_device_library.py).

Inputs are fresh random values each run, of ragged sizes; the seed is in the
report header (rerun with TESSERA_SEED=<seed>)."""

import os
import re
import shutil
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import tessera
import tessera.language as tl
from tessera import _C, interpreter
from tessera.language import _device_library

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
pytestmark = pytest.mark.usefixtures("cpu_target")


def _rng(seed, *salt):
    return np.random.default_rng([seed, *salt])


def _launch(kernel, grid, interpret, *args, **kwargs):
    if interpret:
        with interpreter.enabled():
            kernel[grid](*args, **kwargs)
    else:
        kernel[grid](*args, **kwargs)


def _targets_available(*names):
    return all(_C.target_available(n) for n in names)


# ---- extern functions, as libraries write them

@tl.extern
def fast_exp(arg0, _semantic=None):
    return tl.extern_elementwise("", "", [arg0], {
        (tl.dtype("fp32"),): ("__nv_expf", tl.dtype("fp32")),
        (tl.dtype("fp64"),): ("__nv_exp", tl.dtype("fp64")),
    }, is_pure=True, _semantic=_semantic)


@tl.extern
def exp_or_log(arg0, _semantic=None):
    """fp32 -> exp, fp64 -> log: which symbol the dispatch chose shows in the values."""
    return tl.extern_elementwise("", "", [arg0], {
        (tl.float32,): ("__nv_expf", tl.float32),
        (tl.float64,): ("__ocml_log_f64", tl.float64),
    }, is_pure=True, _semantic=_semantic)


@tl.extern
def pow_(x, y, _semantic=None):
    """Two arguments of any types: legalized to their common type first."""
    x, y = tl.binary_op_type_legalization(x, y, _semantic)
    return tl.extern_elementwise("", "", [x, y], {
        (tl.float32, tl.float32): ("__nv_powf", tl.float32),
        (tl.float64, tl.float64): ("__nv_pow", tl.float64),
    }, is_pure=True, _semantic=_semantic)


@tl.extern
def ldexp_(x, n, _semantic=None):
    """A float and an int32, not legalized: each keeps its type."""
    return tl.extern_elementwise("", "", [x, n], {
        (tl.float32, tl.int32): ("__nv_ldexpf", tl.float32),
        (tl.float64, tl.int32): ("__ocml_ldexp_f64", tl.float64),
    }, is_pure=True, _semantic=_semantic)


@tl.extern
def mulhi(x, y, _semantic=None):
    return tl.extern_elementwise("", "", [x, y], {
        (tl.int32, tl.int32): ("__nv_mulhi", tl.int32),
        (tl.uint32, tl.uint32): ("__nv_umulhi", tl.uint32),
        (tl.int64, tl.int64): ("__nv_mul64hi", tl.int64),
        (tl.uint64, tl.uint64): ("__nv_umul64hi", tl.uint64),
    }, is_pure=True, _semantic=_semantic)


@tl.extern
def popc(x, _semantic=None):
    return tl.extern_elementwise("", "", [x], {
        (tl.int32,): ("__nv_popc", tl.int32),
        (tl.int64,): ("__nv_popcll", tl.int32),
    }, is_pure=False, _semantic=_semantic)


@tl.extern
def exp_impure(arg0, _semantic=None):
    return tl.extern_elementwise("", "", [arg0], {(tl.float32,): ("__ocml_exp_f32", tl.float32)},
                                 is_pure=False, _semantic=_semantic)


@tl.extern
def expm1_of_exp(x, _semantic=None):
    """Two library calls, the second on the first's result, through another extern function."""
    return tl.extern_elementwise("", "", [fast_exp(x, _semantic=_semantic)], {
        (tl.float32,): ("__nv_expm1f", tl.float32),
        (tl.float64,): ("__nv_expm1", tl.float64),
    }, is_pure=True, _semantic=_semantic)


@tl.extern
def exp_maybe_fast(x, fast=False, _semantic=None):
    """A compile-time argument (a keyword) picks the symbol; fp64 returns its argument cast."""
    if x.dtype == tl.float64:
        return x.to(tl.float32, _semantic=_semantic)
    symbol = "__nv_fast_expf" if tl.constexpr(fast).value else "__nv_expf"
    return tl.extern_elementwise("", "", [x], {(tl.float32,): (symbol, tl.float32)}, is_pure=True,
                                 _semantic=_semantic)


# ---- kernels

@tessera.jit
def _unary(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, exp_or_log(tl.load(x_ptr + offs, mask=offs < n)), mask=offs < n)


@pytest.mark.parametrize("interpret", [False, True], ids=["compiled", "interpreted"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_the_dtype_picks_the_symbol(dtype, interpret, conformance_seed):
    rng = _rng(conformance_seed, 1, np.dtype(dtype).itemsize)
    n = int(rng.integers(200, 1000))  # ragged: the last program is partial
    x = rng.uniform(0.1, 4.0, n).astype(dtype)
    y = np.full(n, np.nan, dtype)
    _launch(_unary, (tessera.cdiv(n, 128),), interpret, x, y, n, BLOCK=128)
    ref = np.exp(x.astype(np.float64)) if dtype == np.float32 else np.log(x)
    np.testing.assert_allclose(y, ref, rtol=2e-6 if dtype == np.float32 else 1e-14,
                               err_msg="seed %d" % conformance_seed)


@tessera.jit
def _binary(x_ptr, y_ptr, s, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=1.0)
    y = tl.load(y_ptr + offs, mask=m, other=1.0)
    # tile-tile (the common type of x and y), tile and Python number, tile
    # and runtime scalar, scalar and scalar: each legalized, then broadcast.
    r = pow_(x, y) + pow_(x, 2) + pow_(1.5, x) + pow_(x, s) + pow_(s, 2.0)
    tl.store(out_ptr + offs, r, mask=m)


@pytest.mark.parametrize("interpret", [False, True], ids=["compiled", "interpreted"])
@pytest.mark.parametrize("xdt,ydt", [(np.float32, np.float32), (np.float32, np.float64), (np.float64, np.float32),
                                     (np.float32, np.int32), (np.float64, np.int64)])
def test_two_arguments_mix_scalars_tiles_and_dtypes(xdt, ydt, interpret, conformance_seed):
    rng = _rng(conformance_seed, 2, np.dtype(xdt).itemsize, np.dtype(ydt).itemsize)
    n = int(rng.integers(100, 700))
    x = rng.uniform(0.5, 2.0, n).astype(xdt)
    y = (rng.integers(-3, 4, n) if np.dtype(ydt).kind == "i" else rng.uniform(-2, 2, n)).astype(ydt)
    s = float(rng.uniform(0.5, 2.0))  # a runtime fp32 argument
    common = np.result_type(xdt, ydt, np.float32) if np.dtype(ydt).kind == "f" else np.dtype(np.float32)
    out = np.full(n, np.nan, common)
    _launch(_binary, (tessera.cdiv(n, 64),), interpret, x, y, s, out, n, BLOCK=64)
    xd, yd, sd = x.astype(np.float64), y.astype(np.float64), float(np.float32(s))
    ref = xd ** yd + xd ** 2 + 1.5 ** xd + xd ** sd + sd ** 2
    np.testing.assert_allclose(out, ref, rtol=1e-5 if common == np.float32 else 1e-6,
                               err_msg="seed %d" % conformance_seed)


@tessera.jit
def _outer(x_ptr, e_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr):
    rows = tl.arange(0, M)[:, None]
    cols = tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + rows)          # (M, 1) fp64
    e = tl.load(e_ptr + cols)          # (1, N) int32
    tl.store(out_ptr + rows * N + cols, ldexp_(x, e))


@pytest.mark.parametrize("interpret", [False, True], ids=["compiled", "interpreted"])
def test_arguments_broadcast_to_one_shape(interpret, conformance_seed):
    rng = _rng(conformance_seed, 3)
    x = rng.standard_normal(16)
    e = rng.integers(-20, 20, 8).astype(np.int32)
    out = np.full((16, 8), np.nan)
    _launch(_outer, (1,), interpret, x, e, out, M=16, N=8)
    np.testing.assert_array_equal(out, np.ldexp(x[:, None], e[None, :]))


@tessera.jit
def _ints(x_ptr, y_ptr, hi_ptr, pop_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    y = tl.load(y_ptr + offs, mask=m)
    tl.store(hi_ptr + offs, mulhi(x, y), mask=m)
    tl.store(pop_ptr + offs, popc(x), mask=m)


@pytest.mark.parametrize("interpret", [False, True], ids=["compiled", "interpreted"])
@pytest.mark.parametrize("dtype", [np.int32, np.uint32, np.int64, np.uint64])
def test_integer_functions_by_signedness_and_width(dtype, interpret, conformance_seed):
    rng = _rng(conformance_seed, 4, np.dtype(dtype).itemsize, np.dtype(dtype).kind == "u")
    n = int(rng.integers(50, 300))
    info = np.iinfo(dtype)
    x = rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)
    y = rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)
    hi = np.zeros(n, dtype)
    pop = np.zeros(n, np.int32)
    if np.dtype(dtype).kind == "u":  # popc is listed for int32 and int64 only
        with pytest.raises(tessera.CompilationError if not interpret else ValueError,
                           match=r"input arg type does not match: got \(uint\d\d,\)"):
            _launch(_ints, (tessera.cdiv(n, 64),), interpret, x, y, hi, pop, n, BLOCK=64)
        return
    _launch(_ints, (tessera.cdiv(n, 64),), interpret, x, y, hi, pop, n, BLOCK=64)
    bits = np.dtype(dtype).itemsize * 8
    ref_hi = [(int(a) * int(b)) >> bits for a, b in zip(x, y)]
    assert [int(v) for v in hi] == ref_hi, "seed %d" % conformance_seed
    assert [int(v) for v in pop] == [bin(int(a) & ((1 << bits) - 1)).count("1") for a in x]


@tessera.jit
def _chained(x_ptr, a_ptr, b_ptr, c_ptr, n, FAST: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    tl.store(a_ptr + offs, expm1_of_exp(x), mask=m)
    tl.store(b_ptr + offs, exp_maybe_fast(x, fast=FAST) + exp_impure(x.to(tl.float32)), mask=m)
    tl.store(c_ptr + offs, fast_exp(1.0) + fast_exp(x * 0 + 2.0), mask=m)  # a Python number alone: a scalar


@pytest.mark.parametrize("interpret", [False, True], ids=["compiled", "interpreted"])
@pytest.mark.parametrize("dtype,fast", [(np.float32, False), (np.float32, True), (np.float64, False)])
def test_bodies_chain_calls_take_keywords_and_may_return_their_argument(dtype, fast, interpret, conformance_seed):
    rng = _rng(conformance_seed, 5, np.dtype(dtype).itemsize, fast)
    n = int(rng.integers(30, 200))
    x = rng.uniform(-2, 1, n).astype(dtype)
    a, b, c = (np.full(n, np.nan, dtype) for _ in range(3))
    _launch(_chained, (tessera.cdiv(n, 32),), interpret, x, a, b, c, n, FAST=fast, BLOCK=32)
    xd = x.astype(np.float64)
    tol = 1e-5 if dtype == np.float32 else 1e-13
    np.testing.assert_allclose(a, np.expm1(np.exp(xd)), rtol=tol)
    first = np.exp(xd) if dtype == np.float32 else x.astype(np.float32)
    np.testing.assert_allclose(b, first + np.exp(x.astype(np.float32).astype(np.float64)),
                               rtol=1e-4 if fast else 1e-5, atol=1e-6)  # an fp32 sum: near zero, cancellation
    np.testing.assert_allclose(c, np.exp(1.0) + np.exp(2.0), rtol=1e-6)


# ---- errors

@tl.extern
def unknown(arg0, _semantic=None):
    return tl.extern_elementwise("mylib", "/opt/mylib/mylib.bc", [arg0], {
        (tl.float32,): ("mylib_tanhf", tl.float32),
        (tl.float16,): ("__nv_no_such_function", tl.float16),
        (tl.float64,): ("__ocml_no_such_function_f64", tl.float64),
    }, is_pure=True, _semantic=_semantic)


@tl.extern
def mistyped(arg0, _semantic=None):
    return tl.extern_elementwise("", "", [arg0], {(tl.float64,): ("__nv_expf", tl.float64)}, is_pure=True,
                                 _semantic=_semantic)


@tl.extern
def computes(arg0, _semantic=None):
    return fast_exp(arg0, _semantic=_semantic) + 1


@tessera.jit
def _call_unknown(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, unknown(tl.load(x_ptr + offs)))


@tessera.jit
def _call_mistyped(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, mistyped(tl.load(x_ptr + offs)))


@tessera.jit
def _call_computes(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, computes(tl.load(x_ptr + offs)))


@tessera.jit
def _call_fast_exp(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, fast_exp(tl.load(x_ptr + offs)))


@pytest.mark.parametrize("interpret", [False, True], ids=["compiled", "interpreted"])
def test_an_unlisted_dtype_names_the_types_and_the_signatures(interpret):
    x = np.ones(16, np.float16)
    error = ValueError if interpret else tessera.CompilationError
    with pytest.raises(error) as e:
        _launch(_call_fast_exp, (1,), interpret, x, BLOCK=16)
    assert "input arg type does not match: got (fp16,); expect one of (fp32,) -> __nv_expf, (fp64,) -> __nv_exp" \
        in str(e.value)
    if not interpret:  # at the call, in the kernel's file
        assert re.search(r"test_extern_elementwise\.py:\d+:\d+: error: extern function \S*fast_exp raised ValueError",
                         str(e.value))


def test_an_unknown_function_is_a_compile_error_naming_it_and_the_target():
    x32 = np.ones(16, np.float32)
    with pytest.raises(tessera.CompilationError) as e:
        _call_unknown[(1,)](x32, BLOCK=16)
    assert ("calls mylib_tanhf, which the cpu target cannot resolve: it links no device library, and Tessera has "
            "no version of mylib_tanhf of its own") in str(e.value)
    assert '(lib_path "/opt/mylib/mylib.bc" is not linked)' in str(e.value)
    with interpreter.enabled(), pytest.raises(interpreter.InterpreterError,
                                              match="calls mylib_tanhf, which the interpreter cannot run"):
        _call_unknown[(1,)](x32, BLOCK=16)
    # A library's prefix on a target without that library: Tessera's version, or this error.
    if _targets_available("spirv"):
        with pytest.raises(tessera.CompilationError, match="calls __nv_no_such_function, which the spirv target "
                                                           "cannot resolve"):
            _call_unknown.compile_only("spirv", np.ones(16, np.float16), BLOCK=16)
    if _targets_available("amdgpu"):
        with pytest.raises(tessera.CompilationError, match=r"calls __nv_no_such_function, which the amdgpu target "
                                                           r"cannot resolve: it links only the device library "
                                                           r"functions __ocml_\*"):
            _call_unknown.compile_only("amdgpu", np.ones(16, np.float16), BLOCK=16)
        # Its own prefix: the library decides, once linked.
        with pytest.raises(tessera.CompilationError, match=r"test_extern_elementwise\.py:\d+:\d+: error: amdgpu "
                                                           r"target: tl\.extern_elementwise calls "
                                                           r"__ocml_no_such_function_f64, which ROCm's device "
                                                           r"libraries \(ocml, ockl\) does not define"):
            _call_unknown.compile_only("amdgpu", np.ones(16, np.float64), BLOCK=16)
    if _targets_available("nvptx"):
        with pytest.raises(tessera.CompilationError, match=r"error: nvptx target: tl\.extern_elementwise calls "
                                                           r"__nv_no_such_function, which libdevice does not define"):
            _call_unknown.compile_only("nvptx", np.ones(16, np.float16), BLOCK=16)


def test_a_listed_function_called_with_other_types_is_an_error():
    with pytest.raises(tessera.CompilationError, match=r"raised TypeError: __nv_expf takes \(fp32\) -> fp32; this "
                                                       r"call gives it \(fp64\) -> fp64"):
        _call_mistyped[(1,)](np.ones(16), BLOCK=16)


def test_a_body_cannot_compute_with_the_kernels_values():
    with pytest.raises(tessera.CompilationError, match="extern function .*computes raised TypeError: an extern "
                                                       "function's body sees the kernel's values without their "
                                                       "elements"):
        _call_computes[(1,)](np.ones(16, np.float32), BLOCK=16)


@tessera.jit
def _call_with_pointer(x_ptr, BLOCK: tl.constexpr):
    tl.store(x_ptr, fast_exp(x_ptr))


@tessera.jit
def _call_with_function(x_ptr, BLOCK: tl.constexpr):
    tl.store(x_ptr, fast_exp(tl.sigmoid))


def test_arguments_are_numbers_tensors_and_compile_time_values():
    x = np.ones(16, np.float32)
    with pytest.raises(tessera.CompilationError, match=r"extern function \S*fast_exp takes numbers; its argument 1 "
                                                       r"is a tensor of type ptr<f32>"):
        _call_with_pointer[(1,)](x, BLOCK=16)
    with pytest.raises(tessera.CompilationError, match=r"extern function \S*fast_exp takes tensors and compile-time "
                                                       r"values; its argument 1 is function sigmoid"):
        _call_with_function[(1,)](x, BLOCK=16)


def test_from_python_extern_functions_need_a_kernel():
    assert tl.is_builtin(fast_exp) and tl.is_builtin(tl.extern_elementwise)
    with pytest.raises(ValueError, match="Did you forget to add @triton.jit"):
        fast_exp(1.0)
    with pytest.raises(ValueError, match="Did you forget to add @triton.jit"):
        tl.extern_elementwise("", "", [1.0], {(tl.float32,): ("__nv_expf", tl.float32)}, is_pure=True)
    with pytest.raises(TypeError, match="extern.. takes a function"):
        tl.extern(3)


def test_dispatch_is_tritons_rule_with_any_builder():
    made = []

    def create(lib_name, lib_path, symbol, args, ret_type, is_pure):
        made.append((lib_name, lib_path, symbol, args, ret_type, is_pure))
        return symbol

    table = {(tl.float32, int): ("f_int", tl.float32), (tl.float64, float): ("d_float", tl.float64)}

    from tessera.language import _types
    v = _types.base_value()  # a value of the language: its dtype counts
    v.dtype = tl.float32
    assert tl.dispatch(create, "lib", "p.bc", [v, 3], table, tl.float32, True) == "f_int"
    assert made == [("lib", "p.bc", "f_int", [v, 3], tl.float32, True)]
    with pytest.raises(ValueError, match=r"got \(fp32, float\); expect one of \(fp32, int\) -> f_int, "
                                         r"\(fp64, float\) -> d_float"):
        tl.dispatch(create, "", "", [v, 3.0], table, tl.float32, True)
    with pytest.raises(ValueError, match="the table's signatures take 2, got 1"):
        tl.dispatch(create, "", "", [v], table, tl.float32, True)
    with pytest.raises(ValueError, match="arg_type_symbol_dict is empty"):
        tl.dispatch(create, "", "", [v], {}, tl.float32, True)


# ---- targets with the libraries

@tessera.jit
def _native(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    tl.store(y_ptr + offs, add_ru(x, 0.1) + popc(x.to(tl.int32, bitcast=True)).to(tl.float32) + exp_impure(x),
             mask=m)


@tl.extern
def add_ru(x, y, _semantic=None):
    return tl.extern_elementwise("", "", [x, y], {
        (tl.float32, tl.float32): ("__nv_fadd_ru", tl.float32),
    }, is_pure=True, _semantic=_semantic)


@pytest.mark.skipif(not _targets_available("nvptx"), reason="no nvptx code generator in this build")
def test_nvptx_calls_libdevice():
    x = np.zeros(100, np.float32)
    ptx = _native.compile_only("nvptx", x, x, 100, BLOCK=128).assembly
    # libdevice's own code, inlined: add rounding up (.rp) and the population
    # count, where Tessera's versions add with a TwoSum and count in steps;
    # ocml's exp is Tessera's exp there (the hardware's ex2 after a reduction).
    assert "add.rp.f32" in ptx and "popc.b32" in ptx and "ex2.approx" in ptx


@pytest.mark.skipif(not _targets_available("amdgpu"), reason="no amdgpu code generator in this build")
def test_amdgpu_calls_ocml_and_computes_libdevices_functions():
    x = np.zeros(100, np.float32)
    binary = _native.compile_only("amdgpu", x, x, 100, BLOCK=128)
    assert binary.format == "hsaco"


@pytest.mark.parametrize("interpret", [False, True], ids=["compiled", "interpreted"])
def test_the_cpu_computes_what_the_libraries_would(interpret, conformance_seed):
    rng = _rng(conformance_seed, 6)
    n = int(rng.integers(100, 500))
    x = rng.standard_normal(n).astype(np.float32)
    y = np.full(n, np.nan, np.float32)
    _launch(_native, (tessera.cdiv(n, 128),), interpret, x, y, n, BLOCK=128)
    up = np.nextafter(x + np.float32(0.1), np.float32(np.inf))  # the sum rounded up: the nearest or the next
    exact = x.astype(np.float64) + np.float64(np.float32(0.1))
    add = np.where((x + np.float32(0.1)).astype(np.float64) >= exact, x + np.float32(0.1), up)
    pops = np.array([bin(int(v)).count("1") for v in x.view(np.uint32)], np.float32)
    np.testing.assert_allclose(y, add + pops + np.exp(x.astype(np.float64)), rtol=1e-6)


# ---- every listed function: Tessera's version computes and has the library's types

def _library_call_sources():
    """The listed functions grouped by signature: (params, result) -> symbols."""
    groups = {}
    for symbol, signatures in sorted(_device_library.FUNCTIONS.items()):
        for f in signatures:
            groups.setdefault((tuple(p.name for p in f.params), f.result.name), []).append(symbol)
    return groups


@tl.extern
def library_call(symbol, result, *args, _semantic=None):
    """The function `symbol` on `args`, whatever their dtypes."""
    values = [_semantic.to_tensor(a) for a in args]
    table = {tuple(v.dtype for v in values): (symbol.value, result.value)}
    return tl.extern_elementwise("", "", values, table, is_pure=True, _semantic=_semantic)


@tessera.jit
def _table_kernel(a_ptr, b_ptr, c_ptr, d_ptr, out_ptr, n, SYMBOLS: tl.constexpr, RESULT: tl.constexpr,
                  ARITY: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    m = offs < n
    a = tl.load(a_ptr + offs, mask=m)
    b = tl.load(b_ptr + offs, mask=m)
    c = tl.load(c_ptr + offs, mask=m)
    d = tl.load(d_ptr + offs, mask=m)
    for i in tl.static_range(len(SYMBOLS)):
        if ARITY == 1:
            r = library_call(SYMBOLS[i], RESULT, a)
        elif ARITY == 2:
            r = library_call(SYMBOLS[i], RESULT, a, b)
        elif ARITY == 3:
            r = library_call(SYMBOLS[i], RESULT, a, b, c)
        else:
            r = library_call(SYMBOLS[i], RESULT, a, b, c, d)
        tl.store(out_ptr + i * BLOCK + offs, r, mask=m)


_NP = {"fp32": np.float32, "fp64": np.float64, "int32": np.int32, "uint32": np.uint32, "int64": np.int64,
       "uint64": np.uint64}


def _inputs(rng, params, n):
    """Finite values of each parameter's dtype across the functions'
    domains, zeros of both signs among the floats (test_classification
    takes infinities and NaN)."""
    out = []
    for i, p in enumerate(params):
        dt = _NP[p]
        if p.startswith("fp"):
            v = np.concatenate([rng.uniform(-1, 1, n // 3), rng.uniform(1, 8, n // 3) * rng.choice([-1, 1], n // 3),
                                rng.standard_normal(n) * 1e3])[:n].astype(dt)
            v[:2] = [0.0, -0.0]
        elif any(q.startswith("fp") for q in params):
            v = rng.integers(-6, 7, n).astype(dt)  # exponents (ldexp, powi) and orders (jn)
        else:
            info = np.iinfo(dt)
            v = rng.integers(info.min, info.max, n, dtype=dt, endpoint=True)
        out.append(v)
    return out


_SKIP_INTERPRETER = {"j0", "j1", "y0", "y1", "jn", "yn", "cyl_bessel_i0", "cyl_bessel_i1"}  # they need scipy there


def _run_table(target, args, out, call):
    if target == "interpreter":
        with interpreter.enabled():
            _table_kernel[(1,)](*args, out, **call)
        return out
    if target == "cpu":
        _table_kernel[(1,)](*args, out, **call)
        return out
    device = [tessera.from_numpy(a, device=_C.find_target(target)[1].backend) for a in args + [out]]
    _table_kernel[(1,)](*device, **call)
    return device[-1].numpy()


@pytest.mark.parametrize("signature", sorted(_library_call_sources()), ids=lambda s: "%s->%s" % ("_".join(s[0]), s[1]))
def test_every_listed_function_has_a_version_on_every_target(signature, conformance_seed, test_target):
    """Tessera's version of each listed function compiles with the library
    function's types on the CPU and runs in the interpreter (which agrees
    roughly: some of its versions are numpy's, less accurate). With
    TESSERA_TEST_TARGET=nvptx (a GPU), libdevice's own __nv_* functions run
    there: Tessera's versions on the CPU must agree with them closely."""
    params, result = signature
    symbols = _library_call_sources()[signature]
    try:
        import scipy  # noqa: F401
        interpretable = symbols
    except ImportError:
        interpretable = [s for s in symbols
                         if not any(f.name in _SKIP_INTERPRETER for f in _device_library.FUNCTIONS[s])]
    rng = _rng(conformance_seed, 7, len(params))
    n, block = int(rng.integers(40, 64)), 64
    args = _inputs(rng, params, n) + [np.zeros(n, np.float32)] * (4 - len(params))
    cpu = _run_table("cpu", args, np.zeros((len(symbols), block), _NP[result]),
                     dict(n=n, SYMBOLS=tuple(symbols), RESULT=tl.dtype(result), ARITY=len(params), BLOCK=block))
    checks = [("interpreter", interpretable, 1e-4 if result == "fp32" else 1e-7)]
    if test_target != "cpu":
        checks.append((test_target, symbols, 1e-5 if result == "fp32" else 1e-12))
    for target, names, tol in checks:
        if not names:
            continue
        got = _run_table(target, args, np.zeros((len(names), block), _NP[result]),
                         dict(n=n, SYMBOLS=tuple(names), RESULT=tl.dtype(result), ARITY=len(params), BLOCK=block))
        for i, symbol in enumerate(names):
            a, b = cpu[symbols.index(symbol), :n], got[i, :n]
            message = "%s on the cpu and %s (seed %d): inputs %s" % (symbol, target, conformance_seed,
                                                                      args[:len(params)])
            if result.startswith("fp"):
                fast = _device_library.FUNCTIONS[symbol][0].name.startswith("fast_")
                np.testing.assert_allclose(b, a, rtol=2e-3 if fast else tol, atol=tol, equal_nan=True,
                                           err_msg=message)
            else:
                np.testing.assert_array_equal(b, a, err_msg=message)


@pytest.mark.parametrize("dtype", ["fp32", "fp64"])
def test_classification(dtype, conformance_seed, test_target):
    """isnan, isinf, signbit and finiteness (an int32, nonzero for true) on
    the floats' edges, by every library's name."""
    width = dtype[2:]
    tests = {"isnan": np.isnan, "isinf": np.isinf, "signbit": np.signbit, "finite": np.isfinite}
    symbols = {"isnan": ["__nv_isnan" + ("f" if width == "32" else "d"), "__ocml_isnan_f" + width],
               "isinf": ["__nv_isinf" + ("f" if width == "32" else "d"), "__ocml_isinf_f" + width],
               "signbit": ["__nv_signbit" + ("f" if width == "32" else "d"), "__ocml_signbit_f" + width],
               "finite": ["__nv_finitef" if width == "32" else "__nv_isfinited"]}
    names = [(test, symbol) for test, group in symbols.items() for symbol in group]
    rng = _rng(conformance_seed, 8, int(width))
    n = 40
    x = (rng.standard_normal(n) * 1e30 ** rng.integers(0, 2, n)).astype(_NP[dtype])
    x[:8] = [0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, np.finfo(_NP[dtype]).tiny / 4, -np.finfo(_NP[dtype]).max]
    args = [x] + [np.zeros(n, np.float32)] * 3
    call = dict(n=n, SYMBOLS=tuple(s for _, s in names), RESULT=tl.int32, ARITY=1, BLOCK=64)
    for target in ("interpreter", test_target):
        got = _run_table(target, args, np.zeros((len(names), 64), np.int32), call)
        for i, (test, symbol) in enumerate(names):
            np.testing.assert_array_equal(got[i, :n] != 0, tests[test](x), err_msg="%s on %s" % (symbol, target))


@pytest.mark.skipif(not shutil.which("llvm-dis-19"), reason="no llvm-dis-19 to read the libraries")
@pytest.mark.parametrize("library,prefix", [("/usr/local/cuda/nvvm/libdevice/libdevice.10.bc", "__nv_"),
                                            ("/usr/lib/x86_64-linux-gnu/amdgcn/bitcode/ocml.bc", "__ocml_")])
def test_the_listed_functions_are_the_libraries(library, prefix, tmp_path):
    """Each listed __nv_ and __ocml_ function is defined by its library with
    the listed types (the build embeds these files: targets/CMakeLists.txt)."""
    if not os.path.exists(library):
        pytest.skip("%s is not on this machine" % library)
    text = subprocess.run(["llvm-dis-19", library, "-o", "-"], capture_output=True, text=True, check=True).stdout
    defined = {}
    for m in re.finditer(r"^define [^@\n]*?(\w+) @(\w+)\(([^)]*)\)", text, re.M):
        params = [p.split()[0] for p in m.group(3).split(",") if p.strip()]
        defined[m.group(2)] = (m.group(1), params)
    llvm = {"fp32": "float", "fp64": "double", "int32": "i32", "uint32": "i32", "int64": "i64", "uint64": "i64"}
    listed = {s: fs for s, fs in _device_library.FUNCTIONS.items() if s.startswith(prefix)}
    assert len(listed) > 100
    for symbol, signatures in listed.items():
        assert symbol in defined, symbol
        for f in signatures:
            assert defined[symbol] == (llvm[f.result.name], [llvm[p.name] for p in f.params]), symbol


# ---- under tessera.compat: Triton's own spelling

COMPAT_SCRIPT = textwrap.dedent('''
    import numpy as np
    import triton
    import triton.language as tl
    from triton.language import core

    @core.extern
    def fast_exp(arg0, _semantic=None):
        return core.extern_elementwise("", "", [arg0], {
            (core.dtype("fp32"),): ("__nv_expf", core.dtype("fp32")),
            (core.dtype("fp64"),): ("__nv_exp", core.dtype("fp64")),
        }, is_pure=True, _semantic=_semantic)

    @core.extern
    def hypot(arg0, arg1, _semantic=None):
        arg0, arg1 = core.binary_op_type_legalization(arg0, arg1, _semantic)
        return core.extern_elementwise("", "", [arg0, arg1], {
            (core.dtype("fp32"), core.dtype("fp32")): ("__ocml_hypot_f32", core.dtype("fp32")),
            (core.dtype("fp64"), core.dtype("fp64")): ("__ocml_hypot_f64", core.dtype("fp64")),
        }, is_pure=True, _semantic=_semantic)

    @triton.jit
    def kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs, mask=offs < n)
        tl.store(y_ptr + offs, fast_exp(x) + hypot(x, 3), mask=offs < n)

    assert core.is_builtin(fast_exp) and core.dispatch and core.extern is tl.extern
    rng = np.random.default_rng(SEED)
    for dtype in (np.float32, np.float64):
        n = int(rng.integers(100, 1000))
        x = rng.standard_normal(n).astype(dtype)
        y = np.zeros_like(x)
        kernel[(triton.cdiv(n, 128),)](x, y, n, BLOCK=128)
        ref = np.exp(x.astype(np.float64)) + np.hypot(x.astype(np.float64), 3)
        np.testing.assert_allclose(y, ref, rtol=1e-5 if dtype == np.float32 else 1e-13)
    print("ok")
''')


@pytest.mark.parametrize("interpret", [False, True], ids=["compiled", "interpreted"])
def test_tritons_spelling_under_compat(interpret, tmp_path, conformance_seed):
    script = tmp_path / "extern_script.py"
    script.write_text(COMPAT_SCRIPT.replace("SEED", str(conformance_seed)))
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))
    env.pop("TRITON_INTERPRET", None)
    if interpret:
        env["TRITON_INTERPRET"] = "1"
    r = subprocess.run([sys.executable, "-m", "tessera.compat", str(script)], capture_output=True, text=True, env=env,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "ok", r.stdout
