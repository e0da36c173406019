"""The benchmark workloads: Triton-tutorial kernels written with tessera.language,
each with a numpy peer and a way to check the result.

Layer 4, api (python/tessera/__init__.py lists the layers)."""
import numpy as np

import tessera
import tessera.language as tl


@tessera.jit
def _add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)


@tessera.jit
def _softmax_kernel(out_ptr, in_ptr, in_stride, out_stride, n_rows, n_cols, BLOCK: tl.constexpr):
    for row in tl.range(tl.program_id(0), n_rows, tl.num_programs(0)):
        cols = tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(in_ptr + row * in_stride + cols, mask=mask, other=-float("inf")).to(tl.float32)
        z = x - tl.max(x, axis=0)
        num = tl.exp(z)
        y = num / tl.sum(num, axis=0)
        tl.store(out_ptr + row * out_stride + cols, y.to(out_ptr.dtype.element_ty), mask=mask)


@tessera.jit
def _layernorm_kernel(X, Y, W, B, stride, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    x = tl.load(X + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=0) / N
    xc = tl.where(mask, x - mean, 0.0)
    rstd = 1 / tl.sqrt(tl.sum(xc * xc, axis=0) / N + eps)
    w = tl.load(W + cols, mask=mask).to(tl.float32)
    b = tl.load(B + cols, mask=mask).to(tl.float32)
    tl.store(Y + row * stride + cols, (xc * rstd * w + b).to(Y.dtype.element_ty), mask=mask)


@tessera.jit
def _grouped_tile(M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, GROUP_M: tl.constexpr):
    # The program's (row, column) tile.
    return _tile_of(tl.program_id(0), M, N, BLOCK_M, BLOCK_N, GROUP_M)


@tessera.jit
def _tile_of(pid, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, GROUP_M: tl.constexpr):
    # Tile `pid`'s (row, column), GROUP_M row tiles at a time along the
    # columns (Triton's tutorial 03 order: the groups share B in L2).
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    group = GROUP_M * num_pid_n
    first_m = (pid // group) * GROUP_M
    size_m = min(num_pid_m - first_m, GROUP_M)
    return first_m + ((pid % group) % size_m), (pid % group) // size_m


@tessera.jit
def _matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr,
                   ACC: tl.constexpr = tl.float32):
    pid_m, pid_n = _grouped_tile(M, N, BLOCK_M, BLOCK_N, GROUP_M)
    # Ragged edges by masks, not by wrapping rows with % M as Triton's
    # tutorial does: Tessera's axis analysis does not assume (pid * BLOCK + i)
    # % M >= 0 stays contiguous (it is not proven), and both run this source.
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + rm[:, None] * stride_am + rk[None, :] * stride_ak
    b_ptrs = b_ptr + rk[:, None] * stride_bk + rn[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=ACC)  # int32 for int8 inputs
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=(rm[:, None] < M) & (rk[None, :] < K - k * BLOCK_K), other=0.0)
        b = tl.load(b_ptrs, mask=(rk[:, None] < K - k * BLOCK_K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc, out_dtype=ACC)  # Triton asserts acc's dtype is out_dtype
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (cm[:, None] < M) & (cn[None, :] < N)
    tl.store(c_ptr + cm[:, None] * stride_cm + cn[None, :] * stride_cn, acc.to(c_ptr.dtype.element_ty), mask=mask)


@tessera.jit
def _matmul_desc_kernel(a_desc, b_desc, c_desc, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                        BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr, B_KMAJOR: tl.constexpr,
                        WARP_SPECIALIZE: tl.constexpr = False):
    # _matmul_kernel's tiles through host tensor descriptors (Hopper copies
    # them with TMA); B is (N, K) when B_KMAJOR (fp8 dots need it), else (K, N).
    # WARP_SPECIALIZE: a producer warp issues the copies (tl.range's hint).
    pid_m, pid_n = _grouped_tile(M, N, BLOCK_M, BLOCK_N, GROUP_M)
    off_m, off_n = pid_m * BLOCK_M, pid_n * BLOCK_N
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in tl.range(0, tl.cdiv(K, BLOCK_K), warp_specialize=WARP_SPECIALIZE):
        acc = _desc_k_step(a_desc, b_desc, off_m, off_n, k * BLOCK_K, acc, B_KMAJOR)
    c_desc.store([off_m, off_n], acc.to(c_desc.dtype))


@tessera.jit
def _desc_k_step(a_desc, b_desc, off_m, off_n, off_k, acc, B_KMAJOR: tl.constexpr):
    # acc + A[off_m:, off_k:] @ B[off_k:, off_n:], one block each; B is
    # (N, K) when B_KMAJOR, else (K, N).
    a = a_desc.load([off_m, off_k])
    if B_KMAJOR:
        b = b_desc.load([off_n, off_k]).T
    else:
        b = b_desc.load([off_k, off_n])
    return tl.dot(a, b, acc)


@tessera.jit
def _matmul_persistent_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                              BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr, B_KMAJOR: tl.constexpr,
                              NUM_PROGRAMS: tl.constexpr, WARP_SPECIALIZE: tl.constexpr = False):
    # Triton's tutorial 09 descriptor kernel: NUM_PROGRAMS programs (one
    # per SM) walk the tiles, through descriptors made in the kernel (TMA
    # maps on Hopper). WARP_SPECIALIZE: the tile loop's, so that a producer
    # copies the next tile's stages during this one's epilogue.
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BLOCK_M, BLOCK_K])
    if B_KMAJOR:
        b_desc = tl.make_tensor_descriptor(b_ptr, shape=[N, K], strides=[K, 1], block_shape=[BLOCK_N, BLOCK_K])
    else:
        b_desc = tl.make_tensor_descriptor(b_ptr, shape=[K, N], strides=[N, 1], block_shape=[BLOCK_K, BLOCK_N])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1], block_shape=[BLOCK_M, BLOCK_N])
    k_tiles = tl.cdiv(K, BLOCK_K)
    tiles = tl.cdiv(M, BLOCK_M) * tl.cdiv(N, BLOCK_N)
    for tile in tl.range(tl.program_id(0), tiles, NUM_PROGRAMS, flatten=True, warp_specialize=WARP_SPECIALIZE):
        pid_m, pid_n = _tile_of(tile, M, N, BLOCK_M, BLOCK_N, GROUP_M)
        off_m, off_n = pid_m * BLOCK_M, pid_n * BLOCK_N
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for k in range(k_tiles):
            acc = _desc_k_step(a_desc, b_desc, off_m, off_n, k * BLOCK_K, acc, B_KMAJOR)
        c_desc.store([off_m, off_n], acc.to(c_desc.dtype))


