"""tessera.language.math (``tl.math``): stubs for the math functions kernels
call; the frontend implements them (frontend/Builtins.cpp).

Layer 0, binding (python/tessera/__init__.py lists the layers)."""

import sys
import typing

from ._stubs import stub as _stub

core = sys.modules[__package__]  # as Triton's math module, which names the language's core module
T = typing.TypeVar("T")

_NAMES = """
abs ceil floor exp exp2 log log2 cos sin sqrt sqrt_rn rsqrt erf fma div_rn fdiv umulhi
max min maximum minimum clamp sigmoid
""".split()

for _name in _NAMES:
    globals()[_name] = _stub("math." + _name, __name__)
__all__ = list(_NAMES)
del _name
