"""ast.parse for threads: CPython 3.11 and 3.12 convert a parse tree to
Python objects with one recursion counter per interpreter, so two threads
parsing at once can fail with "SystemError: AST constructor recursion
depth mismatch" (seen compiling kernels in a thread pool: Triton's
AsyncCompileMode). Every parse of the package goes through one lock.

Layer 0, binding (python/tessera/__init__.py lists the layers)."""
import ast
import threading

_lock = threading.Lock()


def parse(text):
    """ast.parse(text), one thread at a time."""
    with _lock:
        return ast.parse(text)
