"""Triton's ``triton.runtime`` host API under Tessera: ``driver.active``
(the device kernels run on, its target and its properties).

Layer 1, targets (python/tessera/__init__.py lists the layers)."""
from . import driver

__all__ = ["driver"]
