# RUN: tessera compile %s --entry sigmoid_div --signature "*fp32:16,*fp64:16" --target nvptx --emit asm | FileCheck %s
# f32 `/` is Triton's div.full.f32 (2 ulp, full range: a reciprocal and a
# multiply), tl.sigmoid's 1/(1+e^-x) included; tl.div_rn and f64 stay
# correctly rounded.
# CHECK: div.full.f32
# CHECK: div.full.f32
# CHECK-NOT: rcp.rn.f32
# CHECK: div.rn.f32
# CHECK: div.rn.f64
import tessera.language as tl


def sigmoid_div(x_ptr, d_ptr):
    offs = tl.arange(0, 128)
    x = tl.load(x_ptr + offs)
    y = tl.sigmoid(x) / (x + 3.0)
    tl.store(x_ptr + offs, tl.div_rn(y, x))
    d = tl.load(d_ptr + offs)
    tl.store(d_ptr + offs, d / (d + 1.0))
