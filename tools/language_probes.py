"""How tools/language_reference.py measures which element types and targets
each function of the language supports: a probe kernel per function, compiled
with its input of each dtype (on the cpu target), then, at fp32 (else i32,
else the first dtype that compiles), for every target.

A probe body sees `x`, `y` (pointers to 16 elements of the probed dtype),
`r` = tl.arange(0, 16), `v` = tl.load(x + r) and the module's `larger(a, b)`;
it must store something through `y`. The dtypes are measured on the first
target where any compiles (the cpu; nvptx for PTX assembly)."""

UNARY = "tl.store(y + r, {f}(v))"
BINARY = "tl.store(y + r, {f}(v, v))"
TERNARY = "tl.store(y + r, {f}(v, v, v))"
REDUCE = "tl.store(y, {f}(v, 0))"
SCAN = "tl.store(y + r, {f}(v, 0))"
STATEMENT = "{f}\n    tl.store(y + r, v)"

# tl.<name> -> probe body ("{f}" is the function); absent: not probed.
TL = {
    **{n: UNARY for n in ("abs", "ceil", "cos", "erf", "exp", "exp2", "floor", "log", "log2", "rsqrt", "sigmoid",
                          "sin", "sqrt", "sqrt_rn", "softmax", "ravel", "flip", "sort", "to_tensor", "zeros_like")},
    **{n: BINARY for n in ("add", "sub", "mul", "cdiv", "div_rn", "fdiv", "maximum", "minimum", "umulhi")},
    **{n: TERNARY for n in ("fma", "clamp")},
    **{n: REDUCE for n in ("sum", "max", "min", "argmax", "argmin", "xor_sum", "reduce_or")},
    **{n: SCAN for n in ("cumsum", "cumprod")},
    "full_like": "tl.store(y + r, tl.full_like(v, 1))",
    "where": "tl.store(y + r, tl.where(r < 8, v, v))",
    "cast": "tl.store(y + r, tl.cast(v, tl.float32))",
    "item": "tl.store(y, tl.max(v, 0, keep_dims=True).item())",
    "reshape": "tl.store(y + r, tl.reshape(tl.reshape(v, (4, 4)), (16,)))",
    "view": "tl.store(y + r, tl.view(v, (16,)))",
    "trans": "tl.store(y + r, tl.reshape(tl.trans(tl.reshape(v, (4, 4))), (16,)))",
    "permute": "tl.store(y + r, tl.reshape(tl.permute(tl.reshape(v, (4, 4)), (1, 0)), (16,)))",
    "expand_dims": "tl.store(y + r, tl.reshape(tl.expand_dims(v, 0), (16,)))",
    "unsqueeze": "tl.store(y + r, tl.reshape(tl.unsqueeze(v, 0), (16,)))",
    "squeeze": "tl.store(y + r, tl.squeeze(tl.expand_dims(v, 0), 0))",
    "broadcast": "a, b = tl.broadcast(v, v)\n    tl.store(y + r, a)",
    "broadcast_to": "tl.store(y + r, tl.broadcast_to(v, (16,)))",
    "cat": "tl.store(y + tl.arange(0, 32) % 16, tl.cat(v, v, can_reorder=True))",
    "join": "tl.store(y + r, tl.sum(tl.join(v, v), 1))",
    "split": "a, b = tl.split(tl.join(v, v))\n    tl.store(y + r, a)",
    "interleave": "tl.store(y + tl.arange(0, 32) % 16, tl.interleave(v, v))",
    "gather": "tl.store(y + r, tl.gather(v, 15 - r, 0))",
    "histogram": "tl.store(y + r, tl.histogram(r, 16).to(v.dtype))",
    "topk": "tl.store(y + tl.arange(0, 4), tl.topk(v, 4))",
    "associative_scan": "tl.store(y + r, tl.associative_scan(v, 0, tl.maximum))",
    "reduce": "tl.store(y, tl.reduce(v, 0, tl.maximum))",
    "load": "tl.store(y + r, tl.load(x + r, mask=r < 8, other=0))",
    "store": "tl.store(y + r, v, mask=r < 8)",
    **{n: "tl.store(y + r, tl.{f2}(y + r, v))".replace("{f2}", n) for n in (
        "atomic_add", "atomic_max", "atomic_min", "atomic_and", "atomic_or", "atomic_xor", "atomic_xchg")},
    "atomic_cas": "tl.store(y + r, tl.atomic_cas(y + r, v, v))",
    "dot": "a = tl.broadcast_to(tl.reshape(v, (16, 1)), (16, 16))\n    tl.store(y + r, tl.sum(tl.dot(a, a), 1).to(v.dtype))",
    "make_block_ptr": "p = tl.make_block_ptr(x, (16,), (1,), (0,), (16,), (0,))\n    tl.store(y + r, tl.load(p))",
    "advance": "p = tl.advance(tl.make_block_ptr(x, (32,), (1,), (0,), (16,), (0,)), (0,))\n    tl.store(y + r, tl.load(p))",
    "make_tensor_descriptor": "d = tl.make_tensor_descriptor(x, [16], [1], [16])\n    tl.store(y + r, d.load([0]))",
    "program_id": "tl.store(y + r, v + tl.program_id(0).to(v.dtype))",
    "num_programs": "tl.store(y + r, v + tl.num_programs(0).to(v.dtype))",
    "zeros": "tl.store(y + r, tl.zeros((16,), v.dtype))",
    "full": "tl.store(y + r, tl.full((16,), 1, v.dtype))",
    "arange": "tl.store(y + r, tl.arange(0, 16).to(v.dtype))",
    "multiple_of": "tl.store(y + tl.multiple_of(r, 16), v)",
    "max_contiguous": "tl.store(y + tl.max_contiguous(r, 16), v)",
    "max_constancy": "tl.store(y + r, tl.max_constancy(v, 1))",
    "assume": STATEMENT.replace("{f}", "tl.assume(tl.program_id(0) >= 0)"),
    "debug_barrier": STATEMENT.replace("{f}", "tl.debug_barrier()"),
    "device_assert": STATEMENT.replace("{f}", "tl.device_assert(r < 16)"),
    "device_print": STATEMENT.replace("{f}", "tl.device_print('v', v)"),
    "static_assert": STATEMENT.replace("{f}", "tl.static_assert(True)"),
    "static_print": STATEMENT.replace("{f}", "tl.static_print('')"),
    "range": "for i in tl.range(0, 2):\n        tl.store(y + r, v)",
    "static_range": "for i in tl.static_range(2):\n        tl.store(y + r, v)",
    "map_elementwise": "tl.store(y + r, tl.map_elementwise(larger, v, v))",
    "dot_scaled": "a = tl.broadcast_to(tl.reshape(v, (16, 1)), (16, 16)).to(tl.bfloat16)\n"
                  "    tl.store(y + r, tl.sum(tl.dot_scaled(a, None, 'bf16', a, None, 'bf16'), 1).to(v.dtype))",
    "inline_asm_elementwise": "tl.store(y + r, tl.inline_asm_elementwise('mov.b32 $0, $1;', '=r,r', [v], dtype=v.dtype, "
                              "is_pure=True, pack=1))",
    "load_tensor_descriptor": "d = tl.make_tensor_descriptor(x, [16], [1], [16])\n"
                              "    tl.store(y + r, tl.load_tensor_descriptor(d, [0]))",
    "store_tensor_descriptor": "d = tl.make_tensor_descriptor(y, [16], [1], [16])\n    tl.store_tensor_descriptor(d, [0], v)",
    "next_power_of_2": "n: tl.constexpr = tl.next_power_of_2(9)\n    tl.store(y + r % n, v)",
    "philox": "a, b, c, d = tl.philox(1, r, r, r, r)\n    tl.store(y + r, a.to(v.dtype))",
    "philox_impl": "u = r.to(tl.uint32)\n    a, b, c, d = tl.philox_impl(u, u, u, u, u, u)\n    tl.store(y + r, a.to(v.dtype))",
    "uint_to_uniform_float": "tl.store(y + r, tl.uint_to_uniform_float(r.to(tl.uint32)).to(v.dtype))",
    "pair_uniform_to_normal": "a, b = tl.pair_uniform_to_normal(r.to(tl.float32), r.to(tl.float32))\n"
                              "    tl.store(y + r, a.to(v.dtype))",
    "rand": "tl.store(y + r, tl.rand(1, r).to(v.dtype))",
    "randn": "tl.store(y + r, tl.randn(1, r).to(v.dtype))",
    "randint": "tl.store(y + r, tl.randint(1, r).to(v.dtype))",
    "rand4x": "a, b, c, d = tl.rand4x(1, r)\n    tl.store(y + r, a.to(v.dtype))",
    "randn4x": "a, b, c, d = tl.randn4x(1, r)\n    tl.store(y + r, a.to(v.dtype))",
    "randint4x": "a, b, c, d = tl.randint4x(1, r)\n    tl.store(y + r, a.to(v.dtype))",
    "bitonic_merge": UNARY,
    "condition": "i = 0\n    while tl.condition(i < tl.load(x).to(tl.int32)):\n        i = i + 1\n    tl.store(y + r, v + i)",
    "swizzle2d": "i, j = tl.swizzle2d(r, r, 4, 4, 2)\n    tl.store(y + i, v)",
}

from tessera.language.extra.libdevice import SIGNATURES  # noqa: E402

DTYPES = ["fp16", "bf16", "fp32", "fp64", "i8", "i32", "i64"]
TARGETS = ["cpu", "nvptx", "amdgpu", "spirv"]




# Tessera's libdevice names beyond Triton's: their arity.
EXTRA_ARITY = {"clamp": 3, "fdiv": 2, "max": 2, "min": 2, "maximum": 2, "minimum": 2, "sigmoid": 1, "umulhi": 2}


def libdevice_probe(name):
    """libdevice.<name> at the arity of Triton's signature: v for each
    argument, but r (int32) for the integer arguments of a float function
    (ldexp's exponent, jn's order). None for a name Triton does not have."""
    if name not in SIGNATURES:
        return "tl.store(y + r, {f}(" + ", ".join(["v"] * EXTRA_ARITY[name]) + ").to(v.dtype))"
    args = SIGNATURES[name][0]
    mixed = any(a.startswith("float") for a in args) and not all(a.startswith("float") for a in args)
    values = ["r" if mixed and not a.startswith("float") else "v" for a in args]
    return "tl.store(y + r, {f}(" + ", ".join(values) + ").to(v.dtype))"
