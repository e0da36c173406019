"""Running a kernel's Python function over its grid, one program at a time.

The function runs as written, in its own file and lines (tracebacks, print,
breakpoint() and pdb show the kernel's source), with three changes made the
way the compiler sees the code: a plain assignment of a Python number makes
a scalar tile (`acc = 0` is an int32 tile, as compiled; `X: tl.constexpr = 0`
stays a number), Python's min/max/range inside the kernel are the
language's, and the language's builtins (stubs outside kernels) run their
numpy implementations. Calls to other @jit functions run their Python
functions the same way.

Layer 2, compile (python/tessera/__init__.py lists the layers)."""

import ast
import builtins
import inspect
import linecache
import textwrap
import threading

import numpy as np

from .. import _C, _python_ast
from .. import _source
from .._specialize import int_type, python_scalar
from .. import language as tl
from ..language import _stubs
from . import _builtins, _memory
from ._values import InterpreterError, Tensor, constant_dtype, hooks, is_constant, scalar, tl_dtype, unwrap

_lock = threading.RLock()


# ---- source rewriting

class _AssignConstants(ast.NodeTransformer):
    """x = <expr>  ->  x = __tessera_tile__(<expr>): constants become tiles;
    `not`, `and` and `or` act elementwise on tiles, as compiled."""

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        if isinstance(node.op, ast.Not):
            return ast.Call(func=ast.Name(id="__tessera_not__", ctx=ast.Load()), args=[node.operand], keywords=[])
        return node

    def visit_BoolOp(self, node):
        self.generic_visit(node)
        name = "__tessera_and__" if isinstance(node.op, ast.And) else "__tessera_or__"
        out = node.values[0]
        for value in node.values[1:]:  # later operands stay lazy, as Python's
            later = ast.Lambda(args=ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[],
                                                  defaults=[]), body=value)
            out = ast.Call(func=ast.Name(id=name, ctx=ast.Load()), args=[out, later], keywords=[])
        return out

    def visit_Assign(self, node):
        self.generic_visit(node)
        node.value = ast.Call(func=ast.Name(id="__tessera_tile__", ctx=ast.Load()), args=[node.value], keywords=[])
        return node

    def visit_FunctionDef(self, node):
        node.decorator_list = []
        self.generic_visit(node)
        return node


def _tile_of_constant(value):
    if is_constant(value) and not isinstance(value, tl.constexpr):
        return scalar(value, constant_dtype(value))
    return value


def _is_tile(x):
    return isinstance(x, Tensor) and len(x.shape) > 0


def _not(x):
    if isinstance(x, Tensor):
        return Tensor(~x.data.astype(bool), tl.int1)
    return not x


def _and(x, later):
    if _is_tile(x):
        return _builtins.logical("and", x, later())
    return later() if x else x


def _or(x, later):
    if _is_tile(x):
        return _builtins.logical("or", x, later())
    return x if x else later()


_BUILTINS = dict(builtins.__dict__, min=_builtins.py_min, max=_builtins.py_max, range=_builtins.loop_range)


def _namespace(globals_, closure_names=(), closure=None):
    ns = dict(globals_)
    for name, cell in zip(closure_names, closure or ()):
        try:
            ns[name] = cell.cell_contents
        except ValueError:  # an empty cell (a name assigned after the function was made)
            pass
    ns["__builtins__"] = _BUILTINS
    ns["__tessera_tile__"] = _tile_of_constant
    ns["__tessera_not__"], ns["__tessera_and__"], ns["__tessera_or__"] = _not, _and, _or
    return ns


_compiled = {}  # function -> code object of its rewritten definition


def _rewritten_code(fn):
    code = _compiled.get(fn)
    if code is None:
        try:
            lines, first = _source._source_lines(fn)  # the text kept at decoration
            filename = inspect.getsourcefile(fn) or fn.__code__.co_filename
        except (OSError, TypeError):
            _compiled[fn] = False  # no source: run it unchanged
            return False
        text = textwrap.dedent("".join(lines))
        tree = _AssignConstants().visit(_python_ast.parse(text))
        ast.fix_missing_locations(tree)
        ast.increment_lineno(tree, first - 1)
        code = _compiled[fn] = compile(tree, filename, "exec")
    return code


