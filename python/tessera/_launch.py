"""The launch fast lane: the _tessera_launch extension (capi/python/launcher.c).

A JITFunction's first launch for a specialization goes the Python way
(jit.py: bind, specialize, compile, check, launch); it then `remember`s the
kernel in its Launcher, which repeats later launches with the same key in
C. The extension sits beside libtessera.so (in the package, the bundle, the
wheel or build/capi); without it, or with TESSERA_FAST_LAUNCH=0, every
launch takes the Python way, with the same results.

The tables here are shared by every Launcher and filled by the Python path
as it meets dtypes, torch devices and streams: the extension never names a
dtype or a device itself.

Layer 3, launch (python/tessera/__init__.py lists the layers).
"""

import ctypes
import operator
import importlib.machinery
import importlib.util
import os
import sys
import threading

from . import _C
from . import language as tl
from ._specialize import element_bytes, fast_pointer
from .tools.tensor_descriptor import TensorDescriptor

dtypes = {}    # dtype object -> "*<signature dtype>"
sizes = {}     # "*<signature dtype>" -> element size in bytes (tensor descriptors' tensor-map facts)
devices = {}   # torch.device -> device name ("cuda:0")
streams = {}   # device name -> None (no stream to follow) or (getter, index, {native: tessera stream handle})

# Launch options Triton accepts that change no result here: num_ctas (one
# CTA per program: clusters are not formed), launch_cooperative_grid,
# launch_pdl (launches stay stream-ordered, so tl.extra.cuda.gdc_wait has
# nothing to wait for: correct, without the overlap PDL would allow) and
# extern_libs (Tessera's libdevice functions are its own, found by name as
# Triton finds them in the library given).
IGNORED_OPTIONS = ("num_ctas", "launch_cooperative_grid", "launch_pdl", "extern_libs")


# The launch options jit's _Codegen reads (the fast lane leaves them to run()).
CODEGEN_OPTIONS = ("enable_fp_fusion", "maxnreg", "enable_reflect_ftz")


def _grid_dim(g):
    v = g.value if isinstance(g, tl.constexpr) else g
    try:
        return operator.index(v)  # ints, numpy and torch integers; never a float or a string
    except TypeError:
        raise TypeError("grid dimensions must be integers, got %r (%s)" % (v, type(v).__name__)) from None


def normalize_grid(grid, meta):
    """A grid as 3 non-negative ints; a callable grid gets the meta dict."""
    if callable(grid):
        grid = grid(meta)
    if type(grid) is tuple and len(grid) == 1 and type(grid[0]) is int and 0 <= grid[0] < 2**31:
        return (grid[0], 1, 1)  # the common case, checked as below
    if isinstance(grid, (str, bytes)) or not hasattr(grid, "__iter__"):
        if not hasattr(grid, "__index__") and not isinstance(grid, tl.constexpr):
            raise TypeError("a grid is an int, a tuple of 1 to 3 ints, or a callable returning one; got %r (%s)"
                            % (grid, type(grid).__name__))
        grid = (grid,)
    grid = tuple(_grid_dim(g) for g in grid)
    if not 1 <= len(grid) <= 3:
        raise ValueError("a grid has 1 to 3 dimensions, got %r" % (grid,))
    if any(g < 0 or g >= 2**31 for g in grid):
        raise ValueError("grid dimensions must be in [0, 2^31), got %r" % (grid,))
    if any(g > 65535 for g in grid[1:]):  # CUDA's limit, kept on every target
        raise ValueError("grid dimensions y and z must be at most 65535, got %r" % (grid,))
    return grid + (1,) * (3 - len(grid))


_extension = None  # the module, or False when absent or disabled


def _paths():
    here = os.path.dirname(os.path.abspath(__file__))
    library = getattr(_C.library(), "_name", None)
    dirs = [os.path.dirname(library)] if library else []
    dirs += [here, os.path.join(os.path.dirname(os.path.dirname(here)), "build", "capi")]
    return [os.path.join(d, "_tessera_launch.abi3.so") for d in dirs]


