"""Running unmodified Triton code on Tessera.

    import tessera.compat; tessera.compat.install()   # then `import triton` is Tessera
    python -m tessera.compat script.py [args...]      # the same, for a whole script
    python -m tessera.compat -m module [args...]      # ... or a module, as python -m
    pytest -p tessera.compat.pytest_plugin            # ... or a test suite (xdist workers too)

install() registers module objects under Triton's names, each backed by
Tessera's module of the same role:

    triton                          tessera (jit, autotune, Config, heuristics, cdiv,
                                    next_power_of_2, testing, language, __version__)
    triton.language, .core,         tessera.language
      .standard, .semantic, .random
    triton.language.math            tessera.language.math
    triton.language.extra           tessera.language.extra
    triton.language.extra.libdevice, .extra.cuda.libdevice, .extra.hip.libdevice
                                    tessera.language.extra.libdevice
    triton.language.extra.cuda, .extra.hip
                                    tessera.language.extra.cuda, tessera.language.extra.hip
    triton.testing                  tessera.testing
    triton.runtime, .runtime.jit    JITFunction, jit (and .autotuner: Autotuner, Config, heuristics)
    triton.runtime.driver           tessera.runtime.driver (driver.active: target, device, properties)
    triton.compile, triton.compiler[.compiler]
                                    tessera.compile, tessera.compiler (ASTSource, CompiledKernel, GPUTarget)
    triton.backends.compiler        GPUTarget
    triton.knobs                    tessera.compat.knobs (Triton's knobs; those Tessera honours
                                    set its variables)
    triton.runtime.cache            tessera.compat.cache (a file cache for libraries' own files)
    triton.errors, .runtime.errors, .compiler.errors
                                    tessera.compat.errors (Triton's classes over Tessera's)

Every public name of Triton's runtime modules (triton_api.txt, read from
Triton's sources by tools/triton_inventory.py; docs/triton-api.md) is
present or raises NotProvidedError naming it; a missing module is a
ModuleNotFoundError saying the same.

Kernels see the names the same way (`tl.x`, `libdevice.x`, or bare names
imported from these modules under any alias). torch.compile's Inductor
compiles its generated kernels through triton.compile (compat/compiler.py:
Triton's CompiledKernel and launcher; a CUDA kernel's cubin is left in the
Triton cache, where Inductor's static CUDA launcher finds it) and
triton.backends (compat/backends.py), in this process or in its compile
workers, which import the `triton` of subprocess_path/ (on sys.path while
installed; the workers take this process's sys.path as their PYTHONPATH).
torch's mutation analysis of a user's Triton kernel inside torch.compile,
which walks Triton's IR, reads Tessera's answer instead (triton._C.libtriton.ir
is tessera/_ttir.py; ASTSource.make_ir gives its module of the arguments the
kernel may write). Not covered: Triton's compiler internals (its IR levels
and passes, a backend's MLIR stages; triton._C holds cuBLASLt and that IR
stand-in); and any function the frontend does not implement (a kernel using
one fails to compile with its location).

A real Triton is never replaced behind the user's back: install() refuses
when one is already imported, unless `replace=True`.

Layer 4, api (python/tessera/__init__.py lists the layers).
"""

import functools
import importlib
import importlib.machinery
import os
import sys
import types
import typing

_ALIASES = {
    "triton.language": "tessera.language",
    "triton.language.math": "tessera.language.math",
    "triton.language.extra": "tessera.language.extra",
    "triton.language.extra.libdevice": "tessera.language.extra.libdevice",
    "triton.language.extra.cuda": "tessera.language.extra.cuda",
    "triton.language.extra.cuda.libdevice": "tessera.language.extra.libdevice",
    "triton.language.extra.hip": "tessera.language.extra.hip",
    "triton.language.extra.hip.libdevice": "tessera.language.extra.libdevice",
    "triton.testing": "tessera.testing",
    "triton.tools": "tessera.tools",
    "triton.tools.tensor_descriptor": "tessera.tools.tensor_descriptor",
    "triton.profiler": "tessera.profiler",
    "triton.profiler.viewer": "tessera.profiler.viewer",
    "triton._C": "tessera._C",
    "triton._C.libtriton": "tessera._C.libtriton",
    "triton._C.libtriton.ir": "tessera._ttir",  # what torch's Inductor reads of Triton's MLIR bindings
    "triton.runtime.interpreter": "tessera.interpreter",
    "triton.language.target_info": "tessera.compat.target_info",
    "triton._utils": "tessera.compat.utils",
}

