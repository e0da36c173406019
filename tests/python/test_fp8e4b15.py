"""tl.float8e4b15, Triton's software fp8 (triton.language.extra.cuda.utils):
e4m3's layout with bias 15, 0x7F = 1.875 and no NaN or infinity. It widens
exactly (its bits are an f16's), and narrows as Triton's
convert_float16_to_fp8e4b15 does: f32 to f16 toward zero, the magnitude
clamped to 1.75 (NaN and infinities too), the top bits rounded half away
from zero. Checked bit for bit against that algorithm in numpy, on the CPU
and on the SPIR-V targets where their devices are here; tl.dot takes its
operands as f16, as Triton's."""

import numpy as np
import pytest

import tessera
import tessera.language as tl
from tessera import _C
from tessera.language.extra import cuda


@tessera.jit
def _widen(bits_ptr, out_ptr, N: tl.constexpr, TO: tl.constexpr, CUSTOM: tl.constexpr):
    i = tl.arange(0, N)
    x = tl.load(bits_ptr + i).to(tl.float8e4b15, bitcast=True)
    tl.store(out_ptr + i, cuda.convert_custom_float8_sm80(x, TO) if CUSTOM else x.to(TO))


@tessera.jit
def _narrow(x_ptr, bits_ptr, N: tl.constexpr, CUSTOM: tl.constexpr):
    i = tl.arange(0, N)
    x = tl.load(x_ptr + i)
    y = cuda.convert_custom_float8_sm70(x, tl.float8e4b15) if CUSTOM else x.to(tl.float8e4b15)
    tl.store(bits_ptr + i, y.to(tl.uint8, bitcast=True))


def _widened(bits):
    b = bits.astype(np.uint16)
    return (((b & 0x80) << 8) | ((b & 0x7F) << 7)).view(np.float16)


def _narrowed(x):
    """Triton's algorithm, from f16 (f32 first to f16 toward zero)."""
    if x.dtype == np.float32:
        with np.errstate(over="ignore"):
            h = x.astype(np.float16)
        grew = np.abs(h.astype(np.float32)) > np.abs(x)  # rounded away from zero, or overflowed: one step back
        hb = h.view(np.uint16).copy()
        hb[grew] -= 1
    else:
        hb = x.view(np.uint16)
    mag = np.minimum(hb & 0x7FFF, 0x3F00)  # NaN and infinities too: their bits are larger
    return (((hb >> 8) & 0x80) | ((mag + 0x40) >> 7)).astype(np.uint8)


def _device(target):
    if target != "cpu" and target not in _C.backend_names():
        pytest.skip("no %s device here" % target)
    return target


def _on(target, array):
    return array if target == "cpu" else tessera.from_numpy(array, device=target)


def _back(array):
    return array if isinstance(array, np.ndarray) else array.numpy()


@pytest.mark.parametrize("target", ["cpu", "opencl", "vulkan"])
@pytest.mark.parametrize("to", ["fp16", "fp32"])
@pytest.mark.parametrize("custom", [False, True])
def test_every_value_widens_exactly(target, to, custom):
    _device(target)
    bits = np.arange(256, dtype=np.uint8)
    out = _on(target, np.full(256, np.nan, np.float16 if to == "fp16" else np.float32))
    tessera.jit(_widen.fn, target=target)[(1,)](_on(target, bits), out, N=256, TO=getattr(tl, "float16" if to == "fp16" else "float32"),
                                                CUSTOM=custom)
    want = _widened(bits)
    np.testing.assert_array_equal(_back(out), want.astype(np.float32 if to == "fp32" else np.float16))
    assert want[0x7F] == 1.875 and want[0xFF] == -1.875


@pytest.mark.parametrize("target", ["cpu", "opencl", "vulkan"])
@pytest.mark.parametrize("src", [np.float16, np.float32])
@pytest.mark.parametrize("custom", [False, True])
def test_narrowing_is_tritons_bit_for_bit(target, src, custom):
    _device(target)
    rng = np.random.default_rng()
    x = np.concatenate([rng.standard_normal(900) * 2, rng.uniform(-2.0, 2.0, 900) * 2.0 ** -rng.integers(0, 20, 900),
                        [np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 1.75, 1.8125, 1.875, 70000.0, -70000.0,
                         2.0 ** -17, 2.0 ** -18, 3 * 2.0 ** -19]]).astype(src)
    x = np.concatenate([x, np.zeros(2048 - x.size, src)])
    bits = _on(target, np.full(x.size, 0x55, np.uint8))
    tessera.jit(_narrow.fn, target=target)[(1,)](_on(target, x), bits, N=x.size, CUSTOM=custom)
    np.testing.assert_array_equal(_back(bits), _narrowed(x))


@tessera.jit
def _dot(a_ptr, b_ptr, c_ptr, N: tl.constexpr):
    r = tl.arange(0, N)
    a = tl.load(a_ptr + r[:, None] * N + r[None, :]).to(tl.float8e4b15, bitcast=True)
    b = tl.load(b_ptr + r[:, None] * N + r[None, :]).to(tl.float8e4b15, bitcast=True)
    tl.store(c_ptr + r[:, None] * N + r[None, :], tl.dot(a, b))


def test_a_dot_takes_its_operands_as_f16():
    rng = np.random.default_rng()
    a, b = (rng.integers(0, 256, (16, 16), dtype=np.uint8) for _ in range(2))
    c = np.full((16, 16), np.nan, np.float32)
    _dot[(1,)](a, b, c, N=16)
    want = _widened(a).astype(np.float64) @ _widened(b).astype(np.float64)
    np.testing.assert_allclose(c, want, rtol=1e-5, atol=1e-6)


def test_the_interpreter_says_it_has_no_such_values():
    with pytest.raises(Exception, match="no fp8e4b15 values"):
        tessera.jit(_widen.fn, target="interpreter")[(1,)](np.zeros(8, np.uint8), np.zeros(8, np.float32), N=8,
                                                           TO=tl.float32, CUSTOM=False)


@tessera.jit
def _abs(bits_ptr, out_ptr, N: tl.constexpr):
    i = tl.arange(0, N)
    x = tl.load(bits_ptr + i).to(tl.float8e4b15, bitcast=True)
    tl.store(out_ptr + i, tl.abs(x).to(tl.uint8, bitcast=True))


@pytest.mark.parametrize("target", ["cpu", "opencl", "vulkan"])
def test_abs_clears_the_sign_bit(target):
    # As Triton's tl.abs of fp8e4b15 (x & 0x7F): 0xFF is 1.875, which f32 and back would clamp to 1.75.
    _device(target)
    bits = np.arange(256, dtype=np.uint8)
    out = _on(target, np.zeros(256, np.uint8))
    tessera.jit(_abs.fn, target=target)[(1,)](_on(target, bits), out, N=256)
    np.testing.assert_array_equal(_back(out), bits & 0x7F)
