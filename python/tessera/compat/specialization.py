"""Triton's launch-time specialization helpers of triton.runtime.jit, which
libraries call to build their own launchers and cache keys: specialize_impl
(Triton's native_specialize_impl: an argument -> (type, key)), mangle_type,
create_function_from_signature and compute_cache_key, and
DependenciesFinder (the hash of a function's source and the @jit functions
it calls). Their results are Triton's spelling ("*fp16", "i32", "D" for 16-
divisible); Tessera's own specialization (tessera/_specialize.py) keys its
compile cache with the same facts.

Layer 4, api (python/tessera/__init__.py lists the layers)."""

import ast
import hashlib
import inspect

from .. import language as tl
from ..jit import JITFunction
from .._specialize import _dtype_name, int_type
from ..tools.tensor_descriptor import TensorDescriptor

# Element types Triton spells otherwise than Tessera's signatures (bool
# pointers are "*u1" there) or that only Triton's signatures name.
_TRITON_ONLY = {"bool": "u1", "float8_e4m3fnuz": "fp8e4b8", "float8_e5m2fnuz": "fp8e5b16"}


def _element_name(dtype):
    if isinstance(dtype, tl.dtype):
        return dtype.short
    return _TRITON_ONLY.get(str(dtype).replace("torch.", "")) or _dtype_name(dtype)


def specialize_impl(backend, arg, is_const=False, specialize=True, align=True):
    """(type, specialization key) of a launch argument, as Triton's
    native_specialize_impl gives them: ints "i32"/"i64"/"u64" with "D" when
    16 divides them ("constexpr", 1 for a specialized 1), tensors
    "*<dtype>" ("*k<dtype>" when const) with "D" when 16-byte aligned, None
    as "constexpr", tuples element by element."""
    if arg is None:
        return ("constexpr", None)
    if isinstance(arg, bool):
        return ("u1", None)
    if isinstance(arg, int):
        if specialize and arg == 1:
            return ("constexpr", 1)
        kind = int_type(arg)
        if kind is None:
            raise ValueError("integer %d does not fit 64 bits" % arg)
        if not specialize:
            return (kind, None)
        key = backend.get_int_specialization(arg, align=align) if hasattr(backend, "get_int_specialization") \
            else ("D" if align and arg % 16 == 0 else "")
        return (kind, key)
    if isinstance(arg, float):
        return ("fp32", None)
    if isinstance(arg, tl.constexpr):
        return ("constexpr", arg.value)
    if isinstance(arg, JITFunction):
        return ("constexpr", arg.cache_key)
    if isinstance(arg, TensorDescriptor):
        inner = _element_name(getattr(arg.base, "dtype", tl.float32))
        return ("tensordesc<%s%s>" % (inner, list(arg.block_shape)), None)
    if isinstance(arg, tuple):
        parts = [specialize_impl(backend, a, is_const, True, align) for a in arg]
        return (tuple(p[0] for p in parts), tuple(p[1] for p in parts))
    if hasattr(arg, "data_ptr") and hasattr(arg, "dtype"):
        kind = "*" + ("k" if is_const else "") + _element_name(arg.dtype)
        if not specialize:
            return (kind, None)
        if not align:
            return (kind, "")
        return (kind, "D" if arg.data_ptr() % 16 == 0 else "")
    raise TypeError("failed to specialize argument of type: %s" % type(arg).__name__)


def mangle_type(arg, specialize=False):
    """The type Triton's signature gives an argument ("*fp32", "i32"...)."""
    from .backends import BaseBackend
    return specialize_impl(BaseBackend, arg, False, specialize, True)[0]


