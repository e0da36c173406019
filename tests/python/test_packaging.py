"""One version everywhere a user sees it: the Python package, the C library
(tessera_version), the command line, CMake's project (find_package's
version check) and the wheel's metadata (scikit-build-core reads it from the
package, as pyproject.toml says). ci/packages.sh builds and installs the
packages themselves."""
import pathlib
import re
import subprocess
import sys

import pytest

import tessera
from tessera import _C

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.mark.skipif(not (ROOT / "CMakeLists.txt").exists(), reason="not a source tree (the GPU machines' bundle)")
def test_one_version_in_the_package_the_library_the_cli_cmake_and_the_wheel():
    cmake = re.search(r"project\(Tessera VERSION ([0-9.]+)", (ROOT / "CMakeLists.txt").read_text()).group(1)
    assert tessera.__version__ == cmake
    assert _C.version().startswith("tessera %s " % cmake), _C.version()
    cli = subprocess.run([sys.executable, "-m", "tessera", "--version"], capture_output=True, text=True,
                         cwd=ROOT / "python", check=True).stdout
    assert cli.startswith("tessera %s (LLVM " % cmake), cli
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert 'dynamic = ["version"]' in pyproject and 'build-backend = "scikit_build_core.build"' in pyproject
    regex = 'metadata.version.provider = "scikit_build_core.metadata.regex"'
    assert regex in pyproject and 'metadata.version.input = "python/tessera/__init__.py"' in pyproject
    # The regex provider's default pattern: __version__ = "..." at a line's start.
    assert re.search(r'^__version__ = "%s"$' % re.escape(cmake), (ROOT / "python/tessera/__init__.py").read_text(),
                     re.M)