# The Triton whose language Tessera follows, as triton.__version__ reports
# it. Libraries compare it to pick code paths and to refuse Triton releases
# with known code-generation bugs (flash-linear-attention refuses 3.4-3.7.0
# on Hopper for one); those bugs are Triton's, not Tessera's, so
# TESSERA_TRITON_VERSION may name another release for such a library, whose
# own tests then judge the results.
_LANGUAGE_VIEWS = ("triton.language.core", "triton.language.standard", "triton.language.random",
                   "triton.language.semantic")
TRITON_VERSION = os.environ.get("TESSERA_TRITON_VERSION", "3.6.0")

# (module, name) attributes install() added to Tessera's modules (tl.core...).
_added_attributes = []


def _module(name, doc=None, package=False):
    module = types.ModuleType(name, doc)
    # A spec, as imported modules have: importlib.util.find_spec("triton"),
    # which torch calls on CUDA initialization, raises on a module without one.
    module.__spec__ = importlib.machinery.ModuleSpec(name, None, is_package=package)
    if package:
        module.__path__ = []  # submodules resolve through sys.modules
        module.__spec__.submodule_search_locations = []
    module.__tessera_compat__ = True
    return module


def _package(name, doc):
    return _module(name, doc, package=True)


class _helpers:
    """Triton's small runtime helpers, as triton.runtime.jit exports them."""

    @staticmethod
    def get_full_name(fn):
        return "%s.%s" % (fn.__module__, fn.__qualname__)

    @staticmethod
    def is_namedtuple(value):
        return isinstance(value, type) and issubclass(value, tuple) and hasattr(value, "_fields")

    @staticmethod
    def convert_to_tuple_if_list(item):
        """Lists (at any depth, in tuples too) as tuples."""
        if isinstance(item, (list, tuple)) and not hasattr(item, "_fields"):
            return tuple(_helpers.convert_to_tuple_if_list(x) for x in item)
        return item

    @staticmethod
    def find_paths_if(iterable, pred):
        """The index paths (tuples) of the elements of nested lists and
        tuples for which pred(path, element) holds."""
        found = []

        def walk(value, path):
            if isinstance(value, (list, tuple)):
                for i, x in enumerate(value):
                    walk(x, path + (i,))
            elif pred(path, value):
                found.append(path)
        walk(iterable, ())
        return found

    @staticmethod
    def get_iterable_path(iterable, path):
        """The element of nested lists and tuples at an index path."""
        for i in path:
            iterable = iterable[i]
        return iterable


def _jit_fn_file_line(fn):
    """(file, first line of the def) of a @jit function or what wraps one
    (Triton's get_jit_fn_file_line)."""
    base = fn
    while not hasattr(base, "starting_line_number") and hasattr(base, "fn"):
        base = base.fn
    code = base.fn.__code__
    return code.co_filename, base.starting_line_number


def _language_views(triton):
    """triton.language.core, .standard, .random and .semantic: modules of
    their own (Triton's define names tl does not re-export: core.knobs,
    random.tl...) whose other names are tessera.language's."""
    language = importlib.import_module("tessera.language")
    specialization = importlib.import_module("tessera.compat.specialization")
    standard_impl = importlib.import_module("tessera.compat.standard_impl")
    extras = {"core": {"knobs": triton.knobs, "JITCallable": triton.JITFunction},
              "standard": dict({"jit": triton.jit, "constexpr_function": triton.constexpr_function},
                               **{name: getattr(standard_impl, name) for name in ("sort_impl",) + standard_impl.PRIVATE_NAMES}),
              "random": {"jit": triton.jit, "tl": language},
              "semantic": {"tl": language, "T": language.T, "TensorTy": typing.TypeVar("TensorTy"),
                           "IncompatibleTypeErrorImpl": specialization.IncompatibleTypeErrorImpl}}
    views = {}
    for leaf, names in extras.items():
        view = _module("triton.language." + leaf, "Triton's triton.language.%s: tessera.language's names." % leaf)
        view.__getattr__ = functools.partial(getattr, language)
        view.__dict__.update(names)
        views[view.__name__] = view
    return views


