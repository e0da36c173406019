# Triton's libdevice (triton.language.extra.libdevice) beyond the functions
# the frontend builds from single IR ops (frontend/Builtins.cpp), written in
# the language so that every target runs the same code: integer bit
# functions, IEEE arithmetic and conversions in the four rounding modes,
# bit reinterpretations, classification, and math that reduces to the rest.
#
# Rounding modes (rn, rz, rd, ru = 0, 1, 2, 3) are exact: the result rounded
# to nearest moves one ulp where the sign of its exact error says so. That
# sign comes from error-free transformations (TwoSum; the residual of an
# fma, whose rounding keeps the sign even when it underflows to a signed
# zero) or, for float32 fma, from exact float64 arithmetic.
#
# Each public function is libdevice_<name>; kernels reach it as
# libdevice.<name> (frontend/CodeGenExpr.cpp). Types follow Triton's
# libdevice signatures (float32/float64; int32/int64 for the bit functions);
# the math functions also take float16/bfloat16, computed in float64.
import tessera.language as tl
from tessera import jit
from tessera.language.extra import libdevice

_LD_PI_HI = 3.141592653589793
_LD_PI_LO = 1.2246467991473532e-16
_LD_RSQRT2_HI = 0.7071067811865476
_LD_RSQRT2_LO = -4.833646656726457e-17
_LD_TWO_OVER_SQRTPI = 1.1283791670955126
_LD_RSQRTPI = 0.5641895835477563


# ---- bits and steps

@jit
def _ld_bits(x):
    if x.dtype == tl.float64:
        return x.to(tl.int64, bitcast=True)
    else:
        return x.to(tl.int32, bitcast=True)


@jit
def _ld_from_bits(b):
    if b.dtype == tl.int64:
        return b.to(tl.float64, bitcast=True)
    else:
        return b.to(tl.float32, bitcast=True)


@jit
def _ld_signbit(x):
    return _ld_bits(x) < 0


@jit
def _ld_float_arg(x, name: tl.constexpr):
    x = tl.to_tensor(x)
    tl.static_assert(x.dtype == tl.float32 or x.dtype == tl.float64,
                     "libdevice." + name + " takes float32 or float64 values")
    return x


@jit
def _ld_next(x, up):
    # x moved one ulp toward +inf where `up`, toward -inf elsewhere. NaN
    # stays; an infinity moved outward stays.
    bits = _ld_bits(x)
    outward = (x > 0) == up
    stepped = _ld_from_bits(bits + tl.where(outward, 1, -1))
    tiny = _ld_from_bits(bits * 0 + 1)
    r = tl.where(x == 0, tl.where(up, tiny, -tiny), stepped)
    return tl.where((x != x) | ((tl.abs(x) == float("inf")) & outward), x, r)


@jit
def _ld_directed(r, gt, lt, mode: tl.constexpr):
    # r: the result rounded to nearest; gt / lt: the exact result is above /
    # below r. The result in `mode` (1 toward zero, 2 down, 3 up).
    if mode == 1:
        move = (gt & (r < 0)) | (lt & (r > 0))
        up = r < 0
    elif mode == 2:
        move = lt
        up = r != r
    else:
        tl.static_assert(mode == 3, "rounding mode")
        move = gt
        up = r == r
    return tl.where(move, _ld_next(r, up), r)


@jit
def _ld_residual_sign(e, e_neg):
    # e: (exact - r) rounded once, e_neg: (r - exact) rounded once. A residual
    # that underflows still rounds to a zero of its sign; an exact one is +0.
    gt = (e > 0) | ((e == 0) & _ld_signbit(e_neg))
    lt = (e < 0) | ((e == 0) & _ld_signbit(e))
    return gt, lt


@jit
def _ld_two_sum(a, b):
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


@jit
def _ld_finite(x):
    return tl.abs(x) < float("inf")


# ---- arithmetic in a rounding mode

@jit
def _ld_add(a, b, mode: tl.constexpr):
    s = a + b
    if mode == 0:
        return s
    _s, err = _ld_two_sum(a, b)
    overflow = (tl.abs(s) == float("inf")) & _ld_finite(a) & _ld_finite(b)
    r = _ld_directed(s, tl.where(overflow, s < 0, err > 0), tl.where(overflow, s > 0, err < 0), mode)
    if mode == 2:
        # Rounding down, an exact zero sum is -0 unless both terms are +0.
        r = tl.where(s == 0, -((-a) + (-b)), r)
    return r


@jit
def _ld_mul(a, b, mode: tl.constexpr):
    p = a * b
    if mode == 0:
        return p
    gt, lt = _ld_residual_sign(tl.fma(a, b, -p), tl.fma(-a, b, p))
    return _ld_directed(p, gt, lt, mode)


@jit
def _ld_div(a, b, mode: tl.constexpr):
    q = tl.div_rn(a, b)
    if mode == 0:
        return q
    # a/b - q has the sign of (a - q b) times the sign of b.
    gt0, lt0 = _ld_residual_sign(tl.fma(-q, b, a), tl.fma(q, b, -a))
    neg = b < 0
    return _ld_directed(q, tl.where(neg, lt0, gt0), tl.where(neg, gt0, lt0), mode)


@jit
def _ld_sqrt(x, mode: tl.constexpr):
    s = tl.sqrt_rn(x)
    if mode == 0:
        return s
    gt, lt = _ld_residual_sign(tl.fma(-s, s, x), tl.fma(s, s, -x))
    # sqrt(-0) = -0, whose residual is a -0 too.
    return tl.where(x == 0, x, _ld_directed(s, gt, lt, mode))


@jit
def _ld_expansion_sign(terms0, terms1, terms2, terms3):
    # The sign of terms0 + ... + terms3, exactly (Shewchuk's expansion growth:
    # nonoverlapping components, the largest nonzero one gives the sign).
    q, h0 = _ld_two_sum(terms1, terms0)
    q1, g0 = _ld_two_sum(terms2, h0)
    q2, g1 = _ld_two_sum(q1, q)
    q3, k0 = _ld_two_sum(terms3, g0)
    q4, k1 = _ld_two_sum(q3, g1)
    q5, k2 = _ld_two_sum(q4, q2)
    pick = tl.where(q5 != 0, q5, tl.where(k2 != 0, k2, tl.where(k1 != 0, k1, k0)))
    return pick


