"""Triton's extern functions (triton.language.core's extern,
extern_elementwise, dispatch and binary_op_type_legalization): how libraries
give kernels functions of a device library, choosing the library function by
the types of the arguments.

    @core.extern
    def fast_exp(x, _semantic=None):
        return core.extern_elementwise("", "", [x], {
            (core.dtype("fp32"),): ("__nv_expf", core.dtype("fp32")),
            (core.dtype("fp64"),): ("__nv_exp", core.dtype("fp64")),
        }, is_pure=True, _semantic=_semantic)

An extern function's body is Python, run with a `_semantic`: the object that
knows what the arguments are. While a kernel compiles, the frontend runs the
body with stand-ins of the arguments (python/tessera/_extern.py), whose
semantic records the library calls for the frontend to emit; in the
interpreter the arguments are values and the semantic computes
(interpreter/_extern.py). This module holds what both share: the decorator,
Triton's dispatch rules and its order of broadcasting.

Layer 0, binding (python/tessera/__init__.py lists the layers)."""

import functools
import hashlib
import inspect
import re
import textwrap

from . import _stubs, _types

_FUNCTIONS = {}  # id in the module text -> ExternFunction

_NO_SEMANTIC = ("Did you forget to add @triton.jit ? "
                "(`_semantic` argument must be provided outside of JIT functions.)")


def from_def(text):
    """A function's source from its `def` line: without its decorators."""
    found = re.search(r"^(async\s+)?def\s+\w+\s*\(", text, re.MULTILINE)
    return text[found.start():] if found else text


def compile_time_identity(fn, source=None):
    """(source from its def line, sha256 of it, "module.qualname@sha16"):
    how the frontend names a Python function that kernels call at compile
    time (extern and constexpr functions), so that editing it changes the
    kernels' cache key. `source`: its text where inspect cannot read it (a
    replaced source)."""
    try:
        source = from_def(textwrap.dedent(source if source is not None else inspect.getsource(fn)))
    except (OSError, TypeError):
        code = getattr(fn, "__code__", None)  # None: a builtin (math.log2), named by its module
        source = fn.__qualname__ + (repr(code.co_code) + repr(code.co_consts) if code else "@" + str(fn.__module__))
    key = hashlib.sha256(source.encode("utf-8")).hexdigest()
    return source, key, "%s.%s@%s" % (fn.__module__, fn.__qualname__, key[:16])


class ExternFunction:
    """A function of a device library as kernels call it (``@core.extern``,
    Triton's extern): a builtin whose body picks the library function for
    its arguments' types with core.extern_elementwise. Kernels call it
    without `_semantic`, which the compiler (or the interpreter) provides;
    other extern functions pass theirs on. Editing the function changes the
    kernels' cache key."""

    def __init__(self, fn):
        self.fn = fn
        functools.update_wrapper(self, fn)
        _, self.cache_key, function_id = compile_time_identity(fn)
        # The frontend names it by this id (constexpr text "extern_function:<id>").
        self._tessera_extern_function_id = function_id
        setattr(self, _stubs.TRITON_BUILTIN, True)
        _FUNCTIONS[self._tessera_extern_function_id] = self

    def __call__(self, *args, _semantic=None, **kwargs):
        if _semantic is None:
            interpret = _stubs.INTERPRETER[0]
            if interpret is None:
                raise ValueError(_NO_SEMANTIC)
            return interpret("core.extern", (self.fn,) + args, kwargs)  # the interpreter's semantic
        return self.fn(*args, _semantic=_semantic, **kwargs)

    def __repr__(self):
        return "ExternFunction(%s)" % self.fn.__qualname__


def extern(fn):
    """Marks `fn` as an extern function (Triton's @core.extern): kernels
    call it as a builtin, and its body (taking `_semantic`) returns what
    core.extern_elementwise gives."""
    if not callable(fn):
        raise TypeError("extern() takes a function, not %r" % (fn,))
    return ExternFunction(fn)


def extern_function(function_id):
    """The extern function the frontend names `function_id`, or None."""
    return _FUNCTIONS.get(function_id)


