"""Loads and stores: masks on ragged sizes, `other`, 3-D grids, 2-D tiles
with strides, gathers/scatters, block pointers and tensor descriptors."""

import numpy as np

import tessera
import tessera.language as tl
from tessera.conformance import ALL, FP8, Case, Out, np_dtype, rand


@tessera.jit
def copy_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask), mask=mask)


def ragged(rng, block, blocks=(1, 9)):
    """A size that is not a multiple of the block."""
    return int(rng.integers(*blocks)) * block + int(rng.integers(1, block))


def copy_inputs(rng, dt):
    n = ragged(rng, 128)
    return dict(x_ptr=rand(rng, n, dt), out_ptr=Out(n, dt), n=n, BLOCK=128)


Case("memory.copy_ragged", copy_kernel, copy_inputs, lambda a: {"out_ptr": a["x_ptr"]}, dtypes=ALL + FP8,
     grid=lambda a: (tessera.cdiv(a["n"], 128),))


@tessera.jit
def other_kernel(x_ptr, out_ptr, n, OTHER: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=OTHER)
    tl.store(out_ptr + offs, x)   # the whole padded block: `other` past n


def other_inputs(rng, dt):
    n = ragged(rng, 64)
    other = True if dt == "i1" else (-2.5 if dt.startswith("fp") or dt == "bf16" else 7)
    return dict(x_ptr=rand(rng, n, dt), out_ptr=Out(tessera.cdiv(n, 64) * 64, dt), n=n, OTHER=other, BLOCK=64)


def other_ref(a):
    out = np.empty(tessera.cdiv(a["n"], 64) * 64, a["x_ptr"].dtype)
    out[:] = a["OTHER"]
    out[:a["n"]] = a["x_ptr"]
    return {"out_ptr": out}


Case("memory.load_other", other_kernel, other_inputs, other_ref, dtypes=ALL + FP8,
     grid=lambda a: (tessera.cdiv(a["n"], 64),))


@tessera.jit
def grid3d_kernel(out_ptr):
    x, y, z = tl.program_id(0), tl.program_id(1), tl.program_id(2)
    nx, ny, nz = tl.num_programs(0), tl.num_programs(1), tl.num_programs(2)
    base = out_ptr + (x + nx * (y + ny * z)) * 4
    tl.store(base, x)
    tl.store(base + 1, y)
    tl.store(base + 2, z)
    tl.store(base + 3, nx * 10000 + ny * 100 + nz)


def grid3d_ref(a):
    z, y, x = np.meshgrid(np.arange(4), np.arange(3), np.arange(5), indexing="ij")
    return {"out_ptr": np.stack([x, y, z, np.full_like(x, 50304)], -1).reshape(-1)}


Case("memory.program_id_3d", grid3d_kernel, lambda rng, dt: dict(out_ptr=Out(5 * 3 * 4 * 4, "i32")), grid3d_ref,
     dtypes=["i32"], grid=(5, 3, 4))


