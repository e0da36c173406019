# RUN: tessera compile %S/../nvptx/matmul.py --entry mm --signature "*bf16:16,*bf16:16,*fp32:16,i32:16,i32:16,i32:16" -D BM=128 -D BN=128 -D BK=64 --target amdgpu --arch gfx942 --emit asm | FileCheck %s --check-prefix=GFX942
# RUN: tessera compile %S/../nvptx/matmul.py --entry mm --signature "*bf16:16,*bf16:16,*fp32:16,i32:16,i32:16,i32:16" -D BM=128 -D BN=128 -D BK=64 --target amdgpu --arch gfx90a --emit asm | FileCheck %s --check-prefix=GFX90A
# RUN: tessera compile %S/../nvptx/matmul.py --entry mm --signature "*fp16:16,*fp16:16,*fp32:16,i32:16,i32:16,i32:16" -D BM=128 -D BN=128 -D BK=64 --target amdgpu --arch gfx1100 --emit asm | FileCheck %s --check-prefix=GFX1100
# RUN: tessera compile %S/../nvptx/matmul.py --entry mm --signature "*fp32:16,*fp32:16,*fp32:16,i32:16,i32:16,i32:16" -D BM=64 -D BN=64 -D BK=32 --target amdgpu --arch gfx942 --emit asm | FileCheck %s --check-prefix=F32
# RUN: tessera compile %S/../nvptx/matmul.py --entry mm --signature "*bf16:16,*bf16:16,*fp32:16,i32:16,i32:16,i32:16" -D BM=128 -D BN=128 -D BK=64 --target amdgpu --arch gfx942 -o %t.hsaco
# RUN: llvm-readobj --notes %t.hsaco | FileCheck %s --check-prefix=NOTES
# The kernel is nvptx/matmul.py's `mm`. A 128 x 128 x 64 tile at 4 warps on
# matrix cores: on CDNA each wave computes 64 x 64 of the result as 2 x 2
# MFMA 32x32x8 tiles over 8 k steps,
# 32 per iteration as Triton; the operands come through one LDS buffer each
# (two stages, Triton's AMD default: the next tile waits in registers); the
# accumulators live in VGPRs (no AGPRs), and MFMA runs with A and B swapped
# so that each lane stores runs of columns straight to global memory.
# GFX942: v_mfma_f32_32x32x8_bf16
# GFX942-COUNT-31: v_mfma_f32_32x32x8_bf16
# GFX942-NOT: v_mfma
# GFX942: .agpr_count: 0
# GFX942: .vgpr_spill_count: 0
# GFX90A-COUNT-32: v_mfma_f32_32x32x8bf16_1k
# GFX90A-NOT: v_mfma
# RDNA 3 (waves of 32): 4 x 4 WMMA 16x16x16 tiles per wave over 4 k steps.
# GFX1100-COUNT-64: v_wmma_f32_16x16x16_f16
# GFX1100-NOT: v_wmma
# GFX1100: .wavefront_size: 32
# f32 inputs (input_precision tf32, tl.dot's default) on gfx942: xf32 MFMA.
# F32: v_mfma_f32_32x32x4_xf32
# NOTES: .agpr_count: 0
# NOTES: .group_segment_fixed_size: 32768
# NOTES: .wavefront_size: 64
