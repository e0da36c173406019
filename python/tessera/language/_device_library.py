"""The device-library functions that extern functions name
(core.extern_elementwise's symbols), with Tessera's own version of each: CUDA
libdevice's __nv_* (as triton.language.extra.cuda.libdevice calls them),
ROCm ocml's __ocml_* (extra.hip.libdevice), and the __triton_hip_* functions
Triton's AMD backend implements itself.

nvptx links libdevice and amdgpu ocml, so there those calls go to the
library; everywhere else (cpu, spirv, the other GPU, the interpreter) a
function listed here is Tessera's libdevice.<name> (frontend/libdevice.py and
the frontend's builtins), which computes what the library function does. The
parameter and result dtypes are the library function's; a call whose types
differ from every signature of a listed function is an error before any
library sees it (integers of one width are the same to the library).

Layer 0, binding (python/tessera/__init__.py lists the layers)."""

import collections

from . import _types


class DeviceFunction(collections.namedtuple("DeviceFunction", "symbol name params result")):
    """One signature of a library function: Tessera's version of it
    (libdevice.<name>), its parameter dtypes and its result dtype."""

    def signature(self):
        return "(%s) -> %s" % (", ".join(p.name for p in self.params), self.result.name)


FUNCTIONS = {}  # symbol -> (DeviceFunction, ...): its signatures


def _add(symbol, name, params, result):
    dtype = _types.dtype._named
    function = DeviceFunction(symbol, name, tuple(dtype(p) for p in params.split()), dtype(result))
    FUNCTIONS[symbol] = FUNCTIONS.get(symbol, ()) + (function,)


# ---- CUDA's libdevice

# Functions of floats: `__nv_<name>f` on fp32, `__nv_<name>` on fp64, every
# argument and the result of that type; by number of arguments.
_NV_FLOAT = {
    1: """floor rsqrt ceil trunc exp2 sqrt rint nearbyint sin cos sinpi cospi tan log2 exp exp10 cosh sinh tanh
          atan asin acos log log10 log1p acosh asinh atanh expm1 cbrt rcbrt j0 j1 y0 y1 cyl_bessel_i0 cyl_bessel_i1
          erf erfinv erfc erfcx erfcinv normcdfinv normcdf lgamma tgamma round logb""",
    2: "copysign nextafter atan2 hypot rhypot fmod remainder pow fdim",
    3: "norm3d rnorm3d fma",
    4: "norm4d rnorm4d",
}
for _arity, _names in _NV_FLOAT.items():
    for _name in _names.split():
        _add("__nv_%sf" % _name, _name, " ".join(["fp32"] * _arity), "fp32")
        _add("__nv_%s" % _name, _name, " ".join(["fp64"] * _arity), "fp64")
# The C names of abs, max and min (libdevice.max and min are C's fmax, fmin).
for _c, _name in (("fabs", "abs"), ("fmax", "max"), ("fmin", "min")):
    _arity = 1 if _c == "fabs" else 2
    _add("__nv_%sf" % _c, _name, " ".join(["fp32"] * _arity), "fp32")
    _add("__nv_%s" % _c, _name, " ".join(["fp64"] * _arity), "fp64")

# The rounding modes: to nearest even, toward zero, down, up.
for _mode in ("rn", "rz", "rd", "ru"):
    for _op in ("add", "sub", "mul", "div"):
        _add("__nv_f%s_%s" % (_op, _mode), "%s_%s" % (_op, _mode), "fp32 fp32", "fp32")
        _add("__nv_d%s_%s" % (_op, _mode), "%s_%s" % (_op, _mode), "fp64 fp64", "fp64")
    _add("__nv_fmaf_" + _mode, "fma_" + _mode, "fp32 fp32 fp32", "fp32")
    _add("__nv_fma_" + _mode, "fma_" + _mode, "fp64 fp64 fp64", "fp64")
    for _op in ("rcp", "sqrt"):
        _add("__nv_f%s_%s" % (_op, _mode), "%s_%s" % (_op, _mode), "fp32", "fp32")
        _add("__nv_d%s_%s" % (_op, _mode), "%s_%s" % (_op, _mode), "fp64", "fp64")
    # Conversions: libdevice's name of a type, its dtype.
    for _src, _src_dtype, _dst, _dst_dtype in (
            ("double", "fp64", "float", "fp32"), ("double", "fp64", "int", "int32"),
            ("double", "fp64", "uint", "uint32"), ("double", "fp64", "ll", "int64"),
            ("double", "fp64", "ull", "uint64"), ("float", "fp32", "int", "int32"),
            ("float", "fp32", "uint", "uint32"), ("float", "fp32", "ll", "int64"),
            ("float", "fp32", "ull", "uint64"), ("int", "int32", "float", "fp32"),
            ("uint", "uint32", "float", "fp32"), ("ll", "int64", "float", "fp32"),
            ("ull", "uint64", "float", "fp32"), ("ll", "int64", "double", "fp64"),
            ("ull", "uint64", "double", "fp64")):
        _name = "%s2%s_%s" % (_src, _dst, _mode)
        _add("__nv_" + _name, _name, _src_dtype, _dst_dtype)
