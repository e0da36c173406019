"""tessera's own arrays: device memory with a shape and a dtype, for using
kernels without torch (``tessera.empty/zeros/from_numpy``).

An Array is C-contiguous and owns one runtime buffer. It is accepted as a
kernel argument like a tensor, and exported through ``__cuda_array_interface__``
(CUDA), ``__array_interface__`` (cpu) and ``__dlpack__`` (both), so torch,
cupy and numpy can view its memory without a copy. Copies to and from the
host are complete when they return.

Layer 1, targets (python/tessera/__init__.py lists the layers).
"""

from . import _C, _dlpack, _targets


def _dtype(dtype):
    import numpy as np
    if isinstance(dtype, str) and dtype in ("bfloat16", "float8_e4m3fn", "float8_e5m2"):
        import ml_dtypes
        return np.dtype(getattr(ml_dtypes, dtype))
    return np.dtype(dtype)


def _normalize_device(device):
    if device is None:
        device = _targets.backend_of(_targets.default_target())
    backend, index = _C.parse_device(device)
    return backend, index, _C.device_label(backend, index)


class Array:
    """A C-contiguous array in a device's memory: ``Array(shape,
    dtype="float32", device=None)`` allocates one, uninitialized (as
    tessera.empty). `shape` is an int or a tuple of ints; `dtype` anything
    numpy.dtype takes, or "bfloat16", "float8_e4m3fn", "float8_e5m2" (with
    ml_dtypes installed); `device` "cpu", "cuda", "cuda:N", "hip:N"... (None:
    the device of tessera.default_target()). A negative dimension raises
    ValueError.

    Attributes: shape, dtype (a numpy dtype), device (its name: "cpu",
    "cuda:0"), size, nbytes, ndim and is_cuda. The memory is freed with the
    array."""

    def __init__(self, shape, dtype="float32", device=None):
        if isinstance(shape, int):
            shape = (shape,)
        self.shape = tuple(int(n) for n in shape)
        if any(n < 0 for n in self.shape):
            raise ValueError("negative dimension in shape %r" % (self.shape,))
        self.dtype = _dtype(dtype)
        self._backend, self._index, self.device = _normalize_device(device)
        self._tessera_device = self.device
        size = 1
        for n in self.shape:
            size *= n
        self.size, self.nbytes = size, size * self.dtype.itemsize
        self._buffer = _C.Buffer(_C.get_device(self._backend, self._index), self.nbytes)
        # What DLPack calls this memory (the target registry knows each backend's).
        self._dlpack_device = (_targets.dlpack_of_backend(self._backend), 0 if self._backend == _C.HOST else self._index)

    ndim = property(lambda self: len(self.shape))
    is_cuda = property(lambda self: self._dlpack_device[0] == _dlpack.CUDA)

    def data_ptr(self):
        """The address of the first element, as a kernel takes it."""
        return self._buffer.ptr

    def __repr__(self):
        return "tessera.Array(shape=%r, dtype=%s, device=%r)" % (self.shape, self.dtype, self.device)

    def __len__(self):
        if not self.shape:
            raise TypeError("len() of a 0-d array")
        return self.shape[0]

    # ---- copies

    def copy_from_numpy(self, arr):
        """Copies a numpy array (or anything numpy.asarray takes), converted
        to this array's dtype, into this array; the shapes must be equal
        (ValueError). Returns this array."""
        import numpy as np
        arr = np.ascontiguousarray(arr, dtype=self.dtype)
        if arr.shape != self.shape:
            raise ValueError("shape %r does not match the array's %r" % (arr.shape, self.shape))
        if self.nbytes:
            self._buffer.copy_from_host(arr.ctypes.data, self.nbytes)
        return self

    def numpy(self):
        """A host copy as a numpy array."""
        import numpy as np
        out = np.empty(self.shape, self.dtype)
        if self.nbytes:
            self._buffer.copy_to_host(out.ctypes.data, self.nbytes)
        return out

    def copy_(self, other):
        """Copies another Array of the same shape, dtype and device into this one."""
        if (other.shape, other.dtype, other.device) != (self.shape, self.dtype, self.device):
            raise ValueError("copy_ needs the same shape, dtype and device: %r vs %r" % (other, self))
        if self.nbytes:
            self._buffer.copy_from(other._buffer, self.nbytes)
        return self

    # ---- exchange protocols

    def _typestr(self):
        return self.dtype.str if self.dtype.kind != "V" else "<V%d" % self.dtype.itemsize

    @property
    def __cuda_array_interface__(self):
        if not self.is_cuda:
            raise AttributeError("a %s array has no __cuda_array_interface__" % self.device)
        # version 3; stream None: the memory is ready for any stream (copies
        # into it complete before they return).
        return {"shape": self.shape, "typestr": self._typestr(), "data": (self.data_ptr(), False), "version": 3,
                "strides": None, "stream": None}

    @property
    def __array_interface__(self):
        if self._backend != _C.HOST:
            raise AttributeError("a %s array has no __array_interface__ (use .numpy() for a host copy)" % self.device)
        return {"shape": self.shape, "typestr": self._typestr(), "data": (self.data_ptr(), False), "version": 3,
                "strides": None}

    def __dlpack_device__(self):
        return self._dlpack_device

    def __dlpack__(self, stream=None, max_version=None, dl_device=None, copy=None):
        # The consumer's stream needs no ordering against ours: tessera's
        # host copies into the array are complete when they return, and
        # kernels writing it were launched on the consumer's (current) stream.
        if copy:
            raise BufferError("tessera arrays export without copying")
        return _dlpack.make_capsule(self, self.data_ptr(), self.shape, self._typestr(), *self.__dlpack_device__())


def empty(shape, dtype="float32", device=None):
    """An uninitialized array on `device` ("cuda", "cuda:N", "cpu"...; None:
    the device of tessera.default_target(), a GPU when there is one)."""
    return Array(shape, dtype, device)


def zeros(shape, dtype="float32", device=None):
    """An array of zeros on `device` (as empty(), then zeroed from the host)."""
    import numpy as np
    a = Array(shape, dtype, device)
    return a.copy_from_numpy(np.zeros(a.shape, a.dtype))


def from_numpy(arr, device=None):
    """A copy of a numpy array (or anything numpy.asarray accepts) on `device`."""
    import numpy as np
    arr = np.asarray(arr)
    return Array(arr.shape, arr.dtype, device).copy_from_numpy(arr)
