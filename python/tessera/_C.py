"""ctypes binding to libtessera.so (include/tessera/tessera.h).

ctypes rather than a compiled extension: the same build must load in any
CPython >= 3.10 (the build machine's 3.11 and the GPU machine's 3.12).
The library is found via $TESSERA_LIBRARY, next to this package, or in the
source tree's build/capi/ (for development).
"""

import ctypes
import os

SUCCESS = 0
ERROR_COMPILATION = 5
ERROR_UNAVAILABLE = 3

_STATUS_NAMES = {
    1: "invalid argument", 2: "not found", 3: "unavailable", 4: "out of memory",
    5: "compilation error", 6: "load error", 7: "launch error",
    8: "device assertion failed", 9: "unsupported", 10: "I/O error", 11: "internal error",
}


class TesseraError(RuntimeError):
    """A failed call into libtessera; ``status`` is the C status code."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status


class CompilationError(TesseraError):
    """The kernel's source (or its compilation for the target) failed; the
    message shows file:line:col, the source line and a caret."""


class DeviceAssertionError(TesseraError):
    """A tl.device_assert failed while the kernel ran."""


def _candidates():
    env = os.environ.get("TESSERA_LIBRARY")
    if env:
        yield env
    here = os.path.dirname(os.path.abspath(__file__))
    yield os.path.join(here, "libtessera.so")
    repo = os.path.dirname(os.path.dirname(here))
    yield os.path.join(repo, "build", "capi", "libtessera.so")


def _load():
    tried = []
    for path in _candidates():
        if os.path.exists(path):
            # RTLD_GLOBAL: compiled kernels resolve tessera_host_print and
            # tessera_host_assert_fail against the global scope.
            return ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
        tried.append(path)
    raise ImportError("libtessera.so not found (set TESSERA_LIBRARY); looked in: " + ", ".join(tried))


class _Constexpr(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("value", ctypes.c_char_p)]


class _CompileOptions(ctypes.Structure):
    _fields_ = [
        ("source", ctypes.c_char_p), ("filename", ctypes.c_char_p), ("entry", ctypes.c_char_p),
        ("signature", ctypes.POINTER(ctypes.c_char_p)), ("num_signature", ctypes.c_size_t),
        ("constexprs", ctypes.POINTER(_Constexpr)), ("num_constexprs", ctypes.c_size_t),
        ("target", ctypes.c_char_p), ("num_warps", ctypes.c_int), ("num_stages", ctypes.c_int),
        ("device", ctypes.c_void_p),
    ]


_SIGNATURES = [
    ("tessera_last_error", ctypes.c_char_p, []),
    ("tessera_version", ctypes.c_char_p, []),
    ("tessera_target_available", ctypes.c_int, [ctypes.c_char_p]),
    ("tessera_get_device", ctypes.c_int, [ctypes.c_char_p, ctypes.c_int, ctypes.POINTER(ctypes.c_void_p)]),
    ("tessera_compile", ctypes.c_int, [ctypes.POINTER(_CompileOptions), ctypes.POINTER(ctypes.c_void_p)]),
    ("tessera_kernel_load", ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p, ctypes.c_size_t,
                                           ctypes.c_char_p, ctypes.c_size_t, ctypes.POINTER(ctypes.c_void_p)]),
    ("tessera_kernel_destroy", ctypes.c_int, [ctypes.c_void_p]),
    ("tessera_kernel_num_params", ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_size_t)]),
    ("tessera_kernel_from_cache", ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_int)]),
    ("tessera_kernel_launch", ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint32),
                                             ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p]),
    ("tessera_device_synchronize", ctypes.c_int, [ctypes.c_void_p]),
]

_lib = None


def library():
    """libtessera, loaded on first use: `import tessera.language` and the
    pure-Python helpers work without it."""
    global _lib
    if _lib is None:
        lib = _load()
        for name, res, args in _SIGNATURES:
            f = getattr(lib, name)
            f.restype, f.argtypes = res, args
        _lib = lib
    return _lib


def _check(status, error_class=TesseraError):
    if status == SUCCESS:
        return
    message = (library().tessera_last_error() or b"").decode("utf-8", "replace")
    if status == ERROR_COMPILATION:
        error_class = CompilationError
    elif status == 8:
        error_class = DeviceAssertionError
    raise error_class(status, message or _STATUS_NAMES.get(status, "error %d" % status))


def version():
    return library().tessera_version().decode()


def target_available(target):
    return bool(library().tessera_target_available(target.encode()))


def get_device(backend="host", index=0):
    d = ctypes.c_void_p()
    _check(library().tessera_get_device(backend.encode(), index, ctypes.byref(d)))
    return d


class Kernel:
    """A loaded kernel (owns the C handle)."""

    def __init__(self, handle):
        self.handle = handle
        n = ctypes.c_size_t()
        _check(library().tessera_kernel_num_params(handle, ctypes.byref(n)))
        self.num_params = n.value
        c = ctypes.c_int()
        _check(library().tessera_kernel_from_cache(handle, ctypes.byref(c)))
        self.from_cache = bool(c.value)

    def launch(self, grid, args):
        """grid: 3 ints; args: one ctypes scalar per runtime parameter (a
        c_void_p holding the address for pointers)."""
        if len(args) != self.num_params:
            raise TypeError("kernel takes %d runtime arguments, got %d" % (self.num_params, len(args)))
        ptrs = (ctypes.c_void_p * max(1, len(args)))(*[ctypes.cast(ctypes.byref(a), ctypes.c_void_p) for a in args])
        g = (ctypes.c_uint32 * 3)(*grid)
        _check(library().tessera_kernel_launch(self.handle, g, ptrs, None))

    def __del__(self):
        if getattr(self, "handle", None) and _lib is not None:
            _lib.tessera_kernel_destroy(self.handle)
            self.handle = None


def compile(source, entry, signature, constexprs, target="cpu", filename="<kernel>", num_warps=0, num_stages=0):
    """Compiles through the C API (and its on-disk cache). `constexprs` is a
    list of (name, value-text) pairs."""
    o = _CompileOptions()
    o.source, o.filename, o.entry = source.encode(), filename.encode(), entry.encode()
    sig = (ctypes.c_char_p * max(1, len(signature)))(*[s.encode() for s in signature])
    o.signature, o.num_signature = sig, len(signature)
    cx = (_Constexpr * max(1, len(constexprs)))(*[_Constexpr(n.encode(), v.encode()) for n, v in constexprs])
    o.constexprs, o.num_constexprs = cx, len(constexprs)
    o.target, o.num_warps, o.num_stages = target.encode(), num_warps, num_stages
    k = ctypes.c_void_p()
    _check(library().tessera_compile(ctypes.byref(o), ctypes.byref(k)))
    return Kernel(k)


def load_binary(binary, entry, num_params, format="elf-shared-object", device=None):
    """Loads an already compiled binary (bytes)."""
    device = device or get_device()
    k = ctypes.c_void_p()
    buf = ctypes.create_string_buffer(binary, len(binary))
    _check(library().tessera_kernel_load(device, format.encode(), buf, len(binary), entry.encode(), num_params,
                                   ctypes.byref(k)))
    return Kernel(k)
