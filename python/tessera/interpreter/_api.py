"""Triton's triton.runtime.interpreter names over the interpreter
(InterpretedFunction, GridExecutor, TensorHandle, ReduceOps...), and the
launch: loaded on first use by tessera.interpreter.

Layer 2, compile (python/tessera/__init__.py lists the layers)."""

import dataclasses
import inspect
import math
import typing

import numpy as np

from .. import language as tl
from . import _builtins, _grid, _memory
from ._values import InterpreterError, Tensor, cast, np_dtype, to_tensor


T = typing.TypeVar("T")


launch = _grid.launch
call_jit = _grid.call_jit


# ---- Triton's triton.runtime.interpreter names

class TensorHandle(Tensor):
    """Triton's interpreter value: `data` a numpy array, `dtype` the
    language's scalar type."""

    def get_element_ty(self):
        return self.dtype

    def clone(self):
        return TensorHandle(self.data.copy(), self.dtype)

    def set_attr(self, key, value):
        setattr(self, "_attr_" + key, value)


class BlockPointerHandle(_memory.BlockPointer):
    """A block pointer: base, shape, strides, offsets, block shape, order."""

    def materialize_pointers(self, boundary_check):
        """(pointers, in-bounds mask) of the block's elements."""
        ptrs, inside = self._grid(boundary_check)
        return ptrs, Tensor(inside, tl.int1)


class TensorDescHandle(_memory.TensorDescriptor):
    """A tensor descriptor: base, shape, strides, block shape, padding."""

    def validate(self):
        if len(self.shape) != len(self.strides) or len(self.shape) != len(self.block_shape):
            raise ValueError("a descriptor needs one shape, stride and block entry per dimension")
        if self.strides[-1] != 1:
            raise ValueError("a descriptor's last dimension must be contiguous")

    def materialize_pointers(self, offsets):
        bp, dims = self._block(offsets)
        ptrs, inside = bp._grid(dims)
        return ptrs, Tensor(inside, tl.int1)


@dataclasses.dataclass(frozen=True)
class InterpreterOptions:
    """The options an interpreted launch runs with (Triton's fields)."""
    extern_libs: dict = None
    debug: bool = False
    sanitize_overflow: bool = True
    arch: str = None
    supported_fp8_dtypes: tuple = ("fp8e5", "fp8e4nv", "fp8e4b15", "fp8e4b8", "fp8e5b16")
    deprecated_fp8_dot_operand_dtypes: tuple = ()
    default_dot_input_precision: str = "tf32"
    allowed_dot_input_precisions: tuple = ("tf32", "tf32x3", "ieee")
    max_num_imprecise_acc_default: int = 0
    backend_name: str = "interpreter"


def np_erf_fp32(x):
    """erf of a float32 array, elementwise."""
    return np.vectorize(math.erf, otypes=[np.float32])(np.asarray(x, dtype=np.float32)).astype(np.float32)


def np_erf_fp64(x):
    return np.vectorize(math.erf, otypes=[np.float64])(np.asarray(x, dtype=np.float64))


def np_umulhi_u64(a, b):
    """The high 64 bits of the 128-bit products of two uint64 arrays."""
    a = np.asarray(a, dtype=np.uint64)
    b = np.asarray(b, dtype=np.uint64)
    a_lo, a_hi = a & np.uint64(0xFFFFFFFF), a >> np.uint64(32)
    b_lo, b_hi = b & np.uint64(0xFFFFFFFF), b >> np.uint64(32)
    lo_lo = a_lo * b_lo
    mid1 = a_hi * b_lo + (lo_lo >> np.uint64(32))
    mid2 = a_lo * b_hi + (mid1 & np.uint64(0xFFFFFFFF))
    return a_hi * b_hi + (mid1 >> np.uint64(32)) + (mid2 >> np.uint64(32))


class ExtraFunctions:
    """Conversions the interpreter does outside the core builtins."""

    @staticmethod
    def _convert_custom_types(input, dst_ty, fp_downcast_rounding, _semantic=None):
        return cast(to_tensor(input), dst_ty, fp_downcast_rounding)


class InterpreterBuilder:
    """The program state and the scalar constructors Triton's interpreter
    builder has: grid index and size, types and constants."""

    def __init__(self):
        self.grid_idx = None
        self.grid_dim = None
        self.options = InterpreterOptions()
        self.codegen_fns = {}

    def set_grid_idx(self, x, y, z):
        if not (0 <= x < (self.grid_dim or (x + 1,))[0]):
            raise ValueError("program id %d is outside the grid" % x)
        self.grid_idx = (x, y, z)
        _builtins.Program.pid = (x, y, z)

    def set_grid_dim(self, nx, ny, nz):
        self.grid_dim = (nx, ny, nz)
        _builtins.Program.grid = (nx, ny, nz)

    def create_get_program_id(self, axis):
        return TensorHandle(np.array([_builtins.Program.pid[axis]], dtype=np.int32), tl.int32)

    def create_get_num_programs(self, axis):
        return TensorHandle(np.array([_builtins.Program.grid[axis]], dtype=np.int32), tl.int32)

    def get_null_value(self, type):
        return TensorHandle(np.array([0], dtype=np_dtype(type)), type)

    def get_all_ones_value(self, type):
        return TensorHandle(np.array([-1 if type.is_int_signed() else np.iinfo(np_dtype(type)).max],
                                     dtype=np_dtype(type)), type)


