"""tessera.language.extra.hip.libdevice: Triton's path to AMD's libdevice;
the same functions as tessera.language.extra.libdevice.

Layer 0, binding (python/tessera/__init__.py lists the layers)."""

from ..libdevice import *  # noqa: F401,F403
from ..libdevice import __all__  # noqa: F401
