# RUN: not tessera compile %s --entry k0 --signature "i32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E0
# RUN: not tessera compile %s --entry k1 --signature "i32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E1
# RUN: not tessera compile %s --entry k2 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E2
# RUN: not tessera compile %s --entry k3 --signature "i32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E3
# RUN: not tessera compile %s --entry k4 --signature "i32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E4
# RUN: not tessera compile %s --entry k5 --signature "i32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E5
# RUN: not tessera compile %s --entry k6 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E6
# RUN: not tessera compile %s --entry k7 --signature "i32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E7
# RUN: not tessera compile %s --entry k8 --signature "i32,*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E8
# RUN: not tessera compile %s --entry k9 --signature "i32,*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E9
# RUN: not tessera compile %s --entry k10 --signature "i32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E10
# RUN: not tessera compile %s --entry k11 --signature "i32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E11
# RUN: not tessera compile %s --entry k12 --signature "i32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E12
# RUN: not tessera compile %s --entry k13 --signature "fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E13
# RUN: not tessera compile %s --entry k14 --signature "i32,*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E14
# RUN: not tessera compile %s --entry k15 --signature "i32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E15
# RUN: not tessera compile %s --entry k16 --signature "i32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E16
# RUN: not tessera compile %s --entry k17 --signature "i32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E17
# RUN: not tessera compile %s --entry k18 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E18
# RUN: not tessera compile %s --entry k20 --signature "i32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E20
# RUN: not tessera compile %s --entry k21 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E21
# RUN: not tessera compile %s --entry k22 --signature "i32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E22
# RUN: not tessera compile %s --entry k23 --signature "i32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E23
# RUN: not tessera compile %s --entry k24 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E24
# RUN: not tessera compile %s --entry k25 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E25
# RUN: not tessera compile %s --entry k26 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E26
# RUN: not tessera compile %s --entry k27 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E27
# RUN: not tessera compile %s --entry k28 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E28
# RUN: not tessera compile %s --entry k29 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E29
# RUN: not tessera compile %s --entry k30 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E30
# RUN: not tessera compile %s --entry k31 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E31
# RUN: not tessera compile %s --entry k32 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E32
# RUN: not tessera compile %s --entry k33 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E33
# RUN: not tessera compile %s --entry k34 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E34
# RUN: not tessera compile %s --entry k35 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E35
# RUN: not tessera compile %s --entry k36 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E36
# RUN: not tessera compile %s --entry k37 --signature "*fp16,*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E37
# RUN: not tessera compile %s --entry k38 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E38
# RUN: not tessera compile %s --entry k39 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E39
# RUN: not tessera compile %s --entry k40 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E40
# RUN: not tessera compile %s --entry k41 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E41
# RUN: not tessera compile %s --entry k42 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E42
# RUN: not tessera compile %s --entry k43 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E43
# RUN: not tessera compile %s --entry k44 --signature "i32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E44
# RUN: not tessera compile %s --entry k45 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E45
# RUN: not tessera compile %s --entry k46 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E46
# RUN: not tessera compile %s --entry k47 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E47
# RUN: not tessera compile %s --entry k48 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E48
# RUN: not tessera compile %s --entry k49 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E49
# RUN: not tessera compile %s --entry k50 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E50
# RUN: not tessera compile %s --entry k51 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E51
# RUN: not tessera compile %s --entry k52 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E52
# RUN: not tessera compile %s --entry k53 --signature "*fp32,i32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E53
# RUN: not tessera compile %s --entry k54 --signature "*fp32,fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E54
# RUN: not tessera compile %s --entry k55 --signature "u32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E55
# RUN: not tessera compile %s --entry k56 --signature "i8"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E56
# RUN: not tessera compile %s --entry k57 --signature "i32,u32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E57
# RUN: not tessera compile %s --entry k58 --signature "fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E58
# RUN: not tessera compile %s --entry k59 --signature "fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E59
# RUN: not tessera compile %s --entry k60 --signature "fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E60
# RUN: not tessera compile %s --entry k61 --signature "fp8e4nv,i32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E61
# RUN: not tessera compile %s --entry k62 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E62
# RUN: not tessera compile %s --entry k63 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E63
# RUN: not tessera compile %s --entry k64 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E64
# RUN: not tessera compile %s --entry k65 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E65
# RUN: not tessera compile %s --entry k66 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E66
# RUN: not tessera compile %s --entry k67 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E67
# RUN: not tessera compile %s --entry k68 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E68
# RUN: not tessera compile %s --entry k69 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E69
# RUN: not tessera compile %s --entry k70 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E70
# RUN: not tessera compile %s --entry k71 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E71
# RUN: not tessera compile %s --entry k72 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E72
# RUN: not tessera compile %s --entry k73 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E73
# RUN: not tessera compile %s --entry k74 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E74
# RUN: not tessera compile %s --entry k75 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E75
# RUN: not tessera compile %s --entry k76 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E76
# RUN: not tessera compile %s --entry k77 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E77
# RUN: not tessera compile %s --entry k78 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E78
# RUN: not tessera compile %s --entry k79 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E79
# RUN: not tessera compile %s --entry k80 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E80
# RUN: not tessera compile %s --entry k81 --signature "i32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E81
# RUN: not tessera compile %s --entry k82 --signature "i32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E82
# RUN: not tessera compile %s --entry k83 --signature "i32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E83
# RUN: not tessera compile %s --entry k84 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E84
# RUN: not tessera compile %s --entry k85 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E85
# RUN: not tessera compile %s --entry k86 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E86
# RUN: not tessera compile %s --entry k87 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E87
# RUN: not tessera compile %s --entry k88 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E88
# RUN: not tessera compile %s --entry k89 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E89
# RUN: not tessera compile %s --entry k90 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E90
# RUN: not tessera compile %s --entry k91 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E91
# RUN: not tessera compile %s --entry k92 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E92
# RUN: not tessera compile %s --entry k93 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E93
# RUN: not tessera compile %s --entry k94 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E94
# RUN: not tessera compile %s --entry k95 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E95
# RUN: not tessera compile %s --entry k96 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E96
# RUN: not tessera compile %s --entry k97 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E97
# RUN: not tessera compile %s --entry k98 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E98
# RUN: not tessera compile %s --entry k99 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E99
# RUN: not tessera compile %s --entry k100 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E100
# RUN: not tessera compile %s --entry k101 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E101
# RUN: not tessera compile %s --entry k102 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E102
# RUN: not tessera compile %s --entry k103 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E103
# RUN: not tessera compile %s --entry k104 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E104
# RUN: not tessera compile %s --entry k105 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E105
# RUN: not tessera compile %s --entry k106 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E106
# RUN: not tessera compile %s --entry k108 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E108
# RUN: not tessera compile %s --entry k109 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E109
# RUN: not tessera compile %s --entry k110 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E110
# RUN: not tessera compile %s --entry k111 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E111
# RUN: not tessera compile %s --entry k112 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E112
# RUN: not tessera compile %s --entry k113 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E113
# RUN: not tessera compile %s --entry k114 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E114
# RUN: not tessera compile %s --entry k115 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E115
# RUN: not tessera compile %s --entry k116 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E116
# RUN: not tessera compile %s --entry k117 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E117
# RUN: not tessera compile %s --entry k118 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E118
# RUN: not tessera compile %s --entry k119 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E119
# RUN: not tessera compile %s --entry k120 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E120
# RUN: not tessera compile %s --entry k121 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E121
# RUN: not tessera compile %s --entry k122 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E122
# RUN: not tessera compile %s --entry k123 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E123
# RUN: not tessera compile %s --entry k124 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E124
# RUN: not tessera compile %s --entry k125 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E125
# RUN: not tessera compile %s --entry k126 --signature "*i32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E126
# RUN: not tessera compile %s --entry k127 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E127
# RUN: not tessera compile %s --entry k128 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E128
# RUN: not tessera compile %s --entry k129 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E129
# RUN: not tessera compile %s --entry k130 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E130
# RUN: not tessera compile %s --entry k131 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E131
# RUN: not tessera compile %s --entry k132 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E132
# RUN: not tessera compile %s --entry k133 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E133
# RUN: not tessera compile %s --entry k134 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E134
# RUN: not tessera compile %s --entry k135 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E135
# RUN: not tessera compile %s --entry k136 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E136
# RUN: not tessera compile %s --entry k137 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E137
# RUN: not tessera compile %s --entry k138 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E138
# RUN: not tessera compile %s --entry k139 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E139
# RUN: not tessera compile %s --entry k140 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E140
# RUN: not tessera compile %s --entry k141 --signature "*fp32"  2>&1 | FileCheck %s --strict-whitespace --check-prefix=E141
# Semantic errors: each diagnostic with file:line:col, message, source line and caret.
import tessera
import tessera.language as tl


