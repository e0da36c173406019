"""tessera.language.extra.libdevice: stubs for the math functions of
Triton's libdevice that Tessera implements on every target (the frontend
implements them: frontend/Builtins.cpp). Import them as a module
(``libdevice.tanh(x)``) or by name (``from ...libdevice import tanh``)."""

from .. import _stub

_NAMES = """
abs ceil floor exp exp2 log log2 cos sin sqrt sqrt_rn rsqrt erf fma div_rn fdiv umulhi
max min maximum minimum clamp sigmoid
tanh sinh cosh tan asin acos atan asinh acosh atanh exp10 expm1 log10 log1p cbrt erfc lgamma tgamma
trunc round rint
pow atan2 hypot fmod copysign
""".split()

for _name in _NAMES:
    globals()[_name] = _stub("extra.libdevice." + _name, __name__)
__all__ = list(_NAMES)
del _name
