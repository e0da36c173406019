"""The interpreter: kernels run as Python over numpy, one program at a time,
with the tile language's semantics, so that `print` shows a tile's values
and `breakpoint()` or pdb steps through a kernel.

    TESSERA_INTERPRET=1 python app.py          # every @tessera.jit kernel
    TRITON_INTERPRET=1 python -m tessera.compat app.py
    @tessera.jit(target="interpreter")         # one kernel
    with tessera.interpreter.enabled(): ...    # the launches in a block

Arguments are read and written where they live: numpy arrays and CPU
tensors in place; tensors on a device are copied to the host before the
launch and back after it. Every memory access is checked against the
arguments' memory, and an access outside it raises InterpreterError with
the address, where a device would fault or read another buffer.

Differences from a compiled kernel (docs/differences-from-triton.md lists
them): programs run one after another, so atomics never race; dots sum
exact products (tf32 inputs are not rounded); reductions and scans combine
in order along the axis; tl.inline_asm_elementwise cannot run; libdevice's
Bessel functions need scipy.

This module holds only the switch (enabled, active), which every launch
asks; the interpreter itself and Triton's triton.runtime.interpreter names
(InterpretedFunction, GridExecutor, TensorHandle...; `_api`) load on first
use, so `import tessera` does not pay for them.

Layer 2, compile (python/tessera/__init__.py lists the layers)."""

import contextlib
import importlib
import os
import sys

__all__ = ["InterpreterError", "enabled", "active", "launch", "InterpretedFunction", "GridExecutor", "TensorHandle",
           "BlockPointerHandle", "TensorDescHandle", "InterpreterOptions", "InterpreterBuilder", "ReduceOps",
           "ScanOps", "ReduceScanOpInterface", "ExtraFunctions", "ASTTransformer", "FunctionRewriter",
           "np_erf_fp32", "np_erf_fp64", "np_umulhi_u64", "interpreter_builder", "interpreter_semantic", "T"]

_forced = [0]
# Called with True when the first enabled() block opens and False when the
# last one closes: jit.py sets it, so that kernels whose launches the fast
# lane would take (in C, past active()) go through Python meanwhile.
on_switch = [None]


@contextlib.contextmanager
def enabled():
    """A context manager: every kernel launched inside ``with
    tessera.interpreter.enabled():``, from any thread, runs in the
    interpreter; blocks may nest."""
    _forced[0] += 1
    if _forced[0] == 1 and on_switch[0] is not None:
        on_switch[0](True)
    try:
        yield
    finally:
        _forced[0] -= 1
        if _forced[0] == 0 and on_switch[0] is not None:
            on_switch[0](False)


def _on(text):
    return text is not None and text.strip().lower() in ("1", "true", "on")


def active(target=None):
    """Whether a launch of a kernel with this @jit target is interpreted:
    target "interpreter", inside enabled(), TESSERA_INTERPRET=1, or
    TRITON_INTERPRET=1 while tessera.compat stands in for Triton."""
    if target == "interpreter" or _forced[0] > 0 or _on(os.environ.get("TESSERA_INTERPRET")):
        return True
    return _on(os.environ.get("TRITON_INTERPRET")) and getattr(sys.modules.get("triton"), "__tessera_compat__", False)


def _implementation():
    return importlib.import_module("tessera.interpreter._api")


def launch(jit_fn, grid, args, kwargs):
    """Runs jit_fn's Python function for every program of the grid."""
    return _implementation().launch(jit_fn, grid, args, kwargs)


def call_jit(jit_fn, args, kwargs):
    """A @jit function called from an interpreted kernel."""
    return _implementation().call_jit(jit_fn, args, kwargs)


def __getattr__(name):
    if name in __all__ or not name.startswith("__"):
        try:
            return getattr(_implementation(), name)
        except AttributeError:
            pass
    raise AttributeError("module 'tessera.interpreter' has no attribute %r" % name)
