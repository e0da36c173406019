"""Triton's error classes (triton.errors, triton.runtime.errors) over
Tessera's: TritonError is TesseraError, so `except triton.TritonError`
catches every error Tessera raises; the classes Triton adds take a message,
as Triton's do.

Layer 4, api (python/tessera/__init__.py lists the layers)."""

from .. import _C

TritonError = _C.TesseraError
OutOfResources = _C.OutOfResources
CompilationError = _C.CompilationError
CompileTimeAssertionFailure = _C.CompileTimeAssertionFailure
UnsupportedLanguageConstruct = _C.UnsupportedLanguageConstruct


class PTXASError(_C.TesseraError):
    """ptxas refused a kernel (Triton's, worded as Triton's: "PTXAS error: "
    and the message; Tessera reports ptxas's failures as CompilationError,
    which this does not replace)."""

    def __init__(self, message=""):
        super().__init__(_C.ERROR_COMPILATION, "PTXAS error: " + (message or ""))
        self.error_message = message


from ..autotune import AutotunerError  # noqa: E402,F401  (raised by the autotuner, below this layer)


# An error in a kernel run by the interpreter (Triton's).
from ..interpreter import InterpreterError  # noqa: E402,F401  (the interpreter's own)
