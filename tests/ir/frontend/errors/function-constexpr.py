# Functions passed as tl.constexpr arguments: by their module path, or by
# their name in the kernel's module; a name that is not there is an error.
# RUN: tessera compile %s --entry apply --signature "*fp32" -D F=triton.language.sigmoid 2>&1 | FileCheck %s --check-prefix=PATH
# RUN: tessera compile %s --entry apply --signature "*fp32" -D F=twice 2>&1 | FileCheck %s --check-prefix=LOCAL
# RUN: not tessera compile %s --entry apply --signature "*fp32" -D F=nosuch 2>&1 | FileCheck %s --strict-whitespace --check-prefix=MISSING
import tessera.language as tl


def twice(x):
    return x * 2.0


# PATH: exp
# LOCAL: mul
# LOCAL-NOT: exp
# MISSING: function-constexpr.py:[[@LINE+1]]:14: error: constexpr 'nosuch' names nothing in the kernel's module
def apply(x, F: tl.constexpr):
    tl.store(x, F(tl.load(x)))
