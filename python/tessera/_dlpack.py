"""DLPack through ctypes, both ways, without numpy or torch.

Reading: the address, device and dtype of any object's ``__dlpack__()``
capsule (numpy cannot import CUDA memory, so CUDA producers need this).
Writing: capsules for tessera's own arrays (``Array.__dlpack__``).

Only the unversioned ABI ("dltensor" capsules, DLPack < 1.0): every producer
still returns it when the consumer does not ask for ``max_version``.

Layer 0, binding (python/tessera/__init__.py lists the layers).
"""

import ctypes

# DLDeviceType values (which targets take which: the target registry's rows).
CPU, CUDA, CUDA_HOST, VULKAN, ROCM, CUDA_MANAGED, ONEAPI = 1, 2, 3, 7, 10, 13, 14


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice), ("ndim", ctypes.c_int32), ("dtype", DLDataType),
                ("shape", ctypes.POINTER(ctypes.c_int64)), ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("byte_offset", ctypes.c_uint64)]


class DLManagedTensor(ctypes.Structure):
    pass


_DELETER = ctypes.CFUNCTYPE(None, ctypes.POINTER(DLManagedTensor))
DLManagedTensor._fields_ = [("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p), ("deleter", _DELETER)]

# The capsule API, on raw pointers: a capsule destructor runs while the
# capsule is being freed, when taking a Python reference to it would revive it.
_api = ctypes.pythonapi
_get_name = ctypes.PYFUNCTYPE(ctypes.c_char_p, ctypes.c_void_p)(("PyCapsule_GetName", _api))
_get_pointer = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p)(("PyCapsule_GetPointer", _api))
_CAPSULE_DESTRUCTOR = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
_new_capsule = ctypes.PYFUNCTYPE(ctypes.py_object, ctypes.c_void_p, ctypes.c_char_p, _CAPSULE_DESTRUCTOR)(
    ("PyCapsule_New", _api))
_get_pointer_obj = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.py_object, ctypes.c_char_p)(("PyCapsule_GetPointer", _api))

# (code, bits) -> signature dtype. Codes: 0 int, 1 uint, 2 float, 4 bfloat, 6 bool.
_DTYPES = {(0, 8): "i8", (0, 16): "i16", (0, 32): "i32", (0, 64): "i64", (1, 8): "u8", (1, 16): "u16",
           (1, 32): "u32", (1, 64): "u64", (2, 16): "fp16", (2, 32): "fp32", (2, 64): "fp64", (4, 16): "bf16",
           (6, 8): "i1"}


def describe(obj, stream=None):
    """(address, (device_type, device_id), signature dtype) of obj.__dlpack__().

    The capsule is read, not consumed: its producer frees it (and nothing
    else, since `obj` keeps the memory alive) when it is garbage collected."""
    capsule = obj.__dlpack__() if stream is None else obj.__dlpack__(stream=stream)
    t = DLManagedTensor.from_address(_get_pointer_obj(capsule, b"dltensor")).dl_tensor
    key = (t.dtype.code, t.dtype.bits)
    if key not in _DTYPES or t.dtype.lanes != 1:
        raise TypeError("unsupported DLPack element type (code %d, %d bits, %d lanes)" % (key + (t.dtype.lanes,)))
    return (t.data or 0) + t.byte_offset, (t.device.device_type, t.device.device_id), _DTYPES[key]


# Capsules we produced and that are alive: DLManagedTensor address -> what it
# keeps alive (the struct, its shape array and the array that owns the memory).
_live = {}


@_DELETER
def _delete(managed):
    _live.pop(ctypes.addressof(managed.contents), None)


@_CAPSULE_DESTRUCTOR
def _capsule_destructor(capsule):
    # A consumer renames the capsule "used_dltensor" and calls the deleter
    # itself; an unconsumed capsule is ours to release.
    if _get_name(capsule) == b"dltensor":
        address = _get_pointer(capsule, b"dltensor")
        _live.pop(address, None)


_CODES = {"i": 0, "u": 1, "f": 2, "b": 6}


def make_capsule(owner, address, shape, typestr, device_type, device_id):
    """A "dltensor" capsule over a C-contiguous array at `address`; `owner`
    stays alive until the consumer calls the deleter (or the capsule dies)."""
    kind, size = typestr[1], int(typestr[2:])
    if kind == "V" and size == 2:
        code = 4  # bfloat16 (ml_dtypes reports it as raw 2-byte data)
    elif kind in _CODES:
        code = _CODES[kind]
    else:
        raise TypeError("no DLPack type for %r" % typestr)
    managed = DLManagedTensor()
    shape_array = (ctypes.c_int64 * max(1, len(shape)))(*shape)
    t = managed.dl_tensor
    t.data, t.ndim, t.byte_offset = address, len(shape), 0
    t.device = DLDevice(device_type, device_id)
    t.dtype = DLDataType(code, size * 8, 1)
    t.shape = ctypes.cast(shape_array, ctypes.POINTER(ctypes.c_int64))
    t.strides = None  # compact row-major
    managed.deleter = _delete
    _live[ctypes.addressof(managed)] = (managed, shape_array, owner)
    return _new_capsule(ctypes.addressof(managed), b"dltensor", _capsule_destructor)
