"""The language's builtins over numpy, for the interpreter: the functions the
frontend implements natively (frontend/Builtins.cpp); the part of the
language written in the language (Philox, softmax, most of libdevice) runs
from the frontend's own prelude text (_grid.prelude). Result types are the
frontend's: sums widen integers narrower than 32 bits, max/min of those
reduce in 32 bits, bf16 reduces and scans in fp32, math on fp16/bf16
computes in fp32 and float64 math in float64.

Layer 2, compile (python/tessera/__init__.py lists the layers)."""

import builtins as _py
import math

import numpy as np

from .. import language as tl
from . import _extern, _memory
from ._values import (InterpreterError, Tensor, broadcast_pair, cast, hooks, is_constant, np_dtype, operands, scalar,
                      to_tensor, unwrap, wrap)


class Program:
    """The program being run: its ids and the grid."""
    pid = (0, 0, 0)
    grid = (1, 1, 1)


def _axis(axis):
    axis = unwrap(axis)
    if axis not in (0, 1, 2):
        raise ValueError("program_id axis must be 0, 1 or 2, not %r" % (axis,))
    return axis


def program_id(axis):
    return scalar(Program.pid[_axis(axis)], tl.int32)


def num_programs(axis):
    return scalar(Program.grid[_axis(axis)], tl.int32)


def _shape(shape):
    shape = unwrap(shape)
    if isinstance(shape, (int, np.integer)):
        return (int(shape),)
    return tuple(int(unwrap(s)) for s in shape)


def _dtype(dtype, default=tl.float32):
    dtype = unwrap(dtype)
    if dtype is None:
        return default
    return tl.dtype._named(dtype) if isinstance(dtype, str) else dtype


def arange(start, end):
    start, end = int(unwrap(start)), int(unwrap(end))
    n = end - start
    if n <= 0 or n & (n - 1):
        raise ValueError("arange's range must be a power of 2, found %d" % n)
    return Tensor(np.arange(start, end, dtype=np.int32), tl.int32)


def full(shape, value, dtype):
    dt = _dtype(dtype)
    v = cast(to_tensor(unwrap(value)), dt)
    return Tensor(np.full(_shape(shape), v.data, dtype=np_dtype(dt)), dt)


def zeros(shape, dtype=tl.float32):
    return full(shape, 0, dtype)


def zeros_like(input, dtype=None):
    x = to_tensor(input)
    return full(x.shape, 0, _dtype(dtype, x.dtype))


def full_like(input, value, dtype=None):
    x = to_tensor(input)
    return full(x.shape, value, _dtype(dtype, x.dtype))


def cast_(input, dtype, fp_downcast_rounding=None, bitcast=False):
    return cast(to_tensor(unwrap(input)), _dtype(dtype), unwrap(fp_downcast_rounding), unwrap(bitcast))


def to_tensor_(x):
    return to_tensor(unwrap(x))


# ---- shapes

def reshape(input, *shape, can_reorder=False):
    x = to_tensor(input)
    if len(shape) == 1 and isinstance(unwrap(shape[0]), (list, tuple, tl.tuple)):
        shape = tuple(unwrap(shape[0]))
    shape = _shape(shape)
    if int(np.prod(shape)) != x.numel:
        raise ValueError("cannot reshape a tile of %d elements to %s" % (x.numel, list(shape)))
    return Tensor(x.data.reshape(shape), x.dtype)


def view(input, *shape):
    return reshape(input, *shape)


def _dims(dims):
    if len(dims) == 1 and isinstance(unwrap(dims[0]), (list, tuple, tl.tuple)):
        dims = tuple(unwrap(dims[0]))
    return tuple(int(unwrap(d)) for d in dims)


def trans(input, *dims):
    x = to_tensor(input)
    dims = _dims(dims)
    if not dims:  # the last two dimensions swap (as the frontend's and Triton's)
        if len(x.shape) < 2:
            raise ValueError("trans() without dims needs a tile of rank 2 or more, not %d-D" % len(x.shape))
        dims = tuple(range(len(x.shape) - 2)) + (len(x.shape) - 1, len(x.shape) - 2)
    return Tensor(np.transpose(x.data, dims), x.dtype)


def permute(input, *dims):
    return trans(input, *dims)


def broadcast_to(input, *shape):
    x = to_tensor(input)
    if len(shape) == 1 and isinstance(unwrap(shape[0]), (list, tuple, tl.tuple)):
        shape = tuple(unwrap(shape[0]))
    return Tensor(np.broadcast_to(x.data, _shape(shape)), x.dtype)


def broadcast(input, other):
    return broadcast_pair(to_tensor(input), to_tensor(other))


def expand_dims(input, axis):
    x = to_tensor(input)
    axes = unwrap(axis)
    axes = [axes] if isinstance(axes, int) else [int(unwrap(a)) for a in axes]
    return Tensor(np.expand_dims(x.data, tuple(axes)), x.dtype)


def ravel(x, can_reorder=False):
    x = to_tensor(x)
    return Tensor(x.data.reshape(-1), x.dtype)


