# RUN: tessera compile %S/../nvptx/vector_add.py --entry add --signature "*fp32:16,*fp32:16,*fp32:16,i32:16" -D BLOCK=1024 --target amdgpu --arch gfx942 --emit asm | FileCheck %s
# RUN: tessera compile %S/../nvptx/vector_add.py --entry add --signature "*fp32:16,*fp32:16,*fp32:16,i32:16" -D BLOCK=1024 --target amdgpu --arch gfx1100 --emit asm | FileCheck %s --check-prefix=GFX1100
# RUN: tessera compile %S/../nvptx/vector_add.py --entry add --signature "*fp32:16,*fp32:16,*fp32:16,i32:16" -D BLOCK=1024 --target amdgpu --arch gfx90a -o %t.hsaco
# RUN: llvm-readobj --notes --symbols %t.hsaco | FileCheck %s --check-prefix=NOTES
# RUN: not tessera compile %S/../nvptx/vector_add.py --entry add --signature "*fp32:16,*fp32:16,*fp32:16,i32:16" -D BLOCK=1024 --target amdgpu --arch gfx803 2>&1 | FileCheck %s --check-prefix=BADARCH
# The kernel is nvptx/vector_add.py's `add`. 16-byte aligned pointers and
# n % 16 == 0: 16-byte global accesses, four
# elements per lane, 256 lanes (4 waves of 64) on gfx942.
# CHECK: .amdgcn_target "amdgcn-amd-amdhsa--gfx942"
# CHECK: .amdhsa_code_object_version 5
# CHECK: global_load_dwordx4
# CHECK: global_load_dwordx4
# CHECK: v_add_f32
# CHECK: global_store_dwordx4
# CHECK: .max_flat_workgroup_size: 256
# CHECK: .wavefront_size: 64
# RDNA 3: waves of 32, so 4 warps are 128 lanes; its 16-byte loads are b128.
# GFX1100: global_load_b128
# GFX1100: global_store_b128
# GFX1100: .max_flat_workgroup_size: 128
# GFX1100: .wavefront_size: 32
# The code object lld linked: the kernel descriptor and the metadata note.
# NOTES-DAG: Name: add.kd
# NOTES-DAG: amdhsa.target: amdgcn-amd-amdhsa--gfx90a
# NOTES-DAG: .group_segment_fixed_size: 0
# NOTES-DAG: .wavefront_size: 64
# BADARCH: unsupported AMD GPU architecture 'gfx803' (supported: gfx90a, gfx942, gfx1100)
