"""Tile construction and shape ops: arange, full, zeros, zeros_like,
broadcasting, broadcast_to, expand_dims, squeeze/unsqueeze, reshape, view, trans/permute,
split, join, cat, interleave, where, gather; sort, topk and bitonic_merge
(Triton's bitonic network, NaN included)."""

import numpy as np

import tessera
import tessera.language as tl
from tessera.conformance import ALL, FLOATS, Case, Out, is_float, np_dtype, rand, tl_dtype

SOME = ["i8", "u16", "i32", "i64", "fp16", "bf16", "fp32", "fp64"]


@tessera.jit
def construct_kernel(x_ptr, out_ptr, DT: tl.constexpr):
    # arange + full + zeros + zeros_like + broadcasting a row and a column
    r = tl.arange(0, 8)
    c = tl.arange(0, 16)
    x = tl.load(x_ptr + r[:, None] * 16 + c[None, :])
    f = tl.full((8, 16), 3, DT)
    z = tl.zeros((8, 16), DT) + tl.zeros_like(x)
    col = tl.load(x_ptr + r * 16)        # column 0, broadcast along rows
    row = tl.load(x_ptr + c)             # row 0, broadcast along columns
    tl.store(out_ptr + r[:, None] * 16 + c[None, :], x + f + z + col[:, None] - row[None, :])


def construct_ref(a):
    x = a["x_ptr"].reshape(8, 16)
    return {"out_ptr": (x + 3 + x[:, :1] - x[:1, :]).reshape(-1)}


Case("shape.construct_broadcast", construct_kernel,
     lambda rng, dt: dict(x_ptr=rand(rng, 128, dt), out_ptr=Out(128, dt), DT=tl_dtype(dt)), construct_ref,
     dtypes=SOME, tol={"fp16": (4e-3, 4e-3), "bf16": (3e-2, 3e-2)})


@tessera.jit
def shape_kernel(x_ptr, out_ptr, OP: tl.constexpr):
    # x is 4 x 8 x 16; every op's result goes out flat (row-major).
    i = tl.arange(0, 4)[:, None, None] * 128 + tl.arange(0, 8)[None, :, None] * 16 + tl.arange(0, 16)[None, None, :]
    x = tl.load(x_ptr + i)
    if OP == "reshape":
        y = tl.reshape(x, (32, 16))
        y = tl.reshape(y, 512)
    elif OP == "view":
        y = tl.sum(tl.view(x, (16, 32)), axis=1)     # view may reorder: only sums of all elements are checked
    elif OP == "trans":
        y = tl.reshape(tl.trans(tl.reshape(x, (32, 16))), 512)
    elif OP == "permute":
        y = tl.reshape(tl.permute(x, (2, 0, 1)), 512)
    elif OP == "trans3":
        y = tl.reshape(tl.trans(x, 1, 2, 0), 512)
    elif OP == "expand_dims":
        y = tl.reshape(tl.expand_dims(tl.reshape(x, (32, 16)), 1) + tl.zeros((32, 2, 16), x.dtype), 1024)
    elif OP == "broadcast_to":
        y = tl.reshape(tl.broadcast_to(tl.reshape(x, (1, 512)), (2, 512)), 1024)
    elif OP == "join":
        y = tl.reshape(tl.join(x, x + 1), 1024)
    elif OP == "split":
        a, b = tl.split(tl.reshape(x, (4, 8, 8, 2)))
        y = tl.reshape(tl.join(b, a), 512)
    elif OP == "squeeze":
        y = tl.reshape(tl.squeeze(tl.reshape(x, (4, 1, 128)), 1) + tl.squeeze(tl.reshape(x, (512, 1)), -1).reshape(4, 128),
                       512)
    elif OP == "unsqueeze":
        y = tl.reshape(tl.unsqueeze(tl.reshape(x, (32, 16)), 1) + tl.zeros((32, 2, 16), x.dtype), 1024)
    elif OP == "named_arith":
        y = tl.reshape(tl.add(tl.mul(x, x), tl.sub(x, 1, sanitize_overflow=False)), 512)
    elif OP == "interleave":
        y = tl.reshape(tl.interleave(x, x * 2), 1024)
    elif OP == "cat":
        y = tl.reshape(tl.cat(x, x + 1, can_reorder=True), 1024)
    else:
        tl.static_assert(OP == "ravel", "unknown op")
        y = tl.ravel(x)
    tl.store(out_ptr + tl.arange(0, y.shape[0]), y)


