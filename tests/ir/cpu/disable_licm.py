# RUN: tessera compile %s --entry spin --signature "*i32,*i32,i32" --target cpu --emit llvm | FileCheck %s --check-prefix=WHILE
# RUN: tessera compile %s --entry counted --signature "*i32,*i32,i32" --target cpu --emit llvm | FileCheck %s --check-prefix=FOR
# RUN: tessera compile %s --entry plain --signature "*i32,*i32,i32" --target cpu --emit llvm | FileCheck %s --check-prefix=PLAIN
# tl.condition(..., disable_licm=True) and tl.range(..., disable_licm=True):
# the loop's back edge carries llvm.licm.disable (LLVM keeps the load of a
# flag another program writes inside the loop); without it, no such metadata.
# WHILE: !{!"llvm.licm.disable"}
# FOR: !{!"llvm.licm.disable"}
# PLAIN-NOT: llvm.licm.disable
import tessera.language as tl


def spin(flag, out, n):
    i = 0
    while tl.condition(tl.load(flag) < n, disable_licm=True):
        i = i + 1
        tl.store(out, i)


def counted(flag, out, n):
    for i in tl.range(0, n, disable_licm=True):
        tl.store(out, tl.load(flag) + i)


def plain(flag, out, n):
    i = 0
    while tl.condition(tl.load(flag) < n):
        i = i + 1
        tl.store(out, i)
