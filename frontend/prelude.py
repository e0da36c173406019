# The part of tessera.language written in the language itself, as Triton
# writes it: random numbers (Philox 4x32-10 and 4x64, bit-exact with
# triton.language.random), sigmoid, softmax, swizzle2d and interleave.
# Compiled into the frontend; every function here is inlined where it is used.
import tessera.language as tl
from tessera import jit

N_ROUNDS_DEFAULT = 10


@jit
def philox_impl(c0, c1, c2, c3, k0, k1, n_rounds: tl.constexpr = N_ROUNDS_DEFAULT):
    if c0.dtype == tl.uint32:
        PHILOX_KEY_A: tl.constexpr = 0x9E3779B9
        PHILOX_KEY_B: tl.constexpr = 0xBB67AE85
        PHILOX_ROUND_A: tl.constexpr = 0xD2511F53
        PHILOX_ROUND_B: tl.constexpr = 0xCD9E8D57
    else:
        tl.static_assert(c0.dtype == tl.uint64, "philox works on uint32 or uint64 counters")
        PHILOX_KEY_A: tl.constexpr = 0x9E3779B97F4A7C15
        PHILOX_KEY_B: tl.constexpr = 0xBB67AE8584CAA73B
        PHILOX_ROUND_A: tl.constexpr = 0xD2E7470EE14C6C93
        PHILOX_ROUND_B: tl.constexpr = 0xCA5A826395121157
    for _ in tl.static_range(n_rounds):
        A = PHILOX_ROUND_A
        B = PHILOX_ROUND_B
        _c0, _c2 = c0, c2
        c0 = tl.umulhi(B, _c2) ^ c1 ^ k0
        c2 = tl.umulhi(A, _c0) ^ c3 ^ k1
        c1 = B * _c2
        c3 = A * _c0
        k0 = k0 + PHILOX_KEY_A
        k1 = k1 + PHILOX_KEY_B
    return c0, c1, c2, c3


@jit
def philox(seed, c0, c1, c2, c3, n_rounds: tl.constexpr = N_ROUNDS_DEFAULT):
    seed = tl.to_tensor(seed)
    tl.static_assert(seed.dtype.is_int(), "the seed must be an integer")
    seed = seed.to(tl.uint64)
    c0 = tl.to_tensor(c0)
    c1 = tl.to_tensor(c1)
    c2 = tl.to_tensor(c2)
    c3 = tl.to_tensor(c3)
    if c0.dtype.primitive_bitwidth == 32:
        int_dtype: tl.constexpr = tl.uint32
        seed_hi = ((seed >> 32) & 0xFFFFFFFF).to(tl.uint32)
        seed_lo = (seed & 0xFFFFFFFF).to(tl.uint32)
    else:
        tl.static_assert(c0.dtype.primitive_bitwidth == 64, "philox offsets must be 32- or 64-bit integers")
        int_dtype: tl.constexpr = tl.uint64
        seed_hi = tl.full((1,), 0, dtype=int_dtype)
        seed_lo = seed
    c0 = c0.to(int_dtype, bitcast=True)
    c1 = c1.to(int_dtype, bitcast=True)
    c2 = c2.to(int_dtype, bitcast=True)
    c3 = c3.to(int_dtype, bitcast=True)
    return philox_impl(c0, c1, c2, c3, seed_lo, seed_hi, n_rounds)


@jit
def randint(seed, offset, n_rounds: tl.constexpr = N_ROUNDS_DEFAULT):
    ret, _, _, _ = randint4x(seed, offset, n_rounds)
    return ret


@jit
def randint4x(seed, offset, n_rounds: tl.constexpr = N_ROUNDS_DEFAULT):
    offset = tl.to_tensor(offset)
    _0 = offset * 0
    return philox(seed, offset, _0, _0, _0, n_rounds)


