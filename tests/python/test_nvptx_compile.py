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
        # Warp-specialized when asked (tf32's n-major B too, read through
        # registers by two copies of the consumers' loop body).
        specialized = ws
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
        # Specialized where the stages fit beside the epilogue's store buffer
        # (not four of 128 x 256 x 64).
        elem = {"fp8": 1, "fp32": 4}.get(dtype, 2)
        fits = (bm * bk + bn * bk) * stages * elem + bm * bn * (4 if dtype == "fp32" else 2) <= 232448
        specialized = fits
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


@tessera.jit
def _softmax_block(q, k_desc, v_desc, row, acc, l_i, m_i, scale, rows, keys, MASKED: tl.constexpr):
    # One key block of online softmax; MASKED: the block crosses the diagonal.
    s = tl.dot(q, k_desc.load([row, 0]).T) * scale
    if MASKED:
        s = tl.where(rows[:, None] >= keys[None, :], s, -1.0e6)
    m_new = tl.maximum(m_i, tl.max(s, 1))
    p = tl.math.exp2(s - m_new[:, None])
    alpha = tl.math.exp2(m_i - m_new)
    acc = tl.dot(p.to(v_desc.dtype), v_desc.load([row, 0]), acc * alpha[:, None])
    return acc, l_i * alpha + tl.sum(p, 1), m_new


@tessera.jit
def _two_loop_causal_attention(q_desc, k_desc, v_desc, o_desc, sm_scale, seq, D: tl.constexpr,
                               BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # Causal attention as tutorial 06 splits it: the key blocks below the
    # diagonal in one loop, unmasked, then the diagonal's in a second.
    start_m = tl.program_id(0)
    base = tl.program_id(1) * seq
    q = q_desc.load([base + start_m * BLOCK_M, 0])
    rows = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    scale = sm_scale * 1.4426950408889634
    m_i = tl.full((BLOCK_M,), -float("inf"), tl.float32)
    l_i = tl.zeros((BLOCK_M,), tl.float32)
    acc = tl.zeros((BLOCK_M, D), tl.float32)
    for n in range(0, start_m * BLOCK_M, BLOCK_N):
        acc, l_i, m_i = _softmax_block(q, k_desc, v_desc, base + n, acc, l_i, m_i, scale, rows,
                                       n + tl.arange(0, BLOCK_N), False)
    for n in range(start_m * BLOCK_M, (start_m + 1) * BLOCK_M, BLOCK_N):
        acc, l_i, m_i = _softmax_block(q, k_desc, v_desc, base + n, acc, l_i, m_i, scale, rows,
                                       n + tl.arange(0, BLOCK_N), True)
    o_desc.store([base + start_m * BLOCK_M, 0], (acc / l_i[:, None]).to(o_desc.dtype))


def test_a_kernel_ptxas_serializes_is_compiled_again_with_register_operands_waited_for(nvptx, tmp_path,
                                                                                      monkeypatch):
    # Under the register pressure of 128 x 64 blocks on 4 warps, ptxas could
    # not keep the second loop's P (read by a P V left in flight round the
    # loop) apart from the next Q K^T's accumulator, and serialized every
    # wgmma of the kernel (C7515); the target then compiles it again with
    # such dots waited for in their iteration, which ptxas runs async.
    import subprocess
    import numpy as np
    from tessera.tools.tensor_descriptor import TensorDescriptor
    ptxas = _ptxas()
    if ptxas is None:
        pytest.skip("no ptxas here")
    y = np.empty((4 * 4096, 128), np.float16)
    descs = [TensorDescriptor.from_tensor(y, [b, 128]) for b in (128, 64, 64, 128)]

    def compiled(assembled):
        if not assembled:
            monkeypatch.setenv("TESSERA_PTXAS", "none")  # PTX only: no ptxas, so no second compile
        else:
            monkeypatch.delenv("TESSERA_PTXAS", raising=False)
        ptx = _two_loop_causal_attention.compile_only("nvptx", *descs, 0.5, 4096, D=128, BLOCK_M=128, BLOCK_N=64,
                                                      num_warps=4, num_stages=2, arch="sm_90a").assembly
        path = tmp_path / ("k%d.ptx" % assembled)
        path.write_text(ptx)
        out = subprocess.run([ptxas, "-arch=sm_90a", str(path), "-o", str(tmp_path / "k.cubin")],
                             capture_output=True, text=True, check=True)
        return ptx, out.stdout + out.stderr
    first, first_log = compiled(False)
    assert "(C7515)" in first_log and first.count("wgmma.wait_group.sync.aligned 1;") == 2, first_log
    kept, kept_log = compiled(True)
    assert "Potential Performance Loss" not in kept_log, kept_log
    assert kept.count("wgmma.mma_async") == first.count("wgmma.mma_async") and \
        "wgmma.wait_group.sync.aligned 1;" not in kept
