"""Triton's triton.language.target_info: what a kernel may ask at compile
time about the device it is compiled for, as constexpr functions over the
active driver's target (GPUTarget("cuda", 90, 32) on an H100, ("cpu", "cpu",
1) on the host).

    from triton.language.target_info import cuda_capability_geq
    if cuda_capability_geq(9, 0): ...     # inside a kernel

Layer 4, api (python/tessera/__init__.py lists the layers)."""

from ..jit import constexpr_function
from ..language._stubs import TRITON_BUILTIN
from ..runtime import driver

__all__ = ["current_target"]


def current_target():
    """The active driver's GPUTarget, or None where no driver is active."""
    try:
        active = driver.active
        return active.get_current_target()
    except RuntimeError:
        return None


setattr(current_target, TRITON_BUILTIN, True)


@constexpr_function
def is_cuda():
    target = current_target()
    return target is not None and target.backend == "cuda"


@constexpr_function
def cuda_capability_geq(major, minor=0):
    """Whether the CUDA device's compute capability is at least major.minor
    (False off CUDA)."""
    target = current_target()
    if target is None or target.backend != "cuda":
        return False
    return int(target.arch) >= major * 10 + minor


@constexpr_function
def is_hip():
    target = current_target()
    return target is not None and target.backend == "hip"


@constexpr_function
def is_hip_cdna3():
    target = current_target()
    return target is not None and target.arch == "gfx942"


@constexpr_function
def is_hip_cdna4():
    target = current_target()
    return target is not None and target.arch == "gfx950"
