"""Host tensor descriptors copied by the tensor memory accelerator (TMA)
on sm_90a: a pipelined matmul over TensorDescriptor arguments against torch
in float64, for every swizzle (rows of 32, 64 and 128 bytes, and rows cut
into 128-byte atoms), ragged shapes (the copies' out-of-bounds zeros), both
majors of B, fp8, and descriptors a tensor map cannot describe (misaligned
strides or base), which must take the masked-load path and agree."""

import pytest

import tessera
import tessera.language as tl
from tessera.tools.tensor_descriptor import TensorDescriptor


@tessera.jit
def _desc_mm(a_desc, b_desc, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
             B_T: tl.constexpr):
    # A is (m, k); B is (n, k) when B_T (the dot takes b.T, tutorial 09's
    # form) and (k, n) otherwise.
    pid_m, pid_n = tl.program_id(0), tl.program_id(1)
    acc = tl.zeros((BM, BN), tl.float32)
    for k0 in range(0, K, BK):
        a = a_desc.load([pid_m * BM, k0])
        if B_T:
            acc = tl.dot(a, b_desc.load([pid_n * BN, k0]).T, acc)
        else:
            acc = tl.dot(a, b_desc.load([k0, pid_n * BN]), acc)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


def _run(torch, a, b, m, n, k, block, num_warps, b_t, stages=3):
    bm, bn, bk = block
    c = torch.full((m, n), float("nan"), device="cuda")
    ad = TensorDescriptor.from_tensor(a, [bm, bk])
    bd = TensorDescriptor.from_tensor(b, [bn, bk] if b_t else [bk, bn])
    args = (ad, bd, c, m, n, k)
    meta = dict(BM=bm, BN=bn, BK=bk, B_T=b_t, num_warps=num_warps, num_stages=stages)
    _desc_mm[(tessera.cdiv(m, bm), tessera.cdiv(n, bn))](*args, **meta)
    A, B = a.double(), (b.double().t() if b_t else b.double())
    err = ((c.double() - A @ B).abs() / (A.abs() @ B.abs() + 1e-30)).max().item()
    return err, _desc_mm.compile_only("nvptx", *args, **meta).assembly


def _operands(torch, dtype, m, n, k, b_t):
    t = getattr(torch, dtype)
    a = (torch.rand((m, k), device="cuda") * 4 - 2).to(t)
    b = (torch.rand((n, k) if b_t else (k, n), device="cuda") * 4 - 2).to(t)
    return a, b


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("b_t", [True, False])
@pytest.mark.parametrize("block,num_warps", [((128, 256, 64), 8), ((128, 128, 64), 4), ((64, 64, 32), 4),
                                             ((64, 128, 16), 4), ((128, 64, 64), 8)])
@pytest.mark.parametrize("shape", [(333, 312, 1000), (256, 256, 512)])
def test_descriptor_matmul_copies_by_tensor_maps(torch, dtype, b_t, block, num_warps, shape):
    m, n, k = shape
    a, b = _operands(torch, dtype, m, n, k, b_t)
    err, ptx = _run(torch, a, b, m, n, k, block, num_warps, b_t)
    assert err < 2e-3, err
    if ".target sm_90a" in ptx:
        assert "cp.async.bulk.tensor.2d" in ptx and "mbarrier.try_wait.parity" in ptx
        assert "wgmma.mma_async" in ptx and "cp.async.ca" not in ptx and "cp.async.cg" not in ptx


@pytest.mark.parametrize("block,num_warps", [((128, 256, 128), 8), ((64, 64, 64), 4)])
def test_fp8_descriptor_matmul_copies_by_tensor_maps(torch, block, num_warps):
    m, n, k = 300, 264, 1024
    a, b = _operands(torch, "float8_e4m3fn", m, n, k, True)
    err, ptx = _run(torch, a, b, m, n, k, block, num_warps, True)
    assert err < 2e-3, err
    if ".target sm_90a" in ptx:
        assert "cp.async.bulk.tensor.2d" in ptx and "wgmma.mma_async.sync.aligned.m64n%dk32.f32.e4m3.e4m3" % block[1] in ptx


def test_descriptors_a_tensor_map_cannot_describe_take_masked_loads(torch):
    # K = 1001: rows of 2002 bytes, not a multiple of 16; then a base 2
    # bytes past an aligned one. Both are correct, without tensor maps.
    m, n, k = 200, 136, 1001
    a, b = _operands(torch, "float16", m, n, k, True)
    err, ptx = _run(torch, a, b, m, n, k, (64, 64, 32), 4, True)
    assert err < 2e-3, err
    assert "cp.async.bulk.tensor" not in ptx
    k = 512
    a, b = _operands(torch, "float16", m, n, k + 8, True)
    a, b = a[:, 1:k + 1], b[:, 8:]  # a's base is misaligned, b's is aligned
    err, ptx = _run(torch, a, b, m, n, k, (64, 64, 32), 4, True)
    assert err < 2e-3, err
    assert "cp.async.bulk.tensor" not in ptx


def test_tensor_maps_are_built_for_each_launch(torch):
    # One compiled kernel, operands at other addresses and of other shapes:
    # each launch's maps describe its own descriptors.
    for m, n, k in [(256, 256, 256), (192, 320, 448), (256, 256, 256)]:
        a, b = _operands(torch, "bfloat16", m, n, k, True)
        err, ptx = _run(torch, a, b, m, n, k, (64, 64, 64), 4, True)
        assert err < 2e-3, (m, n, k, err)


def test_single_stage_and_deep_pipelines(torch):
    for stages in (2, 4, 5):
        a, b = _operands(torch, "float16", 256, 200, 776, True)
        err, _ = _run(torch, a, b, 256, 200, 776, (64, 64, 64), 4, True, stages=stages)
        assert err < 2e-3, (stages, err)
