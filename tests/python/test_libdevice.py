"""libdevice's math functions (tessera.language.extra.libdevice, also under
Triton's tl.extra.cuda.libdevice): on the CPU against float64 references on
random inputs in each function's domain (f32, f64, and f16/bf16 computed in
f32), and compiled for nvptx (assembled by ptxas where present) and amdgpu.
Every name the Python module offers compiles."""
import math

import numpy as np
import pytest

import tessera
import tessera.language as tl
from tessera import _C
from tessera.language.extra import libdevice


def _round_away(x):
    return np.sign(x) * np.floor(np.abs(x) + 0.5)


# name -> (float64 reference, input range, relative tolerance in f32)
FUNCTIONS = {
    "tanh": (np.tanh, (-6, 6), 4e-7), "fast_tanhf": (np.tanh, (-6, 6), 4e-7), "sinh": (np.sinh, (-6, 6), 4e-7), "cosh": (np.cosh, (-6, 6), 4e-7),
    "tan": (np.tan, (-1.5, 1.5), 6e-7), "asin": (np.arcsin, (-0.99, 0.99), 4e-7),
    "acos": (np.arccos, (-0.99, 0.99), 4e-7), "atan": (np.arctan, (-20, 20), 4e-7),
    "asinh": (np.arcsinh, (-20, 20), 4e-7), "acosh": (np.arccosh, (1, 20), 4e-7),
    "atanh": (np.arctanh, (-0.99, 0.99), 4e-7), "exp10": (lambda x: 10.0 ** x, (-20, 20), 4e-7),
    "expm1": (np.expm1, (-5, 5), 4e-7), "log10": (np.log10, (1e-3, 1e6), 4e-7),
    "log1p": (np.log1p, (-0.9, 100), 4e-7), "cbrt": (np.cbrt, (-1e3, 1e3), 4e-7),
    "erfc": (np.vectorize(math.erfc), (-3, 8), 2e-6), "lgamma": (np.vectorize(math.lgamma), (3, 30), 2e-6),
    "tgamma": (np.vectorize(math.gamma), (0.1, 20), 4e-6), "trunc": (np.trunc, (-50, 50), 0),
    "round": (_round_away, (-50, 50), 0), "rint": (np.rint, (-50, 50), 0),
}


