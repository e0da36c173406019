"""The interpreter's values: a tile is a numpy array with the language's
dtype beside it (numpy has no bf16, fp8 or pointer types of its own, and a
Python int must stay apart from an int32 tile to be promoted as Triton
promotes constants). Arithmetic follows the frontend's rules, which are
Triton's: C's usual conversions between tiles, constants that do not raise a
tile's kind, integer wrap-around, C-style // and %, / in fp32 for integers
and 16-bit floats, comparisons giving int1.

Layer 2, compile (python/tessera/__init__.py lists the layers)."""

import numbers

import numpy as np

from .. import _C
from .. import language as tl
from ..language import _promotion, _types

try:
    import ml_dtypes
except ImportError:  # bf16 and fp8 tiles need it (ci/requirements.txt pins it)
    ml_dtypes = None


class InterpreterError(_C.TesseraError):
    """A kernel did something the interpreter cannot run or that would be
    undefined on a device (an access outside every argument's memory).
    Triton's triton.runtime.errors.InterpreterError under tessera.compat."""

    def __init__(self, message=""):
        super().__init__(_C.ERROR_LAUNCH, message)
        self.error_message = message


_NUMPY = {"int1": np.bool_, "int8": np.int8, "int16": np.int16, "int32": np.int32, "int64": np.int64,
          "uint8": np.uint8, "uint16": np.uint16, "uint32": np.uint32, "uint64": np.uint64, "fp16": np.float16,
          "fp32": np.float32, "fp64": np.float64}
if ml_dtypes is not None:
    _NUMPY.update(bf16=ml_dtypes.bfloat16, fp8e4nv=ml_dtypes.float8_e4m3fn, fp8e5=ml_dtypes.float8_e5m2,
                  fp8e4b8=ml_dtypes.float8_e4m3fnuz, fp8e5b16=ml_dtypes.float8_e5m2fnuz)


# Functions of the modules above this one that tiles call (x.T, x[None, :],
# x.sum(), abs(x)), registered by _builtins and _grid when they load.
hooks = {}


def np_dtype(dt):
    """The numpy dtype that holds values of a language dtype (addresses, as
    uint64, for pointers)."""
    if dt.is_ptr():
        return np.dtype(np.uint64)
    try:
        return np.dtype(_NUMPY[dt.name])
    except KeyError:
        raise InterpreterError("the interpreter has no %s values%s" % (
            dt.name, " (install ml_dtypes)" if ml_dtypes is None else "")) from None


def tl_dtype(npdt):
    """The language dtype of a numpy (or torch) element type."""
    name = str(npdt).replace("torch.", "")
    aliases = {"bool": "int1", "float16": "fp16", "half": "fp16", "float32": "fp32", "float": "fp32",
               "float64": "fp64", "double": "fp64", "bfloat16": "bf16", "float8_e4m3fn": "fp8e4nv",
               "float8_e5m2": "fp8e5", "float8_e4m3fnuz": "fp8e4b8", "float8_e5m2fnuz": "fp8e5b16"}
    return tl.dtype._named(aliases.get(name, name))


def unwrap(value):
    return value.value if isinstance(value, tl.constexpr) else value


def is_constant(value):
    """A Python number (a kernel's constant): weakly typed in arithmetic."""
    return isinstance(value, numbers.Number) and not isinstance(value, np.generic)


