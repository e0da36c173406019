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
    # As Triton 3.6: always the 32-bit Philox; a 64-bit offset's high half
    # is the second counter, so int64 offsets give the int32 offsets' stream.
    offset = tl.to_tensor(offset)
    low = offset.to(tl.uint32)
    zero = low * 0
    if offset.dtype.primitive_bitwidth > 32:
        high = (offset >> 32).to(tl.uint32)
    else:
        high = zero
    return philox(seed, low, high, zero, zero, n_rounds)


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


@jit
def _e2m1_to_float(nibble):
    # OCP MX fp4 (e2m1): sign, 2 exponent bits (bias 1), 1 mantissa bit; no inf or NaN.
    em = nibble & 0x7
    e = em >> 1
    half_m = (em & 0x1).to(tl.float32) * 0.5
    normal = ((e.to(tl.uint32) + 126) << 23).to(tl.float32, bitcast=True) * (1.0 + half_m)
    magnitude = tl.where(e == 0, half_m, normal)
    return tl.where((nibble & 0x8) != 0, -magnitude, magnitude)


@jit
def _mx_operand(x, scale, fmt: tl.constexpr, to: tl.constexpr, k_axis: tl.constexpr, k_pack: tl.constexpr):
    # One operand of dot_scaled in `to` (bf16 or fp16): unpacked, decoded and
    # scaled by 2^(scale - 127) per 32 elements along k (axis k_axis).
    if fmt == "e2m1":
        tl.static_assert(x.dtype == tl.uint8, "dot_scaled: e2m1 operands are packed two to a uint8")
        pairs = tl.join(_e2m1_to_float(x & 0xF), _e2m1_to_float(x >> 4))
        if (k_axis if k_pack else 1 - k_axis) == 1:
            v = tl.reshape(pairs, (x.shape[0], 2 * x.shape[1]))
        else:
            v = tl.reshape(tl.permute(pairs, (0, 2, 1)), (2 * x.shape[0], x.shape[1]))
    elif fmt == "e4m3" or fmt == "e5m2":
        fp8: tl.constexpr = tl.float8e4nv if fmt == "e4m3" else tl.float8e5
        if x.dtype == tl.uint8:
            v = x.to(fp8, bitcast=True).to(tl.float32)
        else:
            tl.static_assert(x.dtype == fp8, "dot_scaled: an " + fmt + " operand must be uint8 or " + fmt)
            v = x.to(tl.float32)
    else:
        tl.static_assert(fmt == "bf16" or fmt == "fp16",
                         "dot_scaled: formats are e2m1, e4m3, e5m2, bf16 and fp16, not " + fmt)
        tl.static_assert(x.dtype == (tl.bfloat16 if fmt == "bf16" else tl.float16),
                         "dot_scaled: a " + fmt + " operand must hold " + fmt + " elements")
        v = x.to(tl.float32)
    if scale is not None:
        # e8m0 (uint8): 2^(s - 127) per 32 elements along k; float8e4nv
        # (NVFP4's): the e4m3 value per 16, as Triton's verify_scaled_shape.
        tl.static_assert(scale.dtype == tl.uint8 or scale.dtype == tl.float8e4nv,
                         "dot_scaled: scales are e8m0 held in uint8, or float8e4nv")
        group: tl.constexpr = 16 if scale.dtype == tl.float8e4nv else 32
        rows: tl.constexpr = v.shape[1 - k_axis]
        k: tl.constexpr = v.shape[k_axis]
        tl.static_assert(scale.shape[0] == rows and scale.shape[1] * group == k,
                         "dot_scaled: a scale tile is [M, K // group] for lhs and [N, K // group] for rhs "
                         "(group 32 for uint8 scales, 16 for float8e4nv)")
        if scale.dtype == tl.float8e4nv:
            factor = scale.to(tl.float32)
        else:
            factor = (scale.to(tl.uint32) << 23).to(tl.float32, bitcast=True)
            factor = tl.where(scale == 0xFF, float("nan"), factor)
        factor = tl.reshape(tl.broadcast_to(factor[:, :, None], (rows, k // group, group)), (rows, k))
        if k_axis == 0:
            factor = tl.trans(factor)
        v = v * factor
    return v.to(to)


@jit
def dot_scaled(lhs, lhs_scale, lhs_format: tl.constexpr, rhs, rhs_scale, rhs_format: tl.constexpr, acc=None,
               fast_math: tl.constexpr = False, lhs_k_pack: tl.constexpr = True, rhs_k_pack: tl.constexpr = True,
               out_dtype: tl.constexpr = tl.float32):
    # Microscaled operands upcast to bf16 (fp16 when either format is fp16),
    # then one dot with f32 accumulation, as Triton emulates it where the
    # hardware has no scaled MMA.
    tl.static_assert(out_dtype == tl.float32, "dot_scaled: out_dtype must be float32")
    to: tl.constexpr = tl.float16 if (lhs_format == "fp16" or rhs_format == "fp16") else tl.bfloat16
    if len(lhs.shape) == 3:
        # A batch: each operand decoded as one 2-D tile (lhs [B*M, K], rhs
        # [K, B*N]), a scale of [M, K // group] (Triton's shape) shared by
        # the batch, or one per batch entry.
        tl.static_assert(len(rhs.shape) == 3, "dot_scaled: both operands are 2-D, or both 3-D")
        batch: tl.constexpr = lhs.shape[0]
        a = _mx_operand(tl.reshape(lhs, (batch * lhs.shape[1], lhs.shape[2])), _batched_scale(lhs_scale, batch),
                        lhs_format, to, 1, lhs_k_pack)
        a = tl.reshape(a, (batch, a.shape[0] // batch, a.shape[1]))
        b = _mx_operand(tl.reshape(tl.permute(rhs, (1, 0, 2)), (rhs.shape[1], batch * rhs.shape[2])),
                        _batched_scale(rhs_scale, batch), rhs_format, to, 0, rhs_k_pack)
        b = tl.permute(tl.reshape(b, (b.shape[0], batch, b.shape[1] // batch)), (1, 0, 2))
        return tl.dot(a, b, acc, out_dtype=tl.float32)
    a = _mx_operand(lhs, lhs_scale, lhs_format, to, 1, lhs_k_pack)
    b = _mx_operand(rhs, rhs_scale, rhs_format, to, 0, rhs_k_pack)
    return tl.dot(a, b, acc, out_dtype=tl.float32)


@jit
def _batched_scale(scale, batch: tl.constexpr):
    # [rows, groups] or [batch, rows, groups] -> [batch * rows, groups]
    if scale is None:
        return None
    if len(scale.shape) == 2:
        scale = tl.broadcast_to(scale[None, :, :], (batch, scale.shape[0], scale.shape[1]))
    return tl.reshape(scale, (batch * scale.shape[1], scale.shape[2]))


@jit
def _bitonic_exchange(x, distance: tl.constexpr, descending: tl.constexpr):
    # One stage of the merge network along the last dimension: each element
    # i with bit `distance` clear (lo) is compared with i + distance (hi) as
    # Triton's _compare_and_swap does: each takes the other's value where
    # (itself > the other) != (descending ^ it is hi). NaN compares false,
    # so a pair holding NaN becomes two copies of one of its values, as in
    # Triton (tl.sort's network, Builtins.cpp, is the same).
    last: tl.constexpr = len(x.shape) - 1
    n: tl.constexpr = x.shape[last]
    blocks = tl.reshape(x, x.shape[:last] + (n // (2 * distance), 2, distance))
    lo, hi = tl.split(tl.trans(blocks))
    low = tl.where((lo > hi) != descending, hi, lo)
    high = tl.where((hi > lo) != descending, hi, lo)
    return tl.reshape(tl.trans(tl.join(low, high)), x.shape)


@jit
def bitonic_merge(x, dim: tl.constexpr = None, descending: tl.constexpr = 0):
    # The bitonic merge network over the last dimension: a bitonic line (one
    # that rises then falls, or falls then rises) comes out sorted.
    last: tl.constexpr = len(x.shape) - 1
    tl.static_assert(dim is None or dim == last or dim == -1, "bitonic_merge: only the last dimension is supported")
    n: tl.constexpr = x.shape[last]
    tl.static_assert(n >= 2 and (n & (n - 1)) == 0, "bitonic_merge: the dimension must be a power of two")
    for i in tl.static_range(20):
        if (n >> (i + 1)) >= 1:
            x = _bitonic_exchange(x, n >> (i + 1), descending)
    return x


# Tensor methods without a tl function of their name (x.logical_and(y)):
# the frontend looks them up as tensor_<name>.
@jit
def tensor_logical_and(x, y):
    return (x != 0) & (y != 0)


@jit
def tensor_logical_or(x, y):
    return (x != 0) | (y != 0)
