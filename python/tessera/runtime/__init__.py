"""Triton's ``triton.runtime`` host API under Tessera: ``driver.active``
(the device kernels run on, its target and its properties)."""
from . import driver

__all__ = ["driver"]