class Tensor(_types.base_value):
    """A tile (shape ()) is a scalar) of the interpreter: `data` a numpy
    array, `dtype` the language's element type."""

    __slots__ = ("data", "dtype")

    def __init__(self, data, dtype):
        self.dtype = dtype
        self.data = np.asarray(data, dtype=np_dtype(dtype))

    # ---- what kernels read
    @property
    def shape(self):
        return tuple(int(s) for s in self.data.shape)

    @property
    def numel(self):
        return int(self.data.size)

    @property
    def type(self):
        return tl.block_type(self.dtype, list(self.shape)) if self.shape else self.dtype

    @property
    def T(self):
        return hooks["trans"](self)

    def __repr__(self):
        return "tensor(%s, dtype=%s)" % (np.array2string(self._shown(), separator=", "), self.dtype.name)

    def __str__(self):
        return str(self._shown())

    def _shown(self):
        return self.data.astype(np.float32) if self.dtype.name in ("bf16",) or self.dtype.is_fp8() else self.data

    def __bool__(self):
        if self.data.size != 1:
            raise InterpreterError("the truth value of a tile of shape %s is ambiguous (branch on a scalar)"
                                   % (list(self.shape),))
        return bool(self.data.reshape(()))

    def __index__(self):
        if not self.dtype.is_int() or self.data.size != 1:
            raise TypeError("only integer scalars can be used as an index, not a %s tile" % self.dtype.name)
        return int(self.data.reshape(()))

    __int__ = __index__

    def __float__(self):
        return float(self.data.reshape(()))

    def __len__(self):
        if not self.shape:
            raise TypeError("a scalar has no len()")
        return self.shape[0]

    def __iter__(self):
        raise TypeError("tiles cannot be iterated over (index with tl.arange and masks, or use tl.split)")

    def __getitem__(self, index):
        return hooks["subscript"](self, index)

    def __getattr__(self, name):
        # The language's functions as methods (x.sum(), x.to(...), x.logical_and(y)).
        if name.startswith("__"):
            raise AttributeError(name)
        method = hooks["tensor_method"](name)
        if method is None:
            raise AttributeError("tensor has no attribute %r" % name)
        return lambda *args, **kwargs: method(self, *args, **kwargs)

    # ---- operators
    def __add__(self, o): return binary("add", self, o)
    def __radd__(self, o): return binary("add", o, self)
    def __sub__(self, o): return binary("sub", self, o)
    def __rsub__(self, o): return binary("sub", o, self)
    def __mul__(self, o): return binary("mul", self, o)
    def __rmul__(self, o): return binary("mul", o, self)
    def __truediv__(self, o): return binary("truediv", self, o)
    def __rtruediv__(self, o): return binary("truediv", o, self)
    def __floordiv__(self, o): return binary("floordiv", self, o)
    def __rfloordiv__(self, o): return binary("floordiv", o, self)
    def __mod__(self, o): return binary("mod", self, o)
    def __rmod__(self, o): return binary("mod", o, self)
    def __and__(self, o): return binary("and", self, o)
    def __rand__(self, o): return binary("and", o, self)
    def __or__(self, o): return binary("or", self, o)
    def __ror__(self, o): return binary("or", o, self)
    def __xor__(self, o): return binary("xor", self, o)
    def __rxor__(self, o): return binary("xor", o, self)
    def __lshift__(self, o): return binary("shl", self, o)
    def __rlshift__(self, o): return binary("shl", o, self)
    def __rshift__(self, o): return binary("shr", self, o)
    def __rrshift__(self, o): return binary("shr", o, self)
    def __lt__(self, o): return binary("lt", self, o)
    def __le__(self, o): return binary("le", self, o)
    def __gt__(self, o): return binary("gt", self, o)
    def __ge__(self, o): return binary("ge", self, o)
    def __eq__(self, o): return binary("eq", self, o)
    def __ne__(self, o): return binary("ne", self, o)
    def __pow__(self, o): raise TypeError("** is not part of the language (use libdevice.pow)")
    __hash__ = None

    def __neg__(self):
        if self.dtype.is_ptr():
            raise TypeError("cannot negate a pointer")
        return Tensor(-self.data, self.dtype) if not self.dtype.is_bool() else self

    def __pos__(self):
        return self

    def __invert__(self):
        if self.dtype.is_floating() or self.dtype.is_ptr():
            raise TypeError("~ takes integers, not %s" % self.dtype.name)
        return Tensor(~self.data, self.dtype)

    def __abs__(self):
        return hooks["abs"](self)

    # ---- conversions
    def to(self, dtype, fp_downcast_rounding=None, bitcast=False, _semantic=None):  # _semantic: extern functions'
        return cast(self, unwrap(dtype), unwrap(fp_downcast_rounding), unwrap(bitcast))


def scalar(value, dtype):
    return Tensor(np.array(value, dtype=np_dtype(dtype)), dtype)


def constant_dtype(x):
    """The type of a Python constant as a tile (Triton's to_tensor)."""
    return _promotion.constant_dtype(bool(x) if isinstance(x, np.bool_) else x)


def to_tensor(x):
    x = unwrap(x)
    if isinstance(x, Tensor):
        return x
    if isinstance(x, np.generic):
        return Tensor(np.asarray(x), tl_dtype(x.dtype))
    dt = constant_dtype(x)
    return scalar(x if not dt.is_int() or dt.is_bool() else _wrap_int(int(x), dt), dt)


def _wrap_int(x, dt):
    bits = dt.int_bitwidth
    x &= (1 << bits) - 1
    return x - (1 << bits) if dt.is_int_signed() and x >= 1 << (bits - 1) else x


