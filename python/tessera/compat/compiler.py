"""triton.compiler.compiler's helpers under tessera.compat, backed by
Tessera: the cache and driver names it re-exports, what invalidates a
compile cache, a device's shared memory, SASS through cuobjdump, compile
timing, PTX prototype parsing and tracebacks without the compiler's frames.
The kernels themselves come from tessera.compiler (ASTSource, compile,
CompiledKernel).

Layer 4, api (python/tessera/__init__.py lists the layers)."""

import functools
import os
import re
import subprocess
import tempfile
import time

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
