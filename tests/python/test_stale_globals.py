"""A kernel reads globals and closure variables as compile-time values:
changing one after the first launch must not reuse the old kernel, and
@jit helpers reached through a closure must be found."""
import numpy as np
import pytest

import tessera
import tessera.language as tl

pytestmark = pytest.mark.usefixtures("cpu_target")


FACTOR = 3


@tessera.jit
def helper(x):
    return x * 2


@tessera.jit
def scale_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, helper(tl.load(x_ptr + offs, mask=m)) * FACTOR, mask=m)


def _run(kernel):
    x = np.arange(1, 17, dtype=np.int32)
    out = np.full_like(x, -1)
    kernel[(1,)](x, out, x.size, BLOCK=16)
    return x, out


def test_a_changed_global_constant_recompiles():
    global FACTOR
    x, out = _run(scale_kernel)
    np.testing.assert_array_equal(out, x * 2 * 3)
    FACTOR = 5
    try:
        x, out = _run(scale_kernel)
        np.testing.assert_array_equal(out, x * 2 * 5)
    finally:
        FACTOR = 3
    x, out = _run(scale_kernel)
    np.testing.assert_array_equal(out, x * 2 * 3)


def test_a_rebound_jit_helper_recompiles():
    global helper
    original = helper
    x, out = _run(scale_kernel)
    np.testing.assert_array_equal(out, x * 2 * 3)

    @tessera.jit
    def helper(x):  # noqa: F811  (rebinding the global is the point)
        return x + 100

    try:
        x, out = _run(scale_kernel)
        np.testing.assert_array_equal(out, (x + 100) * 3)
    finally:
        helper = original
    x, out = _run(scale_kernel)
    np.testing.assert_array_equal(out, x * 2 * 3)


def _make_kernel(offset):
    @tessera.jit
    def add_offset(x):
        return x + offset

    @tessera.jit
    def kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        m = offs < n
        tl.store(out_ptr + offs, add_offset(tl.load(x_ptr + offs, mask=m)), mask=m)

    return kernel


def test_jit_helpers_and_constants_from_a_closure():
    x, out = _run(_make_kernel(7))
    np.testing.assert_array_equal(out, x + 7)
    x, out = _run(_make_kernel(-3))
    np.testing.assert_array_equal(out, x - 3)


def test_a_changed_closure_variable_recompiles():
    factor = 2

    @tessera.jit
    def kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        m = offs < n
        tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=m) * factor, mask=m)

    x, out = _run(kernel)
    np.testing.assert_array_equal(out, x * 2)
    factor = 9
    x, out = _run(kernel)
    np.testing.assert_array_equal(out, x * 9)