# E0: sema.py:[[@LINE+4]]:1: error: a kernel cannot return a value
# E0-NEXT: {{^}}def k0(n):
# E0-NEXT: {{^}}^
@tessera.jit
def k0(n):
    return n

# E1: sema.py:[[@LINE+4]]:11: error: no value or type given for kernel parameter 'B'
# E1-NEXT: {{^}}def k1(n, B: tl.constexpr):
# E1-NEXT: {{^}}          ^
@tessera.jit
def k1(n, B: tl.constexpr):
    x = n + B

# E2: sema.py:[[@LINE+5]]:5: error: augmented assignment needs a plain variable name as its target
# E2-NEXT: {{^}}    X[0] += 1
# E2-NEXT: {{^}}    ^
@tessera.jit
def k2(X):
    X[0] += 1

# E3: sema.py:[[@LINE+5]]:5: error: cannot unpack tensor of type i32 into 2 names
# E3-NEXT: {{^}}    a, b = n
# E3-NEXT: {{^}}    ^
@tessera.jit
def k3(n):
    a, b = n

# E4: sema.py:[[@LINE+5]]:5: error: cannot unpack a tuple of 3 into 2 names
# E4-NEXT: {{^}}    a, b = (n, n, n)
# E4-NEXT: {{^}}    ^
@tessera.jit
def k4(n):
    a, b = (n, n, n)

# E5: sema.py:[[@LINE+5]]:5: error: assertion failed at compile time: never
# E5-NEXT: {{^}}    assert 1 == 2, 'never'
# E5-NEXT: {{^}}    ^
@tessera.jit
def k5(n):
    assert 1 == 2, 'never'

# E6: sema.py:[[@LINE+6]]:8: error: the condition of an if must be a scalar, found a tile of type tile<4xi1>
# E6-NEXT: {{^}}    if x > 0:
# E6-NEXT: {{^}}       ^
@tessera.jit
def k6(X):
    x = tl.load(X + tl.arange(0, 4))
    if x > 0:
        tl.store(X, 1.0)

# E7: sema.py:[[@LINE+6]]:9: error: break and continue are supported only in tl.static_range loops under compile-time conditions
# E7-NEXT: {{^}}        if i == 2:
# E7-NEXT: {{^}}        ^
@tessera.jit
def k7(n):
    for i in range(n):
        if i == 2:
            break

# E8: sema.py:[[@LINE+5]]:5: error: 'a' has type f32 in the then-branch but i32 in the else-branch
# E8-NEXT: {{^}}    if n > 0:
# E8-NEXT: {{^}}    ^
@tessera.jit
def k8(n, X):
    if n > 0:
        a = 1.0 + n
    else:
        a = n
    tl.store(X, a)

# E9: sema.py:[[@LINE+5]]:14: error: a kernel's for loop must iterate over range(...), tl.range(...) or tl.static_range(...)
# E9-NEXT: {{^}}    for i in n:
# E9-NEXT: {{^}}             ^
@tessera.jit
def k9(n, X):
    for i in n:
        pass

# E10: sema.py:[[@LINE+5]]:14: error: range expects 1 to 3 arguments, got 4
# E10-NEXT: {{^}}    for i in range(1, 2, 3, 4):
# E10-NEXT: {{^}}             ^
@tessera.jit
def k10(n):
    for i in range(1, 2, 3, 4):
        pass

# E11: sema.py:[[@LINE+5]]:14: error: tl.static_range needs compile-time integer bounds, found tensor of type i32
# E11-NEXT: {{^}}    for i in tl.static_range(n):
# E11-NEXT: {{^}}             ^
@tessera.jit
def k11(n):
    for i in tl.static_range(n):
        pass

# E12: sema.py:[[@LINE+5]]:14: error: range step must not be zero
# E12-NEXT: {{^}}    for i in range(0, n, 0):
# E12-NEXT: {{^}}             ^
@tessera.jit
def k12(n):
    for i in range(0, n, 0):
        pass

# E13: sema.py:[[@LINE+5]]:14: error: range bounds must be integers, found fp32
# E13-NEXT: {{^}}    for i in range(f):
# E13-NEXT: {{^}}             ^
@tessera.jit
def k13(f):
    for i in range(f):
        pass

# E14: sema.py:[[@LINE+6]]:5: error: loop-carried variable 'a' has type tile<4xi32> before the loop but tile<4xf32> at the end of its body
# E14-NEXT: {{^}}    for i in range(n):
# E14-NEXT: {{^}}    ^
@tessera.jit
def k14(n, X):
    a = tl.zeros([4], tl.int32)
    for i in range(n):
        a = a + 1.5
    tl.store(X + tl.arange(0, 4), a)

# E15: sema.py:[[@LINE+5]]:11: error: a while loop needs a runtime condition; compile-time loops use tl.static_range
# E15-NEXT: {{^}}    while 1 < 2:
# E15-NEXT: {{^}}          ^
@tessera.jit
def k15(n):
    while 1 < 2:
        n = n + 1

# E16: sema.py:[[@LINE+5]]:5: error: break, continue and return are not supported inside a while loop
# E16-NEXT: {{^}}    while n < 4:
# E16-NEXT: {{^}}    ^
@tessera.jit
def k16(n):
    while n < 4:
        n = n + 1
        break

# E17: sema.py:[[@LINE+5]]:9: error: name 'undefined_name' is not defined
# E17-NEXT: {{^}}    x = undefined_name + n
# E17-NEXT: {{^}}        ^
@tessera.jit
def k17(n):
    x = undefined_name + n

# E18: sema.py:[[@LINE+6]]:11: error: unsupported tensor index: tensors can be indexed only with ':' and None (as in x[:, None]); use masks, tl.split or tl.reshape to select elements
# E18-NEXT: {{^}}    y = x[0]
# E18-NEXT: {{^}}          ^
@tessera.jit
def k18(X):
    x = tl.load(X + tl.arange(0, 4))
    y = x[0]

