"""tl.extra.hip: Triton's AMD extras. Its libdevice is
tessera.language.extra.libdevice, which every target implements.

Layer 0, binding (python/tessera/__init__.py lists the layers)."""

from . import libdevice  # noqa: F401

__all__ = ["libdevice"]
