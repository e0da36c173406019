"""tessera.language (``tl``): the kernel language's names on the Python side.

Kernels are compiled from their source by the C++ frontend; Python runs a
kernel body only in the interpreter (tessera.interpreter). This module exists
so that ``import tessera.language as tl`` works, annotations such as
``BLOCK: tl.constexpr`` evaluate, dtypes can be passed and compared
(``tl.float16``), and every builtin name a kernel uses resolves in the
kernel's globals. The builtins are stubs that explain this if called from
plain Python.

Layer 0, binding (python/tessera/__init__.py lists the layers).
"""

import builtins as _builtins
import functools
import math as _math
import typing as _typing

from . import _types
from ._types import (base_type, base_value, block_type, check_bit_width, constexpr_type, dtype, pointer_type,
                     slice, slice_type, tensor_descriptor, tensor_descriptor_base, tensor_descriptor_base_type,
                     tensor_descriptor_type, tuple, tuple_type, validate_block_shape, TRITON_MAX_TENSOR_NUMEL)

__all__ = ["dtype", "pointer_type", "block_type", "constexpr", "constexpr_type", "tuple", "tuple_type", "slice",
           "tensor_descriptor"]
for _name in _types.SCALAR_NAMES + ["pi32_t"]:
    globals()[_name] = getattr(_types, _name)
__all__ += _types.SCALAR_NAMES + ["pi32_t", "TRITON_MAX_TENSOR_NUMEL"]
del _name


def str_to_ty(name, c=None):
    """The dtype (or pointer type, "*fp32") that a signature names."""
    if name.startswith("*"):
        return pointer_type(str_to_ty(name[1:].split(":")[0]))
    return dtype._named(name)


__all__.append("str_to_ty")


class tensor:
    """The type of a tile value inside a kernel, for annotations
    (``def helper(x: tl.tensor)``, as Triton's tl.tensor); the frontend gives
    values their types, and host code never holds one."""

    def __init__(self, *args, **kwargs):
        raise TypeError("tl.tensor is a type for annotations; tiles exist only inside a kernel")


__all__.append("tensor")


class const:
    """Annotation of a pointer parameter the kernel only reads through
    (``in_ptr: tl.const``): a store or atomic through it, or through a
    pointer computed from it, is a compile error (Triton's tl.const)."""

    def __init__(self, *args, **kwargs):
        raise TypeError("tl.const is an annotation for pointer parameters")


__all__.append("const")


class constexpr(_types.constexpr_base):
    """Marks a compile-time parameter (``BLOCK: tl.constexpr``) or wraps a
    module-level constant (``BLOCK = tl.constexpr(128)``)."""

    def __init__(self, value):
        self.value = value.value if isinstance(value, constexpr) else value

    def __repr__(self):
        return "constexpr[%r]" % (self.value,)

    def __index__(self):
        return self.value.__index__()

    def __int__(self):
        return int(self.value)

    def __bool__(self):
        return bool(self.value)

    def __eq__(self, other):
        return self.value == (other.value if isinstance(other, constexpr) else other)

    def __hash__(self):
        return hash(self.value)

    def __call__(self, *args, **kwargs):
        # A function wrapped as a constant (`@tl.constexpr def f(dtype): ...`) calls through, as Triton's does.
        return self.value(*args, **kwargs)


# Triton's core module's shared constants (libraries use them as defaults).
CONSTEXPR_0 = constexpr(0)


from . import _stubs  # noqa: E402
from ._stubs import stub as _stub  # noqa: E402  (tl's builtins, and the extras' below)


# Triton's tl namespace; the frontend implements these (frontend/Builtins.cpp,
# frontend/prelude.py).
_BUILTINS = """
program_id num_programs arange zeros zeros_like full full_like cast to_tensor
load store make_block_ptr advance make_tensor_descriptor load_tensor_descriptor store_tensor_descriptor
dot sum max min argmax argmin xor_sum reduce_or reduce cumsum cumprod associative_scan flip sort topk histogram gather
dot_scaled map_elementwise where maximum minimum clamp fma abs ceil floor exp exp2 log log2 cos sin sqrt sqrt_rn rsqrt erf
div_rn fdiv umulhi sigmoid softmax
item reshape view trans permute broadcast broadcast_to expand_dims squeeze unsqueeze ravel cat join split interleave
add sub mul
atomic_add atomic_max atomic_min atomic_and atomic_or atomic_xor atomic_xchg atomic_cas
multiple_of max_contiguous max_constancy assume
static_range range condition static_assert static_print device_print device_assert debug_barrier
rand randn randint randint4x rand4x randn4x philox philox_impl pair_uniform_to_normal uint_to_uniform_float
swizzle2d cdiv next_power_of_2 inline_asm_elementwise bitonic_merge
""".split()