def _type_getters():
    for name, ty in (("half", tl.float16), ("bf16", tl.bfloat16), ("float", tl.float32), ("double", tl.float64),
                     ("int1", tl.int1), ("int8", tl.int8), ("uint8", tl.uint8), ("int16", tl.int16),
                     ("uint16", tl.uint16), ("int32", tl.int32), ("uint32", tl.uint32), ("int64", tl.int64),
                     ("uint64", tl.uint64), ("fp8e4nv", tl.float8e4nv), ("fp8e5", tl.float8e5)):
        setattr(InterpreterBuilder, "get_%s_ty" % name, lambda self, ty=ty: ty)
    for name, ty in (("int1", tl.int1), ("int8", tl.int8), ("uint8", tl.uint8), ("int16", tl.int16),
                     ("uint16", tl.uint16), ("int32", tl.int32), ("uint32", tl.uint32), ("int64", tl.int64),
                     ("uint64", tl.uint64), ("fp16", tl.float16), ("fp32", tl.float32), ("fp64", tl.float64)):
        setattr(InterpreterBuilder, "get_" + name,
                lambda self, value, ty=ty: TensorHandle(np.array([value], dtype=np_dtype(ty)), ty))


_type_getters()
InterpreterBuilder.get_ptr_ty = lambda self, elt_ty, addr_space: tl.pointer_type(elt_ty, addr_space)
InterpreterBuilder.get_block_ty = lambda self, dtype, shape: tl.block_type(dtype, shape)
interpreter_builder = InterpreterBuilder()


class _Semantic:
    """The language's functions as the interpreter runs them (Triton's
    interpreter_semantic): `interpreter_semantic.<builtin>(...)`."""

    builder = interpreter_builder

    def __getattr__(self, name):
        impl = _builtins.TABLE.get(name)
        if impl is None:
            raise AttributeError("the interpreter has no builtin %r" % name)
        return impl

    @staticmethod
    def to_tensor(x, check_type=True):
        return to_tensor(x)


interpreter_semantic = _Semantic()


class ReduceScanOpInterface:
    """A reduction or scan along one axis by a combine function."""

    def __init__(self, axis, combine_fn):
        self.axis = axis
        self.combine_fn = combine_fn

    def check_axis(self, shape, axis):
        if axis is not None and not -len(shape) <= axis < len(shape):
            raise ValueError("axis %d is out of range for shape %s" % (axis, list(shape)))

    def check_tensor(self, input):
        for x in input if isinstance(input, (tuple, list)) else (input,):
            if not isinstance(x, Tensor):
                raise ValueError("input must be a tile, not %r" % (x,))
            self.check_axis(x.shape, self.axis)

    def apply(self, input):
        self.check_tensor(input)
        return self.apply_impl(input)


class ReduceOps(ReduceScanOpInterface):
    def __init__(self, axis, combine_fn, keep_dims):
        super().__init__(axis, combine_fn)
        self.keep_dims = keep_dims

    def apply_impl(self, input):
        return _builtins.reduce(input, self.axis, self.combine_fn, self.keep_dims)


class ScanOps(ReduceScanOpInterface):
    def __init__(self, axis, combine_fn, reverse):
        super().__init__(axis, combine_fn)
        self.reverse = reverse

    def apply_impl(self, input):
        return _builtins.associative_scan(input, self.axis, self.combine_fn, self.reverse)


ASTTransformer = _grid._AssignConstants


class FunctionRewriter:
    """A function's source rewritten for the interpreter: constants
    assigned in it become tiles, as compiled."""

    ast_transformer = ASTTransformer()

    def __init__(self, fn, **kwargs):
        self.fn = fn
        self.kwargs = kwargs

    def rewrite_ast(self):
        return _grid.interpretable(self.fn)


class GridExecutor:
    """Runs a function over a grid: GridExecutor(fn, arg_names, grid)(*args)."""

    def __init__(self, fn, arg_names, grid, pre_run_hooks=()):
        self.fn = fn
        self.arg_names = list(arg_names)
        self.grid = grid
        self.pre_run_hooks = list(pre_run_hooks)

    def __call__(self, *args, **kwargs):
        for hook in self.pre_run_hooks:
            hook(*args, **kwargs)
        launch(_as_kernel(self.fn), self.grid, args, kwargs)


class InterpretedFunction:
    """A kernel that always runs in the interpreter (Triton's
    InterpretedFunction): fn[grid](*args), fn.run(*args, grid=...), and a
    direct call from another interpreted kernel."""

    def __init__(self, fn, **kwargs):
        self.fn = fn
        self.kwargs = kwargs
        self.pre_run_hooks = []
        self.arg_names = list(_as_kernel(fn).arg_names)

    @property
    def __name__(self):
        return self.fn.__name__

    def add_pre_run_hook(self, hook):
        if not callable(hook):
            raise TypeError("a pre-run hook must be callable")
        self.pre_run_hooks.append(hook)

    def run(self, *args, grid, warmup=False, **kwargs):
        if warmup:
            return None
        return GridExecutor(self.fn, self.arg_names, grid, self.pre_run_hooks)(*args, **kwargs)

    def __getitem__(self, grid):
        return lambda *args, **kwargs: self.run(*args, grid=grid, **kwargs)

    def __call__(self, *args, **kwargs):
        return _grid.interpretable(self.fn)(*args, **kwargs)


class _PlainKernel:
    """A plain Python function seen as a kernel: parameters annotated
    tl.constexpr (or with a constexpr's name) are compile-time."""

    def __init__(self, fn):
        self.fn = fn
        self.__name__ = fn.__name__
        self.signature = inspect.signature(fn)
        self.arg_names = list(self.signature.parameters)
        self.constexpr_names = {n for n, p in self.signature.parameters.items()
                                if p.annotation is tl.constexpr or "constexpr" in str(p.annotation)}


def _as_kernel(fn):
    if hasattr(fn, "signature") and hasattr(fn, "constexpr_names"):
        return fn
    return _PlainKernel(getattr(fn, "fn", fn))
