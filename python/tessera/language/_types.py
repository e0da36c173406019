"""The language's types on the Python side, with triton.language.core's
semantics: names (``tl.float32.name == "fp32"``), predicates, mangling,
equality. Kernels are typed by the C++ frontend; these objects are what host
code and constexpr helpers see and pass (dtypes as constexpr arguments,
annotations, ``tl.block_type(tl.float16, [64, 64]).nbytes``). They hold no
IR: Triton's ``to_ir`` and IR flattening have no counterpart here.

Layer 0, binding (python/tessera/__init__.py lists the layers)."""

import builtins
import enum
import warnings

TRITON_MAX_TENSOR_NUMEL = 1 << 20


def _unwrap(value):
    return value.value if isinstance(value, constexpr_base) else value


class base_value:
    """A value of the language that is not a constexpr (tensors, tuples,
    descriptors); its `type` is a base_type."""


class constexpr_base(base_value):
    """tl.constexpr's base (the class itself is in tessera.language)."""
    value = None


class base_type:
    """A type of the language: equality, and a mangled name that keys
    specializations."""

    def __eq__(self, other):
        raise NotImplementedError("Types must implement __eq__")

    def __ne__(self, other):
        return not self == other

    __hash__ = object.__hash__

    def mangle(self):
        raise NotImplementedError("NYI: Type mangling for type %s" % type(self))


class constexpr_type(base_type):
    """The type of a compile-time value."""

    def __init__(self, value):
        self.value = value

    def __eq__(self, other):
        return isinstance(other, constexpr_type) and self.value == other.value

    def __hash__(self):
        return hash(self.value)

    def __repr__(self):
        return "constexpr_type[%s]" % (self.value,)

    def mangle(self):
        return repr(self)


# Triton's name -> (tl attribute name, signature spelling, bits); the order is Triton's.
_SCALARS = {
    "int1": ("int1", "i1", 1), "int8": ("int8", "i8", 8), "int16": ("int16", "i16", 16),
    "int32": ("int32", "i32", 32), "int64": ("int64", "i64", 64), "uint8": ("uint8", "u8", 8),
    "uint16": ("uint16", "u16", 16), "uint32": ("uint32", "u32", 32), "uint64": ("uint64", "u64", 64),
    "fp8e4b15": ("float8e4b15", "fp8e4b15", 8), "fp8e4nv": ("float8e4nv", "fp8e4nv", 8),
    "fp8e4b8": ("float8e4b8", "fp8e4b8", 8), "fp8e5": ("float8e5", "fp8e5", 8),
    "fp8e5b16": ("float8e5b16", "fp8e5b16", 8), "fp16": ("float16", "fp16", 16), "bf16": ("bfloat16", "bf16", 16),
    "fp32": ("float32", "fp32", 32), "fp64": ("float64", "fp64", 64), "void": ("void", "void", 0),
}
# Floating-point formats: (mantissa bits, exponent bias).
_FLOAT_FORMATS = {"fp8e4b15": (3, 15), "fp8e4nv": (3, 7), "fp8e4b8": (3, 8), "fp8e5": (2, 15), "fp8e5b16": (2, 16),
                  "fp16": (10, 15), "bf16": (7, 127), "fp32": (23, 127), "fp64": (52, 1023)}
_ANY_SPELLING = {spelling: name for name, row in _SCALARS.items() for spelling in (name,) + row[:2]}


