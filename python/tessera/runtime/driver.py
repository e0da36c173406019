"""``tessera.runtime.driver.active``, as Triton's ``triton.runtime.driver.active``:
the active device is torch's current CUDA device when torch has one,
else the device of ``tessera.default_target()``.

    driver.active.get_current_target()          GPUTarget(backend, arch, warp_size)
    driver.active.get_active_torch_device()     torch.device (or a device name without torch)
    driver.active.get_current_device()          the device's index
    driver.active.utils.get_device_properties(index)
        {"multiprocessor_count", "max_shared_mem", "max_num_regs", "warpSize",
         "sm_clock_rate", "mem_clock_rate", "mem_bus_width"}: what the device
        knows of these (the host: multiprocessor_count and warpSize)

Layer 1, targets (python/tessera/__init__.py lists the layers).
"""
import collections
import re
import sys

from .. import _C, _targets

GPUTarget = collections.namedtuple("GPUTarget", "backend arch warp_size")
_PROPERTIES = ("multiprocessor_count", "max_shared_mem", "max_num_regs", "warpSize", "sm_clock_rate",
               "mem_clock_rate", "mem_bus_width")


def _torch_cuda():
    torch = sys.modules.get("torch")
    if torch is None:
        try:
            import torch
        except ImportError:
            return None
    return torch if torch.cuda.is_available() else None


class _Utils:
    def __init__(self, driver):
        self._driver = driver

    def get_device_properties(self, device=None):
        """The properties of device `device` (an index, or a torch.device) of
        the active backend; the ones the device does not have are left out."""
        index = getattr(device, "index", device)
        handle = _C.get_device(self._driver._backend(), index or 0)
        props = {}
        for name in _PROPERTIES:
            try:
                props[name] = _C.device_attribute(handle, name)
            except _C.TesseraError:
                pass
        return props


class _ActiveDriver:
    def __init__(self):
        self.utils = _Utils(self)

    def _backend(self):
        if _torch_cuda() is not None:
            return _targets.backend_of(_targets.target_of_device("cuda:0"))
        return _targets.backend_of(_targets.default_target())

    def is_active(self):
        return True

    def get_current_device(self):
        torch = _torch_cuda()
        return torch.cuda.current_device() if torch is not None else 0

    def get_active_torch_device(self):
        torch = _torch_cuda()
        if torch is not None:
            return torch.device("cuda", torch.cuda.current_device())
        try:
            import torch
            return torch.device("cpu")
        except ImportError:
            return "cpu"

    def get_current_target(self):
        """GPUTarget("cuda", 90, 32) on an H200 (arch: the compute
        capability as a number, as Triton gives it, where the target's
        architectures have the registry's arch_prefix, "sm_"; else the
        device's architecture, "gfx942"); ("cpu", "cpu", 1) on the CPU: the
        backend named as Triton names it (the registry's triton_backend,
        which libraries look up as getattr(torch, backend))."""
        backend = self._backend()
        row, flavour = _targets.flavour_of_backend(backend)
        handle = _C.get_device(backend, self.get_current_device())
        try:
            warp = _C.device_attribute(handle, "warpSize")
        except _C.TesseraError:
            warp = 0
        arch = _C.device_architecture(handle)
        if row.arch_prefix and arch.startswith(row.arch_prefix):
            number = re.match(r"\d*", arch[len(row.arch_prefix):]).group()  # "sm_90a" -> 90
            return GPUTarget(flavour.triton_backend, int(number) if number else 0, warp)
        return GPUTarget(flavour.triton_backend, arch or flavour.triton_backend, warp)

    def get_current_stream(self, device=None):
        torch = _torch_cuda()
        if torch is None:
            return 0
        return torch.cuda.current_stream(device).cuda_stream


active = _ActiveDriver()