@jit
def _ld_fma(a, b, c, mode: tl.constexpr):
    r = tl.fma(a, b, c)
    if mode == 0:
        return r
    if a.dtype == tl.float32:
        # float32 products are exact in float64.
        wa = a.to(tl.float64)
        pick = _ld_expansion_sign(wa * b.to(tl.float64), c.to(tl.float64), -r.to(tl.float64), wa * 0.0)
    else:
        # a b = p + e exactly unless p is within 2^-900 of zero, where all of
        # a, b, c and r scale by 2^1200 (c and r too are small there, else
        # a b does not matter beside them); or p overflows while r does not,
        # where a, c and r scale by 2^-600.
        p0 = a * b
        scale_up = (tl.abs(p0) < 1.1830521861667747e-271) & (tl.abs(c) < 1.499696813895631e-241)
        scale_down = (tl.abs(p0) == float("inf")) & _ld_finite(a) & _ld_finite(b)
        up = 4.149515568880993e+180
        down = 2.409919865102884e-181
        sa = tl.where(scale_up, a * up, tl.where(scale_down, a * down, a))
        sb = tl.where(scale_up, b * up, b)
        sc = tl.where(scale_up, c * up * up, tl.where(scale_down, c * down, c))
        sr = tl.where(scale_up, r * up * up, tl.where(scale_down, r * down, r))
        # The select keeps GPU code generators from contracting the product
        # into the sums that follow (a NaN product makes r NaN anyway).
        p = sa * sb
        p = tl.where(p == p, p, 0.0)
        pick = _ld_expansion_sign(p, tl.fma(sa, sb, -p), sc, -sr)
        # A product that still rounds to zero keeps its sign.
        zero_product = (pick == 0) & (p == 0) & (sa != 0) & (sb != 0)
        pick = tl.where(zero_product, tl.where(_ld_signbit(p), -1.0, 1.0), pick)
    overflow = (tl.abs(r) == float("inf")) & _ld_finite(a) & _ld_finite(b) & _ld_finite(c)
    gt = tl.where(overflow, r < 0, pick > 0)
    lt = tl.where(overflow, r > 0, pick < 0)
    res = _ld_directed(r, gt, lt, mode)
    if mode == 2:
        res = tl.where((r == 0) & ~gt & ~lt, -tl.fma(-a, b, -c), res)
    return res


@jit
def _ld_float_pair(x, y, name: tl.constexpr):
    x = _ld_float_arg(x, name)
    y = tl.to_tensor(y)
    tl.static_assert(y.dtype == x.dtype or y.dtype == tl.float32,
                     "libdevice." + name + " takes two values of one float type")
    return x, y.to(x.dtype)


@jit
def libdevice_add_rn(x, y):
    x, y = _ld_float_pair(x, y, "add_rn")
    return _ld_add(x, y, 0)


@jit
def libdevice_add_rz(x, y):
    x, y = _ld_float_pair(x, y, "add_rz")
    return _ld_add(x, y, 1)


@jit
def libdevice_add_rd(x, y):
    x, y = _ld_float_pair(x, y, "add_rd")
    return _ld_add(x, y, 2)


@jit
def libdevice_add_ru(x, y):
    x, y = _ld_float_pair(x, y, "add_ru")
    return _ld_add(x, y, 3)


@jit
def libdevice_sub_rn(x, y):
    x, y = _ld_float_pair(x, y, "sub_rn")
    return _ld_add(x, -y, 0)


@jit
def libdevice_sub_rz(x, y):
    x, y = _ld_float_pair(x, y, "sub_rz")
    return _ld_add(x, -y, 1)


@jit
def libdevice_sub_rd(x, y):
    x, y = _ld_float_pair(x, y, "sub_rd")
    return _ld_add(x, -y, 2)


@jit
def libdevice_sub_ru(x, y):
    x, y = _ld_float_pair(x, y, "sub_ru")
    return _ld_add(x, -y, 3)


@jit
def libdevice_mul_rn(x, y):
    x, y = _ld_float_pair(x, y, "mul_rn")
    return _ld_mul(x, y, 0)


@jit
def libdevice_mul_rz(x, y):
    x, y = _ld_float_pair(x, y, "mul_rz")
    return _ld_mul(x, y, 1)


@jit
def libdevice_mul_rd(x, y):
    x, y = _ld_float_pair(x, y, "mul_rd")
    return _ld_mul(x, y, 2)


@jit
def libdevice_mul_ru(x, y):
    x, y = _ld_float_pair(x, y, "mul_ru")
    return _ld_mul(x, y, 3)


@jit
def libdevice_div_rz(x, y):
    x, y = _ld_float_pair(x, y, "div_rz")
    return _ld_div(x, y, 1)


@jit
def libdevice_div_rd(x, y):
    x, y = _ld_float_pair(x, y, "div_rd")
    return _ld_div(x, y, 2)


@jit
def libdevice_div_ru(x, y):
    x, y = _ld_float_pair(x, y, "div_ru")
    return _ld_div(x, y, 3)


@jit
def libdevice_rcp_rn(x):
    x = _ld_float_arg(x, "rcp_rn")
    return _ld_div(1.0, x, 0)


@jit
def libdevice_rcp_rz(x):
    x = _ld_float_arg(x, "rcp_rz")
    return _ld_div(1.0, x, 1)


@jit
def libdevice_rcp_rd(x):
    x = _ld_float_arg(x, "rcp_rd")
    return _ld_div(1.0, x, 2)


@jit
def libdevice_rcp_ru(x):
    x = _ld_float_arg(x, "rcp_ru")
    return _ld_div(1.0, x, 3)


@jit
def libdevice_sqrt_rz(x):
    return _ld_sqrt(_ld_float_arg(x, "sqrt_rz"), 1)


@jit
def libdevice_sqrt_rd(x):
    return _ld_sqrt(_ld_float_arg(x, "sqrt_rd"), 2)


@jit
def libdevice_sqrt_ru(x):
    return _ld_sqrt(_ld_float_arg(x, "sqrt_ru"), 3)


@jit
def _ld_float_triple(x, y, z, name: tl.constexpr):
    x, y = _ld_float_pair(x, y, name)
    x, z = _ld_float_pair(x, z, name)
    return x, y, z


@jit
def libdevice_fma_rn(x, y, z):
    x, y, z = _ld_float_triple(x, y, z, "fma_rn")
    return tl.fma(x, y, z)


@jit
def libdevice_fma_rz(x, y, z):
    x, y, z = _ld_float_triple(x, y, z, "fma_rz")
    return _ld_fma(x, y, z, 1)


@jit
def libdevice_fma_rd(x, y, z):
    x, y, z = _ld_float_triple(x, y, z, "fma_rd")
    return _ld_fma(x, y, z, 2)


@jit
def libdevice_fma_ru(x, y, z):
    x, y, z = _ld_float_triple(x, y, z, "fma_ru")
    return _ld_fma(x, y, z, 3)


# ---- conversions in a rounding mode

