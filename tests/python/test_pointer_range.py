"""Pointers into allocations under 2 GiB (":r32", Triton's tt.pointer_range
= 32): amdgpu addresses them with 32-bit buffer offsets; launches for it
mark such pointers, and only for it."""
import numpy as np
import pytest

import tessera
import tessera.language as tl
from tessera import _targets
from tessera._specialize import RANGE32_BYTES, mark_pointer_ranges
from tessera.compiler import ASTSource, GPUTarget


@tessera.jit
def scale(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=m) * 2.0, mask=m)


SIGNATURE = {"x_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32", "BLOCK": "constexpr"}
RANGED = {(0,): [["tt.divisibility", 16], ["tt.pointer_range", 32]], (1,): [["tt.pointer_range", 32]],
          (2,): [["tt.pointer_range", 32]]}


def test_tritons_attribute_reaches_the_signature_on_pointers_only():
    source = ASTSource(scale, SIGNATURE, constexprs={"BLOCK": 256}, attrs=RANGED)
    assert source.specialization()[0] == ["*fp32:16:r32", "*fp32:r32", "i32"]


@pytest.mark.parametrize("attrs, accesses", [(RANGED, "buffer_load_dword"), ({}, "global_load_dword")])
def test_amdgpu_uses_buffer_accesses_for_ranged_pointers(attrs, accesses):
    source = ASTSource(scale, SIGNATURE, constexprs={"BLOCK": 256}, attrs=attrs)
    asm = tessera.compile(source, target=GPUTarget("hip", "gfx942", 64)).asm["amdgcn"]
    assert accesses in asm
    assert ("buffer_store_dword" in asm) == bool(attrs)


def test_other_targets_ignore_the_fact():
    for attrs in (RANGED, {}):
        ptx = tessera.compile(ASTSource(scale, SIGNATURE, constexprs={"BLOCK": 256}, attrs=attrs),
                              target=GPUTarget("cuda", 90, 32)).asm["ptx"]
        assert "ld.global" in ptx


def test_the_registry_says_which_targets_specialize():
    assert _targets.specializes_pointer_range("amdgpu") and _targets.specializes_pointer_range("hip")
    for target in ("nvptx", "cuda", "cpu", "vulkan", "spirv:opencl"):
        assert not _targets.specializes_pointer_range(target)


class _Storage:
    def __init__(self, nbytes):
        self._nbytes = nbytes

    def nbytes(self):
        return self._nbytes


class _TorchLike:
    """A tensor as PyTorch's: a view whose storage may be larger than itself."""

    def __init__(self, storage_bytes):
        self._storage = _Storage(storage_bytes)

    def untyped_storage(self):
        return self._storage


class _TesseraLike:
    """A tessera array's attributes, anywhere (compile_only needs no device)."""
    _tessera_device = "cpu"

    def __init__(self, nbytes):
        self.nbytes, self.dtype, self._data = nbytes, np.dtype(np.float32), np.zeros(4, np.float32)

    def data_ptr(self):
        return self._data.ctypes.data


def test_marks_only_pointers_whose_allocation_is_known_and_small():
    signature = ["*fp32:16", "*fp32", "*bf16", "*fp16", "i32", "fp32"]
    arguments = [_TorchLike(1 << 20), _TorchLike(RANGE32_BYTES), _TorchLike(RANGE32_BYTES + 1),
                 np.zeros(4, np.float16), 7, 1.0]
    assert mark_pointer_ranges(signature, arguments) == ["*fp32:16:r32", "*fp32:r32", "*bf16", "*fp16", "i32",
                                                         "fp32"]


def test_compile_only_for_amdgpu_specializes_on_the_allocation():
    small = scale.compile_only("amdgpu", _TesseraLike(4096), _TesseraLike(4096), 1000, BLOCK=256, arch="gfx942")
    assert "buffer_load_dword" in small.assembly and "global_load" not in small.assembly
    big = scale.compile_only("amdgpu", _TesseraLike(1 << 31), _TesseraLike(4096), 1000, BLOCK=256, arch="gfx942")
    assert "global_load_dword" in big.assembly and "buffer_store_dword" in big.assembly
    host = np.zeros(1024, np.float32)  # its allocation is not known: no fact
    assert "buffer_" not in scale.compile_only("amdgpu", host, host, 1000, BLOCK=256, arch="gfx942").assembly
