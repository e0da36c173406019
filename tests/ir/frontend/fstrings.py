# RUN: tessera compile %s --entry k --signature "*fp32" -D N=12 -D F=2.5 -D FLAG=True 2>&1 | FileCheck %s --strict-whitespace
# f-strings format compile-time values as Python does (str, repr, format
# specs); tl.static_print prints them at compile time (to stderr, before the
# IR), tl.device_print takes one as its prefix and tl.device_assert as its
# message. The expected lines are Python's own output for the same values.
import tessera
import tessera.language as tl

NAME = "blk"
BIG = 1234567
TINY = -0.04
WIDTH = 8
PREC = 2

# CHECK: {{^}}N is 12
# CHECK-NEXT: {{^}}   12|12  |'blk'|'blk'|blk
# CHECK-NEXT: {{^}}00001100|0xc|0XC|14|-0012|  12   |12****|+   12
# CHECK-NEXT: {{^}}1,234,567|1_234_567|12_d687|0,001,234,567|1.234567e+06|123456700.00%
# CHECK-NEXT: {{^}}2.5|2.500|2.500000e+00|2.50E+00|2.5|250.000000%|       2.5|+2.5|0.1|1e-05|1e+16|0.3333333333333333|1.1805916207174113e+21
# CHECK-NEXT: {{^}}-0.04|-0.0|0.0|-0.0|   inf|nan
# CHECK-NEXT: {{^}}True|1|False|None|(12, 2.5, 'blk')|(12,)|()
# CHECK-NEXT: {{^}}N=12| N + 1 = 13|F=2.5|NAME=blk
# CHECK-NEXT: {{^}}      12|    2.50|{literal}|nested 24
# CHECK-NEXT: {{^}}\d12\nplain12{not a field}
# CHECK-NEXT: {{^}}fp32|tl.float16|fp32|pointer<fp32>
# CHECK-LABEL: kernel @k(%X: ptr<f32>) {
# CHECK: print %x {prefix = " x (N=12, F=2.50): "}
# CHECK: assert %{{[0-9]+}} {message = "x must stay below 12 (4 values of fp32)"}


@tessera.jit
def k(X, N: tl.constexpr, F: tl.constexpr, FLAG: tl.constexpr):
    tl.static_print(f"N is {N}")
    tl.static_print(f"{N!r:>5}|{N!s:<4}|{NAME!r}|{NAME!a}|{NAME}")
    tl.static_print(f"{N:08b}|{N:#x}|{N:#X}|{N:o}|{-N:+05d}|{N:^7}|{N:*<6}|{N:=+6}")
    tl.static_print(f"{BIG:,}|{BIG:_}|{BIG:_x}|{BIG:012,}|{BIG:e}|{BIG:.2%}")
    tl.static_print(f"{F}|{F:.3f}|{F:e}|{F:.2E}|{F:g}|{F:%}|{F:10.4}|{F:+}|{0.1}|{1e-05}|{1e16}|{1/3}|{2.0**70}")
    tl.static_print(f"{TINY}|{TINY:.1f}|{TINY:z.1f}|{-0.0}|{float('inf'):>6}|{float('nan')}")
    tl.static_print(f"{FLAG}|{FLAG:d}|{not FLAG}|{None}|{(N, F, NAME)}|{(N,)}|{()}")
    tl.static_print(f"{N=}|{ N + 1 = }|{F=:.1f}|{NAME=!s}")
    tl.static_print(f"{N:{WIDTH}}|{F:>{WIDTH}.{PREC}f}|{{literal}}|{'nested ' f'{N * 2}'}")
    tl.static_print(rf"\d{N}\n" "plain" f"{N}" '{not a field}')
    tl.static_print(f"{tl.float32}|{tl.float16!r}|{X.dtype.element_ty}|{X.dtype}")
    x = tl.load(X + tl.arange(0, 4))
    tl.static_assert(N > 0, f"N={N} must be positive")
    tl.device_print(f"x (N={N}, F={F:.2f}): ", x)
    tl.device_assert(x < N, f"x must stay below {N} ({x.shape[0]} values of {x.dtype})")
