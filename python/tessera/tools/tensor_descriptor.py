"""Triton's host-side tensor descriptor (``triton.tools.tensor_descriptor``).

    desc = TensorDescriptor.from_tensor(x, block_shape=[64, 64])
    kernel[grid](desc, ...)        # in the kernel: desc.load([i, j]), desc.store([i, j], v)

A kernel parameter given a TensorDescriptor is one, as if the kernel had
made it with tl.make_tensor_descriptor: its signature entry is
"tensordesc<fp16[64,64]>" (the element type and block shape, compile-time;
":16" after it when a tensor map can describe it, ":e16" when every extent
is a multiple of 16) and the launch passes the base pointer, the shape and
the strides. Tessera lowers descriptor accesses to masked loads and stores
on every target, and on sm_90a copies the blocks a pipelined dot loop reads
with TMA (the runtime builds the tensor maps); out-of-bounds elements read
as zero, as with padding "zero".

Layer 0, binding (python/tessera/__init__.py lists the layers).
"""

from dataclasses import dataclass
from typing import Any, List

__all__ = ["TensorDescriptor"]


@dataclass
class TensorDescriptor:
    """A block-wise view of a tensor for a kernel argument (Triton's):
    `base` the tensor, `shape` and `strides` (in elements) of the view,
    `block_shape` the block each load or store moves, and `padding` for
    elements out of bounds ("zero" only). The last stride must be 1 and
    each block dimension a power of two (ValueError otherwise);
    from_tensor() describes a whole tensor."""
    base: Any
    shape: List[int]
    strides: List[int]
    block_shape: List[int]
    padding: str = "zero"

    def __post_init__(self):
        rank = len(self.shape)
        if not (len(self.strides) == rank == len(self.block_shape)) or rank == 0:
            raise ValueError("TensorDescriptor: shape, strides and block_shape need one entry per dimension, got %s, %s "
                             "and %s" % (list(self.shape), list(self.strides), list(self.block_shape)))
        if self.strides[-1] != 1:
            raise ValueError("TensorDescriptor: the last dimension must be contiguous (stride 1), got strides %s"
                             % (list(self.strides),))
        for b in self.block_shape:
            if int(b) <= 0 or int(b) & (int(b) - 1):
                raise ValueError("TensorDescriptor: block dimensions must be powers of two, got %s"
                                 % (list(self.block_shape),))
        if self.padding != "zero":
            raise ValueError("TensorDescriptor: padding %r is not supported by Tessera (only \"zero\")" % (self.padding,))
        self.shape = [int(s) for s in self.shape]
        self.strides = [int(s) for s in self.strides]
        self.block_shape = [int(b) for b in self.block_shape]

    @staticmethod
    def from_tensor(tensor, block_shape, padding="zero"):
        """A descriptor of all of `tensor` (torch tensors, tessera arrays,
        numpy arrays; strides in elements)."""
        if callable(getattr(tensor, "stride", None)):      # torch
            strides = list(tensor.stride())
        elif hasattr(tensor, "strides"):                      # numpy: bytes
            strides = [s // tensor.itemsize for s in tensor.strides]
        else:                                                 # tessera arrays: C-contiguous
            strides, step = [], 1
            for extent in reversed(tensor.shape):
                strides.insert(0, step)
                step *= extent
        return TensorDescriptor(tensor, list(tensor.shape), list(strides), list(block_shape), padding)
