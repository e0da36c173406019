# RUN: tessera compile %s --entry fast --signature "*fp32:16,*bf16:16" --target nvptx --emit asm | FileCheck %s --check-prefix=FAST
# RUN: tessera compile %s --entry accurate --signature "*fp32:16,*bf16:16" --target nvptx --emit asm | FileCheck %s --check-prefix=ACCURATE
# tl.exp and tl.exp2 below f64 are the hardware approximation on NVIDIA
# (Triton's contract, docs/architecture.md): exp(x) = ex2.approx(x * log2 e),
# bf16 through f32, subnormal results flushed (.ftz: one MUFU.EX2, as
# Triton's default). libdevice.exp is the accurate one: range reduction
# around the approximation.
# FAST: mul.rn.f32 {{%f[0-9]+}}, {{%f[0-9]+}}, 0f3FB8AA3B;
# FAST-NEXT: ex2.approx.ftz.f32
# FAST: ex2.approx.ftz.f32
# FAST: ex2.approx.ftz.f32
# FAST-NOT: ex2.approx.f32
# FAST-NOT: fma.rn
# ACCURATE: fma.rn.f32
# ACCURATE: ex2.approx.ftz.f32
import tessera.language as tl
from tessera.language.extra import libdevice


def fast(x_ptr, y_ptr):
    offs = tl.arange(0, 128)
    x = tl.load(x_ptr + offs)
    tl.store(x_ptr + offs, tl.exp(x) + tl.exp2(x))
    y = tl.load(y_ptr + offs)
    tl.store(y_ptr + offs, tl.exp(y))


def accurate(x_ptr, y_ptr):
    offs = tl.arange(0, 128)
    x = tl.load(x_ptr + offs)
    tl.store(x_ptr + offs, libdevice.exp(x))
