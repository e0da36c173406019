"""@tessera.jit and kernel[grid](...).

A JITFunction compiles its kernel (through libtessera's C API, which keeps
the on-disk cache) once per specialization: the argument types and
alignment/divisibility facts, the constexpr values, the compile-time
globals, num_warps/num_stages and the target. Compiled kernels are also kept
in memory per specialization key, so a warm launch does no compiling.

Layer 3, launch (python/tessera/__init__.py lists the layers).
"""

import ast
import collections
import collections.abc
import contextvars
import ctypes
import functools
import hashlib
import inspect
import json
import os
import pickle
import re
import sys
import textwrap
import weakref

from . import _C, _array, _checked, _extern, _launch, _source, _targets, interpreter
from .language import _stubs
from .language._extern import compile_time_identity, from_def as _from_def
from ._launch import CODEGEN_OPTIONS as _CODEGEN_OPTIONS, IGNORED_OPTIONS as _IGNORED_OPTIONS, normalize_grid
from . import language as tl
from .compiler import KernelMetadata, asm_of
from ._specialize import ALIGNMENT_NOT_SPECIALIZED, constexpr_text, constexpr_text_cached, element_bytes, \
    mark_pointer_ranges, namedtuple_like, pointer_info, python_scalar, specialize_arg
from .tools.tensor_descriptor import TensorDescriptor
from ._specialize import fast_pointer as _fast_pointer
from . import _specialize

# Triton's canonical spellings of type annotations (KernelParam.annotation).
_TYPE_NAMES = {
    "bool": "u1", "int1": "u1", "uint1": "u1", "i1": "u1", "float8e4nv": "fp8e4nv", "float8_e4m3fn": "fp8e4nv",
    "float8e5": "fp8e5", "float8_e5m2": "fp8e5", "float8e4b15": "fp8e4b15", "float8e4b8": "fp8e4b8",
    "float8_e4m3fnuz": "fp8e4b8", "float8e5b16": "fp8e5b16", "float8_e5m2fnuz": "fp8e5b16", "half": "fp16",
    "float16": "fp16", "bfloat16": "bf16", "float": "fp32", "float32": "fp32", "double": "fp64", "float64": "fp64",
    "int8": "i8", "int16": "i16", "int": "i32", "int32": "i32", "int64": "i64", "uint8": "u8", "uint16": "u16",
    "uint32": "u32", "uint64": "u64", "void": "void",
}
_TYPE_NAMES.update({v: v for v in list(_TYPE_NAMES.values())})


def _annotation_text(annotation):
    """An annotation as Triton spells it: "constexpr", "fp32", "*fp16" (a
    pointer), "*kfp16" (a const pointer), "" for none."""
    if annotation is inspect.Parameter.empty or annotation is None or annotation == "":
        return ""
    if isinstance(annotation, str):
        text = annotation.strip()
        if text.startswith("const "):
            return "*k" + _annotation_text(text[len("const "):])[1:]
        if text.endswith("*"):
            return "*" + _annotation_text(text[:-1])
        if text.startswith("*"):
            return "*" + _annotation_text(text[1:])
        if text.startswith("tl."):
            return _annotation_text(text[3:])
    elif isinstance(annotation, tl.pointer_type):
        return "*" + _annotation_text(annotation.element_ty)
    elif isinstance(annotation, tl.dtype):
        text = annotation.name
    elif isinstance(annotation, type):
        text = annotation.__name__
    else:
        text = str(annotation)
    return _TYPE_NAMES.get(text.replace("_t", ""), text)


class KernelParam:
    """One parameter of a @jit function, as Triton's KernelParam: num, name,
    annotation (Triton's spelling), annotation_type, is_constexpr, is_const,
    default, has_default, do_not_specialize, do_not_specialize_on_alignment."""

    def __init__(self, num, param, do_not_specialize, do_not_specialize_on_alignment=False):
        self.num, self._param = num, param
        self.do_not_specialize = do_not_specialize
        self.do_not_specialize_on_alignment = do_not_specialize_on_alignment

    @property
    def name(self):
        return self._param.name

    @property
    def annotation(self):
        return _annotation_text(self._param.annotation)

    @property
    def annotation_type(self):
        """The annotation when it names a type ("fp32", "*fp16"), else ""."""
        a = self.annotation
        bare = a[2:] if a.startswith("*k") else a[1:] if a.startswith("*") else a
        return a if bare in set(_TYPE_NAMES.values()) else ""

    @property
    def is_constexpr(self):
        return _is_constexpr_annotation(self._param.annotation) or "constexpr" in self.annotation

    @property
    def is_const(self):
        return not self.is_constexpr and ("const" in self.annotation or self.annotation.startswith("*k"))

    @property
    def default(self):
        return self._param.default

    @property
    def has_default(self):
        return self._param.default is not inspect.Parameter.empty

    def __repr__(self):
        return "KernelParam(%d, %s%s)" % (self.num, self.name, ": " + self.annotation if self.annotation else "")

# Called for every launch through run() while set (add_launch_hook composes the
# profiler's and tessera.compat's Triton launch hooks into it):
# hook(jit_function, grid, args, kwargs, options, run) launches by calling
# run(*args, grid=grid, **options, **kwargs) and returns what it returns.
launch_hook = None
_launch_hooks = []


def _through_python(fn, grid, args, kwargs, options, run):
    """A launch hook that only launches: while it is set, the fast lane
    hands every launch to run(), which sees interpreter.active()."""
    return run(*args, grid=grid, **options, **kwargs)


def _interpreter_switched(on):
    (add_launch_hook if on else remove_launch_hook)(_through_python)


interpreter.on_switch[0] = _interpreter_switched


def add_launch_hook(hook):
    """Adds a launch hook (see launch_hook); hooks added first are outermost."""
    if hook not in _launch_hooks:
        _launch_hooks.append(hook)
    _compose_launch_hooks()


def remove_launch_hook(hook):
    if hook in _launch_hooks:
        _launch_hooks.remove(hook)
    _compose_launch_hooks()


def _compose_launch_hooks():
    global launch_hook
    hooks = tuple(_launch_hooks)
    if len(hooks) <= 1:
        launch_hook = hooks[0] if hooks else None
        return

    def composed(fn, grid, args, kwargs, options, run):
        def through(i):
            if i == len(hooks):
                return run

            def next_run(*args, grid, **rest):
                opts = {k: rest.pop(k) for k in options if k in rest}
                return hooks[i](fn, grid, args, rest, opts, through(i + 1))
            return next_run
        return through(0)(*args, grid=grid, **options, **kwargs)
    launch_hook = composed


# Told of each compile a launch or warmup asks for (tessera.compat's Triton
# jit_cache_hook and jit_post_compile_hook), while set: an object with
# before(fn, key, bound, signature, constexprs, options, warmup) -> True to
# skip the compile, and after(...) with the same arguments once compiled.
compile_observer = None

class CompilationSkipped(RuntimeError):
    """A compile observer (Triton's jit_cache_hook) declined a compile;
    warmup answers None for it, as Triton's does."""


# The frontend's words for Python that kernels cannot hold (Triton's
# UnsupportedLanguageConstruct), as opposed to type and name errors.
_UNSUPPORTED = re.compile(r"\bnot supported\b|^unsupported (statement|expression)")


# Whether a mul feeding an add may become an fma when a launch does not say
# (Triton's knobs.language.default_fp_fusion): TESSERA_DEFAULT_FP_FUSION=0 says no.
_DEFAULT_FP_FUSION = os.environ.get("TESSERA_DEFAULT_FP_FUSION", "1") not in ("0", "false", "False")


def _torch_device_index(device):
    """A launch's device ("cuda:1", "cpu", None: no pointers, the host) as
    torch and Triton number it: 1, "cpu"."""
    return "cpu" if device is None or ":" not in device else int(device.rsplit(":", 1)[1])


def _listed_devices(asked):
    """The launch devices (_torch_device_index's) whose kernels
    device_caches[asked] lists: `asked`, and where the active driver is the
    host (no GPU), "cpu" under its current device index (0) too, as
    `device_caches[driver.active.get_current_device()]` reads it."""
    if not isinstance(asked, int):
        return {asked}
    from .runtime import driver
    active = driver.active
    host = active.get_current_target().backend == "cpu" and asked == active.get_current_device()
    return {asked, "cpu"} if host else {asked}


class _DeviceCaches(dict):
    """JITFunction.device_caches: an entry per device, made when first read."""

    def __init__(self, jit_function):
        super().__init__()
        self._jf = jit_function

    def __missing__(self, device):
        jf = self._jf
        listed = _listed_devices(device)
        target = next((k[4] for k in jf.cache if _torch_device_index(k[5]) in listed), None)
        entry = self[device] = (_DeviceKernels(jf, device), {}, target, None, lambda *a, **kw: jf.bind(a, kw))
        return entry


