"""Extern functions while a kernel compiles: the frontend's call of one
(frontend/ExternCall.cpp) runs its body here, through the C API's
constexpr_call, with stand-ins for the kernel's values, and gets back, as a
Python literal, the library calls the body asked for.

The frontend writes the arguments as ``((arg, ...), {name: arg})``: each
tensor as ``operand(index, "fp32", (128,))`` (its dtype and shape: the body
sees no elements), each compile-time value as itself (given to the body as a
tl.constexpr, as Triton gives builtins). The body's `_semantic` records
what it does: the casts of core.binary_op_type_legalization (Triton's
promotion rules), and each core.extern_elementwise, after Triton's dispatch
picked the symbol (language/_extern.py). The answer is
``((call, ...), value)``:

    call  = (symbol, lib_path, result dtype, is_pure, own, (value, ...))
    own   = (Tessera's function, (its parameter dtypes...)) or None
    value = ("operand", index, casts) | ("constant", number, casts)
          | ("call", index, casts)

`own` is Tessera's version of the library function (language/_device_library.py),
which targets without the library compute instead; each value is an
argument, a number or an earlier call's result, then cast to each dtype of
`casts` in turn. The frontend broadcasts each call's arguments to one shape.

Layer 2, compile (python/tessera/__init__.py lists the layers)."""

import numbers

from . import language as tl
from .language import _device_library, _promotion, _types
from .language._extern import extern_function as function  # noqa: F401  (the frontend's id -> the function)

_OPERATORS = ("add radd sub rsub mul rmul truediv rtruediv floordiv rfloordiv mod rmod and rand or ror xor rxor lshift "
              "rlshift rshift rrshift lt le gt ge neg pos invert abs pow getitem").split()


class Operand(_types.base_value):
    """A kernel value as an extern function's body sees it while the kernel
    compiles: dtype and shape, no elements. `source` says where it comes
    from (("operand", index), ("constant", number), ("call", index)) and
    `casts` the dtypes it was cast to since."""

    def __init__(self, source, dtype, shape, casts=()):
        self.source, self.dtype, self.shape, self.casts = source, dtype, tuple(shape), tuple(casts)

    @property
    def type(self):
        return _types.block_type(self.dtype, list(self.shape)) if self.shape else self.dtype

    @property
    def numel(self):
        n = 1
        for d in self.shape:
            n *= d
        return n

    def cast(self, dtype):
        return self if dtype == self.dtype else Operand(self.source, dtype, self.shape, self.casts + (dtype,))

    def broadcast(self, shape):
        return Operand(self.source, self.dtype, shape, self.casts)

    def to(self, dtype, fp_downcast_rounding=None, bitcast=False, _semantic=None):
        """A cast (tensor.to), which the frontend applies as it applies the kernel's."""
        dtype = tl.constexpr(dtype).value
        if bitcast or fp_downcast_rounding is not None:
            raise TypeError("an extern function's body can cast its arguments with .to(dtype) only (no bitcast "
                            "or rounding mode)")
        return self.cast(dtype)

    def __repr__(self):
        return "%s[%s]" % (self.dtype, ", ".join(map(str, self.shape)))

    def __bool__(self):
        raise TypeError("the truth of a kernel value is not known while compiling an extern function's body")


def _no_arithmetic(name):
    def method(self, *args, **kwargs):
        raise TypeError("an extern function's body sees the kernel's values without their elements: it can pass "
                        "them to core.extern_elementwise and core.binary_op_type_legalization and cast them "
                        "(.to), not compute with them (%s)" % name)
    return method


for _name in _OPERATORS:
    setattr(Operand, "__%s__" % _name, _no_arithmetic(_name))
del _name


def _unwrap(x):
    return x.value if isinstance(x, tl.constexpr) else x


def _is_number(x):
    return isinstance(x, numbers.Number) and not isinstance(x, complex)


def _broadcast_shapes(a, b):
    """numpy's rule, which the frontend follows."""
    rank = max(len(a), len(b))
    a, b = (1,) * (rank - len(a)) + a, (1,) * (rank - len(b)) + b
    out = []
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y and 1 not in (x, y):
            raise ValueError("Cannot make_shape_compatible: incompatible dimensions at index %d: %d and %d" % (i, x, y))
        out.append(max(x, y))
    return tuple(out)


