"""tessera.language.extra.libdevice: stubs for Triton's libdevice (all of
its functions, in Triton's order, then Tessera's few extras). The frontend
implements them: single IR ops in frontend/Builtins.cpp, the rest written in
the language in frontend/libdevice.py. Import them as a module
(``libdevice.tanh(x)``) or by name (``from ...libdevice import tanh``)."""

from .. import _stub

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
fdiv umulhi max min maximum minimum clamp sigmoid
""".split()

for _name in _NAMES:
    globals()[_name] = _stub("extra.libdevice." + _name, __name__)
__all__ = list(_NAMES)
del _name
