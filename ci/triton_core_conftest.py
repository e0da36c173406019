# The shim under which Triton's test_core.py runs on Tessera (copied next to
# it by ci/triton_core.sh fetch; it is Tessera's, test_core.py is Triton's):
# `triton` is tessera.compat, Triton's own test helpers
# (_internal_testing.py) are loaded from Triton's file, and the few Triton
# internals the tests touch that Tessera does not have get stand-ins here.
import importlib.util
import os
import sys
import types

import pytest
import torch

import tessera.compat
import tessera.language as tl

triton = tessera.compat.install()


def _namespace(**kw):
    return types.SimpleNamespace(**kw)


if not hasattr(triton, "knobs"):  # Triton's settings object: Tessera reads TESSERA_* variables instead
    knobs = types.ModuleType("triton.knobs")
    knobs.base_knobs = types.SimpleNamespace
    knobs.propagate_env = False
    knobs.nvidia = _namespace(ptxas=_namespace(version="13.0"))
    knobs.runtime = _namespace(interpret=False)
    triton.knobs = sys.modules["triton.knobs"] = knobs
errors = sys.modules["triton.runtime.errors"]
if not hasattr(errors, "InterpreterError"):
    errors.InterpreterError = type("InterpreterError", (Exception,), {})
# Dtypes Tessera does not have (docs/differences-from-triton.md): stand-ins so
# that the module collects; kernels using them fail to compile.
for _name, _short in (("float8e4b15", "fp8e4b15"), ("float8e4b8", "fp8e4b8"), ("float8e5b16", "fp8e5b16")):
    if not hasattr(tl, _name):
        setattr(tl, _name, tl.dtype(_name, _short, 8, "float"))

_spec = importlib.util.spec_from_file_location("triton._internal_testing",
                                               os.path.join(os.path.dirname(__file__), "_internal_testing.py"))
_testing = importlib.util.module_from_spec(_spec)
sys.modules["triton._internal_testing"] = triton._internal_testing = _testing
_spec.loader.exec_module(_testing)


def pytest_addoption(parser):
    parser.addoption("--device", action="store", default="cpu")


@pytest.fixture
def device(request):
    return request.config.getoption("--device")


@pytest.fixture
def with_allocator():
    triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8))
    try:
        yield
    finally:
        triton.set_allocator(None)


@pytest.fixture
def fresh_knobs():
    yield _namespace(language=_namespace(default_fp_fusion=True), runtime=_namespace(override_arch=None))


@pytest.fixture
def fresh_triton_cache(tmp_path):
    yield str(tmp_path)