def shape_ref(op):
    def ref(a):
        x = a["x_ptr"].reshape(4, 8, 16)
        y = {"reshape": lambda: x, "ravel": lambda: x,
             "view": lambda: None,
             "trans": lambda: x.reshape(32, 16).T, "permute": lambda: x.transpose(2, 0, 1),
             "trans3": lambda: x.transpose(1, 2, 0),
             "expand_dims": lambda: np.broadcast_to(x.reshape(32, 1, 16), (32, 2, 16)),
             "broadcast_to": lambda: np.broadcast_to(x.reshape(1, 512), (2, 512)),
             "join": lambda: np.stack([x, x + 1], -1), "interleave": lambda: np.stack([x, x * 2], -1),
             "split": lambda: x.reshape(4, 8, 8, 2)[..., ::-1],
             "cat": lambda: np.concatenate([x, x + 1], 0),
             "squeeze": lambda: x + x, "unsqueeze": lambda: np.broadcast_to(x.reshape(32, 1, 16), (32, 2, 16)),
             "named_arith": lambda: x * x + (x - x.dtype.type(1))}[op]()
        if op == "view":
            return {"out_ptr": lambda actual: None if abs(actual.astype(np.float64).sum() - x.sum()) <=
                    1e-3 * np.abs(x).sum() else "sum of the view's row sums %r != %r" % (actual.sum(), x.sum())}
        return {"out_ptr": np.ascontiguousarray(y).reshape(-1)}
    return ref


for _op in ["reshape", "view", "trans", "permute", "trans3", "expand_dims", "broadcast_to", "join", "split",
            "interleave", "cat", "ravel", "squeeze", "unsqueeze", "named_arith"]:
    _size = 1024 if _op in ("expand_dims", "unsqueeze", "broadcast_to", "join", "interleave", "cat") else \
        16 if _op == "view" else 512
    Case("shape." + _op, shape_kernel,
         lambda rng, dt, op=_op, size=_size: dict(x_ptr=rand(rng, 512, dt), out_ptr=Out(size, dt), OP=op),
         shape_ref(_op), dtypes=["fp32"] if _op == "view" else ["i8", "i32", "u64"] if _op == "named_arith" else
         ["i8", "i32", "u64", "fp16", "fp32"])  # named_arith: integers wrap exactly; floats may fuse x*x + y


@tessera.jit
def where_kernel(c_ptr, x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    c = tl.load(c_ptr + offs, mask=m)
    x = tl.load(x_ptr + offs, mask=m)
    y = tl.load(y_ptr + offs, mask=m)
    tl.store(out_ptr + offs, tl.where(c, x, y), mask=m)


def where_inputs(rng, dt):
    n = 300 + int(rng.integers(1, 100))
    return dict(c_ptr=rand(rng, n, "i1"), x_ptr=rand(rng, n, dt), y_ptr=rand(rng, n, dt), out_ptr=Out(n, dt), n=n,
                BLOCK=128)


Case("shape.where", where_kernel, where_inputs, lambda a: {"out_ptr": np.where(a["c_ptr"], a["x_ptr"], a["y_ptr"])},
     dtypes=ALL, grid=lambda a: (tessera.cdiv(a["n"], 128),))


@tessera.jit
def where_scalar_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, tl.where(x > 0, x, 0.5) * tl.where(offs % 3 == 0, 2, 1))


Case("shape.where_scalars", where_scalar_kernel,
     lambda rng, dt: dict(x_ptr=rand(rng, 128, dt), out_ptr=Out(128, dt), BLOCK=128),
     lambda a: {"out_ptr": np.where(a["x_ptr"] > 0, a["x_ptr"], 0.5) * np.where(np.arange(128) % 3 == 0, 2, 1)},
     dtypes=FLOATS)


@tessera.jit
def gather_kernel(src_ptr, idx_ptr, out_ptr, S0: tl.constexpr, S1: tl.constexpr, I0: tl.constexpr, I1: tl.constexpr,
                  AXIS: tl.constexpr):
    src = tl.load(src_ptr + tl.arange(0, S0)[:, None] * S1 + tl.arange(0, S1)[None, :])
    at = tl.arange(0, I0)[:, None] * I1 + tl.arange(0, I1)[None, :]
    tl.store(out_ptr + at, tl.gather(src, tl.load(idx_ptr + at), AXIS))