@jit
def _ld_to_float(x, to: tl.constexpr, mode: tl.constexpr):
    # float64 or an integer to float32/float64, rounded in `mode`.
    r = x.to(to)
    if mode == 0:
        return r
    if x.dtype == tl.float64:
        back = r.to(tl.float64)
        gt = x > back
        lt = x < back
    elif x.dtype.primitive_bitwidth < 64:
        # |r| <= 2^32: compared in int64.
        wide = x.to(tl.int64)
        back = r.to(tl.int64)
        gt = wide > back
        lt = wide < back
    else:
        # r may round up to 2^63 (2^64 unsigned), past the integer type.
        limit: tl.constexpr = 18446744073709551616.0 if x.dtype == tl.uint64 else 9223372036854775808.0
        beyond = r >= limit
        back = r.to(x.dtype)
        gt = ~beyond & (x > back)
        lt = beyond | (x < back)
    return _ld_directed(r, gt, lt, mode)


@jit
def _ld_round_int(x, mode: tl.constexpr):
    if mode == 0:
        return libdevice.rint(x)
    elif mode == 1:
        return libdevice.trunc(x)
    elif mode == 2:
        return tl.floor(x)
    else:
        return tl.ceil(x)


@jit
def _ld_float_to_int(x, src: tl.constexpr, to: tl.constexpr, result: tl.constexpr, mode: tl.constexpr, name: tl.constexpr):
    # Rounded in `mode`, then converted with saturation (NaN gives 0), as
    # cvt.r*i does; unsigned results come back as Triton types them (signed).
    x = tl.to_tensor(x)
    tl.static_assert(x.dtype == src, "libdevice." + name + " takes a " + ("float64" if src == tl.float64 else "float32") + " value")
    return _ld_round_int(x, mode).to(to).to(result, bitcast=True)


@jit
def _ld_int_to_float(x, src: tl.constexpr, to: tl.constexpr, mode: tl.constexpr, name: tl.constexpr):
    x = tl.to_tensor(x)
    tl.static_assert(x.dtype.is_int() and x.dtype.primitive_bitwidth == src.primitive_bitwidth,
                     "libdevice." + name + " takes an integer of its width")
    return _ld_to_float(x.to(src, bitcast=True), to, mode)


@jit
def libdevice_double2float_rn(x):
    x = tl.to_tensor(x)
    tl.static_assert(x.dtype == tl.float64, "libdevice.double2float_rn takes a float64 value")
    return _ld_to_float(x, tl.float32, 0)


@jit
def libdevice_float2int_rn(x):
    return _ld_float_to_int(x, tl.float32, tl.int32, tl.int32, 0, "float2int_rn")


@jit
def libdevice_float2uint_rn(x):
    return _ld_float_to_int(x, tl.float32, tl.uint32, tl.int32, 0, "float2uint_rn")


@jit
def libdevice_float2ll_rn(x):
    return _ld_float_to_int(x, tl.float32, tl.int64, tl.int64, 0, "float2ll_rn")


@jit
def libdevice_float2ull_rn(x):
    return _ld_float_to_int(x, tl.float32, tl.uint64, tl.int64, 0, "float2ull_rn")


@jit
def libdevice_double2int_rn(x):
    return _ld_float_to_int(x, tl.float64, tl.int32, tl.int32, 0, "double2int_rn")


@jit
def libdevice_double2uint_rn(x):
    return _ld_float_to_int(x, tl.float64, tl.uint32, tl.int32, 0, "double2uint_rn")


@jit
def libdevice_double2ll_rn(x):
    return _ld_float_to_int(x, tl.float64, tl.int64, tl.int64, 0, "double2ll_rn")


@jit
def libdevice_double2ull_rn(x):
    return _ld_float_to_int(x, tl.float64, tl.uint64, tl.int64, 0, "double2ull_rn")


@jit
def libdevice_int2float_rn(x):
    return _ld_int_to_float(x, tl.int32, tl.float32, 0, "int2float_rn")


@jit
def libdevice_int2double_rn(x):
    return _ld_int_to_float(x, tl.int32, tl.float64, 0, "int2double_rn")


@jit
def libdevice_uint2float_rn(x):
    return _ld_int_to_float(x, tl.uint32, tl.float32, 0, "uint2float_rn")


@jit
def libdevice_uint2double_rn(x):
    return _ld_int_to_float(x, tl.uint32, tl.float64, 0, "uint2double_rn")


@jit
def libdevice_ll2float_rn(x):
    return _ld_int_to_float(x, tl.int64, tl.float32, 0, "ll2float_rn")


@jit
def libdevice_ll2double_rn(x):
    return _ld_int_to_float(x, tl.int64, tl.float64, 0, "ll2double_rn")


@jit
def libdevice_ull2float_rn(x):
    return _ld_int_to_float(x, tl.uint64, tl.float32, 0, "ull2float_rn")


@jit
def libdevice_ull2double_rn(x):
    return _ld_int_to_float(x, tl.uint64, tl.float64, 0, "ull2double_rn")


@jit
def libdevice_double2float_rz(x):
    x = tl.to_tensor(x)
    tl.static_assert(x.dtype == tl.float64, "libdevice.double2float_rz takes a float64 value")
    return _ld_to_float(x, tl.float32, 1)


@jit
def libdevice_float2int_rz(x):
    return _ld_float_to_int(x, tl.float32, tl.int32, tl.int32, 1, "float2int_rz")


@jit
def libdevice_float2uint_rz(x):
    return _ld_float_to_int(x, tl.float32, tl.uint32, tl.int32, 1, "float2uint_rz")


@jit
def libdevice_float2ll_rz(x):
    return _ld_float_to_int(x, tl.float32, tl.int64, tl.int64, 1, "float2ll_rz")


@jit
def libdevice_float2ull_rz(x):
    return _ld_float_to_int(x, tl.float32, tl.uint64, tl.int64, 1, "float2ull_rz")


@jit
def libdevice_double2int_rz(x):
    return _ld_float_to_int(x, tl.float64, tl.int32, tl.int32, 1, "double2int_rz")


@jit
def libdevice_double2uint_rz(x):
    return _ld_float_to_int(x, tl.float64, tl.uint32, tl.int32, 1, "double2uint_rz")


@jit
def libdevice_double2ll_rz(x):
    return _ld_float_to_int(x, tl.float64, tl.int64, tl.int64, 1, "double2ll_rz")


@jit
def libdevice_double2ull_rz(x):
    return _ld_float_to_int(x, tl.float64, tl.uint64, tl.int64, 1, "double2ull_rz")


@jit
def libdevice_int2float_rz(x):
    return _ld_int_to_float(x, tl.int32, tl.float32, 1, "int2float_rz")


@jit
def libdevice_uint2float_rz(x):
    return _ld_int_to_float(x, tl.uint32, tl.float32, 1, "uint2float_rz")


@jit
def libdevice_ll2float_rz(x):
    return _ld_int_to_float(x, tl.int64, tl.float32, 1, "ll2float_rz")


@jit
def libdevice_ll2double_rz(x):
    return _ld_int_to_float(x, tl.int64, tl.float64, 1, "ll2double_rz")


