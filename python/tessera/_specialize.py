"""Turning launch arguments into a Triton-style signature and launch values.

Pointers: numpy arrays, torch tensors (``data_ptr()``), anything with
``__cuda_array_interface__``, ``__array_interface__`` or ``__dlpack__``, and
tessera's own arrays become "*<dtype>", with ":16" when the address is
16-byte aligned; each also reports its device ("cpu", "cuda:N", "hip:N"...:
the target registry maps PyTorch and DLPack devices to them), from which
the launch picks the target. Integers become "i32"/"i64"/"u64" with ":1"
when equal to 1 and ":16" when divisible by 16 (unless the parameter is in
``do_not_specialize``); floats "fp32"; bools "i1".

Layer 2, compile (python/tessera/__init__.py lists the layers).
"""

import collections
import ctypes
import sys
import types
import weakref

from . import _C, _targets
from . import language as tl

# numpy / torch / ml_dtypes dtype names -> Triton's signature names.
_DTYPES = {
    "bool": "i1", "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64",
    "uint8": "u8", "uint16": "u16", "uint32": "u32", "uint64": "u64",
    "float16": "fp16", "half": "fp16", "bfloat16": "bf16", "float32": "fp32", "float": "fp32",
    "float64": "fp64", "double": "fp64",
    "float8_e4m3fn": "fp8e4nv", "float8_e5m2": "fp8e5",
}

_CTYPES = {
    "i1": ctypes.c_bool, "i8": ctypes.c_int8, "i16": ctypes.c_int16, "i32": ctypes.c_int32, "i64": ctypes.c_int64,
    "u8": ctypes.c_uint8, "u16": ctypes.c_uint16, "u32": ctypes.c_uint32, "u64": ctypes.c_uint64,
    "fp32": ctypes.c_float, "fp64": ctypes.c_double,
}


def _memoized(fn):
    """fn with its results kept per (hashable) argument: launches repeat a
    few dtypes and devices, and naming them is costly."""
    seen = {}

    def lookup(key):
        try:
            return seen[key]
        except (KeyError, TypeError):
            pass
        value = fn(key)
        try:
            seen[key] = value
        except TypeError:
            pass
        return value
    return lookup


@_memoized
def _dtype_name(dtype):
    if isinstance(dtype, tl.dtype):  # a TensorWrapper's (tessera.reinterpret)
        return dtype.short
    name = str(dtype)
    if name.startswith("torch."):
        name = name[len("torch."):]
    if name not in _DTYPES:
        raise TypeError("unsupported element type %r for a kernel pointer argument" % name)
    return _DTYPES[name]


# __cuda_array_interface__ typestr (without the byte order) -> signature dtype.
_TYPESTRS = {"b1": "i1", "i1": "i8", "i2": "i16", "i4": "i32", "i8": "i64", "u1": "u8", "u2": "u16", "u4": "u32",
             "u8": "u64", "f2": "fp16", "f4": "fp32", "f8": "fp64"}


# torch.device -> (the torch module it was resolved with, device name): every
# launch names its tensors' devices, and the answer depends on the build.
_torch_devices = {}


def _torch_device(device):
    """The device ("cpu", "cuda:N", "hip:N"...) of a torch.device (or a
    device string): the target registry decides, with the PyTorch build (a
    ROCm build's "cuda" is a hip device)."""
    torch = sys.modules.get("torch")
    try:
        seen, name = _torch_devices[device]
        if seen is torch:
            return name
    except (KeyError, TypeError):
        pass
    name = _device_of_torch(device, torch)
    try:
        _torch_devices[device] = (torch, name)
    except TypeError:
        pass  # an unhashable device: named again next time
    return name


def _device_of_torch(device, torch):
    kind = getattr(device, "type", None)
    if kind is None:
        kind, _, index = str(device).partition(":")
        index = int(index or 0)
    else:
        index = device.index if device.index is not None else 0
    return _targets.device_of_torch(kind, index, torch)


def _cuda_interface_device(arg):
    # The interface does not name the device: the object's own `device` may
    # (a device name for tessera arrays, cupy's Device with .id, a
    # torch.device); else device 0 of the backend running CUDA memory.
    from . import _dlpack
    device = getattr(arg, "device", None)
    if device is None:
        return _targets.device_of_dlpack(_dlpack.CUDA, 0)
    if isinstance(getattr(device, "id", None), int):
        return _targets.device_of_dlpack(_dlpack.CUDA, device.id)
    if isinstance(device, str):
        return _C.device_label(*_C.parse_device(device))
    return _torch_device(device)


