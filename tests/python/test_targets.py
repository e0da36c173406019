"""The target registry from Python: the C API's rows, names and aliases,
device -> target resolution (PyTorch devices, including a ROCm build's
"cuda", DLPack devices, tessera devices) and the errors for unknown
targets and targets without a code generator. No GPU needed: fake torch
modules and tensors stand in."""

import sys
import types

import numpy as np
import pytest

import tessera
import tessera.language as tl
from tessera import _C, _dlpack, _targets, conformance
from tessera._specialize import specialize_arg
from tessera.jit import _current_stream, resolve_target

NAMES = ["cpu", "nvptx", "amdgpu", "spirv"]


class TorchDevice:
    def __init__(self, type, index):
        self.type, self.index = type, index


class TorchLike:
    """What a torch tensor looks like to tessera (data_ptr, dtype, device)."""

    def __init__(self, device, dtype="torch.float32", address=4096):
        self.device, self.dtype, self._address = device, dtype, address

    def data_ptr(self):
        return self._address


class DlpackOn:
    """A DLPack producer on any device type (made-up memory)."""

    def __init__(self, device_type, device_id=0, address=0x7F0000004000):
        self.device_type, self.device_id, self.address = device_type, device_id, address

    def __dlpack__(self, stream=None):
        return _dlpack.make_capsule(self, self.address, (4,), "<f4", self.device_type, self.device_id)

    def __dlpack_device__(self):
        return (self.device_type, self.device_id)


def fake_torch(hip=None, cuda=None, raw_stream=None):
    """A module standing in for torch: torch.version.hip is set on ROCm
    builds, torch.version.cuda on CUDA builds."""
    torch = types.ModuleType("torch")
    torch.version = types.SimpleNamespace(hip=hip, cuda=cuda)
    torch._C = types.SimpleNamespace()
    if raw_stream is not None:
        torch._C._cuda_getCurrentRawStream = raw_stream
    return torch


@pytest.fixture
def rocm_torch(monkeypatch):
    torch = fake_torch(hip="6.2.41133", raw_stream=lambda index: 0xABC0 + index)
    monkeypatch.setitem(sys.modules, "torch", torch)
    return torch


@pytest.fixture
def cuda_torch(monkeypatch):
    torch = fake_torch(cuda="12.4")
    monkeypatch.setitem(sys.modules, "torch", torch)
    return torch


# ---- the rows


def test_rows_from_the_c_api():
    rows = _C.targets()
    assert [r.name for r in rows] == NAMES
    assert rows is _C.targets()  # read once
    for row in rows:
        assert row.formats and row.flavours and row.code_generator
        assert row.has_code_generator == _C.target_available(row.name)
        for flavour in row.flavours:
            assert flavour.backend and flavour.dlpack_devices
        # Every name of a row finds the row, and an alias its flavour.
        assert _C.find_target(row.name) == (row, row.flavours[0])
        for alias, flavour in row.aliases.items():
            found_row, found_flavour = _C.find_target(alias)
            assert found_row is row
            assert found_flavour.name == flavour or (not flavour and found_flavour is row.flavours[0])
    by_name = {r.name: r for r in rows}
    assert by_name["cpu"].has_code_generator and by_name["nvptx"].has_code_generator
    assert by_name["amdgpu"].has_code_generator and by_name["spirv"].has_code_generator
    assert by_name["amdgpu"].formats == ("hsaco",)
    assert by_name["nvptx"].formats == ("cubin", "ptx")
    assert [(f.name, f.backend) for f in by_name["spirv"].flavours] == [("vulkan", "vulkan"), ("opencl", "opencl"),
                                                                  ("level_zero", "level_zero")]
    amd = by_name["amdgpu"].flavours[0]
    assert (amd.backend, amd.torch_device, amd.torch_build) == ("hip", "cuda", "hip")
    assert _dlpack.ROCM in amd.dlpack_devices


def test_aliases_of_the_issue():
    backends = {name: _targets.backend_of(name) for name in
                ("host", "cpu", "cuda", "nvptx", "hip", "amdgpu", "vulkan", "opencl", "level_zero", "spirv",
                 "spirv:opencl", "spirv:level_zero")}
    assert backends == {"host": "host", "cpu": "host", "cuda": "cuda", "nvptx": "cuda", "hip": "hip", "amdgpu": "hip",
                        "vulkan": "vulkan", "opencl": "opencl", "level_zero": "level_zero", "spirv": "vulkan",
                        "spirv:opencl": "opencl", "spirv:level_zero": "level_zero"}


def test_unknown_target_lists_the_known_ones():
    with pytest.raises(tessera.TesseraError, match="unknown target 'gpu9000'") as e:
        _C.find_target("gpu9000")
    assert e.value.status == 2  # TESSERA_ERROR_NOT_FOUND
    for row in _C.targets():
        assert row.name in str(e.value)
        for alias in row.aliases:
            assert alias in str(e.value)
    # At launch (before any compile) and when compiling without a device.
    k = tessera.jit(target="gpu9000")(copy_kernel.fn)
    with pytest.raises(tessera.TesseraError, match=r"unknown target 'gpu9000' \(known targets: cpu, nvptx"):
        k[(1,)](np.zeros(8, np.float32), np.zeros(8, np.float32), 8, BLOCK=8)
    with pytest.raises(tessera.TesseraError, match="unknown target 'gpu9000'"):
        copy_kernel.compile_only("gpu9000", np.zeros(8, np.float32), np.zeros(8, np.float32), 8, BLOCK=8)
    with pytest.raises(tessera.TesseraError, match="unknown target 'gpu9000'"):
        conformance.find_targets(["gpu9000"])