class dtype(base_type):
    """A scalar type. ``tl.dtype(name)`` takes Triton's name ("fp16",
    "int8"), the tl attribute's ("float16") or the signature's ("i8")."""

    SINT_TYPES = ["int8", "int16", "int32", "int64"]
    UINT_TYPES = ["int1", "uint8", "uint16", "uint32", "uint64"]
    FP_TYPES = ["fp8e4b15", "fp8e4nv", "fp8e4b8", "fp8e5", "fp8e5b16", "fp16", "bf16", "fp32", "fp64"]
    STANDARD_FP_TYPES = ["fp16", "bf16", "fp32", "fp64"]
    OTHER_TYPES = ["void"]

    class SIGNEDNESS(enum.Enum):
        SIGNED = 0
        UNSIGNED = 1

    class KIND(enum.Enum):
        BOOLEAN = 0
        INTEGRAL = 1
        FLOATING = 2

    _registry = {}  # Triton's name -> the tl object (tl.float32...)

    def __init__(self, name):
        name = _unwrap(name)
        if name not in _ANY_SPELLING:
            raise TypeError("no dtype is named %r" % (name,))
        self.name = _ANY_SPELLING[name]
        self.primitive_bitwidth = _SCALARS[self.name][2]
        self.itemsize = self.primitive_bitwidth // 8
        if self.name in dtype.SINT_TYPES or self.name in dtype.UINT_TYPES:
            signed = self.name in dtype.SINT_TYPES
            self.int_signedness = dtype.SIGNEDNESS.SIGNED if signed else dtype.SIGNEDNESS.UNSIGNED
            self.int_bitwidth = self.primitive_bitwidth
        elif self.name in _FLOAT_FORMATS:
            self.fp_mantissa_width, self.exponent_bias = _FLOAT_FORMATS[self.name]
        dtype._registry.setdefault(self.name, self)

    def __getattr__(self, attr):  # only for attributes the type lacks
        needs = {"fp_mantissa_width": "floating-point", "exponent_bias": "floating-point",
                 "int_bitwidth": "integer", "int_signedness": "integer"}.get(attr)
        if needs:
            raise AttributeError("%s applies to %s dtypes, not %s" % (attr, needs, self.__dict__.get("name")))
        raise AttributeError("%r object has no attribute %r" % (type(self).__name__, attr))

    @staticmethod
    def _named(name):
        """The tl object of any spelling of a scalar type's name."""
        return dtype._registry[dtype(name).name]

    @property
    def short(self):
        """The type as kernel signatures spell it ("i32", "fp16", "*fp32")."""
        return _SCALARS[self.name][1]

    @property
    def attr_name(self):
        """The type's name in tl ("float32")."""
        return _SCALARS[self.name][0]

    @staticmethod
    def is_dtype(type_str):
        return type_str in dtype.SINT_TYPES + dtype.UINT_TYPES + dtype.FP_TYPES + dtype.OTHER_TYPES

    def is_fp8(self):
        return self.name.startswith("fp8")

    def is_floating(self):
        return self.name in dtype.FP_TYPES

    def is_standard_floating(self):
        return self.name in dtype.STANDARD_FP_TYPES

    def is_int_signed(self):
        return self.name in dtype.SINT_TYPES

    def is_int_unsigned(self):
        return self.name in dtype.UINT_TYPES

    def is_int(self):
        return self.name in dtype.SINT_TYPES + dtype.UINT_TYPES

    def is_bool(self):
        return self.name == "int1"

    def is_void(self):
        return self.name == "void"

    def kind(self):
        """bool < integer < floating point, as Triton orders promotions."""
        if self.is_bool():
            return dtype.KIND.BOOLEAN
        if self.is_int():
            return dtype.KIND.INTEGRAL
        if self.is_floating():
            return dtype.KIND.FLOATING
        raise TypeError("%s has no kind" % self.name)

    def get_int_max_value(self):
        if not self.is_int():
            raise TypeError("get_int_max_value applies to integer dtypes, not %s" % self.name)
        return 2 ** (self.int_bitwidth - 1) - 1 if self.is_int_signed() else 2 ** self.int_bitwidth - 1

    def get_int_min_value(self):
        if not self.is_int():
            raise TypeError("get_int_min_value applies to integer dtypes, not %s" % self.name)
        return -2 ** (self.int_bitwidth - 1) if self.is_int_signed() else 0

    def is_block(self):
        return False

    def is_ptr(self):
        return False

    def is_const(self):
        return False

    @property
    def scalar(self):
        return self

    def with_element_ty(self, element_ty):
        return element_ty

    def mangle(self):
        if self.is_int():
            return ("i" if self.is_int_signed() else "u") + str(self.int_bitwidth)
        if self.is_floating():
            return self.name
        if self.is_void():
            return "V"
        return super().mangle()

    def __eq__(self, other):
        other = _unwrap(other)
        return type(other) is type(self) and other.name == self.name

    def __hash__(self):
        return hash((self.name,))

    def __str__(self):
        return self.name

    def __repr__(self):  # also how a dtype constexpr reaches the frontend (_specialize.constexpr_text)
        return "tl." + self.attr_name


