"""triton.compiler.compiler's helpers under tessera.compat, backed by
Tessera: the cache and driver names it re-exports, what invalidates a
compile cache, a device's shared memory, SASS through cuobjdump, compile
timing, PTX prototype parsing and tracebacks without the compiler's frames.
The kernels themselves come from tessera.compiler (ASTSource, compile,
CompiledKernel).

Layer 4, api (python/tessera/__init__.py lists the layers)."""

import collections
import ctypes
import functools
import hashlib
import os
import re
import struct
import subprocess
import tempfile
import time

from .. import _C, _checked, _specialize
from .. import compiler as _compiler

from . import knobs
from .cache import get_cache_key, get_cache_manager, get_dump_manager, get_override_manager  # noqa: F401
from .errors import OutOfResources  # noqa: F401
from .hooks import CompileTimes, LazyDict  # noqa: F401
from ..runtime.driver import driver  # noqa: F401

# PTX: an entry's or function's name and parameter list; a parameter's type.
ptx_prototype_pattern = r"\.(?:extern|visible)\s+\.(?:func|entry)\s+([\w$]+)\s*\(([^)]*)\)"
prototype_pattern = {"ptx": ptx_prototype_pattern}
ptx_arg_type_pattern = r"\.param\s+\.([a-z0-9]+)"
arg_type_pattern = {"ptx": ptx_arg_type_pattern}

# The variables that change what Tessera's compiler produces for one source:
# a compile cache keyed without them could hand back another setting's code.
_CODE_CHANGING_VARIABLES = ("TESSERA_NVPTX_ARCH", "TESSERA_AMDGPU_ARCH", "TESSERA_SPIRV_ARCH", "TESSERA_PTXAS",
                            "TESSERA_PIPELINE_REGISTERS", "TESSERA_DEFAULT_FP_FUSION", "TESSERA_DEBUG",
                            "TESSERA_VULKAN_HIDE_FEATURES")


def get_cache_invalidating_env_vars():
    """{variable: value} of the set variables that change compiled code
    (what Triton keys its caches by, with its own TRITON_* variables)."""
    return {name: os.environ[name] for name in _CODE_CHANGING_VARIABLES if name in os.environ}


def max_shared_mem(device):
    """Bytes of shared memory a block of `device` may use."""
    return driver.active.utils.get_device_properties(device)["max_shared_mem"]


def convert_type_repr(text):
    """A Triton IR type as a signature type: "!tt.ptr<f32>" -> "*f32", a TMA
    descriptor -> "nvTmaDesc", attributes ({...}) dropped."""
    if "tt.nv_tma_desc = 1" in text:
        return "nvTmaDesc"
    text = re.sub(r" \{[^}]*\}", "", text)
    prefix = "!tt.ptr<"
    if prefix in text:
        inner = text[text.index(prefix) + len(prefix):].split(",")[0]
        return "*" + convert_type_repr(inner[:-1] if inner.endswith(">") else inner)
    return text


@functools.lru_cache(maxsize=None)
def parse(full_name, ext, context):
    """A compiler stage's file as Triton's compile reads it back: the text
    of "llir", "ptx" and "amdgcn", the bytes of "cubin" and "hsaco" (None for
    another extension, as Triton's). Triton's MLIR levels ("ttir", "ttgir")
    need its MLIR context, which Tessera does not have: an error says so."""
    if ext in ("ttir", "ttgir"):
        raise NotImplementedError("triton.compiler.compiler.parse of a .%s file (%s): Triton's MLIR levels are "
                                  "not part of Tessera's compiler" % (ext, full_name))
    if ext in ("llir", "ptx", "amdgcn"):
        with open(full_name) as f:
            return f.read()
    if ext in ("cubin", "hsaco"):
        with open(full_name, "rb") as f:
            return f.read()
    return None


