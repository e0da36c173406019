# RUN: tessera compile %s --entry k_call --signature "*fp32,i32,fp32" | FileCheck %s --check-prefix=CALL
# RUN: tessera compile %s --entry k_call --signature "*fp32,i32,fp32" --inline-calls | FileCheck %s --check-prefix=INLINE
# RUN: tessera compile %s --entry k_call --signature "*fp32,i32,fp32" --pipeline inline,canonicalize,dce | FileCheck %s --check-prefix=PIPE
# CALL-LABEL: kernel @k_call(%X: ptr<f32>, %n: i32, %f: f32) {
# CALL: %a = call %f {callee = "scale"} : f32
# CALL: %b = call %f {callee = "scale_1"} : f32
# CALL: %q, %r = call %n {callee = "divmod_"} : i32, i32
# CALL: %{{[0-9]+}} = add %a, %b : f32
# CALL: %{{[0-9]+}} = cast %q : f32
# CALL: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : f32
# CALL: %{{[0-9]+}} = cast %r : f32
# CALL: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : f32
# CALL: store %X, %{{[0-9]+}}
# CALL-LABEL: func @scale(%x: f32) -> (f32) {
# CALL: %{{[0-9]+}} = constant {value = 2.0} : f32
# CALL: %{{[0-9]+}} = mul %x, %{{[0-9]+}} : f32
# CALL: return %{{[0-9]+}}
# CALL-LABEL: func @scale_1(%x: f32) -> (f32) {
# CALL: %{{[0-9]+}} = constant {value = 3.0} : f32
# CALL: %{{[0-9]+}} = mul %x, %{{[0-9]+}} : f32
# CALL: return %{{[0-9]+}}
# CALL-LABEL: func @divmod_(%a: i32) -> (i32, i32) {
# CALL: %{{[0-9]+}} = constant {value = 7} : i32
# CALL: %{{[0-9]+}} = div %a, %{{[0-9]+}} : i32
# CALL: %{{[0-9]+}} = constant {value = 7} : i32
# CALL: %{{[0-9]+}} = rem %a, %{{[0-9]+}} : i32
# CALL: return %{{[0-9]+}}, %{{[0-9]+}}
# INLINE-NOT: call
# INLINE-NOT: func @
# INLINE-LABEL: kernel @k_call(%X: ptr<f32>, %n: i32, %f: f32) {
# INLINE: %{{[0-9]+}} = constant {value = 2.0} : f32
# INLINE: %a = mul %f, %{{[0-9]+}} : f32
# INLINE: %{{[0-9]+}} = constant {value = 3.0} : f32
# INLINE: %b = mul %f, %{{[0-9]+}} : f32
# INLINE: %{{[0-9]+}} = constant {value = 7} : i32
# INLINE: %q = div %n, %{{[0-9]+}} : i32
# INLINE: %{{[0-9]+}} = constant {value = 7} : i32
# INLINE: %r = rem %n, %{{[0-9]+}} : i32
# INLINE: %{{[0-9]+}} = add %a, %b : f32
# INLINE: %{{[0-9]+}} = cast %q : f32
# INLINE: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : f32
# INLINE: %{{[0-9]+}} = cast %r : f32
# INLINE: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : f32
# INLINE: store %X, %{{[0-9]+}}
# PIPE-NOT: func @
# PIPE-LABEL: kernel @k_call(%X: ptr<f32>, %n: i32, %f: f32) {
# PIPE-NOT: call
# PIPE: %{{[0-9]+}} = constant {value = 2.0} : f32
# PIPE: %{{[0-9]+}} = mul %f, %{{[0-9]+}} : f32
# PIPE: %{{[0-9]+}} = constant {value = 3.0} : f32
# PIPE: %{{[0-9]+}} = mul %f, %{{[0-9]+}} : f32
# PIPE: %{{[0-9]+}} = constant {value = 7} : i32
# PIPE: %{{[0-9]+}} = div %n, %{{[0-9]+}} : i32
# PIPE: %{{[0-9]+}} = constant {value = 7} : i32
# PIPE: %{{[0-9]+}} = rem %n, %{{[0-9]+}} : i32
# PIPE: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : f32
# PIPE: %{{[0-9]+}} = cast %{{[0-9]+}} : f32
# PIPE: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : f32
# PIPE: %{{[0-9]+}} = cast %{{[0-9]+}} : f32
# PIPE: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : f32
# PIPE: store %X, %{{[0-9]+}}
# Calls to other jit functions: a device function per specialization (constexpr
# arguments are part of it), several results as a tuple, and --inline-calls.
import tessera
import tessera.language as tl


@tessera.jit
def scale(x, k: tl.constexpr):
    return x * k


@tessera.jit
def divmod_(a, b):
    return a // b, a % b


@tessera.jit
def k_call(X, n, f):
    a = scale(f, 2)
    b = scale(f, 3)
    q, r = divmod_(n, 7)
    tl.store(X, a + b + q + r)