# ---- promotion (the frontend's, which is Triton's semantic.computation_type_impl)

computation_type = _promotion.computation_type


def operands(a, b, div_or_mod=False, arithmetic=True, broadcast=True):
    """(a, b) as tiles of one computation type, broadcast to one shape
    (or, with broadcast=False, checked to broadcast: numpy's operators do
    it themselves)."""
    a, b = unwrap(a), unwrap(b)
    a_const, b_const = is_constant(a), is_constant(b)
    ta, tb = to_tensor(a), to_tensor(b)
    if arithmetic and not ta.dtype.is_ptr() and not tb.dtype.is_ptr():
        ret = computation_type(ta.dtype, a_const, tb.dtype, b_const, div_or_mod)
        for const, value in ((a_const, a), (b_const, b)):
            if const:
                _promotion.check_constant_fits(value, ret)
        ta, tb = cast(ta, ret), cast(tb, ret)
    if not broadcast:
        if ta.data.shape != tb.data.shape and ta.data.ndim and tb.data.ndim:
            _broadcast_shape(ta.shape, tb.shape)
        return ta, tb
    return broadcast_pair(ta, tb)


def _broadcast_shape(a, b):
    try:
        return np.broadcast_shapes(a, b)
    except ValueError:
        raise ValueError("Cannot broadcast, the shapes %s and %s are incompatible" % (list(a), list(b))) from None


def broadcast_pair(a, b):
    if a.shape == b.shape:
        return a, b
    shape = _broadcast_shape(a.shape, b.shape)
    return (Tensor(np.broadcast_to(a.data, shape), a.dtype), Tensor(np.broadcast_to(b.data, shape), b.dtype))


# ---- casts

def cast(x, dst, rounding=None, bitcast=False):
    x = to_tensor(x)
    if isinstance(dst, str):
        dst = tl.dtype._named(dst)
    src = x.dtype
    if bitcast:
        if src.primitive_bitwidth != dst.primitive_bitwidth and not (src.is_ptr() or dst.is_ptr()):
            raise ValueError("Cannot bitcast data-type of size %d to data-type of size %d"
                             % (src.primitive_bitwidth, dst.primitive_bitwidth))
        if src.is_ptr() or dst.is_ptr():
            return Tensor(x.data.view(np.uint64) if src.is_ptr() else x.data.astype(np.uint64), dst) \
                if dst.is_ptr() else Tensor(x.data.view(np_dtype(dst)), dst)
        return Tensor(np.ascontiguousarray(x.data).view(np_dtype(dst)).reshape(x.shape), dst)
    if src == dst:
        return x
    if dst.is_ptr():
        if not (src.is_ptr() or src.is_int()):
            raise TypeError("cannot cast %s to a pointer" % src.name)
        return Tensor(x.data.astype(np.int64).view(np.uint64) if src.is_int() else x.data, dst)
    if src.is_ptr():
        if not dst.is_int():
            raise TypeError("a pointer casts only to integers, not %s" % dst.name)
        return Tensor(x.data.view(np.int64).astype(np_dtype(dst)), dst)
    with np.errstate(all="ignore"):
        if dst.is_bool():
            return Tensor(x.data.astype(np.float64 if src.is_floating() else x.data.dtype) != 0, dst)
        if src.is_floating() and dst.is_int():
            return Tensor(_float_to_int(x.data.astype(np.float64), dst), dst)
        if src.is_floating() and dst.is_floating():
            return Tensor(_round_float(x.data, src, dst, rounding), dst)
        if src.is_int() and dst.is_floating():
            data = x.data if dst.primitive_bitwidth >= 32 else x.data.astype(np.float64)
            return Tensor(data.astype(np_dtype(dst)), dst)
        return Tensor(x.data.astype(np_dtype(dst)), dst)  # int -> int wraps, as LLVM's trunc/ext


def _float_to_int(data, dst):
    """Truncation toward zero, saturating at dst's limits; NaN gives 0
    (IR.h's casts)."""
    info = np.iinfo(np_dtype(dst))
    t = np.trunc(np.where(np.isnan(data), 0.0, data))
    big, small = t >= float(info.max), t <= float(info.min)
    mid = np.clip(t, float(info.min), float(info.max))
    if dst.primitive_bitwidth == 64 and dst.is_int_unsigned():
        high = mid >= 2.0**63
        out = np.where(high, (np.where(high, mid, 0) - 2.0**63).astype(np.int64).view(np.uint64) + np.uint64(2**63),
                       np.where(high, 0, mid).astype(np.uint64))
    else:
        out = np.where(big | small, 0, mid).astype(np.int64 if dst.is_int_signed() else np.uint64)
    out = np.where(big, np.array(info.max, dtype=out.dtype), np.where(small, np.array(info.min, dtype=out.dtype), out))
    return out.astype(np_dtype(dst))


