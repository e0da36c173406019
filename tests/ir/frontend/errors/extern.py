# RUN: not tessera compile %s --entry extern_cli --signature "*fp32" -D "fast_exp=extern_function:m.fast_exp@0" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=EXTERN_CLI
# An extern function (Triton's @core.extern) runs its body in Python while the
# kernel compiles (the C API's constexpr_call): the CLI has no Python. Its
# other errors come from Python: tests/python/test_extern_elementwise.py.
import tessera.language as tl


# EXTERN_CLI: extern.py:[[@LINE+5]]:24: error: extern function m.fast_exp cannot be called here: no Python to run it
# EXTERN_CLI-NEXT: {{^}}    tl.store(x + offs, fast_exp(tl.load(x + offs)))
# EXTERN_CLI-NEXT: {{^}}                       ^
def extern_cli(x):
    offs = tl.arange(0, 16)
    tl.store(x + offs, fast_exp(tl.load(x + offs)))