def _triton_module():
    import tessera
    triton = _package("triton", "Tessera standing in for Triton (tessera.compat).")
    for name in tessera.__all__:
        setattr(triton, name, getattr(tessera, name))
    triton.__version__ = TRITON_VERSION + "+tessera." + tessera.__version__
    triton.TritonError = tessera.TesseraError  # CompilationError derives from it, as in Triton
    triton.language = tessera.language
    triton.testing = tessera.testing
    runtime = _package("triton.runtime", "Tessera's runtime under Triton's name.")
    runtime.jit = _module("triton.runtime.jit")
    runtime.jit.JITFunction, runtime.jit.jit = tessera.JITFunction, tessera.jit
    reinterpreting = importlib.import_module("tessera._reinterpret")
    for name in reinterpreting.__all__:
        setattr(runtime.jit, name, getattr(reinterpreting, name))
    runtime.jit.KernelInterface = runtime.KernelInterface = importlib.import_module("tessera.jit").KernelInterface
    runtime.autotuner = _module("triton.runtime.autotuner")
    for name in ("Autotuner", "Config", "autotune", "heuristics", "Heuristics", "OutOfResources"):
        setattr(runtime.autotuner, name, getattr(tessera, name))
    errors = importlib.import_module("tessera.compat.errors")
    jit_module = importlib.import_module("tessera.jit")
    runtime.errors = _module("triton.runtime.errors")
    for name in ("TritonError", "OutOfResources", "PTXASError", "AutotunerError", "InterpreterError"):
        setattr(runtime.errors, name, getattr(errors, name))
    triton.errors = _module("triton.errors")
    triton.errors.TritonError = errors.TritonError
    triton.KernelInterface = jit_module.KernelInterface
    triton.InterpreterError = errors.InterpreterError
    runtime.JITFunction, runtime.Autotuner, runtime.Config = tessera.JITFunction, tessera.Autotuner, tessera.Config
    runtime.driver = runtime.jit.driver = runtime.autotuner.driver = tessera.runtime.driver
    for name in ("autotune", "heuristics", "Heuristics", "OutOfResources"):
        setattr(runtime, name, getattr(tessera, name))
    runtime.InterpreterError = errors.InterpreterError
    runtime.reinterpret, runtime.TensorWrapper = tessera.reinterpret, tessera.TensorWrapper
    runtime.autotuner.KernelInterface, runtime.autotuner.JITFunction = jit_module.KernelInterface, tessera.JITFunction
    runtime.autotuner.PTXASError, runtime.autotuner.AutotunerError = errors.PTXASError, errors.AutotunerError
    # What libraries read from triton.runtime.jit besides JITFunction.
    runtime.jit.KernelParam = jit_module.KernelParam
    triton.MockTensor = runtime.MockTensor = runtime.jit.MockTensor = jit_module.MockTensor
    triton.AsyncCompileMode, triton.FutureKernel = jit_module.AsyncCompileMode, jit_module.FutureKernel
    runtime.jit.JITCallable = tessera.JITFunction  # Tessera's one kind of @jit callable
    runtime.jit.TRITON_MODULE = "triton.language"
    runtime.jit.T = typing.TypeVar("T")
    runtime.jit.get_jit_fn_file_line = _jit_fn_file_line
    specialization = importlib.import_module("tessera.compat.specialization")
    for name in ("specialize_impl", "mangle_type", "create_function_from_signature", "compute_cache_key",
                 "DependenciesFinder"):
        setattr(runtime.jit, name, getattr(specialization, name))
    runtime.jit.native_specialize_impl = specialization.specialize_impl
    for name in ("ConstexprFunction", "BoundConstexprFunction", "constexpr_function"):
        setattr(runtime.jit, name, getattr(jit_module, name))
    runtime.cache = importlib.import_module("tessera.compat.cache")
    runtime.RemoteCacheBackend = runtime.cache.RemoteCacheBackend
    runtime.RedisRemoteCacheBackend = runtime.cache.RedisRemoteCacheBackend
    runtime.autotuner.get_cache_manager = runtime.cache.get_cache_manager
    runtime.autotuner.triton_key = runtime.cache.triton_key
    runtime.jit.get_cache_key = runtime.cache.get_cache_key
    for name in ("get_full_name", "is_namedtuple", "convert_to_tuple_if_list", "find_paths_if", "get_iterable_path"):
        setattr(runtime.jit, name, getattr(_helpers, name))
    runtime.jit.GLUON_MODULE = "triton.experimental.gluon.language"
    hooks = importlib.import_module("tessera.compat.hooks")
    runtime.jit.JitFunctionInfo = hooks.JitFunctionInfo
    runtime.jit.serialize_specialization_data = hooks.serialize_specialization_data
    triton.must_use_result = tessera.language.must_use_result
    triton.knobs = importlib.import_module("tessera.compat.knobs")
    runtime.jit.knobs = runtime.autotuner.knobs = triton.knobs
    triton.knobs.apply_environment()
    triton.runtime = runtime
    triton.compile = importlib.import_module("tessera.compat.compiler").compile  # Triton's CompiledKernel
    # triton.compiler[.compiler] and triton.backends[.compiler]: compiling
    # without a launch, and GPUTarget (torch's inductor imports both when it
    # finds a triton package).
    triton.compiler = _package("triton.compiler", "Tessera's compile-only API under Triton's name.")
    triton.compiler.compiler = _module("triton.compiler.compiler")
    for module in (triton.compiler, triton.compiler.compiler):
        for name in tessera.compiler.__all__:
            setattr(module, name, getattr(tessera.compiler, name))
    names = importlib.import_module("tessera.compat.compiler")
    for name in ("knobs", "OutOfResources", "get_cache_manager", "get_dump_manager", "get_override_manager",
                 "get_cache_key", "driver", "get_cache_invalidating_env_vars", "max_shared_mem", "convert_type_repr",
                 "get_sass", "AsmDict", "CompileTimer", "filter_traceback", "LazyDict", "ptx_prototype_pattern",
                 "prototype_pattern", "ptx_arg_type_pattern", "arg_type_pattern", "parse"):
        setattr(triton.compiler.compiler, name, getattr(names, name))
    triton.compiler.LazyDict, triton.compiler.get_cache_key = names.LazyDict, names.get_cache_key
    for module in (triton.compiler, triton.compiler.compiler):  # Triton's CompiledKernel, launchable
        module.compile, module.CompiledKernel = names.compile, names.CompiledKernel
    # What keys torch's compile caches by the compiler's identity.
    triton.compiler.compiler.triton_key = lambda: "tessera-" + tessera.__version__
    triton.compiler.errors = _module("triton.compiler.errors")
    for name in ("TritonError", "CompilationError", "CompileTimeAssertionFailure", "UnsupportedLanguageConstruct"):
        setattr(triton.compiler.errors, name, getattr(errors, name))
    triton.compiler.CompilationError = errors.CompilationError
    triton.backends = _package("triton.backends", "Triton's backend names that Tessera answers.")
    triton.backends.compiler = _module("triton.backends.compiler")
    triton.backends.compiler.GPUTarget = tessera.compiler.GPUTarget
    # Triton's registry of compiler backends, Tessera's under Triton's vendor
    # names: torch checks for "nvidia" (and "amd", "cpu") before compiling.
    backends = importlib.import_module("tessera.compat.backends")
    for name in ("backends", "BaseBackend", "Backend", "T"):
        setattr(triton.backends, name, getattr(backends, name))
    triton.backends.DriverBase = tessera.runtime.driver.DriverBase
    triton.backends.compiler.BaseBackend = backends.BaseBackend
    triton.backends.compiler.Language = backends.Language
    for name in ("make_backend", "backends", "BaseBackend", "Language"):
        setattr(triton.compiler.compiler, name, getattr(backends, name))
    triton.compiler.make_backend = backends.make_backend
    views = _language_views(triton)
    return triton, {**views, "triton.runtime": runtime, "triton.runtime.jit": runtime.jit, "triton.errors": triton.errors,
                    "triton.knobs": triton.knobs, "triton.runtime.cache": runtime.cache,
                    "triton.runtime.autotuner": runtime.autotuner,
                    "triton.runtime.errors": runtime.errors, "triton.runtime.driver": runtime.driver,
                    "triton.compiler": triton.compiler, "triton.compiler.compiler": triton.compiler.compiler,
                    "triton.compiler.errors": triton.compiler.errors,
                    "triton.backends": triton.backends, "triton.backends.compiler": triton.backends.compiler}


