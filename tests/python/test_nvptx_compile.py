"""Every conformance kernel compiled for NVIDIA without a GPU: PTX from the
nvptx target, assembled by ptxas for sm_80 and sm_90a (CI has ptxas but no
GPU; the run on a GPU is tests/gpu/run_device.sh)."""

import pytest

import tessera
import tessera.language as tl
from tessera import _C
from tessera import conformance as conf
from tessera.bench import workloads

pytestmark = pytest.mark.usefixtures("verify_each_pass")

CASES = conf.load_corpus()
ARCHS = ["sm_80", "sm_90a"]


@pytest.fixture(scope="module")
def nvptx():
    if not _C.target_available("nvptx"):
        pytest.skip("this build has no nvptx code generator")


def _params():
    return [pytest.param(c, d, id="%s[%s]" % (c.name, d)) for c in CASES for d in c.dtypes
            if not c.reason("skip", d)]


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("case,dtype", _params())
def test_conformance_kernel_assembles(nvptx, case, dtype, arch):
    try:
        binary = conf.compile_case(case, dtype, "nvptx", 7, arch=arch)
    except Exception as e:  # noqa: BLE001
        if case.raises is not None and isinstance(e, case.raises):
            return  # a compile-time error the case expects
        raise
    assert ".target %s" % arch in binary.assembly
    assert binary.format in ("cubin", "ptx")
    if binary.format == "cubin":
        assert binary.data[:4] == b"\x7fELF"
    else:
        print("SKIP REASON: no ptxas here: the PTX was not assembled")


def test_benchmark_kernels_use_128_bit_accesses(nvptx):
    import numpy as np
    x = np.empty(1 << 20, np.float32)
    s = np.empty((64, 4096), np.float32)
    ptx = workloads._add_kernel.compile_only("nvptx", x, x, x, 1 << 20, BLOCK=1024).assembly
    assert ptx.count("ld.global.v4.b32") == 4 and ptx.count("st.global.v4.b32") == 2, ptx
    ptx = workloads._softmax_kernel.compile_only("nvptx", s, s, 4096, 4096, 64, 4096, BLOCK=4096,
                                                 num_warps=16).assembly
    assert "ld.global.v4.b32" in ptx and "st.global.v4.b32" in ptx and "shfl.sync.bfly" in ptx, ptx
    assert "ld.global.b32" not in ptx and "ld.global.f32" not in ptx, ptx


def test_unknown_arch_is_a_clear_error(nvptx):
    case = next(c for c in CASES if c.name.startswith("elementwise"))
    with pytest.raises(_C.CompilationError, match="unsupported NVIDIA architecture 'sm_12'"):
        conf.compile_case(case, case.dtypes[0], "nvptx", 7, arch="sm_12")


@tessera.jit
def _undefined_name_kernel(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, undefined_name)  # noqa: F821


def test_compile_only_errors_point_into_the_users_file(nvptx):
    import numpy as np
    with pytest.raises(_C.CompilationError, match=r"test_nvptx_compile\.py:\d+:\d+: error: name 'undefined_name'"):
        _undefined_name_kernel.compile_only("nvptx", np.zeros(4, np.float32), BLOCK=4)


def test_the_same_kernel_compiles_to_the_same_code(nvptx, monkeypatch):
    # fp32 attention: several operand loads share their first mma, and the
    # order they were moved in once followed heap addresses (different PTX
    # from run to run, and so different cache entries' code).
    import numpy as np
    monkeypatch.setenv("TESSERA_ALWAYS_COMPILE", "1")
    monkeypatch.setenv("TESSERA_PTXAS", "none")
    q = np.zeros((2, 256, 64), np.float32)
    codes = set()
    for _ in range(3):
        b = workloads._attention_kernel.compile_only("nvptx", q, q, q, q, 0.1, 256, 256 * 64, 64, D=64, BLOCK_M=64,
                                                     BLOCK_N=32, num_warps=4, arch="sm_90a")
        codes.add(bytes(b.data))
    assert len(codes) == 1
