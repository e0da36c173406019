"""Elementwise operators and math: arithmetic with wrap-around, C-style
integer // and %, shifts, bitwise ops, comparisons, min/max with NaN
propagation, clamp, cdiv, umulhi, libdevice.mulhi, fdiv, div_rn, fma and the math functions,
on every dtype they apply to (Triton's result types)."""

import numpy as np

import tessera
import tessera.language as tl
from tessera.language.extra import libdevice
from tessera.conformance import FLOATS, INTS, SIGNED, Case, Out, full_range, np_dtype, rand

BLOCK = 128
NUMERIC = INTS + FLOATS


@tessera.jit
def binary_kernel(x_ptr, y_ptr, out_ptr, n, OP: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    y = tl.load(y_ptr + offs, mask=m)
    if OP == "add":
        r = x + y
    elif OP == "sub":
        r = x - y
    elif OP == "mul":
        r = x * y
    elif OP == "truediv":
        r = x / y
    elif OP == "floordiv":
        r = x // y
    elif OP == "mod" or OP == "fmod":
        r = x % y
    elif OP == "and":
        r = x & y
    elif OP == "or":
        r = x | y
    elif OP == "xor":
        r = x ^ y
    elif OP == "shl":
        r = x << y
    elif OP == "shr":
        r = x >> y
    elif OP == "lt":
        r = x < y
    elif OP == "le":
        r = x <= y
    elif OP == "gt":
        r = x > y
    elif OP == "ge":
        r = x >= y
    elif OP == "eq":
        r = x == y
    elif OP == "ne":
        r = x != y
    elif OP == "maximum" or OP == "maximum_nan_none":
        r = tl.maximum(x, y)
    elif OP == "minimum":
        r = tl.minimum(x, y)
    elif OP == "maximum_nan":
        r = tl.maximum(x, y, propagate_nan=tl.PropagateNan.ALL)
    elif OP == "minimum_nan":
        r = tl.minimum(x, y, propagate_nan=tl.PropagateNan.ALL)
    elif OP == "cdiv":
        r = tl.cdiv(x, y)
    elif OP == "umulhi":
        r = tl.umulhi(x, y)
    elif OP == "libdevice_mulhi":
        r = libdevice.mulhi(x, y)
    elif OP == "fdiv":
        r = tl.fdiv(x, y)
    elif OP == "div_rn":
        r = tl.div_rn(x, y)
    else:
        tl.static_assert(OP == "py_minmax", "unknown op")
        r = min(x, y) + max(x, y)
    tl.store(out_ptr + offs, r, mask=m)


def trunc_div(x, y):
    """C's integer division (toward zero), exact on int64/uint64."""
    if x.dtype.kind == "u":
        return x // y
    q = np.abs(x.astype(np.int64)) // np.abs(y.astype(np.int64))
    return np.where((x < 0) != (y < 0), -q, q)


def c_mod(x, y):
    return x.astype(np.int64) - trunc_div(x, y) * y.astype(np.int64) if x.dtype.kind == "i" else x % y


def umulhi(x, y):
    w = x.dtype.itemsize * 8
    ux = x.view("u%d" % x.dtype.itemsize).astype(object)
    uy = y.view("u%d" % y.dtype.itemsize).astype(object)
    return (((ux * uy) >> w) & ((1 << w) - 1)).astype("u%d" % x.dtype.itemsize).view(x.dtype)


def mulhi(x, y):
    """The high half of the exact product, signed as the operands' type."""
    w = x.dtype.itemsize * 8
    return np.array([((int(a) * int(b)) >> w) & ((1 << w) - 1) for a, b in zip(x, y)],
                    "u%d" % x.dtype.itemsize).view(x.dtype)


def binary(op, dtypes, ref, out=None, y=None, x=None, tol=None, xfail=None):
    """A case `elementwise.<op>`; out(dtype) is the result dtype, x/y(rng,
    n, dtype) draw the operands (default: rand)."""
    def inputs(rng, dt):
        n = int(rng.integers(1, 6)) * BLOCK + int(rng.integers(1, BLOCK))
        xs = x(rng, n, dt) if x else rand(rng, n, dt)
        ys = y(rng, n, dt) if y else rand(rng, n, dt)
        return dict(x_ptr=xs, y_ptr=ys, out_ptr=Out(n, out(dt) if out else dt), n=n, OP=op, BLOCK=BLOCK)
    with np.errstate(all="ignore"):
        Case("elementwise." + op, binary_kernel, inputs, lambda a: {"out_ptr": ref(a["x_ptr"], a["y_ptr"])},
             dtypes=dtypes, grid=lambda a: (tessera.cdiv(a["n"], BLOCK),), tol=tol, xfail=xfail)


def div_type(dt):
    return "fp64" if dt == "fp64" else "fp32"   # ints and fp16/bf16 divide in fp32 (Triton)


def shift_amount(rng, n, dt):
    dtype = np_dtype(dt)
    return rng.integers(0, dtype.itemsize * 8, n).astype(dtype)


def with_nans(rng, n, dt):
    v = rand(rng, n, dt).astype(np.float64)
    v[rng.random(n) < 0.2] = np.nan
    return v.astype(np_dtype(dt))


def nan_max(fn):
    return lambda x, y: np.where(np.isnan(x) | np.isnan(y), np.nan, fn(x, y))


binary("add", NUMERIC + ["fp8e4nv", "fp8e5"], lambda x, y: x + y)
binary("sub", NUMERIC, lambda x, y: x - y)
binary("mul", NUMERIC + ["fp8e4nv", "fp8e5"], lambda x, y: x * y)
binary("truediv", NUMERIC, lambda x, y: x.astype(np.float64) / y, out=div_type)
binary("floordiv", INTS, trunc_div)
binary("mod", INTS, c_mod)
binary("fmod", FLOATS, np.fmod, out=div_type)
binary("and", INTS + ["i1"], np.bitwise_and)
binary("or", INTS + ["i1"], np.bitwise_or)
binary("xor", INTS + ["i1"], np.bitwise_xor)
binary("shl", INTS, np.left_shift, y=shift_amount)
binary("shr", INTS, np.right_shift, y=shift_amount)
for _op, _fn in [("lt", np.less), ("le", np.less_equal), ("gt", np.greater), ("ge", np.greater_equal),
                 ("eq", np.equal), ("ne", np.not_equal)]:
    # Small integer ranges make equal pairs common, so eq/ne see both answers.
    binary(_op, NUMERIC + ["i1"], _fn, out=lambda dt: "i1",
           x=lambda rng, n, dt: rand(rng, n, dt, *((1, 4) if dt[0] in "iu" and dt != "i1" else (None, None))),
           y=lambda rng, n, dt: rand(rng, n, dt, *((1, 4) if dt[0] in "iu" and dt != "i1" else (None, None))))
binary("maximum", NUMERIC, np.fmax)
binary("minimum", NUMERIC, np.fmin)
# Without propagate_nan the non-NaN operand wins (IR.h); with ALL, NaN wins.
binary("maximum_nan_none", FLOATS, np.fmax, x=with_nans, y=with_nans)
binary("maximum_nan", FLOATS, nan_max(np.fmax), x=with_nans, y=with_nans)
binary("minimum_nan", FLOATS, nan_max(np.fmin), x=with_nans, y=with_nans)
binary("cdiv", INTS, lambda x, y: trunc_div(x.astype(np.int64) + y - 1, y.astype(np.int64)),
       x=lambda rng, n, dt: rand(rng, n, dt, 1, 100), y=lambda rng, n, dt: rand(rng, n, dt, 1, 9))
binary("umulhi", ["i32", "u32", "i64", "u64"], umulhi, x=full_range, y=full_range)
# Triton's libdevice defines mulhi on these four only (8- and 16-bit integers are refused).
binary("libdevice_mulhi", ["i32", "u32", "i64", "u64"], mulhi, x=full_range, y=full_range)
binary("fdiv", FLOATS, lambda x, y: x / y, tol={"fp32": (2e-6, 1e-6)})
binary("div_rn", FLOATS, lambda x, y: x / y)
binary("py_minmax", NUMERIC, lambda x, y: np.minimum(x, y) + np.maximum(x, y))


@tessera.jit
def unary_kernel(x_ptr, out_ptr, n, OP: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    if OP == "neg":
        r = -x
    elif OP == "invert":
        r = ~x
    elif OP == "not":
        r = not x
    elif OP == "exp":
        r = tl.exp(x)
    elif OP == "exp2":
        r = tl.exp2(x)
    elif OP == "log":
        r = tl.log(x)
    elif OP == "log2":
        r = tl.log2(x)
    elif OP == "sqrt":
        r = tl.sqrt(x)
    elif OP == "sqrt_rn":
        r = tl.sqrt_rn(x)
    elif OP == "rsqrt":
        r = tl.rsqrt(x)
    elif OP == "sin":
        r = tl.sin(x)
    elif OP == "cos":
        r = tl.cos(x)
    elif OP == "abs":
        r = tl.abs(x)
    elif OP == "floor":
        r = tl.floor(x)
    elif OP == "ceil":
        r = tl.ceil(x)
    elif OP == "erf":
        r = tl.erf(x)
    elif OP == "sigmoid":
        r = tl.sigmoid(x)
    elif OP == "math_exp":
        r = tl.math.exp(x)
    else:
        tl.static_assert(OP == "clamp", "unknown op")
        r = tl.clamp(x, -1.5, 2.0)
    tl.store(out_ptr + offs, r, mask=m)


# Transcendentals are accurate to a few ulp (IR.h), not correctly rounded.
MATH_TOL = {"fp64": (1e-13, 1e-14), "fp32": (5e-7, 1e-7), "fp16": (2e-3, 1e-3), "bf16": (1.6e-2, 1e-2)}


def unary(op, dtypes, ref, low=None, high=None, tol=None, out=None):
    def inputs(rng, dt):
        n = int(rng.integers(1, 6)) * BLOCK + int(rng.integers(1, BLOCK))
        return dict(x_ptr=rand(rng, n, dt, low, high), out_ptr=Out(n, out(dt) if out else dt), n=n, OP=op,
                    BLOCK=BLOCK)
    with np.errstate(all="ignore"):
        Case("elementwise." + op, unary_kernel, inputs, lambda a: {"out_ptr": ref(a["x_ptr"])}, dtypes=dtypes,
             grid=lambda a: (tessera.cdiv(a["n"], BLOCK),), tol=tol)


def erf(x):
    import math
    return np.vectorize(math.erf)(x)


unary("neg", SIGNED + FLOATS + ["u32"], np.negative)
unary("invert", INTS, np.invert)
unary("not", ["i1"], np.logical_not)
unary("exp", FLOATS, np.exp, tol=MATH_TOL)
unary("math_exp", FLOATS, np.exp, tol=MATH_TOL)
unary("exp2", FLOATS, np.exp2, tol=MATH_TOL)
unary("log", FLOATS, np.log, 0.01, 100.0, tol=MATH_TOL)
unary("log2", FLOATS, np.log2, 0.01, 100.0, tol=MATH_TOL)
unary("sqrt", FLOATS, np.sqrt, 0.01, 100.0)
unary("sqrt_rn", FLOATS, np.sqrt, 0.01, 100.0)
unary("rsqrt", FLOATS, lambda x: 1 / np.sqrt(x), 0.01, 100.0, tol=MATH_TOL)
unary("sin", FLOATS, np.sin, -10.0, 10.0, tol=MATH_TOL)
unary("cos", FLOATS, np.cos, -10.0, 10.0, tol=MATH_TOL)
unary("abs", SIGNED + FLOATS + ["u16"], np.abs)
unary("floor", FLOATS, np.floor, -50.0, 50.0)
unary("ceil", FLOATS, np.ceil, -50.0, 50.0)
unary("erf", FLOATS, erf, -3.0, 3.0, tol=MATH_TOL)
unary("sigmoid", FLOATS, lambda x: 1 / (1 + np.exp(-x)), -8.0, 8.0, tol=MATH_TOL)
unary("clamp", FLOATS, lambda x: np.clip(x, -1.5, 2.0))


@tessera.jit
def fma_kernel(x_ptr, y_ptr, z_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x, y, z = tl.load(x_ptr + offs, mask=m), tl.load(y_ptr + offs, mask=m), tl.load(z_ptr + offs, mask=m)
    tl.store(out_ptr + offs, tl.fma(x, y, z), mask=m)


def fma_inputs(rng, dt):
    n = int(rng.integers(1, 6)) * BLOCK + int(rng.integers(1, BLOCK))
    return dict(x_ptr=rand(rng, n, dt), y_ptr=rand(rng, n, dt), z_ptr=rand(rng, n, dt), out_ptr=Out(n, dt), n=n,
                BLOCK=BLOCK)


# The product is not rounded before the add: checked in fp32/fp64 where
# x*y+z in float64 is the exact fused result to far below an ulp.
Case("elementwise.fma", fma_kernel, fma_inputs, lambda a: {"out_ptr": a["x_ptr"] * a["y_ptr"] + a["z_ptr"]},
     dtypes=FLOATS, grid=lambda a: (tessera.cdiv(a["n"], BLOCK),),
     tol={"fp64": (1e-15, 1e-15), "fp32": (6e-8, 1e-7)})
