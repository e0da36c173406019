# RUN: tessera compile %s --entry add --signature "*fp32:16,*fp32:16,*fp32:16,i32:16" -D BLOCK=1024 --target nvptx --emit asm | FileCheck %s
# RUN: tessera compile %s --entry add --signature "*fp32:16,*fp32:16,*fp32:16,i32" -D BLOCK=1024 --target nvptx --emit asm | FileCheck %s --check-prefix=RAGGED
# RUN: tessera compile %s --entry add --signature "*fp32:16,*fp32:16,*fp32:16,i32:16" -D BLOCK=1024 --target nvptx -o %t.cubin
# 16-byte aligned pointers and n % 16 == 0: 128-bit predicated accesses,
# four elements per thread per access, 128 threads.
# CHECK: .target sm_90a
# CHECK: .visible .entry add(
# CHECK: .maxntid 128, 1, 1
# CHECK: @%p{{[0-9]+}} ld.global.v4.b32 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}
# CHECK: add.rn.f32
# CHECK: @%p{{[0-9]+}} st.global.v4.b32
# An unknown n: the mask may change at any element, so accesses are scalar.
# RAGGED: @%p{{[0-9]+}} ld.global.b32
# RAGGED-NOT: ld.global.v4
import tessera.language as tl


def add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)