_add("__nv_frsqrt_rn", "rsqrt_rn", "fp32", "fp32")
_add("__nv_int2double_rn", "int2double_rn", "int32", "fp64")   # exact: one mode
_add("__nv_uint2double_rn", "uint2double_rn", "uint32", "fp64")

for _symbol, _name, _params, _result in (
        # bits
        ("int_as_float", "int_as_float", "int32", "fp32"), ("float_as_int", "float_as_int", "fp32", "int32"),
        ("uint_as_float", "uint_as_float", "uint32", "fp32"), ("float_as_uint", "float_as_uint", "fp32", "uint32"),
        ("longlong_as_double", "longlong_as_double", "int64", "fp64"),
        ("double_as_longlong", "double_as_longlong", "fp64", "int64"),
        ("hiloint2double", "hiloint2double", "int32 int32", "fp64"),
        ("double2loint", "double2loint", "fp64", "int32"), ("double2hiint", "double2hiint", "fp64", "int32"),
        # fast approximations (fp32)
        ("fast_sinf", "fast_sinf", "fp32", "fp32"), ("fast_cosf", "fast_cosf", "fp32", "fp32"),
        ("fast_tanf", "fast_tanf", "fp32", "fp32"), ("fast_expf", "fast_expf", "fp32", "fp32"),
        ("fast_exp10f", "fast_exp10f", "fp32", "fp32"), ("fast_logf", "fast_logf", "fp32", "fp32"),
        ("fast_log2f", "fast_log2f", "fp32", "fp32"), ("fast_log10f", "fast_log10f", "fp32", "fp32"),
        ("fast_powf", "fast_powf", "fp32 fp32", "fp32"), ("fast_fdividef", "fast_dividef", "fp32 fp32", "fp32"),
        ("saturatef", "saturatef", "fp32", "fp32"), ("rcp64h", "rcp64h", "fp64", "fp64"),
        # integers
        ("clz", "clz", "int32", "int32"), ("clzll", "clz", "int64", "int32"),
        ("popc", "popc", "int32", "int32"), ("popcll", "popc", "int64", "int32"),
        ("ffs", "ffs", "int32", "int32"), ("ffsll", "ffs", "int64", "int32"),
        ("brev", "brev", "int32", "int32"), ("brevll", "brev", "int64", "int64"),
        ("byte_perm", "byte_perm", "int32 int32 int32", "int32"),
        ("mulhi", "mulhi", "int32 int32", "int32"), ("umulhi", "mulhi", "uint32 uint32", "uint32"),
        ("mul64hi", "mulhi", "int64 int64", "int64"), ("umul64hi", "mulhi", "uint64 uint64", "uint64"),
        ("mul24", "mul24", "int32 int32", "int32"), ("umul24", "mul24", "uint32 uint32", "uint32"),
        ("sad", "sad", "int32 int32 uint32", "int32"), ("usad", "sad", "uint32 uint32 uint32", "uint32"),
        ("hadd", "hadd", "int32 int32", "int32"), ("uhadd", "hadd", "uint32 uint32", "uint32"),
        ("rhadd", "rhadd", "int32 int32", "int32"), ("urhadd", "rhadd", "uint32 uint32", "uint32"),
        ("abs", "abs", "int32", "int32"), ("llabs", "abs", "int64", "int64"),
        ("max", "max", "int32 int32", "int32"), ("umax", "max", "uint32 uint32", "uint32"),
        ("llmax", "max", "int64 int64", "int64"), ("ullmax", "max", "uint64 uint64", "uint64"),
        ("min", "min", "int32 int32", "int32"), ("umin", "min", "uint32 uint32", "uint32"),
        ("llmin", "min", "int64 int64", "int64"), ("ullmin", "min", "uint64 uint64", "uint64"),
        # classification (an int32, nonzero for true)
        ("isnanf", "isnan", "fp32", "int32"), ("isnand", "isnan", "fp64", "int32"),
        ("isinff", "isinf", "fp32", "int32"), ("isinfd", "isinf", "fp64", "int32"),
        ("signbitf", "signbit", "fp32", "int32"), ("signbitd", "signbit", "fp64", "int32"),
        ("finitef", "finitef", "fp32", "int32"), ("isfinited", "isfinited", "fp64", "int32"),
        # floats with integers
        ("llrintf", "llrint", "fp32", "int64"), ("llrint", "llrint", "fp64", "int64"),
        ("llroundf", "llround", "fp32", "int64"), ("llround", "llround", "fp64", "int64"),
        ("ilogbf", "ilogb", "fp32", "int32"), ("ilogb", "ilogb", "fp64", "int32"),
        ("ldexpf", "ldexp", "fp32 int32", "fp32"), ("ldexp", "ldexp", "fp64 int32", "fp64"),
        ("scalbnf", "scalbn", "fp32 int32", "fp32"), ("scalbn", "scalbn", "fp64 int32", "fp64"),
        ("powif", "pow", "fp32 int32", "fp32"), ("powi", "pow", "fp64 int32", "fp64"),
        ("jnf", "jn", "int32 fp32", "fp32"), ("jn", "jn", "int32 fp64", "fp64"),
        ("ynf", "yn", "int32 fp32", "fp32"), ("yn", "yn", "int32 fp64", "fp64")):
    _add("__nv_" + _symbol, _name, _params, _result)


