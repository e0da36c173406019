"""tessera.language.extra.libdevice: stubs for Triton's libdevice (all of
its functions, in Triton's order, then Tessera's few extras). The frontend
implements them: single IR ops in frontend/Builtins.cpp, the rest written in
the language in frontend/libdevice.py. Import them as a module
(``libdevice.tanh(x)``) or by name (``from ...libdevice import tanh``).

Layer 0, binding (python/tessera/__init__.py lists the layers)."""

from .._stubs import stub as _stub

_NAMES = """
clz popc byte_perm mulhi mul24 brev sad abs floor rcp64h rsqrt ceil trunc exp2 saturatef fma_rn fma_rz fma_rd
fma_ru fast_dividef div_rn div_rz div_rd div_ru rcp_rn rcp_rz rcp_rd rcp_ru sqrt_rn sqrt_rz sqrt_rd sqrt_ru
sqrt add_rn add_rz add_rd add_ru mul_rn mul_rz mul_rd mul_ru double2float_rn double2float_rz double2float_rd
double2float_ru double2int_rn double2int_rz double2int_rd double2int_ru double2uint_rn double2uint_rz
double2uint_rd double2uint_ru int2double_rn uint2double_rn float2int_rn float2int_rz float2int_rd float2int_ru
float2uint_rn float2uint_rz float2uint_rd float2uint_ru int2float_rn int2float_rz int2float_rd int2float_ru
uint2float_rn uint2float_rz uint2float_rd uint2float_ru hiloint2double double2loint double2hiint float2ll_rn
float2ll_rz float2ll_rd float2ll_ru float2ull_rn float2ull_rz float2ull_rd float2ull_ru double2ll_rn
double2ll_rz double2ll_rd double2ll_ru double2ull_rn double2ull_rz double2ull_rd double2ull_ru ll2float_rn
ll2float_rz ll2float_rd ll2float_ru ull2float_rn ull2float_rz ull2float_rd ull2float_ru ll2double_rn
ll2double_rz ll2double_rd ll2double_ru ull2double_rn ull2double_rz ull2double_rd ull2double_ru int_as_float
float_as_int uint_as_float float_as_uint longlong_as_double double_as_longlong fast_sinf fast_cosf fast_log2f
fast_logf fast_expf fast_tanf fast_exp10f fast_log10f fast_powf hadd rhadd sub_rn sub_rz sub_rd sub_ru
rsqrt_rn ffs rint llrint nearbyint isnan signbit copysign finitef isinf nextafter sin cos sinpi cospi tan log2
exp exp10 cosh sinh tanh atan2 atan asin acos log log10 log1p acosh asinh atanh expm1 hypot rhypot norm3d
rnorm3d norm4d rnorm4d cbrt rcbrt j0 j1 y0 y1 yn jn cyl_bessel_i0 cyl_bessel_i1 erf erfinv erfc erfcx erfcinv
normcdfinv normcdf lgamma ldexp scalbn fmod remainder fma pow tgamma round llround fdim ilogb logb isfinited
fdiv umulhi max min maximum minimum clamp sigmoid fast_tanhf
""".split()

for _name in _NAMES:
    globals()[_name] = _stub("extra.libdevice." + _name, __name__)
__all__ = list(_NAMES)
del _name

