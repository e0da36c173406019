"""Reductions over each axis and over everything (axis=None), keep_dims,
sum/max/min/argmax/argmin/xor_sum/reduce_or and reduce with a user combine function;
scans: cumsum/cumprod forward and reverse over each axis, and
associative_scan with a user combine function (also over two tiles)."""

import numpy as np

import tessera
import tessera.language as tl
from tessera.conformance import FLOATS, INTS, Case, Out, np_dtype, rand

M, N = 16, 32
NUMERIC = INTS + FLOATS


def dyadic(rng, shape, dt):
    """fp16/bf16 values whose partial sums (up to 32 terms) are exact in the
    type, so sums in any order match the reference exactly: Triton sums
    fp16/bf16 in that type."""
    step, k = (0.125, 32) if dt == "fp16" else (0.5, 8)
    return (rand(rng, shape, "i32", -k, k) * step).astype(np_dtype(dt))


@tessera.jit
def combine_max_abs(a, b):
    return tl.maximum(tl.abs(a), tl.abs(b))


@tessera.jit
def combine_argmin(v0, i0, v1, i1):
    take = (v1 < v0) | ((v1 == v0) & (i1 < i0))
    return tl.where(take, v1, v0), tl.where(take, i1, i0)


@tessera.jit
def reduce_kernel(x_ptr, out_ptr, OP: tl.constexpr, AXIS: tl.constexpr, KEEP: tl.constexpr, M: tl.constexpr,
                  N: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :])
    if OP == "sum":
        r = tl.sum(x, axis=AXIS, keep_dims=KEEP)
    elif OP == "max":
        r = tl.max(x, axis=AXIS, keep_dims=KEEP)
    elif OP == "min":
        r = tl.min(x, AXIS, keep_dims=KEEP)
    elif OP == "argmax":
        r = tl.argmax(x, axis=AXIS, keep_dims=KEEP)
    elif OP == "argmin":
        r = tl.argmin(x, axis=AXIS, keep_dims=KEEP)
    elif OP == "xor_sum":
        r = tl.xor_sum(x, axis=AXIS, keep_dims=KEEP)
    elif OP == "reduce_or":
        r = tl.reduce_or(x, axis=AXIS, keep_dims=KEEP)
    elif OP == "max_with_indices":
        v, i = tl.max(x, axis=AXIS, return_indices=True, keep_dims=KEEP)
        r = v.to(tl.float64) + i.to(tl.float64) * 1000
    elif OP == "reduce_fn":
        r = tl.reduce(x, AXIS, combine_max_abs, keep_dims=KEEP)
    elif OP == "reduce_tuple":
        if AXIS == 0:
            idx = tl.broadcast_to(tl.arange(0, M)[:, None], (M, N))
        else:
            idx = tl.broadcast_to(tl.arange(0, N)[None, :], (M, N))
        v, r = tl.reduce((x, idx), AXIS, combine_argmin, keep_dims=KEEP)
    else:
        tl.static_assert(OP == "method", "unknown op")
        r = x.sum(AXIS) if AXIS is not None else x.sum()
    if AXIS is None and not KEEP:
        tl.store(out_ptr, r)
    elif AXIS is None:
        tl.store(out_ptr + tl.zeros(r.shape, tl.int32), r)
    elif AXIS == 0:
        tl.store(out_ptr + tl.reshape(tl.arange(0, N), r.shape), r)
    else:
        tl.store(out_ptr + tl.reshape(tl.arange(0, M), r.shape), r)


