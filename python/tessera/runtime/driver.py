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
import abc
import collections
import re
import sys

from .. import _C, _targets

GPUTarget = collections.namedtuple("GPUTarget", "backend arch warp_size")
GPUTarget.__doc__ = """What kernels compile for, as Triton's GPUTarget: `backend` a target
name or alias ("cuda", "hip", "cpu"...), `arch` Triton's architecture (90
or "sm_90"; "gfx942"), `warp_size` the threads of a warp (32, 64; 1 on the
host)."""
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


class DriverBase(abc.ABC):
    """Triton's driver interface, for libraries that subclass it (and
    set_active their own): what a driver must answer."""

    @classmethod
    @abc.abstractmethod
    def is_active(cls):
        """Whether this driver's devices are usable here."""

    @abc.abstractmethod
    def get_current_target(self):
        """The GPUTarget kernels compile for."""

    @abc.abstractmethod
    def get_active_torch_device(self):
        """The torch.device tensors for this driver live on."""

    @abc.abstractmethod
    def get_benchmarker(self):
        """The do_bench-like function timing kernels on it."""


class _ActiveDriver(DriverBase):
    """Tessera's driver, `driver.active` unless set_active replaced it: the
    active device is torch's current CUDA device when torch has one, else
    the device of tessera.default_target()."""

    def __init__(self):
        self.utils = _Utils(self)

    def get_device_interface(self):
        """torch's module for the device (torch.cuda), as Triton's GPU drivers
        return it."""
        import torch
        return torch.cuda

    def get_benchmarker(self):
        """tessera.testing.do_bench (which testing, a layer above, sets here)."""
        return benchmarker

    def get_empty_cache_for_benchmark(self):
        """A buffer whose zeroing evicts the GPU's L2 (256 MB, on the active
        torch device)."""
        import torch
        return torch.empty(256 * 1024 * 1024 // 4, dtype=torch.int, device=self.get_active_torch_device())

    def clear_cache(self, cache):
        """Zeroes the buffer get_empty_cache_for_benchmark made."""
        cache.zero_()

    def _backend(self):
        if _torch_cuda() is not None:
            return _targets.backend_of(_targets.target_of_device("cuda:0"))
        return _targets.backend_of(_targets.default_target())

    @classmethod
    def is_active(cls):
        """True: Tessera's runtime answers for every device."""
        return True

    def get_current_device(self):
        """The active device's index: torch's current CUDA device, else 0."""
        torch = _torch_cuda()
        return torch.cuda.current_device() if torch is not None else 0

    def get_active_torch_device(self):
        """torch.device("cuda", index) when torch has a GPU, else
        torch.device("cpu"); the string "cpu" without torch."""
        torch = _torch_cuda()
        if torch is not None:
            return torch.device("cuda", torch.cuda.current_device())
        try:
            import torch
            return torch.device("cpu")
        except ImportError:
            return "cpu"

    def get_current_target(self):
        """The GPUTarget kernels compile for on the active device:
        GPUTarget("cuda", 90, 32) on an H200 (arch: the compute
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
        """torch's current CUDA stream on `device` (None: the current
        device) as its native handle; 0 (the default stream) without a torch
        GPU."""
        torch = _torch_cuda()
        if torch is None:
            return 0
        return torch.cuda.current_stream(device).cuda_stream



class DriverConfig:
    """Triton's `triton.runtime.driver.driver`: the default driver (Tessera's)
    and the active one, which set_active replaces (this module's `active`
    follows it)."""

    def __init__(self):
        self._default = _ActiveDriver()
        self._active = None

    @property
    def default(self):
        """Tessera's driver."""
        return self._default

    @property
    def active(self):
        """The driver set_active set, else the default."""
        return self._active if self._active is not None else self._default

    def set_active(self, driver):
        """Makes `driver` (a DriverBase) the active one, and this module's
        `active` with it; None returns to the default."""
        global active
        self._active = driver
        active = self.active

    def reset_active(self):
        """Makes the default driver the active one again."""
        self.set_active(None)


driver = DriverConfig()
active = driver.active
# `triton.runtime.driver` is Triton's DriverConfig object; here it is this
# module, which answers the same calls.
default, set_active, reset_active = driver.default, driver.set_active, driver.reset_active
# The active driver's timing function: tessera.testing.do_bench, set when
# tessera.testing is imported (it imports this module, not the reverse).
benchmarker = None
# Triton's registry of backends' drivers by name: Tessera's runtime answers
# for every device itself, so there are none to choose from.
backends = {}
