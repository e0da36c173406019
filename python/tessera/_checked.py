"""The checked mode (``@tessera.jit(debug=True)``, ``kernel[grid](..., debug=True)``
or ``TESSERA_DEBUG=1``): every load, store and atomic checks its addresses
against the buffer of the pointer argument they come from, and signed
integer add, sub and mul narrower than 64 bits check for overflow, as
Triton's debug mode does (the compiler's check-bounds pass,
docs/checked-mode.md). A checked kernel takes, after its
own arguments, the byte size of each pointer argument's buffer and a report
buffer; the first access out of bounds is skipped and reported, and the
launch raises OutOfBoundsError naming the kernel, the access, the argument,
the source location, the offset and the program.

Layer 2, compile (python/tessera/__init__.py lists the layers)."""

import ctypes
import os
import sys

from . import _C, _source

REPORT_SLOTS = 10  # TESSERA_CHECK_REPORT_SLOTS
_ACCESS = {1: "load", 2: "store", 3: "atomic"}


class OutOfBoundsError(_C.TesseraError, IndexError):
    """A checked kernel accessed memory outside an argument's buffer."""


class IntegerOverflowError(_C.TesseraError, OverflowError):
    """A checked kernel's signed add, sub or mul did not fit its type."""


def enabled(launch_option, decorator_option):
    """Whether a launch is checked: its own debug= option, else the
    decorator's, else TESSERA_DEBUG."""
    for option in (launch_option, decorator_option):
        if option is not None:
            return bool(option)
    return os.environ.get("TESSERA_DEBUG", "") not in ("", "0")


def _span(shape, strides, itemsize):
    """Bytes from an array's first element to the end of its last; None when
    a stride is negative (elements lie before the pointer: not checked)."""
    if any(n == 0 for n in shape):
        return 0
    end = itemsize
    for n, s in zip(shape, strides):
        if s < 0:
            return None
        end += (n - 1) * s
    return end


def buffer_bytes(value):
    """The byte size of the memory a pointer argument may reach, or -1 when
    it is not known (the argument is then not checked)."""
    span = None
    numpy = sys.modules.get("numpy")
    if numpy is not None and isinstance(value, numpy.ndarray):
        span = _span(value.shape, value.strides, value.itemsize)
    elif hasattr(value, "data_ptr") and hasattr(value, "element_size") and hasattr(value, "stride"):  # torch
        size = value.element_size()
        span = _span(tuple(value.shape), tuple(st * size for st in value.stride()), size)
        # A view may reach the rest of its storage (FlagGems' gather reads through an as_strided
        # window of its input): the bound is the storage's end.
        storage = getattr(value, "untyped_storage", None)
        if span is not None and storage is not None:
            span = max(span, storage().nbytes() - value.storage_offset() * size)
    elif hasattr(value, "nbytes") and hasattr(value, "_buffer"):  # tessera.Array (C-contiguous)
        span = value.nbytes
    else:
        interface = getattr(value, "__cuda_array_interface__", None) or getattr(value, "__array_interface__", None)
        if isinstance(interface, dict) and "typestr" in interface:
            itemsize = int(interface["typestr"][2:])  # "<f4": byte order, kind, bytes
            shape = tuple(interface["shape"])
            strides = interface.get("strides")
            if strides is None:  # C-contiguous
                strides, step = [], itemsize
                for n in reversed(shape):
                    strides.insert(0, step)
                    step *= n
            span = _span(shape, tuple(strides), itemsize)
    return -1 if span is None else int(span)


class Reports:
    """One report buffer per device, zeroed, reused while nothing fails."""

    def __init__(self):
        self._buffers = {}

    def buffer(self, device):
        from ._array import zeros
        buf = self._buffers.get(device)
        if buf is None:
            buf = self._buffers[device] = zeros((REPORT_SLOTS,), "int64", device or "cpu")
        return buf

    def read(self, device, stream):
        """The report of the launch just made on `stream` (in stream order),
        zeroed again after a failure."""
        import numpy as np
        buf = self._buffers[device]
        out = np.zeros(REPORT_SLOTS, np.int64)
        buf._buffer.copy_to_host(out.ctypes.data, out.nbytes, stream=stream)
        if out[0]:
            buf.copy_from_numpy(np.zeros(REPORT_SLOTS, np.int64))
        return out


def launch_values(sizes, report):
    """The hidden arguments after the kernel's own."""
    return [ctypes.c_int64(s) for s in sizes] + [ctypes.c_void_p(report.data_ptr())]


def error(kernel_name, report, param_names, sizes, module, filename):
    failures, kind, arg, line, col, offset = (int(x) for x in report[:6])
    pid = tuple(int(x) for x in report[6:9])
    where = module.map_message("%s:%d:%d" % (_source.MODULE_NAME, line, col), filename)
    more = "" if failures == 1 else " (%d checks failed in all; this is the first)" % failures
    if kind == 4:
        return IntegerOverflowError(
            _C.ERROR_LAUNCH, "kernel '%s': integer overflow at %s: the exact result %d does not fit in a signed "
            "%d-bit integer (program %s)%s" % (kernel_name, where, offset, -arg, pid, more))
    name = param_names[arg] if 0 <= arg < len(param_names) else "#%d" % arg
    size = sizes[arg] if 0 <= arg < len(sizes) and sizes[arg] is not None else -1
    return OutOfBoundsError(
        _C.ERROR_LAUNCH,
        "kernel '%s': out-of-bounds %s through argument '%s' at %s: byte offset %d is outside its %d-byte buffer "
        "(program %s); the access was skipped%s" % (
            kernel_name, _ACCESS.get(kind, "access"), name, where, offset, size, pid, more))
