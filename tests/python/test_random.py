"""tl.randint and friends against an independent Philox-4x32-10 (Salmon et
al., SC'11) in numpy: Triton 3.6's stream, which takes a 64-bit offset's
high half as the second counter (so int64 offsets below 2^32 give the int32
offsets' values, and results are 32-bit either way); tl.random.* names the
same functions inside kernels."""
import numpy as np
import pytest

import tessera
import tessera.language as tl

M32 = 0xFFFFFFFF


def philox4x32(seed, c0, c1, rounds=10):
    """Four uint32 arrays for counters (c0, c1, 0, 0) and a 64-bit key."""
    c0, c1 = c0.astype(np.uint64), c1.astype(np.uint64)
    c2, c3 = np.zeros_like(c0), np.zeros_like(c0)
    k0, k1 = np.uint64(seed & M32), np.uint64((seed >> 32) & M32)
    for _ in range(rounds):
        p0, p2 = c0 * np.uint64(0xD2511F53), c2 * np.uint64(0xCD9E8D57)  # full 64-bit products
        c0, c1, c2, c3 = ((p2 >> np.uint64(32)) ^ c1 ^ k0, p2 & np.uint64(M32),
                          (p0 >> np.uint64(32)) ^ c3 ^ k1, p0 & np.uint64(M32))
        k0, k1 = (k0 + np.uint64(0x9E3779B9)) & np.uint64(M32), (k1 + np.uint64(0xBB67AE85)) & np.uint64(M32)
    return [c.astype(np.uint32) for c in (c0, c1, c2, c3)]


@tessera.jit
def _randint(offsets_ptr, out_ptr, seed, N: tl.constexpr):
    i = tl.arange(0, N)
    tl.store(out_ptr + i, tl.randint(seed, tl.load(offsets_ptr + i)).to(tl.uint32, bitcast=True))


@pytest.mark.parametrize("offset_dtype", [np.int32, np.int64, np.uint32, np.uint64])
def test_randint_is_philox_with_the_offset_split_in_two_counters(offset_dtype):
    rng = np.random.default_rng()
    seed = int(rng.integers(0, 2**63))
    info = np.iinfo(offset_dtype)
    offsets = rng.integers(max(info.min, -2**62), min(info.max, 2**62), 256, dtype=offset_dtype)
    offsets[:2] = [0, 1]
    out = np.zeros(256, np.uint32)
    _randint[(1,)](offsets, out, seed, N=256)
    bits = offsets.astype(np.int64).view(np.uint64)
    want = philox4x32(seed, bits & np.uint64(M32), (bits >> np.uint64(32)) if np.dtype(offset_dtype).itemsize == 8
                      else np.zeros_like(bits))[0]
    np.testing.assert_array_equal(out, want)


def test_known_value_and_int64_offsets_below_2_32_repeat_int32():
    small = np.arange(64, dtype=np.int32)
    a, b = np.zeros(64, np.uint32), np.zeros(64, np.uint32)
    _randint[(1,)](small, a, 42, N=64)
    _randint[(1,)](small.astype(np.int64), b, 42, N=64)
    assert a[0] == 2632642643  # Triton 3.6's tl.randint(42, 0)
    np.testing.assert_array_equal(a, b)


@tessera.jit
def _uniform_through_the_module(x_ptr, out_ptr, N: tl.constexpr):
    i = tl.arange(0, N)
    tl.store(out_ptr + i, tl.random.uint_to_uniform_float(tl.load(x_ptr + i)))


@pytest.mark.parametrize("dtype", [np.int32, np.int64])
def test_uniform_floats_stay_below_1_at_the_integer_limits(dtype):
    info = np.iinfo(dtype)
    out = np.zeros(2, np.float32)
    _uniform_through_the_module[(1,)](np.array([info.min, info.max], dtype), out, N=2)
    assert out[0] == out[1] and 1 - np.finfo(np.float32).eps <= out[0] < 1
