"""rand/randn/randint/randint4x: statistics of the streams, determinism for
equal seeds and offsets, different streams for different seeds."""

import numpy as np

import tessera
import tessera.language as tl
from tessera.conformance import Case, Out

N = 1 << 16


@tessera.jit
def random_kernel(out_ptr, out2_ptr, seed, OP: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    if OP == "rand":
        a, b = tl.rand(seed, offs), tl.rand(seed, offs)
    elif OP == "randn":
        a, b = tl.randn(seed, offs), tl.randn(seed + 1, offs)
    elif OP == "randint":
        a, b = tl.randint(seed, offs), tl.randint(seed, offs + 1)
    else:
        tl.static_assert(OP == "randint4x", "unknown op")
        i1, i2, i3, i4 = tl.randint4x(seed, offs)
        a, b = i1 ^ i2, i3 ^ i4
    tl.store(out_ptr + offs, a)
    tl.store(out2_ptr + offs, b)


def stats(op):
    def check_a(x):
        x = x.astype(np.float64)
        if op == "rand":
            if x.min() < 0 or x.max() >= 1:
                return "rand outside [0, 1): [%r, %r]" % (x.min(), x.max())
            m, v = x.mean(), x.var()
            if abs(m - 0.5) > 0.01 or abs(v - 1 / 12) > 0.01:
                return "rand mean %.4f var %.4f (want 0.5, 0.0833)" % (m, v)
            hist = np.histogram(x, 16, (0, 1))[0] / len(x)
            if np.abs(hist - 1 / 16).max() > 0.01:
                return "rand histogram not flat: %r" % hist
        elif op == "randn":
            m, s = x.mean(), x.std()
            if abs(m) > 0.02 or abs(s - 1) > 0.02 or (np.abs(x) > 2).mean() > 0.05:
                return "randn mean %.4f std %.4f tail %.4f" % (m, s, (np.abs(x) > 2).mean())
        else:
            bits = np.unpackbits(x.astype(np.uint32).view(np.uint8)).mean()
            if abs(bits - 0.5) > 0.01 or len(np.unique(x)) < 0.99 * len(x):
                return "randint bits set %.4f, %d unique of %d" % (bits, len(np.unique(x)), len(x))
        return None
    return check_a


Case("random.rand", random_kernel,
     lambda rng, dt: dict(out_ptr=Out(N, "fp32"), out2_ptr=Out(N, "fp32"), seed=int(rng.integers(1, 2**31)),
                          OP="rand", BLOCK=1024),
     lambda a: {"out_ptr": stats("rand"), "out2_ptr": stats("rand")}, grid=(N // 1024,))
Case("random.randn", random_kernel,
     lambda rng, dt: dict(out_ptr=Out(N, "fp32"), out2_ptr=Out(N, "fp32"), seed=int(rng.integers(1, 2**31)),
                          OP="randn", BLOCK=1024),
     lambda a: {"out_ptr": stats("randn"), "out2_ptr": stats("randn")}, grid=(N // 1024,))
Case("random.randint", random_kernel,
     lambda rng, dt: dict(out_ptr=Out(N, "u32"), out2_ptr=Out(N, "u32"), seed=int(rng.integers(1, 2**31)),
                          OP="randint", BLOCK=1024),
     lambda a: {"out_ptr": stats("randint"), "out2_ptr": stats("randint")}, dtypes=["u32"], grid=(N // 1024,))
Case("random.randint4x", random_kernel,
     lambda rng, dt: dict(out_ptr=Out(N, "u32"), out2_ptr=Out(N, "u32"), seed=int(rng.integers(1, 2**31)),
                          OP="randint4x", BLOCK=1024),
     lambda a: {"out_ptr": stats("randint"), "out2_ptr": stats("randint")}, dtypes=["u32"], grid=(N // 1024,))


@tessera.jit
def determinism_kernel(out_ptr, seed, BLOCK: tl.constexpr):
    # Three streams: (seed, offs) twice from different programs' layouts, and
    # seed + 1. The first two must agree bit for bit; the third must not.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    n = tl.num_programs(0) * BLOCK
    tl.store(out_ptr + offs, tl.randint(seed, offs))
    rev = n - 1 - offs
    tl.store(out_ptr + n + rev, tl.randint(seed, rev))
    tl.store(out_ptr + 2 * n + offs, tl.randint(seed + 1, offs))


def determinism_ref(a):
    def check(x):
        n = len(x) // 3
        if not np.array_equal(x[:n], x[n:2 * n]):
            return "randint(seed, offset) differs between two evaluations of the same (seed, offset)"
        if (x[:n] == x[2 * n:]).mean() > 0.01:
            return "seeds s and s + 1 give the same stream"
        return None
    return {"out_ptr": check}


Case("random.determinism", determinism_kernel,
     lambda rng, dt: dict(out_ptr=Out(3 * 8 * 256, "u32"), seed=int(rng.integers(1, 2**31)), BLOCK=256),
     determinism_ref, dtypes=["u32"], grid=(8,))
