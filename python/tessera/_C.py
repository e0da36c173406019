"""ctypes binding to libtessera.so (include/tessera/tessera.h), whose
declarations _capi.py holds, generated from the header
(tools/gen_capi_binding.py).

ctypes rather than a compiled extension: the same build must load in any
CPython >= 3.10 (the build machine's 3.11 and the GPU machine's 3.12).
The library is found via $TESSERA_LIBRARY, next to this package (the
relocatable bundle of ci/bundle.sh), or in the source tree's build/capi/.

Devices are named by their runtime backend: "cpu" (the host backend),
"cuda" or "cuda:N", "hip:N"... The target registry (targets(),
find_target()) says which backend runs each target's code.

Layer 0, binding (python/tessera/__init__.py lists the layers).
"""

import collections
import ctypes
import os
import sys
import sysconfig
import threading

from . import _capi

# Status codes (tessera.h's tessera_status), under the names Python uses.
SUCCESS = _capi.TESSERA_SUCCESS
ERROR_INVALID_ARGUMENT = _capi.TESSERA_ERROR_INVALID_ARGUMENT
ERROR_UNAVAILABLE = _capi.TESSERA_ERROR_UNAVAILABLE
ERROR_COMPILATION = _capi.TESSERA_ERROR_COMPILATION
ERROR_LAUNCH = _capi.TESSERA_ERROR_LAUNCH
ERROR_ASSERT = _capi.TESSERA_ERROR_ASSERT
ERROR_INTERRUPTED = _capi.TESSERA_ERROR_INTERRUPTED
ERROR_OUT_OF_RESOURCES = _capi.TESSERA_ERROR_OUT_OF_RESOURCES


