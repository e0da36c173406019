"""tl.extra.hip: Triton's AMD extras. Its libdevice is
tessera.language.extra.libdevice, which every target implements.
memrealtime() -> int64 reads the constant-rate real-time counter
(s_memrealtime: 100 MHz ticks on CDNA; NVIDIA's %globaltimer and the host's
clock, in nanoseconds, elsewhere).

Layer 0, binding (python/tessera/__init__.py lists the layers)."""

from . import libdevice  # noqa: F401
from ..._stubs import stub as _stub

memrealtime = _stub("extra.hip.memrealtime", __name__)
__all__ = ["libdevice", "memrealtime"]
