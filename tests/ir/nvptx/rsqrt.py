# RUN: tessera compile %s --entry approx --signature "*fp32:16,*bf16:16" --target nvptx --emit asm | FileCheck %s --check-prefix=APPROX
# RUN: tessera compile %s --entry exact --signature "*fp32:16,*fp64:16" --target nvptx --emit asm | FileCheck %s --check-prefix=EXACT
# tl.rsqrt and libdevice.rsqrt on f32 are libdevice's __nv_rsqrtf, the
# hardware approximation (rsqrt.approx.f32, one MUFU.RSQ; .ftz only under
# enable_reflect_ftz), as Triton's; bf16 goes through it in f32. f64 is
# 1 / sqrt, each rounded; libdevice.rsqrt_rn on f32 computes that in f64.
# APPROX: rsqrt.approx.f32
# APPROX: rsqrt.approx.f32
# APPROX-NOT: rsqrt.approx.ftz
# APPROX-NOT: sqrt.rn.f32
# EXACT-NOT: rsqrt.approx
# EXACT: sqrt.rn.f64
# EXACT: rcp.rn.f64
import tessera.language as tl
from tessera.language.extra import libdevice


def approx(x_ptr, y_ptr):
    offs = tl.arange(0, 128)
    x = tl.load(x_ptr + offs)
    tl.store(x_ptr + offs, tl.rsqrt(x) + libdevice.rsqrt(x * 2.0))
    y = tl.load(y_ptr + offs)
    tl.store(y_ptr + offs, tl.rsqrt(y))


def exact(x_ptr, d_ptr):
    offs = tl.arange(0, 128)
    x = tl.load(x_ptr + offs)
    tl.store(x_ptr + offs, libdevice.rsqrt_rn(x))
    d = tl.load(d_ptr + offs)
    tl.store(d_ptr + offs, tl.rsqrt(d))
