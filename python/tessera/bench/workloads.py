"""The benchmark workloads: Triton-tutorial kernels written with tessera.language,
each with a numpy peer and a way to check the result."""
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
def _matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    group = GROUP_M * num_pid_n
    first_m = (pid // group) * GROUP_M
    size_m = min(num_pid_m - first_m, GROUP_M)
    pid_m = first_m + ((pid % group) % size_m)
    pid_n = (pid % group) // size_m
    rm = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    rn = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    rk = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + rm[:, None] * stride_am + rk[None, :] * stride_ak
    b_ptrs = b_ptr + rk[:, None] * stride_bk + rn[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=rk[None, :] < K - k * BLOCK_K, other=0.0)
        b = tl.load(b_ptrs, mask=rk[:, None] < K - k * BLOCK_K, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (cm[:, None] < M) & (cn[None, :] < N)
    tl.store(c_ptr + cm[:, None] * stride_cm + cn[None, :] * stride_cn, acc.to(c_ptr.dtype.element_ty), mask=mask)


def _np_dtype(name):
    if name == "bf16":
        import ml_dtypes
        return np.dtype(ml_dtypes.bfloat16)
    return np.dtype({"fp16": np.float16, "fp32": np.float32, "fp64": np.float64}[name])


class Workload:
    """name, default shapes and dtypes (gpu_shapes, gpu_dtypes on GPUs);
    make(shape, dtype, rng) returns a Case (bench/cuda.py makes GPU ones)."""
    unit = "GB/s"
    ceiling = "copy"


class Case:
    def __init__(self, run, peers, check, work, data_bytes):
        self.run = run          # the Tessera kernel, ready to launch
        self.peers = peers      # {"numpy": fn}
        self.check = check      # () -> worst relative error of Tessera's output
        self.work = work        # bytes moved (GB/s) or flops (TFLOP/s)
        self.data_bytes = data_bytes


class VectorAdd(Workload):
    name, shapes, dtypes = "vector_add", [(1 << 24,)], ["fp32"]
    gpu_shapes, gpu_dtypes = [(1 << 28,)], ["fp32"]

    def make(self, shape, dtype, rng):
        (n,) = shape
        t = _np_dtype(dtype)
        x, y = rng.random(n).astype(t), rng.random(n).astype(t)
        out = np.full(n, np.nan, dtype=t)
        run = lambda: _add_kernel[(tessera.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
        check = lambda: _rel_err(out, x.astype(np.float64) + y)
        return Case(run, {"numpy": lambda: np.add(x, y, out=out)}, check, 3 * x.nbytes, 3 * x.nbytes)


class Softmax(Workload):
    name, shapes, dtypes = "softmax", [(4096, 4096)], ["fp32"]
    gpu_shapes, gpu_dtypes = [(32768, 4096)], ["fp32", "bf16"]

    def make(self, shape, dtype, rng):
        m, n = shape
        t = _np_dtype(dtype)
        x = rng.standard_normal((m, n)).astype(t)
        out = np.full_like(x, np.nan)
        block = tessera.next_power_of_2(n)
        run = lambda: _softmax_kernel[(min(m, 1024),)](out, x, n, n, m, n, BLOCK=block)

        def peer():
            z = np.exp(x - x.max(axis=1, keepdims=True))
            return z / z.sum(axis=1, keepdims=True)

        def check():
            x64 = x.astype(np.float64)
            e = np.exp(x64 - x64.max(axis=1, keepdims=True))
            return _rel_err(out, e / e.sum(axis=1, keepdims=True))

        return Case(run, {"numpy": peer}, check, 2 * x.nbytes, 2 * x.nbytes)


class LayerNorm(Workload):
    name, shapes, dtypes = "layernorm", [(4096, 4096)], ["fp32", "bf16"]
    gpu_shapes, gpu_dtypes = [(8192, 8192)], ["bf16", "fp32"]

    def make(self, shape, dtype, rng):
        m, n = shape
        t = _np_dtype(dtype)
        x = rng.standard_normal((m, n)).astype(t)
        w, b = rng.random(n).astype(t), rng.random(n).astype(t)
        out = np.full_like(x, np.nan)
        block = tessera.next_power_of_2(n)
        run = lambda: _layernorm_kernel[(m,)](x, out, w, b, n, n, 1e-5, BLOCK=block)

        def reference(xx):
            mu = xx.mean(axis=1, keepdims=True)
            return (xx - mu) / np.sqrt(xx.var(axis=1, keepdims=True) + 1e-5) * w.astype(xx.dtype) + b.astype(xx.dtype)

        peer = lambda: reference(x.astype(np.float32))
        check = lambda: _rel_err(out, reference(x.astype(np.float64)))
        return Case(run, {"numpy": peer}, check, 2 * x.nbytes, 2 * x.nbytes)


class Matmul(Workload):
    name, shapes, dtypes, unit, ceiling = "matmul", [(1024, 1024, 1024)], ["fp32"], "TFLOP/s", "blas"
    gpu_shapes, gpu_dtypes = [(2048, 2048, 2048)], ["fp32", "bf16"]

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


def _rel_err(got, want, scale=1.0):
    got = np.asarray(got, dtype=np.float64)
    if np.isnan(got).any():
        return float("inf")
    return float(np.max(np.abs(got - want) / (np.abs(want) + scale)))


WORKLOADS = {w.name: w for w in (VectorAdd(), Softmax(), LayerNorm(), Matmul())}