_INVENTORY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "triton_api.txt")
# (module, previous __getattr__ or None) for each module install() gave one.
_hooked = []


def triton_api():
    """{Triton module: [public name]} of the Triton release followed
    (triton_api.txt, read from its sources by tools/triton_inventory.py)."""
    names = {}
    with open(_INVENTORY) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                module, name = line.split()
                names.setdefault(module, []).append(name)
    return names


class NotProvidedError(AttributeError):
    """A name of Triton's API that Tessera does not provide."""


def _not_provided(module, known, previous):
    """A module __getattr__: Triton's names this module lacks raise an error
    naming them as not provided; other names fail as they would have."""
    def __getattr__(name):
        if previous is not None:
            try:
                return previous(name)
            except AttributeError:
                pass
        owner = known.get(name)
        if owner is not None:
            raise NotProvidedError("%s.%s is part of Triton %s's API, which tessera.compat does not provide (yet): "
                                   "see docs/triton-api.md" % (owner, name, TRITON_VERSION))
        raise AttributeError("module %r has no attribute %r" % (module.__name__, name))
    return __getattr__


class _MissingModules:
    """A meta path finder: importing a module of Triton's surface that
    Tessera does not provide is a ModuleNotFoundError that says so (code
    that falls back on ImportError, as for an older Triton, still does)."""

    def __init__(self, api):
        self.api = api

    def find_spec(self, name, path=None, target=None):
        if name in self.api and name not in sys.modules:
            raise ModuleNotFoundError("%s is part of Triton %s's API, which tessera.compat does not provide (yet): "
                                      "see docs/triton-api.md" % (name, TRITON_VERSION), name=name)
        return None


