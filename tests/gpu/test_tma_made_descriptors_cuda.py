"""Descriptors the kernel makes (tl.make_tensor_descriptor) over its own
arguments, copied by tensor maps the runtime builds at each launch (ir/IR.h,
tensor_map_fields): a matmul against torch in float64 with ragged shapes,
both majors of B, warp-specialized or not, C stored by a tensor map into a
NaN-poisoned larger buffer; arguments a map cannot describe (misaligned
base, strides not known to be 16-byte multiples) take masked loads; empty
tensors (K = 0, N = 0) read zeros and write nothing."""

import os
import sys

import pytest

import tessera
import tessera.language as tl

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_tma_cuda import _operands  # noqa: E402  (random operands in [-2, 2), B (n, k) when b_t)


@tessera.jit
def _made_mm(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_b, stride_cm, BM: tl.constexpr, BN: tl.constexpr,
             BK: tl.constexpr, B_T: tl.constexpr, WS: tl.constexpr):
    # Tutorial 09's descriptor kernel, one tile per program. B is (n, k)
    # when B_T, else (k, n).
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[stride_am, 1], block_shape=[BM, BK])
    if B_T:
        b_desc = tl.make_tensor_descriptor(b_ptr, shape=[N, K], strides=[stride_b, 1], block_shape=[BN, BK])
    else:
        b_desc = tl.make_tensor_descriptor(b_ptr, shape=[K, N], strides=[stride_b, 1], block_shape=[BK, BN])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[stride_cm, 1], block_shape=[BM, BN])
    pid_m, pid_n = tl.program_id(0), tl.program_id(1)
    acc = tl.zeros((BM, BN), tl.float32)
    for k0 in tl.range(0, K, BK, warp_specialize=WS):
        a = a_desc.load([pid_m * BM, k0])
        if B_T:
            acc = tl.dot(a, b_desc.load([pid_n * BN, k0]).T, acc)
        else:
            acc = tl.dot(a, b_desc.load([k0, pid_n * BN]), acc)
    c_desc.store([pid_m * BM, pid_n * BN], acc.to(c_desc.dtype))


def _run(torch, a, b, m, n, k, block, num_warps, b_t, ws=False, c_dtype="float32", extra_programs=0):
    bm, bn, bk = block
    # C is a view (m x n, rows of n + 32) of a NaN-poisoned buffer.
    full = torch.full((m + 64, n + 32), float("nan"), device="cuda", dtype=getattr(torch, c_dtype))
    c = full[:m, :n]
    args = (a, b, c, m, n, k, a.stride(0), b.stride(0), c.stride(0))
    meta = dict(BM=bm, BN=bn, BK=bk, B_T=b_t, WS=ws, num_warps=num_warps, num_stages=3)
    grid = (tessera.cdiv(m, bm) + extra_programs, tessera.cdiv(n, bn) + extra_programs)
    _made_mm[grid](*args, **meta)
    A, B = a.double(), (b.double().t() if b_t else b.double())
    err = ((c.double() - A @ B).abs() / (A.abs() @ B.abs() + 1e-30)).max().item() if m and n else 0.0
    outside = full.clone()
    outside[:m, :n] = float("nan")
    assert torch.isnan(outside).all(), "a store wrote outside its tensor"
    return err, c, _made_mm.compile_only("nvptx", *args, **meta).assembly


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("b_t", [True, False])
@pytest.mark.parametrize("block,num_warps", [((128, 256, 64), 8), ((128, 128, 64), 4), ((64, 64, 32), 4)])
@pytest.mark.parametrize("shape", [(333, 304, 1008), (256, 256, 512)])
@pytest.mark.parametrize("ws", [False, True])
def test_made_descriptor_matmul_copies_by_tensor_maps(torch, dtype, b_t, block, num_warps, shape, ws):
    m, n, k = shape
    a, b = _operands(torch, dtype, m, n, k, b_t)
    err, _, ptx = _run(torch, a, b, m, n, k, block, num_warps, b_t, ws=ws, extra_programs=1)
    assert err < 2e-3, err
    if ".target sm_90a" in ptx:
        assert "cp.async.bulk.tensor.2d.shared::cluster" in ptx and "mbarrier.try_wait.parity" in ptx
        if block[0] * block[1] * 4 <= 64 * 1024:  # else no room: masked stores
            assert "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group" in ptx
        assert "wgmma.mma_async" in ptx and "cp.async.cg" not in ptx and "cp.async.ca" not in ptx
        assert ("setmaxnreg" in ptx) == (ws and num_warps == 8)


