"""Casts between every pair of dtypes (exact: integers wrap, floats round
once to nearest even, float -> int truncates and saturates with NaN -> 0,
fp8e4nv saturates), fp_downcast_rounding="rtz", and bitcasts."""

import numpy as np

import tessera
import tessera.language as tl
from tessera.conformance import ALL, FLOAT_FORMATS, FP8, Case, Out, full_range, is_float, np_dtype, rand, \
    round_float, tl_dtype

BLOCK = 128
DTYPES = ALL + FP8


@tessera.jit
def cast_kernel(x_ptr, out_ptr, n, DST: tl.constexpr, RTZ: tl.constexpr, BITCAST: tl.constexpr,
                BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    if RTZ:
        y = x.to(DST, fp_downcast_rounding="rtz")
    else:
        y = x.to(DST, bitcast=BITCAST)
    tl.store(out_ptr + offs, y, mask=m)


def specials(src, dst):
    """Edge values of the source type: near rounding midpoints of the
    destination (where double rounding shows), overflow, NaN, +-inf."""
    if not is_float(src):
        return np.array([], np.float64)
    mbits = {"fp16": 10, "bf16": 7, "fp32": 23, "fp64": 52, "fp8e4nv": 3, "fp8e5": 2}.get(dst, 60)
    mids = np.array([1 + 2.0 ** -(mbits + 1), 1 + 3 * 2.0 ** -(mbits + 1), 3 + 2.0 ** -(mbits)], np.float64)
    tweak = np.array([2.0 ** -(mbits + 6), -2.0 ** -(mbits + 6), 2.0 ** -18, -2.0 ** -18, 2.0 ** -40, -2.0 ** -40])
    vals = np.concatenate([(mids[:, None] + tweak[None, :]).ravel(), [300.0, -300.0, 1e5, -7e4, 500.0, 60000.0,
                                                                          2.0 ** -10, 2.0 ** -16, 3e-5,
                                                                          np.nan, np.inf, -np.inf]])
    vals = np.concatenate([vals, -vals])
    return round_float(vals, src).astype(np.float64)


def cast_inputs(dst):
    def inputs(rng, src):
        n = int(rng.integers(1, 5)) * BLOCK + int(rng.integers(1, BLOCK))
        if not is_float(src) and src != "i1" and not is_float(dst):
            x = full_range(rng, n, src)   # integer -> integer: every bit pattern, to see the wrap
        elif is_float(src) and not is_float(dst) and dst != "i1":
            x = rand(rng, n, src, -300.0, 300.0)   # float -> integer: through the saturation points
        else:
            x = rand(rng, n, src)
        s = specials(src, dst)
        if len(s):
            x = np.concatenate([x[:n - len(s)] if n > len(s) else x, s.astype(x.dtype)])
        return dict(x_ptr=x, out_ptr=Out(len(x), dst), n=len(x), DST=tl_dtype(dst), RTZ=False, BITCAST=False,
                    BLOCK=BLOCK)
    return inputs


def cast_ref(dst):
    def ref(a):
        x = a["x_ptr"]
        if dst == "i1":
            return {"out_ptr": x != 0}
        if is_float(dst):
            return {"out_ptr": round_float(x.astype(np.float64), dst)}
        if x.dtype.kind in "iub":
            return {"out_ptr": x.astype(np_dtype(dst))}
        info = np.iinfo(np_dtype(dst))
        with np.errstate(invalid="ignore"):
            t = np.trunc(np.nan_to_num(x, nan=0.0, posinf=np.inf, neginf=-np.inf))
            big = t >= float(info.max)
            small = t <= float(info.min)
            mid = np.clip(t, -2.0 ** 63, 2.0 ** 63).astype(np.int64 if info.min < 0 else np.uint64)
        out = np.where(big, info.max, np.where(small, info.min, mid)) if info.min < 0 else \
            np.where(big, info.max, np.where(t <= 0, 0, np.where(t > 2.0 ** 63, 0, mid)).astype(np.uint64))
        return {"out_ptr": np.asarray(out).astype(np_dtype(dst))}
    return ref


for _dst in DTYPES:
    Case("cast.to_" + _dst, cast_kernel, cast_inputs(_dst), cast_ref(_dst), dtypes=DTYPES,
         grid=lambda a: (tessera.cdiv(a["n"], BLOCK),), tol=(0, 0))


def rtz_inputs(rng, dt):
    a = cast_inputs("bf16")(rng, "fp32")
    a["RTZ"] = True
    return a


def rtz_ref(a):
    x = a["x_ptr"].astype(np.float32)
    bits = x.view(np.uint32) & np.uint32(0xFFFF0000)
    out = bits.view(np.float32).astype(np.float64)
    return {"out_ptr": np.where(np.isnan(x), np.nan, out)}


Case("cast.fp32_to_bf16_rtz", cast_kernel, rtz_inputs, rtz_ref, dtypes=["bf16"],
     grid=lambda a: (tessera.cdiv(a["n"], BLOCK),), tol=(0, 0))


def round_toward_zero(x, dst):
    """float64 values rounded toward zero to `dst` (as float64): the
    magnitude truncated to the destination's ulp; past the largest finite
    value, that value (inf stays inf where the format has it; e4m3 has not)."""
    mbits, emin, fmax, has_inf = FLOAT_FORMATS[dst]
    a = np.abs(x)
    with np.errstate(all="ignore"):
        e = np.maximum(np.floor(np.log2(np.where(np.isfinite(a) & (a > 0), a, 1.0))), emin)
        ulp = np.exp2(e - mbits)
        q = np.minimum(np.floor(a / ulp) * ulp, fmax)
    q = np.where(np.isinf(a), np.inf if has_inf else fmax, q)
    return np.where(np.isnan(x), np.nan, np.copysign(q, x))


def rtz_case(dst, sources):
    """fp_downcast_rounding="rtz" from each wider float type to `dst` (Triton's
    semantic.cast takes it for every narrowing float cast)."""
    def inputs(rng, src):
        a = cast_inputs(dst)(rng, src)
        a["RTZ"] = True
        return a
    Case("cast.to_%s_rtz" % dst, cast_kernel, inputs, lambda a: {"out_ptr": round_toward_zero(a["x_ptr"], dst)},
         dtypes=sources, grid=lambda a: (tessera.cdiv(a["n"], BLOCK),), tol=(0, 0))


rtz_case("fp32", ["fp64"])
rtz_case("fp16", ["fp32", "fp64"])
rtz_case("bf16", ["fp32", "fp64"])
rtz_case("fp8e5", ["fp16", "bf16", "fp32", "fp64"])
rtz_case("fp8e4nv", ["fp16", "bf16", "fp32", "fp64"])

BITCASTS = [("fp32", "i32"), ("fp32", "u32"), ("i32", "fp32"), ("fp16", "i16"), ("bf16", "u16"), ("u16", "bf16"),
            ("fp64", "i64"), ("u64", "fp64"), ("fp8e4nv", "u8"), ("i8", "fp8e5"), ("i16", "u16"), ("u32", "i32")]


def bitcast_inputs(rng, pair):
    src, dst = pair.split("->")
    n = int(rng.integers(1, 5)) * BLOCK + int(rng.integers(1, BLOCK))
    x = rand(rng, n, src) if is_float(src) else full_range(rng, n, src)
    return dict(x_ptr=x, out_ptr=Out(n, dst), n=n, DST=tl_dtype(dst), RTZ=False, BITCAST=True, BLOCK=BLOCK)


Case("cast.bitcast", cast_kernel, bitcast_inputs, lambda a: {"out_ptr": a["x_ptr"].view(np_dtype(str(a["DST"])))},
     dtypes=["%s->%s" % p for p in BITCASTS], grid=lambda a: (tessera.cdiv(a["n"], BLOCK),), tol=(0, 0),
     upcast=False)
