# RUN: not tessera compile %s --entry k --signature "(*fp32:16, *fp32), (fp32, (i32, constexpr)), i32" 2>&1 | FileCheck %s --check-prefix=MISSING
# RUN: not tessera compile %s --entry k --signature "(*fp32,,), (fp32, (i32, constexpr)), i32" 2>&1 | FileCheck %s --check-prefix=BAD
# RUN: not tessera compile %s --entry k --signature "*fp32, (fp32, (i32, constexpr)), i32" -D values.1.1=1 -D nothing.0=1 2>&1 | FileCheck %s --check-prefix=UNKNOWN
# RUN: not tessera compile %s --entry annotated --signature "(i32, i32)" 2>&1 | FileCheck %s --check-prefix=ANNOTATED
# Tuple arguments: a constexpr element needs its value, the signature must
# parse, a -D path must name a tuple parameter, a tl.constexpr parameter
# takes no runtime tuple.
import tessera.language as tl


def k(Ptrs, values, C):
    tl.store(Ptrs[0], values[0] + values[1][0])
    tl.store(Ptrs[1], values[1][1] + C)
# MISSING: tuple-arguments.py:11:13: error: no compile-time value given for element values.1.1 of tuple parameter 'values'
# BAD: bad tuple type '(*fp32,,)' (expected e.g. (*fp32, (i32, constexpr)) or Point(x=i32, y=constexpr))
# UNKNOWN: -D nothing.0: names no element of a tuple parameter of 'k'


def annotated(pair: tl.constexpr):
    pass
# ANNOTATED: tuple-arguments.py:[[@LINE-2]]:15: error: parameter 'pair' is tl.constexpr but was given a runtime tuple