# E20: sema.py:[[@LINE+5]]:9: error: tessera.language has no attribute 'no_such_builtin'
# E20-NEXT: {{^}}    x = tl.no_such_builtin(n)
# E20-NEXT: {{^}}        ^
@tessera.jit
def k20(n):
    x = tl.no_such_builtin(n)

# E21: sema.py:[[@LINE+6]]:9: error: a tensor has no attribute 'no_such_attr'
# E21-NEXT: {{^}}    y = x.no_such_attr
# E21-NEXT: {{^}}        ^
@tessera.jit
def k21(X):
    x = tl.load(X)
    y = x.no_such_attr

# E22: sema.py:[[@LINE+5]]:16: error: tuple index 5 out of range for a tuple of 2
# E22-NEXT: {{^}}    x = (1, 2)[5]
# E22-NEXT: {{^}}               ^
@tessera.jit
def k22(n):
    x = (1, 2)[5]

# E23: sema.py:[[@LINE+6]]:9: error: int 5 is not callable
# E23-NEXT: {{^}}    y = x(1)
# E23-NEXT: {{^}}        ^
@tessera.jit
def k23(n):
    x = 5
    y = x(1)

# E24: sema.py:[[@LINE+5]]:17: error: sum() takes at most 4 arguments, got 6
# E24-NEXT: {{^}}    tl.store(X, tl.sum(tl.arange(0, 4), 0, True, None, 5, 6))
# E24-NEXT: {{^}}                ^
@tessera.jit
def k24(X):
    tl.store(X, tl.sum(tl.arange(0, 4), 0, True, None, 5, 6))

# E25: sema.py:[[@LINE+5]]:17: error: load() got an unexpected keyword argument 'bogus' (its parameters: pointer, mask, other, boundary_check, padding_option, cache_modifier, eviction_policy, volatile)
# E25-NEXT: {{^}}    tl.store(X, tl.load(X, bogus=1))
# E25-NEXT: {{^}}                ^
@tessera.jit
def k25(X):
    tl.store(X, tl.load(X, bogus=1))

# E26: sema.py:[[@LINE+5]]:9: error: shape dimensions must be powers of two, found 3
# E26-NEXT: {{^}}    x = tl.zeros([3], dtype=tl.float32)
# E26-NEXT: {{^}}        ^
@tessera.jit
def k26(X):
    x = tl.zeros([3], dtype=tl.float32)

# E27: sema.py:[[@LINE+5]]:9: error: expected a dtype such as tl.float32, found int 5
# E27-NEXT: {{^}}    x = tl.zeros([4], dtype=5)
# E27-NEXT: {{^}}        ^
@tessera.jit
def k27(X):
    x = tl.zeros([4], dtype=5)

# E28: sema.py:[[@LINE+5]]:9: error: tl.arange's range must have a power-of-two length, found 3
# E28-NEXT: {{^}}    x = tl.arange(0, 3)
# E28-NEXT: {{^}}        ^
@tessera.jit
def k28(X):
    x = tl.arange(0, 3)

# E29: sema.py:[[@LINE+5]]:5: error: static_assert failed: one is not greater
# E29-NEXT: {{^}}    tl.static_assert(1 > 2, 'one is not greater')
# E29-NEXT: {{^}}    ^
@tessera.jit
def k29(X):
    tl.static_assert(1 > 2, 'one is not greater')

# E30: sema.py:[[@LINE+5]]:9: error: program_id axis must be 0, 1, or 2 but got 3
# E30-NEXT: {{^}}    x = tl.program_id(3)
# E30-NEXT: {{^}}        ^
@tessera.jit
def k30(X):
    x = tl.program_id(3)

# E31: sema.py:[[@LINE+5]]:9: error: unknown cache_modifier '.zz' (.ca, .cg, .cv)
# E31-NEXT: {{^}}    x = tl.load(X, cache_modifier='.zz')
# E31-NEXT: {{^}}        ^
@tessera.jit
def k31(X):
    x = tl.load(X, cache_modifier='.zz')

# E32: sema.py:[[@LINE+5]]:9: error: unknown eviction_policy 'evict_some' (evict_normal, evict_first or evict_last)
# E32-NEXT: {{^}}    x = tl.load(X, eviction_policy='evict_some')
# E32-NEXT: {{^}}        ^
@tessera.jit
def k32(X):
    x = tl.load(X, eviction_policy='evict_some')

# E33: sema.py:[[@LINE+5]]:9: error: sem must be "relaxed", "acquire", "release" or "acq_rel", found "seq_cst"
# E33-NEXT: {{^}}    x = tl.atomic_add(X, 1.0, sem='seq_cst')
# E33-NEXT: {{^}}        ^
@tessera.jit
def k33(X):
    x = tl.atomic_add(X, 1.0, sem='seq_cst')

# E34: sema.py:[[@LINE+5]]:9: error: scope must be "cta", "gpu" or "sys", found "cluster"
# E34-NEXT: {{^}}    x = tl.atomic_add(X, 1.0, scope='cluster')
# E34-NEXT: {{^}}        ^
@tessera.jit
def k34(X):
    x = tl.atomic_add(X, 1.0, scope='cluster')

# E35: sema.py:[[@LINE+5]]:9: error: atomic_and() needs integer elements, the pointer is to fp32
# E35-NEXT: {{^}}    x = tl.atomic_and(X, 1.0)
# E35-NEXT: {{^}}        ^
@tessera.jit
def k35(X):
    x = tl.atomic_and(X, 1.0)

# E36: sema.py:[[@LINE+7]]:9: error: tl.dot inner dimensions differ: tile<16x16xf32> and tile<8x16xf32>
# E36-NEXT: {{^}}    c = tl.dot(a, b)
# E36-NEXT: {{^}}        ^
@tessera.jit
def k36(X):
    a = tl.load(X + tl.arange(0, 16)[:, None] + tl.arange(0, 16)[None, :])
    b = tl.load(X + tl.arange(0, 8)[:, None] + tl.arange(0, 16)[None, :])
    c = tl.dot(a, b)

# E37: sema.py:[[@LINE+7]]:9: error: tl.dot operands must have the same dtype, found fp16 and fp32
# E37-NEXT: {{^}}    c = tl.dot(a, b)
# E37-NEXT: {{^}}        ^
@tessera.jit
def k37(A, B):
    a = tl.load(A + tl.arange(0, 16)[:, None] + tl.arange(0, 16)[None, :])
    b = tl.load(B + tl.arange(0, 16)[:, None] + tl.arange(0, 16)[None, :])
    c = tl.dot(a, b)

# Tiles below 16 are dots like any other (on the SIMT lanes): their mistakes are the usual ones.
# E38: sema.py:[[@LINE+7]]:9: error: tl.dot inner dimensions differ: tile<4x4xf32> and tile<2x4xf32>
# E38-NEXT: {{^}}    c = tl.dot(a, b)
# E38-NEXT: {{^}}        ^
@tessera.jit
def k38(X):
    a = tl.load(X + tl.arange(0, 4)[:, None] + tl.arange(0, 4)[None, :])
    b = tl.load(X + tl.arange(0, 2)[:, None] + tl.arange(0, 4)[None, :])
    c = tl.dot(a, b)