def _dlpack_info(arg):
    from . import _dlpack
    device_type, device_id = arg.__dlpack_device__() if hasattr(arg, "__dlpack_device__") else (_dlpack.CPU, 0)
    device = _targets.device_of_dlpack(device_type, device_id)
    if device is None:
        raise TypeError("a DLPack tensor on device type %d cannot be passed to a Tessera kernel (no target takes "
                        "its memory)" % device_type)
    if _C.parse_device(device)[0] == _C.HOST:
        import numpy as np
        view = np.from_dlpack(arg)
        return view.__array_interface__["data"][0], _dtype_name(view.dtype), device
    address, _, dtype = _dlpack.describe(arg)
    return address, dtype, device


# type -> (address, signature dtype, device) extractor for the common
# pointer types, found once per type (the launch path's fast lane).
_fast_pointers = {}


_guard_page = None


def empty_host_address():
    """Where an empty host array points a kernel: a page that may not be
    read or written, so that an unmasked access through it is a memory fault
    the launch reports (an empty numpy array's own address lies inside some
    other allocation, which a store would corrupt). Page-aligned, so the
    alignment facts of the signature hold."""
    global _guard_page
    if _guard_page is None:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.mmap.restype = ctypes.c_void_p
        libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                              ctypes.c_long]
        prot_none, map_private_anonymous = 0, 0x02 | 0x20
        address = libc.mmap(None, 1 << 16, prot_none, map_private_anonymous, -1, 0)
        if address in (None, ctypes.c_void_p(-1).value):
            raise OSError(ctypes.get_errno(), "cannot reserve the empty arrays' guard page")
        _guard_page = address
    return _guard_page


def _numpy_pointer(a):
    if not a.size:
        return empty_host_address(), _dtype_name(a.dtype), "cpu"
    return a.__array_interface__["data"][0], _dtype_name(a.dtype), "cpu"


def _torch_pointer(t):
    return t.data_ptr(), _dtype_name(t.dtype), _torch_device(t.device)


# The largest allocation a ":r32" pointer may point into (ir/IR.h's
# pointer_range = 32): the size amdgpu's buffer resources state.
RANGE32_BYTES = 0x7FFFFFFE


def allocation_bytes(arg):
    """The size of the allocation an array argument points into, or None
    when it cannot be known (the pointer is then not specialized on it)."""
    storage = getattr(arg, "untyped_storage", None)  # torch: views share their base's storage
    if storage is not None:
        try:
            return storage().nbytes()
        except (RuntimeError, TypeError):
            return None
    if getattr(arg, "_tessera_device", None) is not None:
        return arg.nbytes  # tessera's arrays own their buffer
    return None


def mark_pointer_ranges(signature, arguments):
    """`signature` with ":r32" on each pointer whose argument (`arguments`,
    the values the entries were made from, in order) lies in an allocation
    of at most RANGE32_BYTES."""
    marked = []
    for ty, arg in zip(signature, arguments):
        if ty.startswith("*"):
            size = allocation_bytes(arg)
            if size is not None and size <= RANGE32_BYTES:
                ty += ":r32"
        marked.append(ty)
    return marked


