"""triton.knobs under tessera.compat: Triton's configuration groups
(`knobs.cache.dir`, `knobs.compilation.always_compile`,
`knobs.autotuning.print`, `knobs.runtime.debug`...) with Triton's rules:
a knob reads its variable until set (bools: on, true or 1 in any case);
setting it sets the variable too (unless propagate_env is off), setting it
to `knobs.env` or deleting it drops the value, and a group's `scope()`
restores its values and variables on exit.

A knob Tessera honours is tied to Tessera's own setting: reading it falls
back to Tessera's variable, and setting it sets Tessera's variable for the
process too, so the compiler and the cache follow. The others keep their
values for code that reads them and change nothing in Tessera:

    knob                              Triton's variable          Tessera's
    cache.dir                         TRITON_CACHE_DIR           TESSERA_CACHE_DIR
    compilation.always_compile        TRITON_ALWAYS_COMPILE      TESSERA_ALWAYS_COMPILE
    autotuning.print                  TRITON_PRINT_AUTOTUNING    (read by tessera.autotune)
    runtime.debug                     TRITON_DEBUG               TESSERA_DEBUG (checked mode)
    language.default_fp_fusion        TRITON_DEFAULT_FP_FUSION   TESSERA_DEFAULT_FP_FUSION
    nvidia.ptxas                      TRITON_PTXAS_PATH          TESSERA_PTXAS
    nvidia.libcuda_path               TRITON_LIBCUDA_PATH        TESSERA_LIBCUDA (a directory in Triton)

Layer 4, api (python/tessera/__init__.py lists the layers)."""

import contextlib
import copy
import dataclasses
import functools
import importlib
import os
import re
import shutil
import subprocess
import typing

from . import hooks
from .hooks import (CompilationListener, CompileTimes, F, HookChain, InitHandleHook, JITHook, JITHookCompileInfo,
                    KernelAttr, LaunchHook, PipelineStagesHook)

class Env:
    """Setting a knob to `env` (Triton's sentinel) drops its value: it reads
    its variable again."""


env = Env()

# Whether setting a knob sets its variable in the environment (Triton's).
propagate_env = True


def setenv(key, value):
    """Sets (None: removes) an environment variable, unless propagate_env is off."""
    if not propagate_env:
        return
    if value is not None:
        os.environ[key] = value
    else:
        os.environ.pop(key, None)


def toenv(value):
    """(text,) a value sets its variable to, or None for a value no variable
    can hold (as Triton's: None removes it, bools are 1/0)."""
    if value is None:
        return (None,)
    if type(value) is bool:
        return ("1" if value else "0",)
    if type(value) in (str, int):
        return (str(value),)
    return None


def _to_bool(text):
    # As Triton's getenv_bool: on, true or 1 in any case are true, the rest false.
    return text.strip().lower() in ("on", "true", "1")


class env_base:
    """A knob: the value set on its group, else its environment variable's
    (then Tessera's, for a knob Tessera honours), else its default. Setting
    it also sets its variable (toenv, propagate_env) and Tessera's; deleting
    it drops the value, as Triton's knobs do."""

    kind = "str"

    def __init__(self, key, default=None, tessera=None, to_env=str, from_env=None):
        self.key, self.default, self.tessera = key, default, tessera
        self._to_env, self._from_env = to_env, from_env

    def __set_name__(self, owner, name):
        self.name = name

    def _read(self, text):
        return self._from_env(text) if self._from_env else text

    def get(self):
        for key in (self.key, self.tessera):
            text = os.environ.get(key) if key else None
            if text is not None:
                return self._read(text)
        return self.default() if callable(self.default) else self.default

    def __get__(self, group, owner):
        if group is None:
            return self
        if self.name in group._values:
            return self.transform(group._values[self.name])
        return self.get()

    def transform(self, value):
        """A value set on the group as reading gives it (a path -> an NvidiaTool)."""
        return value

    def __set__(self, group, value):
        if isinstance(value, Env):
            group._values.pop(self.name, None)
        else:
            group._values[self.name] = value
            text = toenv(value)
            if text is not None:
                setenv(self.key, text[0])
            if self.tessera and self.tessera != self.key:  # how Tessera's compiler and runtime see it
                if value is None:
                    os.environ.pop(self.tessera, None)
                else:
                    os.environ[self.tessera] = self._to_env(value)
        group._changed()

    def __delete__(self, group):
        group._values.pop(self.name, None)
        group._changed()


class env_str(env_base):
    pass


class env_opt_str(env_base):
    pass


class env_str_callable_default(env_str):
    """A string knob whose default is computed when read."""

    def __init__(self, key, default_factory, tessera=None):
        super().__init__(key, default_factory, tessera)