# E39: sema.py:[[@LINE+6]]:9: error: input_precision must be "ieee", "tf32", "tf32x3", "bf16x3" or "bf16x6", found "bf16"
# E39-NEXT: {{^}}    c = tl.dot(a, a, input_precision='bf16')
# E39-NEXT: {{^}}        ^
@tessera.jit
def k39(X):
    a = tl.load(X + tl.arange(0, 16)[:, None] + tl.arange(0, 16)[None, :])
    c = tl.dot(a, a, input_precision='bf16')

# E40: sema.py:[[@LINE+6]]:9: error: fp_downcast_rounding must be "rtne" or "rtz", found "up"
# E40-NEXT: {{^}}    y = x.to(tl.float16, fp_downcast_rounding='up')
# E40-NEXT: {{^}}        ^
@tessera.jit
def k40(X):
    x = tl.load(X + tl.arange(0, 4))
    y = x.to(tl.float16, fp_downcast_rounding='up')

# E41: sema.py:[[@LINE+6]]:9: error: cannot bitcast fp32 to fp16: they have different bit widths
# E41-NEXT: {{^}}    y = x.to(tl.float16, bitcast=True)
# E41-NEXT: {{^}}        ^
@tessera.jit
def k41(X):
    x = tl.load(X + tl.arange(0, 4))
    y = x.to(tl.float16, bitcast=True)

# E42: sema.py:[[@LINE+6]]:9: error: fp_downcast_rounding applies only to casts to a narrower float type
# E42-NEXT: {{^}}    y = x.to(tl.int16, fp_downcast_rounding='rtz')
# E42-NEXT: {{^}}        ^
@tessera.jit
def k42(X):
    x = tl.load(X + tl.arange(0, 4))
    y = x.to(tl.int16, fp_downcast_rounding='rtz')

# E43: sema.py:[[@LINE+6]]:9: error: cannot cast fp32 to pointer<fp32> (pointers convert only to and from 64-bit integers)
# E43-NEXT: {{^}}    y = x.to(tl.pointer_type(tl.float32))
# E43-NEXT: {{^}}        ^
@tessera.jit
def k43(X):
    x = tl.load(X + tl.arange(0, 4))
    y = x.to(tl.pointer_type(tl.float32))

# E44: sema.py:[[@LINE+5]]:9: error: exp() needs floating-point input, found int32; cast it first with .to(tl.float32)
# E44-NEXT: {{^}}    x = tl.exp(n)
# E44-NEXT: {{^}}        ^
@tessera.jit
def k44(n):
    x = tl.exp(n)

# E45: sema.py:[[@LINE+6]]:9: error: cannot reshape tile<4xf32> (4 elements) to 8 elements
# E45-NEXT: {{^}}    y = tl.reshape(x, (8,))
# E45-NEXT: {{^}}        ^
@tessera.jit
def k45(X):
    x = tl.load(X + tl.arange(0, 4))
    y = tl.reshape(x, (8,))

# E46: sema.py:[[@LINE+6]]:9: error: tl.trans without dims needs a tile of rank 2 or more, found tile<4xf32>
# E46-NEXT: {{^}}    y = tl.trans(x)
# E46-NEXT: {{^}}        ^
@tessera.jit
def k46(X):
    x = tl.load(X + tl.arange(0, 4))
    y = tl.trans(x)

# E47: sema.py:[[@LINE+6]]:9: error: tl.split needs a tile whose last dimension is 2, found tile<4xf32>
# E47-NEXT: {{^}}    y = tl.split(x)
# E47-NEXT: {{^}}        ^
@tessera.jit
def k47(X):
    x = tl.load(X + tl.arange(0, 4))
    y = tl.split(x)

# E48: sema.py:[[@LINE+6]]:9: error: tl.cat needs two tiles of the same type, found tile<4xf32> and tile<4xi32>
# E48-NEXT: {{^}}    y = tl.cat(x, x.to(tl.int32))
# E48-NEXT: {{^}}        ^
@tessera.jit
def k48(X):
    x = tl.load(X + tl.arange(0, 4))
    y = tl.cat(x, x.to(tl.int32))

# E49: sema.py:[[@LINE+6]]:9: error: invalid axis 2: expected -1 <= axis < 1
# E49-NEXT: {{^}}    y = tl.sum(x, 2)
# E49-NEXT: {{^}}        ^
@tessera.jit
def k49(X):
    x = tl.load(X + tl.arange(0, 4))
    y = tl.sum(x, 2)

# E50: sema.py:[[@LINE+6]]:9: error: xor_sum needs integers
# E50-NEXT: {{^}}    y = tl.xor_sum(x, 0)
# E50-NEXT: {{^}}        ^
@tessera.jit
def k50(X):
    x = tl.load(X + tl.arange(0, 4))
    y = tl.xor_sum(x, 0)

# E51: sema.py:[[@LINE+6]]:9: error: exp() takes at most 1 arguments, got 2
# E51-NEXT: {{^}}    y = tl.reduce(x, 0, tl.exp)
# E51-NEXT: {{^}}        ^
@tessera.jit
def k51(X):
    x = tl.load(X + tl.arange(0, 4))
    y = tl.reduce(x, 0, tl.exp)

# E52: sema.py:[[@LINE+5]]:9: error: cannot broadcast shapes tile<4xf32> and tile<8xf32>: dimension 0 is 4 and 8
# E52-NEXT: {{^}}    x = tl.load(X + tl.arange(0, 4)) + tl.load(X + tl.arange(0, 8))
# E52-NEXT: {{^}}        ^
@tessera.jit
def k52(X):
    x = tl.load(X + tl.arange(0, 4)) + tl.load(X + tl.arange(0, 8))

# E53: sema.py:[[@LINE+5]]:9: error: unsupported pointer arithmetic: * between pointer<fp32> and int32 (pointers take + and - of integers)
# E53-NEXT: {{^}}    y = X * n
# E53-NEXT: {{^}}        ^
@tessera.jit
def k53(X, n):
    y = X * n

# E54: sema.py:[[@LINE+5]]:9: error: unsupported pointer arithmetic: + between pointer<fp32> and fp32 (pointers take + and - of integers)
# E54-NEXT: {{^}}    y = X + f
# E54-NEXT: {{^}}        ^
@tessera.jit
def k54(X, f):
    y = X + f

# E55: sema.py:[[@LINE+5]]:9: error: cannot combine an unsigned tensor with the negative number -1; cast one of them
# E55-NEXT: {{^}}    y = u - -1
# E55-NEXT: {{^}}        ^
@tessera.jit
def k55(u):
    y = u - -1

# E56: sema.py:[[@LINE+5]]:9: error: the number 300 is out of range for type int8; cast the tensor to a wider type
# E56-NEXT: {{^}}    y = a + 300
# E56-NEXT: {{^}}        ^
@tessera.jit
def k56(a):
    y = a + 300

# E57: sema.py:[[@LINE+5]]:9: error: Cannot use /, //, or % with int32 and uint32 because they have different signedness; cast them to the same signedness
# E57-NEXT: {{^}}    y = a // u
# E57-NEXT: {{^}}        ^
@tessera.jit
def k57(a, u):
    y = a // u

# E58: sema.py:[[@LINE+5]]:9: error: // on floats is not supported on tensors; use tl.math.floor(x / y)
# E58-NEXT: {{^}}    y = f // 2.0
# E58-NEXT: {{^}}        ^
@tessera.jit
def k58(f):
    y = f // 2.0

# E59: sema.py:[[@LINE+5]]:9: error: ** is not supported on tensors; use tl.math.pow or libdevice.pow
# E59-NEXT: {{^}}    y = f ** 2
# E59-NEXT: {{^}}        ^
@tessera.jit
def k59(f):
    y = f ** 2

