# RUN: not tessera compile %s --entry k --signature "*fp32" -D B=1 2>&1 | FileCheck %s --strict-whitespace --check-prefix=NOVALUE
# RUN: not tessera compile %s --entry k --signature "*fp32,i32,i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=RUNTIME
# RUN: not tessera compile %s --entry k --signature "*fp32,i32" -D B=1 2>&1 | FileCheck %s --strict-whitespace --check-prefix=DEFAULT
# RUN: not tessera compile %s --entry k_global --signature "*fp32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=GLOBAL
# RUN: not tessera compile %s --entry k_ret --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=RET
# RUN: not tessera compile %s --entry nope 2>&1 | FileCheck %s --check-prefix=ENTRY
# RUN: not tessera compile %s --entry k_ret --signature "*fp33" 2>&1 | FileCheck %s --check-prefix=SIG
# RUN: not tessera compile %s --entry k_ret --signature "i32" -D "B=[1" 2>&1 | FileCheck %s --check-prefix=DEF
# RUN: not tessera compile %s --entry k_ret --signature "tensordesc<fp32[16,0]>" 2>&1 | FileCheck %s --check-prefix=DESC
# Errors about the kernel's specialization (parameters, defaults, globals) and
# the command line.
# NOVALUE: driver.py:[[@LINE+23]]:10: error: no value or type given for kernel parameter 'n'
# NOVALUE-NEXT: {{^}}def k(X, n, B: tl.constexpr, D=tl.arange(0, 4)):
# NOVALUE-NEXT: {{^}}         ^
# RUNTIME: driver.py:[[@LINE+20]]:13: error: parameter 'B' is tl.constexpr but was given a runtime int32
# RUNTIME-NEXT: {{^}}def k(X, n, B: tl.constexpr, D=tl.arange(0, 4)):
# RUNTIME-NEXT: {{^}}            ^
# DEFAULT: driver.py:[[@LINE+17]]:30: error: the default of 'D' is not a compile-time value
# DEFAULT-NEXT: {{^}}def k(X, n, B: tl.constexpr, D=tl.arange(0, 4)):
# DEFAULT-NEXT: {{^}}                             ^
# GLOBAL: driver.py:[[@LINE+20]]:17: error: global 'G' is not a compile-time constant (it is a runtime value); pass it as a tl.constexpr argument instead
# GLOBAL-NEXT: {{^}}    tl.store(X, G)
# GLOBAL-NEXT: {{^}}                ^
# RET: driver.py:[[@LINE+21]]:1: error: a kernel cannot return a value
# ENTRY: {{(tessera: no 'def nope\(' in .*driver.py|driver.py: error: no function named 'nope')}}
# SIG: tessera: unknown argument type '*fp33' (expected e.g. *fp32, i32, fp16)
# DEF: tessera: cannot read -D B=[1 as a compile-time value
import tessera
import tessera.language as tl

G = tl.arange(0, 4)


@tessera.jit
def k(X, n, B: tl.constexpr, D=tl.arange(0, 4)):
    tl.store(X, n)


@tessera.jit
def k_global(X):
    tl.store(X, G)


@tessera.jit
def k_ret(n):
    return n

# DESC: tessera: bad tensor descriptor type 'tensordesc<fp32[16,0]>': block dimensions must be positive integers (expected e.g. tensordesc<fp16[64,64]>)