def element_bytes(dtype):
    """Bytes per element of a signature dtype ("fp16": 2; i1 counts as 1)."""
    return max(1, tl.str_to_ty(dtype).primitive_bitwidth // 8)


def fast_pointer(cls):
    """The extractor for arguments of exactly type `cls` (numpy.ndarray,
    torch.Tensor), else None: other types take pointer_info's checks."""
    try:
        return _fast_pointers[cls]
    except KeyError:
        pass
    fn = None
    np = sys.modules.get("numpy")
    torch = sys.modules.get("torch")
    if np is not None and cls is np.ndarray:
        fn = _numpy_pointer
    elif torch is not None and (cls is getattr(torch, "Tensor", None) or
                                cls is getattr(getattr(torch, "nn", None), "Parameter", None)):
        fn = _torch_pointer  # a module's weights are Parameters
    _fast_pointers[cls] = fn
    return fn


def _elements(iface):
    size = 1
    for n in iface.get("shape", ()):
        size *= n
    return size


def _checked_address(iface):
    """An array interface's data address; null only for an empty array (a
    kernel must not touch those, as with an empty torch tensor)."""
    address = iface["data"][0] if iface.get("data") is not None else 0
    if not address:
        if _elements(iface):
            raise TypeError("an array of shape %s with a null data pointer cannot be a pointer argument"
                            % (tuple(iface.get("shape", ())),))
    return address


def pointer_info(arg):
    """(address, signature dtype, device) of an array-like argument, or None;
    device is "cpu", "cuda:N", "hip:N" and so on. Checked in this order: torch-style tensors
    (data_ptr(), dtype, device), __cuda_array_interface__ (device memory of
    the current CUDA device), __array_interface__ (host), __dlpack__."""
    device = getattr(arg, "_tessera_device", None)
    if device is not None:  # tessera's own arrays, on any backend's device
        return arg.data_ptr(), _dtype_name(arg.dtype), device
    if hasattr(arg, "data_ptr") and hasattr(arg, "dtype"):
        device = getattr(arg, "device", None)
        return arg.data_ptr(), _dtype_name(arg.dtype), "cpu" if device is None else _torch_device(device)
    if hasattr(arg, "__cuda_array_interface__"):
        iface = arg.__cuda_array_interface__
        typestr = iface["typestr"]
        if typestr[1:] not in _TYPESTRS:
            raise TypeError("unsupported element type %r for a kernel pointer argument" % typestr)
        return _checked_address(iface), _TYPESTRS[typestr[1:]], _cuda_interface_device(arg)
    if hasattr(arg, "__array_interface__"):
        iface = arg.__array_interface__
        import numpy as np
        address = _checked_address(iface)
        if not _elements(iface):
            address = empty_host_address()
        return address, _dtype_name(np.dtype(iface["typestr"]) if not hasattr(arg, "dtype") else arg.dtype), "cpu"
    if hasattr(arg, "__dlpack__"):
        return _dlpack_info(arg)
    return None


def specialize(arg, specialize_value=True):
    """(signature entry, ctypes value) for one runtime argument."""
    ty, value, _ = specialize_arg(arg, specialize_value)
    return ty, value


def int_type(value):
    """The signature type of a Python int argument ("i32", "i64", "u64"), or
    None where it does not fit 64 bits."""
    if -2**31 <= value < 2**31:
        return "i32"
    if -2**63 <= value < 2**63:
        return "i64"
    return "u64" if 0 <= value < 2**64 else None


def python_scalar(value):
    """A numpy scalar (np.bool_, np.int8..np.uint64, np.float16..np.float64)
    as the Python bool, int or float it holds; anything else unchanged. A
    numpy scalar has an __array_interface__, but as an argument it is the
    number, as a Python number is: np.int64(7) is the int 7 ("i32", as 7
    is), np.float32(0.5) the float 0.5 ("fp32"), np.bool_(True) True ("i1").
    (Triton 3.6 takes np.float64, a float subclass, as "fp32" and refuses
    the others; a 0-d array stays an array: a pointer.)"""
    np = sys.modules.get("numpy")
    if np is not None and isinstance(value, np.generic) and isinstance(value, (np.bool_, np.integer, np.floating)):
        return value.item()
    return value


# A parameter specialized on a value equal to 1 but not on 16-byte alignment
# or divisibility (Triton's do_not_specialize_on_alignment).
ALIGNMENT_NOT_SPECIALIZED = "value"


def specialize_arg(arg, specialize_value=True):
    """(signature entry, ctypes value, device) for one runtime argument; the
    device is "cpu", "cuda:N"... for pointers, None for scalars.
    specialize_value: True, False or ALIGNMENT_NOT_SPECIALIZED."""
    aligned = bool(specialize_value) and specialize_value != ALIGNMENT_NOT_SPECIALIZED
    if isinstance(arg, tl.constexpr):
        arg = arg.value
    arg = python_scalar(arg)
    if isinstance(arg, bool):
        return "i1", ctypes.c_bool(arg), None
    if isinstance(arg, int):
        ty = int_type(arg)
        if ty is None:
            raise OverflowError("integer argument %d does not fit in 64 bits" % arg)
        value = _CTYPES[ty](arg)
        if specialize_value and arg == 1:
            ty += ":1"
        elif aligned and arg % 16 == 0:
            ty += ":16"
        return ty, value, None
    if isinstance(arg, float):
        return "fp32", ctypes.c_float(arg), None
    info = pointer_info(arg)
    if info is not None:
        address, dtype, device = info
        ty = "*" + dtype
        if aligned and address % 16 == 0:
            ty += ":16"
        return ty, ctypes.c_void_p(address), device
    raise TypeError("cannot pass a %s to a kernel (expected an array, int, float or bool)" % type(arg).__name__)


def constexpr_text(value):
    """A compile-time value as Python source for the frontend."""
    if isinstance(value, tl.constexpr):
        value = value.value
        if isinstance(value, (types.FunctionType, types.BuiltinFunctionType)) and \
                not (value.__module__ or "").startswith(("triton.", "tessera.")):
            value = _wrapped_python_function(value)
    value = python_scalar(value)  # np.int64(1024) is 1024, np.float64(1024.0) 1024.0
    # Subclasses (an IntEnum, a str Enum) are the numbers and strings they
    # hold, which is what they compare equal to in a kernel.
    if value is None or isinstance(value, bool):
        return repr(value)
    if isinstance(value, int):
        return repr(int(value))
    if isinstance(value, float):
        value = float(value)
        if value != value:
            raise ValueError("NaN cannot be a tl.constexpr value")
        return repr(value) if abs(value) != float("inf") else ("1e999" if value > 0 else "-1e999")
    if isinstance(value, str):
        return repr(str.__str__(value))
    if isinstance(value, tl.dtype):
        return repr(value)
    if type(value).__module__ == "torch" and type(value).__name__ == "dtype" and str(value)[6:] in _DTYPES:
        return repr(tl.dtype(_DTYPES[str(value)[6:]]))  # torch.float32 given as a tl.constexpr: tl.float32
    if is_namedtuple_class(value):  # called in a kernel to make one
        defaults = value._field_defaults
        return "namedtuple_class:%s(%s)" % (value.__name__, ", ".join(
            f + ("=" + constexpr_text(defaults[f]) if f in defaults else "") for f in value._fields))
    if isinstance(value, tuple) and is_namedtuple_class(type(value)):
        return "__namedtuple__(%r, (%s), (%s))" % (type(value).__name__, "".join("%r, " % f for f in value._fields),
                                                   "".join(constexpr_text(v) + ", " for v in value))
    if isinstance(value, (tuple, list)):
        return "(" + "".join(constexpr_text(v) + ", " for v in value) + ")"
    function_id = getattr(value, "_tessera_constexpr_function_id", None)
    if function_id is not None:  # a constexpr function, called through _C.constexpr_function_runner
        return "constexpr_function:" + function_id
    function_id = getattr(value, "_tessera_extern_function_id", None)
    if function_id is not None:  # an extern function (tl.extern), whose body runs there too
        return "extern_function:" + function_id
    # A language function (tl.sigmoid, tl.extra.cuda.smid, Triton's own) by its
    # module path; the frontend resolves it in the kernel's scope.
    source = getattr(value, "_tessera_source", None)
    if source is None and callable(value) and (getattr(value, "__module__", "") or "").startswith("triton.language"):
        source = (value.__module__, getattr(value, "__name__", ""))
    if source and source[1].isidentifier():
        return "%s.%s" % source
    raise TypeError("cannot use a %s as a tl.constexpr value" % type(value).__name__)


# Texts of constexpr values by (type, value), for the launch path (a kernel
# with a dozen constexprs pays for them on every launch). Floats are left
# out: -0.0 == 0.0 and NaN != NaN would confuse a dict.
_constexpr_texts = {}
_MEMO_TYPES = (int, bool, str, type(None))


_wrapped_functions = weakref.WeakKeyDictionary()
# jit.ConstexprFunction, set by jit.py (a layer above this one).
constexpr_function_class = [None]


def _wrapped_python_function(fn):
    """A plain Python function wrapped as a tl.constexpr global
    (`@tl.constexpr def accumulator_type(dtype): ...`, as FlagGems writes):
    Triton calls it while compiling, on the compile-time values it is given,
    which is what a constexpr function is."""
    wrapped = _wrapped_functions.get(fn)
    if wrapped is None:
        wrapped = _wrapped_functions[fn] = constexpr_function_class[0](fn)
    return wrapped


def constexpr_text_cached(value):
    """constexpr_text(value), remembered for ints, bools, strings and None."""
    cls = value.__class__
    if cls not in _MEMO_TYPES:
        return constexpr_text(value)
    key = (cls, value)
    text = _constexpr_texts.get(key)
    if text is None:
        if len(_constexpr_texts) > 4096:
            _constexpr_texts.clear()
        text = _constexpr_texts[key] = constexpr_text(value)
    return text


_namedtuple_classes = {}


def namedtuple_like(name, fields, values):
    """A namedtuple the frontend handed back (`__namedtuple__` in a
    compile-time value's text): an instance of a class with that name and
    those fields (the kernel's own class is not known there)."""
    cls = _namedtuple_classes.get((name, fields))
    if cls is None:
        cls = _namedtuple_classes[(name, fields)] = collections.namedtuple(name, fields)
    return cls(*values)


def is_namedtuple_class(value):
    """A class made by collections.namedtuple or typing.NamedTuple."""
    return isinstance(value, type) and issubclass(value, tuple) and isinstance(getattr(value, "_fields", None), tuple)


def is_constexpr_global(value):
    """Module-level globals a kernel may read as compile-time constants
    (namedtuple classes too: a kernel may make one)."""
    return isinstance(python_scalar(value), (bool, int, float, tl.dtype, tl.constexpr)) or is_namedtuple_class(value) or \
        getattr(value, "_tessera_constexpr_function_id", None) is not None or \
        getattr(value, "_tessera_extern_function_id", None) is not None


def _launch_argument(value):
    """A plain launch's ctypes value of `value` (_C.Kernel.launch)."""
    return specialize(value, False)[1]


_C.argument_converter = _launch_argument