def _kernel(name):
    """out = fn(x) or, for two-argument functions (ARITY=2), fn(x, y)."""
    fn = getattr(libdevice, name)

    @tessera.jit
    def kernel(x, y, out, n, BLOCK: tl.constexpr, ARITY: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        m = offs < n
        v = tl.load(x + offs, mask=m)
        tl.store(out + offs, fn(v) if ARITY == 1 else fn(v, tl.load(y + offs, mask=m)), mask=m)
    return kernel


def _inputs(name, dtype, rng, n=3001):
    lo, hi = FUNCTIONS[name][1]
    x = rng.uniform(lo, hi, n)
    if name in ("trunc", "round", "rint"):
        x[: n // 3] = np.round(x[: n // 3] * 2) / 2  # exact halves: the three differ there
    return x.astype(dtype)


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_against_float64(cpu_target, name, dtype):
    rng = np.random.default_rng(abs(hash((name, dtype))) % 2**32)
    x = _inputs(name, dtype, rng)
    y = np.full_like(x, np.nan)
    _kernel(name)[(tessera.cdiv(x.size, 256),)](x, x, y, x.size, BLOCK=256, ARITY=1)
    ref, _, rel = FUNCTIONS[name]
    want = ref(x.astype(np.float64))
    tol = rel if dtype == "float32" else rel * 1e-8
    err = np.abs(y.astype(np.float64) - want) / np.maximum(np.abs(want), 1e-30)
    worst = int(np.argmax(err))
    assert err[worst] <= tol, (name, dtype, x[worst], y[worst], want[worst])


@pytest.mark.parametrize("name", ["tanh", "lgamma", "round"])
def test_half_precision_goes_through_f32(cpu_target, name):
    rng = np.random.default_rng(7)
    x = _inputs(name, np.float16, rng)
    y = np.full_like(x, np.nan)
    _kernel(name)[(tessera.cdiv(x.size, 256),)](x, x, y, x.size, BLOCK=256, ARITY=1)
    want = FUNCTIONS[name][0](x.astype(np.float64)).astype(np.float16)
    np.testing.assert_array_equal(y, want)


def test_integer_input_is_refused_with_its_location(cpu_target):
    @tessera.jit
    def bad(x, y):
        tl.store(y, libdevice.tanh(tl.load(x)))
    x = np.arange(4, dtype=np.int32)
    with pytest.raises(_C.CompilationError, match=r"test_libdevice.py:\d+:\d+: error: .*tanh\(\) needs floating-point"):
        bad[(1,)](x, x)


@pytest.mark.parametrize("target", ["nvptx", "amdgpu"])
def test_every_function_compiles_for_gpus(target):
    if not _C.target_available(target):
        pytest.skip("no %s code generator in this build" % target)
    x = np.ones(256, np.float32)
    for arity, names in ((1, FUNCTIONS), (2, BINARY)):
        for name in sorted(names):
            binary = _kernel(name).compile_only(target, x, x, x, 256, BLOCK=256, ARITY=arity)
            assert binary.format in ("cubin", "ptx", "hsaco") and len(binary.data) > 0, name


def test_max_and_min_are_elementwise_as_in_triton(cpu_target):
    # libdevice.max(a, b) is C's fmax, not the reduction tl.max.
    @tessera.jit
    def k(x, y, out):
        r = tl.arange(0, 16)
        a, b = tl.load(x + r), tl.load(y + r)
        tl.store(out + r, libdevice.max(a, b) * 10 + libdevice.min(a, b))
    rng = np.random.default_rng(3)
    a, b = rng.standard_normal(16).astype(np.float32), rng.standard_normal(16).astype(np.float32)
    out = np.full(16, np.nan, np.float32)
    k[(1,)](a, b, out)
    np.testing.assert_allclose(out, np.maximum(a, b) * 10 + np.minimum(a, b), rtol=1e-6)


ARITY = {"fma": 3, "clamp": 3, "div_rn": 2, "fdiv": 2, "max": 2, "min": 2, "maximum": 2, "minimum": 2, "umulhi": 2,
         "pow": 2, "atan2": 2, "hypot": 2, "fmod": 2, "copysign": 2}

# name -> (float64 reference, x range, y range, relative tolerance in f32)
BINARY = {
    "pow": (np.power, (0.1, 10), (-3, 3), 1e-6), "atan2": (np.arctan2, (-5, 5), (-5, 5), 4e-7),
    "hypot": (np.hypot, (-50, 50), (-50, 50), 4e-7), "fmod": (np.fmod, (-50, 50), (0.5, 7), 0),
    "copysign": (np.copysign, (-50, 50), (-1, 1), 0),
}


@pytest.mark.parametrize("name", sorted(BINARY))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_two_argument_functions(cpu_target, name, dtype):
    ref, (xlo, xhi), (ylo, yhi), rel = BINARY[name]
    rng = np.random.default_rng(len(name) * 7 + len(dtype))
    x, y = rng.uniform(xlo, xhi, 2001).astype(dtype), rng.uniform(ylo, yhi, 2001).astype(dtype)
    out = np.full_like(x, np.nan)
    _kernel(name)[(tessera.cdiv(x.size, 256),)](x, y, out, x.size, BLOCK=256, ARITY=2)
    want = ref(x.astype(np.float64), y.astype(np.float64))
    tol = rel if dtype == "float32" else rel * 1e-8
    err = np.abs(out.astype(np.float64) - want) / np.maximum(np.abs(want), 1e-30)
    assert err.max() <= tol, (name, dtype, float(err.max()))


# The functions built from single IR ops (frontend/Builtins.cpp); the ones
# written in the language are test_libdevice_exact.py's.
SINGLE_OP = sorted(n for n in libdevice.__all__ if n in FUNCTIONS or n in ARITY or n in (
    "abs", "ceil", "floor", "exp", "exp2", "log", "log2", "cos", "sin", "sqrt", "sqrt_rn", "rsqrt", "erf", "sigmoid"))


@pytest.mark.parametrize("name", SINGLE_OP)
def test_every_single_op_function_compiles(cpu_target, name):
    fn = getattr(libdevice, name)
    ints = name == "umulhi"

    @tessera.jit
    def one(x, y):
        v = tl.load(x + tl.arange(0, 16))
        tl.store(y + tl.arange(0, 16), fn(v))

    @tessera.jit
    def two(x, y):
        v = tl.load(x + tl.arange(0, 16))
        tl.store(y + tl.arange(0, 16), fn(v, v))

    @tessera.jit
    def three(x, y):
        v = tl.load(x + tl.arange(0, 16))
        tl.store(y + tl.arange(0, 16), fn(v, v, v))

    lo, hi = FUNCTIONS[name][1] if name in FUNCTIONS else (0.5, 0.9)
    pad = (hi - lo) * 0.05
    x = (np.arange(16, dtype=np.uint32) + 1) if ints else np.linspace(lo + pad, hi - pad, 16, dtype=np.float32)
    y = np.zeros_like(x)
    {1: one, 2: two, 3: three}[ARITY.get(name, 1)][(1,)](x, y)
    assert np.all(np.isfinite(y.astype(np.float64)))