def create_function_from_signature(sig, kparams, backend):
    """A function with the kernel's parameters (and **options) returning
    (params by name with defaults applied, [(type, key)] per parameter,
    options): Triton's per-kernel binder."""
    if len(sig.parameters) != len(kparams):
        raise ValueError("the signature has %d parameters, the kernel %d" % (len(sig.parameters), len(kparams)))
    names = list(sig.parameters)
    entries = []
    for name, kp in zip(names, kparams):
        if kp.is_constexpr:
            entries.append("('constexpr', %s)" % name)
            continue
        specialize = not kp.do_not_specialize
        call = "specialize_impl(backend, %s, %s, %s, %s)" % (name, bool(kp.is_const), specialize,
                                                            not kp.do_not_specialize_on_alignment)
        annotation = kp.annotation_type
        if annotation:
            if isinstance(annotation, str) and (annotation == "u1" or annotation[:2] in ("fp", "bf")):
                specialize = False  # floats and bools are never specialized
            entries.append("(%r,) + %s[1:]" % (annotation, call) if specialize else "(%r, None)" % annotation)
        else:
            entries.append(call)

    def parameter(name):
        return name if sig.parameters[name].default is inspect.Parameter.empty else "%s=default_%s" % (name, name)
    source = "def dynamic_func(%s):\n    params = {%s}\n    specialization = [%s]\n    return params, specialization, " \
             "options\n" % (", ".join([parameter(n) for n in names] + ["**options"]),
                            ", ".join("%r: %s" % (n, n) for n in names), ", ".join(entries))
    namespace = {"default_" + n: p.default for n, p in sig.parameters.items() if p.default is not inspect.Parameter.empty}
    namespace.update(specialize_impl=specialize_impl, backend=backend, JITCallable=JITFunction)
    exec(source, namespace)
    return namespace["dynamic_func"]


def compute_cache_key(kernel_key_cache, specialization, options):
    """The compile-cache key of a specialization and options (memoized in
    kernel_key_cache); @jit functions among the values count by their
    cache_key, so editing one changes the key."""
    key = (tuple(specialization), str(options))
    found = kernel_key_cache.get(key)
    if found is not None:
        return found

    def by_key(obj):
        if isinstance(obj, list):
            return [by_key(v) for v in obj]
        if isinstance(obj, tuple) and hasattr(obj, "_fields"):
            return type(obj)(*[by_key(v) for v in obj])
        if isinstance(obj, tuple):
            return tuple(by_key(v) for v in obj)
        if isinstance(obj, JITFunction):
            return obj.cache_key
        return obj
    text = str(by_key(specialization)) + str(options)
    kernel_key_cache[key] = text
    return text


class DependenciesFinder(ast.NodeVisitor):
    """Visits a @jit function's AST: `ret` is a hash of its source and of the
    @jit functions it calls (so editing a helper changes the caller's key),
    `used_global_vals` the globals it reads, by (name, id of the dict)."""

    def __init__(self, name, globals, nonlocals, src):
        super().__init__()
        self.name = name
        self.hasher = hashlib.sha256(src.encode("utf-8"))
        self.globals = globals
        self.nonlocals = nonlocals
        self.used_global_vals = {}
        self.visiting_arg_default_value = False

    @property
    def ret(self):
        return self.hasher.hexdigest()

    def _lookup(self, name):
        if name in self.nonlocals:
            return self.nonlocals[name], None
        if name in self.globals:
            return self.globals[name], self.globals
        return None, None

    def _depend(self, value):
        if isinstance(value, JITFunction):
            self.hasher.update(value.cache_key.encode("utf-8"))

    def visit_Name(self, node):
        if isinstance(node.ctx, ast.Load):
            value, owner = self._lookup(node.id)
            if owner is not None and not callable(value) and not inspect.ismodule(value):
                self.used_global_vals[(node.id, id(owner))] = (value, owner)
            self._depend(value)
            return value
        return None

    def visit_Attribute(self, node):
        base = self.visit(node.value)
        value = getattr(base, node.attr, None) if base is not None else None
        self._depend(value)
        return value

    def visit_FunctionDef(self, node):
        self.visiting_arg_default_value = True
        for default in node.args.defaults:
            self.visit(default)
        self.visiting_arg_default_value = False
        for statement in node.body:
            self.visit(statement)


class IncompatibleTypeErrorImpl(Exception):
    """Triton's semantic error for operands of incompatible types."""

    def __init__(self, type_a, type_b):
        self.type_a, self.type_b = type_a, type_b
        self.message = "invalid operands of type %r and %r" % (type_a, type_b)
        super().__init__(self.message)