def _is_value(x):
    return isinstance(x, _types.base_value) and not isinstance(x, _types.constexpr_base)


def _tuple_text(types):
    """A tuple of dtypes (or Python types) as Python writes it, by name: "(fp32,)"."""
    names = [t.__name__ if isinstance(t, type) else str(t) for t in types]
    return "(%s)" % (names[0] + "," if len(names) == 1 else ", ".join(names))


def _check_table(arg_types, arg_type_symbol_dict):
    """Triton's dispatch rule: the table holds the tuple of the arguments'
    dtypes exactly (no promotion); else a ValueError naming both."""
    if not arg_type_symbol_dict:
        raise ValueError("arg_type_symbol_dict is empty")
    count = len(next(iter(arg_type_symbol_dict)))
    if len(arg_types) != count:
        raise ValueError("length of input args does not match: the table's signatures take %d, got %d"
                         % (count, len(arg_types)))
    if arg_types not in arg_type_symbol_dict:
        raise ValueError("input arg type does not match: got %s; expect one of %s" % (
            _tuple_text(arg_types),
            ", ".join("%s -> %s" % (_tuple_text(k), v[0]) for k, v in arg_type_symbol_dict.items())))
    return arg_type_symbol_dict[arg_types]


def dispatch(func, lib_name, lib_path, args, arg_type_symbol_dict, ret_type, is_pure, _semantic=None):
    """Triton's dispatch: the symbol the table gives for the arguments'
    dtypes (a Python value counts as its type), then
    func(lib_name, lib_path, symbol, args, ret_type, is_pure), the
    semantic's builder's create_extern_elementwise, makes the call."""
    arg_types = tuple(a.dtype if _is_value(a) else type(a) for a in args)
    symbol = _check_table(arg_types, arg_type_symbol_dict)[0]
    return func(lib_name, lib_path, symbol, list(args), ret_type, is_pure)


def extern_elementwise(lib_name, lib_path, args, arg_type_symbol_dict, is_pure, _semantic=None):
    """Calls, element by element, the library function that
    `arg_type_symbol_dict` ({(dtype, ...): (symbol, result dtype)}) gives
    for the dtypes of `args` (Python numbers become tensors first, as
    tl.to_tensor makes them). The arguments broadcast to one shape; their
    dtypes are not promoted (core.binary_op_type_legalization does that),
    so the table must hold their tuple exactly. `lib_name` and `lib_path`
    are kept; as in Triton 3.6, what links the function is the target's
    device library, not `lib_path`. `is_pure`: the call may be merged,
    moved or removed."""
    if _semantic is None:
        raise ValueError(_NO_SEMANTIC)
    values = [_semantic.to_tensor(a) for a in args]
    arg_types = tuple(v.dtype for v in values)
    ret_type = _check_table(arg_types, arg_type_symbol_dict)[1]
    if values:
        # Every argument against the broadcast of those before it, then each
        # to the final shape (Triton's order, whose errors name these pairs).
        broadcast = values[0]
        for v in values:
            _, broadcast = _semantic.binary_op_type_checking_impl(v, broadcast, arithmetic_check=False)
        values = [_semantic.binary_op_type_checking_impl(v, broadcast, arithmetic_check=False)[0] for v in values]
        if broadcast.type.is_block():
            ret_type = broadcast.type.with_element_ty(ret_type)
    return dispatch(_semantic.builder.create_extern_elementwise, lib_name, lib_path, values, arg_type_symbol_dict,
                    ret_type, is_pure, _semantic=_semantic)


setattr(extern_elementwise, _stubs.TRITON_BUILTIN, True)


def binary_op_type_legalization(lhs, rhs, semantic):
    """Both operands in their common type (Triton's promotion rules, those
    of `+`) and broadcast to one shape: what an extern function calls before
    extern_elementwise for arguments of different types."""
    if semantic is None:
        raise ValueError(_NO_SEMANTIC)
    return semantic.binary_op_type_checking_impl(lhs, rhs)