def _predicate(name):
    return lambda self: self.name == name


for _name in _SCALARS:
    if _name != "void":
        setattr(dtype, "is_" + _name, _predicate(_name))
del _name


class pointer_type(dtype):
    """A pointer to `element_ty` in an address space (1: global)."""

    def __init__(self, element_ty, address_space=1, const=False):
        element_ty = _unwrap(element_ty)
        if not isinstance(element_ty, dtype):
            raise TypeError("element_ty has type `%s`; expected `dtype`." % type(element_ty).__name__)
        self.element_ty = element_ty
        self.address_space = address_space
        self.const = const
        self.name = ("const_pointer<%s>" if const else "pointer<%s>") % element_ty
        self.primitive_bitwidth = 64
        self.itemsize = 8

    @property
    def short(self):
        return ("*k" if self.const else "*") + self.element_ty.short

    def is_ptr(self):
        return True

    def is_const(self):
        return self.const

    def mangle(self):
        return "P" + self.element_ty.mangle()

    def __eq__(self, other):
        other = _unwrap(other)
        return (isinstance(other, pointer_type) and self.element_ty == other.element_ty
                and self.address_space == other.address_space and self.const == other.const)

    def __hash__(self):
        return hash((self.name, self.address_space))

    def __repr__(self):  # also how the frontend reads a pointer type constexpr
        return "tl.pointer_type(%r)" % (self.element_ty,)


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


