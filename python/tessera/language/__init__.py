"""tessera.language (``tl``): the kernel language's names on the Python side.

Kernels are compiled from their source by the C++ frontend; Python never runs
a kernel body. This module exists so that ``import tessera.language as tl``
works, annotations such as ``BLOCK: tl.constexpr`` evaluate, dtypes can be
passed and compared (``tl.float16``), and every builtin name a kernel uses
resolves in the kernel's globals. The builtins are stubs that explain this if
called from plain Python.

Layer 0, binding (python/tessera/__init__.py lists the layers).
"""

import functools

__all__ = ["dtype", "pointer_type", "constexpr"]


class dtype:
    """A scalar type by Triton's name; ``str(tl.float32) == "fp32"``."""

    _registry = {}

    # Triton's lists of type names (tl.dtype(name) takes any of them).
    SINT_TYPES = ["int8", "int16", "int32", "int64"]
    UINT_TYPES = ["int1", "uint8", "uint16", "uint32", "uint64"]
    FP_TYPES = ["fp8e4nv", "fp8e5", "fp16", "bf16", "fp32", "fp64"]
    STANDARD_FP_TYPES = ["fp16", "bf16", "fp32", "fp64"]

    def __init__(self, name, short=None, bits=None, kind=None):
        if short is None:  # tl.dtype("int8") / tl.dtype("fp16"): a known type by either name
            known = dtype._named(name)
            name, short, bits, kind = known.name, known.short, known.primitive_bitwidth, known.kind
        self.name = name          # Triton's long name: float32, int8, bfloat16...
        self.short = short        # signature spelling: fp32, i8, bf16...
        self.primitive_bitwidth = bits
        self.kind = kind          # "int", "uint", "float", "bool"
        if name not in dtype._registry:
            dtype._registry[name] = self

    @staticmethod
    def _named(name):
        for known in dtype._registry.values():
            if name in (known.name, known.short):
                return known
        raise TypeError("no dtype is named %r" % (name,))

    # Float formats' (mantissa bits, exponent bias), as Triton's dtype gives them.
    _FLOAT_FORMATS = {"fp8e4nv": (3, 7), "fp8e5": (2, 15), "fp16": (10, 15), "bf16": (7, 127), "fp32": (23, 127),
                      "fp64": (52, 1023)}

    @property
    def fp_mantissa_width(self):
        if self.short not in self._FLOAT_FORMATS:
            raise AttributeError("fp_mantissa_width applies to floating-point dtypes, not %s" % self.name)
        return self._FLOAT_FORMATS[self.short][0]

    @property
    def exponent_bias(self):
        if self.short not in self._FLOAT_FORMATS:
            raise AttributeError("exponent_bias applies to floating-point dtypes, not %s" % self.name)
        return self._FLOAT_FORMATS[self.short][1]

    @property
    def int_bitwidth(self):
        if not self.is_int():
            raise AttributeError("int_bitwidth applies to integer dtypes, not %s" % self.name)
        return self.primitive_bitwidth

    def is_floating(self):
        return self.kind == "float"

    def is_fp8(self):
        return self.short in ("fp8e4nv", "fp8e5")

    def is_fp16(self):
        return self.short == "fp16"

    def is_bf16(self):
        return self.short == "bf16"

    def is_fp32(self):
        return self.short == "fp32"

    def is_fp64(self):
        return self.short == "fp64"

    def is_bool(self):
        return self.kind == "bool"

    def is_int(self):
        return self.kind in ("int", "uint", "bool")

    def is_int_signed(self):
        return self.kind == "int"

    def is_int_unsigned(self):
        return self.kind == "uint"

    def is_ptr(self):
        return False

    def __str__(self):
        return self.short

    def __repr__(self):
        return "tl." + self.name

    def __eq__(self, other):
        return isinstance(other, dtype) and repr(other) == repr(self)

    def __hash__(self):
        return hash(repr(self))


class pointer_type(dtype):
    def __init__(self, element_ty, address_space=1):
        self.element_ty = element_ty
        self.name = "pointer<%s>" % element_ty.name
        self.short = "*" + element_ty.short
        self.primitive_bitwidth = 64
        self.kind = "pointer"
        self.address_space = address_space

    def is_ptr(self):
        return True

    def __repr__(self):
        return "tl.pointer_type(%r)" % (self.element_ty,)


int1 = dtype("int1", "i1", 1, "bool")
int8 = dtype("int8", "i8", 8, "int")
int16 = dtype("int16", "i16", 16, "int")
int32 = dtype("int32", "i32", 32, "int")
int64 = dtype("int64", "i64", 64, "int")
uint8 = dtype("uint8", "u8", 8, "uint")
uint16 = dtype("uint16", "u16", 16, "uint")
uint32 = dtype("uint32", "u32", 32, "uint")
uint64 = dtype("uint64", "u64", 64, "uint")
float8e4nv = dtype("float8e4nv", "fp8e4nv", 8, "float")
float8e5 = dtype("float8e5", "fp8e5", 8, "float")
float16 = dtype("float16", "fp16", 16, "float")
bfloat16 = dtype("bfloat16", "bf16", 16, "float")
float32 = dtype("float32", "fp32", 32, "float")
float64 = dtype("float64", "fp64", 64, "float")
__all__ += [d for d in dtype._registry]
pi32_t = pointer_type(int32)
# The most elements a tile may hold (Triton's limit, and the frontend's).
TRITON_MAX_TENSOR_NUMEL = 1 << 20
__all__ += ["pi32_t", "TRITON_MAX_TENSOR_NUMEL"]


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


class tensor_descriptor:
    """The type of a tensor descriptor inside a kernel (what
    tl.make_tensor_descriptor returns, or a host TensorDescriptor argument
    becomes), for ``isinstance(x, tl.tensor_descriptor)`` in kernels, as
    Triton's tl.tensor_descriptor; host code never holds one."""

    def __init__(self, *args, **kwargs):
        raise TypeError("tl.tensor_descriptor is a type; descriptors exist only inside a kernel "
                        "(on the host, use tessera.tools.tensor_descriptor.TensorDescriptor)")


__all__.append("tensor_descriptor")


class const:
    """Annotation of a pointer parameter the kernel only reads through
    (``in_ptr: tl.const``): a store or atomic through it, or through a
    pointer computed from it, is a compile error (Triton's tl.const)."""

    def __init__(self, *args, **kwargs):
        raise TypeError("tl.const is an annotation for pointer parameters")


__all__.append("const")


class constexpr:
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


def validate_block_shape(shape):
    """The number of elements of a block shape, checked as Triton checks it:
    ints, each a power of two, at most TRITON_MAX_TENSOR_NUMEL in all."""
    numel = 1
    for i, d in enumerate(shape):
        if not isinstance(d, int):
            raise TypeError("Shape element %d must have type `constexpr[int]`, got `constexpr[%s]" % (i, type(d)))
        if d <= 0 or d & (d - 1):
            raise ValueError("Shape element %d must be a power of 2" % i)
        numel *= d
    if numel > TRITON_MAX_TENSOR_NUMEL:
        raise ValueError("numel (%d) exceeds triton maximum tensor numel (%d)" % (numel, TRITON_MAX_TENSOR_NUMEL))
    return numel
