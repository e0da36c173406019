# RUN: not tessera compile %s --entry seed_float --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=SEED_FLOAT
# RUN: not tessera compile %s --entry offset_i16 --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=OFFSET_I16
# RUN: not tessera compile %s --entry uniform_i16 --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=UNIFORM_I16
# RUN: not tessera compile %s --entry philox_i32 --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=PHILOX_I32
# RUN: not tessera compile %s --entry squeeze_long --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=SQUEEZE_LONG
# RUN: not tessera compile %s --entry scaled_e2m1_float --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=SCALED_E2M1_FLOAT
# RUN: not tessera compile %s --entry scaled_scale_int32 --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=SCALED_SCALE_INT32
# RUN: not tessera compile %s --entry scaled_out_f16 --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=SCALED_OUT_F16
# RUN: not tessera compile %s --entry scaled_scale_group --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=SCALED_SCALE_GROUP
# RUN: not tessera compile %s --entry scaled_ranks --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=SCALED_RANKS
# RUN: not tessera compile %s --entry merge_dim --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=MERGE_DIM
# RUN: not tessera compile %s --entry merge_size --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=MERGE_SIZE
# Errors inside tl functions written in the language (frontend/prelude.py) are
# reported at the kernel's call, naming the function.
import tessera
import tessera.language as tl


# SEED_FLOAT: prelude-errors.py:[[@LINE+5]]:9: error: static_assert failed: the seed must be an integer (in tl.randint)
# SEED_FLOAT-NEXT: {{^}}    x = tl.randint(1.5, tl.arange(0, 4))
# SEED_FLOAT-NEXT: {{^}}        ^
@tessera.jit
def seed_float(n):
    x = tl.randint(1.5, tl.arange(0, 4))


# OFFSET_I16: prelude-errors.py:[[@LINE+6]]:9: error: static_assert failed: philox offsets must be 32- or 64-bit integers (in tl.philox)
# OFFSET_I16-NEXT: {{^}}    x = tl.philox(n, c, c, c, c)
# OFFSET_I16-NEXT: {{^}}        ^
@tessera.jit
def offset_i16(n):
    c = tl.arange(0, 4).to(tl.int16)  # tl.rand takes it (as a uint32 counter, as Triton 3.6), philox does not
    x = tl.philox(n, c, c, c, c)


# UNIFORM_I16: prelude-errors.py:[[@LINE+5]]:9: error: static_assert failed: expected a 32- or 64-bit integer (in tl.uint_to_uniform_float)
# UNIFORM_I16-NEXT: {{^}}    x = tl.uint_to_uniform_float(tl.arange(0, 4).to(tl.int16))
# UNIFORM_I16-NEXT: {{^}}        ^
@tessera.jit
def uniform_i16(n):
    x = tl.uint_to_uniform_float(tl.arange(0, 4).to(tl.int16))


# PHILOX_I32: prelude-errors.py:[[@LINE+6]]:9: error: static_assert failed: philox works on uint32 or uint64 counters (in tl.philox_impl)
# PHILOX_I32-NEXT: {{^}}    x = tl.philox_impl(z, z, z, z, z, z)
# PHILOX_I32-NEXT: {{^}}        ^
@tessera.jit
def philox_i32(n):
    z = tl.arange(0, 4)
    x = tl.philox_impl(z, z, z, z, z, z)


# SQUEEZE_LONG: prelude-errors.py:[[@LINE+5]]:9: error: static_assert failed: squeeze: the dimension must have length 1 (in tl.squeeze)
# SQUEEZE_LONG-NEXT: {{^}}    x = tl.squeeze(tl.zeros((4, 2), tl.int32), -1)
# SQUEEZE_LONG-NEXT: {{^}}        ^
@tessera.jit
def squeeze_long(n):
    x = tl.squeeze(tl.zeros((4, 2), tl.int32), -1)


# SCALED_E2M1_FLOAT: prelude-errors.py:[[@LINE+7]]:9: error: static_assert failed: dot_scaled: e2m1 operands are packed two to a uint8 (in tl.dot_scaled)
# SCALED_E2M1_FLOAT-NEXT: {{^}}    c = tl.dot_scaled(a, None, "e2m1", b, None, "bf16")
# SCALED_E2M1_FLOAT-NEXT: {{^}}        ^
@tessera.jit
def scaled_e2m1_float(p):
    a = tl.zeros([32, 16], tl.float32)
    b = tl.zeros([32, 32], tl.bfloat16)
    c = tl.dot_scaled(a, None, "e2m1", b, None, "bf16")