class env_class(env_base):
    """A knob naming a class as MODULE:CLASS (TRITON_CACHE_MANAGER...):
    reading it imports the class, which must derive from `type` (a name)."""

    def __init__(self, key, type):
        super().__init__(key)
        self.type = type

    def get(self):
        text = os.environ.get(self.key)
        return None if text is None else self.transform(text)

    def transform(self, value):
        if not isinstance(value, str):
            return value
        module, sep, name = value.partition(":")
        if not sep:
            raise RuntimeError("Unable to read %s: '%s' isn't of the form MODULE:CLASS" % (self.key, value))
        try:
            cls = getattr(importlib.import_module(module), name)
        except (ImportError, AttributeError) as e:
            raise RuntimeError("Unable to use '%s' from %s: it names no class (%s)" % (value, self.key, e)) from None
        if not any(c.__name__ == self.type for c in cls.mro()):
            raise RuntimeError("Unable to use '%s' from %s: not of type '%s'" % (value, self.key, self.type))
        return cls


@dataclasses.dataclass
class NvidiaTool:
    """A CUDA tool (ptxas, cuobjdump, nvdisasm) and its release ("13.0")."""
    path: str
    version: str

    @staticmethod
    @functools.lru_cache(maxsize=None)
    def from_path(path):
        try:
            text = subprocess.check_output([path, "--version"], stderr=subprocess.STDOUT).decode()
        except (OSError, subprocess.CalledProcessError):
            return None
        found = re.search(r"release (\d+\.\d+)", text)
        return NvidiaTool(path, found.group(1)) if found else None


class env_nvidia_tool(env_base):
    """A CUDA tool's knob: its variable's path (TRITON_PTXAS_PATH, then
    Tessera's where it has one), else the tool Tessera itself runs (on PATH,
    else the CUDA toolkit's); reading gives an NvidiaTool or raises."""

    def __init__(self, binary, tessera=None):
        self.binary = binary
        super().__init__("TRITON_%s_PATH" % binary.upper().replace("-", "_"), tessera=tessera)

    def get(self):
        paths = [os.environ.get(k) for k in (self.key, self.tessera) if k]
        return self.transform(next((p for p in paths if p and p != "none"), None))

    def transform(self, path):
        candidates = [path] if path else []
        candidates += [shutil.which(self.binary) or "", "/usr/local/cuda/bin/" + self.binary,
                       "/opt/cuda/bin/" + self.binary]
        for candidate in candidates:
            tool = NvidiaTool.from_path(candidate) if candidate else None
            if tool:
                return tool
        raise RuntimeError("Cannot find %s" % self.binary)


class env_bool(env_base):
    kind = "bool"

    def __init__(self, key, default=False, tessera=None):
        super().__init__(key, default, tessera, to_env=lambda value: "1" if value else "0", from_env=_to_bool)


class env_opt_bool(env_bool):
    def __init__(self, key, tessera=None):
        super().__init__(key, None, tessera)


class env_int(env_base):
    kind = "int"

    def __init__(self, key, default=0, tessera=None):
        def read(text):
            try:
                return int(text)
            except ValueError as e:
                raise RuntimeError("Unable to use %s=%s: expected int" % (key, text)) from e
        super().__init__(key, default, tessera, from_env=read)


SetType = typing.TypeVar("SetType")
GetType = typing.TypeVar("GetType")
ClassType = typing.TypeVar("ClassType")
knobs_type = typing.TypeVar("knobs_type", bound="base_knobs")


class BuildImpl(typing.Protocol):
    """Triton's hook that builds its C launcher; Tessera's launcher is prebuilt."""

    def __call__(self, name: str, src: str, srcdir: str, library_dirs: list, include_dirs: list,
                 libraries: list) -> str: ...


class base_knobs:
    """A group of knobs; `scope()` restores them on exit, `reset()` drops
    every value set, `copy()` keeps the values set."""

    def __init__(self):
        self._values = {}

    def _changed(self):
        """Called after a knob of the group is set, deleted or restored."""

    @property
    def knob_descriptors(self):
        return {name: knob for klass in reversed(type(self).__mro__) for name, knob in vars(klass).items()
                if isinstance(knob, env_base)}

    @property
    def knobs(self):
        return {name: getattr(self, name) for name in self.knob_descriptors}

    def copy(self):
        other = copy.copy(self)
        other._values = dict(self._values)
        return other

    def reset(self):
        for name in list(self._values):
            delattr(self, name)
        return self

    @contextlib.contextmanager
    def scope(self):
        """Restores the group's values and its variables (Triton's and
        Tessera's) on exit."""
        values = dict(self._values)
        keys = {k for knob in self.knob_descriptors.values() for k in (knob.key, knob.tessera) if k}
        saved_env = {k: os.environ.get(k) for k in keys}
        try:
            yield self
        finally:
            self._values = values
            for key, was in saved_env.items():
                if was is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = was
            self._changed()