_extension_lock = threading.Lock()


def extension():
    """The configured _tessera_launch module, or None."""
    global _extension
    if _extension is None:
        with _extension_lock:  # threads launching at once load it once
            if _extension is None:
                found = False
                if os.environ.get("TESSERA_FAST_LAUNCH", "1") != "0":
                    path = next((p for p in _paths() if os.path.exists(p)), None)
                    if path is not None:
                        found = _load(path)
                _extension = found
    return _extension or None


def _load(path):
    loader = importlib.machinery.ExtensionFileLoader("_tessera_launch", path)
    spec = importlib.util.spec_from_file_location("_tessera_launch", path, loader=loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    np = sys.modules.get("numpy")
    address = ctypes.cast(_C.library().tessera_kernel_launch, ctypes.c_void_p).value
    module.configure(address, dtypes, devices, streams, (), np.ndarray if np else None, normalize_grid,
                     frozenset(IGNORED_OPTIONS), (tl.dtype,), TensorDescriptor, sizes)
    data = getattr(os.environ, "_data", None)  # CPython's os.environ keeps its encoded items in a dict
    if isinstance(data, dict) and hasattr(module, "set_environment"):
        module.set_environment(data, os.environ.encodekey("TESSERA_DEBUG"))
    return module


_tensor_types = None


def _note_tensor_types():
    global _tensor_types
    torch = sys.modules.get("torch")
    if torch is not None and _tensor_types is None:
        _tensor_types = (torch.Tensor, torch.nn.Parameter)
        _extension.set_tensor_types(_tensor_types)


def new_launcher(jit_function, on_error):
    """A Launcher for a JITFunction, or None (no extension, or a kernel
    whose launches only the Python path binds)."""
    ext = extension()
    params = list(jit_function.signature.parameters.values())
    if ext is None or len(params) > 256:
        return None
    if any(p.kind not in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) for p in params):
        return None
    names = tuple(p.name for p in params)
    if {"num_warps", "num_stages", "debug", "grid", "warmup", *CODEGEN_OPTIONS, *IGNORED_OPTIONS} & set(names):
        return None  # also launch options: only run() sorts them out
    missing = object()
    defaults = tuple(missing if p.default is p.empty else p.default for p in params)
    # launcher.c's FLAG_CONSTEXPR, FLAG_SPECIALIZE, FLAG_ALIGNMENT
    flags = bytes((1 if n in jit_function.constexpr_names else 0) |
                  (0 if n in jit_function.do_not_specialize else 2) |
                  (0 if n in jit_function.do_not_specialize or n in jit_function.do_not_specialize_on_alignment else 4)
                  for n in names)
    return ext.Launcher(names, defaults, missing, flags, on_error)


def note_arguments(bound, device, stream_getter, native_stream, stream_handle):
    """Fills the shared tables with what this launch's arguments showed."""
    _note_tensor_types()
    for value in bound.values():
        if type(value) is TensorDescriptor:
            value = value.base
        extract = fast_pointer(type(value))  # numpy arrays and torch tensors, as the Python path reads them
        if extract is None:
            continue
        tensor = _tensor_types is not None and type(value) in _tensor_types
        if value.dtype in dtypes and (not tensor or value.device in devices):
            continue
        try:
            _, dtype, device_name = extract(value)
        except TypeError:
            continue  # an element type kernels cannot take: the Python path says so
        dtypes[value.dtype] = "*" + dtype
        try:
            sizes["*" + dtype] = element_bytes(dtype)
        except (KeyError, ValueError, TypeError):
            pass  # descriptors over such arrays take the Python path
        if tensor:
            devices[value.device] = device_name
    if device is None:
        return
    if stream_getter is None or native_stream is None:
        streams.setdefault(device, None)
        return
    entry = streams.get(device)
    if entry is None:
        entry = streams[device] = (stream_getter[0], stream_getter[1], {})
    entry[2][native_stream] = stream_handle