@jit
def uint_to_uniform_float(x):
    # Numerically stable conversion of a random integer to a float in [0, 1).
    if x.dtype == tl.uint32 or x.dtype == tl.int32:
        x = x.to(tl.int32, bitcast=True)
        scale = 4.6566127342e-10
    else:
        tl.static_assert(x.dtype == tl.uint64 or x.dtype == tl.int64, "expected a 32- or 64-bit integer")
        x = x.to(tl.int64, bitcast=True)
        scale = 1.0842020432385337e-19
    x = tl.where(x < 0, -x - 1, x)
    return x * scale


@jit
def rand(seed, offset, n_rounds: tl.constexpr = N_ROUNDS_DEFAULT):
    source = randint(seed, offset, n_rounds)
    return uint_to_uniform_float(source)


@jit
def rand4x(seed, offsets, n_rounds: tl.constexpr = N_ROUNDS_DEFAULT):
    i1, i2, i3, i4 = randint4x(seed, offsets, n_rounds)
    u1 = uint_to_uniform_float(i1)
    u2 = uint_to_uniform_float(i2)
    u3 = uint_to_uniform_float(i3)
    u4 = uint_to_uniform_float(i4)
    return u1, u2, u3, u4


@jit
def pair_uniform_to_normal(u1, u2):
    # Box-Muller.
    u1 = tl.maximum(1.0e-7, u1)
    th = 6.283185307179586 * u2
    r = tl.sqrt(-2.0 * tl.log(u1))
    return r * tl.cos(th), r * tl.sin(th)


@jit
def randn(seed, offset, n_rounds: tl.constexpr = N_ROUNDS_DEFAULT):
    i1, i2, _, _ = randint4x(seed, offset, n_rounds)
    u1 = uint_to_uniform_float(i1)
    u2 = uint_to_uniform_float(i2)
    n1, _ = pair_uniform_to_normal(u1, u2)
    return n1


@jit
def randn4x(seed, offset, n_rounds: tl.constexpr = N_ROUNDS_DEFAULT):
    u1, u2, u3, u4 = rand4x(seed, offset, n_rounds)
    n1, n2 = pair_uniform_to_normal(u1, u2)
    n3, n4 = pair_uniform_to_normal(u3, u4)
    return n1, n2, n3, n4


@jit
def sigmoid(x):
    return 1 / (1 + tl.exp(-x))


@jit
def softmax(x, dim=None, keep_dims=False, ieee_rounding=False):
    if dim is None:
        _dim: tl.constexpr = 0
    else:
        _dim: tl.constexpr = dim
    z = x - tl.max(x, _dim, keep_dims=keep_dims)
    num = tl.exp(z)
    den = tl.sum(num, _dim, keep_dims=keep_dims)
    return tl.fdiv(num, den, ieee_rounding)


@jit
def swizzle2d(i, j, size_i, size_j, size_g):
    ij = i * size_j + j
    size_gj = size_g * size_j
    group_id = ij // size_gj
    off_i = group_id * size_g
    size_g = tl.minimum(size_i - off_i, size_g)
    ij = ij % size_gj
    new_i = off_i + ij % size_g
    new_j = ij // size_g
    return new_i, new_j


@jit
def interleave(a, b):
    c = tl.join(a, b)
    if len(c.shape) == 1:
        return c
    return tl.reshape(c, c.shape[:-2] + (2 * c.shape[-2],))



@jit
def squeeze(x, dim: tl.constexpr):
    # Triton 3.9's squeeze/unsqueeze: a length-1 dimension out or in at `dim`.
    d = dim + len(x.shape) if dim < 0 else dim
    tl.static_assert(x.shape[d] == 1, "squeeze: the dimension must have length 1")
    return tl.reshape(x, x.shape[:d] + x.shape[d + 1:])


@jit
def unsqueeze(x, dim: tl.constexpr):
    return tl.expand_dims(x, dim)


@jit
def add(x, y, sanitize_overflow: tl.constexpr = True):
    # Triton 3.9's named arithmetic; overflow wraps here as with the operators (IR.h).
    return x + y


@jit
def sub(x, y, sanitize_overflow: tl.constexpr = True):
    return x - y


@jit
def mul(x, y, sanitize_overflow: tl.constexpr = True):
    return x * y
