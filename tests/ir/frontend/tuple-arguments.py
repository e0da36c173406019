# RUN: tessera compile %s --entry k --signature "(*fp32:16, *fp32), (fp32, (i32, constexpr)), i32" -D values.1.1=4.5 --pipeline inline | FileCheck %s
# RUN: not tessera compile %s --entry k --signature "(*fp32:16, *fp32), (fp32, (i32, constexpr)), i32" 2>&1 | FileCheck %s --check-prefix=MISSING
# RUN: not tessera compile %s --entry k --signature "(*fp32,,), (fp32, (i32, constexpr)), i32" 2>&1 | FileCheck %s --check-prefix=BAD
# RUN: not tessera compile %s --entry k --signature "*fp32, (fp32, (i32, constexpr)), i32" -D values.1.1=1 -D nothing.0=1 2>&1 | FileCheck %s --check-prefix=UNKNOWN
# Tuple arguments (Triton's): one kernel parameter per runtime leaf, named by
# its path; a "constexpr" element takes the value given for its path.
import tessera
import tessera.language as tl


@tessera.jit
def k(Ptrs, values, C):
    tl.store(Ptrs[0], values[0] + values[1][0])
    tl.store(Ptrs[1], values[1][1] + C)

# CHECK: kernel @k(%Ptrs_0: ptr<f32> {divisibility = 16}, %Ptrs_1: ptr<f32>, %values_0: f32, %values_1_0: i32, %C: i32)
# CHECK: store %Ptrs_0
# CHECK: constant {value = 4.5} : f32
# CHECK: store %Ptrs_1
# MISSING: error: no compile-time value given for element values.1.1 of tuple parameter 'values'
# BAD: bad tuple type '(*fp32,,)'
# UNKNOWN: -D nothing.0: names no element of a tuple parameter of 'k'