@tessera.jit
def tile2d_kernel(x_ptr, out_ptr, M, N, sxm, sxn, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    x = tl.load(x_ptr + rm[:, None] * sxm + rn[None, :] * sxn, mask=mask)
    tl.store(out_ptr + rm[:, None] * N + rn[None, :], x * 2, mask=mask)


def tile2d_inputs(rng, dt):
    m, n = ragged(rng, 16, (1, 4)), ragged(rng, 32, (1, 3))
    x = rand(rng, (n, m), dt).T   # a transposed view: strides (1, m)
    s = x.strides
    return dict(x_ptr=x, out_ptr=Out((m, n), dt), M=m, N=n, sxm=s[0] // x.itemsize, sxn=s[1] // x.itemsize,
                BM=16, BN=32)


Case("memory.tile2d_strided", tile2d_kernel, tile2d_inputs, lambda a: {"out_ptr": a["x_ptr"] * 2},
     dtypes=["i8", "i32", "u16", "i64", "fp16", "bf16", "fp32", "fp64"],
     grid=lambda a: (tessera.cdiv(a["M"], 16), tessera.cdiv(a["N"], 32)))


@tessera.jit
def gather_kernel(x_ptr, idx_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    idx = tl.load(idx_ptr + offs, mask=mask)
    tl.store(out_ptr + idx, tl.load(x_ptr + idx, mask=mask), mask=mask)   # gather, then scatter


def gather_inputs(rng, dt):
    n = ragged(rng, 64)
    return dict(x_ptr=rand(rng, n, dt), idx_ptr=rng.permutation(n).astype(np.int32), out_ptr=Out(n, dt), n=n,
                BLOCK=64)


Case("memory.gather_scatter", gather_kernel, gather_inputs, lambda a: {"out_ptr": a["x_ptr"]},
     dtypes=["i1", "i8", "i16", "u32", "i64", "fp16", "bf16", "fp32", "fp64"],
     grid=lambda a: (tessera.cdiv(a["n"], 64),))


@tessera.jit
def block_ptr_kernel(x_ptr, out_ptr, M, N, K, BM: tl.constexpr, BK: tl.constexpr):
    # Row sums of a ragged M x K matrix, walking K with tl.advance; the
    # boundary check pads with zeros. Also stores the first block back.
    pid = tl.program_id(0)
    src = tl.make_block_ptr(x_ptr, shape=(M, K), strides=(K, 1), offsets=(pid * BM, 0), block_shape=(BM, BK),
                            order=(1, 0))
    acc = tl.zeros((BM, ), dtype=tl.float32)
    first = tl.load(src, boundary_check=(0, 1), padding_option="zero")
    for _ in range(0, K, BK):
        acc += tl.sum(tl.load(src, boundary_check=(0, 1), padding_option="zero").to(tl.float32), axis=1)
        src = tl.advance(src, (0, BK))
    dst = tl.make_block_ptr(out_ptr, shape=(M, N), strides=(N, 1), offsets=(pid * BM, 0), block_shape=(BM, BK),
                            order=(1, 0))
    tl.store(dst, first, boundary_check=(0, 1))
    sums = tl.make_block_ptr(out_ptr + M * N, shape=(M, ), strides=(1, ), offsets=(pid * BM, ), block_shape=(BM, ),
                             order=(0, ))
    tl.store(sums, acc, boundary_check=(0, ))


def block_ptr_inputs(rng, dt):
    m, k = ragged(rng, 16, (1, 4)), ragged(rng, 32, (1, 4))
    # Multiples of 1/16: the fp32 row sums are exact in any order.
    x = (rand(rng, (m, k), "i32", -64, 64) / (16.0 if dt != "i32" else 1.0)).astype(np_dtype(dt))
    return dict(x_ptr=x, out_ptr=Out(m * 32 + m, dt), M=m, N=32, K=k, BM=16, BK=32)


def block_ptr_ref(a):
    x, m = a["x_ptr"], a["M"]
    first = np.zeros((m, 32))
    w = min(32, a["K"])
    first[:, :w] = x[:, :w]
    return {"out_ptr": np.concatenate([first.reshape(-1), x.sum(axis=1)])}


Case("memory.block_ptr", block_ptr_kernel, block_ptr_inputs, block_ptr_ref, dtypes=["fp32", "fp16", "i32"],
     grid=lambda a: (tessera.cdiv(a["M"], 16),))


@tessera.jit
def descriptor_kernel(x_ptr, out_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    src = tl.make_tensor_descriptor(x_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    dst = tl.make_tensor_descriptor(out_ptr, shape=[N, M], strides=[M, 1], block_shape=[BN, BM])
    pm, pn = tl.program_id(0) * BM, tl.program_id(1) * BN
    dst.store([pn, pm], tl.trans(src.load([pm, pn])) + 1)   # out-of-bounds parts are neither read nor written


def descriptor_inputs(rng, dt):
    m, n = ragged(rng, 16, (1, 3)), ragged(rng, 16, (1, 4))
    return dict(x_ptr=rand(rng, (m, n), dt), out_ptr=Out((n, m), dt), M=m, N=n, BM=16, BN=16)


Case("memory.tensor_descriptor", descriptor_kernel, descriptor_inputs, lambda a: {"out_ptr": a["x_ptr"].T + 1},
     dtypes=["fp32", "bf16", "i16", "u8"], grid=lambda a: (tessera.cdiv(a["M"], 16), tessera.cdiv(a["N"], 16)))