_bound = {}  # function -> its interpretable version, for the launch running


def interpretable(fn):
    """fn's function, rewritten and bound to a copy of its globals made
    once per launch (a launch sees the globals as they are when it starts)."""
    out = _bound.get(fn)
    if out is None:
        code = _rewritten_code(fn)
        if code is False:
            out = fn
        else:
            ns = _namespace(fn.__globals__, fn.__code__.co_freevars, fn.__closure__)
            exec(code, ns)
            out = ns[fn.__name__]
        _bound[fn] = out
    return out


# ---- the prelude: the language's functions written in the language

_prelude = {}
_PRELUDE = "tessera.interpreter.prelude"


def prelude():
    if not _prelude:
        text = _C.prelude_source()
        tree = _AssignConstants().visit(_python_ast.parse(text))
        ast.fix_missing_locations(tree)
        filename = "<tessera prelude>"
        linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
        ns = _namespace({"__name__": _PRELUDE})
        exec(compile(tree, filename, "exec"), ns)
        _prelude.update(ns)
    return _prelude


def prelude_function(name):
    """The prelude's function `name` (its definitions run without their
    @jit, already rewritten), or None."""
    fn = prelude().get(name)
    return fn if callable(fn) and getattr(fn, "__module__", None) == _PRELUDE else None


def call_function(fn, args, kwargs):
    """A call inside a kernel: @jit functions (and the prelude's) run
    interpreted; anything else is called as it is."""
    inner = getattr(fn, "fn", None)
    if getattr(fn, "__tessera_wrapper__", False) and inner is not None:
        return interpretable(inner)(*args, **kwargs)
    return fn(*args, **kwargs)


def dispatch(name, args, kwargs):
    """A builtin's stub called while interpreting: its implementation."""
    impl = _builtins.TABLE.get(name)
    if impl is not None:
        return impl(*args, **kwargs)
    short = name.rsplit(".", 1)[-1]
    fn = (prelude_function("libdevice_" + short) if name.startswith("extra.") else None) or prelude_function(short)
    if fn is None:
        raise InterpreterError("tl.%s is not available in the interpreter" % name)
    return fn(*args, **kwargs)


# ---- arguments

class _Launch:
    """One launch's host memory: arguments as interpreter values, and the
    device memory copied to the host to be copied back after."""

    def __init__(self):
        self.memory = _memory.Memory()
        self.copy_back = []   # (device storage, host storage)
        self._storages = {}   # device storage address -> host storage

    def pointer(self, address, dt):
        return Tensor(np.array(address, dtype=np.uint64), tl.pointer_type(dt))

    def convert(self, value):
        value = unwrap(value)
        if value is None or isinstance(value, (str, tl.dtype)):
            return value
        value = python_scalar(value)  # a numpy scalar is the number it holds, as in a compiled launch
        if isinstance(value, bool):
            return scalar(value, tl.int1)
        if isinstance(value, int):
            kind = int_type(value)  # the type a compiled launch gives it
            if kind is None:
                raise OverflowError("integer argument %d does not fit in 64 bits" % value)
            return scalar(value, tl.dtype._named(kind))
        if isinstance(value, float):
            return scalar(value, tl.float32)
        if isinstance(value, tuple):
            items = [self.convert(v) for v in value]
            return type(value)(*items) if hasattr(type(value), "_fields") else tuple(items)  # a namedtuple keeps its fields
        if isinstance(value, np.ndarray):
            return self._host_array(value, value, tl_dtype(value.dtype))
        if hasattr(value, "block_shape") and hasattr(value, "base") and hasattr(value, "strides"):
            base = self.convert(value.base)
            return _memory.TensorDescriptor(base, value.shape, value.strides, value.block_shape,
                                            getattr(value, "padding", "zero"))
        if hasattr(value, "data_ptr") and hasattr(value, "dtype"):
            return self._torch(value)
        if hasattr(value, "numpy") and hasattr(value, "dtype"):  # a tessera Array
            return self._tessera_array(value)
        return value

    def _host_array(self, array, owner, dt):
        lo, hi = _extent(array.ctypes.data, array.shape, array.strides, array.itemsize)
        self.memory.add(lo, hi - lo, owner)
        return self.pointer(array.ctypes.data, dt)

    def _torch(self, t):
        base = getattr(t, "base", None)
        wrapper_dtype = None
        if base is not None and hasattr(base, "data_ptr") and type(t).__name__ == "TensorWrapper":
            wrapper_dtype, t = t.dtype, base
        dt = wrapper_dtype if isinstance(wrapper_dtype, tl.dtype) else tl_dtype(t.dtype)
        if str(getattr(t, "device", "cpu")) == "cpu":
            size = t.element_size()
            lo, hi = _extent(t.data_ptr(), tuple(t.shape), tuple(s * size for s in t.stride()), size)
            self.memory.add(lo, hi - lo, t)
            return self.pointer(t.data_ptr(), dt)
        storage = t.untyped_storage()
        key = storage.data_ptr()
        host = self._storages.get(key)
        if host is None:
            host = self._storages[key] = storage.cpu()
            self.memory.add(host.data_ptr(), host.nbytes(), host)
            self.copy_back.append((storage, host))
        return self.pointer(host.data_ptr() + (t.data_ptr() - key), dt)

    def _tessera_array(self, a):
        host = a.numpy()
        self.copy_back.append((a, host))
        return self._host_array(host, host, tl_dtype(host.dtype))

    def finish(self):
        for device, host in self.copy_back:
            if hasattr(device, "copy_"):
                device.copy_(host)
            elif hasattr(device, "copy_from_numpy"):
                device.copy_from_numpy(host)
            else:
                raise InterpreterError("cannot copy the interpreter's results back to %r" % (device,))


