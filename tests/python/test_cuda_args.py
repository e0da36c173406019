"""CUDA arguments and tessera's own arrays, on a machine without a GPU:
fake objects with __cuda_array_interface__ / __dlpack__ / a torch-like
device, the target following the arguments' device, the errors for mixed
devices and for compiling for cuda (which needs a device to load on), and tessera
arrays on the cpu device. tests/gpu runs the real thing on a GPU."""

import ctypes

import numpy as np
import pytest

import tessera
import tessera.language as tl
from tessera import _C, _dlpack
from tessera._specialize import specialize_arg
from tessera.jit import resolve_target


class CudaArrayLike:
    """What cupy/numba arrays look like to a consumer."""

    def __init__(self, address=0x7F0000001000, typestr="<f4", device=None):
        self.__cuda_array_interface__ = {"shape": (8,), "typestr": typestr, "data": (address, False), "version": 3}
        if device is not None:
            self.device = device


class TorchDevice:
    def __init__(self, type, index):
        self.type, self.index = type, index


class TorchLike:
    def __init__(self, device, dtype="torch.float16", address=4096):
        self.device, self.dtype, self._address = device, dtype, address

    def data_ptr(self):
        return self._address


class DlpackCuda:
    """A CUDA DLPack producer (the capsule points at made-up memory)."""

    def __init__(self, address=0x7F0000002000, device_id=0):
        self.address, self.device_id = address, device_id

    def __dlpack__(self, stream=None):
        return _dlpack.make_capsule(self, self.address, (4, 4), "<i4", _dlpack.CUDA, self.device_id)

    def __dlpack_device__(self):
        return (_dlpack.CUDA, self.device_id)


def test_cuda_array_interface():
    ty, value, device = specialize_arg(CudaArrayLike())
    assert (ty, value.value, device) == ("*fp32:16", 0x7F0000001000, "cuda:0")
    ty, value, device = specialize_arg(CudaArrayLike(address=0x7F0000001004, typestr="<f2"))
    assert (ty, value.value, device) == ("*fp16", 0x7F0000001004, "cuda:0")

    class CupyDevice:
        id = 1
    assert specialize_arg(CudaArrayLike(device=CupyDevice()))[2] == "cuda:1"
    assert specialize_arg(CudaArrayLike(device="cuda:2"))[2] == "cuda:2"
    with pytest.raises(TypeError, match="unsupported element type"):
        specialize_arg(CudaArrayLike(typestr="<c8"))


def test_torch_like_devices():
    assert specialize_arg(TorchLike(TorchDevice("cuda", 1)))[::2] == ("*fp16:16", "cuda:1")
    assert specialize_arg(TorchLike(TorchDevice("cuda", None)))[2] == "cuda:0"
    assert specialize_arg(TorchLike(TorchDevice("cpu", None)))[2] == "cpu"
    with pytest.raises(TypeError, match="'mps'"):
        specialize_arg(TorchLike(TorchDevice("mps", 0)))


def test_dlpack_cuda_producer():
    ty, value, device = specialize_arg(DlpackCuda(device_id=3))
    assert (ty, value.value, device) == ("*i32:16", 0x7F0000002000, "cuda:3")


def test_target_follows_the_arguments():
    assert resolve_target(None, []) == ("cpu", None)
    assert resolve_target(None, [("x", "cpu")]) == ("cpu", "cpu")
    assert resolve_target(None, [("x", "cuda:0"), ("y", "cuda:0")]) == ("nvptx", "cuda:0")
    assert resolve_target("cuda", [("x", "cuda:1")]) == ("cuda", "cuda:1")
    with pytest.raises(tessera.TesseraError, match="different devices: x on cuda:0, y on cpu"):
        resolve_target(None, [("x", "cuda:0"), ("y", "cpu")])
    with pytest.raises(tessera.TesseraError, match="different devices"):
        resolve_target(None, [("x", "cuda:0"), ("y", "cuda:1")])
    with pytest.raises(tessera.TesseraError, match="'x' is on cuda:0, but the kernel is compiled for the host CPU"):
        resolve_target("cpu", [("x", "cuda:0")])
    with pytest.raises(tessera.TesseraError, match="compiled for cuda devices"):
        resolve_target("cuda", [("x", "cpu")])


@tessera.jit
def copy_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


def test_cuda_arguments_compile_for_cuda_and_need_a_device():
    if "cuda" in _C.backend_names():
        pytest.skip("this machine has a CUDA device: these fake device addresses must not be launched on")
    x, out = CudaArrayLike(), CudaArrayLike(address=0x7F0000003000)
    with pytest.raises(tessera.TesseraError, match="target 'nvptx': no device to run it") as e:
        copy_kernel[(1,)](x, out, 8, BLOCK=8)
    assert e.value.status == _C.ERROR_UNAVAILABLE
    with pytest.raises(tessera.TesseraError, match="different devices: x_ptr on cuda:0, out_ptr on cpu"):
        copy_kernel[(1,)](x, np.zeros(8, np.float32), 8, BLOCK=8)


