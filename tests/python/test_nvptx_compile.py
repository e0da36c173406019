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


def _ptxas():
    import os
    import shutil
    path = os.environ.get("TESSERA_PTXAS") or shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
    return path if path != "none" and os.access(path, os.X_OK) else None


def _bench_tensor_core_kernels():
    from tessera.bench import cuda
    cases = []
    for dtype, configs in (("bf16", cuda.MATMUL_CONFIGS), ("fp16", cuda.MATMUL_CONFIGS), ("fp32", cuda.TF32_MATMUL_CONFIGS),
                           ("fp8", cuda.FP8_MATMUL_CONFIGS)):
        cases += [pytest.param("matmul", dtype, cfg, id="matmul-%s-%s" % (dtype, "x".join(map(str, cfg))))
                  for cfg in configs]
        # Hopper's host-descriptor kernels, warp-specialized or not.
        cases += [pytest.param(kind, dtype, cfg, id="%s-%s-%s" % (kind, dtype, "x".join(map(str, cfg))))
                  for kind in ("descriptors", "descriptors-ws") for cfg in configs]
        # Tutorial 09's persistent kernel, its tile loop warp-specialized.
        cases += [pytest.param("persistent-ws", dtype, cfg, id="persistent-ws-%s-%s" % (dtype, "x".join(map(str, cfg))))
                  for cfg in configs if cfg[0] * cfg[1] >= 128 * 128]
    for dtype in ("bf16", "fp32"):
        for causal in (False, True):
            cases += [pytest.param("attention", dtype, cfg + (causal,),
                                   id="attention-%s-%s%s" % (dtype, "x".join(map(str, cfg)), "-causal" * causal))
                      for cfg in workloads.Attention.configs(128, dtype)]
    return cases


@pytest.mark.parametrize("kind,dtype,cfg", _bench_tensor_core_kernels())
def test_benchmark_tensor_core_kernels_have_no_ptxas_advisory(nvptx, tmp_path, monkeypatch, kind, dtype, cfg):
    # ptxas serializes every wgmma of a kernel where it cannot prove that no
    # other instruction writes their accumulators while they are in flight,
    # and says so with an info line ("Potential Performance Loss", C7515);
    # the bench's 8-warp attention and 256x128 matmul were such kernels.
    import subprocess

    import ml_dtypes
    import numpy as np
    ptxas = _ptxas()
    if ptxas is None:
        pytest.skip("no ptxas here")
    monkeypatch.setenv("TESSERA_PTXAS", "none")  # PTX only: ptxas runs once, below, keeping its log
    np_dtype = {"bf16": ml_dtypes.bfloat16, "fp16": np.float16, "fp32": np.float32,
                "fp8": ml_dtypes.float8_e4m3fn}[dtype]
    if kind == "matmul":
        bm, bn, bk, warps, stages = cfg
        m = n = k = 4096
        a = np.empty((m, k), np_dtype)
        b_strides = (1, k) if dtype == "fp8" else (n, 1)  # fp8: B k-major, as the bench (torch._scaled_mm)
        b = np.empty((n, k) if dtype == "fp8" else (k, n), np_dtype)
        c = np.empty((m, n), ml_dtypes.bfloat16 if dtype == "fp8" else np_dtype)
        binary = workloads._matmul_kernel.compile_only(
            "nvptx", a, b, c, m, n, k, k, 1, *b_strides, n, 1, BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, GROUP_M=8,
            num_warps=warps, num_stages=stages, arch="sm_90a")
    elif kind.startswith("descriptors"):
        from tessera.tools.tensor_descriptor import TensorDescriptor
        bm, bn, bk, warps, stages = cfg
        m = n = k = 4096
        fp8 = dtype == "fp8"
        a = np.empty((m, k), np_dtype)
        b = np.empty((n, k) if fp8 else (k, n), np_dtype)  # fp8: B k-major, as the bench
        c = np.empty((m, n), ml_dtypes.bfloat16 if fp8 else np_dtype)
        descs = (TensorDescriptor.from_tensor(a, [bm, bk]), TensorDescriptor.from_tensor(b, [bn, bk] if fp8 else [bk, bn]),
                 TensorDescriptor.from_tensor(c, [bm, bn]))
        ws = kind == "descriptors-ws"
        binary = workloads._matmul_desc_kernel.compile_only(
            "nvptx", *descs, m, n, k, BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, GROUP_M=8, B_KMAJOR=fp8, WARP_SPECIALIZE=ws,
            num_warps=warps, num_stages=stages, arch="sm_90a")
        assert "cp.async.bulk.tensor" in binary.assembly
        # Warp-specialized where every stage is read in place (not tf32's
        # n-major B, read through registers).
        specialized = ws and dtype != "fp32"
        assert ("mbarrier.arrive.shared" in binary.assembly) == specialized
        assert ("setmaxnreg" in binary.assembly) == (specialized and warps == 8)  # 384 threads: registers rebalanced
    elif kind == "persistent-ws":
        bm, bn, bk, warps, stages = cfg
        m = n = k = 4096
        fp8 = dtype == "fp8"
        a = np.empty((m, k), np_dtype)
        b = np.empty((n, k) if fp8 else (k, n), np_dtype)
        c = np.empty((m, n), ml_dtypes.bfloat16 if fp8 else np_dtype)
        binary = workloads._matmul_persistent_kernel.compile_only(
            "nvptx", a, b, c, m, n, k, BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, GROUP_M=8, B_KMAJOR=fp8, NUM_PROGRAMS=132,
            WARP_SPECIALIZE=True, num_warps=warps, num_stages=stages, arch="sm_90a")
        assert "cp.async.bulk.tensor" in binary.assembly
        # Specialized where every stage is read in place (not tf32's n-major
        # B) and the stages fit beside the epilogue's store buffer (not four
        # of 128 x 256 x 64).
        fits = (bm * bk + bn * bk) * stages * (1 if fp8 else 2) + bm * bn * (2 if dtype != "fp32" else 4) <= 232448
        specialized = dtype != "fp32" and fits
        assert ("mbarrier.arrive.shared" in binary.assembly) == specialized, (fits,)
    else:
        bm, bn, warps, stages, causal = cfg
        bh, s, d = 128, 4096, 128
        q = np.empty((bh, s, d), np_dtype)
        binary = workloads._attention_kernel.compile_only(
            "nvptx", q, q, q, q, 0.1, s, s * d, d, D=d, BLOCK_M=bm, BLOCK_N=bn, CAUSAL=causal, num_warps=warps,
            num_stages=stages, arch="sm_90a")
    assert "wgmma.mma_async" in binary.assembly
    (tmp_path / "k.ptx").write_text(binary.assembly)
    out = subprocess.run([ptxas, "-arch=sm_90a", "-v", str(tmp_path / "k.ptx"), "-o", str(tmp_path / "k.cubin")],
                         capture_output=True, text=True, check=True)
    assert "Potential Performance Loss" not in out.stdout + out.stderr, out.stdout + out.stderr
