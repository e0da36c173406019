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


class _MessageError(_C.TesseraError):
    _status = _C.ERROR_INVALID_ARGUMENT

    def __init__(self, message=""):
        super().__init__(self._status, message)
        self.error_message = message


class PTXASError(_MessageError):
    """ptxas refused a kernel (Triton's; Tessera reports ptxas's failures as
    CompilationError, which this does not replace)."""
    _status = _C.ERROR_COMPILATION


class AutotunerError(_MessageError):
    """An autotuner misuse (Triton's)."""


# An error in a kernel run by the interpreter (Triton's).
from ..interpreter import InterpreterError  # noqa: E402,F401  (the interpreter's own)