def _round_float(data, src, dst, rounding):
    """A float cast rounded once (ml_dtypes alone rounds float64 through
    float32, twice): to float32 rounding to odd, then to the narrow type to
    nearest even. fp8e4nv, which has no infinity, saturates."""
    if dst.primitive_bitwidth > src.primitive_bitwidth or (dst.primitive_bitwidth >= 32 and rounding != "rtz"):
        return data.astype(np_dtype(dst))
    exact = data.astype(np.float64)
    finite = np.isfinite(exact)
    if dst.primitive_bitwidth >= 32:  # fp64 -> fp32 toward zero
        narrow = data.astype(np.float32)
    elif src.name == "fp64":
        y = exact.astype(np.float32)
        bits = y.view(np.uint32).copy()
        grew = finite & (np.abs(y.astype(np.float64)) > np.abs(exact))
        bits[grew] -= np.uint32(1)
        inexact = finite & (bits.view(np.float32).astype(np.float64) != exact)
        bits[inexact] |= np.uint32(1)
        narrow = bits.view(np.float32)
    else:
        narrow = data.astype(np.float32)
    out = narrow.astype(np_dtype(dst))
    if dst.name == "fp8e4nv":
        fmax = 448.0
        out = np.where(np.isnan(out.astype(np.float32)) & ~np.isnan(exact), np.sign(exact) * fmax,
                       out.astype(np.float32)).astype(np_dtype(dst))
    if rounding in (None, "rtne"):
        return out
    if rounding != "rtz":
        raise ValueError("fp_downcast_rounding must be 'rtne' or 'rtz', not %r" % (rounding,))
    # Toward zero: where rounding to nearest grew the magnitude, step back one ulp.
    grew = (np.abs(out.astype(np.float64)) > np.abs(exact)) & finite
    if grew.any():
        bits = out.view("u%d" % out.dtype.itemsize).copy()
        bits[grew] -= 1
        out = bits.view(out.dtype)
    return out


# ---- binary operators

def _c_div(x, y):
    """C's integer division of same-typed arrays (toward zero); x / 0 is 0
    here, undefined on a device."""
    safe = np.where(y == 0, 1, y).astype(y.dtype)
    q = x // safe
    if x.dtype.kind == "i":
        r = x - q * safe
        q = q + ((r != 0) & ((x < 0) != (safe < 0))).astype(x.dtype)
    return np.where(y == 0, 0, q).astype(x.dtype)


# Operators whose result for two operands of one (non-pointer, non-bool)
# dtype is numpy's, in that dtype (int1 for comparisons): the fast path.
_SAME_TYPE = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "and": np.bitwise_and, "or": np.bitwise_or,
              "xor": np.bitwise_xor, "lt": np.less, "le": np.less_equal, "gt": np.greater,
              "ge": np.greater_equal, "eq": np.equal, "ne": np.not_equal}
_NO_FLOAT = {"and", "or", "xor"}


def _same_type_operand(a, b):
    """b as an array of a's type when the pair needs no promotion (a tile
    of the same dtype and shape, or a Python int that fits a's integer
    type), else None."""
    dt = a.dtype
    if type(b) is Tensor:
        return b.data if b.dtype is dt and (b.data.shape == a.data.shape or not b.data.ndim) else None
    if type(b) is int and dt.name in _INT_LIMITS:
        lo, hi = _INT_LIMITS[dt.name]
        return np.array(b, dtype=a.data.dtype) if lo <= b <= hi else None
    return None


_INT_LIMITS = {n: (int(np.iinfo(t).min), int(np.iinfo(t).max)) for n, t in
               (("int8", np.int8), ("int16", np.int16), ("int32", np.int32), ("int64", np.int64),
                ("uint8", np.uint8), ("uint16", np.uint16), ("uint32", np.uint32), ("uint64", np.uint64))}


def binary(op, a, b):
    fn = _SAME_TYPE.get(op)
    if fn is not None:
        for x, y, swapped in ((a, b, False), (b, a, True)):
            if type(x) is Tensor and not x.dtype.is_ptr() and x.dtype.name != "int1" and \
                    not (op in _NO_FLOAT and x.dtype.is_floating()):
                other = _same_type_operand(x, y)
                if other is not None:  # (a launch runs under np.errstate(all="ignore"))
                    data = fn(other, x.data) if swapped else fn(x.data, other)
                    return wrap(data, tl.int1 if op in _COMPARE else x.dtype)
                break
    with np.errstate(all="ignore"):
        return _binary(op, a, b)


