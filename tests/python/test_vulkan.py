"""The spirv target's Vulkan flavour end to end on whatever Vulkan device is
here (Mesa's lavapipe on CI machines: subgroups of 8, 32 KiB of shared
memory): tessera arrays on the device, launches, the binary's own argument
layout, and the errors a user meets. The whole conformance corpus runs on
it in ci/test.sh's matrix step."""

import numpy as np
import pytest

import tessera
import tessera.language as tl
from tessera import _C

pytestmark = pytest.mark.skipif("vulkan" not in _C.backend_names(),
                                reason="no Vulkan device (ci/bootstrap.sh installs Mesa's lavapipe)")


@tessera.jit(target="vulkan")
def axpy(x_ptr, y_ptr, out_ptr, a, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, a * x + y, mask=mask)


@tessera.jit(target="vulkan")
def softmax(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=-float("inf"))
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(out_ptr + row * n_cols + cols, e / tl.sum(e, axis=0), mask=cols < n_cols)


@tessera.jit(target="vulkan")
def mixed_args(out_ptr, flag, small, half, wide):
    # 1-, 4- and 8-byte scalars in one push-constant block (i1, i32, f32, i64).
    v = tl.where(flag, small.to(tl.float32) + half, wide.to(tl.float32))
    tl.store(out_ptr + tl.arange(0, 8), tl.full([8], 1.0, tl.float32) * v)


def test_device_and_arrays_round_trip():
    dev = _C.get_device("vulkan")
    arch = _C.device_architecture(dev) if hasattr(_C, "device_architecture") else None
    a = np.random.default_rng(1).standard_normal(1001).astype(np.float32)
    x = tessera.from_numpy(a, device="vulkan")
    assert x.device == "vulkan:0" and x.shape == (1001,)
    assert np.array_equal(x.numpy(), a)
    z = tessera.zeros((3, 5), "int16", device="vulkan")
    assert np.array_equal(z.numpy(), np.zeros((3, 5), np.int16))
    assert arch is None or arch.startswith("sg")


def test_axpy_ragged():
    rng = np.random.default_rng(2)
    n = 10_007
    x, y = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    out = tessera.from_numpy(np.full(n, np.nan, np.float32), device="vulkan")
    axpy[(triton_cdiv(n, 512),)](tessera.from_numpy(x, device="vulkan"), tessera.from_numpy(y, device="vulkan"), out,
                                 1.5, n, BLOCK=512)
    np.testing.assert_allclose(out.numpy(), 1.5 * x.astype(np.float64) + y, rtol=1e-6, atol=1e-6)


def triton_cdiv(a, b):
    return (a + b - 1) // b


@pytest.mark.parametrize("n_cols", [1, 77, 1000])
def test_softmax_rows(n_cols):
    rng = np.random.default_rng(n_cols)
    rows = 13
    x = rng.standard_normal((rows, n_cols)).astype(np.float32) * 4
    out = tessera.from_numpy(np.full((rows, n_cols), np.nan, np.float32), device="vulkan")
    softmax[(rows,)](tessera.from_numpy(x, device="vulkan"), out, n_cols, BLOCK=1024)
    ref = np.exp(x.astype(np.float64) - x.max(axis=1, keepdims=True))
    ref /= ref.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(out.numpy(), ref, rtol=1e-5, atol=1e-7)


def test_scalar_arguments_of_every_width():
    out = tessera.from_numpy(np.full(8, np.nan, np.float32), device="vulkan")
    mixed_args[(1,)](out, True, -3, 0.5, 1 << 40)
    assert out.numpy().tolist() == [-2.5] * 8
    mixed_args[(1,)](out, False, -3, 0.5, 1 << 40)
    assert out.numpy().tolist() == [float(1 << 40)] * 8


def test_host_arrays_are_refused_with_the_reason():
    with pytest.raises(tessera.TesseraError, match="is on cpu, but the kernel is compiled for vulkan devices"):
        axpy[(1,)](np.zeros(8, np.float32), np.zeros(8, np.float32), np.zeros(8, np.float32), 1.0, 8, BLOCK=8)


def test_binary_for_another_subgroup_size_is_refused():
    dev = _C.get_device("vulkan")
    sg = _C.device_attribute(dev, "warpSize")
    other = 64 if sg != 64 else 32
    binary = axpy.compile_only("vulkan", np.zeros(8, np.float32), np.zeros(8, np.float32), np.zeros(8, np.float32), 1.0,
                               8, BLOCK=512, arch="sg%d-16k" % other)
    assert binary.format == "spirv" and bytes(binary.data[:4]) == b"\x03\x02\x23\x07"
    with pytest.raises(tessera.TesseraError, match="compiled for subgroups of %d lanes" % other):
        _C.load_binary(bytes(binary.data), "axpy", 5, format="spirv", threads=binary.threads)


@tessera.jit(target="vulkan")
def seventeen_pointers(p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11, p12, p13, p14, p15, p16):
    tl.store(p0, tl.load(p16))


def test_too_many_argument_bytes_is_a_compile_error():
    with pytest.raises(tessera.TesseraError, match="takes 136 bytes of arguments; Vulkan push constants hold 128"):
        seventeen_pointers[(1,)](*[tessera.empty(1, device="vulkan") for _ in range(17)])
