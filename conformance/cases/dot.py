"""tl.dot: fp32 (input_precision="ieee" and the tf32 default), fp16, bf16,
fp8, int8 -> int32, fp64, with acc and out_dtype, batched 3-D, and a K loop
over a ragged matrix."""

import numpy as np

import tessera
import tessera.language as tl
from tessera.conformance import Case, Out, rand, tl_dtype


@tessera.jit
def dot_kernel(a_ptr, b_ptr, c_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
               MODE: tl.constexpr, OUT: tl.constexpr):
    rm, rn, rk = tl.arange(0, M), tl.arange(0, N), tl.arange(0, K)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
    if MODE == "ieee":
        r = tl.dot(a, b, input_precision="ieee")
    elif MODE == "acc":
        c = tl.load(c_ptr + rm[:, None] * N + rn[None, :])
        r = tl.dot(a, b, acc=c, out_dtype=c.dtype)  # Triton asserts acc's dtype is out_dtype
    elif MODE == "out_dtype":
        r = tl.dot(a, b, out_dtype=OUT)
    elif MODE == "method":
        r = a.dot(b)
    else:
        tl.static_assert(MODE == "default", "unknown mode")
        r = tl.dot(a, b)
    tl.store(out_ptr + rm[:, None] * N + rn[None, :], r)


# Products of inputs in +-4 summed over K = 32: the reference is exact in
# float64; fp16 out_dtype rounds the result once. tf32 (Triton's default for
# fp32, used by tensor cores) rounds the inputs to 10 mantissa bits: each
# product of up to 16 may be off by 2^-10 of itself, 32 of them summed.
DOT_TOL = {"ieee": (1e-5, 1e-4), "default": (5e-3, 5e-2), "acc": (5e-3, 5e-2), "method": (5e-3, 5e-2),
           "out_dtype": (2e-3, 3e-2)}


def dot_case(mode, dtypes, out=None, shape=(16, 32, 32)):
    M, N, K = shape

    def inputs(rng, dt):
        a, b = rand(rng, (M, K), dt, -4, 4), rand(rng, (K, N), dt, -4, 4)
        # int8 gives int32 and fp64 gives fp64 (whatever out_dtype is), as in Triton.
        acc_dt = "i32" if dt == "i8" else "fp64" if dt == "fp64" else (out or "fp32")
        c = rand(rng, (M, N), acc_dt)
        return dict(a_ptr=a, b_ptr=b, c_ptr=c, out_ptr=Out((M, N), acc_dt), M=M, N=N, K=K, MODE=mode,
                    OUT=tl_dtype(out or "fp32"))

    def ref(a):
        r = a["a_ptr"].astype(np.float64) @ a["b_ptr"].astype(np.float64)
        if mode == "acc":
            r = r + a["c_ptr"]
        return {"out_ptr": r}
    # fp64 sums in fp64: a few ulp of the products' magnitude (fp32 sums would be 1e-7 off).
    tol = {dt: (1e-13, 1e-12) if dt == "fp64" else DOT_TOL[mode] for dt in ("fp16", "bf16", "fp32", "fp64")}
    Case("dot.%s%s_%dx%dx%d" % (mode, "_" + out if out else "", M, N, K), dot_kernel, inputs, ref, dtypes=dtypes,
         tol=tol)


dot_case("ieee", ["fp32", "fp16", "bf16", "fp64", "i8"])
dot_case("ieee", ["fp32"], shape=(64, 16, 128))
dot_case("default", ["fp32", "fp16", "bf16", "fp8e4nv", "fp8e5", "i8", "fp64"])
dot_case("acc", ["fp32", "fp16", "bf16", "i8", "fp64"])
dot_case("out_dtype", ["fp16"], out="fp16")
dot_case("method", ["fp32", "fp16"])
# Below 16 in some dimension: no matrix-unit shape fits, so the dot runs on the
# SIMT lanes (Triton takes these too).
dot_case("default", ["fp32", "fp16", "bf16", "fp8e5", "i8"], shape=(2, 4, 32))
dot_case("ieee", ["fp32", "fp64", "i8"], shape=(1, 2, 8))


@tessera.jit
def batched_kernel(a_ptr, b_ptr, out_ptr, B: tl.constexpr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    rb = tl.arange(0, B)[:, None, None]
    rm = tl.arange(0, M)[None, :, None]
    rn = tl.arange(0, N)[None, None, :]
    rk = tl.arange(0, K)
    a = tl.load(a_ptr + rb * M * K + rm * K + rk[None, None, :])
    b = tl.load(b_ptr + rb * K * N + rk[None, :, None] * N + rn)
    tl.store(out_ptr + rb * M * N + rm * N + rn, tl.dot(a, b, input_precision="ieee"))


Case("dot.batched_3d", batched_kernel,
     lambda rng, dt: dict(a_ptr=rand(rng, (2, 16, 32), dt), b_ptr=rand(rng, (2, 32, 16), dt),
                          out_ptr=Out((2, 16, 16), "i32" if dt == "i8" else "fp32"), B=2, M=16, N=16, K=32),
     lambda a: {"out_ptr": np.matmul(a["a_ptr"].astype(np.float64), a["b_ptr"])}, dtypes=["fp32", "fp16", "i8"],
     tol=(1e-5, 1e-4))


@tessera.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        kk = k * BK + rk
        a = tl.load(a_ptr + rm[:, None] * K + kk[None, :], mask=(rm[:, None] < M) & (kk[None, :] < K), other=0.0)
        b = tl.load(b_ptr + kk[:, None] * N + rn[None, :], mask=(kk[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(a, b, input_precision="ieee")
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc.to(c_ptr.dtype.element_ty),
             mask=(rm[:, None] < M) & (rn[None, :] < N))


def matmul_inputs(rng, dt):
    m, n, k = (int(rng.integers(20, 90)) for _ in range(3))
    return dict(a_ptr=rand(rng, (m, k), dt, -1, 1), b_ptr=rand(rng, (k, n), dt, -1, 1), c_ptr=Out((m, n), dt), M=m,
                N=n, K=k, BM=32, BN=32, BK=16)


Case("dot.matmul_ragged", matmul_kernel, matmul_inputs,
     lambda a: {"c_ptr": a["a_ptr"] @ a["b_ptr"]}, dtypes=["fp32", "fp16", "bf16"],
     grid=lambda a: (tessera.cdiv(a["M"], 32), tessera.cdiv(a["N"], 32)), tol={"fp32": (1e-5, 1e-5)})


def mixed_fp8_inputs(rng, dt):
    # A in the case's fp8 type, B in the other one (Triton lets two fp8 types mix).
    other = "fp8e5" if dt == "fp8e4nv" else "fp8e4nv"
    return dict(a_ptr=rand(rng, (32, 64), dt, -4, 4), b_ptr=rand(rng, (64, 32), other, -4, 4), c_ptr=None,
                out_ptr=Out((32, 32), "fp32"), M=32, N=32, K=64, MODE="default", OUT=tl.float32)


# fp8 products are exact in f32: the error is the f32 sum's.
Case("dot.mixed_fp8_32x32x64", dot_kernel, mixed_fp8_inputs,
     lambda a: {"out_ptr": a["a_ptr"].astype(np.float64) @ a["b_ptr"].astype(np.float64)},
     dtypes=["fp8e4nv", "fp8e5"], tol=(1e-5, 1e-4))