class TesseraError(RuntimeError):
    """A failed call into libtessera; ``status`` is the C status code."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status


class CompilationError(TesseraError):
    """The kernel's source (or its compilation for the target) failed; the
    message shows file:line:col, the source line and a caret."""

    _error_message = None

    @property
    def error_message(self):
        """The bare message, without location (Triton's attribute), or
        None: the jit sets it (the cause's text, where there is a cause)."""
        return self._error_message

    @error_message.setter
    def error_message(self, message):
        self._error_message = message


class OutOfResources(CompilationError):
    """The kernel needs more shared memory than the target has: the source
    is fine and smaller blocks may fit (the autotuner skips such a
    configuration, as Triton's does with its OutOfResources)."""


class CompileTimeAssertionFailure(CompilationError):
    """A tl.static_assert failed for these constexprs (Triton's name): the
    autotuner skips such a configuration, as Triton's does."""


class UnsupportedLanguageConstruct(CompilationError):
    """The kernel uses Python that kernels cannot hold (a lambda, a class,
    a runtime value in an f-string...; Triton's name)."""


class DeviceAssertionError(TesseraError):
    """A tl.device_assert failed while the kernel ran."""


def _candidates():
    env = os.environ.get("TESSERA_LIBRARY")
    if env:
        yield env
    for folder in package_folders():
        yield os.path.join(folder, "libtessera.so")
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    yield os.path.join(repo, "build", "capi", "libtessera.so")


def package_folders():
    """The folders of the tessera package: this file's, and in an editable
    install (pip install -e) also the one the built files went to."""
    here = os.path.dirname(os.path.abspath(__file__))
    package = sys.modules.get(__package__)
    return [here] + [p for p in getattr(package, "__path__", []) if os.path.abspath(p) != here]


def _load():
    tried = []
    for path in _candidates():
        if os.path.exists(path):
            # RTLD_GLOBAL: compiled kernels resolve tessera_host_print and
            # tessera_host_assert_fail against the global scope.
            return ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
        tried.append(path)
    raise ImportError("libtessera.so not found (set TESSERA_LIBRARY); looked in: " + ", ".join(tried))


_lib = None


def _find_pip_opencl_runtime():
    """Points OpenCL's ICD loader at Intel's OpenCL CPU runtime when pip
    installed it (intel-opencl-rt) in this Python's environment and nothing
    else says where OpenCL drivers are: no OCL_ICD_VENDORS and no system
    driver (/etc/OpenCL/vendors/*.icd). The wheel's own .icd file names a
    placeholder path that only conda's post-link step fixes, so the library
    itself is named: ocl-icd takes a library's path in OCL_ICD_VENDORS. The
    loader reads it on the first OpenCL call, after this."""
    if "OCL_ICD_VENDORS" in os.environ:
        return
    system = "/etc/OpenCL/vendors"
    if os.path.isdir(system) and any(f.endswith(".icd") for f in os.listdir(system)):
        return
    lib = os.path.join(sysconfig.get_paths()["data"], "lib", "libintelocl.so")
    if os.path.exists(lib):
        os.environ["OCL_ICD_VENDORS"] = lib


def library():
    """libtessera, loaded on first use: `import tessera.language` and the
    pure-Python helpers work without it."""
    global _lib
    if _lib is None:
        _find_pip_opencl_runtime()
        lib = _load()
        for name, res, args in _capi.FUNCTIONS:
            f = getattr(lib, name)
            f.restype, f.argtypes = res, args
        _lib = lib
    return _lib


def _check(status, error_class=TesseraError):
    if status == SUCCESS:
        return
    message = (library().tessera_last_error() or b"").decode("utf-8", "replace")
    if status == ERROR_INTERRUPTED:  # Ctrl-C during a host launch
        raise KeyboardInterrupt(message)
    if status == ERROR_COMPILATION:
        error_class = CompilationError
    elif status == ERROR_OUT_OF_RESOURCES:
        error_class = OutOfResources
    elif status == ERROR_ASSERT:
        error_class = DeviceAssertionError
    raise error_class(status, message or (library().tessera_status_string(status) or b"").decode() or
                      "error %d" % status)


def version():
    return library().tessera_version().decode()


def prelude_source():
    """The language's functions written in the language (frontend/prelude.py
    and libdevice.py), as compiled into libtessera."""
    return library().tessera_prelude_source().decode()


def target_available(target):
    return bool(library().tessera_target_available(target.encode()))


# ---- the target registry (tessera.h's tessera_target_* rows)

# The runtime backend of the host CPU, whose devices Python calls "cpu".
HOST = "host"


class TargetFlavour(collections.namedtuple("TargetFlavour", "name backend torch_device torch_build dlpack_devices "
                                                         "device_name explicit_only stages_host_arrays timer "
                                                         "triton_backend")):
    """A variant of a target and the runtime that runs its code (tessera.h's
    tessera_target_flavour says what each column means). torch_device:
    PyTorch's device type of its memory ("" = none); torch_build: the
    torch.version attribute a PyTorch must set for torch_device to mean this
    flavour ("" = any; ROCm's PyTorch calls AMD GPUs "cuda" and sets .hip);
    dlpack_devices: DLPack device types of its memory; device_name: how
    Python names its devices; explicit_only: launches pick it only when
    asked; stages_host_arrays: numpy arrays are copied to its device and
    back around a launch; timer: how its kernels are timed; triton_backend:
    Triton's GPUTarget.backend for it."""


class TargetRow(collections.namedtuple("TargetRow", "name has_code_generator code_generator aliases flavours formats "
                                                   "specializes_pointer_range arch_prefix")):
    """One target: aliases maps each other name to the flavour it selects
    ("" = the first, the default); formats lists its binary formats, the
    first being what a complete toolchain produces; specializes_pointer_range:
    launches mark pointers into allocations under 2 GiB (":r32");
    arch_prefix: what makes Triton's numeric architecture this target's
    name for it ("sm_")."""


_rows = None


def targets():
    """The registry's rows, read from libtessera once per process."""
    global _rows
    if _rows is None:
        lib, rows = library(), []
        for i in range(lib.tessera_target_count()):
            t = lib.tessera_target_info_at(i).contents
            flavours = []
            for j in range(t.num_flavours):
                f = t.flavours[j].contents
                flavours.append(TargetFlavour(f.name.decode(), f.backend.decode(), f.torch_device.decode(),
                                              f.torch_build.decode(),
                                              tuple(f.dlpack_devices[k] for k in range(f.num_dlpack_devices)),
                                              f.device_name.decode(), bool(f.explicit_only),
                                              bool(f.stages_host_arrays), f.timer.decode(), f.triton_backend.decode()))
            aliases = {t.aliases[k].decode(): t.alias_flavours[k].decode() for k in range(t.num_aliases)}
            rows.append(TargetRow(t.name.decode(), bool(t.has_code_generator), t.code_generator.decode(), aliases,
                                  tuple(flavours), tuple(t.formats[k].decode() for k in range(t.num_formats)),
                                  bool(t.specializes_pointer_range), t.arch_prefix.decode()))
        _rows = tuple(rows)
    return _rows


_found = {}


def find_target(name):
    """(row, flavour) of a target's name or alias ("cuda", "spirv:opencl");
    a TesseraError listing the known names when there is none."""
    hit = _found.get(name)
    if hit is None:
        index, flavour = ctypes.c_int(), ctypes.c_int()
        _check(library().tessera_target_lookup(str(name).encode(), ctypes.byref(index), ctypes.byref(flavour)))
        row = targets()[index.value]
        hit = _found[name] = (row, row.flavours[flavour.value])
    return hit


_device_names = None  # ({device name: backend}, {backend: device name}): "cpu" <-> "host"...


def _device_name_tables():
    global _device_names
    if _device_names is None:
        flavours = [f for row in targets() for f in row.flavours]
        _device_names = ({f.device_name: f.backend for f in flavours}, {f.backend: f.device_name for f in flavours})
    return _device_names


def parse_device(spec):
    """(backend, index) of a device's name ("cpu", "host", "cuda", "cuda:1"):
    the registry's device names ("cpu" is the host's), or a backend's."""
    name, _, index = str(spec).partition(":")
    name = _device_name_tables()[0].get(name, name)
    try:
        return name, int(index or 0)
    except ValueError:
        raise ValueError("bad device %r (expected 'cpu', 'cuda' or 'cuda:N')" % (spec,)) from None


def device_label(backend, index):
    """The user-facing name of a device: "cpu" (the host has one) or "cuda:N"."""
    name = _device_name_tables()[1].get(backend, backend)
    return name if backend == HOST else "%s:%d" % (name, index)


_devices = {}


def get_device(backend=HOST, index=None):
    """The C device handle for a backend name or a device string ("cuda:1");
    the same c_void_p object on every call, so handles compare with `is`."""
    if index is None:
        backend, index = parse_device(backend)
    key = (backend, index)
    d = _devices.get(key)
    if d is None:
        d = ctypes.c_void_p()
        _check(library().tessera_get_device(backend.encode(), index, ctypes.byref(d)))
        _devices[key] = d
    return d


def backend_names():
    """Runtime backends usable here, most preferred first ("host" last)."""
    names, i = [], 0
    while True:
        n = library().tessera_backend_name(i)
        if n is None:
            return names
        names.append(n.decode())
        i += 1


def device_name(device):
    return library().tessera_device_name(device).decode()


def device_architecture(device):
    """The architecture a device's kernels are compiled for ("sm_90a",
    "gfx942"...; "" where the target has no such choice)."""
    return (library().tessera_device_architecture(device) or b"").decode()


def device_attribute(device, name):
    """A fact of a device (tessera_device_attribute): "multiprocessor_count",
    "max_shared_mem", "max_num_regs", "warpSize", ..."""
    v = ctypes.c_int64()
    _check(library().tessera_device_attribute(device, name.encode(), ctypes.byref(v)))
    return v.value


class Buffer:
    """Device memory (owns the C handle); `ptr` is the address kernels take."""

    def __init__(self, device, nbytes):
        self.handle = ctypes.c_void_p()
        _check(library().tessera_buffer_alloc(device, nbytes, ctypes.byref(self.handle)))
        self.device, self.nbytes = device, nbytes
        p = ctypes.c_void_p()
        _check(library().tessera_buffer_device_ptr(self.handle, ctypes.byref(p)))
        self.ptr = p.value or 0

    def copy_from_host(self, address, nbytes, offset=0, stream=None):
        _check(library().tessera_copy_host_to_device(self.handle, offset, address, nbytes, _stream_handle(stream)))

    def copy_to_host(self, address, nbytes, offset=0, stream=None):
        _check(library().tessera_copy_device_to_host(address, self.handle, offset, nbytes, _stream_handle(stream)))

    def copy_from(self, src, nbytes, dst_offset=0, src_offset=0, stream=None):
        _check(library().tessera_copy_device_to_device(self.handle, dst_offset, src.handle, src_offset, nbytes,
                                                       _stream_handle(stream)))

    def __del__(self):
        if getattr(self, "handle", None) and _lib is not None:
            _lib.tessera_buffer_free(self.handle)
            self.handle = None


class Stream:
    """A tessera stream: created (owned) or wrapping a native handle such as a
    CUstream, which stays the caller's."""

    def __init__(self, device, native=None):
        self.handle = ctypes.c_void_p()
        if native is None:
            _check(library().tessera_stream_create(device, ctypes.byref(self.handle)))
        else:
            _check(library().tessera_stream_wrap(device, ctypes.c_void_p(native), ctypes.byref(self.handle)))
        self.device, self.native = device, native

    def synchronize(self):
        _check(library().tessera_stream_synchronize(self.handle))

    def __del__(self):
        if getattr(self, "handle", None) and _lib is not None:
            _lib.tessera_stream_destroy(self.handle)
            self.handle = None


class Event:
    """A point in a stream, for timing on the device (CUDA events, Vulkan
    timestamps)."""

    def __init__(self, device):
        self.handle = ctypes.c_void_p()
        _check(library().tessera_event_create(device, ctypes.byref(self.handle)))

    def record(self, stream):
        _check(library().tessera_event_record(self.handle, stream.handle))

    def synchronize(self):
        _check(library().tessera_event_synchronize(self.handle))

    def elapsed_ms(self, start):
        """Milliseconds from `start` (recorded earlier) to this event."""
        ms = ctypes.c_double()
        _check(library().tessera_event_elapsed_ms(start.handle, self.handle, ctypes.byref(ms)))
        return ms.value

    def __del__(self):
        if getattr(self, "handle", None) and _lib is not None:
            _lib.tessera_event_destroy(self.handle)
            self.handle = None


# Wrappers of native streams, one per (device, handle): PyTorch hands out the
# same few CUstreams again and again, so this stays small.
_wrapped = {}


def wrap_stream(device, native):
    key = (device.value, int(native))
    s = _wrapped.get(key)
    if s is None:
        s = _wrapped[key] = Stream(device, int(native))
    return s


def _stream_handle(stream):
    return None if stream is None else stream.handle


class Kernel:
    """A loaded kernel (owns the C handle)."""

    def __init__(self, handle):
        self.handle = handle
        n = ctypes.c_size_t()
        _check(library().tessera_kernel_num_params(handle, ctypes.byref(n)))
        self.num_params = n.value
        w = ctypes.c_int()
        written = []
        for i in range(self.num_params):
            _check(library().tessera_kernel_param_written(handle, i, ctypes.byref(w)))
            if w.value:
                written.append(i)
        self.written = frozenset(written)  # parameters the kernel may store through
        c = ctypes.c_int()
        _check(library().tessera_kernel_from_cache(handle, ctypes.byref(c)))
        self.from_cache = bool(c.value)
        d = ctypes.c_void_p()
        _check(library().tessera_kernel_device(handle, ctypes.byref(d)))
        self.device = d

    metadata = None  # the JIT's KernelMetadata (compiler.py) for kernels it compiled
    _assemble = None  # the JIT's way to compile the same kernel again: () -> the asm dict
    _asm = None

    @property
    def asm(self):
        """Triton's CompiledKernel.asm: the kernel's assembly and binary by
        format ("ptx"/"cubin", "amdgcn"/"hsaco", "spvasm"/"spv", "asm"/"so"),
        compiled again without the cache on first use."""
        if self._asm is None:
            if self._assemble is None:
                raise AttributeError("this kernel was loaded from a binary: it has no source to show as asm")
            self._asm = self._assemble()
        return self._asm

    def attribute(self, name):
        """A fact of the loaded kernel (tessera_kernel_attribute): "threads",
        "shared_bytes", "num_regs", "local_bytes"."""
        v = ctypes.c_int64()
        _check(library().tessera_kernel_attribute(self.handle, name.encode(), ctypes.byref(v)))
        return v.value

    @property
    def n_regs(self):
        """Registers per thread, as the driver reports them (Triton's
        CompiledKernel.n_regs). On the host, where a program runs alone on a
        core, its warps' shares of the core's vector registers
        (max_num_regs // num_warps), so that Triton's occupancy arithmetic
        counts one program per core."""
        regs = self.attribute("num_regs")
        if regs == 0 and library().tessera_device_backend(self.device) == b"host":
            warps = getattr(self.metadata, "num_warps", None) or 1
            regs = max(1, device_attribute(self.device, "max_num_regs") // warps)
        return regs

    @property
    def n_spills(self):
        """Local memory per thread in 4-byte words, as Triton counts spills;
        0 on the host."""
        return self.attribute("local_bytes") // 4

    _launch_as_compiled = None  # the JIT's launch of this very kernel (jit.py _launch_compiled)

    def __getitem__(self, grid):
        """Triton's `compiled[grid](*args)` for the kernel warmup() returned:
        all the kernel's parameters, constexprs included."""
        if self._launch_as_compiled is None:
            raise TypeError("this kernel was loaded from a binary: launch it with launch(grid, args)")
        return lambda *args, **kwargs: self._launch_as_compiled(self, grid, args, kwargs)

    def _init_handles(self):
        """Triton loads its binaries lazily here; a Tessera kernel is loaded
        already (tutorials call it before reading n_regs)."""

    def set_launch_params(self, threads=1, shared_memory=0):
        """Threads per program (CUDA's blockDim.x) and dynamic shared memory
        bytes, for binaries loaded with load_binary."""
        _check(library().tessera_kernel_set_launch_params(self.handle, int(threads), int(shared_memory)))

    def launch(self, grid, args, stream=None):
        """grid: 1 to 3 ints; args: one value per runtime parameter, as ctypes
        scalars (exact types) or Python values (arrays and tensors become
        pointers, ints i32/i64 by range, floats fp32). stream: None (the
        device's default stream), a tessera `Stream`, a native handle (int,
        e.g. a CUstream) or an object with `.cuda_stream` (torch.cuda.Stream)."""
        if len(args) != self.num_params:
            raise TypeError("kernel takes %d runtime arguments, got %d" % (self.num_params, len(args)))
        args = [a if isinstance(a, ctypes._SimpleCData) else _as_ctypes(a) for a in args]
        ptrs = (ctypes.c_void_p * max(1, len(args)))(*map(ctypes.addressof, args))
        grid = tuple(grid) + (1,) * (3 - len(tuple(grid)))
        g = (ctypes.c_uint32 * 3)(*grid)
        _check(library().tessera_kernel_launch(self.handle, g, ptrs, self._stream(stream)))

    def launch_ctypes(self, grid3, args, stream=None):
        """launch() for the JIT's launch path: grid3 is 3 ints, args are
        ctypes values of the parameters' exact types."""
        if len(args) != self.num_params:
            raise TypeError("kernel takes %d runtime arguments, got %d" % (self.num_params, len(args)))
        ptrs = (ctypes.c_void_p * max(1, len(args)))(*map(ctypes.addressof, args))
        _check(library().tessera_kernel_launch(self.handle, (ctypes.c_uint32 * 3)(*grid3), ptrs,
                                               None if stream is None else self._stream(stream)))

    def _stream(self, stream):
        if stream is None:
            return None
        if isinstance(stream, Stream):
            return stream.handle
        native = getattr(stream, "cuda_stream", stream)
        if not isinstance(native, int):
            raise TypeError("stream must be None, a tessera Stream, a native handle or have .cuda_stream, not %s"
                            % type(stream).__name__)
        return wrap_stream(self.device, native).handle

    def __del__(self):
        if getattr(self, "handle", None) and _lib is not None:
            _lib.tessera_kernel_destroy(self.handle)
            self.handle = None


# How launch() turns a Python value into the ctypes value of its parameter:
# arrays and tensors into their addresses, ints and floats by range. Set by
# the specialization layer (_specialize.py), which knows the argument kinds;
# this layer only calls it.
argument_converter = None


def _as_ctypes(value):
    if argument_converter is None:
        raise TypeError("launch() takes ctypes values until tessera's specialization layer is imported, not %s"
                        % type(value).__name__)
    return argument_converter(value)


# Runs a constexpr function, or an extern function's body, for the frontend:
# (id, arguments as a Python literal) -> the result as a Python literal. The
# JIT sets it (the functions and the literals' reading are its layer's); this
# layer passes the calls on.
constexpr_function_runner = None
_constexpr_results = threading.local()  # each thread's last result, alive until its next call


def _run_constexpr_function(context, function, arguments, result):
    try:
        if constexpr_function_runner is None:
            raise RuntimeError("no constexpr function is known to this process")
        ok, text = True, constexpr_function_runner(function.decode(), arguments.decode())
    except Exception as e:  # noqa: BLE001  (the frontend reports it at the call's line)
        ok, text = False, "%s: %s" % (type(e).__name__, e)
    buffer = ctypes.create_string_buffer(text.encode("utf-8", "replace"))
    _constexpr_results.last = buffer
    result[0] = ctypes.addressof(buffer)
    return 0 if ok else 1


_CONSTEXPR_CALL = _capi.tessera_constexpr_call(_run_constexpr_function)


def _options(source, entry, signature, constexprs, target, filename, num_warps, num_stages, device=None, arch=None,
             checked=False, fp_fusion=True, max_registers=0, flush_subnormals=False):
    """tessera_compile_options for the C API (the arrays stay alive with it)."""
    o = _capi.tessera_compile_options()
    o.source, o.filename, o.entry = source.encode(), filename.encode(), entry.encode()
    sig = (ctypes.c_char_p * max(1, len(signature)))(*[s.encode() for s in signature])
    o.signature, o.num_signature = sig, len(signature)
    cx = (_capi.tessera_constexpr * max(1, len(constexprs)))(*[_capi.tessera_constexpr(n.encode(), v.encode())
                                                              for n, v in constexprs])
    o.constexprs, o.num_constexprs = cx, len(constexprs)
    o.target, o.num_warps, o.num_stages = target.encode(), num_warps, num_stages
    o.device = device.value if device is not None else None
    o.arch = arch.encode() if arch else None
    o.checked = int(bool(checked))
    o.no_fp_fusion = int(not fp_fusion)
    o.max_registers = max_registers
    o.flush_subnormals = int(bool(flush_subnormals))
    o.constexpr_call = _CONSTEXPR_CALL
    return o


def compile(source, entry, signature, constexprs, target="cpu", filename="<kernel>", num_warps=0, num_stages=0,
            device=None, checked=False, fp_fusion=True, max_registers=0, flush_subnormals=False):
    """Compiles through the C API (and its on-disk cache). `constexprs` is a
    list of (name, value-text) pairs; `device` a handle (None: device 0 of the
    target's backend)."""
    o = _options(source, entry, signature, constexprs, target, filename, num_warps, num_stages, device=device,
                 checked=checked, fp_fusion=fp_fusion, max_registers=max_registers,
                 flush_subnormals=flush_subnormals)
    k = ctypes.c_void_p()
    _check(library().tessera_compile(ctypes.byref(o), ctypes.byref(k)))
    return Kernel(k)


class Binary:
    """A kernel compiled without a device: format, bytes, assembly text."""

    def __init__(self, format, data, assembly, threads, shared_memory):
        self.format, self.data, self.assembly = format, data, assembly
        self.threads, self.shared_memory = threads, shared_memory


def compile_binary(source, entry, signature, constexprs, target, filename="<kernel>", num_warps=0, num_stages=0,
                   arch=None, checked=False, fp_fusion=True, max_registers=0, flush_subnormals=False):
    """Compiles for `target` (and `arch`, e.g. "sm_80") without a device (no
    cache): a Binary."""
    o = _options(source, entry, signature, constexprs, target, filename, num_warps, num_stages, arch=arch,
                 checked=checked, fp_fusion=fp_fusion, max_registers=max_registers,
                 flush_subnormals=flush_subnormals)
    h = ctypes.c_void_p()
    lib = library()
    _check(lib.tessera_compile_binary(ctypes.byref(o), ctypes.byref(h)))
    try:
        size = ctypes.c_size_t()
        ptr = lib.tessera_binary_data(h, ctypes.byref(size))
        return Binary(lib.tessera_binary_format(h).decode(), ctypes.string_at(ptr, size.value),
                      (lib.tessera_binary_assembly(h) or b"").decode("utf-8", "replace"),
                      lib.tessera_binary_threads_per_program(h), lib.tessera_binary_shared_memory_bytes(h))
    finally:
        lib.tessera_binary_destroy(h)


def kernel_writes(source, entry, signature, constexprs, target, filename="<kernel>", num_warps=0, num_stages=0,
                  arch=None):
    """Which runtime arguments the kernel may write through (its frontend
    only, tessera_kernel_writes): one bool per argument of `signature`; a
    write is never missed."""
    o = _options(source, entry, signature, constexprs, target, filename, num_warps, num_stages, arch=arch)
    count = ctypes.c_size_t()
    capacity = 1024  # tuples flatten: a kernel may take more runtime arguments than its signature has entries
    flags = (ctypes.c_int * capacity)()
    _check(library().tessera_kernel_writes(ctypes.byref(o), flags, capacity, ctypes.byref(count)))
    if count.value > capacity:
        raise TesseraError(ERROR_COMPILATION, "kernel '%s' takes %d runtime arguments; their writes are read for "
                                              "at most %d" % (entry, count.value, capacity))
    return [bool(flags[i]) for i in range(count.value)]


def _backend_of_format(format):
    # An unknown format goes to the host, whose loader then names the formats it takes.
    return next((row.flavours[0].backend for row in targets() if format in row.formats), HOST)


def load_binary(binary, entry, num_params, format="elf-shared-object", device=None, threads=1, shared_memory=0):
    """Loads an already compiled binary (bytes; PTX may be str): "ptx" or
    "cubin" on a CUDA device, "elf-shared-object" on the host. `device` is a
    handle or a name ("cuda:0"); None: device 0 of the backend that runs the
    target producing this format (the registry says which).
    `threads` (blockDim.x) and `shared_memory` (dynamic, bytes) apply to
    every launch."""
    if isinstance(binary, str):
        binary = binary.encode()
    if device is None or isinstance(device, str):
        device = get_device(device or _backend_of_format(format))
    k = ctypes.c_void_p()
    buf = ctypes.create_string_buffer(binary, len(binary))
    _check(library().tessera_kernel_load(device, format.encode(), buf, len(binary), entry.encode(), num_params,
                                   ctypes.byref(k)))
    kernel = Kernel(k)
    if threads != 1 or shared_memory:
        kernel.set_launch_params(threads, shared_memory)
    return kernel


# Triton's tutorials reach cuBLASLt as triton._C.libtriton.nvidia.cublas:
# `_C` is a module, so its "submodule" is registered by name.
from . import _libtriton as libtriton  # noqa: E402
sys.modules[__name__ + ".libtriton"] = libtriton
