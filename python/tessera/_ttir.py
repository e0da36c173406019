"""triton._C.libtriton.ir under tessera.compat (which aliases it here): the slice of Triton's MLIR
bindings that torch's Inductor reads to learn which tensors a user's Triton
kernel writes (torch._higher_order_ops.triton_kernel_wrap's
identify_mutated_tensors: `ir.context()`, `ir.load_dialects`, then
`ASTSource.make_ir(...)` and a walk of the module's ops).

Tessera has no MLIR. ASTSource.make_ir gives a WritesModule instead: one
`tt.func` whose block arguments are the kernel's runtime arguments, holding
one `tt.store` through each argument the kernel may write (tessera's
frontend decides: tessera.compiler.kernel_writes, which never misses a
write), then `tt.return`. Walked as Inductor walks Triton's TTIR, it gives
the same answer for the arguments: written or not.

Layer 2, compile (python/tessera/__init__.py lists the layers)."""

import itertools


class context:
    """Triton's MLIR context: nothing to hold here."""


def load_dialects(ctx):
    if not isinstance(ctx, context):
        raise TypeError("load_dialects takes a triton._C.libtriton.ir.context(), not %r" % (ctx,))


class _Ref:
    """A value, block or region: what Inductor reads of one is its id()."""

    def __init__(self, ident, parent=None, arguments=()):
        self._id, self._parent, self._arguments = ident, parent, list(arguments)

    def id(self):
        return self._id

    def get_parent(self):
        return self._parent

    def get_num_arguments(self):
        return len(self._arguments)

    def get_argument(self, i):
        return self._arguments[i]


class _Op:
    def __init__(self, name, block, operands=(), regions=(), attrs=None):
        self.name, self.block, self.operands, self.regions = name, block, list(operands), list(regions)
        self.attrs = attrs or {}

    def get_name(self):
        return self.name

    def get_num_operands(self):
        return len(self.operands)

    def get_operand(self, i):
        return self.operands[i]

    def get_num_results(self):
        return 0

    def get_result(self, i):
        raise IndexError("%s has no results" % self.name)

    def get_num_regions(self):
        return len(self.regions)

    def get_region(self, i):
        return self.regions[i]

    def get_block(self):
        return self.block

    def get_str_attr(self, name):
        return self.attrs[name]


class WritesModule:
    """A kernel's writes as a module of Triton IR ops (see the module's doc)."""

    def __init__(self, name, written):
        self.name, self.written = name, list(written)
        ids = itertools.count(1)
        region = _Ref(next(ids))
        self.arguments = [_Ref(next(ids)) for _ in self.written]
        block = _Ref(next(ids), parent=region, arguments=self.arguments)
        top = _Ref(next(ids))
        self._ops = [_Op("tt.store", block, [a]) for a, w in zip(self.arguments, self.written) if w]
        self._ops.append(_Op("tt.return", block))
        self._ops.append(_Op("tt.func", top, regions=[region], attrs={"sym_name": name}))
        self._ops.append(_Op("builtin.module", None))

    def walk(self, fn):
        """Calls fn on each op, nested ops before the op holding them (MLIR's post-order walk)."""
        for op in self._ops:
            fn(op)

    def verify(self):
        return True

    def __str__(self):
        args = ", ".join("%%arg%d" % i for i in range(len(self.written)))
        stores = "".join("    tt.store %%arg%d  // may write\n" % i for i, w in enumerate(self.written) if w)
        return "module {\n  tt.func @%s(%s) {\n%s    tt.return\n  }\n}\n" % (self.name, args, stores)