# SCALED_SCALE_INT32: prelude-errors.py:[[@LINE+8]]:9: error: static_assert failed: dot_scaled: scales are e8m0 held in uint8, or float8e4nv (in tl.dot_scaled)
# SCALED_SCALE_INT32-NEXT: {{^}}    c = tl.dot_scaled(a, s, "e4m3", b, None, "bf16")
# SCALED_SCALE_INT32-NEXT: {{^}}        ^
@tessera.jit
def scaled_scale_int32(p):
    a = tl.zeros([32, 32], tl.uint8)
    s = tl.zeros([32, 1], tl.int32)
    b = tl.zeros([32, 32], tl.bfloat16)
    c = tl.dot_scaled(a, s, "e4m3", b, None, "bf16")


# SCALED_SCALE_GROUP: prelude-errors.py:[[@LINE+8]]:9: error: static_assert failed: dot_scaled: a scale tile is [M, K // group] for lhs and [N, K // group] for rhs (group 32 for uint8 scales, 16 for float8e4nv) (in tl.dot_scaled)
# SCALED_SCALE_GROUP-NEXT: {{^}}    c = tl.dot_scaled(a, s, "e4m3", b, None, "bf16")
# SCALED_SCALE_GROUP-NEXT: {{^}}        ^
@tessera.jit
def scaled_scale_group(p):
    a = tl.zeros([32, 64], tl.uint8)
    s = tl.zeros([32, 2], tl.float8e4nv)  # float8e4nv scales cover 16 elements each: [32, 4] here
    b = tl.zeros([64, 32], tl.bfloat16)
    c = tl.dot_scaled(a, s, "e4m3", b, None, "bf16")


# SCALED_RANKS: prelude-errors.py:[[@LINE+7]]:9: error: static_assert failed: dot_scaled: both operands are 2-D, or both 3-D (in tl.dot_scaled)
# SCALED_RANKS-NEXT: {{^}}    c = tl.dot_scaled(a, None, "bf16", b, None, "bf16")
# SCALED_RANKS-NEXT: {{^}}        ^
@tessera.jit
def scaled_ranks(p):
    a = tl.zeros([2, 32, 32], tl.bfloat16)
    b = tl.zeros([32, 32], tl.bfloat16)
    c = tl.dot_scaled(a, None, "bf16", b, None, "bf16")


# SCALED_OUT_F16: prelude-errors.py:[[@LINE+6]]:9: error: static_assert failed: dot_scaled: out_dtype must be float32 (in tl.dot_scaled)
# SCALED_OUT_F16-NEXT: {{^}}    c = tl.dot_scaled(a, None, "bf16", a, None, "bf16", out_dtype=tl.float16)
# SCALED_OUT_F16-NEXT: {{^}}        ^
@tessera.jit
def scaled_out_f16(p):
    a = tl.zeros([32, 32], tl.bfloat16)
    c = tl.dot_scaled(a, None, "bf16", a, None, "bf16", out_dtype=tl.float16)


# MERGE_DIM: prelude-errors.py:[[@LINE+3]]:9: error: static_assert failed: bitonic_merge: only the last dimension is supported (in tl.bitonic_merge)
# MERGE_DIM-NEXT: {{^}}    x = tl.bitonic_merge(tl.zeros([4, 8], tl.float32), dim=0)
def merge_dim(n):
    x = tl.bitonic_merge(tl.zeros([4, 8], tl.float32), dim=0)


# MERGE_SIZE: prelude-errors.py:[[@LINE+3]]:9: error: static_assert failed: bitonic_merge: the dimension must be a power of two (in tl.bitonic_merge)
# MERGE_SIZE-NEXT: {{^}}    x = tl.bitonic_merge(tl.zeros([4, 1], tl.float32))
def merge_size(n):
    x = tl.bitonic_merge(tl.zeros([4, 1], tl.float32))