# E60: sema.py:[[@LINE+5]]:9: error: invalid operands of type fp32 and int32 for bitwise operator & (it needs integers)
# E60-NEXT: {{^}}    y = f & 1
# E60-NEXT: {{^}}        ^
@tessera.jit
def k60(f):
    y = f & 1

# E61: sema.py:[[@LINE+5]]:9: error: unsupported operand types fp8e4nv and int32; cast one of them first
# E61-NEXT: {{^}}    y = e + a
# E61-NEXT: {{^}}        ^
@tessera.jit
def k61(e, a):
    y = e + a

# E62: sema.py:[[@LINE+6]]:5: error: the value is a tile<4xf32> but the pointer is a scalar; use a tile of pointers
# E62-NEXT: {{^}}    tl.store(X, x)
# E62-NEXT: {{^}}    ^
@tessera.jit
def k62(X):
    x = tl.load(X + tl.arange(0, 4))
    tl.store(X, x)

# E63: sema.py:[[@LINE+5]]:5: error: the mask is a tile<4xi1> but the pointer is a scalar; use a tile of pointers
# E63-NEXT: {{^}}    tl.store(X, 1.0, mask=tl.arange(0, 4) < 2)
# E63-NEXT: {{^}}    ^
@tessera.jit
def k63(X):
    tl.store(X, 1.0, mask=tl.arange(0, 4) < 2)

# E64: sema.py:[[@LINE+5]]:9: error: division by zero in a compile-time expression
# E64-NEXT: {{^}}    x = 1 // 0
# E64-NEXT: {{^}}        ^
@tessera.jit
def k64(X):
    x = 1 // 0

# E65: sema.py:[[@LINE+5]]:9: error: shift count out of range in a compile-time expression
# E65-NEXT: {{^}}    x = 1 << 70
# E65-NEXT: {{^}}        ^
@tessera.jit
def k65(X):
    x = 1 << 70

# E66: sema.py:[[@LINE+5]]:10: error: compile-time integer overflow in **
# E66-NEXT: {{^}}    x = (2 ** 64) * (2 ** 64)
# E66-NEXT: {{^}}         ^
@tessera.jit
def k66(X):
    x = (2 ** 64) * (2 ** 64)

# E67: sema.py:[[@LINE+5]]:9: error: tl.full needs a scalar value, found tile<4xi32>
# E67-NEXT: {{^}}    x = tl.full([4], tl.arange(0, 4), tl.int32)
# E67-NEXT: {{^}}        ^
@tessera.jit
def k67(X):
    x = tl.full([4], tl.arange(0, 4), tl.int32)

# E68: sema.py:[[@LINE+6]]:5: error: device_assert of a condition that is False at compile time: never
# E68-NEXT: {{^}}    tl.device_assert(1 == 2, 'never')
# E68-NEXT: {{^}}    ^
@tessera.jit
def k68(X):
    x = tl.load(X + tl.arange(0, 4))
    tl.device_assert(1 == 2, 'never')

# E69: sema.py:[[@LINE+5]]:9: error: max() got an unexpected keyword argument 'bogus'
# E69-NEXT: {{^}}    x = tl.max(tl.load(X + tl.arange(0, 4)), 0, bogus=1)
# E69-NEXT: {{^}}        ^
@tessera.jit
def k69(X):
    x = tl.max(tl.load(X + tl.arange(0, 4)), 0, bogus=1)

# E70: sema.py:[[@LINE+5]]:9: error: multiple_of() values must be positive compile-time integers
# E70-NEXT: {{^}}    x = tl.multiple_of(tl.arange(0, 4), 0)
# E70-NEXT: {{^}}        ^
@tessera.jit
def k70(X):
    x = tl.multiple_of(tl.arange(0, 4), 0)

# E71: sema.py:[[@LINE+6]]:9: error: boundary_check must list dimensions of the block, found int 1
# E71-NEXT: {{^}}    x = tl.load(d, boundary_check=(1,))
# E71-NEXT: {{^}}        ^
@tessera.jit
def k71(X):
    d = tl.make_block_ptr(base=X, shape=(4,), strides=(1,), offsets=(0,), block_shape=(4,), order=(0,))
    x = tl.load(d, boundary_check=(1,))

# E72: sema.py:[[@LINE+6]]:9: error: padding_option must be "zero" or "nan", found "inf"
# E72-NEXT: {{^}}    x = tl.load(d, boundary_check=(0,), padding_option='inf')
# E72-NEXT: {{^}}        ^
@tessera.jit
def k72(X):
    d = tl.make_block_ptr(base=X, shape=(4,), strides=(1,), offsets=(0,), block_shape=(4,), order=(0,))
    x = tl.load(d, boundary_check=(0,), padding_option='inf')

# E73: sema.py:[[@LINE+5]]:9: error: name 'math' is not defined
# E73-NEXT: {{^}}    x = math.exp(1.0)
# E73-NEXT: {{^}}        ^
@tessera.jit
def k73(X):
    x = math.exp(1.0)

# E74: sema.py:[[@LINE+5]]:9: error: expected floating-point operands, found int32 and int32
# E74-NEXT: {{^}}    x = tl.clamp(tl.arange(0, 4), 0, 1)
# E74-NEXT: {{^}}        ^
@tessera.jit
def k74(X):
    x = tl.clamp(tl.arange(0, 4), 0, 1)

# E75: sema.py:[[@LINE+6]]:9: error: propagate_nan must be tl.PropagateNan.NONE or ALL
# E75-NEXT: {{^}}    x = tl.maximum(x, 0.0, propagate_nan='yes')
# E75-NEXT: {{^}}        ^
@tessera.jit
def k75(X):
    x = tl.load(X + tl.arange(0, 4))
    x = tl.maximum(x, 0.0, propagate_nan='yes')

# E76: sema.py:[[@LINE+5]]:9: error: cannot order tuple of 2 and int 3
# E76-NEXT: {{^}}    x = (1, 2) < 3
# E76-NEXT: {{^}}        ^
@tessera.jit
def k76(X):
    x = (1, 2) < 3

# E77: sema.py:[[@LINE+5]]:9: error: 'is' compares only compile-time values (such as None)
# E77-NEXT: {{^}}    x = tl.load(X) is tl.load(X)
# E77-NEXT: {{^}}        ^
@tessera.jit
def k77(X):
    x = tl.load(X) is tl.load(X)

# E78: sema.py:[[@LINE+5]]:9: error: bad operand for unary ~: float
# E78-NEXT: {{^}}    x = ~1.5
# E78-NEXT: {{^}}        ^
@tessera.jit
def k78(X):
    x = ~1.5

# E79: sema.py:[[@LINE+6]]:9: error: invalid operands of type fp32 for ~ (it needs integers)
# E79-NEXT: {{^}}    y = ~x
# E79-NEXT: {{^}}        ^
@tessera.jit
def k79(X):
    x = tl.load(X)
    y = ~x

# E80: sema.py:[[@LINE+5]]:9: error: cannot negate a pointer
# E80-NEXT: {{^}}    x = -X
# E80-NEXT: {{^}}        ^
@tessera.jit
def k80(X):
    x = -X

