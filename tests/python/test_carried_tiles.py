"""Loop-carried tiles on the CPU target: lazy yields are written straight into
the carried buffers (all chunks computed before any is stored), and dot
accumulates in place when nothing else reads its accumulator. Swaps, mixed
shapes, while loops, accumulators read again after the dot, and an outer
accumulator used by a dot in an inner loop must all keep their values."""
import numpy as np

import tessera
import tessera.language as tl


@tessera.jit
def swap_and_shift(out, n_iter, BLOCK: tl.constexpr):
    r = tl.arange(0, BLOCK)
    a = r.to(tl.float32)
    b = (r * 10).to(tl.float32)
    c = tl.zeros((2 * BLOCK,), tl.float32)
    for _ in range(n_iter):
        a, b, c = b + 1.0, a * 2.0, c + 0.5  # a and b read each other; c has another length
    tl.store(out + r, a)
    tl.store(out + BLOCK + r, b)
    tl.store(out + 2 * BLOCK + tl.arange(0, 2 * BLOCK), c)


@tessera.jit
def while_swap(out, n_iter, BLOCK: tl.constexpr):
    r = tl.arange(0, BLOCK)
    a = r.to(tl.float32)
    b = -r.to(tl.float32)
    i = 0
    while i < n_iter:
        a, b = b - a, a
        i += 1
    tl.store(out + r, a)
    tl.store(out + BLOCK + r, b)


@tessera.jit
def matmul_k_loop(a_ptr, b_ptr, c_ptr, K, M: tl.constexpr, N: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, BK)
    a_ptrs = a_ptr + rm[:, None] * K + rk[None, :]
    b_ptrs = b_ptr + rk[:, None] * N + rn[None, :]
    acc = tl.zeros((M, N), tl.float32)
    for _ in range(0, K, BK):
        acc = tl.dot(tl.load(a_ptrs), tl.load(b_ptrs), acc)
        a_ptrs += BK
        b_ptrs += BK * N
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)


@tessera.jit
def accumulator_read_again(a_ptr, b_ptr, c_ptr, d_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
    acc = tl.load(c_ptr + rm[:, None] * N + rn[None, :])
    acc2 = tl.reshape(acc, (M, N))
    d = tl.dot(a, b, acc2)
    tl.store(d_ptr + rm[:, None] * N + rn[None, :], d - acc)  # acc must still hold the old values


@tessera.jit
def outer_accumulator(a_ptr, b_ptr, c_ptr, out, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
    acc = tl.load(c_ptr + rm[:, None] * N + rn[None, :]) + 1.0  # one use, in the inner loop
    total = tl.zeros((M, N), tl.float32)
    for _ in range(2):
        for j in range(3):
            total += tl.dot(a * (j + 1.0), b, acc)  # acc is read by every inner iteration
    tl.store(out + rm[:, None] * N + rn[None, :], total)


def test_lazy_yields_that_read_each_other():
    B, n = 64, 5
    out = np.full(4 * B, np.nan, np.float32)
    swap_and_shift[(1,)](out, n, BLOCK=B)
    a, b = np.arange(B, dtype=np.float64), np.arange(B, dtype=np.float64) * 10
    for _ in range(n):
        a, b = b + 1, a * 2
    np.testing.assert_array_equal(out[:B], a)
    np.testing.assert_array_equal(out[B:2 * B], b)
    np.testing.assert_array_equal(out[2 * B:], np.full(2 * B, 0.5 * n))


def test_while_loop_swap():
    B, n = 32, 7
    out = np.full(2 * B, np.nan, np.float32)
    while_swap[(1,)](out, n, BLOCK=B)
    a, b = np.arange(B, dtype=np.float64), -np.arange(B, dtype=np.float64)
    for _ in range(n):
        a, b = b - a, a
    np.testing.assert_array_equal(out[:B], a)
    np.testing.assert_array_equal(out[B:], b)


def _operands(M, N, K, seed):
    rng = np.random.default_rng(seed)
    a, b = rng.standard_normal((M, K)).astype(np.float32), rng.standard_normal((K, N)).astype(np.float32)
    return a, b, rng.standard_normal((M, N)).astype(np.float32), np.full((M, N), np.nan, np.float32)


def test_dot_accumulates_over_a_k_loop():
    M, N, K, BK = 32, 64, 128, 16
    a, b, _, c = _operands(M, N, K, 0)
    matmul_k_loop[(1,)](a, b, c, K, M=M, N=N, BK=BK)
    np.testing.assert_allclose(c, a.astype(np.float64) @ b, rtol=1e-4, atol=1e-4)


def test_accumulator_read_after_the_dot_is_not_overwritten():
    M, N, K = 16, 32, 16
    a, b, c, d = _operands(M, N, K, 1)
    accumulator_read_again[(1,)](a, b, c, d, M=M, N=N, K=K)
    np.testing.assert_allclose(d, a.astype(np.float64) @ b, rtol=1e-4, atol=1e-4)


def test_outer_accumulator_used_by_an_inner_loop_dot():
    M, N, K = 16, 16, 16
    a, b, c, out = _operands(M, N, K, 2)
    outer_accumulator[(1,)](a, b, c, out, M=M, N=N, K=K)
    want = 12 * (a.astype(np.float64) @ b) + 6 * (c + 1.0)
    np.testing.assert_allclose(out, want, rtol=1e-4, atol=1e-3)
