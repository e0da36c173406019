"""Viewing a tensor's memory as another element type (Triton's
``triton.reinterpret`` and ``TensorWrapper``).

A kernel's pointer argument takes its element type from the tensor; a
TensorWrapper gives the same memory another one of the same size, for the
types torch has no tensors of (fp8 before torch had them, unsigned integers
that torch only stores) or to read floats' bits as integers. Nothing is
copied: the wrapper holds the tensor (``.base``) and answers the attributes
a launch and the tests read (data_ptr, device, shape, stride...).

Layer 2, compile (python/tessera/__init__.py lists the layers).
"""

from . import language as tl
from ._specialize import _DTYPES

__all__ = ["TensorWrapper", "reinterpret", "type_canonicalisation_dict"]

# Type names as torch, numpy and Triton spell them -> Triton's signature
# names ("int32" -> "i32", "float8e4nv" -> "fp8e4nv", "i32" -> "i32").
type_canonicalisation_dict = dict(_DTYPES)  # torch's and numpy's spellings, as launches read them
for _dtype in list(tl.dtype._registry.values()):
    for _spelling in (_dtype.name, _dtype.attr_name, _dtype.short):
        type_canonicalisation_dict[_spelling] = _dtype.short
del _dtype, _spelling


def _bits(dtype):
    if isinstance(dtype, tl.dtype):
        return dtype.primitive_bitwidth
    return dtype.itemsize * 8  # torch.dtype


def _type_name(dtype):
    return dtype.name if isinstance(dtype, tl.dtype) else str(dtype).replace("torch.", "")


class TensorWrapper:
    """A tensor's memory seen as elements of `dtype` (a tl.dtype of the
    tensor's element size; a TypeError otherwise): a kernel takes it as a
    pointer to `dtype`. `base` is the tensor; data_ptr(), stride(), size(),
    numel(), cpu(), to(), clone(), copy_() and the like are answered by it,
    those returning a tensor wrapped again."""

    def __init__(self, base, dtype):
        if not isinstance(dtype, tl.dtype):
            raise TypeError("TensorWrapper needs a tl.dtype, not %r" % (dtype,))
        if _bits(dtype) != _bits(base.dtype) and not (dtype.is_bool() and _bits(base.dtype) == 8):
            raise TypeError("cannot reinterpret %s elements (%d bits) as %s (%d bits)"
                            % (_type_name(base.dtype), _bits(base.dtype), dtype.name, _bits(dtype)))
        self.base = base
        self.dtype = dtype
        self.data = getattr(base, "data", None)
        self.device = base.device
        self.shape = base.shape
        device = getattr(base, "_tessera_device", None)
        if device is not None:  # a tessera Array: its device as the launch names it
            self._tessera_device = device

    def data_ptr(self):
        return self.base.data_ptr()

    def stride(self, *args):
        return self.base.stride(*args)

    def element_size(self):
        return self.base.element_size()

    def numel(self):
        return self.base.numel()

    def dim(self):
        return self.base.dim()

    def size(self, *args):
        return self.base.size(*args)

    def is_contiguous(self):
        return self.base.is_contiguous()

    def cpu(self):
        return TensorWrapper(self.base.cpu(), self.dtype)

    def to(self, device):
        return TensorWrapper(self.base.to(device), self.dtype)

    def clone(self):
        return TensorWrapper(self.base.clone(), self.dtype)

    def copy_(self, other):
        self.base.copy_(other.base if isinstance(other, TensorWrapper) else other)
        return self

    def new_empty(self, sizes):
        return TensorWrapper(self.base.new_empty(sizes), self.dtype)

    def __len__(self):
        return len(self.base)

    def __str__(self):
        return "TensorWrapper[%s](%s)" % (self.dtype.name, self.base)

    __repr__ = __str__


def reinterpret(tensor, dtype):
    """`tensor`'s memory as elements of `dtype`: a TensorWrapper, or the
    tensor itself when `dtype` is its own element type (a wrapper's base
    when asked for the base's type)."""
    if isinstance(tensor, TensorWrapper):
        tensor = tensor.base
    if not hasattr(tensor, "data_ptr") or not hasattr(tensor, "dtype"):
        raise TypeError("reinterpret takes a tensor (data_ptr() and dtype), not a %s" % type(tensor).__name__)
    if _type_name(dtype) == _type_name(tensor.dtype) or type_canonicalisation_dict.get(
            _type_name(dtype)) == type_canonicalisation_dict.get(_type_name(tensor.dtype)):
        return tensor
    return TensorWrapper(tensor, dtype)