def get_sass(cubin, fun=None):
    """The SASS of a cubin (cuobjdump -sass), or of its function `fun`."""
    fd, path = tempfile.mkstemp(suffix=".cubin")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(cubin)
        command = [knobs.nvidia.cuobjdump.path, "-sass"] + (["-fun", fun] if fun else []) + [path]
        return subprocess.check_output(command, stderr=subprocess.STDOUT).decode()
    finally:
        os.remove(path)


class AsmDict(dict):
    """A kernel's asm: "sass" is made from "cubin" when first read."""

    def __missing__(self, key):
        if key != "sass":
            raise KeyError("Unknown key: '%s'" % key)
        self[key] = value = get_sass(self["cubin"])
        return value


class CompileTimer:
    """Times a compile's stages; end() gives CompileTimes in microseconds."""

    def __init__(self):
        self.start = time.time()
        self.ir_initialization_end = None
        self.lowering_stage_ends = []
        self.store_results_end = None

    def finished_ir_initialization(self):
        self.ir_initialization_end = time.time()

    def stage_finished(self, stage_name):
        self.lowering_stage_ends.append((stage_name, time.time()))

    def end(self):
        now = time.time()
        if self.ir_initialization_end is None:
            self.ir_initialization_end = now
        else:
            self.store_results_end = now

        def micros(start, end):
            return 0 if end is None else int((end - start) * 1e6)
        stages, begun = [], self.ir_initialization_end
        for name, ended in self.lowering_stage_ends:
            stages.append((name, micros(begun, ended)))
            begun = ended
        return CompileTimes(ir_initialization=micros(self.start, self.ir_initialization_end),
                            lowering_stages=stages, store_results=micros(begun, self.store_results_end))


# Frames of these files are the compiler's, not the user's.
_COMPILER_FILES = tuple(os.sep + os.path.join("tessera", f) for f in ("jit.py", "compiler.py", "_C.py", "_source.py"))


def filter_traceback(error):
    """Drops the compiler's own frames from an error's traceback (and its
    cause's and context's), unless knobs.compilation.front_end_debugging."""
    if knobs.compilation.front_end_debugging:
        return
    for linked in (error.__cause__, error.__context__):
        if linked is not None:
            filter_traceback(linked)
    frames, tb = [], error.__traceback__
    while tb is not None:
        if not tb.tb_frame.f_code.co_filename.endswith(_COMPILER_FILES):
            frames.append(tb)
        tb = tb.tb_next
    for frame, following in zip(frames, frames[1:]):
        frame.tb_next = following
    if frames:
        frames[-1].tb_next = None
    error.__traceback__ = frames[0] if frames else None


# ---- compiled kernels as Triton's, launched as Inductor's launchers launch them

_SCALAR_CTYPES = dict(_specialize._CTYPES, u1=ctypes.c_bool)  # the JIT's, and Triton's spelling of bool


def _launch_value(ty, value):
    """The ctypes value of one runtime argument of signature type `ty`."""
    ty = ty.split(":")[0]
    if ty.startswith("*"):
        if value is None:
            return ctypes.c_void_p(0)
        if hasattr(value, "data_ptr"):
            address = value.data_ptr()
        elif hasattr(value, "__array_interface__"):  # numpy, on the host
            address = value.__array_interface__["data"][0]
        else:
            address = value
        return ctypes.c_void_p(int(address))
    if ty in _SCALAR_CTYPES:
        return _SCALAR_CTYPES[ty](value)
    if ty == "fp16":
        return ctypes.c_uint16(struct.unpack("<H", struct.pack("<e", float(value)))[0])
    if ty == "bf16":
        return ctypes.c_uint16(struct.unpack("<I", struct.pack("<f", float(value)))[0] >> 16)
    raise TypeError("no launch value for a parameter of type %r" % ty)