def test_made_descriptors_a_tensor_map_cannot_describe_take_masked_loads(torch):
    # K = 1000 (not known to be a multiple of 16 elements), then a base 2
    # bytes past an aligned one: correct, without tensor-map loads.
    m, n = 200, 144
    a, b = _operands(torch, "float16", m, n, 1000, True)
    err, _, ptx = _run(torch, a, b, m, n, 1000, (64, 64, 32), 4, True)
    assert err < 2e-3, err
    assert "cp.async.bulk.tensor.2d.shared::cluster" not in ptx
    a, b = _operands(torch, "float16", m, n, 528, True)
    a, b = a[:, 1:513], b[:, 16:]  # rows of 528 elements; a's base is misaligned
    err, _, ptx = _run(torch, a, b, m, n, 512, (64, 64, 32), 4, True)
    assert err < 2e-3, err
    assert "cp.async.bulk.tensor.2d.shared::cluster" not in ptx


def test_made_descriptor_maps_follow_each_launch(torch):
    # One compiled kernel; each launch's maps describe its own operands.
    for m, n, k in [(256, 256, 256), (192, 320, 448), (256, 256, 256)]:
        a, b = _operands(torch, "bfloat16", m, n, k, True)
        err, _, _ = _run(torch, a, b, m, n, k, (64, 64, 64), 4, True)
        assert err < 2e-3, (m, n, k, err)


@pytest.mark.parametrize("ws", [False, True])
def test_empty_tensors_read_zeros_and_take_no_stores(torch, ws):
    # K = 0: A and B are empty, C is all zeros. N = 0: C is empty, and the
    # programs' stores (of an extra column of programs) land nowhere.
    # The empty operands are views of allocated rows (strides of 16).
    m, n = 192, 256
    a, b = _operands(torch, "float16", m, n, 16, True)
    err, c, ptx = _run(torch, a[:, :0], b[:, :0], m, n, 0, (128, 128, 64), 4, True, ws=ws, extra_programs=1)
    assert (c == 0).all()
    if ".target sm_90a" in ptx:
        assert "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group" in ptx
    a, b = _operands(torch, "float16", m, 16, 64, True)
    _run(torch, a, b[:0], m, 0, 64, (128, 128, 64), 4, True, ws=ws, extra_programs=1)
    # Then a launch with data again: the sink of empty stores did not leak.
    a, b = _operands(torch, "float16", m, n, 128, True)
    err, _, _ = _run(torch, a, b, m, n, 128, (128, 128, 64), 4, True, ws=ws)
    assert err < 2e-3, err


@tessera.jit
def _tile_of(tile_id, num_pid_in_group, num_pid_m, GROUP_M: tl.constexpr):
    group_id = tile_id // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    return first_pid_m + (tile_id % group_size_m), (tile_id % num_pid_in_group) // group_size_m


@tessera.jit
def _persistent_mm(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                   GROUP_M: tl.constexpr, NUM_PROGRAMS: tl.constexpr, WS: tl.constexpr):
    # Tutorial 09's descriptor-persistent kernel: each program walks the
    # tiles NUM_PROGRAMS apart; with WS the tile loop is warp-specialized,
    # so the producer copies the next tile's stages during the epilogue.
    start = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BM)
    num_pid_n = tl.cdiv(N, BN)
    k_tiles = tl.cdiv(K, BK)
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BM, BK])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[N, K], strides=[K, 1], block_shape=[BN, BK])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    tile_c = start - NUM_PROGRAMS
    num_pid_in_group = GROUP_M * num_pid_n
    for tile_id in tl.range(start, num_pid_m * num_pid_n, NUM_PROGRAMS, flatten=True, warp_specialize=WS):
        pid_m, pid_n = _tile_of(tile_id, num_pid_in_group, num_pid_m, GROUP_M)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for ki in range(k_tiles):
            acc = tl.dot(a_desc.load([pid_m * BM, ki * BK]), b_desc.load([pid_n * BN, ki * BK]).T, acc)
        tile_c += NUM_PROGRAMS
        pid_m, pid_n = _tile_of(tile_c, num_pid_in_group, num_pid_m, GROUP_M)
        c_desc.store([pid_m * BM, pid_n * BN], acc.to(c_desc.dtype))


def _run_persistent(torch, dtype, m, n, k, block, num_warps, programs, ws, stages=3):
    bm, bn, bk = block
    t = getattr(torch, dtype)
    a = (torch.rand((m, max(k, 16)), device="cuda") * 4 - 2).to(t)[:, :k]
    b = (torch.rand((n, max(k, 16)), device="cuda") * 4 - 2).to(t)[:, :k]
    c = torch.full((m, n), float("nan"), device="cuda", dtype=t)
    args = (a, b, c, m, n, k)
    meta = dict(BM=bm, BN=bn, BK=bk, GROUP_M=8, NUM_PROGRAMS=programs, WS=ws, num_warps=num_warps, num_stages=stages)
    _persistent_mm[(programs,)](*args, **meta)
    A, B = a.double(), b.double().t()
    err = ((c.double() - A @ B).abs() / (A.abs() @ B.abs() + 1e-30)).max().item()
    return err, _persistent_mm.compile_only("nvptx", *args, **meta).assembly


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("block,num_warps", [((128, 256, 64), 8), ((128, 128, 64), 4)])
@pytest.mark.parametrize("shape", [(1000, 1040, 512), (512, 512, 1024)])
@pytest.mark.parametrize("programs", [7, 132])
def test_warp_specialized_persistent_matmul(torch, dtype, block, num_warps, shape, programs):
    m, n, k = shape
    err, ptx = _run_persistent(torch, dtype, m, n, k, block, num_warps, programs, ws=True)
    assert err < 1e-2, err
    if ".target sm_90a" in ptx:
        # The producer's warpgroup joins the kernel: 128 more threads.
        assert ".maxntid %d, 1, 1" % (num_warps * 32 + 128) in ptx
        assert "cp.async.bulk.tensor.2d.shared::cluster" in ptx and "wgmma.mma_async" in ptx
        assert "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group" in ptx


