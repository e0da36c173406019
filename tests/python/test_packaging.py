"""One version everywhere a user sees it: the Python package, the C library
(tessera_version), CMake's project (find_package's version check) and the
wheel's metadata (read by ci/wheel/tessera_wheel.py from the package).
ci/packages.sh builds and installs the packages themselves."""
import pathlib
import re
import sys

import pytest

import tessera
from tessera import _C

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.mark.skipif(not (ROOT / "CMakeLists.txt").exists() or not (ROOT / "ci" / "wheel").exists(),
                    reason="not a source tree (the GPU machines' bundle)")
def test_one_version_in_the_package_the_library_cmake_and_the_wheel():
    cmake = re.search(r"project\(Tessera VERSION ([0-9.]+)", (ROOT / "CMakeLists.txt").read_text()).group(1)
    assert tessera.__version__ == cmake
    assert _C.version().startswith("tessera %s " % cmake), _C.version()
    sys.path.insert(0, str(ROOT / "ci" / "wheel"))
    try:
        import tessera_wheel
    finally:
        sys.path.pop(0)
    assert tessera_wheel._version() == cmake
    assert "Version: %s\n" % cmake in tessera_wheel._metadata()
    assert re.fullmatch(r"linux_x86_64|linux_aarch64|[a-z0-9_]+", tessera_wheel._platform_tag())
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert 'dynamic = ["version"]' in pyproject and 'build-backend = "tessera_wheel"' in pyproject
