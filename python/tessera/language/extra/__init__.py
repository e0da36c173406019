"""tl.extra: libraries beyond the core language. ``libdevice`` (also under
Triton's name ``tl.extra.cuda.libdevice``) holds the math functions with
their accurate versions on every target (``tl.exp`` may be approximate on
GPUs; ``libdevice.exp`` is not).

Layer 0, binding (python/tessera/__init__.py lists the layers)."""

from . import libdevice  # noqa: F401
from . import cuda  # noqa: F401
from . import hip  # noqa: F401