def test_cpu_target_rejects_cuda_arguments():
    k = tessera.jit(target="cpu")(copy_kernel.fn)
    with pytest.raises(tessera.TesseraError, match="'x_ptr' is on cuda:0"):
        k[(1,)](CudaArrayLike(), CudaArrayLike(), 8, BLOCK=8)


def test_cuda_binaries_and_devices_unavailable_without_a_gpu():
    if "cuda" in _C.backend_names():
        pytest.skip("this machine has a CUDA device (tests/gpu covers it)")
    with pytest.raises(tessera.TesseraError, match="backend 'cuda' is not usable on this machine") as e:
        _C.load_binary(".version 8.0\n.target sm_90\n", "k", 0, format="ptx")
    assert e.value.status == _C.ERROR_UNAVAILABLE
    with pytest.raises(tessera.TesseraError, match="cuda"):
        tessera.empty((4,), "float32", device="cuda")
    with pytest.raises(tessera.TesseraError, match="not usable"):
        _C.get_device("cuda:1")


def test_devices_by_name():
    assert _C.parse_device("cpu") == ("host", 0) and _C.parse_device("cuda:2") == ("cuda", 2)
    assert _C.get_device("cpu") is _C.get_device("host", 0)
    assert _C.backend_names()[-1] == "host"
    with pytest.raises(ValueError):
        _C.parse_device("cuda:x")


def test_cpu_arrays_round_trip():
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    t = tessera.from_numpy(a, device="cpu")
    assert (t.shape, t.dtype, t.device, t.nbytes) == ((3, 4), np.float32, "cpu", 48)
    np.testing.assert_array_equal(t.numpy(), a)
    np.testing.assert_array_equal(np.asarray(t), a)            # __array_interface__, no copy
    np.testing.assert_array_equal(np.from_dlpack(t), a)        # our DLPack capsule
    assert t.__dlpack_device__() == (_dlpack.CPU, 0)
    with pytest.raises(AttributeError):
        t.__cuda_array_interface__
    z = tessera.zeros((5,), "int64", device="cpu")
    np.testing.assert_array_equal(z.numpy(), np.zeros(5, np.int64))
    e = tessera.empty(0, "float16", device="cpu")
    assert e.numpy().shape == (0,)
    c = tessera.empty((3, 4), np.float32, device="cpu").copy_(t)
    np.testing.assert_array_equal(c.numpy(), a)
    with pytest.raises(ValueError):
        c.copy_(z)
    bf = tessera.from_numpy(np.ones(4, np.float32).astype(__import__("ml_dtypes").bfloat16), device="cpu")
    assert specialize_arg(bf)[0].startswith("*bf16")


def test_dlpack_capsules_are_released():
    t = tessera.from_numpy(np.arange(4, dtype=np.int32), device="cpu")
    before = len(_dlpack._live)
    cap = t.__dlpack__()
    assert len(_dlpack._live) == before + 1
    del cap                                   # never consumed: the capsule's destructor releases it
    assert len(_dlpack._live) == before
    view = np.from_dlpack(t)                  # consumed: numpy calls the deleter when the view dies
    assert len(_dlpack._live) == before + 1
    del view
    assert len(_dlpack._live) == before


def test_tessera_arrays_and_python_values_launch_a_host_kernel(abi_kernels):
    n = 100
    x = tessera.from_numpy(np.random.default_rng(1).standard_normal(n).astype(np.float32), device="cpu")
    y = tessera.from_numpy(np.random.default_rng(2).standard_normal(n).astype(np.float32), device="cpu")
    out = tessera.from_numpy(np.full(n, np.nan, np.float32), device="cpu")
    k = _C.load_binary(abi_kernels, "add_kernel", 4)
    k.launch((tessera.cdiv(n, 64),), [x, y, out, n])           # Python values, converted per argument
    np.testing.assert_array_equal(out.numpy(), x.numpy() + y.numpy())
    k.launch([2], [x, y, out, ctypes.c_int32(n)], stream=None)
    with pytest.raises(tessera.TesseraError, match="no native streams"):
        k.launch((2,), [x, y, out, n], stream=1234)
    with pytest.raises(TypeError, match="stream must be"):
        k.launch((2,), [x, y, out, n], stream="s")
    with pytest.raises(tessera.TesseraError, match="threads per program"):
        k.set_launch_params(threads=0)