@tessera.jit
def _attention_kernel(Q, K, V, Out, sm_scale, seq, stride_bh, stride_s, D: tl.constexpr, BLOCK_M: tl.constexpr,
                      BLOCK_N: tl.constexpr, CAUSAL: tl.constexpr = False):
    # Forward attention for one block of queries of one (batch, head), with
    # the running max / running sum rescaling of online softmax.
    start_m = tl.program_id(0)
    base = tl.program_id(1) * stride_bh
    rows = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    keys = tl.arange(0, BLOCK_N)
    dims = tl.arange(0, D)
    q = tl.load(Q + base + rows[:, None] * stride_s + dims[None, :], mask=rows[:, None] < seq, other=0.0)
    scale = sm_scale * 1.4426950408889634  # exp(x) = exp2(x * log2(e))
    row_max = tl.full((BLOCK_M,), -float("inf"), tl.float32)
    row_sum = tl.zeros((BLOCK_M,), tl.float32)
    acc = tl.zeros((BLOCK_M, D), tl.float32)
    end = tl.minimum(seq, (start_m + 1) * BLOCK_M) if CAUSAL else seq  # causal: keys up to the block's last query
    for start_n in range(0, end, BLOCK_N):
        cols = start_n + keys
        kt = tl.load(K + base + cols[None, :] * stride_s + dims[:, None], mask=cols[None, :] < seq, other=0.0)
        keep = cols[None, :] < seq
        if CAUSAL:
            keep = keep & (cols[None, :] <= rows[:, None])
        s = tl.where(keep, tl.dot(q, kt) * scale, -float("inf"))
        new_max = tl.maximum(row_max, tl.max(s, axis=1))
        p = tl.exp2(s - new_max[:, None])
        rescale = tl.exp2(row_max - new_max)
        row_sum = row_sum * rescale + tl.sum(p, axis=1)
        v = tl.load(V + base + cols[:, None] * stride_s + dims[None, :], mask=cols[:, None] < seq, other=0.0)
        acc = acc * rescale[:, None] + tl.dot(p.to(v.dtype), v)
        row_max = new_max
    out = acc / row_sum[:, None]
    tl.store(Out + base + rows[:, None] * stride_s + dims[None, :], out.to(Out.dtype.element_ty),
             mask=rows[:, None] < seq)