# numpy's argmax/argmin take the first extreme: Triton's tie_break_left.
REDUCERS = {
    "sum": lambda x, ax: x.sum(axis=ax),
    "method": lambda x, ax: x.sum(axis=ax),
    "max": lambda x, ax: x.max(axis=ax),
    "min": lambda x, ax: x.min(axis=ax),
    "argmax": lambda x, ax: np.argmax(x, axis=ax),
    "argmin": lambda x, ax: np.argmin(x, axis=ax),
    "xor_sum": lambda x, ax: np.bitwise_xor.reduce(x, axis=ax),
    "reduce_or": lambda x, ax: np.bitwise_or.reduce(x, axis=ax),
    "max_with_indices": lambda x, ax: x.max(axis=ax) + np.argmax(x, axis=ax) * 1000.0,
    "reduce_fn": lambda x, ax: np.abs(x).max(axis=ax),
    "reduce_tuple": lambda x, ax: np.argmin(x, axis=ax),
}


def out_dtype(op, dt):
    if op in ("argmax", "argmin", "reduce_tuple"):
        return "i32"
    if op == "max_with_indices":
        return "fp64"
    if op in ("sum", "method", "xor_sum") and dt in ("i8", "i16"):
        return "i32"
    if op in ("sum", "method", "xor_sum") and dt in ("u8", "u16"):
        return "u32"
    return dt


def reduce_case(op, axis, keep, dtypes):
    size = {None: 1, 0: N, 1: M}[axis]

    def inputs(rng, dt):
        # Small integer ranges give ties, which arg* must break to the left.
        if op in ("sum", "method") and dt in ("fp16", "bf16"):
            x = dyadic(rng, (M, N), dt)
        else:   # small integer ranges give ties, which arg* must break to the left
            x = rand(rng, (M, N), dt, *((-5, 5) if op.startswith("arg") or op == "reduce_tuple" else (None, None)))
        return dict(x_ptr=x, out_ptr=Out(size, out_dtype(op, dt)), OP=op, AXIS=axis, KEEP=keep, M=M, N=N)

    def ref(a):
        x = a["x_ptr"]
        r = REDUCERS[op](x, axis)
        if op == "xor_sum" and x.dtype.itemsize < 4:
            r = np.bitwise_xor.reduce(x.astype(np.int64), axis=axis)   # widened as Triton's sum
        return {"out_ptr": np.asarray(r).reshape(-1)}

    name = "reduce.%s_axis%s%s" % (op, "None" if axis is None else axis, "_keep" if keep else "")
    # Sums of M or N terms round once per add.
    Case(name, reduce_kernel, inputs, ref, dtypes=dtypes,
         tol={"fp16": (8e-3, 8e-3), "bf16": (6e-2, 6e-2), "fp32": (1e-5, 1e-5), "fp64": (1e-12, 1e-12)})


for _axis in (0, 1, None):
    for _op in ["sum", "max", "min", "reduce_fn"]:
        reduce_case(_op, _axis, False, NUMERIC if _op != "reduce_fn" else ["i32", "i64", "fp16", "fp32", "fp64"])
    reduce_case("xor_sum", _axis, False, INTS)
    reduce_case("reduce_or", _axis, False, INTS)
    reduce_case("method", _axis, False, ["i32", "fp32"])
    reduce_case("sum", _axis, True, ["i8", "fp16", "fp32"])
    reduce_case("max", _axis, True, ["u16", "bf16", "fp32"])
for _axis in (0, 1):
    for _op in ["argmax", "argmin", "max_with_indices", "reduce_tuple"]:
        reduce_case(_op, _axis, False, ["i8", "u8", "i32", "i64", "fp16", "bf16", "fp32", "fp64"]
                    if _op != "max_with_indices" else ["i32", "fp32"])
    reduce_case("argmax", _axis, True, ["i32", "fp32"])


@tessera.jit
def combine_add_pairs(a0, a1, b0, b1):
    return a0 + b0, a1 * b1


