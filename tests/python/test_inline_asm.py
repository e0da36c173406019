"""tl.inline_asm_elementwise: compiled for nvptx (assembled by ptxas where
present) and amdgpu, with Triton's packing (narrow elements several to a
32-bit register); clear errors on the targets that cannot run assembly and
for constraints that do not match the registers. tests/gpu/test_language_cuda.py
runs these kernels on the GPU."""
import numpy as np
import pytest

import tessera
import tessera.language as tl
from tessera import _C


@tessera.jit
def funnel_shift(X, Y, Z, n: tl.constexpr, BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    y = tl.load(Y + tl.arange(0, BLOCK))
    s = tl.full([BLOCK], n, tl.int32)
    z = tl.inline_asm_elementwise("shf.l.wrap.b32 $0, $1, $2, $3;", "=r,r, r, r", [x, y, s], dtype=tl.int32,
                                  is_pure=True, pack=1)
    tl.store(Z + tl.arange(0, BLOCK), z)


@tessera.jit
def packed_shift(X, Y, BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    # Four bytes to a register: masked and shifted together.
    y = tl.inline_asm_elementwise("and.b32 $0, $1, 0x1F1F1F1F; shl.b32 $0, $0, 3;", "=r,r", [x], dtype=tl.int8,
                                  is_pure=True, pack=4)
    tl.store(Y + tl.arange(0, BLOCK), y)


@tessera.jit
def through_pointers(X, Y, BLOCK: tl.constexpr):
    tl.inline_asm_elementwise("ld.global.b8 $0, [$1]; shl.b32 $0, $0, 3; st.global.b8 [$2], $0;", "=r,l,l",
                              [X + tl.arange(0, BLOCK), Y + tl.arange(0, BLOCK)], dtype=tl.int8, is_pure=False, pack=1)


@tessera.jit
def two_outputs(A, B, C, D, BLOCK: tl.constexpr):
    a = tl.load(A + tl.arange(0, BLOCK))
    b = tl.load(B + tl.arange(0, BLOCK))
    c, d = tl.inline_asm_elementwise("sub.u32 $0, $2, $3; sub.u32 $1, $3, $2;", "=r,=r,r,r", [a, b],
                                     dtype=(tl.uint32, tl.uint32), is_pure=True, pack=1)
    tl.store(C + tl.arange(0, BLOCK), c)
    tl.store(D + tl.arange(0, BLOCK), d)


@tessera.jit
def packed_two_outputs(A, B, C, D, BLOCK: tl.constexpr):
    a = tl.load(A + tl.arange(0, BLOCK))
    b = tl.load(B + tl.arange(0, BLOCK))
    # $8 holds four bytes of a; $9..$12 four floats of b; $0..$3 and $4..$7 the results.
    c, d = tl.inline_asm_elementwise(
        """{ .reg .b8 t<4>; mov.b32 {t0, t1, t2, t3}, $8;
             cvt.u32.u8 $0, t0; cvt.u32.u8 $1, t1; cvt.u32.u8 $2, t2; cvt.u32.u8 $3, t3; }
           cvt.rn.f32.s32 $4, $0; cvt.rn.f32.s32 $5, $1; cvt.rn.f32.s32 $6, $2; cvt.rn.f32.s32 $7, $3;
           max.f32 $4, $4, $9; max.f32 $5, $5, $10; max.f32 $6, $6, $11; max.f32 $7, $7, $12;""",
        "=r,=r,=r,=r,=r,=r,=r,=r,r,r,r,r,r", [a, b], dtype=(tl.int32, tl.float32), is_pure=True, pack=4)
    tl.store(C + tl.arange(0, BLOCK), c)
    tl.store(D + tl.arange(0, BLOCK), d)


def _nvptx():
    if not _C.target_available("nvptx"):
        pytest.skip("no nvptx code generator in this build")


def test_ptx_holds_the_assembly_once_per_register_group():
    _nvptx()
    u32 = np.zeros(128, np.uint32)
    assert funnel_shift.compile_only("nvptx", u32, u32, u32, 17, BLOCK=128).assembly.count("shf.l.wrap.b32") >= 1
    u8 = np.zeros(512, np.uint8)
    ptx = packed_shift.compile_only("nvptx", u8, u8, BLOCK=512).assembly
    # One execution per four bytes a thread holds (a whole number of registers).
    assert ptx.count("0x1F1F1F1F") >= 1
    assert "st.global.b8" in through_pointers.compile_only("nvptx", u8, u8, BLOCK=512).assembly
    assert two_outputs.compile_only("nvptx", u32, u32, u32, u32, BLOCK=128).assembly.count("sub.u32") >= 2
    f32, i32 = np.zeros(512, np.float32), np.zeros(512, np.int32)
    binary = packed_two_outputs.compile_only("nvptx", u8, f32, i32, f32, BLOCK=512)
    assert binary.assembly.count("max.f32") % 4 == 0 and binary.assembly.count("max.f32") >= 4


def test_amdgpu_takes_its_own_assembly():
    if not _C.target_available("amdgpu"):
        pytest.skip("no amdgpu code generator in this build")

    @tessera.jit
    def shift(X, Y, BLOCK: tl.constexpr):
        x = tl.load(X + tl.arange(0, BLOCK))
        y = tl.inline_asm_elementwise("v_lshlrev_b32 $0, 3, $1", "=v,v", [x], dtype=tl.int32, is_pure=True, pack=1)
        tl.store(Y + tl.arange(0, BLOCK), y)
    i32 = np.zeros(256, np.int32)
    binary = shift.compile_only("amdgpu", i32, i32, BLOCK=256, arch="gfx942")
    assert binary.format == "hsaco" and "v_lshlrev_b32" in binary.assembly


def test_targets_without_assembly_refuse(cpu_target):
    u32 = np.zeros(128, np.uint32)
    with pytest.raises(_C.CompilationError, match="holds GPU assembly .* which the cpu target cannot run"):
        funnel_shift[(1,)](u32, u32, u32, 17, BLOCK=128)
    if _C.target_available("spirv"):
        with pytest.raises(_C.CompilationError, match="which SPIR-V cannot express"):
            funnel_shift.compile_only("spirv", u32, u32, u32, 17, BLOCK=128)


def test_constraints_must_match_the_registers():
    _nvptx()

    @tessera.jit
    def wrong(X, Y, BLOCK: tl.constexpr):
        x = tl.load(X + tl.arange(0, BLOCK))
        # pack=4 bytes share one register: one input, not four.
        y = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r,r,r,r", [x], dtype=tl.int8, is_pure=True, pack=4)
        tl.store(Y + tl.arange(0, BLOCK), y)
    u8 = np.zeros(512, np.uint8)
    with pytest.raises(_C.CompilationError, match="constraints for 1 outputs and 4 inputs, but its registers are "
                                                  "1 outputs and 1 inputs"):
        wrong.compile_only("nvptx", u8, u8, BLOCK=512)


def test_side_effects_are_never_padded():
    _nvptx()

    @tessera.jit
    def impure(X, Y, BLOCK: tl.constexpr):
        tl.inline_asm_elementwise("st.global.b8 [$1], $2; mov.b32 $0, 0;", "=r,l,r", [Y + tl.arange(0, BLOCK),
                                  tl.load(X + tl.arange(0, BLOCK))], dtype=tl.int32, is_pure=False, pack=16)
    u8 = np.zeros(64, np.uint8)
    with pytest.raises(_C.CompilationError, match="packs 16 elements per execution but a thread holds"):
        impure.compile_only("nvptx", u8, u8, BLOCK=64)


def test_pack_must_be_a_power_of_two(cpu_target):
    @tessera.jit
    def bad(X):
        tl.inline_asm_elementwise("", "=r,r", [tl.load(X)], dtype=tl.int32, is_pure=True, pack=3)
    with pytest.raises(_C.CompilationError, match="pack must be a power of two from 1 to 16, found 3"):
        bad[(1,)](np.zeros(4, np.int32))
