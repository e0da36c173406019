# RUN: tessera compile %S/../nvptx/vector_add.py --entry add --signature "*fp32:16:r32,*fp32:16:r32,*fp32:16:r32,i32:16" -D BLOCK=1024 --target amdgpu --arch gfx942 --emit asm | FileCheck %s
# RUN: tessera compile %S/../nvptx/vector_add.py --entry add --signature "*fp32:16:r32,*fp32:16:r32,*fp32:16:r32,i32:16" -D BLOCK=1024 --target amdgpu --arch gfx1100 --emit asm | FileCheck %s --check-prefix=GFX1100
# RUN: tessera compile %S/../nvptx/vector_add.py --entry add --signature "*fp32:16:r32,*fp32:16:r32,*fp32:16:r32,i32:16" -D BLOCK=1024 --target nvptx --emit asm | FileCheck %s --check-prefix=NVPTX
# RUN: tessera compile %s --entry strided --signature "*fp32:16:r32,*fp32:16:r32,i32" -D BLOCK=256 --target amdgpu --arch gfx942 --emit asm | FileCheck %s --check-prefix=STRIDED
# RUN: tessera compile %s --entry looped --signature "*bf16:16:r32,*fp32:16:r32,i32:16" -D BLOCK=512 --target amdgpu --arch gfx942 --emit asm | FileCheck %s --check-prefix=LOOPED
# RUN: tessera compile %s --entry shifted --signature "*fp32:16:r32,*fp32:16:r32,i32" -D BLOCK=256 --target amdgpu --arch gfx942 --emit asm | FileCheck %s --check-prefix=SHIFTED
# RUN: tessera compile %s --entry shifted --signature "*fp32:16:r32,*fp32:16:r32,i32" -D BLOCK=256 --pipeline assign-layouts | FileCheck %s --check-prefix=IR
#
# Pointers marked :r32 (allocations under 2 GiB, Triton's tt.pointer_range)
# with offsets that are non-negative by construction become buffer
# accesses on AMD GPUs: a 32-bit offset per lane from a resource in scalar
# registers (0x7ffffffe bytes, the architecture's format word), masked-off
# lanes sent out of range instead of branched around.
# CHECK: s_mov_b32 s{{[0-9]+}}, 0x27000
# CHECK: s_mov_b32 s{{[0-9]+}}, 0x7ffffffe
# CHECK: v_cndmask_b32
# CHECK: buffer_load_dwordx4 v[{{[0-9:]+}}], v{{[0-9]+}}, s[{{[0-9:]+}}], 0 offen
# CHECK: buffer_load_dwordx4
# CHECK: buffer_store_dwordx4
# CHECK-NOT: s_cbranch_execz
# CHECK-NOT: global_load
# CHECK: .vgpr_count: 9
# GFX1100-DAG: 0x31027000
# GFX1100-DAG: buffer_load_b128
# GFX1100: buffer_store_b128
# GFX1100-NOT: global_load
# NVPTX has no such accesses: the fact changes nothing there.
# NVPTX: ld.global.v4.b32
# NVPTX: st.global.v4.b32
# A stride argument may be negative: 64-bit addresses.
# STRIDED: global_load_dword
# STRIDED-NOT: buffer_load
# A loop's induction variable from 0 is non-negative; a non-zero `other`
# is selected after the load (out-of-range lanes read zeros).
# LOOPED: buffer_load_dwordx4
# LOOPED: v_cndmask_b32
# LOOPED: buffer_store_dwordx4
# offs - 1 may be negative: the load stays global; the store's offset is not.
# SHIFTED: global_load_dword
# SHIFTED: buffer_store_dword
# The fact is an argument attribute of the IR.
# IR: kernel @shifted(%x: ptr<f32> {divisibility = 16, pointer_range = 32}, %out: ptr<f32> {divisibility = 16, pointer_range = 32}, %n: i32)
import tessera.language as tl


def strided(x, out, stride, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out + offs, tl.load(x + offs * stride))


def looped(x, out, n, BLOCK: tl.constexpr):
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(x + offs, mask=offs < n, other=1.0).to(tl.float32)
    tl.store(out + tl.arange(0, BLOCK), acc)


def shifted(x, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out + offs, tl.load(x + offs - 1, mask=(offs > 0) & (offs < n)), mask=offs < n)
