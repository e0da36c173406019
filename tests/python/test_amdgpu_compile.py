"""The amdgpu target without an AMD GPU: every conformance kernel compiles
to an HSA code object for each architecture of the table (CDNA 2 and 3
with waves of 64, RDNA 3 with waves of 32), and the HIP target's errors
are clean where there is no ROCm device."""

import numpy as np
import pytest

import tessera
import tessera.language as tl
from tessera import _C
from tessera import conformance as conf

pytestmark = pytest.mark.usefixtures("verify_each_pass")

CASES = conf.load_corpus()
ARCHS = ["gfx90a", "gfx942", "gfx1100"]
EM_AMDGPU, ELFOSABI_AMDGPU_HSA = 224, 64
EF_AMDGPU_MACH = {"gfx90a": 0x3F, "gfx942": 0x4C, "gfx1100": 0x41}


@pytest.fixture(scope="module")
def amdgpu():
    if not _C.target_available("amdgpu"):
        pytest.skip("this build has no amdgpu code generator")


def _params():
    return [pytest.param(c, d, id="%s[%s]" % (c.name, d)) for c in CASES for d in c.dtypes
            if not c.reason("skip", d)]


def _check_code_object(data, arch):
    assert data[:4] == b"\x7fELF" and data[4] == 2
    assert int.from_bytes(data[18:20], "little") == EM_AMDGPU
    assert data[7] == ELFOSABI_AMDGPU_HSA
    assert int.from_bytes(data[48:52], "little") & 0xFF == EF_AMDGPU_MACH[arch]


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("case,dtype", _params())
def test_conformance_kernel_compiles(amdgpu, case, dtype, arch):
    try:
        binary = conf.compile_case(case, dtype, "amdgpu", 7, arch=arch)
    except Exception as e:  # noqa: BLE001
        if case.raises is not None and isinstance(e, case.raises):
            return
        raise
    assert binary.format == "hsaco"
    _check_code_object(bytes(binary.data), arch)


class _SmallAllocation:
    """A numpy array as a tessera array (an allocation of known size), so
    that its pointer is marked ":r32" for amdgpu."""
    _tessera_device = "cpu"

    def __init__(self, array):
        self._array, self.dtype, self.nbytes = array, array.dtype, array.nbytes

    def data_ptr(self):
        return self._array.ctypes.data


def _compile_in_small_allocations(case, dtype):
    """compile_case's gfx942 binary with every array in a _SmallAllocation."""
    args = case.inputs(conf.case_rng(7, case, dtype), dtype)
    call = {k: (v.allocate()[1] if isinstance(v, conf.Out) else v) for k, v in args.items()}
    call = {k: (_SmallAllocation(v) if isinstance(v, np.ndarray) else v) for k, v in call.items()}
    return case.kernel.compile_only("amdgpu", arch="gfx942", **call)


@pytest.mark.parametrize("case,dtype", _params())
def test_conformance_kernel_compiles_with_buffer_accesses(amdgpu, case, dtype):
    """Every kernel again with its arrays in small allocations: pointers
    marked ":r32", non-negative offsets as buffer loads and stores."""
    try:
        binary = _compile_in_small_allocations(case, dtype)
    except Exception as e:  # noqa: BLE001
        if case.raises is not None and isinstance(e, case.raises):
            return
        raise
    _check_code_object(bytes(binary.data), "gfx942")


def test_most_conformance_kernels_use_buffer_accesses(amdgpu):
    """The marking reaches the code: most elementwise cases load through buffers."""
    cases = [c for c in CASES if c.name.startswith("elementwise.")]
    buffered = 0
    for case in cases:
        buffered += "buffer_load" in _compile_in_small_allocations(case, case.dtypes[0]).assembly
    assert buffered >= len(cases) // 2, (buffered, len(cases))


@tessera.jit(target="hip")
def _add(x, y, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out + offs, tl.load(x + offs, mask=mask) + tl.load(y + offs, mask=mask), mask=mask)


def test_unsupported_arch_names_the_supported_ones(amdgpu):
    x = np.ones(64, np.float32)
    with pytest.raises(tessera.TesseraError, match=r"unsupported AMD GPU architecture 'gfx803' \(supported: gfx90a, "):
        _add.compile_only("amdgpu", x, x, x, 64, BLOCK=64, arch="gfx803")


def test_hip_features_after_the_arch_are_ignored(amdgpu):
    x = np.ones(64, np.float32)
    binary = _add.compile_only("amdgpu", x, x, x, 64, BLOCK=64, arch="gfx90a:sramecc+:xnack-")
    _check_code_object(bytes(binary.data), "gfx90a")


def test_launch_without_a_rocm_device_is_a_clear_error(amdgpu):
    if "hip" in _C.backend_names():
        pytest.skip("this machine has an AMD GPU")
    with pytest.raises(tessera.TesseraError, match="backend 'hip' is not usable on this machine: hipInit failed"):
        _C.get_device("hip")
    x = np.ones(64, np.float32)
    with pytest.raises(tessera.TesseraError):
        _add[(1,)](x, x, x, 64, BLOCK=64)


@tessera.jit(target="hip")
def _exp(x, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out + offs, tl.math.log(tl.load(x + offs, mask=offs < n)), mask=offs < n)


def test_math_needs_the_device_libraries_it_names(amdgpu, monkeypatch, tmp_path):
    # The embedded ocml serves by default; a directory given without them is a clear error.
    x = np.ones(64, np.float32)
    monkeypatch.setenv("TESSERA_ALWAYS_COMPILE", "1")
    assert _exp.compile_only("amdgpu", x, x, 64, BLOCK=64).format == "hsaco"
    monkeypatch.setenv("TESSERA_ROCM_DEVICE_LIBS", str(tmp_path))
    with pytest.raises(tessera.TesseraError, match=r"ocml\.bc .*need ROCm's device libraries"):
        _exp.compile_only("amdgpu", x, x, 64, BLOCK=64)


@tessera.jit
def _wide_matmul(a, b, c, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm, rn, rk = tl.arange(0, BM), tl.arange(0, BN), tl.arange(0, BK)
    acc = tl.zeros((BM, BN), tl.float32)
    for k in range(0, 256, BK):
        acc += tl.dot(tl.load(a + rm[:, None] * 256 + (k + rk)[None, :]), tl.load(b + (k + rk)[:, None] * BN + rn[None, :]))
    tl.store(c + rm[:, None] * BN + rn[None, :], acc)


def test_an_accumulator_larger_than_lds_is_converted_in_pieces(amdgpu):
    # 128 x 256 f32 is 128 KiB, twice an AMD GPU's LDS: RDNA 3's WMMA
    # accumulator reaches the store's layout through LDS in pieces (it was
    # "needs 131072 bytes of shared memory").
    a = np.ones((128, 256), np.float16)
    b = np.ones((256, 256), np.float16)
    c = np.ones((128, 256), np.float32)
    binary = _wide_matmul.compile_only("amdgpu", a, b, c, BM=128, BN=256, BK=32, num_warps=8, arch="gfx1100")
    _check_code_object(bytes(binary.data), "gfx1100")