# Triton 3.6 libdevice's signatures: name -> (argument dtypes, result dtype) of
# its first overload (most also take float64; see frontend/libdevice.py). The
# result is the extern's: isnan, isinf, finitef and isfinited convert theirs
# to int1, in Triton as here.
SIGNATURES = {
    "clz": (("int32",), "int32"), "popc": (("int32",), "int32"), "byte_perm": (("int32", "int32", "int32"),
    "int32"), "mulhi": (("int32", "int32"), "int32"), "mul24": (("int32", "int32"), "int32"), "brev": (("int32",),
    "int32"), "sad": (("int32", "int32", "uint32"), "int32"), "abs": (("int32",), "int32"), "floor": (("float32",),
    "float32"), "rcp64h": (("float64",), "float64"), "rsqrt": (("float32",), "float32"), "ceil": (("float64",),
    "float64"), "trunc": (("float64",), "float64"), "exp2": (("float32",), "float32"), "saturatef": (("float32",),
    "float32"), "fma_rn": (("float32", "float32", "float32"), "float32"), "fma_rz": (("float32", "float32",
    "float32"), "float32"), "fma_rd": (("float32", "float32", "float32"), "float32"), "fma_ru": (("float32",
    "float32", "float32"), "float32"), "fast_dividef": (("float32", "float32"), "float32"), "div_rn": (("float32",
    "float32"), "float32"), "div_rz": (("float32", "float32"), "float32"), "div_rd": (("float32", "float32"),
    "float32"), "div_ru": (("float32", "float32"), "float32"), "rcp_rn": (("float32",), "float32"), "rcp_rz":
    (("float32",), "float32"), "rcp_rd": (("float32",), "float32"), "rcp_ru": (("float32",), "float32"), "sqrt_rn":
    (("float32",), "float32"), "sqrt_rz": (("float32",), "float32"), "sqrt_rd": (("float32",), "float32"),
    "sqrt_ru": (("float32",), "float32"), "sqrt": (("float32",), "float32"), "add_rn": (("float64", "float64"),
    "float64"), "add_rz": (("float64", "float64"), "float64"), "add_rd": (("float64", "float64"), "float64"),
    "add_ru": (("float64", "float64"), "float64"), "mul_rn": (("float64", "float64"), "float64"), "mul_rz":
    (("float64", "float64"), "float64"), "mul_rd": (("float64", "float64"), "float64"), "double2float_rn":
    (("float64",), "float32"), "double2float_rz": (("float64",), "float32"), "double2float_rd": (("float64",),
    "float32"), "double2float_ru": (("float64",), "float32"), "double2int_rn": (("float64",), "int32"),
    "double2int_rz": (("float64",), "int32"), "double2int_rd": (("float64",), "int32"), "double2int_ru":
    (("float64",), "int32"), "double2uint_rn": (("float64",), "int32"), "double2uint_rz": (("float64",), "int32"),
    "double2uint_rd": (("float64",), "int32"), "double2uint_ru": (("float64",), "int32"), "int2double_rn":
    (("int32",), "float64"), "uint2double_rn": (("uint32",), "float64"), "float2int_rn": (("float32",), "int32"),
    "float2int_rz": (("float32",), "int32"), "float2int_rd": (("float32",), "int32"), "float2int_ru": (("float32",),
    "int32"), "float2uint_rn": (("float32",), "int32"), "float2uint_rz": (("float32",), "int32"), "float2uint_rd":
    (("float32",), "int32"), "float2uint_ru": (("float32",), "int32"), "int2float_rn": (("int32",), "float32"),
    "int2float_rz": (("int32",), "float32"), "int2float_rd": (("int32",), "float32"), "int2float_ru": (("int32",),
    "float32"), "uint2float_rn": (("uint32",), "float32"), "uint2float_rz": (("uint32",), "float32"),
    "uint2float_rd": (("uint32",), "float32"), "uint2float_ru": (("uint32",), "float32"), "hiloint2double":
    (("int32", "int32"), "float64"), "double2loint": (("float64",), "int32"), "double2hiint": (("float64",),
    "int32"), "float2ll_rn": (("float32",), "int64"), "float2ll_rz": (("float32",), "int64"), "float2ll_rd":
    (("float32",), "int64"), "float2ll_ru": (("float32",), "int64"), "float2ull_rn": (("float32",), "int64"),
    "float2ull_rz": (("float32",), "int64"), "float2ull_rd": (("float32",), "int64"), "float2ull_ru": (("float32",),
    "int64"), "double2ll_rn": (("float64",), "int64"), "double2ll_rz": (("float64",), "int64"), "double2ll_rd":
    (("float64",), "int64"), "double2ll_ru": (("float64",), "int64"), "double2ull_rn": (("float64",), "int64"),
    "double2ull_rz": (("float64",), "int64"), "double2ull_rd": (("float64",), "int64"), "double2ull_ru":
    (("float64",), "int64"), "ll2float_rn": (("int64",), "float32"), "ll2float_rz": (("int64",), "float32"),
    "ll2float_rd": (("int64",), "float32"), "ll2float_ru": (("int64",), "float32"), "ull2float_rn": (("uint64",),
    "float32"), "ull2float_rz": (("uint64",), "float32"), "ull2float_rd": (("uint64",), "float32"), "ull2float_ru":
    (("uint64",), "float32"), "ll2double_rn": (("int64",), "float64"), "ll2double_rz": (("int64",), "float64"),
    "ll2double_rd": (("int64",), "float64"), "ll2double_ru": (("int64",), "float64"), "ull2double_rn": (("uint64",),
    "float64"), "ull2double_rz": (("uint64",), "float64"), "ull2double_rd": (("uint64",), "float64"),
    "ull2double_ru": (("uint64",), "float64"), "int_as_float": (("int32",), "float32"), "float_as_int":
    (("float32",), "int32"), "uint_as_float": (("uint32",), "float32"), "float_as_uint": (("float32",), "int32"),
    "longlong_as_double": (("int64",), "float64"), "double_as_longlong": (("float64",), "int64"), "fast_sinf":
    (("float32",), "float32"), "fast_cosf": (("float32",), "float32"), "fast_log2f": (("float32",), "float32"),
    "fast_logf": (("float32",), "float32"), "fast_expf": (("float32",), "float32"), "fast_tanhf": (("float32",), "float32"), "fast_tanf": (("float32",),
    "float32"), "fast_exp10f": (("float32",), "float32"), "fast_log10f": (("float32",), "float32"), "fast_powf":
    (("float32", "float32"), "float32"), "hadd": (("int32", "int32"), "int32"), "rhadd": (("int32", "int32"),
    "int32"), "sub_rn": (("float32", "float32"), "float32"), "sub_rz": (("float32", "float32"), "float32"),
    "sub_rd": (("float32", "float32"), "float32"), "sub_ru": (("float32", "float32"), "float32"), "rsqrt_rn":
    (("float32",), "float32"), "ffs": (("int32",), "int32"), "rint": (("float32",), "float32"), "llrint":
    (("float32",), "int64"), "nearbyint": (("float32",), "float32"), "isnan": (("float32",), "int32"), "signbit":
    (("float32",), "int32"), "copysign": (("float32", "float32"), "float32"), "finitef": (("float32",), "int32"),
    "isinf": (("float32",), "int32"), "nextafter": (("float32", "float32"), "float32"), "sin": (("float32",),
    "float32"), "cos": (("float32",), "float32"), "sinpi": (("float32",), "float32"), "cospi": (("float32",),
    "float32"), "tan": (("float32",), "float32"), "log2": (("float32",), "float32"), "exp": (("float32",),
    "float32"), "exp10": (("float32",), "float32"), "cosh": (("float32",), "float32"), "sinh": (("float32",),
    "float32"), "tanh": (("float32",), "float32"), "atan2": (("float32", "float32"), "float32"), "atan":
    (("float32",), "float32"), "asin": (("float32",), "float32"), "acos": (("float32",), "float32"), "log":
    (("float32",), "float32"), "log10": (("float32",), "float32"), "log1p": (("float32",), "float32"), "acosh":
    (("float32",), "float32"), "asinh": (("float32",), "float32"), "atanh": (("float32",), "float32"), "expm1":
    (("float32",), "float32"), "hypot": (("float32", "float32"), "float32"), "rhypot": (("float32", "float32"),
    "float32"), "norm3d": (("float32", "float32", "float32"), "float32"), "rnorm3d": (("float32", "float32",
    "float32"), "float32"), "norm4d": (("float32", "float32", "float32", "float32"), "float32"), "rnorm4d":
    (("float32", "float32", "float32", "float32"), "float32"), "cbrt": (("float32",), "float32"), "rcbrt":
    (("float32",), "float32"), "j0": (("float32",), "float32"), "j1": (("float32",), "float32"), "y0":
    (("float32",), "float32"), "y1": (("float32",), "float32"), "yn": (("int32", "float32"), "float32"), "jn":
    (("int32", "float32"), "float32"), "cyl_bessel_i0": (("float32",), "float32"), "cyl_bessel_i1": (("float32",),
    "float32"), "erf": (("float32",), "float32"), "erfinv": (("float32",), "float32"), "erfc": (("float32",),
    "float32"), "erfcx": (("float32",), "float32"), "erfcinv": (("float32",), "float32"), "normcdfinv":
    (("float32",), "float32"), "normcdf": (("float32",), "float32"), "lgamma": (("float32",), "float32"), "ldexp":
    (("float32", "int32"), "float32"), "scalbn": (("float32", "int32"), "float32"), "fmod": (("float32", "float32"),
    "float32"), "remainder": (("float32", "float32"), "float32"), "fma": (("float32", "float32", "float32"),
    "float32"), "pow": (("float32", "int32"), "float32"), "tgamma": (("float32",), "float32"), "round":
    (("float32",), "float32"), "llround": (("float32",), "int64"), "fdim": (("float32", "float32"), "float32"),
    "ilogb": (("float32",), "int32"), "logb": (("float32",), "float32"), "isfinited": (("float64",), "int32"),
    "mul_ru": (("float32", "float32"), "float32"),
}