def cat(input, other, can_reorder=False, dim=0):
    a, b = operands(input, other)
    return Tensor(np.concatenate([a.data, b.data], axis=int(unwrap(dim))), a.dtype)


def join(a, b):
    a, b = operands(a, b)
    return Tensor(np.stack([a.data, b.data], axis=-1), a.dtype)


def split(a):
    x = to_tensor(a)
    if not x.shape or x.shape[-1] != 2:
        raise ValueError("split() needs a tile whose last dimension is 2, not %s" % (list(x.shape),))
    return Tensor(x.data[..., 0], x.dtype), Tensor(x.data[..., 1], x.dtype)


def subscript(x, index):
    """x[None, :] and x[:, None]: new unit dimensions; no other indexing."""
    index = index if isinstance(index, tuple) else (index,)
    out = x.data
    k = 0
    for item in index:
        if item is None:
            out = np.expand_dims(out, k)
            k += 1
        elif isinstance(item, _py.slice) and item == _py.slice(None):
            k += 1
        else:
            raise ValueError("tiles are indexed only with None and ':' (found %r)" % (item,))
    return Tensor(out, x.dtype)


def logical(op, x, y):
    """`and`/`or` of tiles: elementwise on their truth values."""
    a, b = broadcast_pair(to_tensor(unwrap(x)), to_tensor(unwrap(y)))
    fn = np.logical_and if op == "and" else np.logical_or
    return Tensor(fn(a.data.astype(bool), b.data.astype(bool)), tl.int1)


def item(x):
    x = to_tensor(x)
    if x.numel != 1:
        raise ValueError("item() needs a tile of one element, not %s" % (list(x.shape),))
    return Tensor(x.data.reshape(()), x.dtype)


# ---- selection, min and max

def where(condition, x, y):
    c = to_tensor(unwrap(condition))
    a, b = operands(x, y)
    c_data = c.data.astype(bool)
    shape = np.broadcast_shapes(c_data.shape, a.shape)
    return Tensor(np.where(c_data, np.broadcast_to(a.data, shape), b.data), a.dtype)


def _extremum(x, y, pick, propagate_nan):
    a, b = operands(x, y)
    if a.dtype.is_floating():
        wide = np.float64 if a.dtype.name == "fp64" else np.float32
        fn = {("max", False): np.fmax, ("max", True): np.maximum, ("min", False): np.fmin,
              ("min", True): np.minimum}[(pick, bool(unwrap(propagate_nan)))]
        return Tensor(fn(a.data.astype(wide), b.data.astype(wide)).astype(a.data.dtype), a.dtype)
    return Tensor((np.maximum if pick == "max" else np.minimum)(a.data, b.data), a.dtype)


def maximum(x, y, propagate_nan=0):
    return _extremum(x, y, "max", propagate_nan)


def minimum(x, y, propagate_nan=0):
    return _extremum(x, y, "min", propagate_nan)


def clamp(x, min, max, propagate_nan=0):
    return minimum(maximum(x, min, propagate_nan), max, propagate_nan)


def _python_extremum(python, elementwise):
    """Python's min or max inside a kernel: elementwise on tiles."""
    def apply(*args, **kwargs):
        if len(args) == 1 or not _py.any(isinstance(unwrap(a), Tensor) for a in args):
            return python(*args, **kwargs)
        out = args[0]
        for a in args[1:]:
            out = elementwise(out, a)
        return out
    apply.__name__ = python.__name__
    return apply


py_min = _python_extremum(_py.min, minimum)
py_max = _python_extremum(_py.max, maximum)


# ---- math

def _float_arg(x, name):
    x = unwrap(x)
    if is_constant(x) and not isinstance(x, bool):
        x = float(x)
    t = to_tensor(x)
    if not t.dtype.is_floating():
        raise TypeError("%s() needs floating-point input, found %s; cast it first with .to(tl.float32)"
                        % (name, t.dtype.name))
    return t


def _math(fn, name, ints_too=False):
    def apply(x):
        t = to_tensor(unwrap(x)) if ints_too else _float_arg(x, name)
        if ints_too and t.dtype.is_int():
            return Tensor(fn(t.data), t.dtype)
        wide = np.float64 if t.dtype.name == "fp64" else np.float32
        with np.errstate(all="ignore"):
            return Tensor(fn(t.data.astype(wide)).astype(t.data.dtype), t.dtype)
    apply.__name__ = name
    return apply


def _erf(x):
    return np.vectorize(math.erf, otypes=[np.float64])(x.astype(np.float64)).astype(x.dtype) if x.size else x


def _per_element(f):
    def apply(x):
        return np.vectorize(f, otypes=[np.float64])(x.astype(np.float64)).astype(x.dtype) if x.size else x
    return apply


def _rsqrt(x):
    return 1 / np.sqrt(x)


