"""Extern functions in the interpreter (Triton's interpreter has none): an
extern function's body runs on the interpreter's values with the semantic
here, and each core.extern_elementwise computes Tessera's version of the
library function it names (language/_device_library.py: libdevice.<name>,
as compiled kernels on targets without the library do).

Layer 2, compile (python/tessera/__init__.py lists the layers)."""

import numpy as np

from .. import language as tl
from ..language import _device_library, _stubs
from ._values import InterpreterError, Tensor, cast, operands, to_tensor


class _Builder:
    @staticmethod
    def create_extern_elementwise(lib_name, lib_path, symbol, args, ret_type, is_pure):
        element = ret_type.scalar
        function = _device_library.lookup(symbol, [a.dtype for a in args], element)
        if function is None:
            raise InterpreterError("core.extern_elementwise calls %s, which the interpreter cannot run: Tessera has "
                                   "no version of it of its own%s" % (
                                       symbol, " (lib_path %r is not loaded)" % lib_path if lib_path else ""))
        args = [cast(a, p) for a, p in zip(args, function.params)]
        result = to_tensor(_stubs.INTERPRETER[0]("extra.libdevice." + function.name, args, {}))
        result = cast(result, element)
        shape = tuple(ret_type.shape) if ret_type.is_block() else ()
        if result.shape != shape:
            result = Tensor(np.broadcast_to(result.data, shape), element)
        return result


class ExternSemantic:
    """The `_semantic` of an extern function's body in the interpreter."""

    builder = _Builder()

    @staticmethod
    def to_tensor(x, check_type=True):
        return to_tensor(x)

    @staticmethod
    def binary_op_type_checking_impl(lhs, rhs, allow_lhs_ptr=False, allow_rhs_ptr=False, arithmetic_check=True,
                                     div_or_mod=False):
        return operands(lhs, rhs, div_or_mod=div_or_mod, arithmetic=arithmetic_check)


SEMANTIC = ExternSemantic()


def call(fn, *args, **kwargs):
    """A kernel's call of extern function `fn` (language/_extern.py's
    ExternFunction, without `_semantic`) while interpreting. Values other
    than tiles reach the body as tl.constexpr, as they do when it compiles
    (and in Triton)."""
    wrap = (lambda v: v if isinstance(v, (Tensor, tl.constexpr)) else tl.constexpr(v))
    return fn(*[wrap(a) for a in args], _semantic=SEMANTIC, **{k: wrap(v) for k, v in kwargs.items()})