# E81: sema.py:[[@LINE+6]]:5: error: loop-carried variable 'x' changes structure in the loop body: tensor of type i32 becomes tuple of 2
# E81-NEXT: {{^}}    for i in range(n):
# E81-NEXT: {{^}}    ^
@tessera.jit
def k81(n):
    x = n
    for i in range(n):
        x = (x, x)

# E82: sema.py:[[@LINE+5]]:5: error: 'a' has a different structure in the two branches: tuple of 2 and tensor of type i32
# E82-NEXT: {{^}}    if n > 0:
# E82-NEXT: {{^}}    ^
@tessera.jit
def k82(n):
    if n > 0:
        a = (n, n)
    else:
        a = n
    b = a

# E83: sema.py:[[@LINE+5]]:5: error: 'a' is str "x" in one branch and str "y" in the other; only runtime values can differ between branches
# E83-NEXT: {{^}}    if n > 0:
# E83-NEXT: {{^}}    ^
@tessera.jit
def k83(n):
    if n > 0:
        a = 'x'
    else:
        a = 'y'
    b = a

# E84: sema.py:[[@LINE+6]]:11: error: the condition of a while loop must be a scalar, found tensor of type tile<4xi1>
# E84-NEXT: {{^}}    while x < 1:
# E84-NEXT: {{^}}          ^
@tessera.jit
def k84(X):
    x = tl.load(X + tl.arange(0, 4))
    while x < 1:
        pass

# E85: sema.py:[[@LINE+6]]:14: error: the condition of a conditional expression must be a scalar; use tl.where for tiles
# E85-NEXT: {{^}}    y = 1 if x > 0 else 2
# E85-NEXT: {{^}}             ^
@tessera.jit
def k85(X):
    x = tl.load(X + tl.arange(0, 4))
    y = 1 if x > 0 else 2

# E86: sema.py:[[@LINE+5]]:19: error: tuple slices with a step are not supported
# E86-NEXT: {{^}}    x = (1, 2, 3)[0:2:2]
# E86-NEXT: {{^}}                  ^
@tessera.jit
def k86(X):
    x = (1, 2, 3)[0:2:2]

# E87: sema.py:[[@LINE+5]]:9: error: element_ty applies to pointer dtypes, not fp32
# E87-NEXT: {{^}}    x = X.dtype.element_ty.element_ty
# E87-NEXT: {{^}}        ^
@tessera.jit
def k87(X):
    x = X.dtype.element_ty.element_ty

# E88: sema.py:[[@LINE+5]]:9: error: tl.math has no function 'no_such_fn' in Tessera
# E88-NEXT: {{^}}    x = tl.math.no_such_fn(1.0)
# E88-NEXT: {{^}}        ^
@tessera.jit
def k88(X):
    x = tl.math.no_such_fn(1.0)

# E89: sema.py:[[@LINE+5]]:9: error: PropagateNan has no member 'SOME' (expected NONE or ALL)
# E89-NEXT: {{^}}    x = tl.PropagateNan.SOME
# E89-NEXT: {{^}}        ^
@tessera.jit
def k89(X):
    x = tl.PropagateNan.SOME

# E90: sema.py:[[@LINE+5]]:9: error: lambda expressions are not supported inside kernels
# E90-NEXT: {{^}}    x = lambda y: y
# E90-NEXT: {{^}}        ^
@tessera.jit
def k90(X):
    x = lambda y: y

# E91: sema.py:[[@LINE+5]]:9: error: dict expressions are not supported inside kernels
# E91-NEXT: {{^}}    x = {1: 2}
# E91-NEXT: {{^}}        ^
@tessera.jit
def k91(X):
    x = {1: 2}

# E92: sema.py:[[@LINE+5]]:5: error: helper_fn() takes 2 arguments but 3 were given
# E92-NEXT: {{^}}    helper_fn(X, X, X)
# E92-NEXT: {{^}}    ^
@tessera.jit
def k92(X):
    helper_fn(X, X, X)
@tessera.jit
def helper_fn(a, b):
    pass

# E93: sema.py:[[@LINE+5]]:5: error: helper2() has no parameter named 'c'
# E93-NEXT: {{^}}    helper2(X, c=1)
# E93-NEXT: {{^}}    ^
@tessera.jit
def k93(X):
    helper2(X, c=1)
@tessera.jit
def helper2(a, b):
    pass

# E94: sema.py:[[@LINE+5]]:5: error: helper3() missing argument 'a'
# E94-NEXT: {{^}}    helper3()
# E94-NEXT: {{^}}    ^
@tessera.jit
def k94(X):
    helper3()
@tessera.jit
def helper3(a):
    pass

# E95: sema.py:[[@LINE+5]]:5: error: helper4() got multiple values for argument 'a'
# E95-NEXT: {{^}}    helper4(X, a=X)
# E95-NEXT: {{^}}    ^
@tessera.jit
def k95(X):
    helper4(X, a=X)
@tessera.jit
def helper4(a):
    pass

# E96: sema.py:[[@LINE+5]]:9: error: the combine function comb1 must take 2 arguments (1 pairs), it takes 1
# E96-NEXT: {{^}}    x = tl.reduce(tl.load(X + tl.arange(0, 4)), 0, comb1)
# E96-NEXT: {{^}}        ^
@tessera.jit
def k96(X):
    x = tl.reduce(tl.load(X + tl.arange(0, 4)), 0, comb1)
@tessera.jit
def comb1(a):
    return a

# E97: sema.py:[[@LINE+5]]:9: error: the combine function must return 1 value(s), it returns 2
# E97-NEXT: {{^}}    x = tl.reduce(tl.load(X + tl.arange(0, 4)), 0, comb2)
# E97-NEXT: {{^}}        ^
@tessera.jit
def k97(X):
    x = tl.reduce(tl.load(X + tl.arange(0, 4)), 0, comb2)
@tessera.jit
def comb2(a, b):
    return a, b

# E98: sema.py:[[@LINE+5]]:9: error: the combine function must be a jit function, found int 5
# E98-NEXT: {{^}}    x = tl.reduce(tl.load(X + tl.arange(0, 4)), 0, 5)
# E98-NEXT: {{^}}        ^
@tessera.jit
def k98(X):
    x = tl.reduce(tl.load(X + tl.arange(0, 4)), 0, 5)

# E99: sema.py:[[@LINE+7]]:1: error: calls nest more than 64 deep (recursion is not supported)
# E99-NEXT: {{^}}def rec(a):
# E99-NEXT: {{^}}^
@tessera.jit
def k99(X):
    x = rec(1)
@tessera.jit
def rec(a):
    return rec(a)

# E100: sema.py:[[@LINE+5]]:9: error: shape dimensions must be positive, found 0
# E100-NEXT: {{^}}    x = tl.full([0], 1, tl.int32)
# E100-NEXT: {{^}}        ^
@tessera.jit
def k100(X):
    x = tl.full([0], 1, tl.int32)

# E101: sema.py:[[@LINE+5]]:9: error: a tile may hold at most 2^20 elements, this one has 2097152
# E101-NEXT: {{^}}    x = tl.full([1024, 2048], 1, tl.int32)
# E101-NEXT: {{^}}        ^
@tessera.jit
def k101(X):
    x = tl.full([1024, 2048], 1, tl.int32)

# E102: sema.py:[[@LINE+5]]:9: error: shape dimensions must be compile-time integers, found tensor of type ptr<f32>
# E102-NEXT: {{^}}    x = tl.full([X], 1, tl.int32)
# E102-NEXT: {{^}}        ^
@tessera.jit
def k102(X):
    x = tl.full([X], 1, tl.int32)

