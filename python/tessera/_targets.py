"""What the target registry (_C.targets(), libtessera's one table of targets)
says about devices: which target a device's memory means, which device a
target runs on, which device a PyTorch or DLPack tensor lives on. Nothing
else in the package knows target names.

Devices are named by their runtime backend: "cpu" (the host backend),
"cuda:N", "hip:N", "level_zero:N", ...

Layer 1, targets (python/tessera/__init__.py lists the layers).
"""

import functools

from . import _C


def _flavours():
    for row in _C.targets():
        for flavour in row.flavours:
            yield row, flavour


def backend_of(target):
    """The runtime backend that runs `target`'s code ("cuda" for "nvptx")."""
    return _C.find_target(target)[1].backend


@functools.lru_cache(maxsize=None)
def flavour_of_backend(backend):
    """(row, flavour) of the first flavour whose code `backend` runs."""
    for row, flavour in _flavours():
        if flavour.backend == backend:
            return row, flavour
    raise _C.TesseraError(_C.ERROR_INVALID_ARGUMENT, "no target runs on backend %r" % (backend,))


def timer_of(target):
    """How `target`'s kernels are timed (the registry's timer column):
    "host_clock" where they run in the caller's thread, "torch_events",
    "device_timestamps" or "host_clock_synchronized"."""
    return _C.find_target(target)[1].timer


@functools.lru_cache(maxsize=None)
def specializes_pointer_range(target):
    """Whether launches for `target` mark pointers into allocations under
    2 GiB (":r32"), which its code may address with 32-bit offsets."""
    return _C.find_target(target)[0].specializes_pointer_range


@functools.lru_cache(maxsize=None)
def target_of_device(device):
    """The target whose code runs on `device` ("cuda:0" -> "nvptx", "hip:0" ->
    "amdgpu"); None (no device at all) means the host."""
    backend = _C.parse_device(device)[0] if device else _C.HOST
    for row, flavour in _flavours():
        if flavour.backend == backend:
            return row.name if flavour is row.flavours[0] else "%s:%s" % (row.name, flavour.name)
    raise _C.TesseraError(_C.ERROR_INVALID_ARGUMENT, "no target runs on device %r" % (device,))


def torch_build_matches(flavour, torch):
    """Whether `torch` (a PyTorch module or None) is a build whose
    flavour.torch_device means this flavour. Without torch to ask, the
    first flavour in the table's order wins."""
    version = getattr(torch, "version", None)
    return not flavour.torch_build or version is None or bool(getattr(version, flavour.torch_build, None))


def device_of_torch(kind, index, torch):
    """The device ("cpu", "cuda:1", "hip:0"...) of memory PyTorch places on
    device type `kind`, index `index`: a ROCm build's "cuda" is a hip device."""
    for _, flavour in _flavours():
        if flavour.torch_device == kind and torch_build_matches(flavour, torch):
            return _C.device_label(flavour.backend, index)
    known = sorted({f.torch_device for _, f in _flavours() if f.torch_device})
    raise TypeError("tensors on %r devices cannot be passed to a Tessera kernel (PyTorch device types with a "
                    "target: %s)" % (kind, ", ".join(known)))


@functools.lru_cache(maxsize=None)
def device_of_dlpack(device_type, device_id):
    """The device of DLPack memory of `device_type`, or None when no target
    takes it."""
    for _, flavour in _flavours():
        if device_type in flavour.dlpack_devices:
            return _C.device_label(flavour.backend, device_id)
    return None


@functools.lru_cache(maxsize=None)
def dlpack_of_backend(backend):
    """The DLPack device type of a backend's memory (kDLCUDA for "cuda")."""
    for _, flavour in _flavours():
        if flavour.backend == backend:
            return flavour.dlpack_devices[0]
    raise ValueError("no target runs on backend %r" % (backend,))


@functools.lru_cache(maxsize=None)
def torch_device_of(device):
    """(PyTorch device type, index) of a device whose flavour has one and
    is not the host ("cuda:1" -> ("cuda", 1)); None otherwise."""
    backend, index = _C.parse_device(device)
    for _, flavour in _flavours():
        if flavour.backend == backend and flavour.torch_device and backend != _C.HOST:
            return flavour.torch_device, index
    return None


def preferred():
    """(target, backend) of every target's default flavour, most preferred
    first: devices before the host, then in the table's order."""
    rows = [(row.name, row.flavours[0].backend) for row in _C.targets()]
    return sorted(rows, key=lambda r: r[1] == _C.HOST)


def default_target():
    """The first target this build can compile for whose device is present,
    leaving out the flavours a launch picks only when asked (the registry's
    explicit_only: Vulkan is everywhere Mesa is, lavapipe being a CPU)."""
    for target, backend in preferred():
        if not _C.target_available(target) or _C.find_target(target)[1].explicit_only:
            continue
        try:
            _C.get_device(backend)
        except _C.TesseraError:
            continue
        return target
    return target_of_device(None)