for _name in _BUILTINS:
    globals()[_name] = _stub(_name)
__all__ += _BUILTINS
del _name

from . import math  # noqa: E402
from . import extra  # noqa: E402


class PropagateNan:
    """tl.PropagateNan.NONE / ALL for maximum, minimum and clamp."""
    NONE = 0
    ALL = 0xFFFF


# ---- triton.language.core's host-side helpers, which libraries call from
# Python and from constexpr functions (not in __all__: Triton keeps them
# out of tl's namespace too).

TRITON_BUILTIN = _stubs.TRITON_BUILTIN


def builtin(fn):
    """Marks `fn` as a builtin (Triton's decorator): is_builtin says so, and
    calling it from plain Python is an error, as outside a @jit kernel."""
    if not callable(fn):
        raise TypeError("builtin() takes a function, not %r" % (fn,))

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if kwargs.get("_semantic") is None:
            raise ValueError("Did you forget to add @triton.jit ? "
                             "(`_semantic` argument must be provided outside of JIT functions.)")
        return fn(*args, **kwargs)
    setattr(wrapper, TRITON_BUILTIN, True)
    return wrapper


def is_builtin(fn):
    """Whether `fn` is one of the language's builtins (tl.load, tl.math.exp,
    libdevice.tanh...) or marked with @builtin."""
    return bool(getattr(fn, TRITON_BUILTIN, False))


def must_use_result(x, s=True):
    """Marks a builtin whose result must be used (Triton's decorator;
    `@must_use_result("why")` gives the reason)."""
    if isinstance(x, str):
        return lambda fn: must_use_result(fn, x)
    x._must_use_result = s
    return x


_INT_DTYPES = {(1, True): int1, (1, False): int1, (8, True): int8, (8, False): uint8, (16, True): int16,
               (16, False): uint16, (32, True): int32, (32, False): uint32, (64, True): int64, (64, False): uint64}


def get_int_dtype(bitwidth, signed):
    """The integer dtype of a width and signedness (1 is int1)."""
    try:
        return _INT_DTYPES[(int(bitwidth), bool(signed))]
    except KeyError:
        raise ValueError("Unsupported bitwidth %r and signedness %r" % (bitwidth, signed)) from None


def get_primitive_bitwidth(name):
    """Bits of a type by any of Triton's spellings ("fp16", "float16", "u1",
    "bool", "void")."""
    text = str(name)
    bits = {"void": 0, "u1": 1, "bool": 1, "uint1": 1, "i1": 1, "fp8e4b15": 8, "fp8e4b8": 8, "fp8e5b16": 8,
            "float8e4b15": 8, "float8e4b8": 8, "float8e5b16": 8}
    if text in bits:
        return bits[text]
    try:
        return dtype._named(text).primitive_bitwidth
    except TypeError:
        raise KeyError(text) from None


# Extern functions: a device library's functions, chosen by the arguments'
# types (Triton's core.extern and extern_elementwise; _extern.py).
from ._extern import binary_op_type_legalization, dispatch, extern, extern_elementwise  # noqa: E402

T = _typing.TypeVar("T")
N_ROUNDS_DEFAULT = constexpr(10)  # Philox rounds of tl.rand and its kin, as Triton's random module


def is_negative_zero(x):
    """Whether a Python float is -0.0."""
    return x == 0.0 and _math.copysign(1.0, x) < 0


def _constant_extremum(pick, args, propagate_nan):
    """Python's min/max inside a kernel on constants (Triton's builtin_min
    and builtin_max): NaN and -0.0 are refused, having no single answer."""
    values = [v.value if isinstance(v, constexpr) else v for v in args]
    if any(isinstance(v, _types.base_value) for v in values):
        raise RuntimeError("%s of tensors can only be used inside a @tessera.jit kernel" % pick.__name__)
    if propagate_nan is not _NOTHING:
        raise ValueError("propagate_nan is not supported on builtin %s" % pick.__name__)
    if any(isinstance(v, float) and (_math.isnan(v) or is_negative_zero(v)) for v in values):
        raise ValueError("builtin %s of constants takes no NaN or -0.0" % pick.__name__)
    return constexpr(pick(values))


_NOTHING = object()


@builtin
def builtin_max(*args, propagate_nan=_NOTHING, _semantic=None):
    return _constant_extremum(_builtins.max, args, propagate_nan)


@builtin
def builtin_min(*args, propagate_nan=_NOTHING, _semantic=None):
    return _constant_extremum(_builtins.min, args, propagate_nan)