def test_binary_formats_pick_the_loading_backend():
    assert _C._backend_of_format("elf-shared-object") == "host"
    assert _C._backend_of_format("ptx") == _C._backend_of_format("cubin") == "cuda"
    assert _C._backend_of_format("hsaco") == "hip"
    assert _C._backend_of_format("spirv") == "vulkan"
    assert _C._backend_of_format("no-such-format") == "host"


def test_default_target_and_conformance_columns():
    if not {"cuda", "hip"} & set(_C.backend_names()):  # no GPU here (Vulkan is never picked unasked)
        assert tessera.default_target() == "cpu"
    assert _targets.preferred()[-1] == ("cpu", "host")
    # Every registry target, each other flavour whose device is here (spirv:opencl
    # where an OpenCL runtime is installed), then the interpreter (kernels run as
    # Python, on the host's arrays).
    extra = ["spirv:opencl"] if "opencl" in _C.backend_names() else []
    names = NAMES[:NAMES.index("spirv") + 1] + extra + NAMES[NAMES.index("spirv") + 1:]
    assert [t.name for t in conformance.find_targets()] == names + ["interpreter"]
    assert [t.mode for t in conformance.find_targets(["interpreter"])] == ["run"]
    cols = conformance.find_targets(["hip", "spirv"])
    # amdgpu has a code generator: compile-only where there is no ROCm device.
    hip_mode = "run" if "hip" in _C.backend_names() else "compile"
    spirv_mode = "run" if "vulkan" in _C.backend_names() else "compile"
    assert [(t.name, t.mode) for t in cols] == [("hip", hip_mode), ("spirv", spirv_mode)]


# ---- device -> target


def test_rocm_torch_cuda_tensors_are_hip_devices(rocm_torch):
    assert specialize_arg(TorchLike(TorchDevice("cuda", 1)))[2] == "hip:1"
    assert specialize_arg(TorchLike(TorchDevice("cuda", None)))[2] == "hip:0"
    assert specialize_arg(TorchLike(TorchDevice("cpu", None)))[2] == "cpu"
    assert resolve_target(None, [("x", "hip:1")]) == ("amdgpu", "hip:1")
    assert resolve_target("hip", [("x", "hip:0")]) == ("hip", "hip:0")
    with pytest.raises(tessera.TesseraError, match="'x' is on hip:0, but the kernel is compiled for cuda devices"):
        resolve_target("nvptx", [("x", "hip:0")])


def test_cuda_torch_cuda_tensors_are_cuda_devices(cuda_torch):
    assert specialize_arg(TorchLike(TorchDevice("cuda", 2)))[2] == "cuda:2"
    assert resolve_target(None, [("x", "cuda:2")]) == ("nvptx", "cuda:2")


def test_without_torch_cuda_means_the_first_row(monkeypatch):
    monkeypatch.delitem(sys.modules, "torch", raising=False)
    assert specialize_arg(TorchLike(TorchDevice("cuda", 0)))[2] == "cuda:0"


def test_other_torch_devices(cuda_torch):
    # Intel GPUs (PyTorch "xpu") run SPIR-V through Level Zero: spirv's level_zero flavour
    # (the OpenCL flavour's code, run by Level Zero).
    assert specialize_arg(TorchLike(TorchDevice("xpu", 0)))[2] == "level_zero:0"
    assert resolve_target(None, [("x", "level_zero:0")]) == ("spirv:level_zero", "level_zero:0")
    with pytest.raises(TypeError, match="'mps' devices cannot be passed.*cpu, cuda, xpu"):
        specialize_arg(TorchLike(TorchDevice("mps", 0)))


def test_dlpack_devices():
    assert specialize_arg(DlpackOn(_dlpack.ROCM, 3))[2] == "hip:3"
    assert specialize_arg(DlpackOn(_dlpack.CUDA, 1))[2] == "cuda:1"
    with pytest.raises(TypeError, match="device type 9 cannot be passed"):
        specialize_arg(DlpackOn(9))


@tessera.jit
def copy_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


def test_rocm_tensors_go_to_amdgpu_and_need_a_rocm_device(rocm_torch):
    if "hip" in _C.backend_names():
        pytest.skip("this machine has an AMD GPU")
    x, out = TorchLike(TorchDevice("cuda", 0)), TorchLike(TorchDevice("cuda", 0), address=8192)
    with pytest.raises(tessera.TesseraError, match=r"backend 'hip' is not usable on this machine") as e:
        copy_kernel[(1,)](x, out, 8, BLOCK=8)
    assert e.value.status == _C.ERROR_UNAVAILABLE


def test_streams_follow_the_device(rocm_torch):
    assert _current_stream("hip:2") == 0xABC2  # torch's current stream on ROCm: the same torch.cuda API
    assert _current_stream("cpu") is None
    assert _current_stream(None) is None