_UNARY = {
    "abs": (np.abs, True), "ceil": (np.ceil, False), "floor": (np.floor, False), "exp": (np.exp, False),
    "exp2": (np.exp2, False), "log": (np.log, False), "log2": (np.log2, False), "cos": (np.cos, False),
    "sin": (np.sin, False), "sqrt": (np.sqrt, False), "sqrt_rn": (np.sqrt, False), "rsqrt": (_rsqrt, False),
    "erf": (_erf, False),
}
_LIBDEVICE_UNARY = {
    "trunc": np.trunc, "rint": np.rint, "tan": np.tan, "exp10": lambda v: np.power(10.0, v).astype(v.dtype),
    "cosh": np.cosh, "sinh": np.sinh, "tanh": np.tanh, "atan": np.arctan, "asin": np.arcsin, "acos": np.arccos,
    "log10": np.log10, "log1p": np.log1p, "acosh": np.arccosh, "asinh": np.arcsinh, "atanh": np.arctanh,
    "expm1": np.expm1, "cbrt": np.cbrt, "erfc": lambda v: 1 - _erf(v) if v.dtype != np.float64 else
    _per_element(math.erfc)(v), "lgamma": _per_element(lambda v: math.lgamma(v) if v not in (0.0,) and not
                                                       (v < 0 and v == int(v)) else float("inf")),
    "tgamma": _per_element(lambda v: _gamma(v)), "round": lambda v: np.where(v >= 0, np.floor(v + 0.5),
                                                                           np.ceil(v - 0.5)).astype(v.dtype),
}


def _gamma(v):
    try:
        return math.gamma(v)
    except (ValueError, OverflowError):
        return float("nan") if v != v or (v <= 0 and v == int(v) and v != 0) else math.copysign(float("inf"), v)


def _bessel(name):
    def apply(*args):
        try:
            import scipy.special as sp
        except ImportError:
            raise InterpreterError("libdevice.%s needs scipy in the interpreter" % name) from None
        fn = {"j0": lambda x: sp.j0(x), "j1": lambda x: sp.j1(x), "y0": lambda x: sp.y0(x), "y1": lambda x: sp.y1(x),
              "jn": lambda n, x: sp.jv(n, x), "yn": lambda n, x: sp.yn(n, x)}[name]
        ts = [to_tensor(unwrap(a)) for a in args]
        x = ts[-1]
        dt = x.dtype if x.dtype.is_floating() else tl.float32  # an integer x is an fp32 value
        with np.errstate(all="ignore"):
            data = fn(*([t.data for t in ts[:-1]] + [x.data.astype(np.float64)]))
            if dt.primitive_bitwidth < 32:  # fp16 and bf16 compute in fp32 and round back (the frontend's)
                data = np.asarray(data).astype(np.float32)
        return Tensor(np.asarray(data).astype(np_dtype(dt)), dt)
    return apply


def _binary_float(fn, name):
    def apply(x, y):
        a, b = operands(_float_or_tile(x), _float_or_tile(y))
        if not a.dtype.is_floating():
            raise TypeError("%s() needs floating-point operands, found %s" % (name, a.dtype.name))
        wide = np.float64 if a.dtype.name == "fp64" else np.float32
        with np.errstate(all="ignore"):
            return Tensor(fn(a.data.astype(wide), b.data.astype(wide)).astype(a.data.dtype), a.dtype)
    return apply


def _float_or_tile(x):
    x = unwrap(x)
    return float(x) if is_constant(x) and not isinstance(x, bool) else x


def fma(x, y, z):
    a, b = operands(_float_or_tile(x), _float_or_tile(y))
    a, c = operands(a, _float_or_tile(z))
    b, _ = broadcast_pair(b, c)
    if a.dtype.name == "fp64":
        exact = _fma64(a.data, b.data, c.data)
    else:
        exact = (a.data.astype(np.float64) * b.data.astype(np.float64) + c.data.astype(np.float64))
    return Tensor(exact.astype(a.data.dtype), a.dtype)


def _fma64(a, b, c):
    from fractions import Fraction
    out = np.empty(np.broadcast_shapes(a.shape, b.shape, c.shape), dtype=np.float64)
    a, b, c = (np.broadcast_to(v, out.shape) for v in (a, b, c))
    for i in np.ndindex(out.shape):
        x, y, z = float(a[i]), float(b[i]), float(c[i])
        if not all(map(math.isfinite, (x, y, z))):
            out[i] = x * y + z
        else:
            out[i] = float(Fraction(x) * Fraction(y) + Fraction(z))
    return out


def div_rn(x, y):
    return _binary_float(np.divide, "div_rn")(x, y)


def fdiv(x, y, ieee_rounding=False):
    return _binary_float(np.divide, "fdiv")(x, y)


