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


@tessera.jit
def _desc_mm_store(a_desc, b_desc, c_desc, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m, pid_n = tl.program_id(0), tl.program_id(1)
    acc = tl.zeros((BM, BN), tl.float32)
    for k0 in range(0, K, BK):
        acc = tl.dot(a_desc.load([pid_m * BM, k0]), b_desc.load([pid_n * BN, k0]).T, acc)
    c_desc.store([pid_m * BM, pid_n * BN], acc.to(c_desc.dtype))


@pytest.mark.parametrize("c_dtype", ["float16", "bfloat16", "float32"])
@pytest.mark.parametrize("block,num_warps", [((128, 128, 64), 4), ((64, 16, 32), 4), ((64, 32, 64), 4),
                                             ((128, 256, 64), 8)])
def test_descriptor_stores_write_by_tensor_maps_inside_the_tensor_only(torch, c_dtype, block, num_warps):
    # C is a ragged view (333 x 312) of a larger NaN-poisoned buffer; one
    # more program row and column than C needs store blocks wholly outside
    # it. Inside: the product; outside: still NaN.
    m, n, k = 333, 312, 256
    bm, bn, bk = block
    a, b = _operands(torch, "float16", m, n, k, True)
    full = torch.full((m + 80, n + 24), float("nan"), device="cuda", dtype=getattr(torch, c_dtype))
    c = full[:m, :n]
    ad, bd, cd = TensorDescriptor.from_tensor(a, [bm, bk]), TensorDescriptor.from_tensor(b, [bn, bk]), \
        TensorDescriptor.from_tensor(c, [bm, bn])
    meta = dict(BM=bm, BN=bn, BK=bk, num_warps=num_warps, num_stages=3)
    _desc_mm_store[(tessera.cdiv(m, bm) + 1, tessera.cdiv(n, bn) + 1)](ad, bd, cd, k, **meta)
    A, B = a.double(), b.double().t()
    err = ((c.double() - A @ B).abs() / (A.abs() @ B.abs() + 1e-30)).max().item()
    assert err < (2e-3 if c_dtype == "float32" else 1e-2), err
    outside = full.clone()
    outside[:m, :n] = float("nan")
    assert torch.isnan(outside).all(), "a store wrote outside its tensor"
    ptx = _desc_mm_store.compile_only("nvptx", ad, bd, cd, k, **meta).assembly
    if ".target sm_90a" in ptx and bm * bn * full.element_size() <= 64 * 1024:  # else no room: masked stores
        assert "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group" in ptx and "st.global" not in ptx


@tessera.jit
def _desc_attention(q_desc, k_desc, v_desc, o_desc, seq, qk_scale, BM: tl.constexpr, BN: tl.constexpr,
                    D: tl.constexpr):
    # Tutorial 06's loop for one head, keys past `seq` masked off.
    start = tl.program_id(0) * BM
    q = q_desc.load([start, 0])
    m_i = tl.zeros([BM], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BM], dtype=tl.float32)
    acc = tl.zeros([BM, D], dtype=tl.float32)
    for n0 in range(0, seq, BN):
        qk = tl.dot(q, k_desc.load([n0, 0]).T)
        qk = tl.where((n0 + tl.arange(0, BN))[None, :] < seq, qk * qk_scale, -float("inf"))
        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_ij[:, None])
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        acc = tl.dot(p.to(q_desc.dtype), v_desc.load([n0, 0]), acc)
        m_i = m_ij
    o_desc.store([start, 0], (acc / l_i[:, None]).to(o_desc.dtype))


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("bm,bn,d,num_warps,stages", [(128, 64, 128, 4, 2), (128, 64, 64, 8, 3), (64, 64, 128, 4, 3)])
@pytest.mark.parametrize("seq", [1000, 512])
def test_descriptor_attention_against_float64(torch, dtype, bm, bn, d, num_warps, stages, seq):
    # K and V wait on their own mbarriers; P V stays in flight into the next
    # iteration (4 warps); O leaves by a tensor-map store into a view of a
    # NaN-poisoned buffer whose rows past `seq` must stay NaN.
    t = getattr(torch, dtype)
    q, k, v = (torch.randn((seq, d), device="cuda", dtype=t) for _ in range(3))
    full = torch.full((seq + 96, d), float("nan"), device="cuda", dtype=t)
    o = full[:seq]
    descs = [TensorDescriptor.from_tensor(x, [bm if x is q or x is o else bn, d]) for x in (q, k, v, o)]
    meta = dict(BM=bm, BN=bn, D=d, num_warps=num_warps, num_stages=stages)
    scale = d ** -0.5
    _desc_attention[(tessera.cdiv(seq, bm),)](*descs, seq, scale * 1.4426950408889634, **meta)
    ref = torch.softmax((q.double() @ k.double().t()) * scale, dim=-1) @ v.double()
    err = (o.double() - ref).abs().max().item()
    assert err < (2e-2 if dtype == "bfloat16" else 4e-3), err
    assert torch.isnan(full[seq:]).all()
    ptx = _desc_attention.compile_only("nvptx", *descs, seq, scale, **meta).assembly
    if ".target sm_90a" in ptx:
        assert "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group" in ptx
        assert ptx.count("mbarrier.try_wait.parity") >= 2
        if num_warps == 4:
            assert "wgmma.wait_group.sync.aligned 1;" in ptx