class _DeviceKernels(collections.abc.MutableMapping):
    """One device's compiled kernels of a JITFunction by Triton's text key
    (JITFunction.device_caches): a view of its `cache`."""

    def __init__(self, jit_function, device):
        self._jf, self._device = jit_function, device

    def _keys(self):
        jf, listed = self._jf, _listed_devices(self._device)
        return {jf._triton_key(k): k for k in list(jf.cache) if _torch_device_index(k[5]) in listed}

    def __getitem__(self, text):
        return self._jf.cache[self._keys()[text]]

    def __setitem__(self, text, kernel):
        raise TypeError("kernels are added by launching the kernel or by its warmup() or preload()")

    def __delitem__(self, text):
        del self._jf.cache[self._keys()[text]]
        if self._jf._fast:
            self._jf._fast.clear()  # the launch fast lane keeps kernels of its own

    def __iter__(self):
        return iter(self._keys())

    def __len__(self):
        return len(self._keys())


class _Codegen(collections.namedtuple("_Codegen", "fp_fusion max_registers flush_subnormals")):
    """Launch options that change the code but not the specialization:
    enable_fp_fusion (None: the default), maxnreg (None or 0: no cap) and
    enable_reflect_ftz (None: off, where Triton's default is on)."""
    __slots__ = ()

    @classmethod
    def of(cls, enable_fp_fusion=None, maxnreg=None, enable_reflect_ftz=None):
        if enable_fp_fusion is None and maxnreg is None and enable_reflect_ftz is None and _DEFAULT_FP_FUSION:
            return _PLAIN_CODEGEN  # every launch that names none of them
        fusion = _DEFAULT_FP_FUSION if enable_fp_fusion is None else bool(enable_fp_fusion)
        if maxnreg is not None and (type(maxnreg) is not int or maxnreg < 0):
            raise ValueError("maxnreg must be a non-negative int, not %r" % (maxnreg,))
        ftz = bool(enable_reflect_ftz)
        return _PLAIN_CODEGEN if fusion and not maxnreg and not ftz else cls(fusion, maxnreg or 0, ftz)

    def key(self):
        """The specialization key's suffix (none for the plain options)."""
        return () if self is _PLAIN_CODEGEN else (("codegen",) + tuple(self))


_PLAIN_CODEGEN = _Codegen(True, 0, False)


def _is_constexpr_annotation(annotation):
    if annotation is tl.constexpr or annotation == "constexpr":
        return True
    return isinstance(annotation, str) and annotation.split(".")[-1] == "constexpr"


def _tuple_items(path, value, shown=None):
    """(path, name as written, item) of each element of a tuple argument:
    ("values.1", "values[1]", ...); a namedtuple's elements are shown by
    field ("X.ptr")."""
    shown = shown or path
    fields = getattr(type(value), "_fields", None)
    if fields is not None:
        return [("%s.%d" % (path, i), "%s.%s" % (shown, f), item) for i, (f, item) in enumerate(zip(fields, value))]
    return [("%s.%d" % (path, i), "%s[%d]" % (shown, i), item) for i, item in enumerate(value)]


def _specialization(jit_function, name):
    """How a parameter's values are specialized: True (equal to 1, and
    multiples of 16 and 16-byte aligned pointers), ALIGNMENT_NOT_SPECIALIZED
    (equal to 1 only: do_not_specialize_on_alignment) or False
    (do_not_specialize)."""
    if name in jit_function.do_not_specialize:
        return False
    return ALIGNMENT_NOT_SPECIALIZED if name in jit_function.do_not_specialize_on_alignment else True


def _compile_time_leaf(item, spec):
    """Whether an element of a tuple argument is compiled in, as Triton
    does: None, tl.constexpr values, dtypes, @jit functions, and integers
    equal to 1 where the parameter is specialized."""
    return item is None or isinstance(item, (tl.constexpr, tl.dtype)) or (callable(item) and unwrap(item) is not None) \
        or (spec and type(item) is int and item == 1)


def _runtime_leaves(path, value, spec, shown=None):
    """[(name as written, item)] of a tuple argument's runtime leaves, in
    the order of their kernel parameters."""
    out = []
    for at, name, item in _tuple_items(path, value, shown):
        if isinstance(item, tuple):
            out += _runtime_leaves(at, item, spec, name)
        elif not _compile_time_leaf(item, spec):
            out.append((name, item))
    return out


def _tuple_argument(path, value, spec, values, constexprs, devices, readonly, shown=None):
    """The signature entry of a tuple argument, as Triton takes tuples:
    "(*fp32:16, (i32, constexpr))", a namedtuple with its class and fields:
    "Point(x=*fp32:16, y=constexpr)". Its runtime leaves' values go to
    `values`, in order; its compile-time leaves (_compile_time_leaf) go
    to `constexprs` under their paths ("values.1.0")."""
    parts = []
    for at, name, item in _tuple_items(path, value, shown):
        if isinstance(item, tuple):
            parts.append(_tuple_argument(at, item, spec, values, constexprs, devices, readonly, name))
        elif _compile_time_leaf(item, spec):
            jf = unwrap(item) if callable(item) else None
            constexprs.append((at, _JitConstexpr(jf) if jf is not None else constexpr_text_cached(item)))
            parts.append("constexpr")
        else:
            parts.append(_runtime_argument(name, item, spec, values, devices, readonly))
    fields = getattr(type(value), "_fields", None)
    if fields is not None:
        return "%s(%s)" % (type(value).__name__, ", ".join("%s=%s" % fp for fp in zip(fields, parts)))
    return "(%s)" % "".join(part + ", " for part in parts)


def _runtime_argument(name, value, spec, values, devices, readonly):
    """The signature entry of a runtime argument (a tensor descriptor, an
    array, a number); its launch values go to `values`, its device to
    `devices`, and its place to `readonly` when it is a read-only array."""
    if isinstance(value, TensorDescriptor):  # base pointer, shape, strides
        address, dtype, device = _descriptor_base(value, name)
        if _read_only(value.base):
            readonly.append((len(values), name))
        values.append(ctypes.c_void_p(address))
        values.extend(ctypes.c_int64(s) for s in value.shape + value.strides)
        devices.append((name, device))
        return "tensordesc<%s[%s]>%s%s" % (
            dtype, ",".join(map(str, value.block_shape)),
            ":16" if spec is True and _tensor_map_ready(value, address, dtype) else "",
            ":e16" if spec is True and all(extent % 16 == 0 for extent in value.shape) else "")
    ty, cvalue, device = specialize_arg(value, spec)
    if device is not None:
        if _read_only(value):
            readonly.append((len(values), name))
        devices.append((name, device))
    values.append(cvalue)
    return ty


def _read_only(value):
    """A host array that must not be written: numpy's writeable flag, or an
    array interface's read-only bit (torch tensors have neither); or the
    device copy of such an array (_stage_numpy)."""
    if getattr(value, "_copy_of_read_only", False):
        return True
    flags = getattr(value, "flags", None)
    if flags is not None and getattr(flags, "writeable", True) is False:
        return True
    iface = getattr(value, "__array_interface__", None)
    return bool(iface and iface.get("data") and len(iface["data"]) > 1 and iface["data"][1])


def _stage_numpy(backend, names, args, kwargs):
    """(args, kwargs, copies) with every numpy array among the arguments
    replaced by a copy on `backend`'s device, or None when there is none;
    `copies` pairs each array with its copy. A copy of a read-only array
    stays read-only to kernels. Arrays that are not C-contiguous are
    refused: a kernel's strides would not describe the copy."""
    import numpy as np
    copies = []

    def stage(name, value):
        if not isinstance(value, np.ndarray):
            return value
        if not value.flags.c_contiguous:
            raise _C.TesseraError(_C.ERROR_INVALID_ARGUMENT, "argument '%s' is a numpy array that is not C-contiguous; "
                                  "a %s kernel copies numpy arrays to the device whole: pass np.ascontiguousarray(...) "
                                  "or a tessera array on the device (tessera.from_numpy)" % (name, backend))
        copy = _array.from_numpy(value, device=backend)
        if not value.flags.writeable:
            copy._copy_of_read_only = True
        copies.append((value, copy))
        return copy

    args = tuple(stage(names[i] if i < len(names) else "#%d" % i, v) for i, v in enumerate(args))
    kwargs = {k: stage(k, v) for k, v in kwargs.items()}
    return (args, kwargs, copies) if copies else None


def resolve_target(explicit, devices):
    """(target, device) for a launch: `devices` lists (parameter, device)
    for the pointer arguments ("cpu", "cuda:N", "hip:N"...). Without an
    explicit target the arguments' device decides, through the target
    registry (no pointers: the host CPU)."""
    if len(devices) == 1 or all(d == devices[0][1] for _, d in devices):  # the common case: one device
        kinds = [devices[0][1]] if devices else []
        if explicit is None:
            device = kinds[0] if kinds else None
            return _targets.target_of_device(device), device
    kinds = sorted({d for _, d in devices})
    if len(kinds) > 1:
        raise _C.TesseraError(_C.ERROR_INVALID_ARGUMENT, "kernel arguments are on different devices: " +
                              ", ".join("%s on %s" % (n, d) for n, d in devices) +
                              ("; move them to one device" + (" (or pass target=...)" if explicit is None else "")))
    device = kinds[0] if kinds else None
    if explicit is None:
        return _targets.target_of_device(device), device
    want = _targets.backend_of(explicit)  # an unknown name raises, listing the known ones
    if device is not None and _C.parse_device(device)[0] != want:
        name = next(n for n, d in devices if d == device)
        where = "the host CPU" if want == _C.HOST else "%s devices" % want
        raise _C.TesseraError(_C.ERROR_INVALID_ARGUMENT, "argument '%s' is on %s, but the kernel is compiled for %s "
                              "(target=%r)" % (name, device, where, explicit))
    return explicit, device