def umulhi(x, y):
    a, b = operands(x, y)
    if not a.dtype.is_int():
        raise TypeError("umulhi() needs integers, found %s" % a.dtype.name)
    bits = a.dtype.primitive_bitwidth
    ua = a.data.astype(np.uint64 if bits == 64 else np.int64).astype(object) % (1 << bits)
    ub = b.data.astype(np.uint64 if bits == 64 else np.int64).astype(object) % (1 << bits)
    hi = (ua * ub) >> bits
    unsigned = np.array(hi, dtype=object).astype(np.uint64).astype("u%d" % (bits // 8))
    return Tensor(unsigned.view(np_dtype(a.dtype)).reshape(a.shape), a.dtype)


def cdiv(x, div):
    x, div = unwrap(x), unwrap(div)
    if not isinstance(x, Tensor) and not isinstance(div, Tensor):
        return (x + div - 1) // div
    return (x + div - 1) // div


# ---- reductions and scans

def _reduce_axis(x, axis):
    axis = unwrap(axis)
    if axis is None:
        return Tensor(x.data.reshape(-1), x.dtype), 0, True
    axis = int(axis)
    if axis < 0:
        axis += len(x.shape)
    if not 0 <= axis < len(x.shape):
        raise ValueError("axis %d is out of range for a %d-D tile" % (axis, len(x.shape)))
    return x, axis, False


def _keep(result, x, axis, all_, keep_dims):
    if not unwrap(keep_dims):
        return result
    shape = [1] * len(x.shape) if all_ else [1 if d == axis else s for d, s in enumerate(x.shape)]
    return Tensor(result.data.reshape(shape), result.dtype)


def _accumulation(dt):
    if dt.is_int() and not dt.is_bool() and dt.primitive_bitwidth < 32:
        return tl.int32 if dt.is_int_signed() else tl.uint32
    return dt


def sum(input, axis=None, keep_dims=False, dtype=None):
    x = to_tensor(input)
    acc = _dtype(dtype, _accumulation(x.dtype)) if unwrap(dtype) is not None else _accumulation(x.dtype)
    x = cast(x, acc)
    flat, ax, all_ = _reduce_axis(x, axis)
    with np.errstate(all="ignore"):
        data = flat.data.astype(np.float64 if acc.name in ("fp16", "bf16") else flat.data.dtype)
        r = np.add.reduce(data, axis=ax).astype(np_dtype(acc)) if not acc.is_bool() else \
            np.bitwise_xor.reduce(data, axis=ax)
    return _keep(Tensor(r, acc), x, ax, all_, keep_dims)


def xor_sum(input, axis=None, keep_dims=False, dtype=None):
    x = to_tensor(input)
    if not x.dtype.is_int():
        raise TypeError("xor_sum needs integers")
    acc = _dtype(dtype, _accumulation(x.dtype)) if unwrap(dtype) is not None else _accumulation(x.dtype)
    x = cast(x, acc)
    flat, ax, all_ = _reduce_axis(x, axis)
    return _keep(Tensor(np.bitwise_xor.reduce(flat.data, axis=ax), acc), x, ax, all_, keep_dims)


def reduce_or(input, axis=None, keep_dims=False):
    x = to_tensor(input)
    if not x.dtype.is_int():
        raise TypeError("reduce_or needs integers")
    flat, ax, all_ = _reduce_axis(x, axis)
    return _keep(Tensor(np.bitwise_or.reduce(flat.data, axis=ax), x.dtype), x, ax, all_, keep_dims)


def _minmax(input, axis, keep_dims, pick, with_indices, tie_left):
    x = to_tensor(input)
    dt = x.dtype
    if dt.name == "bf16":
        x = cast(x, tl.float32)
    if not with_indices and dt.primitive_bitwidth < 32 and not dt.is_bool():
        x = cast(x, tl.float32 if dt.is_floating() else tl.int32)
    flat, ax, all_ = _reduce_axis(x, axis)
    data = flat.data
    fmax = np.fmax if pick == "max" else np.fmin
    if x.dtype.is_floating():
        values = fmax.reduce(data, axis=ax)
    else:
        values = (np.max if pick == "max" else np.min)(data, axis=ax)
    out = Tensor(np.asarray(values, dtype=data.dtype), x.dtype)
    if not with_indices:
        return _keep(out, x, ax, all_, keep_dims)
    moved = np.moveaxis(data, ax, -1)
    best = np.expand_dims(np.asarray(values, dtype=data.dtype), -1)
    hit = (moved == best) | ((moved != moved) & (best != best)) if x.dtype.is_floating() else moved == best
    n = moved.shape[-1]
    idx = np.argmax(hit, axis=-1) if unwrap(tie_left) else n - 1 - np.argmax(hit[..., ::-1], axis=-1)
    index = Tensor(idx.astype(np.int32), tl.int32)
    return _keep(out, x, ax, all_, keep_dims), _keep(index, x, ax, all_, keep_dims)


def max(input, axis=None, return_indices=False, return_indices_tie_break_left=True, keep_dims=False):
    return _minmax(input, axis, keep_dims, "max", unwrap(return_indices), return_indices_tie_break_left)


def min(input, axis=None, return_indices=False, return_indices_tie_break_left=True, keep_dims=False):
    return _minmax(input, axis, keep_dims, "min", unwrap(return_indices), return_indices_tie_break_left)


def argmax(input, axis, tie_break_left=True, keep_dims=False):
    return _minmax(input, axis, keep_dims, "max", True, tie_break_left)[1]


def argmin(input, axis, tie_break_left=True, keep_dims=False):
    return _minmax(input, axis, keep_dims, "min", True, tie_break_left)[1]


def _call(fn, *args):
    return hooks["call_function"](fn, args, {})


def reduce(input, axis, combine_fn, keep_dims=False):
    """A reduction by a combine function, applied in order along the axis
    (a device combines in a tree; for an associative function the
    results agree up to rounding)."""
    single = not isinstance(input, (tuple, list, tl.tuple))
    xs = [to_tensor(input)] if single else [to_tensor(v) for v in input]
    axis = unwrap(axis)
    if axis is None:
        xs = [Tensor(x.data.reshape(-1), x.dtype) for x in xs]
        ax, all_ = 0, True
    else:
        ax, all_ = int(axis) % _py.max(len(xs[0].shape), 1), False
    n = xs[0].shape[ax]
    acc = [Tensor(np.take(x.data, 0, axis=ax), x.dtype) for x in xs]
    for i in range(1, n):
        nxt = [Tensor(np.take(x.data, i, axis=ax), x.dtype) for x in xs]
        out = _call(combine_fn, *(acc + nxt))
        out = [out] if single else list(out)
        acc = [cast(to_tensor(o), a.dtype) if to_tensor(o).dtype != a.dtype and not to_tensor(o).dtype.is_ptr()
               else to_tensor(o) for o, a in zip(out, acc)]
    res = [_keep(a, x, ax, all_, keep_dims) for a, x in zip(acc, xs)]
    return res[0] if single else tuple(res)


def associative_scan(input, axis, combine_fn, reverse=False):
    single = not isinstance(input, (tuple, list, tl.tuple))
    xs = [to_tensor(input)] if single else [to_tensor(v) for v in input]
    ax = int(unwrap(axis)) % len(xs[0].shape)
    n = xs[0].shape[ax]
    order = range(n - 1, -1, -1) if unwrap(reverse) else range(n)
    outs = [np.empty_like(x.data) for x in xs]
    acc = None
    for i in order:
        cur = [Tensor(np.take(x.data, i, axis=ax), x.dtype) for x in xs]
        if acc is None:
            acc = cur
        else:
            r = _call(combine_fn, *(acc + cur))
            acc = [to_tensor(v) for v in ([r] if single else list(r))]
        for o, a in zip(outs, acc):
            index = [_py.slice(None)] * o.ndim
            index[ax] = i
            o[tuple(index)] = a.data
    res = [Tensor(o, a.dtype) for o, a in zip(outs, acc)]
    return res[0] if single else tuple(res)


def _scan(input, axis, reverse, dtype, op):
    x = to_tensor(input)
    acc = tl.float32 if x.dtype.name == "bf16" else x.dtype
    if op == "add":
        acc = _accumulation(acc)
    if unwrap(dtype) is not None:
        acc = _dtype(dtype)
    x = cast(x, acc)
    ax = int(unwrap(axis)) % len(x.shape)
    data = np.flip(x.data, ax) if unwrap(reverse) else x.data
    with np.errstate(all="ignore"):
        out = (np.cumsum if op == "add" else np.cumprod)(data, axis=ax, dtype=data.dtype)
    if unwrap(reverse):
        out = np.flip(out, ax)
    return Tensor(np.ascontiguousarray(out), acc)


def cumsum(input, axis=0, reverse=False, dtype=None):
    return _scan(input, axis, reverse, dtype, "add")


def cumprod(input, axis=0, reverse=False, dtype=None):
    return _scan(input, axis, reverse, dtype, "mul")


def _bitonic_stage(a, stage, flip_bit, descending):
    """One stage of Triton's bitonic network along a's last axis (as the
    frontend's bitonicStage): compare-and-swap across index bits stage-1 .. 0,
    where each element takes its partner's value if (element > partner) !=
    (flip ^ it is the upper one), flip being index bit `flip_bit` (or
    `descending` everywhere when flip_bit < 0). NaN compares false."""
    idx = np.arange(a.shape[-1])
    flip = ((idx >> flip_bit) & 1).astype(bool) if flip_bit >= 0 else np.full(idx.shape, bool(descending))
    for b in range(stage - 1, -1, -1):
        other = a[..., idx ^ (1 << b)]
        with np.errstate(invalid="ignore"):
            take = (a > other) != (flip ^ ((idx >> b) & 1).astype(bool))
        a = np.where(take, other, a)
    return a


def _network_axis(t, dim, what):
    ax = len(t.shape) - 1 if unwrap(dim) is None else int(unwrap(dim)) % len(t.shape)
    n = t.shape[ax]
    if n & (n - 1):
        raise ValueError("%s needs a power-of-two dimension, found %d" % (what, n))
    return ax, n.bit_length() - 1


def sort(x, dim=None, descending=False):
    t = to_tensor(x)
    ax, log_n = _network_axis(t, dim, "sort")
    a = np.moveaxis(t.data, ax, -1)
    for s in range(1, log_n + 1):
        a = _bitonic_stage(a, s, s if s < log_n else -1, unwrap(descending))
    return Tensor(np.ascontiguousarray(np.moveaxis(a, -1, ax)), t.dtype)


def topk(x, k, dim=None, descending=True):
    """Triton's bitonic top-k (the frontend's topk): runs of k sorted, then
    pairs of runs reduced by max (min) and merged until one run is left."""
    t = to_tensor(x)
    ax, log_n = _network_axis(t, dim, "topk")
    k = int(unwrap(k))
    if k < 1 or k > (1 << log_n) or k & (k - 1):
        raise ValueError("topk: k must be a power of two from 1 to the dimension's %d, found %d" % (1 << log_n, k))
    desc = unwrap(descending)
    log_k = k.bit_length() - 1
    a, dt = np.moveaxis(t.data, ax, -1), t.dtype
    for s in range(1, log_k + 1):
        a = _bitonic_stage(a, s, s if s < log_n else -1, desc)
    for s in range(log_k + 1, log_n + 1):
        m = a.shape[-1]
        pairs = Tensor(np.ascontiguousarray(a.reshape(a.shape[:-1] + (m // (2 * k), 2, k))), dt)
        r = (max if desc else min)(pairs, a.ndim)  # the axis of the pair
        a, dt = r.data.reshape(a.shape[:-1] + (m // 2,)), r.dtype
        a = _bitonic_stage(a, log_k, log_k if s < log_n else -1, desc)
    return Tensor(np.ascontiguousarray(np.moveaxis(a, -1, ax)), dt)


def flip(x, dim=None):
    t = to_tensor(x)
    ax = len(t.shape) - 1 if unwrap(dim) is None else int(unwrap(dim)) % len(t.shape)
    return Tensor(np.flip(t.data, ax).copy(), t.dtype)


def histogram(input, num_bins, mask=None):
    x = to_tensor(input)
    bins = int(unwrap(num_bins))
    data = x.data.reshape(-1).astype(np.int64)
    keep = (data >= 0) & (data < bins)
    if unwrap(mask) is not None:
        keep &= np.broadcast_to(to_tensor(unwrap(mask)).data.astype(bool), x.shape).reshape(-1)
    return Tensor(np.bincount(data[keep], minlength=bins).astype(np.int32), tl.int32)


def gather(src, index, axis):
    """src's elements at `index` along `axis`; an index outside the axis
    gives 0."""
    s, i = to_tensor(src), to_tensor(index)
    ax = int(unwrap(axis))
    idx = i.data.astype(np.int64)
    inside = (idx >= 0) & (idx < s.shape[ax])
    picked = np.take_along_axis(s.data, np.where(inside, idx, 0), axis=ax)
    return Tensor(np.where(inside, picked, np.zeros_like(picked)), s.dtype)


# ---- dot

def dot(input, other, acc=None, input_precision=None, allow_tf32=None, max_num_imprecise_acc=None,
        out_dtype=tl.float32):
    """a @ b: exact products summed in float64 (int64 for integers), then
    rounded once to the result type; tf32 inputs are not rounded. The result
    type is Triton's (the frontend's): int32 for integers, fp32 for fp32 and
    bf16, fp64 for fp64, out_dtype (fp16 or fp32) otherwise; an acc must have
    that type and be out_dtype."""
    a, b = to_tensor(input), to_tensor(other)
    out_arg = _dtype(out_dtype)
    name = lambda t: t.name
    fixed = True
    if a.dtype.is_int():
        out_dt = tl.int32
        prod = np.matmul(a.data.astype(np.int64), b.data.astype(np.int64))
    else:
        if out_arg == tl.bfloat16:
            raise ValueError("tl.dot: out_dtype=bfloat16 is unsupported (as in Triton): use out_dtype=tl.float32 or "
                             "tl.float16 and cast with .to(tl.bfloat16)")
        if a.dtype in (tl.float32, tl.bfloat16, tl.float64):
            out_dt = tl.float64 if a.dtype == tl.float64 else tl.float32
        else:
            fixed = False
            if out_arg not in (tl.float32, tl.float16):
                raise ValueError("tl.dot of %s operands: out_dtype must be float32 or float16, found %s"
                                 % (name(a.dtype), name(out_arg)))
            out_dt = out_arg
        prod = np.matmul(a.data.astype(np.float64), b.data.astype(np.float64))
    acc = unwrap(acc)
    if acc is not None:
        c = to_tensor(acc)
        if c.dtype != out_dt:
            raise ValueError("tl.dot of %s operands gives %s %s; its accumulator must be %s, found %s" % (
                name(a.dtype), name(out_dt), "whatever out_dtype is" if fixed else "with out_dtype=" + name(out_arg),
                name(out_dt), name(c.dtype)))
        if c.dtype != out_arg:
            raise ValueError("tl.dot: the accumulator's dtype %s must be out_dtype, which is %s (as Triton asserts)"
                             % (name(c.dtype), name(out_arg)))
        prod = prod + c.data.astype(prod.dtype)
    with np.errstate(all="ignore"):
        return Tensor(prod.astype(np_dtype(out_dt)), out_dt)


# ---- hints, assertions, printing

def _identity(input, *args, **kwargs):
    return input


def assume(cond):
    return None


def debug_barrier():
    return None


def static_assert(cond, msg=""):
    if not unwrap(cond):
        from .._C import CompileTimeAssertionFailure
        raise CompileTimeAssertionFailure(0, "static_assert failed: %s" % unwrap(msg))


def static_print(*values, sep=" ", end="\n", file=None, flush=False):
    print(*[unwrap(v) for v in values], sep=sep, end=end, file=file, flush=flush)


def _print_prefix(prefix, has_values):
    """Triton's normal form of a device_print prefix (the frontend's too)."""
    if has_values:
        if not prefix.endswith(" "):
            prefix += " "
        if not prefix.endswith(": "):
            prefix = prefix[:-1] + ": "
    return " " + prefix if len(prefix) > 2 and not prefix.startswith(" ") else prefix


def _print_value(value, dtype, hex):
    if dtype.is_floating():
        if not hex:
            return "%f" % float(value)
        mantissa, exponent = float(value).hex().split("p")  # as C's %a: no trailing zeros
        return mantissa.rstrip("0").rstrip(".") + "p" + exponent
    if dtype.is_ptr():
        return "0x%x" % int(value)
    bits = dtype.primitive_bitwidth
    if hex:
        return "0x%0*x" % ((bits + 3) // 4 if bits > 8 else 2, int(value) & ((1 << bits) - 1))
    return str(int(value))


def device_print(prefix, *args, hex=False):
    """One line per element of each operand, as the compiled kernels print
    them (ir/PrintFormat.h): "pid (x, y, z) idx (  i,  j) x: value", with
    "(operand n) " before the value when there are several."""
    hex = bool(unwrap(hex))
    prefix = _print_prefix(unwrap(prefix), bool(args))
    pid = "pid (%d, %d, %d)" % Program.pid
    if not args:
        print(pid + prefix)
        return
    for n, arg in enumerate(args):
        t = to_tensor(unwrap(arg))
        which = "(operand %d) " % n if len(args) > 1 else ""
        widths = [len(str(d - 1)) if d > 1 else 1 for d in t.shape]
        data = np.asarray(t.data)
        for idx in np.ndindex(t.shape) if t.shape else [()]:
            index = ", ".join("%*d" % (w, i) for w, i in zip(widths, idx))
            print("%s idx (%s)%s%s%s" % (pid, index, prefix, which, _print_value(data[idx], t.dtype, hex)))


def device_assert(cond, msg="", mask=None):
    c = to_tensor(unwrap(cond))
    bad = ~c.data.astype(bool)
    if unwrap(mask) is not None:  # Triton checks cond | ~mask (the two broadcast together)
        bad, m = np.broadcast_arrays(bad, to_tensor(unwrap(mask)).data.astype(bool))
        bad = bad & m
    if bad.any():
        from .._C import ERROR_ASSERT, DeviceAssertionError
        where = np.argwhere(bad)[0] if bad.ndim else ()
        raise DeviceAssertionError(ERROR_ASSERT, "device assertion failed in program (%d, %d, %d) at index %s: %s"
                                   % (Program.pid + (tuple(int(i) for i in where), unwrap(msg))))


def inline_asm_elementwise(*args, **kwargs):
    raise InterpreterError("tl.inline_asm_elementwise cannot run in the interpreter (it is target assembly)")


def static_range(arg1, arg2=None, step=None, **kwargs):
    args = [int(unwrap(a)) for a in (arg1, arg2, step) if unwrap(a) is not None]
    return range(*args)


def loop_range(arg1, arg2=None, step=None, num_stages=None, loop_unroll_factor=None, disallow_acc_multi_buffer=False,
               flatten=False, warp_specialize=False, disable_licm=False):
    """tl.range and Python's range in a kernel: scalar int32 tiles (int64
    when a bound is), as the loop variable of a compiled loop."""
    bounds = [unwrap(a) for a in (arg1, arg2, step) if unwrap(a) is not None]
    wide = _py.any(isinstance(b, Tensor) and b.dtype.primitive_bitwidth == 64 for b in bounds) or \
        _py.any(not isinstance(b, Tensor) and not -2**31 <= int(b) < 2**31 for b in bounds)
    dt = tl.int64 if wide else tl.int32
    make = np.int64 if wide else np.int32
    for i in range(*[int(b) for b in bounds]):
        yield wrap(make(i), dt)


# ---- the registry: stub name -> implementation

def _math_table():
    table = {name: _math(fn, name, ints_too) for name, (fn, ints_too) in _UNARY.items()}
    table.update(fma=fma, div_rn=div_rn, fdiv=fdiv, umulhi=umulhi, maximum=maximum, minimum=minimum, clamp=clamp,
                 max=max, min=min)
    return table


def abs_(x):
    return _math(np.abs, "abs", True)(x)


def _libdevice_table():
    table = {name: _math(fn, name) for name, fn in _LIBDEVICE_UNARY.items()}
    for name in ("j0", "j1", "y0", "y1", "jn", "yn"):
        table[name] = _bessel(name)
    table.update(abs=abs_, floor=_math(np.floor, "floor"), ceil=_math(np.ceil, "ceil"),
                 rsqrt=_math(_rsqrt, "rsqrt"), exp2=_math(np.exp2, "exp2"), exp=_math(np.exp, "exp"),
                 log=_math(np.log, "log"), log2=_math(np.log2, "log2"), sin=_math(np.sin, "sin"),
                 cos=_math(np.cos, "cos"), sqrt=_math(np.sqrt, "sqrt"), sqrt_rn=_math(np.sqrt, "sqrt_rn"),
                 erf=_math(_erf, "erf"), div_rn=div_rn, fdiv=fdiv, umulhi=umulhi, fma=fma, max=maximum,
                 min=minimum, maximum=maximum, minimum=minimum, clamp=clamp,
                 copysign=_binary_float(np.copysign, "copysign"), atan2=_binary_float(np.arctan2, "atan2"),
                 hypot=_binary_float(np.hypot, "hypot"), fmod=_binary_float(np.fmod, "fmod"),
                 pow=_binary_float(np.power, "pow"))
    return table


def _core_table():
    table = dict(program_id=program_id, num_programs=num_programs, arange=arange, zeros=zeros, zeros_like=zeros_like,
                 full=full, full_like=full_like, cast=cast_, to_tensor=to_tensor_, load=_memory.load,
                 store=_memory.store, make_block_ptr=_memory.BlockPointer,
                 advance=lambda base, offsets: base.advance(offsets),
                 make_tensor_descriptor=_memory.TensorDescriptor,
                 load_tensor_descriptor=lambda desc, offsets: desc.load(offsets),
                 store_tensor_descriptor=lambda desc, offsets, value: desc.store(offsets, value),
                 dot=dot, sum=sum, max=max, min=min, argmax=argmax, argmin=argmin, xor_sum=xor_sum,
                 reduce_or=reduce_or, reduce=reduce, cumsum=cumsum, cumprod=cumprod, associative_scan=associative_scan,
                 flip=flip, sort=sort, topk=topk, histogram=histogram, gather=gather, where=where, maximum=maximum,
                 minimum=minimum, clamp=clamp, item=item, reshape=reshape, view=view, trans=trans, permute=permute,
                 broadcast=broadcast, broadcast_to=broadcast_to, expand_dims=expand_dims, ravel=ravel, cat=cat,
                 join=join, split=split, multiple_of=_identity, max_contiguous=_identity, max_constancy=_identity,
                 assume=assume, static_range=static_range, range=loop_range, static_assert=static_assert,
                 static_print=static_print, device_print=device_print, device_assert=device_assert,
                 debug_barrier=debug_barrier, cdiv=cdiv, inline_asm_elementwise=inline_asm_elementwise,
                 next_power_of_2=lambda n: 1 << (int(unwrap(n)) - 1).bit_length())
    table["core.extern"] = _extern.call  # an extern function (tl.extern) called by the kernel
    for name in ("atomic_add", "atomic_max", "atomic_min", "atomic_and", "atomic_or", "atomic_xor", "atomic_xchg"):
        table[name] = (lambda op: lambda pointer, val, mask=None, sem=None, scope=None:
                       _memory.atomic(op, pointer, val, mask, sem, scope))(name[len("atomic_"):])
    table["atomic_cas"] = lambda pointer, cmp, val, sem=None, scope=None: _memory.atomic("cas", pointer, val, None,
                                                                                         sem, scope, cmp)
    table.update(_math_table())
    table["abs"] = abs_
    return table


def _cuda_table():
    import time
    return {"globaltimer": lambda: scalar(time.perf_counter_ns(), tl.int64), "smid": lambda: scalar(0, tl.int32),
            "num_threads": lambda: 1, "num_warps": lambda: 1, "gdc_wait": lambda: None,
            "gdc_launch_dependents": lambda: None}


TABLE = {}
TABLE.update(_core_table())
TABLE.update({"math." + k: v for k, v in _math_table().items()})
TABLE.update({"extra.libdevice." + k: v for k, v in _libdevice_table().items()})
TABLE.update({"extra.cuda." + k: v for k, v in _cuda_table().items()})
TABLE["extra.hip.memrealtime"] = TABLE["extra.cuda.globaltimer"]

# Methods of tiles (x.sum(), x.to(...)): the builtins that take the tile first.
_METHODS = {"sum", "max", "min", "argmax", "argmin", "xor_sum", "reduce_or", "reduce", "cumsum", "cumprod",
            "associative_scan", "flip", "sort", "histogram", "gather", "reshape", "view", "trans", "permute",
            "broadcast_to", "expand_dims", "ravel", "split", "item", "cast", "to_tensor", "abs", "exp", "exp2", "log",
            "log2", "cos", "sin", "sqrt", "rsqrt", "erf", "floor", "ceil", "sigmoid", "softmax", "store", "atomic_add",
            "cdiv", "dot"}


def tensor_method(name):
    prelude_function = hooks["prelude_function"]
    if name in _METHODS:
        return TABLE[name] if name in TABLE else prelude_function(name)
    return prelude_function("tensor_" + name)


hooks.update(trans=trans, subscript=subscript, tensor_method=tensor_method, abs=abs_)

