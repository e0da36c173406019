"""tl.extra.cuda: Triton's NVIDIA extras. Its libdevice is
tessera.language.extra.libdevice, which every target implements. globaltimer
and smid read the hardware (the host's clock and core on the CPU),
num_threads and num_warps give the launch's as compile-time ints, and
gdc_wait/gdc_launch_dependents control programmatic dependent launch
(nothing outside NVIDIA sm_90+).

Layer 0, binding (python/tessera/__init__.py lists the layers)."""

from . import libdevice  # noqa: F401
from ..._stubs import stub as _stub

# globaltimer() -> int64 ns; smid() -> int32; num_threads(), num_warps() ->
# compile-time ints; gdc_wait(), gdc_launch_dependents() -> None;
# convert_custom_float8_sm70/sm80(arg, dst_ty, fp_downcast_rounding=None):
# fp8e4b15 <-> fp16/fp32, as arg.to(dst_ty).
_NAMES = ["globaltimer", "smid", "num_threads", "num_warps", "gdc_wait", "gdc_launch_dependents",
          "convert_custom_float8_sm70", "convert_custom_float8_sm80"]
for _name in _NAMES:
    globals()[_name] = _stub("extra.cuda." + _name, __name__)
__all__ = ["libdevice"] + _NAMES
del _name