def _current_stream(device):
    """PyTorch's current stream on a device it knows (None: the default
    stream), so kernels order with the surrounding torch work, as Triton's
    do."""
    getter = _current_stream_getter(device)
    return getter[0](getter[1]) if getter is not None else None


def _current_stream_getter(device):
    """(fn, index): fn(index) is torch's current native stream on `device`;
    None when torch has no stream there (or is not imported)."""
    torch = sys.modules.get("torch")
    if torch is None or not device:
        return None
    seen = _stream_getters.get(device)
    if seen is None or seen[0] is not torch:
        seen = _stream_getters[device] = (torch, _stream_getter(torch, device))
    return seen[1]


# device -> (torch module, its current-stream getter or None), found once:
# every launch asks.
_stream_getters = {}


def _stream_getter(torch, device):
    kind = _targets.torch_device_of(device)
    if kind is None:
        return None
    kind, index = kind
    # What Triton uses on CUDA (and ROCm): the raw handle, no Stream object.
    raw = getattr(torch._C, "_%s_getCurrentRawStream" % kind, None)
    if raw is not None:
        return raw, index
    return (lambda i: getattr(torch, kind).current_stream(i).cuda_stream), index


_warp_sizes = {}


def _warp_size(device):
    """A device handle's warp size (1 on the host), asked once."""
    key = device.value
    if key not in _warp_sizes:
        try:
            _warp_sizes[key] = max(1, _C.device_attribute(device, "warpSize"))
        except _C.TesseraError:
            _warp_sizes[key] = 32
    return _warp_sizes[key]


def _descriptor_base(desc, name):
    info = pointer_info(desc.base)
    if info is None:
        raise TypeError("the TensorDescriptor for '%s' has a %s as its base, not an array" % (name, type(desc.base).__name__))
    return info


def _tensor_map_ready(desc, address, dtype):
    """Whether a tensor map (NVIDIA's TMA) can describe the descriptor: a
    16-byte aligned base, leading strides positive multiples of 16 bytes
    below 2^40, extents from 1 to 2^31 (the ":16" of its signature)."""
    size = element_bytes(dtype)
    if address % 16:
        return False
    if any(not 1 <= extent <= 1 << 31 for extent in desc.shape):
        return False
    return all(stride > 0 and stride * size % 16 == 0 and stride * size < 1 << 40 for stride in desc.strides[:-1])


def _make_binder(signature):
    """A function with the kernel's parameters (and defaults) that returns
    their values in order: binding at the speed of a call, not of inspect."""
    params = list(signature.parameters.values())
    if any(p.kind not in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) for p in params):
        return None  # *args/**kwargs kernels: bound by inspect
    names = ["_p%d" % i for i in range(len(params))]
    decl = []
    for i, p in enumerate(params):
        if p.kind == p.KEYWORD_ONLY and "*" not in decl:
            decl.append("*")
        decl.append(names[i] + ("" if p.default is p.empty else "=_d[%d]" % i))
    # Parameter names are renamed positionally; keywords are mapped back by name.
    src = "def _bind(%s):\n    return (%s)\n" % (", ".join(decl), "".join(n + ", " for n in names))
    env = {"_d": [p.default for p in params]}
    exec(src, env)  # noqa: S102  (generated from the kernel's own signature)
    fast = env["_bind"]
    index = {p.name: names[i] for i, p in enumerate(params)}

    def binder(*args, **kwargs):
        if kwargs:
            kwargs = {index[k] if k in index else k: v for k, v in kwargs.items()}
        return fast(*args, **kwargs)
    return binder


class LaunchOptionError(AssertionError, ValueError):
    """A launch option out of range (Triton raises AssertionError for these)."""


def _check_num_warps(num_warps):
    if num_warps is not None and (num_warps < 1 or num_warps & (num_warps - 1)):
        raise LaunchOptionError("num_warps must be a power of 2, not %r" % (num_warps,))


class _JitConstexpr(str):
    """A @jit function passed as a tl.constexpr argument: its name for the
    compiler (the module text defines it), equal only to the same function
    in specialization keys."""

    def __new__(cls, fn):
        text = str.__new__(cls, fn.__name__)
        text.fn = fn
        return text

    def __eq__(self, other):
        return isinstance(other, _JitConstexpr) and other.fn is self.fn

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash((str(self), id(self.fn)))


def _detached_kernel(state):
    """A kernel unpickled without its function (JITFunction.__reduce__)."""
    kernel = JITFunction.__new__(JITFunction)
    kernel._init_process_state()
    kernel.__dict__.update(fn=None, __globals__=None, _target=None, _defined_from=None)
    kernel.__dict__.update(state)
    return kernel


def _kernel_by_name(module, qualname):
    """The @jit kernel `qualname` of `module` (importing it): how a pickled
    kernel is loaded. A wrapper there (autotune, heuristics) is followed
    through its .fn to the kernel."""
    import importlib
    obj = importlib.import_module(module)
    for part in qualname.split("."):
        obj = getattr(obj, part)
    for _ in range(8):
        if isinstance(obj, JITFunction):
            return obj
        obj = getattr(obj, "fn", None)
    raise pickle.UnpicklingError("%s.%s is not a tessera.jit kernel" % (module, qualname))


def unwrap(value):
    """The JITFunction behind a global: itself, or inside autotune/heuristics."""
    while value is not None and not isinstance(value, JITFunction):
        value = getattr(value, "fn", None) if hasattr(value, "__tessera_wrapper__") else None
    return value


def _subscript_in_c():
    """kernel[grid] in C once the fast lane is loaded: JITFunction.__getitem__'s
    test and result without a Python frame per launch (the class's own
    method says what it does; the C side reads launch_hook from this
    module's globals)."""
    extension = _launch.extension()
    if JITFunction.__dict__.get("__getitem__") is JITFunction._python_getitem and hasattr(extension, "Subscript"):
        JITFunction.__getitem__ = extension.Subscript(KernelInterface.__getitem__, globals(), functools.partial)


class FutureKernel:
    """A kernel compiling in an AsyncCompileMode's executor (Triton's):
    result() waits for it, puts it in its JITFunction's cache and returns it
    (None on failure with ignore_errors)."""

    def __init__(self, finalize_compile, future):
        self.finalize_compile, self.future, self.kernel = finalize_compile, future, None

    def result(self, ignore_errors=False):
        if self.kernel is not None:
            return self.kernel
        try:
            kernel = self.future.result()
        except Exception:
            if ignore_errors:
                return None
            raise
        self.finalize_compile(kernel)
        self.kernel = kernel
        return kernel


_async_mode = contextvars.ContextVar("tessera_async_compile_mode", default=None)


class AsyncCompileMode:
    """Within `with AsyncCompileMode(executor):`, warmup() hands each compile
    to `executor` and returns a FutureKernel at once (Triton's): warming many
    kernels compiles them side by side. Leaving the block waits for every
    compile; a failed one raises there unless ignore_errors. A launch inside
    the block compiles as usual."""

    def __init__(self, executor, *, ignore_errors=False):
        self.executor, self.ignore_errors = executor, ignore_errors
        self.raw_futures, self.future_kernels = [], {}
        self._token = None

    def submit(self, key, compile_fn, finalize_fn):
        future_kernel = self.future_kernels.get(key)
        if future_kernel is None:
            future = self.executor.submit(compile_fn)
            self.raw_futures.append((key, future))
            future_kernel = self.future_kernels[key] = FutureKernel(finalize_fn, future)
        return future_kernel

    def __enter__(self):
        if _async_mode.get() is not None:
            raise RuntimeError("Another AsyncCompileMode is already active")
        self._token = _async_mode.set(self)
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        try:
            import concurrent.futures
            order = {id(f): k for k, f in self.raw_futures}
            for future in concurrent.futures.as_completed([f for _, f in self.raw_futures]):
                self.future_kernels[order[id(future)]].result(self.ignore_errors)
        finally:
            _async_mode.reset(self._token)


class MockTensor:
    """A stand-in for a tensor in warmup (Triton's): a dtype and a shape at
    address 0, so pointers specialize as 16-byte aligned, on the active
    device. `kernel.warmup(torch.float16, ...)` wraps dtypes in one."""

    @staticmethod
    def wrap_dtype(arg):
        if type(arg).__name__ == "dtype" and type(arg).__module__ == "torch":
            return MockTensor(arg)
        return arg

    def __init__(self, dtype, shape=None):
        self.dtype = dtype
        self.shape = list(shape) if shape is not None else [1]

    def stride(self):
        strides = [1]
        for size in self.shape[1:]:
            strides.append(strides[-1] * size)
        return tuple(reversed(strides))

    @staticmethod
    def data_ptr():
        return 0

    @staticmethod
    def ptr_range():
        return 0

    @property
    def device(self):
        from .runtime import driver
        return driver.active.get_active_torch_device()