# ---- ROCm's ocml: `__ocml_<name>_f32` and `__ocml_<name>_f64`

# ocml's name -> Tessera's, by number of arguments (every argument and the
# result of the one type).
_OCML_FLOAT = {
    1: """acos acosh asin asinh atan atanh cbrt ceil cos cosh cospi erf erfc erfcinv erfcx erfinv exp exp10 exp2
          expm1 floor j0 j1 lgamma log log10 log1p log2 logb nearbyint rcbrt rint round rsqrt sin sinh sinpi sqrt
          tan tanh tgamma trunc y0 y1 fabs:abs i0:cyl_bessel_i0 i1:cyl_bessel_i1 ncdf:normcdf
          ncdfinv:normcdfinv""",
    2: "atan2 copysign fdim fmod hypot nextafter pow remainder rhypot fmax:max fmin:min",
    3: "fma len3:norm3d rlen3:rnorm3d",
    4: "len4:norm4d rlen4:rnorm4d",
}
for _arity, _names in _OCML_FLOAT.items():
    for _entry in _names.split():
        _ocml, _, _name = _entry.partition(":")
        for _bits in ("32", "64"):
            _add("__ocml_%s_f%s" % (_ocml, _bits), _name or _ocml, " ".join(["fp" + _bits] * _arity), "fp" + _bits)
for _bits in ("32", "64"):
    _float = "fp" + _bits
    for _ocml, _name, _params, _result in (
            ("isnan", "isnan", _float, "int32"), ("isinf", "isinf", _float, "int32"),
            ("signbit", "signbit", _float, "int32"), ("ilogb", "ilogb", _float, "int32"),
            ("ldexp", "ldexp", _float + " int32", _float), ("scalbn", "scalbn", _float + " int32", _float),
            ("pown", "pow", _float + " int32", _float)):
        _add("__ocml_%s_f%s" % (_ocml, _bits), _name, _params, _result)

# ---- what Triton's AMD backend implements itself (one name, several types)

for _symbol, _name, _signatures in (
        ("fabs", "abs", (("fp32", "fp32"), ("fp64", "fp64"))),
        ("iabs", "abs", (("int32", "int32"), ("int64", "int64"))),
        ("llrint", "llrint", (("fp32", "int64"), ("fp64", "int64"))),
        ("fast_expf", "fast_expf", (("fp32", "fp32"),)),
        ("fast_tanhf", "fast_tanhf", (("fp32", "fp32"),)),
        ("fast_fdividef", "fast_dividef", (("fp32 fp32", "fp32"),))):
    for _params, _result in _signatures:
        _add("__triton_hip_" + _symbol, _name, _params, _result)

del _arity, _names, _name, _mode, _op, _src, _src_dtype, _dst, _dst_dtype, _symbol, _params, _result
del _c, _entry, _ocml, _bits, _float, _signatures


def _bits(dt):
    """What a library sees of a dtype: an integer of its width (signedness is
    the caller's), or the float type itself."""
    if dt.is_int() or dt.is_fp8():
        return ("int", dt.primitive_bitwidth)
    return (dt.name,)


def lookup(symbol, arg_dtypes, result_dtype):
    """The DeviceFunction of `symbol` whose signature a call with these
    dtypes has, or None when the symbol is not listed; a TypeError naming
    both when no signature of a listed one matches."""
    signatures = FUNCTIONS.get(symbol)
    if signatures is None:
        return None
    want = (tuple(_bits(d) for d in arg_dtypes), _bits(result_dtype))
    for f in signatures:
        if (tuple(_bits(p) for p in f.params), _bits(f.result)) == want:
            return f
    raise TypeError("%s takes %s; this call gives it (%s) -> %s" % (
        symbol, " or ".join(f.signature() for f in signatures), ", ".join(d.name for d in arg_dtypes),
        result_dtype.name))