def _tessera_cache_dir():
    home = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(home, "tessera")


class cache_knobs(base_knobs):
    home_dir = env_str("TRITON_HOME", lambda: os.path.expanduser("~/"))
    dump_dir = env_str("TRITON_DUMP_DIR", lambda: os.path.join(os.path.expanduser("~/"), ".triton", "dump"))
    override_dir = env_str("TRITON_OVERRIDE_DIR",
                           lambda: os.path.join(os.path.expanduser("~/"), ".triton", "override"))
    dir = env_str("TRITON_CACHE_DIR", _tessera_cache_dir, tessera="TESSERA_CACHE_DIR")
    manager_class = env_class("TRITON_CACHE_MANAGER", "CacheManager")
    remote_manager_class = env_class("TRITON_REMOTE_CACHE_BACKEND", "RemoteCacheBackend")


class compilation_knobs(base_knobs):
    override = env_bool("TRITON_KERNEL_OVERRIDE")
    dump_ir = env_bool("TRITON_KERNEL_DUMP")
    dump_ir_extract_di_local_variables = env_bool("LLVM_EXTRACT_DI_LOCAL_VARIABLES")
    store_binary_only = env_bool("TRITON_STORE_BINARY_ONLY")
    always_compile = env_bool("TRITON_ALWAYS_COMPILE", tessera="TESSERA_ALWAYS_COMPILE")
    use_ir_loc = env_opt_str("USE_IR_LOC")
    enable_asan = env_bool("TRITON_ENABLE_ASAN")
    disable_line_info = env_bool("TRITON_DISABLE_LINE_INFO")
    front_end_debugging = env_bool("TRITON_FRONT_END_DEBUGGING")
    allow_non_constexpr_globals = env_bool("TRITON_ALLOW_NON_CONSTEXPR_GLOBALS")
    instrumentation_mode = env_str("TRITON_INSTRUMENTATION_MODE", "")

    listener = property(lambda self: self.__dict__.get("_listener"),
                        lambda self, value: (self.__dict__.__setitem__("_listener", value), _sync_hooks()),
                        doc="A CompilationListener told of each compile (tessera.compat.hooks).")


class autotuning_knobs(base_knobs):
    cache = env_bool("TRITON_CACHE_AUTOTUNING")
    print = env_bool("TRITON_PRINT_AUTOTUNING", tessera="TRITON_PRINT_AUTOTUNING")  # tessera.autotune reads it


def _hook_knob(name):
    def read(self):
        return self.__dict__["_" + name]

    def write(self, value):
        if name == "add_stages_inspection_hook" and value is not None:
            raise NotImplementedError("knobs.runtime.add_stages_inspection_hook changes Triton's MLIR pipeline, "
                                      "which Tessera does not have")
        if isinstance(value, HookChain):
            value._on_change = _sync_hooks  # a chain made by the caller: its adds count too
        self.__dict__["_" + name] = value
        _sync_hooks()
    return property(read, write)


def _sync_hooks():
    if "runtime" in globals() and "compilation" in globals():
        hooks.sync(runtime, compilation)


class runtime_knobs(base_knobs):
    interpret = env_bool("TRITON_INTERPRET", tessera="TESSERA_INTERPRET")
    debug = env_bool("TRITON_DEBUG", tessera="TESSERA_DEBUG")
    override_arch = env_opt_str("TRITON_OVERRIDE_ARCH")

    # Triton's hooks, called by Tessera's launches and compiles (tessera.compat.hooks).
    launch_enter_hook = _hook_knob("launch_enter_hook")
    launch_exit_hook = _hook_knob("launch_exit_hook")
    kernel_load_start_hook = _hook_knob("kernel_load_start_hook")
    kernel_load_end_hook = _hook_knob("kernel_load_end_hook")
    jit_cache_hook = _hook_knob("jit_cache_hook")
    jit_post_compile_hook = _hook_knob("jit_post_compile_hook")
    add_stages_inspection_hook = _hook_knob("add_stages_inspection_hook")

    def __init__(self):
        super().__init__()
        self.__dict__.update(_launch_enter_hook=HookChain(on_change=_sync_hooks),
                             _launch_exit_hook=HookChain(reversed=True, on_change=_sync_hooks),
                             _kernel_load_start_hook=HookChain(on_change=_sync_hooks),
                             _kernel_load_end_hook=HookChain(reversed=True, on_change=_sync_hooks),
                             _jit_cache_hook=None, _jit_post_compile_hook=None, _add_stages_inspection_hook=None)


