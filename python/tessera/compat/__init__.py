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
    triton.language.extra.libdevice, .extra.cuda, .extra.cuda.libdevice
                                    tessera.language.extra.libdevice
    triton.testing                  tessera.testing
    triton.runtime, .runtime.jit    JITFunction, jit (and .autotuner: Autotuner, Config, heuristics)
    triton.runtime.driver           tessera.runtime.driver (driver.active: target, device, properties)
    triton.compile, triton.compiler[.compiler]
                                    tessera.compile, tessera.compiler (ASTSource, CompiledKernel, GPUTarget)
    triton.backends.compiler        GPUTarget

Kernels see the names the same way (`tl.x`, `libdevice.x`, or bare names
imported from these modules under any alias). Not covered: Triton's
compiler internals (its IR levels, passes and backends' classes, `triton._C`),
so torch.compile cannot trace a function that launches Triton kernels
(torch's inductor analyses them in Triton's IR and generates Triton code),
and any function the frontend does not implement
(a kernel using one fails to compile with its location).

A real Triton is never replaced behind the user's back: install() refuses
when one is already imported, unless `replace=True`.

Layer 4, api (python/tessera/__init__.py lists the layers).
"""

import importlib
import importlib.machinery
import os
import sys
import types

_ALIASES = {
    "triton.language": "tessera.language",
    "triton.language.core": "tessera.language",
    "triton.language.standard": "tessera.language",
    "triton.language.semantic": "tessera.language",
    "triton.language.random": "tessera.language",
    "triton.language.math": "tessera.language.math",
    "triton.language.extra": "tessera.language.extra",
    "triton.language.extra.libdevice": "tessera.language.extra.libdevice",
    "triton.language.extra.cuda": "tessera.language.extra.cuda",
    "triton.language.extra.cuda.libdevice": "tessera.language.extra.libdevice",
    "triton.testing": "tessera.testing",
    "triton.tools": "tessera.tools",
    "triton.tools.tensor_descriptor": "tessera.tools.tensor_descriptor",
    "triton.profiler": "tessera.profiler",
    "triton.profiler.viewer": "tessera.profiler.viewer",
    "triton._C": "tessera._C",
    "triton._C.libtriton": "tessera._C.libtriton",
}

# The Triton whose language Tessera follows, as triton.__version__ reports
# it. Libraries compare it to pick code paths and to refuse Triton releases
# with known code-generation bugs (flash-linear-attention refuses 3.4-3.7.0
# on Hopper for one); those bugs are Triton's, not Tessera's, so
# TESSERA_TRITON_VERSION may name another release for such a library, whose
# own tests then judge the results.
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
    runtime.errors = _module("triton.runtime.errors")
    runtime.errors.OutOfResources = tessera.OutOfResources
    runtime.JITFunction, runtime.Autotuner, runtime.Config = tessera.JITFunction, tessera.Autotuner, tessera.Config
    runtime.driver = tessera.runtime.driver
    triton.runtime = runtime
    triton.compile = tessera.compile
    # triton.compiler[.compiler] and triton.backends[.compiler]: compiling
    # without a launch, and GPUTarget (torch's inductor imports both when it
    # finds a triton package).
    triton.compiler = _package("triton.compiler", "Tessera's compile-only API under Triton's name.")
    triton.compiler.compiler = _module("triton.compiler.compiler")
    for module in (triton.compiler, triton.compiler.compiler):
        for name in tessera.compiler.__all__:
            setattr(module, name, getattr(tessera.compiler, name))
    # What keys torch's compile caches by the compiler's identity.
    triton.compiler.compiler.triton_key = lambda: "tessera-" + tessera.__version__
    triton.backends = _package("triton.backends", "Triton's backend names that Tessera answers.")
    triton.backends.compiler = _module("triton.backends.compiler")
    triton.backends.compiler.GPUTarget = tessera.compiler.GPUTarget
    # Triton's registry of compiler backends: none of Triton's. torch reads it
    # to decide whether torch.compile may trace Triton kernels on the CPU; it
    # then says so plainly, as tracing them needs Triton's own IR.
    triton.backends.backends = {}
    return triton, {"triton.runtime": runtime, "triton.runtime.jit": runtime.jit,
                    "triton.runtime.autotuner": runtime.autotuner,
                    "triton.runtime.errors": runtime.errors, "triton.runtime.driver": runtime.driver,
                    "triton.compiler": triton.compiler, "triton.compiler.compiler": triton.compiler.compiler,
                    "triton.backends": triton.backends, "triton.backends.compiler": triton.backends.compiler}


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
    for alias in _ALIASES:  # attributes too: torch reads triton.language.core.view
        parent, _, leaf = alias.rpartition(".")
        if not hasattr(sys.modules[parent], leaf):
            setattr(sys.modules[parent], leaf, sys.modules[alias])
            _added_attributes.append((sys.modules[parent], leaf))
    return triton


def uninstall():
    """Undoes install() (a real Triton imported afterwards is Triton again)."""
    while _added_attributes:
        module, leaf = _added_attributes.pop()
        if hasattr(module, leaf):
            delattr(module, leaf)
    for name in [n for n in sys.modules if n == "triton" or n.startswith("triton.")]:
        del sys.modules[name]
