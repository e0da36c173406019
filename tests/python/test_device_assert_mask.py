"""tl.device_assert(cond, msg, mask=m) checks cond | ~m, as Triton's
semantic.device_assert: an element whose mask is False passes whatever its
condition (the mask was accepted and ignored). The two broadcast together; a
compile-time mask of False checks nothing, of True everything. Compiled for
the CPU and in the interpreter."""
import numpy as np
import pytest

import tessera
import tessera.language as tl


@tessera.jit
def _masked(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=1)
    tl.device_assert(x > 0, "x must be positive where nonzero", mask=x != 0)


@tessera.jit
def _scalar_cond_tile_mask(x_ptr, flag, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    tl.device_assert(flag > 0, "flag", mask=x > 100)  # fails only where some x > 100 and flag <= 0


@tessera.jit
def _constexpr_mask(x_ptr, M: tl.constexpr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    tl.device_assert(x > 0, "constexpr mask", mask=M)


@tessera.jit
def _false_cond(x_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    tl.device_assert(False, "never where x is nonzero", mask=x != 0)


# The interpreter's runs use kernels of their own (target="interpreter"): a
# kernel once launched compiled keeps a fast launch lane that would run the
# compiled code again inside interpreter.enabled().
_INTERPRETED = {}


def _interpreted(kernel):
    if kernel.fn not in _INTERPRETED:
        _INTERPRETED[kernel.fn] = tessera.jit(target="interpreter")(kernel.fn)
    return _INTERPRETED[kernel.fn]


def _run(kernel, interpreted, *args, **kw):
    (_interpreted(kernel) if interpreted else kernel)[(1,)](*args, **kw)


PARAMS = pytest.mark.parametrize("interpreted", [False, True], ids=["cpu", "interpreter"])


@PARAMS
def test_masked_off_elements_pass(cpu_target, interpreted):
    rng = np.random.default_rng(11)
    for _ in range(4):
        x = rng.integers(1, 50, 64).astype(np.int32)
        x[rng.random(64) < 0.4] = 0  # zeros: masked off, so x > 0 is not asked of them
        _run(_masked, interpreted, x, 64, BLOCK=64)
        # the review's example
        _run(_masked, interpreted, np.array([1, 2, 0, 3], np.int32), 4, BLOCK=4)


@PARAMS
def test_an_element_the_mask_keeps_still_fails(cpu_target, interpreted):
    rng = np.random.default_rng(12)
    x = rng.integers(1, 50, 64).astype(np.int32)
    x[rng.random(64) < 0.4] = 0
    x[int(rng.integers(0, 64))] = -3
    with pytest.raises(tessera.DeviceAssertionError, match="x must be positive where nonzero"):
        _run(_masked, interpreted, x, 64, BLOCK=64)


@PARAMS
def test_cond_and_mask_broadcast(cpu_target, interpreted):
    x = np.arange(16, dtype=np.int32)
    _run(_scalar_cond_tile_mask, interpreted, x, 0, BLOCK=16)  # no x > 100: nothing checked
    _run(_scalar_cond_tile_mask, interpreted, x + 100, 1, BLOCK=16)  # flag > 0 holds
    with pytest.raises(tessera.DeviceAssertionError, match="flag"):
        _run(_scalar_cond_tile_mask, interpreted, x + 100, 0, BLOCK=16)


@PARAMS
def test_compile_time_masks_and_conditions(cpu_target, interpreted):
    bad = np.array([1, -1, 2, 3], np.int32)
    _run(_constexpr_mask, interpreted, bad, M=False, BLOCK=4)
    with pytest.raises(tessera.DeviceAssertionError, match="constexpr mask"):
        _run(_constexpr_mask, interpreted, bad, M=True, BLOCK=4)
    _run(_false_cond, interpreted, np.zeros(4, np.int32), BLOCK=4)
    with pytest.raises(tessera.DeviceAssertionError, match="never where x is nonzero"):
        _run(_false_cond, interpreted, np.array([0, 0, 7, 0], np.int32), BLOCK=4)