class CompiledKernel(_compiler.CompiledKernel):
    """Triton's CompiledKernel over Tessera's: `hash`, `src`, `metadata`
    (name, hash, target, num_warps, num_ctas, cluster_dims, shared...),
    `packed_metadata`, and the launcher Triton's has: `_init_handles()` loads
    it on the active device (`function`), `run(grid_0, grid_1, grid_2,
    stream, function, packed_metadata, launch_metadata, enter_hook,
    exit_hook, *args)` launches it with its runtime arguments, and
    `kernel[grid](*args)` does both."""

    def __init__(self, base, src):
        self.__dict__.update(base.__dict__)
        self.src = src
        self._signature = src.specialization()[0]
        fn = src.fn
        self._runtime = [i for i, name in enumerate(fn.arg_names)  # the parameters the binary takes
                         if (i,) not in src.constants and src.signature.get(name) != "constexpr"
                         and name not in fn.constexpr_names]
        data = base.binary.data if base.binary.data else base.binary.assembly.encode()
        self.hash = hashlib.sha256(data).hexdigest()
        old = base.metadata
        num_warps = old.num_warps or 4
        self.metadata = _KernelMetadata(
            name=old.name, hash=self.hash, target=old.target, num_warps=num_warps, num_stages=old.num_stages or 3,
            num_ctas=1, cluster_dims=(1, 1, 1), shared=old.shared, debug=old.debug,
            threads_per_program=old.threads_per_program, global_scratch_size=0, global_scratch_align=1,
            profile_scratch_size=0, profile_scratch_align=1, tmem_size=0)
        self.packed_metadata = (num_warps, 1, old.shared)
        self.shared, self.num_warps, self.num_ctas, self.cluster_dims = old.shared, num_warps, 1, (1, 1, 1)
        self.module = self.function = None
        self.n_regs = self.n_spills = self.n_max_threads = None  # Tessera's loader does not report them
        self.kernel = data               # Triton's: the binary (a cubin's bytes; PTX text where there is none)
        self.metadata_group = {}         # Triton's: file name -> path of what the cache holds for it

    @property
    def _backend(self):
        return _C._backend_of_format(self.binary.format)

    def _init_handles(self):
        # Inductor pickles a compiled kernel with run, function and module
        # None, as Triton's _init_handles sets them again: run is a method here.
        self.__dict__.pop("run", None)
        if self.function is not None:
            return
        backend = self._backend
        index = driver.active.get_current_device() if backend != _C.HOST else 0
        device = _C.get_device(backend, index)
        # The host's shared objects export the kernel as tessera_kernel_<name> (docs/cpu-abi.md).
        entry = ("tessera_kernel_" if self.binary.format == "elf-shared-object" else "") + self.name
        self.function = self.module = _C.load_binary(
            self.binary.data or self.binary.assembly, entry, self._num_params(), self.binary.format,
            device=device, threads=self.binary.threads, shared_memory=self.binary.shared_memory)

    def _num_params(self):
        """The binary's parameters: the runtime arguments, and in the checked
        mode each pointer's buffer size and the report buffer after them."""
        hidden = sum(ty.startswith("*") for ty in self._signature) + 1 if self.metadata.debug else 0
        return len(self._signature) + hidden

    def launch_metadata(self, grid, stream, *args):
        if not knobs.runtime.launch_enter_hook:
            return None
        self._init_handles()
        metadata = LazyDict({"name": self.name, "function": self.function, "stream": stream})
        fn = getattr(self.src, "fn", None)
        if getattr(fn, "launch_metadata", None) is not None:
            runtime = [n for n in fn.arg_names if (fn.arg_names.index(n),) not in self.src.constants
                       and n not in fn.constexpr_names]
            metadata.add(fn.launch_metadata, (grid, self.metadata, dict(zip(runtime, args))))
        return metadata

    def run(self, grid_0, grid_1, grid_2, stream, function, packed_metadata, launch_metadata, enter_hook, exit_hook,
            *args):
        if len(args) == len(self.src.fn.arg_names) != len(self._runtime):  # every parameter, as Triton's launcher
            args = [args[i] for i in self._runtime]                        # takes them: constexprs dropped
        if len(args) != len(self._signature):
            raise TypeError("kernel '%s' takes %d runtime arguments (or all %d parameters), got %d"
                            % (self.name, len(self._signature), len(self.src.fn.arg_names), len(args)))
        if enter_hook and launch_metadata is not None:
            enter_hook(launch_metadata)
        values = [_launch_value(ty, a) for ty, a in zip(self._signature, args)]
        kernel, grid = function or self.function, (int(grid_0), int(grid_1), int(grid_2))
        stream = None if self._backend == _C.HOST else stream
        if self.metadata.debug:
            self._run_checked(kernel, grid, values, args, stream)
        else:
            kernel.launch_ctypes(grid, values, stream)
        if exit_hook and launch_metadata is not None:
            exit_hook(launch_metadata)

    def _run_checked(self, kernel, grid, values, args, stream):
        """Triton's debug=True is Tessera's checked mode: the pointer
        arguments' buffer sizes and a report buffer follow the arguments,
        and a failed check raises (OutOfBoundsError, IntegerOverflowError)."""
        pointers = [ty.startswith("*") for ty in self._signature]
        sizes = [_checked.buffer_bytes(a) if p else None for a, p in zip(args, pointers)]
        device = "cpu" if self._backend == _C.HOST else "cuda:%d" % driver.active.get_current_device()
        if not hasattr(self, "_reports"):
            self._reports = _checked.Reports()
        report = self._reports.buffer(device)
        kernel.launch_ctypes(grid, values + _checked.launch_values([s for s in sizes if s is not None], report), stream)
        result = self._reports.read(device, _C.wrap_stream(kernel.device, stream) if stream is not None else None)
        if result[0]:
            fn = self.src.fn
            module = fn.module_text()
            names = [fn.arg_names[i] for i in self._runtime]
            raise _checked.error(self.name, result, names, sizes, module, module.chunks[0].filename)

    def __getitem__(self, grid):
        self._init_handles()
        grid = tuple(grid) + (1,) * (3 - len(grid))

        def runner(*args, stream=None):
            if stream is None and self._backend != _C.HOST:
                stream = driver.active.get_current_stream(driver.active.get_current_device())
            metadata = self.launch_metadata(grid, stream, *args)
            self.run(grid[0], grid[1], grid[2], stream, self.function, self.packed_metadata, metadata,
                     knobs.runtime.launch_enter_hook, knobs.runtime.launch_exit_hook, *args)
        return runner