@pytest.mark.parametrize("stages", [2, 3, 4])
@pytest.mark.parametrize("k", [0, 64, 96, 2048])
def test_warp_specialized_persistent_loops_of_every_length(torch, stages, k):
    # Phases carry across tiles: a tile's loop of one iteration, loops that
    # end mid-way through the stages, none at all (C is zeros), long ones.
    err, _ = _run_persistent(torch, "float16", 384, 320, k, (128, 128, 64), 4, 5, ws=True, stages=stages)
    assert err < 1e-2, err


def test_persistent_matmul_without_warp_specialization_agrees(torch):
    err, ptx = _run_persistent(torch, "bfloat16", 1000, 1040, 512, (128, 256, 64), 8, 132, ws=False)
    assert err < 1e-2, err
    if ".target sm_90a" in ptx:
        assert ".maxntid 256, 1, 1" in ptx


@tessera.jit
def _made_attention(q_ptr, k_ptr, v_ptr, o_ptr, Z, H, N_CTX, qk_scale, BM: tl.constexpr, BN: tl.constexpr,
                    D: tl.constexpr):
    # Tutorial 06's descriptors: every head's rows in one tensor of
    # Z * H * N_CTX rows (an extent the runtime multiplies out at launch);
    # keys past N_CTX, the next head's rows, masked off.
    y_dim = Z * H * N_CTX
    q_desc = tl.make_tensor_descriptor(q_ptr, shape=[y_dim, D], strides=[D, 1], block_shape=[BM, D])
    k_desc = tl.make_tensor_descriptor(k_ptr, shape=[y_dim, D], strides=[D, 1], block_shape=[BN, D])
    v_desc = tl.make_tensor_descriptor(v_ptr, shape=[y_dim, D], strides=[D, 1], block_shape=[BN, D])
    o_desc = tl.make_tensor_descriptor(o_ptr, shape=[y_dim, D], strides=[D, 1], block_shape=[BM, D])
    head = tl.program_id(1) * N_CTX
    start = tl.program_id(0) * BM
    q = q_desc.load([head + start, 0])
    m_i = tl.zeros([BM], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BM], dtype=tl.float32)
    acc = tl.zeros([BM, D], dtype=tl.float32)
    for n0 in range(0, N_CTX, BN):
        qk = tl.dot(q, k_desc.load([head + n0, 0]).T)
        qk = tl.where((n0 + tl.arange(0, BN))[None, :] < N_CTX, qk * qk_scale, -float("inf"))
        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_ij[:, None])
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = tl.dot(p.to(tl.float16), v_desc.load([head + n0, 0]), acc * alpha[:, None])
        m_i = m_ij
    rows = start + tl.arange(0, BM)
    out = (acc / l_i[:, None]).to(tl.float16)
    if start + BM <= N_CTX:
        o_desc.store([head + start, 0], out)
    else:  # the last block of a ragged head: the next head's rows are not ours
        tl.store(o_ptr + (head + rows)[:, None] * D + tl.arange(0, D)[None, :], out, mask=(rows < N_CTX)[:, None])


@pytest.mark.parametrize("n_ctx", [1000, 512])
@pytest.mark.parametrize("bm,bn,num_warps", [(128, 64, 4), (128, 64, 8)])
def test_made_descriptors_over_every_heads_rows(torch, n_ctx, bm, bn, num_warps):
    z, h, d = 2, 3, 64
    q, k, v = (torch.randn((z, h, n_ctx, d), device="cuda", dtype=torch.float16) for _ in range(3))
    o = torch.full_like(q, float("nan"))
    scale = d ** -0.5
    args = (q, k, v, o, z, h, n_ctx, scale * 1.4426950408889634)
    meta = dict(BM=bm, BN=bn, D=d, num_warps=num_warps, num_stages=3)
    _made_attention[(tessera.cdiv(n_ctx, bm), z * h)](*args, **meta)
    ref = torch.softmax((q.double() @ k.double().transpose(-1, -2)) * scale, dim=-1) @ v.double()
    err = (o.double() - ref).abs().max().item()
    assert err < 4e-3, err
    ptx = _made_attention.compile_only("nvptx", *args, **meta).assembly
    if ".target sm_90a" in ptx:
        assert "cp.async.bulk.tensor.2d.shared::cluster" in ptx and "wgmma.mma_async" in ptx
