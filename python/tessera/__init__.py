"""Tessera: Triton-compatible kernels compiled by Tessera's compiler.

    import tessera
    import tessera.language as tl

    @tessera.jit
    def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr): ...

    add_kernel[(tessera.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)

Arguments: numpy arrays and torch tensors, anything with
__cuda_array_interface__, __array_interface__ or __dlpack__, and tessera's
own arrays (tessera.empty/zeros/from_numpy(..., device=...)). The
arguments' device picks the target through the target registry (a CUDA
tensor -> nvptx, a ROCm one -> amdgpu) unless @tessera.jit(target=...) says
otherwise; ``tessera targets`` lists the targets and their names.

The package is built in layers; a module imports only from its own layer
and those below it, and no two modules import each other, directly or
through others (tests/python/test_package_layers.py checks both). Each
module's opening comment names its layer.

    4 api       this package's namespace; tessera.compat (Triton's names),
                tessera.bench, tessera.conformance
    3 launch    jit (JITFunction, kernel[grid]), the launch fast lane
                (_launch), autotune, testing, profiler
    2 compile   argument specialization (_specialize), the kernel's module
                text (_source), compiler (compiling without a launch),
                checked mode, reinterpret
    1 targets   the target registry's answers about devices (_targets),
                tessera arrays, runtime.driver
    0 binding   the C binding (_C: libtessera through ctypes, from the
                declarations generated out of tessera.h, _capi), DLPack
                structures, and the pure-Python modules that import nothing
                of Tessera: tessera.language, tessera.tools

Layer 4, api.
"""

from . import compiler, language, runtime, testing
from ._array import Array, empty, from_numpy, zeros
from ._reinterpret import TensorWrapper, reinterpret
from ._C import CompilationError, CompileTimeAssertionFailure, DeviceAssertionError, OutOfResources, TesseraError
from .autotune import Autotuner, Config, Heuristics, autotune, heuristics
from .compiler import compile
from .jit import ConstexprFunction, JITFunction, constexpr_function, jit

__version__ = "0.1.0"

__all__ = ["jit", "JITFunction", "default_target", "autotune", "Autotuner", "Config", "heuristics", "Heuristics", "cdiv",
           "next_power_of_2", "testing", "language", "CompilationError", "CompileTimeAssertionFailure", "DeviceAssertionError", "OutOfResources",
           "TesseraError", "set_allocator", "TensorWrapper", "reinterpret", "Array", "empty", "zeros", "from_numpy", "compile", "compiler",
           "constexpr_function", "ConstexprFunction"]


_allocator = None


def set_allocator(allocator):
    """Triton's hook for kernels that need global scratch memory at launch
    (allocator(size, alignment, stream) -> a tensor). Tessera's kernels need
    none, so it is kept (for code that reads it back) and never called."""
    global _allocator
    if allocator is not None and not callable(allocator):
        raise TypeError("set_allocator takes a function (size, alignment, stream) -> tensor, or None")
    _allocator = allocator


def cdiv(x, y):
    """Ceiling division: the number of blocks of `y` covering `x`."""
    return (x + y - 1) // y


def next_power_of_2(n):
    """The smallest power of two >= n (1 for n <= 1)."""
    n = int(n)
    return 1 if n <= 1 else 1 << (n - 1).bit_length()


def default_target():
    """The first target (of the registry: ``tessera targets``) this build can
    compile for whose device is present; GPUs before the host CPU."""
    from . import _targets
    return _targets.default_target()
