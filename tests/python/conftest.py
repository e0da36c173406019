"""Shared setup for the Python tests: import tessera from the source tree,
use the build's libtessera.so, and a private compile cache per session."""

import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))
os.environ.setdefault("TESSERA_LIBRARY", os.path.join(ROOT, "build", "capi", "libtessera.so"))


@pytest.fixture(autouse=True, scope="session")
def _private_cache(tmp_path_factory):
    os.environ["TESSERA_CACHE_DIR"] = str(tmp_path_factory.mktemp("tessera-cache"))


@pytest.fixture
def cpu_target():
    from tessera import _C
    if not _C.target_available("cpu"):
        print("SKIP REASON: createTarget('cpu') returns null: no CPU code generator in this build")
        pytest.skip("createTarget('cpu') returns null: no CPU code generator in this build")


@pytest.fixture
def verify_each_pass(monkeypatch):
    """The IR verifier after every pass of a target's pipeline (as debug builds run it)."""
    monkeypatch.setenv("TESSERA_VERIFY_EACH", "1")


@pytest.fixture
def test_target():
    """The target of TESSERA_TEST_TARGET (default cpu): skips when this build
    cannot compile for it or this machine has no device to run it."""
    from tessera import _C
    name = os.environ.get("TESSERA_TEST_TARGET", "cpu")
    backend = _C.find_target(name)[1].backend  # the registry's; an unknown name fails, listing the known ones
    if not _C.target_available(name):
        pytest.skip("createTarget(%r) returns null: no code generator for it in this build" % name)
    try:
        _C.get_device(backend)
    except _C.TesseraError as e:
        pytest.skip("no %s device here: %s" % (backend, str(e).splitlines()[0]))
    return name


@pytest.fixture(scope="session")
def abi_kernels(tmp_path_factory):
    """The hand-written ABI kernels (tests/unit/runtime/abi_kernels.c) as bytes."""
    out = tmp_path_factory.mktemp("abi") / "abi_kernels.so"
    src = os.path.join(ROOT, "tests", "unit", "runtime", "abi_kernels.c")
    cc = os.environ.get("CC", "cc")
    subprocess.run([cc, "-O2", "-shared", "-fPIC", "-o", str(out), src], check=True)
    return out.read_bytes()


def pytest_report_header(config):
    return "conformance seed: %d (rerun with TESSERA_SEED=%d)" % (_seed(), _seed())


def _seed():
    # One seed per session, printed in the header; TESSERA_SEED reproduces a run.
    global _SEED
    if _SEED is None:
        env = os.environ.get("TESSERA_SEED")
        _SEED = int(env) if env else int.from_bytes(os.urandom(4), "little") & 0x7FFFFFFF
    return _SEED


_SEED = None


@pytest.fixture(scope="session")
def conformance_seed():
    return _seed()
