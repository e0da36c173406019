"""tl.extra.cuda: Triton's name for the NVIDIA libraries; its libdevice is
tessera.language.extra.libdevice, which every target implements."""

from . import libdevice  # noqa: F401