@jit
def libdevice_ull2float_rz(x):
    return _ld_int_to_float(x, tl.uint64, tl.float32, 1, "ull2float_rz")


@jit
def libdevice_ull2double_rz(x):
    return _ld_int_to_float(x, tl.uint64, tl.float64, 1, "ull2double_rz")


@jit
def libdevice_double2float_rd(x):
    x = tl.to_tensor(x)
    tl.static_assert(x.dtype == tl.float64, "libdevice.double2float_rd takes a float64 value")
    return _ld_to_float(x, tl.float32, 2)


@jit
def libdevice_float2int_rd(x):
    return _ld_float_to_int(x, tl.float32, tl.int32, tl.int32, 2, "float2int_rd")


@jit
def libdevice_float2uint_rd(x):
    return _ld_float_to_int(x, tl.float32, tl.uint32, tl.int32, 2, "float2uint_rd")


@jit
def libdevice_float2ll_rd(x):
    return _ld_float_to_int(x, tl.float32, tl.int64, tl.int64, 2, "float2ll_rd")


@jit
def libdevice_float2ull_rd(x):
    return _ld_float_to_int(x, tl.float32, tl.uint64, tl.int64, 2, "float2ull_rd")


@jit
def libdevice_double2int_rd(x):
    return _ld_float_to_int(x, tl.float64, tl.int32, tl.int32, 2, "double2int_rd")


@jit
def libdevice_double2uint_rd(x):
    return _ld_float_to_int(x, tl.float64, tl.uint32, tl.int32, 2, "double2uint_rd")


@jit
def libdevice_double2ll_rd(x):
    return _ld_float_to_int(x, tl.float64, tl.int64, tl.int64, 2, "double2ll_rd")


@jit
def libdevice_double2ull_rd(x):
    return _ld_float_to_int(x, tl.float64, tl.uint64, tl.int64, 2, "double2ull_rd")


@jit
def libdevice_int2float_rd(x):
    return _ld_int_to_float(x, tl.int32, tl.float32, 2, "int2float_rd")


@jit
def libdevice_uint2float_rd(x):
    return _ld_int_to_float(x, tl.uint32, tl.float32, 2, "uint2float_rd")


@jit
def libdevice_ll2float_rd(x):
    return _ld_int_to_float(x, tl.int64, tl.float32, 2, "ll2float_rd")


@jit
def libdevice_ll2double_rd(x):
    return _ld_int_to_float(x, tl.int64, tl.float64, 2, "ll2double_rd")


@jit
def libdevice_ull2float_rd(x):
    return _ld_int_to_float(x, tl.uint64, tl.float32, 2, "ull2float_rd")


@jit
def libdevice_ull2double_rd(x):
    return _ld_int_to_float(x, tl.uint64, tl.float64, 2, "ull2double_rd")


@jit
def libdevice_double2float_ru(x):
    x = tl.to_tensor(x)
    tl.static_assert(x.dtype == tl.float64, "libdevice.double2float_ru takes a float64 value")
    return _ld_to_float(x, tl.float32, 3)


@jit
def libdevice_float2int_ru(x):
    return _ld_float_to_int(x, tl.float32, tl.int32, tl.int32, 3, "float2int_ru")


@jit
def libdevice_float2uint_ru(x):
    return _ld_float_to_int(x, tl.float32, tl.uint32, tl.int32, 3, "float2uint_ru")


@jit
def libdevice_float2ll_ru(x):
    return _ld_float_to_int(x, tl.float32, tl.int64, tl.int64, 3, "float2ll_ru")


@jit
def libdevice_float2ull_ru(x):
    return _ld_float_to_int(x, tl.float32, tl.uint64, tl.int64, 3, "float2ull_ru")


@jit
def libdevice_double2int_ru(x):
    return _ld_float_to_int(x, tl.float64, tl.int32, tl.int32, 3, "double2int_ru")


@jit
def libdevice_double2uint_ru(x):
    return _ld_float_to_int(x, tl.float64, tl.uint32, tl.int32, 3, "double2uint_ru")


@jit
def libdevice_double2ll_ru(x):
    return _ld_float_to_int(x, tl.float64, tl.int64, tl.int64, 3, "double2ll_ru")


@jit
def libdevice_double2ull_ru(x):
    return _ld_float_to_int(x, tl.float64, tl.uint64, tl.int64, 3, "double2ull_ru")


@jit
def libdevice_int2float_ru(x):
    return _ld_int_to_float(x, tl.int32, tl.float32, 3, "int2float_ru")


@jit
def libdevice_uint2float_ru(x):
    return _ld_int_to_float(x, tl.uint32, tl.float32, 3, "uint2float_ru")


@jit
def libdevice_ll2float_ru(x):
    return _ld_int_to_float(x, tl.int64, tl.float32, 3, "ll2float_ru")


@jit
def libdevice_ll2double_ru(x):
    return _ld_int_to_float(x, tl.int64, tl.float64, 3, "ll2double_ru")


@jit
def libdevice_ull2float_ru(x):
    return _ld_int_to_float(x, tl.uint64, tl.float32, 3, "ull2float_ru")


@jit
def libdevice_ull2double_ru(x):
    return _ld_int_to_float(x, tl.uint64, tl.float64, 3, "ull2double_ru")


# ---- bit reinterpretations

@jit
def _ld_reinterpret(x, src_bits: tl.constexpr, to: tl.constexpr, name: tl.constexpr):
    x = tl.to_tensor(x)
    tl.static_assert(x.dtype.primitive_bitwidth == src_bits, "libdevice." + name + " takes a value of the width it reinterprets")
    return x.to(to, bitcast=True)


@jit
def libdevice_int_as_float(x):
    return _ld_reinterpret(x, 32, tl.float32, "int_as_float")


@jit
def libdevice_uint_as_float(x):
    return _ld_reinterpret(x, 32, tl.float32, "uint_as_float")


@jit
def libdevice_float_as_int(x):
    return _ld_reinterpret(x, 32, tl.int32, "float_as_int")


@jit
def libdevice_float_as_uint(x):
    return _ld_reinterpret(x, 32, tl.int32, "float_as_uint")


@jit
def libdevice_longlong_as_double(x):
    return _ld_reinterpret(x, 64, tl.float64, "longlong_as_double")


@jit
def libdevice_double_as_longlong(x):
    return _ld_reinterpret(x, 64, tl.int64, "double_as_longlong")


@jit
def libdevice_hiloint2double(hi, lo):
    hi = tl.to_tensor(hi)
    lo = tl.to_tensor(lo)
    tl.static_assert(hi.dtype.primitive_bitwidth == 32 and lo.dtype.primitive_bitwidth == 32,
                     "libdevice.hiloint2double takes two 32-bit integers")
    bits = (hi.to(tl.int64) << 32) | lo.to(tl.uint32, bitcast=True).to(tl.int64)
    return bits.to(tl.float64, bitcast=True)