# E103: sema.py:[[@LINE+5]]:9: error: argument 'end' of arange() must be a compile-time integer, found tensor of type ptr<f32>
# E103-NEXT: {{^}}    x = tl.arange(0, X)
# E103-NEXT: {{^}}        ^
@tessera.jit
def k103(X):
    x = tl.arange(0, X)

# E104: sema.py:[[@LINE+6]]:9: error: where() is missing its argument 'y'
# E104-NEXT: {{^}}    x = tl.where(x > 0, x)
# E104-NEXT: {{^}}        ^
@tessera.jit
def k104(X):
    x = tl.load(X + tl.arange(0, 4))
    x = tl.where(x > 0, x)

# E105: sema.py:[[@LINE+5]]:5: error: tl.assume of a condition that is False at compile time
# E105-NEXT: {{^}}    tl.assume(1 == 2)
# E105-NEXT: {{^}}    ^
@tessera.jit
def k105(X):
    tl.assume(1 == 2)

# E106: sema.py:[[@LINE+5]]:5: error: tl.assume needs a scalar boolean, found tile<4xi1>
# E106-NEXT: {{^}}    tl.assume(tl.arange(0, 4) > 2)
# E106-NEXT: {{^}}    ^
@tessera.jit
def k106(X):
    tl.assume(tl.arange(0, 4) > 2)

# E108: sema.py:[[@LINE+5]]:9: error: tl.load needs a pointer or a tile of pointers, found int 5
# E108-NEXT: {{^}}    x = tl.load(5)
# E108-NEXT: {{^}}        ^
@tessera.jit
def k108(X):
    x = tl.load(5)

# E109: sema.py:[[@LINE+5]]:5: error: cannot store pointer<fp32> through a pointer to fp32
# E109-NEXT: {{^}}    tl.store(X, X)
# E109-NEXT: {{^}}    ^
@tessera.jit
def k109(X):
    tl.store(X, X)

# E110: sema.py:[[@LINE+5]]:9: error: argmax() needs an axis
# E110-NEXT: {{^}}    x = tl.argmax(tl.load(X + tl.arange(0, 4)))
# E110-NEXT: {{^}}        ^
@tessera.jit
def k110(X):
    x = tl.argmax(tl.load(X + tl.arange(0, 4)))

# E111: sema.py:[[@LINE+5]]:9: error: reductions need a tile, found a scalar of type f32
# E111-NEXT: {{^}}    x = tl.sum(tl.load(X))
# E111-NEXT: {{^}}        ^
@tessera.jit
def k111(X):
    x = tl.sum(tl.load(X))

# E112: sema.py:[[@LINE+5]]:9: error: tl.static_range is usable only in a for loop
# E112-NEXT: {{^}}    x = tl.static_range(4)
# E112-NEXT: {{^}}        ^
@tessera.jit
def k112(X):
    x = tl.static_range(4)

# E113: sema.py:[[@LINE+5]]:5: error: tl.static_assert needs a compile-time condition, found tensor of type ptr<f32>
# E113-NEXT: {{^}}    tl.static_assert(X)
# E113-NEXT: {{^}}    ^
@tessera.jit
def k113(X):
    tl.static_assert(X)

# E114: sema.py:[[@LINE+5]]:9: error: tl.constexpr() needs a compile-time value, found tensor of type ptr<f32>
# E114-NEXT: {{^}}    x = tl.constexpr(X)
# E114-NEXT: {{^}}        ^
@tessera.jit
def k114(X):
    x = tl.constexpr(X)

# E115: sema.py:[[@LINE+6]]:9: error: load a tensor descriptor with desc.load(offsets)
# E115-NEXT: {{^}}    x = tl.load(d)
# E115-NEXT: {{^}}        ^
@tessera.jit
def k115(X):
    d = tl.make_tensor_descriptor(X, shape=[4], strides=[1], block_shape=[4])
    x = tl.load(d)

# E116: sema.py:[[@LINE+6]]:9: error: a block-pointer load takes boundary_check, not a mask
# E116-NEXT: {{^}}    x = tl.load(d, mask=True)
# E116-NEXT: {{^}}        ^
@tessera.jit
def k116(X):
    d = tl.make_block_ptr(base=X, shape=(4,), strides=(1,), offsets=(0,), block_shape=(4,), order=(0,))
    x = tl.load(d, mask=True)

# E117: sema.py:[[@LINE+5]]:9: error: invalid axis 3: expected -2 <= axis < 2
# E117-NEXT: {{^}}    x = tl.expand_dims(tl.arange(0, 4), 3)
# E117-NEXT: {{^}}        ^
@tessera.jit
def k117(X):
    x = tl.expand_dims(tl.arange(0, 4), 3)

# E118: sema.py:[[@LINE+5]]:9: error: dimension 0 appears twice in the permutation
# E118-NEXT: {{^}}    x = tl.permute(tl.zeros([4, 4], tl.int32), (0, 0))
# E118-NEXT: {{^}}        ^
@tessera.jit
def k118(X):
    x = tl.permute(tl.zeros([4, 4], tl.int32), (0, 0))

# E119: sema.py:[[@LINE+5]]:9: error: cumsum() needs a tile
# E119-NEXT: {{^}}    x = tl.cumsum(tl.load(X))
# E119-NEXT: {{^}}        ^
@tessera.jit
def k119(X):
    x = tl.cumsum(tl.load(X))

# Every op that makes a tile is held to the limit, not only shape arguments.
# E120: sema.py:[[@LINE+5]]:9: error: a tile may hold at most 2^20 elements, this one (tile<67108864xi32>) has 67108864
# E120-NEXT: {{^}}    x = tl.arange(0, 1 << 26)
# E120-NEXT: {{^}}        ^
@tessera.jit
def k120(X):
    x = tl.arange(0, 1 << 26)

# E121: sema.py:[[@LINE+6]]:9: error: a tile may hold at most 2^20 elements, this one (tile<4096x4096xi32>) has 16777216
# E121-NEXT: {{^}}    t = i[:, None] + i[None, :]
# E121-NEXT: {{^}}        ^
@tessera.jit
def k121(X):
    i = tl.arange(0, 4096)
    t = i[:, None] + i[None, :]

# E122: sema.py:[[@LINE+6]]:5: error: Cannot broadcast, rank mismatch: the value has shape [4] and the pointers [4, 4]; expand_dims or reshape it first
# E122-NEXT: {{^}}    tl.store(p, tl.arange(0, 4).to(tl.float32))
# E122-NEXT: {{^}}    ^
@tessera.jit
def k122(X):
    p = X + tl.arange(0, 4)[:, None] * 4 + tl.arange(0, 4)[None, :]
    tl.store(p, tl.arange(0, 4).to(tl.float32))

# E123: sema.py:[[@LINE+6]]:9: error: Cannot broadcast, rank mismatch: the mask has shape [4] and the pointers [4, 4]; expand_dims or reshape it first
# E123-NEXT: {{^}}    x = tl.load(p, mask=tl.arange(0, 4) < 2)
# E123-NEXT: {{^}}        ^
@tessera.jit
def k123(X):
    p = X + tl.arange(0, 4)[:, None] * 4 + tl.arange(0, 4)[None, :]
    x = tl.load(p, mask=tl.arange(0, 4) < 2)

