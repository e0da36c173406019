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
"""

import ctypes
import functools
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
    jit = sys.modules[__package__ + ".jit"]  # the module (tessera.jit is the decorator)
    loader = importlib.machinery.ExtensionFileLoader("_tessera_launch", path)
    spec = importlib.util.spec_from_file_location("_tessera_launch", path, loader=loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    np = sys.modules.get("numpy")
    address = ctypes.cast(_C.library().tessera_kernel_launch, ctypes.c_void_p).value
    module.configure(address, dtypes, devices, streams, (), np.ndarray if np else None, jit.normalize_grid,
                     frozenset(jit._IGNORED_OPTIONS), (tl.dtype,), TensorDescriptor, sizes)
    data = getattr(os.environ, "_data", None)  # CPython's os.environ keeps its encoded items in a dict
    if isinstance(data, dict) and hasattr(module, "set_environment"):
        module.set_environment(data, os.environ.encodekey("TESSERA_DEBUG"))
    # kernel[grid] in C: JITFunction.__getitem__'s test and result without
    # a Python frame per launch (the class's own method says what it does).
    if jit.JITFunction.__dict__.get("__getitem__") is jit.JITFunction._python_getitem and hasattr(module, "Subscript"):
        jit.JITFunction.__getitem__ = module.Subscript(jit.KernelInterface.__getitem__, vars(jit), functools.partial)
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
    from .jit import _CODEGEN_OPTIONS, _IGNORED_OPTIONS
    if {"num_warps", "num_stages", "debug", "grid", *_CODEGEN_OPTIONS, *_IGNORED_OPTIONS} & set(names):
        return None  # also launch options: only run() sorts them out
    missing = object()
    defaults = tuple(missing if p.default is p.empty else p.default for p in params)
    flags = bytes((1 if n in jit_function.constexpr_names else 0) |
                  (0 if n in jit_function.do_not_specialize else 2) for n in names)
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
