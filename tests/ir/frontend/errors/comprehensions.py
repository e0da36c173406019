# RUN: not tessera compile %s --entry k --signature "i32" -D KIND=0 2>&1 | FileCheck %s --check-prefix=RUNTIME-RANGE
# RUN: not tessera compile %s --entry k --signature "i32" -D KIND=1 2>&1 | FileCheck %s --check-prefix=CONDITION
# RUN: not tessera compile %s --entry k --signature "i32" -D KIND=2 2>&1 | FileCheck %s --check-prefix=ITERABLE
# RUN: not tessera compile %s --entry k --signature "i32" -D KIND=3 2>&1 | FileCheck %s --check-prefix=ARGS
# RUN: not tessera compile %s --entry k --signature "i32" -D KIND=4 2>&1 | FileCheck %s --check-prefix=STEP
# RUN: not tessera compile %s --entry k --signature "i32" -D KIND=5 2>&1 | FileCheck %s --check-prefix=LARGE
# RUN: not tessera compile %s --entry k --signature "i32" -D KIND=6 2>&1 | FileCheck %s --check-prefix=LARGE-RANGE
# RUN: not tessera compile %s --entry k --signature "i32" -D KIND=7 2>&1 | FileCheck %s --check-prefix=ENUMERATE
# RUN: not tessera compile %s --entry k --signature "i32" -D KIND=8 2>&1 | FileCheck %s --check-prefix=ZIP
# RUN: not tessera compile %s --entry k --signature "i32" -D KIND=9 2>&1 | FileCheck %s --check-prefix=ZIP-KEYWORD
# A comprehension unrolls while compiling: it iterates over a tuple or a
# range with compile-time bounds and filters on compile-time conditions.
import tessera.language as tl


def k(n, KIND: tl.constexpr):
    if KIND == 0:
        t = [i for i in range(n)]
# RUNTIME-RANGE: comprehensions.py:[[@LINE-1]]:25: error: a comprehension's range needs compile-time integer bounds, found tensor of type i32
    elif KIND == 1:
        t = [i for i in (1, 2) if i < n]
# CONDITION: comprehensions.py:[[@LINE-1]]:35: error: a comprehension's condition must be known while compiling, this one is tensor of type i1
    elif KIND == 2:
        t = [i for i in n]
# ITERABLE: comprehensions.py:[[@LINE-1]]:25: error: a comprehension in a kernel iterates over a tuple or a range with compile-time bounds, not tensor of type i32
    elif KIND == 3:
        t = [i for i in range(0, 4, step=2)]
# ARGS: comprehensions.py:[[@LINE-1]]:25: error: range in a comprehension takes 1 to 3 positional arguments
    elif KIND == 4:
        t = [i for i in range(0, 4, 0)]
# STEP: comprehensions.py:[[@LINE-1]]:25: error: range step must not be zero
    elif KIND == 5:
        t = [i * j for i in range(100) for j in range(100)]
# LARGE: comprehensions.py:[[@LINE-1]]:13: error: a comprehension unrolls at most 4096 elements
    elif KIND == 6:
        t = [i for i in range(5000)]
# LARGE-RANGE: comprehensions.py:[[@LINE-1]]:25: error: a comprehension unrolls at most 4096 elements
    elif KIND == 7:
        t = [i for i, v in enumerate(n)]
# ENUMERATE: comprehensions.py:[[@LINE-1]]:28: error: enumerate() in a kernel takes a tuple, not tensor of type i32
    elif KIND == 8:
        t = [a + b for a, b in zip((1, 2), n)]
# ZIP: comprehensions.py:[[@LINE-1]]:32: error: zip() in a kernel takes tuples, not tensor of type i32
    else:
        t = [a + b for a, b in zip((1, 2), (3, 4), strict=True)]
# ZIP-KEYWORD: comprehensions.py:[[@LINE-1]]:32: error: zip() in a kernel takes no keyword arguments

