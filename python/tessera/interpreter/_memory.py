"""The interpreter's memory: pointers are real host addresses into the
arguments' memory (numpy arrays and CPU tensors in place, device tensors
through host copies), so pointer arithmetic, casts between pointer types and
integer round trips behave as on a device. Every access is checked against
the arguments' memory: one outside it raises, naming the address, where a
device would fault or read another buffer. Masked-off lanes are not
touched; a masked-off load gives `other` (0 when none is given).

Layer 2, compile (python/tessera/__init__.py lists the layers)."""

import ctypes

import functools

import numpy as np

from .. import language as tl
from ._values import InterpreterError, Tensor, cast, np_dtype, to_tensor, unwrap


class Memory:
    """The byte ranges kernels may touch: [lo, hi) host addresses with a
    uint8 view of each; overlapping ranges (views of one array) merge."""

    def __init__(self):
        self._ranges = []   # (lo, hi, owner) as registered
        self._merged = None
        self.keep = []      # objects whose memory the ranges point into

    def add(self, lo, nbytes, owner):
        if nbytes <= 0:
            return
        self._ranges.append((int(lo), int(lo) + int(nbytes)))
        self.keep.append(owner)
        self._merged = None

    def _table(self):
        if self._merged is None:
            merged = []
            for lo, hi in sorted(self._ranges):
                if merged and lo <= merged[-1][1]:
                    merged[-1][1] = max(merged[-1][1], hi)
                else:
                    merged.append([lo, hi])
            views = [np.ctypeslib.as_array((ctypes.c_uint8 * (hi - lo)).from_address(lo)) for lo, hi in merged]
            self._merged = (np.array([lo for lo, _ in merged], dtype=np.uint64),
                            np.array([hi for _, hi in merged], dtype=np.uint64), views)
        return self._merged

    def _locate(self, addresses, size, what):
        """(region index, byte offset) of each address, every access checked."""
        los, his, _ = self._table()
        region = np.searchsorted(los, addresses, side="right").astype(np.int64) - 1
        ok = region >= 0
        safe = np.where(ok, region, 0)
        if len(los):
            ok &= addresses + np.uint64(size) <= his[safe]
        else:
            ok[...] = False
        if not ok.all():
            bad = int(np.asarray(addresses)[~ok].reshape(-1)[0])
            raise InterpreterError("%s of %d bytes at address 0x%x is outside every argument's memory (an access out "
                                   "of bounds: mask it)" % (what, size, bad))
        return safe, (addresses - los[safe]).astype(np.int64)

    def _one_region(self, addresses, size):
        """(region, byte offsets) when every address lies, whole, in one
        region and is aligned to `size` from its start (the common case,
        indexed through a typed view), else None."""
        los, his, _ = self._table()
        lo, hi = addresses.min(), addresses.max()
        r = int(np.searchsorted(los, lo, side="right")) - 1
        if r < 0 or hi + np.uint64(size) > his[r]:
            return None
        offset = (addresses - los[r]).astype(np.int64)
        return (r, offset) if not (offset % size).any() else None

    def _typed(self, r, npdt):
        view = self._table()[2][r]
        return view[:len(view) // npdt.itemsize * npdt.itemsize].view(npdt)

    def read(self, addresses, dt):
        """Elements of dtype `dt` at a 1-D array of addresses."""
        npdt = np_dtype(dt)
        size = npdt.itemsize
        out = np.empty(len(addresses), dtype=npdt)
        if not len(addresses):
            return out
        one = self._one_region(addresses, size)
        if one is not None:
            return self._typed(one[0], npdt)[one[1] // size]
        region, offset = self._locate(addresses, size, "a load")
        views = self._table()[2]
        raw = out.view(np.uint8).reshape(-1, size)
        lanes = np.arange(size)
        for r in np.unique(region):
            sel = region == r
            raw[sel] = views[r][offset[sel][:, None] + lanes]
        return out

    def write(self, addresses, values, what="a store"):
        size = values.dtype.itemsize
        if not len(addresses):
            return
        one = self._one_region(addresses, size)
        if one is not None:
            self._typed(one[0], values.dtype)[one[1] // size] = values
            return
        region, offset = self._locate(addresses, size, what)
        views = self._table()[2]
        raw = np.ascontiguousarray(values).view(np.uint8).reshape(-1, size)
        lanes = np.arange(size)
        for r in np.unique(region):
            sel = region == r
            views[r][offset[sel][:, None] + lanes] = raw[sel]


# The memory of the launch being interpreted (one launch runs at a time).
current = [None]


def memory():
    if current[0] is None:
        raise InterpreterError("no interpreted launch is running")
    return current[0]


def _pointer(ptr, what):
    ptr = to_tensor(ptr)
    if not ptr.dtype.is_ptr():
        raise TypeError("%s takes a pointer, not %s" % (what, ptr.dtype.name))
    return ptr


def _mask(mask, shape):
    if mask is None:
        return None
    m = to_tensor(mask)
    return np.broadcast_to(m.data.astype(bool), shape)


def load(pointer, mask=None, other=None, boundary_check=(), padding_option="", cache_modifier="",
         eviction_policy="", volatile=False):
    pointer, mask, other = unwrap(pointer), unwrap(mask), unwrap(other)
    if isinstance(pointer, BlockPointer):
        return pointer.load(boundary_check, padding_option)
    ptr = _pointer(pointer, "tl.load")
    dt = ptr.dtype.element_ty
    shape = ptr.shape
    m = _mask(mask, shape)
    if m is not None and m.shape != shape:
        shape = m.shape
    addresses = np.broadcast_to(ptr.data, shape).reshape(-1)
    if m is None:
        return Tensor(memory().read(addresses, dt).reshape(shape), dt)
    flat = m.reshape(-1)
    fill = cast(other if other is not None else 0, dt)
    out = np.array(np.broadcast_to(fill.data, shape)).reshape(-1)
    out[flat] = memory().read(addresses[flat], dt)
    return Tensor(out.reshape(shape), dt)


def store(pointer, value, mask=None, boundary_check=(), cache_modifier="", eviction_policy=""):
    pointer, mask = unwrap(pointer), unwrap(mask)
    if isinstance(pointer, BlockPointer):
        return pointer.store(value, boundary_check)
    ptr = _pointer(pointer, "tl.store")
    dt = ptr.dtype.element_ty
    value = cast(to_tensor(value), dt)
    shape = np.broadcast_shapes(ptr.shape, value.shape)
    m = _mask(mask, shape)
    addresses = np.broadcast_to(ptr.data, shape).reshape(-1)
    data = np.broadcast_to(value.data, shape).reshape(-1)
    if m is not None:
        flat = m.reshape(-1)
        addresses, data = addresses[flat], data[flat]
    memory().write(addresses, data)


def _rmw(op, old, val, dt):
    if op == "add":
        return (old + val).astype(old.dtype)
    if op in ("max", "min"):
        if dt.is_floating():
            return np.fmax(old, val) if op == "max" else np.fmin(old, val)
        return np.maximum(old, val) if op == "max" else np.minimum(old, val)
    return {"and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor}[op](old, val) \
        if op != "xchg" else val


def atomic(op, pointer, val, mask=None, sem=None, scope=None, cmp=None):
    """tl.atomic_<op>: element by element, in order, each returning the
    value it replaced (one program runs at a time, so this is atomic)."""
    ptr = _pointer(unwrap(pointer), "tl.atomic_" + op)
    dt = ptr.dtype.element_ty
    val = cast(to_tensor(unwrap(val)), dt)
    shape = np.broadcast_shapes(ptr.shape, val.shape)
    m = _mask(unwrap(mask), shape)
    addresses = np.broadcast_to(ptr.data, shape).reshape(-1)
    vals = np.broadcast_to(val.data, shape).reshape(-1)
    cmps = np.broadcast_to(cast(to_tensor(unwrap(cmp)), dt).data, shape).reshape(-1) if op == "cas" else None
    flat = m.reshape(-1) if m is not None else np.ones(len(addresses), dtype=bool)
    old = np.zeros(len(addresses), dtype=np_dtype(dt))
    mem = memory()
    with np.errstate(all="ignore"):
        for i in np.nonzero(flat)[0]:
            a = addresses[i:i + 1]
            prev = mem.read(a, dt)
            old[i] = prev[0]
            if op == "cas":
                new = vals[i:i + 1] if prev[0] == cmps[i] else prev
            else:
                new = np.asarray(_rmw(op, prev, vals[i:i + 1], dt), dtype=prev.dtype)
            mem.write(a, new, "an atomic")
    return Tensor(old.reshape(shape), dt)


# ---- block pointers (tl.make_block_ptr) and tensor descriptors

class BlockPointer:
    """A block of a strided tensor: base pointer, shape, strides, offsets,
    block shape and order, as tl.make_block_ptr made it."""

    def __init__(self, base, shape, strides, offsets, block_shape, order):
        self.base = _pointer(base, "tl.make_block_ptr")
        self.shape = [int(to_tensor(s)) for s in shape]
        self.strides = [int(to_tensor(s)) for s in strides]
        self.offsets = [int(to_tensor(o)) for o in offsets]
        self.block_shape = [int(unwrap(b)) for b in block_shape]
        self.order = [int(unwrap(o)) for o in order]
        if not (len(self.shape) == len(self.strides) == len(self.offsets) == len(self.block_shape)):
            raise ValueError("make_block_ptr: shape, strides, offsets and block_shape need one entry per dimension")

    @property
    def type(self):
        return tl.pointer_type(tl.block_type(self.base.dtype.element_ty, self.block_shape))

    @property
    def dtype(self):
        return self.type

    def advance(self, offsets):
        out = BlockPointer.__new__(BlockPointer)
        out.__dict__.update(self.__dict__)
        out.offsets = [o + int(to_tensor(d)) for o, d in zip(self.offsets, offsets)]
        return out

    def _grid(self, boundary_check):
        index = np.indices(self.block_shape, dtype=np.int64)
        elem = max(self.base.dtype.element_ty.primitive_bitwidth // 8, 1)
        offset = np.zeros(self.block_shape, dtype=np.int64)
        inside = np.ones(self.block_shape, dtype=bool)
        for d in range(len(self.block_shape)):
            pos = self.offsets[d] + index[d]
            offset += pos * self.strides[d]
            if d in [int(unwrap(b)) for b in boundary_check]:
                inside &= (pos >= 0) & (pos < self.shape[d])
        addresses = self.base.data + (offset * elem).view(np.uint64)
        return Tensor(addresses, self.base.dtype), inside

    def load(self, boundary_check=(), padding_option=""):
        ptr, inside = self._grid(unwrap(boundary_check) or ())
        dt = ptr.dtype.element_ty
        other = float("nan") if unwrap(padding_option) == "nan" else 0
        return load(ptr, mask=Tensor(inside, tl.int1), other=other if dt.is_floating() else 0)

    def store(self, value, boundary_check=()):
        ptr, inside = self._grid(unwrap(boundary_check) or ())
        store(ptr, value, mask=Tensor(inside, tl.int1))


class TensorDescriptor:
    """A tensor descriptor (tl.make_tensor_descriptor, or a host
    TensorDescriptor argument): blocks read with zero padding outside the
    tensor's shape and written only inside it."""

    def __init__(self, base, shape, strides, block_shape, padding_option="zero"):
        self.base = _pointer(base, "tl.make_tensor_descriptor")
        self.shape = [int(to_tensor(s)) for s in shape]
        self.strides = [int(to_tensor(s)) for s in strides]
        self.block_shape = [int(unwrap(b)) for b in block_shape]
        self.padding = unwrap(padding_option) or "zero"
        if not (len(self.shape) == len(self.strides) == len(self.block_shape)):
            raise ValueError("make_tensor_descriptor: shape, strides and block_shape need one entry per dimension")

    @property
    def dtype(self):
        return self.base.dtype.element_ty

    @property
    def block_type(self):
        return tl.block_type(self.dtype, self.block_shape)

    def _block(self, offsets):
        offsets = [int(to_tensor(o)) for o in unwrap(offsets)]
        if len(offsets) != len(self.shape):
            raise ValueError("a descriptor of rank %d takes %d offsets, not %d"
                             % (len(self.shape), len(self.shape), len(offsets)))
        bp = BlockPointer(self.base, self.shape, self.strides, offsets, self.block_shape, range(len(self.shape)))
        return bp, tuple(range(len(self.shape)))

    def load(self, offsets):
        bp, dims = self._block(offsets)
        return bp.load(dims, "nan" if self.padding == "nan" else "zero")

    def store(self, offsets, value):
        bp, dims = self._block(offsets)
        bp.store(value, dims)

    def _reduce(self, op, offsets, value):
        """desc.atomic_<op>: the atomic on the block's in-bounds elements; returns None, as Triton's."""
        bp, dims = self._block(offsets)
        ptr, inside = bp._grid(dims)
        atomic(op, ptr, value, mask=Tensor(inside, tl.int1))

    atomic_add = functools.partialmethod(_reduce, "add")
    atomic_min = functools.partialmethod(_reduce, "min")
    atomic_max = functools.partialmethod(_reduce, "max")
    atomic_and = functools.partialmethod(_reduce, "and")
    atomic_or = functools.partialmethod(_reduce, "or")
    atomic_xor = functools.partialmethod(_reduce, "xor")

    def gather(self, x_offsets, y_offset):
        rows = to_tensor(x_offsets)
        out = [self.load([int(r), y_offset]) for r in rows.data.reshape(-1)]
        block = self.block_shape[1]
        return Tensor(np.stack([o.data[0, :block] for o in out]), self.dtype)

    def scatter(self, value, x_offsets, y_offset):
        value = to_tensor(value)
        for i, r in enumerate(to_tensor(x_offsets).data.reshape(-1)):
            self.store([int(r), y_offset], Tensor(value.data[i:i + 1], value.dtype))