def wrap(data, dtype):
    """A Tensor of an array already of dtype's numpy type (no conversion)."""
    t = Tensor.__new__(Tensor)
    t.data, t.dtype = np.asarray(data), dtype
    return t


def _pointer_arith(op, a, b):
    ptr, off = (a, b) if a.dtype.is_ptr() else (b, a)
    if off.dtype.is_ptr() or not off.dtype.is_int() or op == "sub" and ptr is b:
        raise TypeError("pointer arithmetic takes a pointer and integer offsets, not %s %s %s"
                        % (a.dtype.name, op, b.dtype.name))
    if ptr.data.shape != off.data.shape and ptr.data.ndim and off.data.ndim:
        _broadcast_shape(ptr.shape, off.shape)
    step = off.data.astype(np.int64) * np.int64(max(ptr.dtype.element_ty.primitive_bitwidth // 8, 1))
    if op == "sub":
        step = -step
    return Tensor(ptr.data + step.view(np.uint64), ptr.dtype)


_COMPARE = {"lt": np.less, "le": np.less_equal, "gt": np.greater, "ge": np.greater_equal, "eq": np.equal,
            "ne": np.not_equal}


def _binary(op, a, b):
    ua, ub = unwrap(a), unwrap(b)
    pa = isinstance(ua, Tensor) and ua.dtype.is_ptr()
    pb = isinstance(ub, Tensor) and ub.dtype.is_ptr()
    if (pa or pb) and op in ("add", "sub") and not (pa and pb):
        return _pointer_arith(op, to_tensor(ua), to_tensor(ub))
    if op in _COMPARE:
        x, y = operands(ua, ub, arithmetic=not (pa or pb), broadcast=False)
        return Tensor(_COMPARE[op](x.data, y.data), tl.int1)
    if pa or pb:
        raise TypeError("operator %s does not take pointers" % op)
    if op == "truediv":
        return _truediv(ua, ub)
    x, y = operands(ua, ub, div_or_mod=op in ("floordiv", "mod"), broadcast=False)
    dt, xd, yd = x.dtype, x.data, y.data
    if op in ("and", "or", "xor", "shl", "shr") and dt.is_floating():
        raise TypeError("bitwise operator %s takes integers, not %s" % (op, dt.name))
    if op == "add":
        return Tensor(xd + yd if not dt.is_bool() else xd ^ yd, dt)
    if op == "sub":
        return Tensor(xd - yd if not dt.is_bool() else xd ^ yd, dt)
    if op == "mul":
        return Tensor(xd * yd if not dt.is_bool() else xd & yd, dt)
    if op == "floordiv":
        if not dt.is_int():
            raise TypeError("// takes integers, not %s" % dt.name)
        return Tensor(_c_div(xd, yd), dt)
    if op == "mod":
        if dt.is_floating():
            wide = np.float64 if dt.name == "fp64" else np.float32
            return Tensor(np.fmod(xd.astype(wide), yd.astype(wide)).astype(np_dtype(dt)), dt)
        return Tensor((xd - _c_div(xd, yd) * yd).astype(xd.dtype), dt)
    if op == "and":
        return Tensor(xd & yd, dt)
    if op == "or":
        return Tensor(xd | yd, dt)
    if op == "xor":
        return Tensor(xd ^ yd, dt)
    if op in ("shl", "shr"):
        bits = dt.primitive_bitwidth
        amount = yd.astype(np.uint64) if dt.is_int_unsigned() else yd.astype(np.int64)
        big = (amount >= bits) | (amount < 0)
        amount = np.where(big, 0, amount).astype(xd.dtype)
        out = (xd << amount) if op == "shl" else (xd >> amount)
        return Tensor(np.where(big, 0, out).astype(xd.dtype), dt)  # poison on a device; 0 here
    raise TypeError("unknown operator %s" % op)


def _truediv(a, b):
    x, y = operands(a, b, div_or_mod=True)
    dt = x.dtype
    if dt.is_int():
        x, y, dt = cast(x, tl.float32), cast(y, tl.float32), tl.float32
    wide = np.float64 if dt.name == "fp64" else np.float32
    return Tensor((x.data.astype(wide) / y.data.astype(wide)).astype(np_dtype(dt)), dt)
