"""tl.device_print and print in kernels write Triton's lines: "pid (x, y, z)
idx (i, j)<prefix><value>", each index padded to the digits of its
dimension's last index, "(operand n) " before the value when several
operands print, a scalar's index "()", hex as two digits per byte, and the
prefix in Triton's normal form (ending in ": " before values, starting with a
space when longer than two characters). The CPU target and the interpreter
print the same lines (ir/PrintFormat.h); the GPU targets use the same formats."""

import collections
import itertools

import numpy as np
import pytest

import tessera
import tessera.language as tl


@tessera.jit
def _printing(x_ptr, s_ptr, N: tl.constexpr, KIND: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, N))
    if KIND == "device_print":
        tl.device_print("x: ", x)
    elif KIND == "print":
        print("x:", x)
    elif KIND == "hex":
        tl.device_print("x", x, hex=True)
    elif KIND == "multiple":
        tl.device_print("", x, tl.full((N,), 1, tl.int32))
    elif KIND == "2d":
        tl.device_print("", tl.reshape(x, (4, N // 4)))
    elif KIND == "scalar":
        tl.device_print("x:", tl.load(s_ptr))
    elif KIND == "program_id":
        tl.device_print("", tl.program_id(0))
    elif KIND == "no_arg":
        tl.device_print("no arg")
    elif KIND == "uint8":
        tl.device_print("x ", (tl.arange(0, N) + 128).to(tl.uint8))


def _lines(capfd, kernel, x, kind):
    capfd.readouterr()
    kernel[(1,)](x, np.array([42], x.dtype), N=x.size, KIND=kind)
    return collections.Counter(line for line in capfd.readouterr().out.splitlines() if line)


def _expected(kind, x):
    n = x.size
    if kind in ("device_print", "print"):
        value = "%f" if x.dtype.kind == "f" else "%d"
        return collections.Counter(("pid (0, 0, 0) idx (%3d) x: " + value) % (i, x[i]) for i in range(n))
    if kind == "hex":
        digits = 2 * x.dtype.itemsize
        mask = (1 << (8 * x.dtype.itemsize)) - 1
        return collections.Counter("pid (0, 0, 0) idx (%3d) x: 0x%0*x" % (i, digits, int(x[i]) & mask) for i in range(n))
    if kind == "multiple":
        return collections.Counter(["pid (0, 0, 0) idx (%3d): (operand 0) %d" % (i, x[i]) for i in range(n)] +
                                   ["pid (0, 0, 0) idx (%3d): (operand 1) 1" % i for i in range(n)])
    if kind == "2d":
        return collections.Counter("pid (0, 0, 0) idx (%d, %2d): %d" % (r, c, x[r * (n // 4) + c])
                                   for r, c in itertools.product(range(4), range(n // 4)))
    if kind == "scalar":
        return collections.Counter({"pid (0, 0, 0) idx () x: 42": 1})
    if kind == "program_id":
        return collections.Counter({"pid (0, 0, 0) idx (): 0": 1})
    if kind == "no_arg":
        return collections.Counter({"pid (0, 0, 0) no arg": 1})
    if kind == "uint8":
        return collections.Counter("pid (0, 0, 0) idx (%3d) x: %d" % (i, (i + 128) % 256) for i in range(n))
    raise AssertionError(kind)


def _check(capfd, kernel, x, kind):
    lines = _lines(capfd, kernel, x, kind)
    if kind == "hex" and x.dtype.kind == "f":  # C's %a, which reads back exactly
        assert sorted(float.fromhex(line.split("x: ")[1]) for line in lines.elements()) == sorted(x.astype(float))
        assert all(line.split("x: ")[1].startswith(("0x", "-0x")) for line in lines)
    else:
        assert lines == _expected(kind, x)


KINDS = ["device_print", "print", "hex", "multiple", "2d", "scalar", "program_id", "no_arg", "uint8"]


@pytest.mark.parametrize("target", [None, "interpreter"])
@pytest.mark.parametrize("kind", KINDS)
def test_lines_are_tritons(capfd, kind, target):
    if target == "interpreter" and kind == "print":
        pytest.skip("the interpreter's print is Python's (as Triton's interpreter's)")
    rng = np.random.default_rng()
    x = rng.integers(-1000, 1000, 128).astype(np.int32)
    _check(capfd, tessera.jit(_printing.fn, target=target) if target else _printing, x, kind)


@pytest.mark.parametrize("target", [None, "interpreter"])
@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int64, np.uint32, np.float32, np.float16, np.float64])
@pytest.mark.parametrize("kind", ["device_print", "hex"])
def test_each_dtype(capfd, dtype, kind, target):
    rng = np.random.default_rng()
    info = np.iinfo(dtype) if np.dtype(dtype).kind in "iu" else None
    x = (rng.integers(info.min, info.max, 128, endpoint=True) if info else rng.uniform(-50, 50, 128)).astype(dtype)
    _check(capfd, tessera.jit(_printing.fn, target=target) if target else _printing, x, kind)
