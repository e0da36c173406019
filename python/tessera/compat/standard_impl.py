"""Triton's triton.language.standard helpers that are @jit functions of
their own, not language builtins (sort_impl), written in the language.

Layer 4, api (python/tessera/__init__.py lists the layers)."""

import tessera.language as tl
from ..jit import jit


@jit
def sort_impl(x, k: tl.constexpr = None, dim: tl.constexpr = None, descending: tl.constexpr = 0):
    """x sorted along its last dimension, or its k smallest (k largest when
    descending) elements in order: Triton's bitonic sort_impl."""
    if k is None:
        return tl.sort(x, dim=dim, descending=descending)
    else:
        return tl.topk(x, k, dim=dim, descending=descending)