_KernelMetadata = collections.namedtuple(
    "KernelMetadata", "name hash target num_warps num_stages num_ctas cluster_dims shared debug threads_per_program "
                      "global_scratch_size global_scratch_align profile_scratch_size profile_scratch_align tmem_size")


def compile(src, target=None, options=None, _env_vars=None):
    """triton.compile: Tessera's compile, giving Triton's CompiledKernel."""
    kernel = CompiledKernel(_compiler.compile(src, target=target, options=options), src)
    _store_cubin(kernel)
    return kernel


def _store_cubin(kernel):
    """Leaves a CUDA kernel's cubin where Triton's compile leaves it, in the
    cache directory's folder of the kernel's hash, as `<function name>.cubin`:
    torch's Inductor launches a kernel it finds there through its own C++
    launcher (StaticallyLaunchedCudaKernel), which passes the runtime
    arguments in the signature's order, as Tessera's kernels take them, with
    num_warps * 32 threads and `shared` bytes of dynamic shared memory. A
    kernel that takes more (the checked mode's buffer sizes) or other
    threads is not stored: Inductor then launches it through `run`."""
    binary, metadata = kernel.binary, kernel.metadata
    fn = getattr(kernel.src, "fn", None)
    if binary.format != "cubin" or not binary.data or metadata.debug or fn is None \
            or binary.threads != 32 * metadata.num_warps or kernel.name != fn.__name__:
        return
    try:
        name = fn.__name__ + ".cubin"
        kernel.metadata_group[name] = get_cache_manager(kernel.hash).put(binary.data, name, binary=True)
    except OSError:
        pass  # an unwritable cache: Inductor launches through `run`