@tessera.jit
def scan_kernel(x_ptr, out_ptr, OP: tl.constexpr, AXIS: tl.constexpr, REVERSE: tl.constexpr, M: tl.constexpr,
                N: tl.constexpr):
    i = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + i)
    if OP == "cumsum":
        r = tl.cumsum(x, axis=AXIS, reverse=REVERSE)
    elif OP == "cumprod":
        r = tl.cumprod(x, axis=AXIS, reverse=REVERSE)
    elif OP == "scan_fn":
        r = tl.associative_scan(x, AXIS, combine_max_abs, reverse=REVERSE)
    else:
        tl.static_assert(OP == "scan_tuple", "unknown op")
        s, p = tl.associative_scan((x, x), AXIS, combine_add_pairs, reverse=REVERSE)
        r = s + p
    tl.store(out_ptr + i, r)


def scan_ref(op, axis, reverse):
    def ref(a):
        x = a["x_ptr"]
        if reverse:
            x = np.flip(x, axis)
        if op == "cumsum":
            r = np.cumsum(x, axis=axis)
        elif op == "cumprod":
            r = np.cumprod(x, axis=axis)
        elif op == "scan_fn":
            # The first element passes through without the combine function.
            r = np.maximum.accumulate(np.abs(x), axis=axis)
            first = (slice(None),) * axis + (0,)
            r[first] = x[first]
        else:
            r = np.cumsum(x, axis=axis) + np.cumprod(x, axis=axis)
        return {"out_ptr": np.flip(r, axis) if reverse else r}
    return ref


def scan_case(op, axis, reverse, dtypes):
    def inputs(rng, dt):
        # cumprod: factors near 1 so products stay in range; ints of +-1 and +-2 wrap harmlessly.
        if op in ("cumprod", "scan_tuple"):
            x = rand(rng, (M, N), dt, *((0.9, 1.1) if dt in FLOATS else (-2, 2)))
        elif op == "cumsum" and dt in ("fp16", "bf16"):
            x = dyadic(rng, (M, N), dt)
        else:
            x = rand(rng, (M, N), dt)
        return dict(x_ptr=x, out_ptr=Out((M, N), out_dtype("sum", dt) if op == "cumsum" else dt), OP=op, AXIS=axis,
                    REVERSE=reverse, M=M, N=N)
    Case("scan.%s_axis%d%s" % (op, axis, "_reverse" if reverse else ""), scan_kernel, inputs,
         scan_ref(op, axis, reverse), dtypes=dtypes,
         tol={"fp16": (1e-2, 1e-2), "bf16": (6e-2, 6e-2), "fp32": (2e-5, 2e-5), "fp64": (1e-12, 1e-12)})


for _axis in (0, 1):
    for _rev in (False, True):
        scan_case("cumsum", _axis, _rev, NUMERIC)
        scan_case("cumprod", _axis, _rev, ["i8", "i32", "u32", "i64", "fp16", "fp32", "fp64"])
        scan_case("scan_fn", _axis, _rev, ["i32", "fp32"])
        scan_case("scan_tuple", _axis, _rev, ["i32", "fp32"])


@tessera.jit
def softmax_kernel(x_ptr, out_ptr, AXIS: tl.constexpr, M: tl.constexpr, N: tl.constexpr):
    i = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    # As in Triton, dim=1 without keep_dims cannot broadcast back over the rows.
    tl.store(out_ptr + i, tl.softmax(tl.load(x_ptr + i), dim=AXIS, keep_dims=AXIS == 1))


def softmax_ref(axis):
    def ref(a):
        e = np.exp(a["x_ptr"] - a["x_ptr"].max(axis=axis, keepdims=True))
        return {"out_ptr": e / e.sum(axis=axis, keepdims=True)}
    return ref


for _axis in (0, 1):
    Case("reduce.softmax_axis%d" % _axis, softmax_kernel,
         lambda rng, dt, ax=_axis: dict(x_ptr=rand(rng, (M, N), dt), out_ptr=Out((M, N), dt), AXIS=ax, M=M, N=N),
         softmax_ref(_axis), dtypes=["fp32", "fp64", "fp16"],
         tol={"fp32": (1e-5, 1e-6), "fp64": (1e-12, 1e-14), "fp16": (4e-3, 1e-4)})