class KernelInterface:
    """What every launchable kernel has (Triton's KernelInterface, which
    libraries subclass): `kernel[grid](*args)` is
    `kernel.run(*args, grid=grid, warmup=False)`, and `warmup(*args, grid=)`
    is `run(..., warmup=True)`."""

    def run(self, *args, grid, warmup, **kwargs):
        raise NotImplementedError("run not implemented")

    def warmup(self, *args, grid, **kwargs):
        return self.run(*map(MockTensor.wrap_dtype, args), grid=grid, warmup=True, **kwargs)

    def __getitem__(self, grid):
        return functools.partial(self.run, grid=grid, warmup=False)


# Every kernel made in this process: a function's replaced source
# (_unsafe_update_src) makes the kernels that call it recompile.
_kernels = weakref.WeakSet()


class JITFunction(KernelInterface):
    """A kernel: what ``@tessera.jit`` makes of a Python function. Launch it
    with ``kernel[grid](*args, **options)``; calling it as a function raises
    RuntimeError, except from a kernel the interpreter runs, where it is a
    call of the @jit function.

    Its attributes, as Triton's JITFunction has them: `fn` (the Python
    function), `arg_names` (the parameters in order), `signature`
    (inspect.Signature), `constexpr_names` (the parameters annotated
    tl.constexpr), `do_not_specialize` (parameter names), `debug` (the
    checked mode: True, False, or None to let TESSERA_DEBUG decide),
    `pre_run_hooks`, `launch_metadata`, `version` and `noinline` (as jit()
    was given them), and `cache`: specialization key -> compiled kernel, one
    entry per specialization compiled in this process."""
    __tessera_wrapper__ = True

    def __init__(self, fn, target=None, do_not_specialize=(), debug=None):
        self.fn = fn
        self._defined_from = fn  # fn, kept for its source where fn is cleared (see __reduce__)
        self._target = target  # None: the arguments' device decides, per launch
        self.__name__ = fn.__name__
        self.__qualname__ = fn.__qualname__
        self.__doc__ = fn.__doc__
        self.__module__ = self.module = fn.__module__
        self.__globals__ = fn.__globals__
        _source.capture(fn)  # the text compiled is the one this function was made from (a reload makes a new one)
        self._fn_name = "%s.%s" % (fn.__module__, fn.__qualname__)
        self.signature = inspect.signature(fn)
        self.arg_names = list(self.signature.parameters)
        self.constexpr_names = {n for n, p in self.signature.parameters.items()
                                if _is_constexpr_annotation(p.annotation)}
        self.constexprs = [i for i, n in enumerate(self.arg_names) if n in self.constexpr_names]
        self.do_not_specialize = {self.arg_names[d] if isinstance(d, int) else d for d in do_not_specialize}
        self.do_not_specialize_on_alignment = set()
        self.version = None
        self.noinline = None
        self.debug = debug       # checked mode (tessera/_checked.py); None: TESSERA_DEBUG decides
        self._init_process_state()
        _kernels.add(self)

    def _init_process_state(self):
        """What a kernel holds of this process: compiled kernels, launch state, options set after jit()."""
        self.kernel = None       # Triton's attribute; kernels live in `cache`, per specialization
        self.pre_run_hooks = []  # add_pre_run_hook's: each called with a launch's arguments before it
        self._cache_key = None   # (module text, cache_key of it)
        self.cache = {}          # specialization key -> _C.Kernel
        self._binder = None      # a generated function: (*args, **kwargs) -> values in parameter order
        self._params = None      # (name, is constexpr, specialized) per parameter
        self._module = None      # ModuleText, built on first compile
        self._reports = None     # the checked mode's report buffers
        self._fast = None        # the launch fast lane (_launch.py), made on the first launch
        self._staging = None     # the backend numpy arrays are copied to (_stage_numpy), or False; at first use
        self._replaced_src = None  # a source text compiled instead of fn's (_unsafe_update_src)
        self._repr = None          # names compiled kernels from their Specialization (jit(repr=))
        self.launch_metadata = None  # (grid, kernel, args) -> the profiler's name and metrics (jit(launch_metadata=))

    def __call__(self, *args, **kwargs):
        if _stubs.INTERPRETER[0] is not None:  # a call from a kernel the interpreter runs
            return interpreter.call_jit(self, args, kwargs)
        raise RuntimeError("%s is a kernel: launch it as %s[grid](...)" % (self.__name__, self.__name__))

    @property
    def target(self):
        """The target @jit(target=...) named, or None: each launch compiles
        for its arguments' device. Setting it makes later launches compile
        for the new target."""
        return self._target

    @target.setter
    def target(self, value):
        # The fast lane's keys leave the target out (it follows from the
        # device): a new target starts it afresh.
        self._target = value
        self._staging = None
        if self._fast:
            self._fast.clear()

    def __getitem__(self, grid):
        """``kernel[grid]``: the launch on `grid`, to call with the kernel's
        arguments; ``kernel[grid](*args, **options)`` is
        ``kernel.run(*args, grid=grid, warmup=False, **options)``. `grid` is
        an int, a tuple of 1 to 3 ints (y and z at most 65535), or a function
        of the arguments (a dict of every parameter by name, defaults
        applied) returning one."""
        # _launch.py replaces this with the same test and result in C
        # (_tessera_launch.Subscript) once the extension is loaded.
        fast = self._fast
        if fast and not self.debug and launch_hook is None:  # launches in C, else through run()
            return fast.at(grid, self)
        return super().__getitem__(grid)

    _python_getitem = __getitem__

    def __repr__(self):
        return "JITFunction(%s)" % self.__name__

    # Pickling and copying: a kernel is a function, so it pickles by
    # reference (its module and qualified name), as functions do; its
    # compiled kernels, loaded binaries and launch state never travel. The
    # unpickled kernel is the module's own (in a fresh process, the one its
    # import makes), so it compiles and launches as usual. (Triton 3.6's
    # JITFunction does not pickle at all: pickle finds its function's name
    # bound to the JITFunction and refuses it.)
    #
    # A kernel whose `fn` was set to None pickles by value instead, without
    # its function: Inductor's compile workers send a compiled kernel's
    # autotuner back so (prepare_for_pickle clears fn, __globals__ and
    # used_global_vals, as Triton's JITFunction pickles only without them).
    # What comes back names the kernel and its parameters and holds its
    # source; it compiles nothing (Inductor reloads the kernel from source).
    def __reduce__(self):
        if self.fn is None:
            return _detached_kernel, (self._detached_state(),)
        module, qualname = self.__module__, self.__qualname__
        if "<locals>" in qualname.split("."):
            raise pickle.PicklingError(
                "cannot pickle kernel %s: it is defined inside a function (%s.%s); only kernels defined at a "
                "module's top level pickle, by reference, as functions do" % (self.__name__, module, qualname))
        try:
            found = _kernel_by_name(module, qualname)
        except Exception as e:  # noqa: BLE001  (what the import or the lookup raised)
            found = e
        if found is not self:
            raise pickle.PicklingError(
                "cannot pickle kernel %s: it is pickled by reference, and %s.%s is not this kernel (%s); a "
                "reloaded module's old kernels, or kernels rebound to another name, do not pickle"
                % (self.__name__, module, qualname,
                   "lookup failed: %s" % found if isinstance(found, Exception) else "it is %r" % (found,)))
        return _kernel_by_name, (module, qualname)

    def __deepcopy__(self, memo):
        return self  # as copy.deepcopy(function): the same object

    def __copy__(self):
        new = object.__new__(type(self))  # copy.copy: a shallow copy, as before (and as Triton's)
        new.__dict__.update(self.__dict__)
        return new

    def _forget_if_stale(self):
        """Drops the module text and compiled kernels when a global or closure
        variable they were built from has changed (Triton raises then;
        recompiling is what the user meant)."""
        if self._module is not None and self._module.stale():
            self._module = None
            self.cache.clear()
            if self._fast:
                self._fast.clear()

    _DETACHED_FIELDS = ("__name__", "__qualname__", "__doc__", "__module__", "module", "_fn_name", "signature",
                        "arg_names", "constexpr_names", "constexprs", "do_not_specialize",
                        "do_not_specialize_on_alignment", "version", "noinline", "debug", "_target")

    def _detached_state(self):
        state = {name: self.__dict__[name] for name in self._DETACHED_FIELDS if name in self.__dict__}
        try:
            state["_replaced_src"] = self.src  # the replaced text, else the function's
        except (OSError, TypeError, AttributeError):  # no source lines to read (a kernel made by exec...)
            state["_replaced_src"] = None
        for name in ("repr", "_hash_lock", "_used_global_vals"):  # what Inductor set on the kernel
            if name in self.__dict__:
                state[name] = self.__dict__[name]
        return state

    def module_text(self):
        if self.fn is None:
            raise RuntimeError("kernel %s has no Python function (fn is None: a kernel unpickled from an Inductor "
                               "worker, or one whose fn was cleared); it cannot compile: reload it from its source"
                               % self.__name__)
        if self._module is None:
            self._module = _source.build(self, unwrap, exclude_globals=set(self.arg_names))
            self._modules_with = {}
        return self._module

    def _module_with(self, module, jits):
        """The module text with @jit functions passed as tl.constexpr arguments
        (and what they call) added, each under its own name."""
        def build():
            return _source.build(self, unwrap, exclude_globals=set(self.arg_names), extra_roots=jits)
        if module is not self._module:  # a caller's module: not kept
            return build()
        key = tuple(id(j) for j in jits)
        if key not in self._modules_with:
            self._modules_with[key] = build()
        return self._modules_with[key]

    def bind(self, args, kwargs):
        """All parameters by name (defaults applied), as Triton's meta dict."""
        if self._binder is None:
            self._binder = _make_binder(self.signature) or False
        if self._binder:
            try:
                return dict(zip(self.arg_names, self._binder(*args, **kwargs)))
            except TypeError:
                pass
        # Let inspect word the error (missing or unexpected arguments), naming the kernel.
        try:
            bound = self.signature.bind(*args, **kwargs)
        except TypeError as e:
            raise TypeError("%s(): %s" % (self.__name__, e)) from None
        bound.apply_defaults()
        return dict(bound.arguments)

    def specialization(self, bound, num_warps, num_stages):
        """(key, signature, constexprs, launch values, target, device, read-only
        arguments) for bound arguments; device is "cpu", "cuda:N"... or None
        (no pointers); read-only arguments are (runtime parameter, name)."""
        signature, values, constexprs, devices, readonly = self._signature(bound)
        target, device = resolve_target(self.target, devices)
        signature = self._for_target(signature, bound, target)
        key = (tuple(signature), tuple(constexprs), num_warps, num_stages, target, device)
        return key, signature, constexprs, values, target, device, readonly

    def _for_target(self, signature, bound, target):
        """`signature` with the facts only `target` specializes on: ":r32"
        on pointers into small allocations, where it addresses them with
        32-bit offsets."""
        if not _targets.specializes_pointer_range(target):
            return signature
        runtime = [bound[name] for name, is_constexpr, _ in self._params if not is_constexpr and bound[name] is not None]
        return mark_pointer_ranges(signature, runtime)

    def _signature(self, bound):
        """(signature, launch values, constexprs, (parameter, device) of each
        pointer) for bound arguments."""
        signature, values, constexprs, devices = [], [], [], []
        readonly = []  # (runtime parameter, name) of read-only arrays
        if self._params is None:
            self._params = [(n, n in self.constexpr_names, _specialization(self, n)) for n in self.arg_names]
        for name, is_constexpr, spec in self._params:
            value = bound[name]
            if is_constexpr or value is None:
                jf = unwrap(value) if callable(value) else None
                constexprs.append((name, _JitConstexpr(jf) if jf is not None else constexpr_text_cached(value)))
                continue
            if type(value) is int and -0x80000000 <= value <= 0x7FFFFFFF:  # the common case, inline
                signature.append("i32:1" if spec and value == 1 else "i32:16" if spec is True and value % 16 == 0 else "i32")
                values.append(ctypes.c_int32(value))
                continue
            try:
                fast = _fast_pointer(type(value))
                if fast is not None:  # numpy arrays and torch tensors
                    address, dtype, device = fast(value)
                    signature.append("*" + dtype + ":16" if spec is True and address % 16 == 0 else "*" + dtype)
                    if _read_only(value):
                        readonly.append((len(values), name))
                    values.append(ctypes.c_void_p(address))
                    devices.append((name, device))
                    continue
                if isinstance(value, tuple):
                    signature.append(_tuple_argument(name, value, spec, values, constexprs, devices, readonly))
                    continue
                signature.append(_runtime_argument(name, value, spec, values, devices, readonly))
            except (TypeError, OverflowError) as e:
                raise type(e)("kernel '%s', argument '%s': %s" % (self.__name__, name, e)) from None
        return signature, values, constexprs, devices, readonly

    def _compile_module(self, compile_fn, signature, constexprs, num_warps, num_stages, module=None, **options):
        """compile_fn (_C.compile or _C.compile_binary) on the module text
        (this one's now, or `module`), with the module's globals as
        constexprs and errors located in the user's files."""
        module = module or self.module_text()
        jits = tuple(t.fn for _, t in constexprs if isinstance(t, _JitConstexpr))
        if jits:
            module = self._module_with(module, jits)
        globals_ = [(n, constexpr_text(v)) for n, v in sorted(module.constexprs.items())]
        try:
            return compile_fn(module.text, self.__name__, signature, constexprs + globals_,
                              filename=_source.MODULE_NAME, num_warps=num_warps or 0, num_stages=num_stages or 0,
                              **options)
        except _C.CompilationError as e:
            message = module.map_message(str(e), module.chunks[0].filename)
            # As Triton's: the error's own words, without location and source
            # line, as the cause (code that matches on it keeps working).
            first = re.search(r"error: (.*)", message)
            cls = type(e)
            if cls is _C.CompilationError and first and first.group(1).startswith("static_assert failed"):
                cls = _C.CompileTimeAssertionFailure
            elif cls is _C.CompilationError and first and _UNSUPPORTED.search(first.group(1)):
                cls = _C.UnsupportedLanguageConstruct
            error = cls(e.status, message)
            error.error_message = first.group(1) if first else message
            # Triton's static_assert failure has no cause; its other errors have the bare message as theirs.
            raise error from (None if cls is _C.CompileTimeAssertionFailure else ValueError(error.error_message))

    def compile(self, signature, constexprs, num_warps, num_stages, target="cpu", device=None, checked=False,
                codegen=_PLAIN_CODEGEN):
        handle = None
        if device and _C.parse_device(device)[0] != _C.HOST:
            # The arguments' GPU; when it is not usable the C API reports why
            # (after saying there is no code generator, if there is none).
            try:
                handle = _C.get_device(device)
            except _C.TesseraError:
                handle = None
        kernel = self._compile_module(_C.compile, signature, constexprs, num_warps, num_stages, target=target,
                                      device=handle, checked=checked, **codegen._asdict())
        if not isinstance(kernel, _C.Kernel):
            return kernel  # a stand-in (tests)
        threads = kernel.attribute("threads")
        warp = _warp_size(kernel.device)
        kernel.metadata = KernelMetadata(self.__name__, target, num_warps or max(1, threads // warp), num_stages,
                                         kernel.attribute("shared_bytes"), threads, bool(checked))
        kernel.name = self._kernel_name(signature, constexprs)
        # Triton's CompiledKernel.hash: what it was compiled from (a preload of the same specialization has it too).
        kernel.hash = hashlib.sha256(repr((self.cache_key, tuple(signature), tuple(constexprs), num_warps, num_stages,
                                           target, bool(checked), tuple(codegen))).encode()).hexdigest()
        # The text it was built from, should the function's change later.
        arch, module = _C.device_architecture(kernel.device) or None, self.module_text()
        kernel._assemble = lambda: asm_of(self._compile_module(_C.compile_binary, signature, constexprs, num_warps,
                                                               num_stages, module, target=target, arch=arch,
                                                               checked=checked, **codegen._asdict()))
        kernel._launch_as_compiled = functools.partial(self._launch_compiled,
                                                       options=(num_warps, num_stages, checked, codegen))
        return kernel

    def _launch_compiled(self, kernel, grid, args, kwargs, options):
        """`compiled[grid](*args)` for a kernel that warmup() returned:
        every parameter, constexprs included, as Triton's CompiledKernel
        takes them; arguments that would compile a different kernel are an
        error rather than a launch of this one with the wrong values."""
        num_warps, num_stages, checked, codegen = options
        args = self._with_compiled_constexprs(kernel, args, kwargs)
        found, bound, signature, values, device, checked = self._kernel_for(args, dict(kwargs), num_warps, num_stages,
                                                                             checked, codegen)
        if found is not kernel:
            raise TypeError("these arguments specialize '%s' differently from the arguments it was compiled for; "
                            "launch the @jit function to compile for them" % self.__name__)
        if interpreter.active(self._target):  # TRITON_INTERPRET: the compiled kernel's launch runs interpreted too
            interpreter.launch(self, grid, args, kwargs)
            return kernel
        stream = _current_stream(device)
        if checked:
            return self._run_checked(kernel, grid, bound, signature, values, device, stream)
        self._launch(kernel, grid, bound, values, stream)
        return kernel

    def _with_compiled_constexprs(self, kernel, args, kwargs):
        """The arguments of `compiled[grid](*args)` given without the
        constexprs (the runtime parameters only, as libraries written for
        other Triton releases pass them; Triton 3.6 takes every parameter):
        the constexprs are those the kernel was compiled with."""
        runtime = [n for n in self.arg_names if n not in self.constexpr_names]
        compiled = getattr(kernel, "_constexpr_arguments", None)
        if kwargs or compiled is None or len(args) == len(self.arg_names) or len(args) != len(runtime):
            return args
        given = dict(zip(runtime, args))
        return tuple(given[n] if n in given else compiled[n] for n in self.arg_names)

    def _kernel_name(self, signature, constexprs):
        if self._repr is None:
            return self.__name__
        runtime = [n for n in self.arg_names if n not in dict(constexprs)]
        types = dict(zip(runtime, (ty.split(":")[0] for ty in signature)))
        constants = {n: 1 for n, ty in zip(runtime, signature) if ty.endswith(":1")}
        for n, text in constexprs:
            try:
                constants[n] = ast.literal_eval(text)
            except (ValueError, SyntaxError):
                constants[n] = text  # a dtype: its name
        return self._repr(Specialization(types, constants))

    def compile_only(self, target, *args, num_warps=None, num_stages=None, arch=None, debug=None, enable_fp_fusion=None,
                     maxnreg=None, enable_reflect_ftz=None, **kwargs):
        """Compiles for `target` ("nvptx", "cpu"...; `arch` e.g. "sm_80") with the specialization
        these arguments would get, without a device or a launch: a _C.Binary
        (format, data, assembly). Pointer arguments may live anywhere."""
        _check_num_warps(num_warps)
        bound = self.bind(args, kwargs)
        signature, _, constexprs, _, _ = self._signature(bound)
        signature = self._for_target(signature, bound, target)
        self._forget_if_stale()
        return self._compile_module(_C.compile_binary, signature, constexprs, num_warps, num_stages, target=target,
                                    arch=arch, checked=_checked.enabled(debug, self.debug),
                                    **_Codegen.of(enable_fp_fusion, maxnreg, enable_reflect_ftz)._asdict())

    def run(self, *args, grid, warmup=False, num_warps=None, num_stages=None, debug=None, enable_fp_fusion=None,
            maxnreg=None, enable_reflect_ftz=None, **kwargs):
        """Launches the kernel on `grid` with these arguments (what
        ``kernel[grid](...)`` calls) and returns the compiled kernel it ran,
        or None when the interpreter ran it.

        The first launch of a specialization compiles the kernel, or finds
        it in the on-disk cache; later ones launch it directly. The
        specialization is the arguments' types, which pointers are 16-byte
        aligned and which integers are 1 or multiples of 16 (not for
        do_not_specialize parameters), the constexpr values, num_warps,
        num_stages, the target and the device. Without @jit(target=...), the
        pointer arguments' device picks the target (no pointers: the host
        CPU). The kernel runs on
        torch's current stream of that device when torch has one, else on
        the device's default stream; on the host the launch returns when the
        kernel has finished. With a target whose registry entry stages host
        arrays (Vulkan, OpenCL, Level Zero), numpy arrays are copied to the
        device and back.

        num_warps (a power of 2; None: the compiler's choice) and num_stages
        are Triton's options. debug=True runs this launch in the checked
        mode, where the first access outside an argument's buffer raises
        OutOfBoundsError and the first signed integer overflow
        IntegerOverflowError (None: the decorator's debug, else
        TESSERA_DEBUG). enable_fp_fusion, maxnreg
        and enable_reflect_ftz change the generated code as Triton's do;
        num_ctas, launch_cooperative_grid, launch_pdl and extern_libs are
        accepted and change nothing. warmup=True compiles without launching
        (warmup()). Each pre-run hook is called with the arguments first;
        any other keyword is a kernel argument.

        Raises TypeError for arguments the kernel does not take or cannot
        be passed, CompilationError (located in the kernel's file) when it
        does not compile, TesseraError when the arguments are on different
        devices, and DeviceAssertionError when a tl.device_assert fails."""
        if warmup:  # Triton's run(..., warmup=True): compile, launch nothing
            return self.warmup(*args, grid=grid, num_warps=num_warps, num_stages=num_stages, debug=debug,
                               enable_fp_fusion=enable_fp_fusion, maxnreg=maxnreg,
                               enable_reflect_ftz=enable_reflect_ftz, **kwargs)
        for pre_run in self.pre_run_hooks:
            pre_run(*args, **kwargs)
        hook = launch_hook
        if hook is not None:
            options = dict(num_warps=num_warps, num_stages=num_stages, debug=debug, enable_fp_fusion=enable_fp_fusion,
                           maxnreg=maxnreg, enable_reflect_ftz=enable_reflect_ftz)
            return hook(self, grid, args, kwargs, options, self._run)
        return self._run(*args, grid=grid, num_warps=num_warps, num_stages=num_stages, debug=debug,
                         enable_fp_fusion=enable_fp_fusion, maxnreg=maxnreg, enable_reflect_ftz=enable_reflect_ftz,
                         **kwargs)

    def _run(self, *args, grid, num_warps=None, num_stages=None, debug=None, enable_fp_fusion=None, maxnreg=None,
             enable_reflect_ftz=None, **kwargs):
        if interpreter.active(self._target):
            return interpreter.launch(self, grid, args, kwargs)
        fast = self._fast
        codegen = _Codegen.of(enable_fp_fusion, maxnreg, enable_reflect_ftz)
        staged = self._stage(args, kwargs)
        if staged is not None:
            return self._run_staged(*staged, grid, num_warps, num_stages, debug, codegen)
        if codegen is not _PLAIN_CODEGEN:
            fast = False  # the lane keys no compile options beyond warps and stages
        if fast and debug is None and not self.debug:
            kernel = fast.launch(args, kwargs, grid, num_warps, num_stages)
            if kernel is not None:
                return kernel
        kernel, bound, signature, values, device, checked = self._kernel_for(args, kwargs, num_warps, num_stages,
                                                                              debug, codegen)
        stream = _current_stream(device)
        if checked:
            return self._run_checked(kernel, grid, bound, signature, values, device, stream)
        self._launch(kernel, grid, bound, values, stream)
        if fast is not False and debug is None and not self.debug:
            self._remember(args, kwargs, num_warps, num_stages, kernel, bound, device, stream)
        return kernel

    def _stage(self, args, kwargs):
        """_stage_numpy's (args, kwargs, copies) for this kernel's target, or
        None: a target whose device is not the host's memory, and numpy
        arrays among the arguments."""
        if self._staging is None:
            # The registry's stages_host_arrays: kernels that also take numpy
            # arrays, copied to the device before the launch and back after.
            flavour = _C.find_target(self.target)[1] if self.target is not None else None
            self._staging = flavour.backend if flavour is not None and flavour.stages_host_arrays else False
        return _stage_numpy(self._staging, self.arg_names, args, kwargs) if self._staging else None

    def _run_staged(self, args, kwargs, copies, grid, num_warps, num_stages, debug, codegen):
        """A launch whose numpy arrays were copied to the device: by the
        Python path (the fast lane would remember copies made for this one
        launch), then every writable array gets its copy back."""
        kernel, bound, signature, values, device, checked = self._kernel_for(args, kwargs, num_warps, num_stages,
                                                                              debug, codegen)
        stream = _current_stream(device)
        if checked:
            self._run_checked(kernel, grid, bound, signature, values, device, stream)
        else:
            self._launch(kernel, grid, bound, values, stream)
        for array, copy in copies:
            if array.flags.writeable:
                array[...] = copy.numpy()
        return kernel

    def _remember(self, args, kwargs, num_warps, num_stages, kernel, bound, device, native_stream):
        """Lets the fast lane make launches like this one from now on."""
        if not isinstance(kernel, _C.Kernel):
            return  # a stand-in (tests): only the Python path launches it
        if _targets.specializes_pointer_range(kernel.metadata.target):
            return  # the lane's keys know nothing of allocation sizes (":r32")
        fast = self._fast  # one read: other threads may launch (and make one) meanwhile
        if fast is None:
            fast = self._fast = _launch.new_launcher(self, self._fast_launch_failed) or False
            if fast:
                _subscript_in_c()
        if not fast:
            return
        handle = kernel._stream(native_stream).value if native_stream is not None else None
        _launch.note_arguments(bound, device, _current_stream_getter(device), native_stream, handle)
        fast.remember(args, kwargs, num_warps, num_stages, kernel, kernel.handle.value, self.module_text().watch())

    def _fast_launch_failed(self, kernel, status):
        try:
            _C._check(status)
        except _C.DeviceAssertionError as e:
            raise self._in_user_file(e) from None
        raise _C.TesseraError(status, "launch failed with status %d" % status)

    def _launch(self, kernel, grid, bound, values, stream):
        try:
            kernel.launch_ctypes(normalize_grid(grid, bound), values, stream)
        except _C.DeviceAssertionError as e:
            raise self._in_user_file(e) from None

    def _in_user_file(self, e):
        """A device assertion's error placed in the user's file, not the module's."""
        module = self.module_text()
        return _C.DeviceAssertionError(e.status, module.map_message(str(e), module.chunks[0].filename))

    def warmup(self, *args, grid=None, num_warps=None, num_stages=None, debug=None, enable_fp_fusion=None,
               maxnreg=None, enable_reflect_ftz=None, **kwargs):
        """Compiles (or finds) the kernel a launch with these arguments would
        run, without launching it (Triton's JITFunction.warmup); `grid` is
        accepted and unused. A torch dtype in place of a tensor stands for a
        tensor of that dtype on the active device (MockTensor)."""
        args = tuple(map(MockTensor.wrap_dtype, args))
        codegen = _Codegen.of(enable_fp_fusion, maxnreg, enable_reflect_ftz)
        staged = self._stage(args, kwargs)  # specialized on the device copies a launch would make
        if staged is not None:
            args, kwargs = staged[0], staged[1]
        try:
            return self._kernel_for(args, kwargs, num_warps, num_stages, debug, codegen, may_defer=True)[0]
        except CompilationSkipped:
            return None

    def preload(self, specialization_data):
        """Compiles (from the compile cache, where it is there) the kernel that
        `specialization_data` describes, the JSON text a compile hook is given
        (Triton's preload: a process warms its kernels up from data another
        one saved), and keeps it as a launch would. RuntimeError when the
        data is another kernel's."""
        data = json.loads(specialization_data)
        name = "%s.%s" % (self.fn.__module__, self.fn.__qualname__)
        if data.get("name") != name:
            raise RuntimeError("Specialization data is for %s but trying to preload for %s" % (data.get("name"), name))
        key = ast.literal_eval(data["key"])
        signature, constexprs, num_warps, num_stages, target, device = key[:6]
        checked = "checked" in key[6:]
        codegen = _Codegen(*key[key.index("codegen") + 1:]) if "codegen" in key[6:] else _PLAIN_CODEGEN
        kernel = self.cache.get(key)
        if kernel is None:
            kernel = self.cache[key] = self.compile(list(signature), list(constexprs), num_warps, num_stages, target,
                                                    device, checked, codegen)
        return kernel

    def _kernel_for(self, args, kwargs, num_warps, num_stages, debug, codegen=_PLAIN_CODEGEN, may_defer=False):
        """(kernel, bound arguments, signature, launch values, device, checked)
        of a launch: specialized, compiled once per key, and the arguments
        checked against what the kernel writes. may_defer (warmup): inside
        an AsyncCompileMode, a kernel to compile is a FutureKernel instead."""
        for option in _IGNORED_OPTIONS:
            kwargs.pop(option, None)
        # A kernel may also take num_warps/num_stages as parameters (Triton's
        # softmax tutorial does): the value is then both option and argument.
        for name, option in (("num_warps", num_warps), ("num_stages", num_stages)):
            if option is not None and name in self.arg_names and self.arg_names.index(name) >= len(args):
                kwargs[name] = option
        bound = self.bind(args, kwargs)
        self._forget_if_stale()
        key, signature, constexprs, values, target, device, readonly = self.specialization(bound, num_warps, num_stages)
        checked = _checked.enabled(debug, self.debug)
        if checked:
            key += ("checked",)
        key += codegen.key()
        kernel = self.cache.get(key)
        if kernel is None:
            _check_num_warps(num_warps)
            mode = _async_mode.get() if may_defer else None
            if mode is not None:
                def finalize(compiled, key=key):
                    self.cache[key] = compiled
                future = mode.submit((id(self),) + key, lambda: self.compile(signature, constexprs, num_warps,
                                                                             num_stages, target, device, checked,
                                                                             codegen), finalize)
                return future, bound, signature, values, device, checked
            observer = compile_observer
            told = (self, key, bound, signature, constexprs, dict(num_warps=num_warps, num_stages=num_stages,
                                                                   device=device, target=target,
                                                                   enable_fp_fusion=codegen.fp_fusion), may_defer)
            if observer is not None and observer.before(*told):
                raise CompilationSkipped("a compile hook declined to compile '%s' for this launch" % self.__name__)
            kernel = self.compile(signature, constexprs, num_warps, num_stages, target, device, checked, codegen)
            kernel._constexpr_arguments = {n: bound[n] for n in self.constexpr_names if n in bound}
            self.cache[key] = kernel
            if observer is not None:
                observer.after(*told)
        if readonly and kernel.written:
            for index, name in readonly:
                if index in kernel.written:
                    raise TypeError("kernel '%s' stores through argument '%s', a read-only array"
                                    % (self.__name__, name))
        return kernel, bound, signature, values, device, checked

    @property
    def params(self):
        """One KernelParam per parameter, as Triton's JITFunction.params: its
        num, name, annotation, is_constexpr, is_const, default, has_default
        and do_not_specialize."""
        return [KernelParam(i, p, p.name in self.do_not_specialize or i in self.do_not_specialize,
                            p.name in self.do_not_specialize_on_alignment)
                for i, p in enumerate(self.signature.parameters.values())]

    @property
    def raw_src(self):
        """The function's source lines, decorators included (Triton's raw_src)."""
        return _source._source_lines(self.fn if self.fn is not None else self._defined_from)[0]

    @property
    def starting_line_number(self):
        """The first line of the function's source, its first decorator's
        (what inspect.getsourcelines gives, without reading the file)."""
        return self.fn.__code__.co_firstlineno

    @property
    def src(self):
        """The kernel's source from its `def` line, dedented, without its
        decorators (Triton's JITFunction.src; libraries regenerate kernels
        from it). Set it through _unsafe_update_src."""
        if self._replaced_src is not None:
            return self._replaced_src
        return _from_def(textwrap.dedent("".join(self.raw_src)))

    @src.setter
    def src(self, value):
        raise AttributeError("Cannot set attribute 'src' directly: use _unsafe_update_src() (as in Triton)")

    @property
    def cache_key(self):
        """A hash of what the kernel compiles from (Triton's cache_key): its
        source and every @jit function it calls, the compile-time globals
        they read, and its first line; it changes when any of them does."""
        self._forget_if_stale()
        try:
            module = self.module_text()
        except (_C.CompilationError, NameError, TypeError, ValueError, OSError):
            # What it calls is not defined yet (a library reading the key as
            # its module is imported): the function's own text.
            return self._hash(self.src)
        known = self._cache_key
        if known is None or known[0] is not module:  # one hash per module text (stale() makes a new one)
            text = module.text + repr(sorted((n, constexpr_text(v)) for n, v in module.constexprs.items()))
            known = self._cache_key = (module, self._hash(text))
        return known[1]

    @property
    def device_caches(self):
        """Triton's per-device view of the compiled kernels: {device: (kernels,
        key cache, target, backend, binder)}, a device being its index as
        torch numbers it ("cpu" for the host; without a GPU, the driver's
        current device, 0, lists the host's too). `kernels` maps Triton's text
        key, each parameter's (type, specialization) or ('constexpr', value)
        then the options, to the compiled kernel (torch.export reads the
        constexprs back from it); it is a view of `cache`, so deleting from
        it (or clearing it) drops those kernels. The key cache is empty and
        the backend None (Tessera has no per-device backend object); the
        binder gives the parameters by name, defaults applied, for a call's
        arguments. As Triton's (a defaultdict), a device not seen yet reads
        as an empty entry."""
        caches = _DeviceCaches(self)
        for key in self.cache:
            caches[_torch_device_index(key[5])]
        return caches

    def _triton_key(self, key):
        """Triton's text key for a `cache` key: each parameter's (type,
        specialization) or ('constexpr', value), then the options."""
        signature, constexprs, num_warps, num_stages = key[0], dict(key[1]), key[2], key[3]
        runtime = iter(signature)
        parts = []
        for name in self.arg_names:
            if name in constexprs:  # the value as Python source: ('constexpr', 64), as str() of Triton's tuple
                parts.append("('constexpr', %s)" % constexprs[name])
            else:
                ty, _, spec = next(runtime, "").partition(":")
                # Triton 3.6 keys an integer equal to 1 as ('constexpr', 1), a multiple of 16 (or an aligned pointer) 'D'
                parts.append("('constexpr', 1)" if spec == "1" else repr((ty, "D" if spec == "16" else "")))
        options = {k: v for k, v in (("num_warps", num_warps), ("num_stages", num_stages)) if v is not None}
        if "checked" in key[6:]:
            options["debug"] = True
        if "codegen" in key[6:]:  # ("codegen", fp_fusion, max_registers, flush_subnormals)
            codegen = key[key.index("codegen") + 1:]
            options.update(enable_fp_fusion=codegen[0], maxnreg=codegen[1] or None, enable_reflect_ftz=codegen[2])
        return "[%s]%s" % (", ".join(parts), options)

    def _hash(self, text):
        return hashlib.sha256(("%s\n%s" % (text, self.starting_line_number)).encode()).hexdigest()

    def get_capture_scope(self):
        """The names the kernel can see: its module's globals and its closure."""
        return self.__globals__ | inspect.getclosurevars(self.fn).nonlocals

    def is_gluon(self):
        return False

    def parse(self):
        """The source's syntax tree, a module holding the one function
        definition (Triton's)."""
        tree = ast.parse(self.src)
        if len(tree.body) != 1 or not isinstance(tree.body[0], (ast.FunctionDef, ast.AsyncFunctionDef)):
            raise ValueError("the source of %s is not one function definition" % self.__name__)
        return tree

    @property
    def type(self):
        """tl.constexpr_type of this function (Triton's: a @jit function is
        a compile-time value)."""
        return tl.constexpr_type(self)

    @property
    def hash(self):
        """The cache key once computed, else None (Triton's); setting it to
        None makes the next cache_key compute it again."""
        known = self._cache_key
        return known[1] if known is not None else None

    @hash.setter
    def hash(self, value):
        if value is not None:
            raise AttributeError("only None may be assigned to hash (it forgets the cache key)")
        self._cache_key = None

    @property
    def used_global_vals(self):
        """Triton's map of the globals the kernel and its callees read:
        {(name, id(globals dict)): (value, globals dict)}, empty until the
        kernel's module text is built (at its first compile or cache_key).
        Settable, as Triton's attribute is (Inductor clears it before
        pickling a kernel's autotuner and puts it back after): a value set
        is what reads give until a new value is set."""
        if "_used_global_vals" in self.__dict__:
            return self.__dict__["_used_global_vals"]
        return self._computed_used_global_vals()

    @used_global_vals.setter
    def used_global_vals(self, value):
        self.__dict__.pop("_used_global_vals", None)
        if value != self._computed_used_global_vals():
            self.__dict__["_used_global_vals"] = value

    def _computed_used_global_vals(self):
        module = self._module
        if module is None:
            return {}
        out = {}
        for where, name in module.places:
            if name is not None and name in where:
                out[(name, id(where))] = (where[name], where)
        return dict(sorted(out.items(), key=lambda item: item[0]))

    def repr(self, specialization):
        """A compiled kernel's name (Triton's repr): jit(repr=)'s, else the
        function's full name."""
        return self._fn_name if self._repr is None else self._repr(specialization)

    def add_pre_run_hook(self, hook):
        """Calls hook(*args, **kwargs) before every launch (Triton's); such
        launches take the Python path."""
        if not callable(hook):
            raise TypeError("a pre-run hook must be callable, not %r" % (hook,))
        self.pre_run_hooks.append(hook)
        if self._fast:
            self._fast.clear()
        self._fast = False  # the fast lane would launch without calling the hooks

    def _unsafe_update_src(self, new_src):
        """Compiles `new_src` instead of the function's own source from now
        on (Triton's name: the new text must define the same parameters, and
        the kernel's globals are still the function's)."""
        self._replaced_src = textwrap.dedent(new_src)
        self._module = None
        self.cache.clear()
        if self._fast:
            self._fast.clear()
        for kernel in list(_kernels):  # its callers' module texts hold the old text (ModuleText.stale)
            kernel._forget_if_stale()

    def _run_checked(self, kernel, grid, bound, signature, values, device, stream):
        """A launch in the checked mode: the buffers' sizes and the report
        go after the arguments; a failed check raises OutOfBoundsError."""
        # Per kernel argument (a descriptor is its base, extents and strides):
        # the name a report gives, and the bytes a pointer may reach.
        names, sizes = [], []
        leaves = []
        for name, is_constexpr, spec in self._params:
            value = bound[name]
            if not is_constexpr and value is not None:
                leaves += _runtime_leaves(name, value, spec) if isinstance(value, tuple) else [(name, value)]
        for name, value in leaves:
            if isinstance(value, TensorDescriptor):
                rank = len(value.shape)
                names += [name] + ["%s.shape[%d]" % (name, d) for d in range(rank)] + \
                    ["%s.strides[%d]" % (name, d) for d in range(rank)]
                sizes += [_checked.buffer_bytes(value.base)] + [None] * (2 * rank)
            else:
                names.append(name)
                scalar = python_scalar(value.value if isinstance(value, tl.constexpr) else value)
                sizes.append(None if isinstance(scalar, (bool, int, float)) else _checked.buffer_bytes(value))
        if self._reports is None:
            self._reports = _checked.Reports()
        report = self._reports.buffer(device)
        hidden = _checked.launch_values([s for s in sizes if s is not None], report)
        self._launch(kernel, grid, bound, values + hidden, stream)
        tessera_stream = _C.wrap_stream(kernel.device, stream) if stream is not None else None
        result = self._reports.read(device, tessera_stream)
        if result[0]:
            module = self.module_text()
            raise _checked.error(self.__name__, result, names, sizes, module, module.chunks[0].filename)
        return kernel


Specialization = collections.namedtuple("Specialization", "signature constants")


# ---- constexpr functions (Triton's @triton.constexpr_function)

_constexpr_functions = {}  # id in the module text -> ConstexprFunction


class ConstexprFunction:
    """A Python function a kernel calls at compile time on compile-time
    values (`@tessera.constexpr_function`, Triton's constexpr_function): the
    frontend hands it the arguments (numbers, strings, dtypes, tuples) and
    takes its result as a compile-time value. Called from Python (host code,
    another constexpr function, an interpreted kernel) it is the function."""

    def __init__(self, fn):
        self.fn = fn
        functools.update_wrapper(self, fn)
        # The source's hash is in the id, so the compile cache's key changes with the function.
        self.src, self.cache_key, self._tessera_constexpr_function_id = compile_time_identity(fn)
        _constexpr_functions[self._tessera_constexpr_function_id] = self

    def __get__(self, instance, owner):
        return BoundConstexprFunction(instance, self) if instance is not None else self

    def _unsafe_update_src(self, new_src):
        """Runs `new_src` (a def of the same name) in the function's globals
        and calls that from now on (Triton's): the kernels calling it get a
        new cache key and recompile."""
        namespace = {}
        exec(compile(textwrap.dedent(new_src), "<%s: updated source>" % self.fn.__qualname__, "exec"),
             self.fn.__globals__, namespace)
        fn = namespace.get(self.fn.__name__)
        if not callable(fn):
            raise ValueError("the new source of %s does not define %s" % (self.fn.__qualname__, self.fn.__name__))
        self.fn = fn
        self.src, self.cache_key, self._tessera_constexpr_function_id = compile_time_identity(fn, new_src)
        _constexpr_functions[self._tessera_constexpr_function_id] = self
        for kernel in list(_kernels):
            kernel._forget_if_stale()

    def __call__(self, *args, _semantic=None, **kwargs):
        return self.fn(*[unwrap_constexpr(a) for a in args], **{k: unwrap_constexpr(v) for k, v in kwargs.items()})

    def __repr__(self):
        return "ConstexprFunction(%s)" % self.fn.__qualname__


_specialize.constexpr_function_class[0] = ConstexprFunction


class BoundConstexprFunction:
    """A constexpr function looked up on an instance (a method)."""

    def __init__(self, instance, fn):
        self.__self__, self.__func__ = instance, fn

    @property
    def cache_key(self):
        return self.__func__.cache_key

    def __call__(self, *args, **kwargs):
        return self.__func__(self.__self__, *args, **kwargs)


def constexpr_function(fn):
    """Marks a Python function as callable from kernels at compile time
    (Triton's @constexpr_function): a kernel's call runs it in Python while
    compiling, with its compile-time arguments (numbers, strings, dtypes,
    tuples), and its result is a tl.constexpr value. Editing the function
    changes the kernels' cache key. Returns a ConstexprFunction; TypeError
    when `fn` is not callable."""
    if not callable(fn):
        raise TypeError("constexpr_function() takes a function, not %r" % (fn,))
    return ConstexprFunction(fn)


def unwrap_constexpr(value):
    return value.value if isinstance(value, tl.constexpr) else value


def _run_constexpr_function(function_id, arguments):
    """_C.constexpr_function_runner: the frontend's call of a constexpr
    function, or of an extern function (whose body picks the library calls
    to make: _extern.py), its arguments and result as Python literals."""
    extern = _extern.function(function_id)
    if extern is not None:
        return _extern.run(extern, arguments)
    fn = _constexpr_functions.get(function_id)
    if fn is None:
        raise KeyError("constexpr function %s is not defined in this process" % function_id)
    args, kwargs = eval(arguments, {"__builtins__": {}, "tl": tl, "float": float,  # the frontend's literal
                                    "__namedtuple__": namedtuple_like})
    result = fn(*args, **kwargs)
    text = constexpr_text(unwrap_constexpr(result))
    return text


_C.constexpr_function_runner = _run_constexpr_function


def jit(fn=None, *, target=None, do_not_specialize=(), debug=None, repr=None, launch_metadata=None, version=None,
        do_not_specialize_on_alignment=(), noinline=None, **unknown):
    """Makes a Python function a kernel, a JITFunction: ``@tessera.jit`` or
    ``@tessera.jit(target=..., do_not_specialize=[...], debug=...)``.

    target is a name of the target registry (``tessera targets`` lists them
    with their aliases, such as "cuda"), or "interpreter"; without a target,
    each launch compiles for its arguments' device. do_not_specialize names
    parameters (by name or index) whose values are not specialized on
    (integers equal to 1 or multiples of 16, 16-byte aligned pointers), so
    that new values do not compile new kernels. debug=True runs every
    launch in the checked mode (None: TESSERA_DEBUG decides; a launch's own
    debug= comes first).

    repr: Triton's kernel naming, a function of a Specialization
    (signature: parameter -> type, constants: parameter -> value) giving
    each compiled kernel's `name`. launch_metadata(grid, kernel, args)
    -> {"name": ..., metric: value}: what the profiler (tessera.profiler,
    hook="triton") records for each launch, args being every parameter
    by name. do_not_specialize_on_alignment names parameters specialized
    on a value equal to 1 only (not on multiples of 16 or 16-byte aligned
    pointers), as Triton's. Triton's version and noinline are kept as the
    function's attributes (Tessera inlines every call). Any other keyword
    is a TypeError, as in Triton."""
    if unknown:
        raise TypeError("jit() got unexpected keyword argument%s %s (it takes target, do_not_specialize, debug, "
                        "repr, launch_metadata, version, do_not_specialize_on_alignment, noinline)"
                        % ("s" if len(unknown) > 1 else "", ", ".join("'%s'" % k for k in sorted(unknown))))

    def wrap(f):
        jf = JITFunction(f, target=target, do_not_specialize=do_not_specialize or (), debug=debug)
        jf._repr = repr
        jf.launch_metadata = launch_metadata
        jf.version, jf.noinline = version, noinline
        jf.do_not_specialize_on_alignment = {jf.arg_names[d] if isinstance(d, int) else d
                                             for d in do_not_specialize_on_alignment or ()}
        return jf
    return wrap(fn) if fn is not None else wrap
