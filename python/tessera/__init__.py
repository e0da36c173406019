"""Tessera: Triton-compatible kernels compiled by Tessera's compiler.

    import tessera
    import tessera.language as tl

    @tessera.jit
    def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr): ...

    add_kernel[(tessera.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)

Arrays are numpy arrays (or anything with __array_interface__, data_ptr()
or __dlpack__) for the host CPU target.
"""

from . import language, testing
from ._C import CompilationError, DeviceAssertionError, TesseraError
from .autotune import Autotuner, Config, Heuristics, autotune, heuristics
from .jit import JITFunction, jit

__version__ = "0.1.0"

__all__ = ["jit", "JITFunction", "default_target", "autotune", "Autotuner", "Config", "heuristics", "Heuristics", "cdiv",
           "next_power_of_2", "testing", "language", "CompilationError", "DeviceAssertionError", "TesseraError"]


def cdiv(x, y):
    """Ceiling division: the number of blocks of `y` covering `x`."""
    return (x + y - 1) // y


def next_power_of_2(n):
    """The smallest power of two >= n (1 for n <= 1)."""
    n = int(n)
    return 1 if n <= 1 else 1 << (n - 1).bit_length()


# (compile target, runtime backend that runs its code), most preferred first.
_TARGETS = [("nvptx", "cuda"), ("amdgpu", "hip"), ("spirv", "level_zero"), ("cpu", "host")]


def default_target():
    """The first target this build can compile for whose device is present."""
    from . import _C
    for target, backend in _TARGETS:
        if not _C.target_available(target):
            continue
        try:
            _C.get_device(backend)
        except _C.TesseraError:
            continue
        return target
    return "cpu"