class language_knobs(base_knobs):
    fp32_default = env_opt_str("TRITON_F32_DEFAULT")
    default_fp_fusion = env_bool("TRITON_DEFAULT_FP_FUSION", True, tessera="TESSERA_DEFAULT_FP_FUSION")

    def _changed(self):
        _jit_default_fp_fusion()


def _jit_default_fp_fusion():
    # tessera.jit reads TESSERA_DEFAULT_FP_FUSION when imported; a knob
    # set later reaches it here.
    import importlib
    jit = importlib.import_module("tessera.jit")
    jit._DEFAULT_FP_FUSION = bool(language.default_fp_fusion)


class nvidia_knobs(base_knobs):
    ptxas = env_nvidia_tool("ptxas", tessera="TESSERA_PTXAS")
    cuobjdump = env_nvidia_tool("cuobjdump")
    nvdisasm = env_nvidia_tool("nvdisasm")
    dump_nvptx = env_bool("NVPTX_ENABLE_DUMP")
    disable_ptxas_opt = env_bool("DISABLE_PTXAS_OPT")
    ptxas_options = env_opt_str("PTXAS_OPTIONS")
    mock_ptx_version = env_opt_str("TRITON_MOCK_PTX_VERSION")
    dump_ptxas_log = env_bool("TRITON_DUMP_PTXAS_LOG")
    libdevice_path = env_opt_str("TRITON_LIBDEVICE_PATH")
    # Triton's is the directory of libcuda.so.1, Tessera's the library itself.
    libcuda_path = env_opt_str("TRITON_LIBCUDA_PATH", tessera="TESSERA_LIBCUDA",
                               to_env=lambda d: os.path.join(d, "libcuda.so.1") if os.path.isdir(d) else d)


class amd_knobs(base_knobs):
    use_buffer_ops = env_bool("AMDGCN_USE_BUFFER_OPS", True)
    use_buffer_atomics = env_bool("AMDGCN_USE_BUFFER_ATOMICS", True)
    buffer_ops_analyze_small_tensor_range = env_bool("AMDGCN_ANALYZE_SMALL_TENSOR_RANGE")
    dump_amdgcn = env_bool("AMDGCN_ENABLE_DUMP")
    libhip_path = env_opt_str("TRITON_LIBHIP_PATH")
    use_block_pingpong = env_opt_bool("TRITON_HIP_USE_BLOCK_PINGPONG")
    use_in_thread_transpose = env_opt_bool("TRITON_HIP_USE_IN_THREAD_TRANSPOSE")
    use_async_copy = env_bool("TRITON_HIP_USE_ASYNC_COPY")
    scalarize_packed_fops = env_bool("AMDGCN_SCALARIZE_PACKED_FOPS")


class proton_knobs(base_knobs):
    disable = env_bool("TRITON_PROTON_DISABLE")
    cupti_lib_dir = env_opt_str("TRITON_CUPTI_LIB_PATH")
    enable_nvtx = env_bool("TRITON_ENABLE_NVTX", True)


class build_knobs(base_knobs):
    cc = env_opt_str("CC")
    cudacrt_path = env_opt_str("TRITON_CUDACRT_PATH")
    cudart_path = env_opt_str("TRITON_CUDART_PATH")


class redis_knobs(base_knobs):
    key_format = env_str("TRITON_REDIS_KEY_FORMAT", "triton:{key}:{filename}")
    host = env_str("TRITON_REDIS_HOST", "localhost")
    port = env_int("TRITON_REDIS_PORT", 6379)


cache = cache_knobs()
compilation = compilation_knobs()
autotuning = autotuning_knobs()
runtime = runtime_knobs()
language = language_knobs()
nvidia = nvidia_knobs()
amd = amd_knobs()
proton = proton_knobs()
build = build_knobs()
redis = redis_knobs()


_GROUPS = (cache, compilation, autotuning, runtime, language, nvidia, amd, proton, build, redis)


def apply_environment():
    """Triton's variables in the environment set Tessera's that are unset
    (tessera.compat.install() calls this): TRITON_CACHE_DIR=... is then
    where Tessera caches."""
    for group in _GROUPS:
        for knob in group.knob_descriptors.values():
            if knob.tessera and knob.tessera != knob.key and knob.key in os.environ \
                    and knob.tessera not in os.environ:
                os.environ[knob.tessera] = knob._to_env(knob._read(os.environ[knob.key]))
    _jit_default_fp_fusion()


def refresh_knobs():
    """Forgets every value set: each knob reads its variable again."""
    for group in _GROUPS:
        group.reset()