def gather_case(src_shape, idx_shape, axis, idx_dtype, dtypes):
    """tl.gather along `axis`; some indices fall outside it (each gives 0)."""
    n = src_shape[axis]

    def inputs(rng, dt):
        idx = rng.integers(0, n, idx_shape)
        outside = rng.random(idx_shape) < 0.05
        wrong = rng.choice([-1, n, n + 7] if idx_dtype[0] == "i" else [n, n + 7], idx_shape)
        idx = np.where(outside, wrong, idx).astype(np_dtype(idx_dtype))
        return dict(src_ptr=rand(rng, src_shape, dt), idx_ptr=idx, out_ptr=Out(idx_shape, dt), S0=src_shape[0],
                    S1=src_shape[1], I0=idx_shape[0], I1=idx_shape[1], AXIS=axis)

    def ref(a):
        idx = a["idx_ptr"].astype(np.int64)
        inside = (idx >= 0) & (idx < n)
        picked = np.take_along_axis(a["src_ptr"], np.where(inside, idx, 0), axis)
        return {"out_ptr": np.where(inside, picked, np.zeros_like(picked))}

    Case("shape.gather_%dx%d_to_%dx%d_axis%d_%s" % (*src_shape, *idx_shape, axis, idx_dtype), gather_kernel, inputs,
         ref, dtypes=dtypes)


gather_case((8, 16), (4, 16), 0, "i32", ["i8", "u16", "i32", "i64", "fp16", "bf16", "fp32", "fp64"])
gather_case((8, 16), (8, 32), 1, "i64", ["fp32", "u64"])
gather_case((8, 16), (8, 4), 1, "u8", ["fp32"])
# Triton's test_core sizes: 2^21 and 2^20 source-by-index pairs (one shared-memory read each).
gather_case((128, 64), (256, 64), 0, "i32", ["fp32"])
gather_case((128, 64), (128, 128), 1, "i16", ["bf16"])


@tessera.jit
def sort_kernel(x_ptr, out_ptr, OP: tl.constexpr):
    # x is 4 x 32; topk keeps 8 of each row.
    offs = tl.arange(0, 4)[:, None] * 32 + tl.arange(0, 32)[None, :]
    x = tl.load(x_ptr + offs)
    if OP == "sort":
        y = tl.sort(x)
    elif OP == "sort_descending":
        y = tl.sort(x, descending=True)
    elif OP == "sort_dim0":
        y = tl.sort(x, 0, descending=True)
    elif OP == "bitonic_merge":
        y = tl.bitonic_merge(x, descending=True)
    else:
        tl.static_assert(OP == "topk", "unknown op")
        y = tl.topk(x, 8)
    tl.store(out_ptr + tl.arange(0, 4)[:, None] * y.shape[1] + tl.arange(0, y.shape[1])[None, :], y)


def _network_stage(x, stage, flip_bit, descending):
    """Triton's compare-and-swap network (standard.py) over the last axis:
    an element takes its partner's value where (element > partner) != (flip
    ^ it is the upper one); NaN compares false."""
    idx = np.arange(x.shape[-1])
    flip = ((idx >> flip_bit) & 1).astype(bool) if flip_bit >= 0 else np.full(idx.shape, descending)
    for bit in range(stage - 1, -1, -1):
        partner = x[..., idx ^ (1 << bit)]
        with np.errstate(invalid="ignore"):
            x = np.where((x > partner) != (flip ^ ((idx >> bit) & 1).astype(bool)), partner, x)
    return x


def _network_sort(x, descending, k=None):
    log_n = x.shape[-1].bit_length() - 1
    log_k = log_n if k is None else k.bit_length() - 1
    for s in range(1, log_k + 1):
        x = _network_stage(x, s, s if s < log_n else -1, descending)
    for s in range(log_k + 1, log_n + 1):  # topk: pairs of runs reduce by max (NaN dropped), then merge
        runs = x.reshape(x.shape[:-1] + (x.shape[-1] // (2 * k), 2, k))
        x = np.fmax(runs[..., 0, :], runs[..., 1, :]).reshape(x.shape[:-1] + (-1,))
        x = _network_stage(x, log_k, log_k if s < log_n else -1, descending)
    return x


def sort_ref(op):
    def ref(a):
        x = a["x_ptr"].reshape(4, 32)
        if op == "sort_dim0":
            y = _network_sort(np.ascontiguousarray(x.T), True).T
        elif op == "bitonic_merge":
            y = _network_stage(x, 5, -1, True)
        else:
            y = _network_sort(x, op != "sort", 8 if op == "topk" else None)
        return {"out_ptr": np.ascontiguousarray(y).reshape(-1)}
    return ref


def sort_inputs(op):
    def inputs(rng, dt):
        x = rng.integers(-8, 8, 128).astype(np.float64)
        if is_float(dt):
            x[rng.random(128) < 0.25] = np.nan
        return dict(x_ptr=x.astype(np_dtype(dt)), out_ptr=Out(32 if op == "topk" else 128, dt), OP=op)
    return inputs


for _op in ["sort", "sort_descending", "sort_dim0", "bitonic_merge", "topk"]:
    Case("shape." + _op + "_nan", sort_kernel, sort_inputs(_op), sort_ref(_op),
         dtypes=["i8", "u16", "i32", "fp16", "bf16", "fp32", "fp64"])