class CompileSemantic:
    """The `_semantic` of an extern function's body while a kernel compiles:
    what core.extern_elementwise and core.binary_op_type_legalization ask of
    it, recorded for the frontend. Its builder is itself."""

    def __init__(self):
        self.calls = []  # (symbol, lib_path, result dtype, is_pure, DeviceFunction or None, [Operand])
        self.builder = self

    def to_tensor(self, x, check_type=True):
        x = _unwrap(x)
        if isinstance(x, Operand):
            return x
        if _is_number(x):
            return Operand(("constant", x), _promotion.constant_dtype(x), ())
        raise TypeError("an extern function passes kernel values and numbers to the library, not %r" % (x,))

    def binary_op_type_checking_impl(self, lhs, rhs, allow_lhs_ptr=False, allow_rhs_ptr=False, arithmetic_check=True,
                                     div_or_mod=False):
        lhs, rhs = _unwrap(lhs), _unwrap(rhs)
        a, b = self.to_tensor(lhs), self.to_tensor(rhs)
        if arithmetic_check:
            common = _promotion.computation_type(a.dtype, _is_number(lhs), b.dtype, _is_number(rhs), div_or_mod)
            for value in (lhs, rhs):
                if _is_number(value):
                    _promotion.check_constant_fits(value, common)
            a, b = a.cast(common), b.cast(common)
        shape = _broadcast_shapes(a.shape, b.shape)
        return a.broadcast(shape), b.broadcast(shape)

    def create_extern_elementwise(self, lib_name, lib_path, symbol, args, ret_type, is_pure):
        element = ret_type.scalar
        own = _device_library.lookup(symbol, [a.dtype for a in args], element)
        self.calls.append((symbol, lib_path, element, bool(is_pure), own, list(args)))
        return Operand(("call", len(self.calls) - 1), element, ret_type.shape if ret_type.is_block() else ())

    # ---- the answer

    def answer(self, result, function):
        result = _unwrap(result)
        if _is_number(result):
            result = self.to_tensor(result)
        if not isinstance(result, Operand):
            raise TypeError("extern function %s returned %r; it returns what core.extern_elementwise gives"
                            % (function.__qualname__, result))
        calls = []
        for symbol, lib_path, element, pure, own, args in self.calls:
            own_text = "None" if own is None else "(%r, (%s))" % (own.name, "".join(repr(p) + ", " for p in own.params))
            calls.append("(%r, %r, %r, %s, %s, (%s))" % (symbol, lib_path or "", element, pure, own_text,
                                                        "".join(_value_text(a) + ", " for a in args)))
        return "((%s), %s)" % ("".join(c + ", " for c in calls), _value_text(result))


def _number_text(x):
    if isinstance(x, bool) or isinstance(x, numbers.Integral):
        return repr(int(x)) if not isinstance(x, bool) else repr(x)
    x = float(x)
    if x != x:
        return "float('nan')"
    if abs(x) == float("inf"):
        return "1e999" if x > 0 else "-1e999"
    return repr(x)


def _value_text(v):
    kind, what = v.source
    what = _number_text(what) if kind == "constant" else str(what)
    return "(%r, %s, (%s))" % (kind, what, "".join(repr(c) + ", " for c in v.casts))


def _operand(index, dtype_name, shape):
    return Operand(("operand", index), _types.dtype._named(dtype_name), shape)


def run(function, arguments):
    """The frontend's call of extern function `function`: its arguments as
    the frontend writes them; the answer as the frontend reads it."""
    args, kwargs = eval(arguments, {"__builtins__": {}, "tl": tl, "float": float, "operand": _operand})
    wrap = (lambda v: v if isinstance(v, Operand) else tl.constexpr(v))
    semantic = CompileSemantic()
    result = function(*[wrap(a) for a in args], _semantic=semantic, **{k: wrap(v) for k, v in kwargs.items()})
    return semantic.answer(result, function.fn)