@jit
def libdevice_double2loint(x):
    return _ld_reinterpret(x, 64, tl.int64, "double2loint").to(tl.int32)


@jit
def libdevice_double2hiint(x):
    return (_ld_reinterpret(x, 64, tl.int64, "double2hiint") >> 32).to(tl.int32)


# ---- integer bit functions

@jit
def _ld_int_arg(x, name: tl.constexpr):
    x = tl.to_tensor(x)
    tl.static_assert(x.dtype.is_int() and (x.dtype.primitive_bitwidth == 32 or x.dtype.primitive_bitwidth == 64),
                     "libdevice." + name + " takes a 32- or 64-bit integer")
    if x.dtype.primitive_bitwidth == 64:
        return x.to(tl.uint64, bitcast=True)
    else:
        return x.to(tl.uint32, bitcast=True)


@jit
def _ld_popc(u):
    # Bits counted in parallel within 2-, 4- and 8-bit fields, the bytes summed by a multiply.
    if u.dtype == tl.uint64:
        u = u - ((u >> 1) & 0x5555555555555555)
        u = (u & 0x3333333333333333) + ((u >> 2) & 0x3333333333333333)
        u = (u + (u >> 4)) & 0x0F0F0F0F0F0F0F0F
        return ((u * 0x0101010101010101) >> 56).to(tl.int32)
    else:
        u = u - ((u >> 1) & 0x55555555)
        u = (u & 0x33333333) + ((u >> 2) & 0x33333333)
        u = (u + (u >> 4)) & 0x0F0F0F0F
        return ((u * 0x01010101) >> 24).to(tl.int32)


@jit
def libdevice_popc(x):
    return _ld_popc(_ld_int_arg(x, "popc"))


