"""A program's loads happen before its stores, as on a GPU, even when the CPU
target computes a store's value chunk by chunk and the arrays overlap."""
import numpy as np

import tessera
import tessera.language as tl


@tessera.jit
def shift_right(p, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    m = offs + 1 < n
    x = tl.load(p + offs, mask=m)
    tl.store(p + offs + 1, x * 2, mask=m)


@tessera.jit
def increment(p, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    m = offs < n
    tl.store(p + offs, tl.load(p + offs, mask=m) + 1, mask=m)


@tessera.jit
def add(x, y, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out + offs, tl.load(x + offs, mask=m) + tl.load(y + offs, mask=m), mask=m)


@tessera.jit
def atomic_from_loads(p, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    m = offs + 1 < n
    tl.atomic_add(p + offs + 1, tl.load(p + offs, mask=m), mask=m)


def test_store_shifted_over_its_own_input():
    a = np.arange(1, 101, dtype=np.float32)
    want = a.copy()
    want[1:] = a[:-1] * 2
    shift_right[(1,)](a, 100, BLOCK=128)
    np.testing.assert_array_equal(a, want)


def test_store_in_place():
    a = np.arange(100, dtype=np.float32)
    increment[(1,)](a, 100, BLOCK=128)
    np.testing.assert_array_equal(a, np.arange(100) + 1)


def test_output_overlaps_an_input_with_an_offset():
    buf = np.arange(1, 202, dtype=np.float32)
    x, out, y = buf[0:100], buf[1:101], np.ones(100, np.float32)
    want = x.copy() + 1
    add[(1,)](x, y, out, 100, BLOCK=128)
    np.testing.assert_array_equal(out, want)


def test_atomics_see_values_loaded_before_them():
    a = np.arange(1, 65, dtype=np.float32)
    want = a.copy()
    want[1:] += a[:-1]
    atomic_from_loads[(1,)](a, 64, BLOCK=64)
    np.testing.assert_array_equal(a, want)


@tessera.jit
def load_then_overwrite(p, q, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(p + offs)
    y = x + 1
    tl.store(p + offs, tl.zeros_like(x))
    tl.store(q + offs, y)


def test_a_store_between_a_load_and_its_use():
    p = np.arange(1, 65, dtype=np.float32)
    q = np.full(64, np.nan, np.float32)
    want = p + 1
    load_then_overwrite[(1,)](p, q, BLOCK=64)
    np.testing.assert_array_equal(q, want)
    np.testing.assert_array_equal(p, np.zeros(64))


@tessera.jit
def _wrapping_bound_kernel(out_ptr, big, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, offs, mask=big + offs < n)  # big + offs wraps past INT_MAX


def test_bounds_mask_whose_offsets_wrap_inside_a_chunk(cpu_target):
    # A chunk's mask is judged from its first and last offsets only when the
    # offsets cannot wrap between them; here they do, at element 6.
    out = np.full(64, -1, np.int32)
    big, n = 2**31 - 5, 2**31 - 1
    _wrapping_bound_kernel[(1,)](out, big, n, BLOCK=64)
    v = (np.arange(64, dtype=np.int64) + big + 2**31) % 2**32 - 2**31  # i32 wrap-around
    expected = np.where(v < n, np.arange(64), -1)
    np.testing.assert_array_equal(out, expected)