class block_type(dtype):
    """A tile type: `element_ty` over a shape of powers of two."""

    def __init__(self, element_ty, shape):
        if not isinstance(shape, (list, builtins.tuple)):
            raise TypeError("block_type's shape is a list or tuple, not %r" % (shape,))
        self.element_ty = element_ty
        self.shape = builtins.tuple(_unwrap(d) for d in shape)
        if not self.shape:
            raise TypeError("0d block_type is forbidden")
        self.numel = validate_block_shape(self.shape)
        self.name = "<%s, %s>" % (self.shape, element_ty)
        self.primitive_bitwidth = element_ty.primitive_bitwidth

    short = property(lambda self: self.name)

    def is_block(self):
        return True

    def get_block_shapes(self):
        return self.shape

    def with_element_ty(self, element_ty):
        return block_type(element_ty, self.shape)

    @property
    def scalar(self):
        return self.element_ty

    @property
    def nbytes(self):
        return self.numel * (self.element_ty.primitive_bitwidth // 8)

    def mangle(self):
        return "%sS%sS" % (self.element_ty.mangle(), "_".join(map(str, self.shape)))

    def __eq__(self, other):
        return isinstance(other, block_type) and self.element_ty == other.element_ty and self.shape == other.shape

    def __hash__(self):
        return hash((self.element_ty, self.shape))

    def __repr__(self):
        return self.name


class tuple_type(base_type):
    """The type of a tuple: its elements' types and optional field names."""

    def __init__(self, types, fields=None):
        self.types = types
        self.fields = fields or [""] * len(types)
        self.name = "[" + ",".join("%s:%s" % (k, v) for k, v in zip(self.fields, self.types)) + "]"

    def __str__(self):
        return self.name

    def __iter__(self):
        return iter(self.types)

    def __getitem__(self, index):
        return self.types[index]

    def __eq__(self, other):
        return type(self) is type(other) and self.types == other.types and self.fields == other.fields

    def __hash__(self):
        return hash((builtins.tuple(self.types), builtins.tuple(self.fields)))

    def mangle(self):
        return "T" + "_".join(t.mangle() for t in self.types) + "T"


class slice_type(dtype):
    """The type of a slice inside a kernel (x[1:]) ."""

    def __init__(self):
        self.name = "slice_type"
        self.primitive_bitwidth = 0


def _type_of(value):
    return constexpr_type(value) if isinstance(value, (int, float, dtype)) else value.type


class tuple(base_value):
    """A tuple of language values (Triton's tl.tuple): indexing, slicing,
    concatenation, field access by name where its type names fields."""

    def __init__(self, args, type=None):
        self.values = list(args)
        if isinstance(type, tuple_type):
            self.type = type
        elif type is not None:
            self.type = tuple_type(type)
        else:
            self.type = tuple_type([_type_of(v) for v in self.values])

    def __getitem__(self, index):
        index = _unwrap(index)
        if isinstance(index, (slice, builtins.slice)):
            return tuple(self.values[index.start:index.stop:index.step])
        return self.values[index]

    def __getattr__(self, name):
        if name.startswith("__") or "type" not in self.__dict__:
            raise AttributeError(name)
        fields = self.type.fields
        if name not in fields:
            raise AttributeError("tuple has no field %r" % name)
        return self.values[fields.index(name)]

    def __add__(self, other):
        other = other if isinstance(other, tuple) else tuple(other)
        return tuple(self.values + other.values)

    def __mul__(self, count):
        return tuple(self.values * _unwrap(count))

    def __eq__(self, other):
        other = other if isinstance(other, tuple) else tuple(other)
        return self.values == other.values

    def __hash__(self):
        return hash(builtins.tuple(self.values))

    def __iter__(self):
        return iter(self.values)

    def __len__(self):
        return len(self.values)

    def __str__(self):
        return str([str(v) for v in self.values])

    def __repr__(self):
        return "(%s)" % ", ".join(repr(v) for v in self.values)


class slice:
    """A slice of a tuple (Triton's tl.slice)."""

    def __init__(self, start, stop, step):
        self.start, self.stop, self.step = start, stop, step
        self.type = slice_type()


class tensor_descriptor_base_type(base_type):
    """The type of a tensor descriptor whose shape and strides are unknown:
    the block it loads and stores."""

    def __init__(self, block_type):
        self.block_type = block_type

    def __str__(self):
        return "tensor_descriptor<%s>" % (self.block_type,)

    def __eq__(self, other):
        return type(other) is type(self) and self.block_type == other.block_type

    def __hash__(self):
        return hash(self.block_type)

    def mangle(self):
        return "TD" + self.block_type.mangle()


class tensor_descriptor_type(tensor_descriptor_base_type):
    """A tensor descriptor's type with its shape's and strides' types."""

    def __init__(self, block_type, shape_type, strides_type):
        super().__init__(block_type)
        self.shape_type = shape_type
        self.strides_type = strides_type

    def __eq__(self, other):
        return super().__eq__(other) and self.shape_type == other.shape_type and self.strides_type == other.strides_type

    def __hash__(self):
        return hash((self.block_type, self.shape_type, self.strides_type))


class tensor_descriptor_base(base_value):
    """A tensor descriptor inside a kernel (what tl.make_tensor_descriptor
    returns, or a host TensorDescriptor argument becomes), for
    ``isinstance(x, tl.tensor_descriptor)``; host code never holds one."""

    def __init__(self, *args, **kwargs):
        raise TypeError("tl.tensor_descriptor is a type; descriptors exist only inside a kernel "
                        "(on the host, use tessera.tools.tensor_descriptor.TensorDescriptor)")


class tensor_descriptor(tensor_descriptor_base):
    __doc__ = tensor_descriptor_base.__doc__


def check_bit_width(value, shift_value):
    """Warns, as Triton does, where a constant shift is at least the shifted
    value's width."""
    value_type = getattr(value, "type", None)
    if value_type is not None and isinstance(shift_value, constexpr_base):
        bits = value_type.scalar.primitive_bitwidth
        if shift_value.value >= bits:
            warnings.warn("Value %s exceeds the maximum bitwidth (%d) for type '%s'. This may result in "
                          "undefined behavior." % (shift_value.value, bits, value_type.scalar))


# The scalar types, by their tl names.
void = dtype("void")
int1 = dtype("int1")
int8 = dtype("int8")
int16 = dtype("int16")
int32 = dtype("int32")
int64 = dtype("int64")
uint8 = dtype("uint8")
uint16 = dtype("uint16")
uint32 = dtype("uint32")
uint64 = dtype("uint64")
float8e5 = dtype("fp8e5")
float8e5b16 = dtype("fp8e5b16")
float8e4nv = dtype("fp8e4nv")
float8e4b8 = dtype("fp8e4b8")
float8e4b15 = dtype("fp8e4b15")
float16 = dtype("fp16")
bfloat16 = dtype("bf16")
float32 = dtype("fp32")
float64 = dtype("fp64")
pi32_t = pointer_type(int32)
SCALAR_NAMES = [_SCALARS[name][0] for name in _SCALARS]