_finder = None


def _hook_missing_names(api):
    """Every module of Triton's surface answers its names: each module
    install() made or aliased gets a __getattr__ for the names it lacks,
    and importing one it lacks says so (_MissingModules)."""
    global _finder
    _finder = _MissingModules(api)
    sys.meta_path.insert(0, _finder)
    known = {}  # module object -> {name: Triton module}
    for name in api:
        module = sys.modules.get(name)
        if module is None:
            continue  # _MissingModules answers its import
        table = known.setdefault(module, {})
        for n in api[name]:
            table.setdefault(n, name)
    for module, table in known.items():
        previous = module.__dict__.get("__getattr__")
        _hooked.append((module, previous))
        module.__getattr__ = _not_provided(module, table, previous)


# On sys.path while installed: a `triton` package that installs tessera.compat,
# for Python processes that take this one's sys.path as their PYTHONPATH
# (Inductor's compile workers: subprocess_path/triton/__init__.py).
_SUBPROCESS_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "subprocess_path")

# (class, its own __module__) for each class _name_classes_as_triton renamed.
_renamed_classes = []


def _name_classes_as_triton(api):
    """tessera.language's classes that Triton defines in triton.language.core
    (constexpr, dtype, tensor...) name that module while Tessera stands in
    for Triton: code generators write a class's `__module__.__name__` into
    the modules they generate, which import triton and not tessera
    (Inductor annotates a user kernel's constexpr globals so:
    `_MODE: triton.language.core.constexpr = tl.constexpr(0)`)."""
    language = importlib.import_module("tessera.language")
    for name in api.get("triton.language.core", ()):
        cls = language.__dict__.get(name)
        if isinstance(cls, type) and cls.__name__ == name and cls.__module__.startswith("tessera."):
            _renamed_classes.append((cls, cls.__module__))
            cls.__module__ = "triton.language.core"


def installed():
    """Whether `import triton` gives Tessera now."""
    return getattr(sys.modules.get("triton"), "__tessera_compat__", False)


def install(replace=False):
    """Makes `import triton` (and the submodules above) resolve to Tessera."""
    if installed():
        return sys.modules["triton"]
    real = sys.modules.get("triton")
    if real is not None and not replace:
        raise RuntimeError("a real Triton (%s) is already imported; tessera.compat.install(replace=True) "
                           "would hide it from code that imports triton from now on" % getattr(real, "__file__", "?"))
    for name in [n for n in sys.modules if n == "triton" or n.startswith("triton.")]:
        del sys.modules[name]
    triton, extra = _triton_module()
    sys.modules["triton"] = triton
    sys.modules.update(extra)
    for alias, target in _ALIASES.items():
        sys.modules[alias] = importlib.import_module(target)
    for alias in list(_ALIASES) + list(_LANGUAGE_VIEWS):  # attributes too: torch reads triton.language.core.view
        parent, _, leaf = alias.rpartition(".")
        if not hasattr(sys.modules[parent], leaf):
            setattr(sys.modules[parent], leaf, sys.modules[alias])
            _added_attributes.append((sys.modules[parent], leaf))
    api = triton_api()
    _hook_missing_names(api)
    _name_classes_as_triton(api)
    if _SUBPROCESS_PATH not in sys.path:
        sys.path.insert(0, _SUBPROCESS_PATH)
    return triton


def uninstall():
    """Undoes install() (a real Triton imported afterwards is Triton again)."""
    global _finder
    if _finder in sys.meta_path:
        sys.meta_path.remove(_finder)
    _finder = None
    while _hooked:
        module, previous = _hooked.pop()
        if previous is None:
            module.__dict__.pop("__getattr__", None)
        else:
            module.__getattr__ = previous
    while _SUBPROCESS_PATH in sys.path:
        sys.path.remove(_SUBPROCESS_PATH)
    while _renamed_classes:
        cls, module = _renamed_classes.pop()
        cls.__module__ = module
    while _added_attributes:
        module, leaf = _added_attributes.pop()
        if hasattr(module, leaf):
            delattr(module, leaf)
    for name in [n for n in sys.modules if n == "triton" or n.startswith("triton.")]:
        del sys.modules[name]
