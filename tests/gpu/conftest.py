"""Setup for the GPU suite: import tessera from PYTHONPATH (the bundle) or the
source tree, a private compile cache, and the PTX/cubin of kernels.cu."""

import os
import shutil
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
try:
    import tessera  # noqa: F401  (PYTHONPATH, e.g. the bundle's tessera/python)
except ImportError:
    sys.path.insert(0, os.path.join(ROOT, "python"))


def _skip(reason):
    # Printed as well, so the reason shows in a plain `pytest -q` log.
    print("SKIP REASON: " + reason)
    pytest.skip(reason)


@pytest.fixture(autouse=True, scope="session")
def _private_cache(tmp_path_factory):
    os.environ["TESSERA_CACHE_DIR"] = str(tmp_path_factory.mktemp("tessera-cache"))


@pytest.fixture(scope="session")
def cuda_device():
    from tessera import _C
    if "cuda" not in _C.backend_names():
        try:
            _C.get_device("cuda")
        except _C.TesseraError as e:
            _skip("no CUDA device: %s" % e)
    return _C.get_device("cuda")


@pytest.fixture(scope="session")
def torch(cuda_device):
    try:
        import torch
    except ImportError:
        _skip("torch is not installed")
    if not torch.cuda.is_available():
        _skip("torch sees no CUDA device")
    return torch


def _nvcc(kind, tmp_path_factory):
    nvcc = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
    if not os.path.exists(nvcc):
        _skip("nvcc not found (PATH or /usr/local/cuda/bin)")
    arch = os.environ.get("TESSERA_GPU_ARCH", "sm_90")
    out = tmp_path_factory.mktemp("nvcc") / ("kernels." + kind)
    subprocess.run([nvcc, "-" + kind, "-arch=" + arch, "-o", str(out), os.path.join(HERE, "kernels.cu")], check=True)
    return out.read_bytes()


@pytest.fixture(scope="session")
def ptx(cuda_device, tmp_path_factory):
    return _nvcc("ptx", tmp_path_factory)


@pytest.fixture(scope="session")
def cubin(cuda_device, tmp_path_factory):
    return _nvcc("cubin", tmp_path_factory)
