# RUN: tessera compile %s --entry k --signature "(*fp32:16, *fp32), (fp32, (i32, constexpr)), i32" -D values.1.1=4.5 --pipeline inline | FileCheck %s
# Tuple arguments (Triton's): one kernel parameter per runtime leaf, named by
# its path; a "constexpr" element takes the value given for its path.
# Errors: errors/tuple-arguments.py.
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