def _extent(address, shape, strides, itemsize):
    if not all(shape):
        return address, address
    lo = address + sum((n - 1) * s for n, s in zip(shape, strides) if s < 0)
    hi = address + sum((n - 1) * s for n, s in zip(shape, strides) if s > 0) + itemsize
    return lo, hi


# ---- launching

def launch(jit_fn, grid, args, kwargs):
    """Runs jit_fn's Python function for every program of the grid."""
    kwargs = {k: v for k, v in kwargs.items() if k in jit_fn.arg_names or not _is_launch_option(k)}
    bound = jit_fn.signature.bind(*args, **kwargs)
    bound.apply_defaults()
    meta = {name: unwrap(v) for name, v in bound.arguments.items()}
    grid = grid(meta) if callable(grid) else grid
    grid = tuple(int(unwrap(g)) for g in (grid if isinstance(grid, (tuple, list)) else (grid,)))
    if len(grid) > 3 or not grid:
        raise ValueError("a grid has 1 to 3 dimensions, not %d" % len(grid))
    grid = grid + (1,) * (3 - len(grid))
    with _lock:
        state = _Launch()
        constexprs = jit_fn.constexpr_names
        call = {name: (python_scalar(unwrap(v)) if name in constexprs else state.convert(v)) for name, v in meta.items()}
        previous = (_stubs.INTERPRETER[0], _memory.current[0], _builtins.Program.pid, _builtins.Program.grid)
        _stubs.INTERPRETER[0] = dispatch
        _memory.current[0] = state.memory
        _builtins.Program.grid = grid
        _bound.clear()
        try:
            fn = interpretable(jit_fn.fn)
            with np.errstate(all="ignore"):
                for z in range(grid[2]):
                    for y in range(grid[1]):
                        for x in range(grid[0]):
                            _builtins.Program.pid = (x, y, z)
                            try:
                                fn(**call)
                            except Exception as e:
                                if not getattr(e, "_tessera_noted", False):
                                    e.add_note("(in program (%d, %d, %d) of %s, run by the interpreter)"
                                               % (x, y, z, jit_fn.__name__))
                                    e._tessera_noted = True
                                raise
        finally:
            _stubs.INTERPRETER[0], _memory.current[0], _builtins.Program.pid, _builtins.Program.grid = previous
            state.finish()


def _is_launch_option(name):
    return name in ("num_warps", "num_stages", "num_ctas", "maxnreg", "enable_fp_fusion", "debug",
                    "enable_reflect_ftz", "launch_cooperative_grid", "launch_pdl", "stream", "warmup")


hooks.update(call_function=call_function, prelude_function=prelude_function)


def call_jit(jit_fn, args, kwargs):
    """A @jit function called from an interpreted kernel."""
    return call_function(jit_fn, args, kwargs)