@tessera.jit
def _desc_mm_ws(a_desc, b_desc, c_desc, c_ptr, M, N, K, stride_cm, BM: tl.constexpr, BN: tl.constexpr,
                BK: tl.constexpr, B_T: tl.constexpr, STORE_DESC: tl.constexpr):
    # _desc_mm's loop, warp-specialized (tl.range's warp_specialize): a
    # producer warp issues the copies, the num_warps warps multiply. C
    # leaves through its descriptor (a tensor-map store, whose barriers
    # must meet the consumers only) or by masked stores.
    pid_m, pid_n = tl.program_id(0), tl.program_id(1)
    acc = tl.zeros((BM, BN), tl.float32)
    for k0 in tl.range(0, K, BK, warp_specialize=True):
        a = a_desc.load([pid_m * BM, k0])
        if B_T:
            acc = tl.dot(a, b_desc.load([pid_n * BN, k0]).T, acc)
        else:
            acc = tl.dot(a, b_desc.load([k0, pid_n * BN]), acc)
    if STORE_DESC:
        c_desc.store([pid_m * BM, pid_n * BN], acc.to(c_desc.dtype))
    else:
        rm = pid_m * BM + tl.arange(0, BM)
        rn = pid_n * BN + tl.arange(0, BN)
        tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


def _run_ws(torch, dtype, m, n, k, block, num_warps, b_t, stages=3, store_desc=False):
    bm, bn, bk = block
    a, b = _operands(torch, dtype, m, n, k, b_t)
    full = torch.full((m + 40, n + 24), float("nan"), device="cuda")
    c = full[:m, :n]
    ad = TensorDescriptor.from_tensor(a, [bm, bk])
    bd = TensorDescriptor.from_tensor(b, [bn, bk] if b_t else [bk, bn])
    cd = TensorDescriptor.from_tensor(c, [bm, bn])
    args = (ad, bd, cd, c, m, n, k, c.stride(0))
    meta = dict(BM=bm, BN=bn, BK=bk, B_T=b_t, STORE_DESC=store_desc, num_warps=num_warps, num_stages=stages)
    _desc_mm_ws[(tessera.cdiv(m, bm), tessera.cdiv(n, bn))](*args, **meta)
    A, B = a.double(), (b.double().t() if b_t else b.double())
    err = ((c.double() - A @ B).abs() / (A.abs() @ B.abs() + 1e-30)).max().item() if k else c.abs().max().item()
    outside = full.clone()
    outside[:m, :n] = float("nan")
    assert torch.isnan(outside).all(), "a store wrote outside C"
    return err, _desc_mm_ws.compile_only("nvptx", *args, **meta).assembly


def _assert_warp_specialized(ptx, num_warps):
    if ".target sm_90a" not in ptx:
        return
    assert ".maxntid %d, 1, 1" % (32 * (num_warps + 4)) in ptx
    assert "mbarrier.arrive.shared::cta.b64" in ptx and "barrier.sync \t1, %d;" % (32 * num_warps) in ptx
    assert "setp.eq.s32" in ptx and "wgmma.wait_group.sync.aligned 1;" in ptx


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("b_t", [True, False])
@pytest.mark.parametrize("block,num_warps", [((128, 256, 64), 8), ((128, 128, 64), 4), ((64, 128, 32), 4),
                                             ((256, 128, 64), 8)])
