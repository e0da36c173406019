# RUN: tessera compile %s --entry fold --signature "*i32,*i32,i32,i32,i32" -D UNROLL=3 --target nvptx --arch sm_80 --emit asm | FileCheck %s --check-prefix=THREE
# RUN: tessera compile %s --entry fold --signature "*i32,*i32,i32,i32,i32" -D UNROLL=1 --target nvptx --arch sm_80 --emit asm | FileCheck %s --check-prefix=ONE
#
# tl.range's loop_unroll_factor: a loop of that many copies of the body
# (each its own load) while that many iterations remain, then a loop of
# one copy for the rest.
# THREE: [[GROUP:\$L__BB0_[0-9]+]]:
# THREE-COUNT-3: ld.global.u32
# THREE-NOT: ld.global
# THREE: bra {{.*}}[[GROUP]];
# THREE: ld.global.u32
# THREE-NOT: ld.global
# THREE: bra
# THREE: ret;
# ONE: ld.global.u32
# ONE-NOT: ld.global
import tessera.language as tl


def fold(x_ptr, out_ptr, lb, ub, step, UNROLL: tl.constexpr):
    h = 7
    for i in tl.range(lb, ub, step, loop_unroll_factor=UNROLL):
        h = (h * 31 + tl.load(x_ptr + i)) % 1000003
    tl.store(out_ptr, h)