@jit
def libdevice_clz(x):
    u = _ld_int_arg(x, "clz")
    width: tl.constexpr = u.dtype.primitive_bitwidth
    n = (u * 0).to(tl.int32)
    # Binary search: while the top half of what is left is zero, count it and shift it out.
    for i in tl.static_range(5 if width == 32 else 6):
        shift: tl.constexpr = (width // 2) >> i
        empty = (u >> (width - shift)) == 0
        n = n + tl.where(empty, shift, 0)
        u = tl.where(empty, u << shift, u)
    return n + tl.where((u >> (width - 1)) == 0, 1, 0)


@jit
def libdevice_ffs(x):
    # 1 + the index of the lowest set bit; 0 for 0.
    u = _ld_int_arg(x, "ffs")
    low = u & (0 - u)
    return tl.where(u == 0, 0, _ld_popc(low - 1) + 1)


@jit
def libdevice_brev(x):
    x = tl.to_tensor(x)
    u = _ld_int_arg(x, "brev")
    if u.dtype == tl.uint64:
        u = ((u >> 1) & 0x5555555555555555) | ((u & 0x5555555555555555) << 1)
        u = ((u >> 2) & 0x3333333333333333) | ((u & 0x3333333333333333) << 2)
        u = ((u >> 4) & 0x0F0F0F0F0F0F0F0F) | ((u & 0x0F0F0F0F0F0F0F0F) << 4)
        u = ((u >> 8) & 0x00FF00FF00FF00FF) | ((u & 0x00FF00FF00FF00FF) << 8)
        u = ((u >> 16) & 0x0000FFFF0000FFFF) | ((u & 0x0000FFFF0000FFFF) << 16)
        u = (u >> 32) | (u << 32)
    else:
        u = ((u >> 1) & 0x55555555) | ((u & 0x55555555) << 1)
        u = ((u >> 2) & 0x33333333) | ((u & 0x33333333) << 2)
        u = ((u >> 4) & 0x0F0F0F0F) | ((u & 0x0F0F0F0F) << 4)
        u = ((u >> 8) & 0x00FF00FF) | ((u & 0x00FF00FF) << 8)
        u = (u >> 16) | (u << 16)
    return u.to(x.dtype, bitcast=True)


@jit
def libdevice_byte_perm(x, y, s):
    # Byte i of the result is byte (s >> 4i) & 7 of the eight bytes y:x.
    x = _ld_int_arg(x, "byte_perm")
    y = _ld_int_arg(y, "byte_perm")
    s = _ld_int_arg(s, "byte_perm")
    tl.static_assert(x.dtype == tl.uint32 and y.dtype == tl.uint32 and s.dtype == tl.uint32,
                     "libdevice.byte_perm takes 32-bit integers")
    r = x * 0
    for i in tl.static_range(4):
        sel = (s >> (4 * i)) & 7
        low = (x >> ((sel & 3) * 8)) & 0xFF
        high = (y >> ((sel & 3) * 8)) & 0xFF
        r = r | (tl.where(sel < 4, low, high) << (8 * i))
    return r.to(tl.int32, bitcast=True)


@jit
def _ld_int_pair(x, y, name: tl.constexpr):
    x = tl.to_tensor(x)
    y = tl.to_tensor(y)
    tl.static_assert(x.dtype.is_int() and y.dtype.is_int() and x.dtype.primitive_bitwidth == y.dtype.primitive_bitwidth,
                     "libdevice." + name + " takes two integers of one width")
    return x, y.to(x.dtype, bitcast=True)


@jit
def libdevice_mulhi(x, y):
    # Triton's libdevice defines mulhi on two int32, uint32, int64 or uint64
    # of one type only (8- and 16-bit integers, or mixed types, are refused).
    x = tl.to_tensor(x)
    y = tl.to_tensor(y)
    tl.static_assert((x.dtype == tl.int32 or x.dtype == tl.uint32 or x.dtype == tl.int64 or x.dtype == tl.uint64)
                     and y.dtype == x.dtype,
                     "libdevice.mulhi takes two int32, uint32, int64 or uint64 values of one type (as Triton's), "
                     "found " + x.dtype.name + " and " + y.dtype.name)
    if x.dtype == tl.int32:
        return ((x.to(tl.int64) * y.to(tl.int64)) >> 32).to(tl.int32)
    elif x.dtype == tl.int64:
        # The signed high half from the unsigned one: minus y where x < 0, minus x where y < 0.
        hi = tl.umulhi(x, y)
        return hi - tl.where(x < 0, y, 0) - tl.where(y < 0, x, 0)
    else:
        return tl.umulhi(x, y)


@jit
def libdevice_mul24(x, y):
    # The low 32 bits of the product of the low 24 bits (sign-extended for int32).
    x, y = _ld_int_pair(x, y, "mul24")
    tl.static_assert(x.dtype.primitive_bitwidth == 32, "libdevice.mul24 takes 32-bit integers")
    if x.dtype == tl.int32:
        return ((x << 8) >> 8) * ((y << 8) >> 8)
    else:
        return (x & 0xFFFFFF) * (y & 0xFFFFFF)


@jit
def libdevice_sad(x, y, z):
    # |x - y| + z, modulo 2^32.
    x, y = _ld_int_pair(x, y, "sad")
    tl.static_assert(x.dtype.primitive_bitwidth == 32, "libdevice.sad takes 32-bit integers")
    z = tl.to_tensor(z).to(x.dtype, bitcast=True)
    d = tl.where(x > y, x - y, y - x)
    return d + z


@jit
def _ld_halving_add(x, y, round_up: tl.constexpr, name: tl.constexpr):
    x, y = _ld_int_pair(x, y, name)
    tl.static_assert(x.dtype.primitive_bitwidth == 32, "libdevice." + name + " takes 32-bit integers")
    wide: tl.constexpr = tl.int64 if x.dtype == tl.int32 else tl.uint64
    return ((x.to(wide) + y.to(wide) + round_up) >> 1).to(x.dtype)


@jit
def libdevice_hadd(x, y):
    return _ld_halving_add(x, y, 0, "hadd")


@jit
def libdevice_rhadd(x, y):
    return _ld_halving_add(x, y, 1, "rhadd")


# ---- classification and steps

@jit
def libdevice_isnan(x):
    x = _ld_float_arg(x, "isnan")
    return x != x


@jit
def libdevice_isinf(x):
    x = _ld_float_arg(x, "isinf")
    return tl.abs(x) == float("inf")


@jit
def libdevice_finitef(x):
    return _ld_finite(_ld_float_arg(x, "finitef"))


@jit
def libdevice_isfinited(x):
    return _ld_finite(_ld_float_arg(x, "isfinited"))


@jit
def libdevice_signbit(x):
    return tl.where(_ld_signbit(_ld_float_arg(x, "signbit")), 1, 0)


@jit
def libdevice_nextafter(x, y):
    x, y = _ld_float_pair(x, y, "nextafter")
    r = _ld_next(x, y > x)
    r = tl.where(x == y, y, r)
    return tl.where((x != x) | (y != y), x + y, r)


@jit
def _ld_pow2(k, like):
    # 2^k in like's type, for k in its normal exponent range.
    if like.dtype == tl.float64:
        return ((k.to(tl.int64) + 1023) << 52).to(tl.float64, bitcast=True)
    else:
        return ((k.to(tl.int32) + 127) << 23).to(tl.float32, bitcast=True)


@jit
def _ld_ilogb(x):
    # The exponent of finite nonzero x, subnormals included.
    bits = _ld_bits(x)
    if x.dtype == tl.float64:
        biased = ((bits >> 52) & 0x7FF).to(tl.int32)
        mant = bits & 0xFFFFFFFFFFFFF
        sub = 63 - libdevice_clz(mant) - 1074
        return tl.where(biased == 0, sub, biased - 1023)
    else:
        biased = (bits >> 23) & 0xFF
        mant = bits & 0x7FFFFF
        sub = 31 - libdevice_clz(mant) - 149
        return tl.where(biased == 0, sub, biased - 127)


@jit
def libdevice_ilogb(x):
    x = _ld_float_arg(x, "ilogb")
    e = _ld_ilogb(x)
    # FP_ILOGB0 and FP_ILOGBNAN are INT_MIN, as in CUDA and glibc; inf gives INT_MAX.
    e = tl.where((x == 0) | (x != x), -2147483648, e)
    return tl.where(tl.abs(x) == float("inf"), 2147483647, e)


@jit
def libdevice_logb(x):
    x = _ld_float_arg(x, "logb")
    r = _ld_ilogb(x).to(x.dtype)
    r = tl.where(x == 0, -float("inf"), r)
    return tl.where(_ld_finite(x), r, tl.abs(x))


@jit
def libdevice_ldexp(x, n):
    # x 2^n with one rounding: steps that stay exact, then one multiply
    # that rounds where the result is subnormal.
    x = _ld_float_arg(x, "ldexp")
    n = tl.to_tensor(n)
    tl.static_assert(n.dtype.is_int(), "libdevice.ldexp takes an integer exponent")
    if x.dtype == tl.float64:
        emax: tl.constexpr = 1023
        emin: tl.constexpr = -1022
        span: tl.constexpr = 2200
    else:
        emax: tl.constexpr = 127
        emin: tl.constexpr = -126
        span: tl.constexpr = 300
    k = tl.minimum(tl.maximum(n, -span), span).to(tl.int32)
    e = _ld_ilogb(x)
    target = e + k
    # Up to the target, or down to the smallest normal exponent, in steps inside the exponent range.
    first = tl.where(target < emin, emin - e, k)
    y = x
    left = first
    for _ in tl.static_range(3 if x.dtype == tl.float32 else 4):
        step = tl.minimum(tl.maximum(left, emin), emax)
        y = y * _ld_pow2(step, x)
        left = left - step
    # The rounding step: from the smallest normal exponent down to the target.
    last = tl.where(target < emin, tl.maximum(target - emin, emin), 0)
    y = y * _ld_pow2(last, x)
    return tl.where((x == 0) | ~_ld_finite(x), x, y)


@jit
def libdevice_scalbn(x, n):
    return libdevice_ldexp(x, n)


@jit
def libdevice_fdim(x, y):
    x, y = _ld_float_pair(x, y, "fdim")
    r = tl.where(x > y, x - y, 0.0)
    return tl.where((x != x) | (y != y), x + y, r)


@jit
def libdevice_saturatef(x):
    x = _ld_float_arg(x, "saturatef")
    return tl.where(x > 0, tl.where(x < 1, x, 1.0), 0.0)


@jit
def libdevice_remainder(x, y):
    # IEEE remainder, exact: fmod by 2|y| gives the quotient's parity, then
    # at most one |y| comes off.
    x, y = _ld_float_pair(x, y, "remainder")
    ay = tl.abs(y)
    a = libdevice.fmod(tl.abs(x), ay + ay)
    odd = a >= ay
    a = tl.where(odd, a - ay, a)
    a = tl.where((a + a > ay) | ((a + a == ay) & odd), a - ay, a)
    r = libdevice.copysign(tl.abs(a), x) * tl.where(a < 0, -1.0, 1.0)
    return tl.where((tl.abs(y) == float("inf")) & _ld_finite(x), x, r)


@jit
def libdevice_nearbyint(x):
    return libdevice.rint(_ld_float_arg(x, "nearbyint"))


@jit
def libdevice_llrint(x):
    return libdevice.rint(_ld_float_arg(x, "llrint")).to(tl.int64)


@jit
def libdevice_llround(x):
    return libdevice.round(_ld_float_arg(x, "llround")).to(tl.int64)


@jit
def libdevice_rcp64h(x):
    # rcp.approx.ftz.f64's contract: 1/x from the high word of x, to about 20 bits.
    x = _ld_float_arg(x, "rcp64h")
    tl.static_assert(x.dtype == tl.float64, "libdevice.rcp64h takes a float64 value")
    high = ((x.to(tl.int64, bitcast=True) >> 32) << 32).to(tl.float64, bitcast=True)
    return tl.div_rn(1.0, high)


@jit
def libdevice_rsqrt_rn(x):
    # float32: 1/sqrt in float64, rounded once to float32.
    x = _ld_float_arg(x, "rsqrt_rn")
    w = x.to(tl.float64)
    return tl.div_rn(1.0, tl.sqrt_rn(w)).to(x.dtype)


# ---- math that reduces to the rest (float32 and below computed in float64)

@jit
def _ld_math_arg(x, name: tl.constexpr):
    x = tl.to_tensor(x)
    tl.static_assert(x.dtype.is_floating(), "libdevice." + name + " takes a floating-point value")
    return x


@jit
def _ld_wide(x):
    return x.to(tl.float64)


@jit
def _ld_pi_times(r):
    # pi r as hi + lo (a double-double product).
    hi = r * _LD_PI_HI
    return hi, tl.fma(r, _LD_PI_HI, -hi) + r * _LD_PI_LO


@jit
def _ld_sinpi_reduced(r):
    # sin(pi r) for |r| <= 1/2, float64.
    hi, lo = _ld_pi_times(r)
    return libdevice.sin(hi) + lo * libdevice.cos(hi)


@jit
def _ld_reduce_two(x):
    # x - 2 rint(x / 2), in [-1, 1], exactly.
    return x - 2.0 * libdevice.rint(x * 0.5)


@jit
def libdevice_sinpi(x):
    x = _ld_math_arg(x, "sinpi")
    w = _ld_wide(x)
    r = _ld_reduce_two(w)
    r = tl.where(r > 0.5, 1.0 - r, tl.where(r < -0.5, -1.0 - r, r))
    s = _ld_sinpi_reduced(r)
    # sinpi of an integer is a zero of x's sign.
    return tl.where(s == 0, w * 0.0, s).to(x.dtype)


@jit
def libdevice_cospi(x):
    x = _ld_math_arg(x, "cospi")
    w = _ld_wide(x)
    a = tl.abs(_ld_reduce_two(w))
    hi, lo = _ld_pi_times(a)
    near = libdevice.cos(hi) - lo * libdevice.sin(hi)
    # Past 1/4, cos(pi a) = sin(pi (1/2 - a)), and 1/2 - a is exact there.
    c = tl.where(a <= 0.25, near, _ld_sinpi_reduced(0.5 - a))
    return (c + 0.0).to(x.dtype)


@jit
def _ld_norm(a, b, c, d, name: tl.constexpr):
    # sqrt(a^2 + b^2 + c^2 + d^2) without overflow or underflow: scaled by
    # the largest magnitude's power of two. inf wins over NaN, as in C's hypot.
    a = _ld_math_arg(a, name)
    w = a.to(tl.float64)
    wb = tl.to_tensor(b).to(tl.float64)
    wc = tl.to_tensor(c).to(tl.float64)
    wd = tl.to_tensor(d).to(tl.float64)
    m = tl.maximum(tl.maximum(tl.abs(w), tl.abs(wb)), tl.maximum(tl.abs(wc), tl.abs(wd)))
    if a.dtype == tl.float64:
        e = tl.where((m == 0) | ~_ld_finite(m), 0, _ld_ilogb(m))
        sa = libdevice_ldexp(w, -e)
        sb = libdevice_ldexp(wb, -e)
        sc = libdevice_ldexp(wc, -e)
        sd = libdevice_ldexp(wd, -e)
        r = libdevice_ldexp(tl.sqrt_rn(sa * sa + sb * sb + sc * sc + sd * sd), e)
    else:
        r = tl.sqrt_rn(w * w + wb * wb + wc * wc + wd * wd)
    inf = (tl.abs(w) == float("inf")) | (tl.abs(wb) == float("inf")) | (tl.abs(wc) == float("inf")) | (tl.abs(wd) == float("inf"))
    return tl.where(inf, float("inf"), r), a.dtype


@jit
def libdevice_norm3d(a, b, c):
    r, dt = _ld_norm(a, b, c, 0.0, "norm3d")
    return r.to(dt)


@jit
def libdevice_norm4d(a, b, c, d):
    r, dt = _ld_norm(a, b, c, d, "norm4d")
    return r.to(dt)


@jit
def libdevice_rnorm3d(a, b, c):
    r, dt = _ld_norm(a, b, c, 0.0, "rnorm3d")
    return tl.div_rn(1.0, r).to(dt)


@jit
def libdevice_rnorm4d(a, b, c, d):
    r, dt = _ld_norm(a, b, c, d, "rnorm4d")
    return tl.div_rn(1.0, r).to(dt)


@jit
def libdevice_rhypot(x, y):
    r, dt = _ld_norm(x, y, 0.0, 0.0, "rhypot")
    return tl.div_rn(1.0, r).to(dt)


@jit
def libdevice_rcbrt(x):
    x = _ld_math_arg(x, "rcbrt")
    return tl.div_rn(1.0, libdevice.cbrt(_ld_wide(x))).to(x.dtype)


@jit
def libdevice_normcdf(x):
    # erfc(-x / sqrt 2) / 2 with -x / sqrt 2 as hi + lo: erfc(hi + lo) ~ erfc(hi) - lo 2/sqrt(pi) e^(-hi^2).
    x = _ld_math_arg(x, "normcdf")
    w = _ld_wide(x)
    hi = w * -_LD_RSQRT2_HI
    lo = tl.fma(w, -_LD_RSQRT2_HI, -hi) - w * _LD_RSQRT2_LO
    r = 0.5 * (libdevice.erfc(hi) - lo * _LD_TWO_OVER_SQRTPI * libdevice.exp(-hi * hi))
    return r.to(x.dtype)


@jit
def _ld_erfc_solve(t):
    # x >= 0 with erfc(x) = t, for t in (0, 1], float64: Winitzki's estimate
    # (relative error below 2e-3), then Halley steps on erfc.
    ln = libdevice.log(t * (2.0 - t))
    a: tl.constexpr = 0.147
    A = 4.330746750799873 + 0.5 * ln  # 2 / (pi a) + ln / 2
    x = tl.sqrt_rn(tl.sqrt_rn(A * A - ln / a) - A)
    for _ in tl.static_range(3):
        f = libdevice.erfc(x) - t
        df = -_LD_TWO_OVER_SQRTPI * libdevice.exp(-x * x)
        u = tl.div_rn(f, df)
        x = x - tl.div_rn(u, 1.0 + x * u)
    return x


@jit
def _ld_erf_solve(y):
    # x with erf(x) = y for |y| < 1/2: the same estimate, Halley steps on erf.
    ln = libdevice.log((1.0 - y) * (1.0 + y))
    A = 4.330746750799873 + 0.5 * ln
    x = tl.sqrt_rn(tl.sqrt_rn(A * A - ln / 0.147) - A)
    x = tl.where(y < 0, -x, x)
    for _ in tl.static_range(3):
        f = libdevice.erf(x) - y
        df = _LD_TWO_OVER_SQRTPI * libdevice.exp(-x * x)
        u = tl.div_rn(f, df)
        x = x - tl.div_rn(u, 1.0 + x * u)
    return tl.where(y == 0, y, x)


@jit
def _ld_erfcinv(t):
    # float64; erfc(x) = t for t in [0, 2]. Near t = 1 through erf of 1 - t
    # (exact there): erfc's rounding near 1 would swamp a small x.
    low = tl.where(t > 1.0, 2.0 - t, t)
    x = _ld_erfc_solve(tl.where(low > 0, low, 1.0))
    x = tl.where(t > 1.0, -x, x)
    middle = tl.abs(1.0 - t) < 0.5
    x = tl.where(middle, _ld_erf_solve(tl.where(middle, 1.0 - t, 0.0)), x)
    x = tl.where(t == 0, float("inf"), tl.where(t == 2, -float("inf"), x))
    return tl.where((t < 0) | (t > 2) | (t != t), float("nan"), x)


@jit
def libdevice_erfcinv(x):
    x = _ld_math_arg(x, "erfcinv")
    return _ld_erfcinv(_ld_wide(x)).to(x.dtype)


@jit
def libdevice_erfinv(x):
    x = _ld_math_arg(x, "erfinv")
    y = _ld_wide(x)
    # Past 1/2 through erfc of 1 - |y|, which is exact there.
    far = libdevice.copysign(_ld_erfcinv(1.0 - tl.abs(y)), y)
    near = _ld_erf_solve(tl.where(tl.abs(y) < 0.5, y, 0.0))
    return tl.where(tl.abs(y) < 0.5, near, far).to(x.dtype)


@jit
def libdevice_normcdfinv(x):
    x = _ld_math_arg(x, "normcdfinv")
    return (-1.4142135623730951 * _ld_erfcinv(2.0 * _ld_wide(x)) + 0.0).to(x.dtype)


@jit
def libdevice_erfcx(x):
    # e^(x^2) erfc(x): directly below 26 (x^2 as hi + lo), by the asymptotic
    # series 1/(x sqrt(pi)) (1 - 1/(2x^2) + 3/(2x^2)^2 - ...) above.
    x = _ld_math_arg(x, "erfcx")
    w = _ld_wide(x)
    hi = w * w
    lo = tl.where(_ld_finite(hi), tl.fma(w, w, -hi), 0.0)
    near = libdevice.exp(hi) * (1.0 + lo) * libdevice.erfc(w)
    big = tl.where(w >= 26.0, w, 26.0)
    inv = tl.div_rn(1.0, 2.0 * big * big)
    term = inv * 0.0 + 1.0
    total = term
    for k in tl.static_range(1, 13):
        term = -term * (2 * k - 1) * inv
        total = total + term
    far = tl.div_rn(total * _LD_RSQRTPI, big)
    return tl.where(w >= 26.0, far, near).to(x.dtype)


@jit
def _ld_bessel_i(x, order: tl.constexpr):
    # I0 / I1 in float64: the power series below 18 (positive terms), the
    # asymptotic series e^x / sqrt(2 pi x) sum (-1)^k prod (mu - (2j-1)^2) / (k! (8x)^k) above.
    ax = tl.abs(x)
    small = tl.where(ax < 18.0, ax, 0.0)
    # q = x^2 / 4 as q + q_lo: the series is corrected by q_lo S'(q) at the
    # end, S'(q) = sum k term_k / q (q's rounding would otherwise grow k-fold
    # in term k, which holds q^k).
    sq = small * small
    q = 0.25 * sq
    q_lo = 0.25 * tl.fma(small, small, -sq)
    if order == 0:
        term = small * 0.0 + 1.0
    else:
        term = 0.5 * small
    total = term
    slope = term * 0.0
    for k in tl.static_range(1, 60):
        term = term * q / (k * (k + order))
        total = total + term
        slope = slope + term * k
    total = total + tl.where(q > 0, q_lo / tl.where(q > 0, q, 1.0), 0.0) * slope
    big = tl.where(ax >= 18.0, ax, 18.0)
    mu: tl.constexpr = 4 * order * order
    aterm = q * 0.0 + 1.0
    asum = aterm
    for k in tl.static_range(1, 40):
        aterm = -aterm * (mu - (2 * k - 1) * (2 * k - 1)) / (k * 8.0 * big)
        asum = asum + aterm
    # e^x in one piece while it is finite, as two halves beyond (I0 outlives exp).
    half = libdevice.exp(0.5 * big)
    root = tl.sqrt_rn(6.283185307179586 * big)
    far = tl.where(big < 709.0, libdevice.exp(tl.minimum(big, 709.0)) * asum / root, half * (half * asum / root))
    r = tl.where(ax < 18.0, total, tl.where(ax == float("inf"), ax, far))
    if order == 1:
        r = tl.where(x < 0, -r, r)
    return r


@jit
def libdevice_cyl_bessel_i0(x):
    x = _ld_math_arg(x, "cyl_bessel_i0")
    return _ld_bessel_i(_ld_wide(x), 0).to(x.dtype)


@jit
def libdevice_cyl_bessel_i1(x):
    x = _ld_math_arg(x, "cyl_bessel_i1")
    return _ld_bessel_i(_ld_wide(x), 1).to(x.dtype)


@jit
def libdevice_fast_dividef(x, y):
    return tl.fdiv(x, y)


@jit
def libdevice_fast_sinf(x):
    return tl.sin(x)


@jit
def libdevice_fast_cosf(x):
    return tl.cos(x)


@jit
def libdevice_fast_tanf(x):
    return tl.fdiv(tl.sin(x), tl.cos(x))


@jit
def libdevice_fast_tanhf(x):
    return libdevice.tanh(x)  # Triton's is the approximation on AMD only; this is at least as accurate


@jit
def libdevice_fast_expf(x):
    return tl.exp(x)


@jit
def libdevice_fast_exp10f(x):
    return tl.exp2(x * 3.321928094887362)


@jit
def libdevice_fast_logf(x):
    return tl.log(x)


@jit
def libdevice_fast_log2f(x):
    return tl.log2(x)


@jit
def libdevice_fast_log10f(x):
    return tl.log2(x) * 0.3010299956639812


@jit
def libdevice_fast_powf(x, y):
    return tl.exp2(y * tl.log2(x))