def _np_dtype(name):
    if name == "bf16":
        import ml_dtypes
        return np.dtype(ml_dtypes.bfloat16)
    return np.dtype({"fp16": np.float16, "fp32": np.float32, "fp64": np.float64}[name])


# GPU configurations, the same for every target and peer of a run: softmax
# autotunes num_warps over SOFTMAX_WARPS (one row per program; on the H200
# at 4096 columns 8 warps win for bf16, 16 for fp32); layernorm takes
# layernorm_warps(BLOCK).
SOFTMAX_WARPS = [4, 8, 16]


def layernorm_warps(block):
    return min(max(block // 256, 1), 8)


def autotune(time_ms, launch, configs, rounds=5):
    """The fastest of launch(config) for each config, with the configuration
    it ran as `.config`. Each runs once to compile; then every config is
    timed by time_ms(fn) `rounds` times in turn, and the median of its
    rounds ranks it: turns interleave so that a drifting clock (a GPU under
    its power cap) touches every config alike, and one lucky or unlucky
    round decides nothing."""
    import statistics
    runnable, error = [], None
    for cfg in configs:
        fn = launch(cfg)
        try:
            fn()
        except Exception as e:  # noqa: BLE001  (a config this compiler or GPU cannot run)
            error = "%s: %s" % (cfg, str(e).splitlines()[0][:200] if str(e) else type(e).__name__)
            continue
        fn.config = cfg
        runnable.append(fn)
    if not runnable:
        raise RuntimeError("no configuration ran (last: %s)" % error)
    times = {id(fn): [] for fn in runnable}
    for _ in range(rounds if len(runnable) > 1 else 0):
        for fn in runnable:
            times[id(fn)].append(time_ms(fn))
    return min(runnable, key=lambda fn: statistics.median(times[id(fn)]) if times[id(fn)] else 0.0)


def chosen(case):
    """case.configs: the configuration each autotuned kernel ran (the row reports it)."""
    case.configs = {name: fn.config for name, fn in [("tessera", case.run)] + list(case.peers.items())
                    if hasattr(fn, "config")}
    return case


class Workload:
    """name, default shapes and dtypes (gpu_shapes, gpu_dtypes on GPUs);
    make(shape, dtype, rng, device=None, time_ms=None) returns a Case: on the
    host, or with `device` ("vulkan") on tessera arrays there with the GPU
    configurations, autotuned with time_ms(fn) (bench/vulkan.py); bench/cuda.py
    makes CUDA ones from torch tensors."""
    unit = "GB/s"
    ceiling = "copy"
    on_devices = False  # make() takes a device
    # The dtypes make() can build; a requested other one is a skipped row.
    known_dtypes = ("fp32", "fp16", "bf16")


def _placement(device):
    """(to the device, back to numpy) for a Case's arrays; identities on the host."""
    if device is None:
        return (lambda a: a), (lambda a: a)
    return (lambda a: tessera.from_numpy(a, device=device)), (lambda a: a.numpy())


class Case:
    def __init__(self, run, peers, check, work, data_bytes, outputs=()):
        self.run = run          # the Tessera kernel, ready to launch
        self.peers = peers      # {"numpy": fn}
        self.check = check      # () -> worst relative error of Tessera's output
        self.work = work        # bytes moved (GB/s) or flops (TFLOP/s)
        self.data_bytes = data_bytes
        # torch tensors Tessera writes and peers may write too: poisoned
        # before the run that check() reads, so it sees Tessera's writes only.
        self.outputs = outputs


class VectorAdd(Workload):
    name, shapes, dtypes = "vector_add", [(1 << 24,)], ["fp32"]
    gpu_shapes, gpu_dtypes = [(1 << 28,)], ["fp32"]

    on_devices = True

    def make(self, shape, dtype, rng, device=None, time_ms=None):
        (n,) = shape
        t = _np_dtype(dtype)
        put, get = _placement(device)
        x, y = rng.random(n).astype(t), rng.random(n).astype(t)
        xd, yd, out = put(x), put(y), put(np.full(n, np.nan, dtype=t))
        run = lambda: _add_kernel[(tessera.cdiv(n, 1024),)](xd, yd, out, n, BLOCK=1024)
        check = lambda: _rel_err(get(out), x.astype(np.float64) + y)
        # The checked mode's cost is the "tessera checked" peer.
        checked = lambda: _add_kernel[(tessera.cdiv(n, 1024),)](xd, yd, out, n, BLOCK=1024, debug=True)
        peers = {"tessera checked": checked}
        if device is None:
            peers["numpy"] = lambda: np.add(x, y, out=out)
        return Case(run, peers, check, 3 * x.nbytes, 3 * x.nbytes)


class Softmax(Workload):
    name, shapes, dtypes = "softmax", [(4096, 4096)], ["fp32"]
    gpu_shapes, gpu_dtypes = [(32768, 4096)], ["fp32", "bf16"]

    on_devices = True

    def make(self, shape, dtype, rng, device=None, time_ms=None):
        m, n = shape
        t = _np_dtype(dtype)
        put, get = _placement(device)
        x = rng.standard_normal((m, n)).astype(t)
        xd, out = put(x), put(np.full_like(x, np.nan))
        block = tessera.next_power_of_2(n)
        # One row per program (as on the GPU): a thread's programs are then
        # consecutive rows, which the hardware prefetcher streams.
        launch = lambda warps: lambda: _softmax_kernel[(m,)](out, xd, n, n, m, n, BLOCK=block, num_warps=warps)
        run = autotune(time_ms, launch, SOFTMAX_WARPS) if device else launch(None)

        def peer():
            z = np.exp(x - x.max(axis=1, keepdims=True))
            return z / z.sum(axis=1, keepdims=True)

        def check():
            x64 = x.astype(np.float64)
            e = np.exp(x64 - x64.max(axis=1, keepdims=True))
            return _rel_err(get(out), e / e.sum(axis=1, keepdims=True))

        return chosen(Case(run, {} if device else {"numpy": peer}, check, 2 * x.nbytes, 2 * x.nbytes))


class LayerNorm(Workload):
    name, shapes, dtypes = "layernorm", [(4096, 4096)], ["fp32", "bf16"]
    gpu_shapes, gpu_dtypes = [(8192, 8192)], ["bf16", "fp32"]

    on_devices = True

    def make(self, shape, dtype, rng, device=None, time_ms=None):
        m, n = shape
        t = _np_dtype(dtype)
        put, get = _placement(device)
        x = rng.standard_normal((m, n)).astype(t)
        w, b = rng.random(n).astype(t), rng.random(n).astype(t)
        xd, wd, bd, out = put(x), put(w), put(b), put(np.full_like(x, np.nan))
        block = tessera.next_power_of_2(n)
        warps = layernorm_warps(block) if device else None
        run = lambda: _layernorm_kernel[(m,)](xd, out, wd, bd, n, n, 1e-5, BLOCK=block, num_warps=warps)

        def reference(xx):
            mu = xx.mean(axis=1, keepdims=True)
            return (xx - mu) / np.sqrt(xx.var(axis=1, keepdims=True) + 1e-5) * w.astype(xx.dtype) + b.astype(xx.dtype)

        peer = lambda: reference(x.astype(np.float32))
        check = lambda: _rel_err(get(out), reference(x.astype(np.float64)))
        return chosen(Case(run, {} if device else {"numpy": peer}, check, 2 * x.nbytes, 2 * x.nbytes))


class Matmul(Workload):
    name, shapes, dtypes, unit, ceiling = "matmul", [(1024, 1024, 1024)], ["fp32"], "TFLOP/s", "blas"
    known_dtypes = ("fp32", "fp16", "bf16", "i8", "fp8")
    gpu_shapes, gpu_dtypes = [(4096, 4096, 4096), (8192, 8192, 8192)], ["bf16", "fp16", "fp32", "i8", "fp8"]
    # fp32 dots round their inputs to tf32 (Triton's default input_precision);
    # fp8 dots on Hopper add their products with less than f32 precision (as
    # Triton's default max_num_imprecise_acc does: ir/IR.h), so their error
    # grows with k, and the bf16 result rounds.
    tolerance = {"fp32": 5e-3, "fp8": 3e-2}

    def make(self, shape, dtype, rng):
        m, n, k = shape
        t = _np_dtype(dtype)
        a, b = rng.standard_normal((m, k)).astype(t), rng.standard_normal((k, n)).astype(t)
        c = np.full((m, n), np.nan, dtype=t)
        grid = (tessera.cdiv(m, 128) * tessera.cdiv(n, 128),)
        run = lambda: _matmul_kernel[grid](a, b, c, m, n, k, k, 1, n, 1, n, 1,
                                           BLOCK_M=128, BLOCK_N=128, BLOCK_K=32, GROUP_M=8)
        check = lambda: _rel_err(c, a.astype(np.float64) @ b.astype(np.float64), scale=np.sqrt(k))
        return Case(run, {"numpy": lambda: a @ b}, check, 2 * m * n * k, a.nbytes + b.nbytes + c.nbytes)


class Attention(Workload):
    """Forward attention, non-causal; shape (batch x heads, sequence, head dim).
    On GPUs also Triton's tutorial 06 size: B = 4, H = 32, S = 4096, D = 128."""
    name, shapes, dtypes, unit, ceiling = "attention", [(4, 256, 64)], ["fp32"], "TFLOP/s", "peer"
    gpu_shapes, gpu_dtypes = [(32, 2048, 64), (128, 4096, 128)], ["bf16", "fp32"]
    BLOCK_M, BLOCK_N = 64, 32
    causal = False
    tolerance = {"fp32": 5e-3}  # tf32 dots, as Triton's

    @staticmethod
    def configs(d, dtype):
        """(BLOCK_M, BLOCK_N, num_warps, num_stages) that Tessera and Triton
        both autotune over on GPUs. fp32 at D = 128 keeps to 2 stages
        (Triton's K and V buffers pass the shared memory of an H200 with 3)."""
        if d >= 128:
            if dtype == "fp32":
                return [(128, 32, 8, 2), (64, 32, 4, 2), (128, 64, 8, 2)]
            return [(128, 64, 8, 3), (128, 32, 8, 3), (64, 64, 4, 3), (128, 128, 8, 2)]
        return [(64, 32, 4, 3), (128, 64, 4, 3), (128, 64, 8, 3), (64, 64, 4, 3)]

    def make(self, shape, dtype, rng):
        bh, s, d = shape
        t = _np_dtype(dtype)
        q, k, v = (rng.standard_normal((bh, s, d)).astype(t) for _ in range(3))
        out = np.full_like(q, np.nan)
        scale = 1.0 / np.sqrt(d)
        grid = (tessera.cdiv(s, self.BLOCK_M), bh)
        run = lambda: _attention_kernel[grid](q, k, v, out, scale, s, s * d, d, D=d, BLOCK_M=self.BLOCK_M,
                                              BLOCK_N=self.BLOCK_N, CAUSAL=self.causal)

        causal = self.causal

        def reference(qq, kk, vv):
            w = qq @ kk.transpose(0, 2, 1) * scale
            if causal:
                w = np.where(np.tril(np.ones((s, s), bool)), w, -np.inf)
            w = np.exp(w - w.max(axis=2, keepdims=True))
            return (w / w.sum(axis=2, keepdims=True)) @ vv

        peer = lambda: reference(q.astype(np.float32), k.astype(np.float32), v.astype(np.float32))
        check = lambda: _rel_err(out, reference(*(x.astype(np.float64) for x in (q, k, v))), scale=1.0)
        work = 4 * bh * s * s * d // (2 if self.causal else 1)
        return Case(run, {"numpy": peer}, check, work, 4 * q.nbytes)


class CausalAttention(Attention):
    """Causal forward attention (each query sees the keys up to its own)."""
    name = "attention_causal"
    gpu_shapes = [(128, 4096, 128)]
    causal = True


def _rel_err(got, want, scale=1.0):
    got = np.asarray(got, dtype=np.float64)
    if np.isnan(got).any():
        return float("inf")
    return float(np.max(np.abs(got - want) / (np.abs(want) + scale)))


WORKLOADS = {w.name: w for w in (VectorAdd(), Softmax(), LayerNorm(), Matmul(), Attention(), CausalAttention())}
