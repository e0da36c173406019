"""Runtime control flow (if, for with loop-carried tiles, while, early
return), calls to jit helpers, device_print (output captured) and
device_assert (tessera.DeviceAssertionError)."""

import numpy as np

import tessera
import tessera.language as tl
from tessera.conformance import Case, Out, rand


@tessera.jit
def collatz_steps(x):
    return tl.where(x % 2 == 0, x // 2, 3 * x + 1)


@tessera.jit
def control_kernel(x_ptr, n_ptr, out_ptr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    trips = tl.load(n_ptr + pid)           # a runtime trip count per program
    acc = tl.zeros((BLOCK, ), tl.int32)
    for i in range(trips):                 # for with a loop-carried tile
        acc += x * i
    if pid % 2 == 0:                       # runtime if on a scalar
        acc = acc - 1
    else:
        acc = acc + 1
    steps = 0
    v = tl.max(x, axis=0)
    while v != 1:                          # while on a scalar: Collatz steps of the block's max
        v = collatz_steps(v)
        steps += 1
    tl.store(out_ptr + offs, acc + steps * 1000)
    if pid == 0:
        return                             # early return: the rest is the else branch
    tl.store(out_ptr + offs, acc + steps * 1000 + 7)


def collatz(v):
    steps = 0
    while v != 1:
        v = v // 2 if v % 2 == 0 else 3 * v + 1
        steps += 1
    return steps


def control_ref(a):
    x, trips = a["x_ptr"].reshape(-1, 32).astype(np.int64), a["n_ptr"]
    out = np.empty_like(x)
    for p in range(len(trips)):
        acc = x[p] * (trips[p] * (trips[p] - 1) // 2) + (-1 if p % 2 == 0 else 1)
        out[p] = acc + collatz(int(x[p].max())) * 1000 + (7 if p else 0)
    return {"out_ptr": out.reshape(-1)}


Case("control.if_for_while", control_kernel,
     lambda rng, dt: dict(x_ptr=rand(rng, 8 * 32, "i32", 1, 50), n_ptr=rand(rng, 8, "i32", 0, 9),
                          out_ptr=Out(8 * 32, "i32"), BLOCK=32),
     control_ref, dtypes=["i32"], grid=(8,))


@tessera.jit
def unroll_kernel(x_ptr, bounds_ptr, out_ptr, BLOCK: tl.constexpr):
    # tl.range's loop_unroll_factor with runtime bounds per program (some
    # loops run no iteration): an order-dependent fold carrying a tile and a
    # scalar, so a wrong count or order of iterations shows.
    pid = tl.program_id(0)
    lb, ub, step = tl.load(bounds_ptr + 3 * pid), tl.load(bounds_ptr + 3 * pid + 1), tl.load(bounds_ptr + 3 * pid + 2)
    offs = tl.arange(0, BLOCK)
    h = tl.zeros((BLOCK, ), tl.int32) + pid
    count = 0
    for i in tl.range(lb, ub, step, loop_unroll_factor=3):
        h = (h * 31 + tl.load(x_ptr + i * BLOCK + offs)) % 1000003
        count += 1
    tl.store(out_ptr + pid * BLOCK + offs, h + count * 1000003)


def unroll_inputs(rng, dt):
    bounds = np.stack([rng.integers(-2, 6, 8), rng.integers(-2, 30, 8), rng.integers(1, 4, 8)], axis=1).astype(np.int32)
    bounds[:, :2] += 2  # rows 0 .. 31 of x
    return dict(x_ptr=rand(rng, 32 * 16, "i32", 0, 1000), bounds_ptr=bounds.reshape(-1), out_ptr=Out(8 * 16, "i32"),
                BLOCK=16)


def unroll_ref(a):
    x, bounds = a["x_ptr"].reshape(32, 16).astype(np.int64), a["bounds_ptr"].reshape(8, 3)
    out = np.empty((8, 16), np.int64)
    for p, (lb, ub, step) in enumerate(bounds):
        h, count = np.full(16, p, np.int64), 0
        for i in range(lb, ub, step):
            h, count = (h * 31 + x[i]) % 1000003, count + 1
        out[p] = h + count * 1000003
    return {"out_ptr": out.reshape(-1)}


Case("control.range_unroll_factor", unroll_kernel, unroll_inputs, unroll_ref, dtypes=["i32"], grid=(8,))


@tessera.jit
def print_kernel(x_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    tl.device_print("x: ", x)


def print_ref(a):
    lines = [ln for ln in a["stdout"].splitlines() if "x: " in ln]
    got = sorted(lines)
    want = sorted("pid (0, 0, 0) idx (%2d) x: %d" % (i, v) for i, v in enumerate(a["x_ptr"]))  # padded to the digits of 15
    return {"x_ptr": lambda x: None if got == want else "printed %r..., expected %r..." % (got[:2], want[:2])}


Case("control.device_print", print_kernel, lambda rng, dt: dict(x_ptr=rand(rng, 16, "i32"), BLOCK=16), print_ref,
     dtypes=["i32"], stdout=True)


@tessera.jit
def assert_kernel(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=1)
    tl.device_assert(x > 0, "x must be positive")


def assert_inputs(rng, dt):
    x = rand(rng, 1000, "i32", 1, 100)
    x[int(rng.integers(0, 1000))] = -5
    return dict(x_ptr=x, n=1000, BLOCK=128)


Case("control.device_assert", assert_kernel, assert_inputs, None, dtypes=["i32"], grid=(8,),
     raises=tessera.DeviceAssertionError, match="x must be positive",
     skip_run_on={"nvptx": "a failed device assert aborts the CUDA context (as in CUDA C++ and Triton), so no later "
                           "kernel of the process could run; compiled, not run"})


def assert_pass_inputs(rng, dt):
    return dict(x_ptr=rand(rng, 1000, "i32", 1, 100), n=1000, BLOCK=128)


Case("control.device_assert_holds", assert_kernel, assert_pass_inputs, lambda a: {}, dtypes=["i32"], grid=(8,))


@tessera.jit
def assert_masked_kernel(x_ptr, n, BLOCK: tl.constexpr):
    # Triton checks cond | ~mask: the zeros (masked off) pass, a negative fails.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=1)
    tl.device_assert(x > 0, "x must be positive where nonzero", mask=x != 0)


def assert_masked_inputs(fail):
    def inputs(rng, dt):
        x = rand(rng, 1000, "i32", 1, 100)
        x[rng.random(1000) < 0.3] = 0
        if fail:
            x[int(rng.integers(0, 1000))] = -5
        return dict(x_ptr=x, n=1000, BLOCK=128)
    return inputs


Case("control.device_assert_masked_holds", assert_masked_kernel, assert_masked_inputs(False), lambda a: {},
     dtypes=["i32"], grid=(8,))
Case("control.device_assert_masked", assert_masked_kernel, assert_masked_inputs(True), None, dtypes=["i32"],
     grid=(8,), raises=tessera.DeviceAssertionError, match="x must be positive where nonzero",
     skip_run_on={"nvptx": "a failed device assert aborts the CUDA context (as in CUDA C++ and Triton), so no later "
                           "kernel of the process could run; compiled, not run"})