# E124: sema.py:[[@LINE+5]]:5: error: a mask of False makes atomic_add() do nothing; remove it
# E124-NEXT: {{^}}    tl.atomic_add(X + tl.arange(0, 4), 1.0, mask=False)
# E124-NEXT: {{^}}    ^
@tessera.jit
def k124(X):
    tl.atomic_add(X + tl.arange(0, 4), 1.0, mask=False)

# E125: sema.py:[[@LINE+5]]:9: error: tl.full_like needs a scalar value, found tile<4xf32>
# E125-NEXT: {{^}}    y = tl.full_like(X + tl.arange(0, 4), tl.arange(0, 4).to(tl.float32))
# E125-NEXT: {{^}}        ^
@tessera.jit
def k125(X):
    y = tl.full_like(X + tl.arange(0, 4), tl.arange(0, 4).to(tl.float32))

# E126: sema.py:[[@LINE+5]]:9: error: fp_mantissa_width applies to floating-point dtypes, not int32
# E126-NEXT: {{^}}    w = X.dtype.element_ty.fp_mantissa_width
# E126-NEXT: {{^}}        ^
@tessera.jit
def k126(X):
    w = X.dtype.element_ty.fp_mantissa_width

# E127: sema.py:[[@LINE+5]]:9: error: int_bitwidth applies to integer dtypes, not fp32
# E127-NEXT: {{^}}    w = X.dtype.element_ty.int_bitwidth
# E127-NEXT: {{^}}        ^
@tessera.jit
def k127(X):
    w = X.dtype.element_ty.int_bitwidth

# E128: sema.py:[[@LINE+5]]:9: error: tl.flip needs a tile, found f32
# E128-NEXT: {{^}}    y = tl.flip(tl.load(X))
# E128-NEXT: {{^}}        ^
@tessera.jit
def k128(X):
    y = tl.flip(tl.load(X))

# E129: sema.py:[[@LINE+5]]:9: error: tl.flip: dim 2 is out of range for a tile of rank 1
# E129-NEXT: {{^}}    y = tl.flip(tl.arange(0, 4), 2)
# E129-NEXT: {{^}}        ^
@tessera.jit
def k129(X):
    y = tl.flip(tl.arange(0, 4), 2)

# E130: sema.py:[[@LINE+5]]:9: error: tl.sort needs numbers, found tile<4xi1>
# E130-NEXT: {{^}}    y = tl.sort(tl.arange(0, 4) < 2)
# E130-NEXT: {{^}}        ^
@tessera.jit
def k130(X):
    y = tl.sort(tl.arange(0, 4) < 2)

# E131: sema.py:[[@LINE+5]]:9: error: tl.histogram needs a 1-D tile of integers, found tile<4xf32>
# E131-NEXT: {{^}}    h = tl.histogram(tl.arange(0, 4).to(tl.float32), 4)
# E131-NEXT: {{^}}        ^
@tessera.jit
def k131(X):
    h = tl.histogram(tl.arange(0, 4).to(tl.float32), 4)

# E132: sema.py:[[@LINE+5]]:9: error: tl.histogram: num_bins must be a power of two up to 2^20, found 6
# E132-NEXT: {{^}}    h = tl.histogram(tl.arange(0, 4), 6)
# E132-NEXT: {{^}}        ^
@tessera.jit
def k132(X):
    h = tl.histogram(tl.arange(0, 4), 6)

# E133: sema.py:[[@LINE+5]]:9: error: tl.histogram of 4096 values into 1024 bins needs a tile of more than 2^20 elements; split the input
# E133-NEXT: {{^}}    h = tl.histogram(tl.arange(0, 4096), 1024)
# E133-NEXT: {{^}}        ^
@tessera.jit
def k133(X):
    h = tl.histogram(tl.arange(0, 4096), 1024)

# E134: sema.py:[[@LINE+5]]:9: error: tl.histogram's mask must have the input's shape tile<4xi32>, found tile<8xi1>
# E134-NEXT: {{^}}    h = tl.histogram(tl.arange(0, 4), 4, mask=tl.arange(0, 8) < 2)
# E134-NEXT: {{^}}        ^
@tessera.jit
def k134(X):
    h = tl.histogram(tl.arange(0, 4), 4, mask=tl.arange(0, 8) < 2)

# E135: sema.py:[[@LINE+5]]:9: error: tl.gather needs a source and an index tile of one rank, found tile<4xf32> and tile<2x2xi32>
# E135-NEXT: {{^}}    y = tl.gather(tl.arange(0, 4).to(tl.float32), tl.arange(0, 4).reshape(2, 2), 0)
# E135-NEXT: {{^}}        ^
@tessera.jit
def k135(X):
    y = tl.gather(tl.arange(0, 4).to(tl.float32), tl.arange(0, 4).reshape(2, 2), 0)

# E136: sema.py:[[@LINE+5]]:9: error: tl.gather's index must be integers, found tile<4xf32>
# E136-NEXT: {{^}}    y = tl.gather(tl.arange(0, 4), tl.arange(0, 4).to(tl.float32), 0)
# E136-NEXT: {{^}}        ^
@tessera.jit
def k136(X):
    y = tl.gather(tl.arange(0, 4), tl.arange(0, 4).to(tl.float32), 0)

# E137: sema.py:[[@LINE+5]]:9: error: tl.gather needs numbers to gather, found tile<4xi1>
# E137-NEXT: {{^}}    y = tl.gather(tl.arange(0, 4) < 2, tl.arange(0, 4), 0)
# E137-NEXT: {{^}}        ^
@tessera.jit
def k137(X):
    y = tl.gather(tl.arange(0, 4) < 2, tl.arange(0, 4), 0)

# E138: sema.py:[[@LINE+5]]:9: error: tl.gather: axis 1 is out of range for tiles of rank 1
# E138-NEXT: {{^}}    y = tl.gather(tl.arange(0, 4), tl.arange(0, 4), 1)
# E138-NEXT: {{^}}        ^
@tessera.jit
def k138(X):
    y = tl.gather(tl.arange(0, 4), tl.arange(0, 4), 1)

# E139: sema.py:[[@LINE+5]]:9: error: tl.gather: the index tile<2x2xi32> and the source tile<2x4xi32> differ in dim 1 (only the gathered axis may)
# E139-NEXT: {{^}}    y = tl.gather(tl.arange(0, 8).reshape(2, 4), tl.arange(0, 4).reshape(2, 2), 0)
# E139-NEXT: {{^}}        ^
@tessera.jit
def k139(X):
    y = tl.gather(tl.arange(0, 8).reshape(2, 4), tl.arange(0, 4).reshape(2, 2), 0)

# E140: sema.py:[[@LINE+5]]:9: error: tl.gather: axis -1 is out of range for tiles of rank 1
# E140-NEXT: {{^}}    y = tl.gather(tl.arange(0, 2048), tl.arange(0, 2048), -2)
# E140-NEXT: {{^}}        ^
@tessera.jit
def k140(X):
    y = tl.gather(tl.arange(0, 2048), tl.arange(0, 2048), -2)

# E141: sema.py:[[@LINE+5]]:9: error: reduce_or needs integers
# E141-NEXT: {{^}}    y = tl.reduce_or(tl.load(X + tl.arange(0, 4)), 0)
# E141-NEXT: {{^}}        ^
@tessera.jit
def k141(X):
    y = tl.reduce_or(tl.load(X + tl.arange(0, 4)), 0)