@pytest.mark.parametrize("shape", [(333, 312, 1000), (256, 512, 512)])
def test_warp_specialized_descriptor_matmul(torch, dtype, b_t, block, num_warps, shape):
    err, ptx = _run_ws(torch, dtype, *shape, block, num_warps, b_t)
    assert err < 2e-3, err
    _assert_warp_specialized(ptx, num_warps)


@pytest.mark.parametrize("stages", [2, 3, 4, 5])
@pytest.mark.parametrize("k", [0, 32, 64, 192, 200, 2048])
def test_warp_specialized_loops_of_every_length_and_depth(torch, stages, k):
    # Fewer iterations than stage entries, exactly as many, a ragged last
    # block, many rounds of every entry's phases; K = 0 runs no iteration
    # (C is zero).
    err, ptx = _run_ws(torch, "bfloat16", 200, 136, k, (64, 64, 64), 4, True, stages=stages)
    assert err < 2e-3, (stages, k, err)
    if k:  # (a tensor map cannot describe an empty A: masked loads, no producer)
        _assert_warp_specialized(ptx, 4)


@pytest.mark.parametrize("block,num_warps", [((128, 256, 64), 8), ((128, 128, 64), 4)])
def test_warp_specialized_matmul_stores_by_tensor_map(torch, block, num_warps):
    err, ptx = _run_ws(torch, "float16", 333, 312, 512, block, num_warps, True, store_desc=True)
    assert err < 2e-3, err
    _assert_warp_specialized(ptx, num_warps)
    if ".target sm_90a" in ptx and block[0] * block[1] * 4 <= 64 * 1024:  # else no room: masked stores
        assert "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group" in ptx


@pytest.mark.parametrize("dtype,b_t,block,num_warps,stages", [("float8_e4m3fn", True, (128, 256, 128), 8, 3),
                                                              ("float32", False, (128, 128, 32), 4, 3),
                                                              ("float32", True, (128, 128, 32), 4, 3),
                                                              ("float32", True, (256, 128, 32), 8, 3),
                                                              ("float32", False, (256, 128, 32), 8, 3),
                                                              ("float32", False, (256, 128, 32), 8, 4)])
@pytest.mark.parametrize("shape", [(300, 264, 992), (1024, 1024, 8192)])
def test_warp_specialized_fp8_and_tf32(torch, dtype, b_t, block, num_warps, stages, shape):
    # tf32 with an n-major B reads B's stage through registers, which the
    # next iteration reloads while a wgmma still reads them: the consumers'
    # loop runs two copies of its body, apart in registers (one copy summed
    # wrongly on the H200 at 4096^3). K = 992: an odd number of iterations.
    err, ptx = _run_ws(torch, dtype, *shape, block, num_warps, b_t, stages=stages)
    assert err < 2e-3, err
    _assert_warp_specialized(ptx, num_warps)
    if dtype == "float32" and not b_t and ".target sm_90a" in ptx:
        # B^T A^T: the instruction's m is n; three copies (two, then the rest)
        assert ptx.count("wgmma.mma_async") == 3 * (block[1] // (16 * num_warps)) * (block[2] // 8)


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
@pytest.mark.parametrize("b_t", [True, False])
@pytest.mark.parametrize("block,num_warps,stages", [((128, 256, 64), 8, 3), ((128, 256, 64), 8, 4),
                                                    ((256, 128, 64), 8, 3), ((128, 128, 64), 4, 4)])
def test_warp_specialized_long_loops(torch, dtype, b_t, block, num_warps, stages):
    # 128 iterations over 16 or more programs per SM's worth of tiles: every
    # entry's mbarriers go through dozens of phases while producer and
    # consumers race.
    err, ptx = _run_ws(torch, dtype, 1024, 2048, 8192, block, num_warps, b_t, stages=stages)
    assert err < 2e-3, err
    _assert_warp_specialized(ptx, num_warps)
