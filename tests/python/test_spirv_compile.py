"""The spirv target without running: every conformance kernel compiles in
the OpenCL flavour (for OpenCL runtimes and Level Zero) for subgroups of 16 and
32, and in the Vulkan flavour for NVIDIA's subgroups of 32, each module
passing SPIRV-Tools' validator for its environment (the compile runs it in
process and fails on a rejected module). A kernel the target names a gap
for (more shared memory than the arch has) must say so in those words."""

import re

import pytest

from tessera import _C
from tessera import conformance as conf

pytestmark = pytest.mark.usefixtures("verify_each_pass")

CASES = conf.load_corpus()
FLAVOURS = [("spirv:opencl", "sg16-64k"), ("spirv:opencl", "sg32-64k"), ("vulkan", "sg32-48k")]
SPIRV_MAGIC = b"\x03\x02\x23\x07"


def _params():
    return [pytest.param(c, d, id="%s[%s]" % (c.name, d)) for c in CASES for d in c.dtypes
            if not c.reason("skip", d)]


@pytest.mark.parametrize("target,arch", FLAVOURS, ids=["%s-%s" % f for f in FLAVOURS])
@pytest.mark.parametrize("case,dtype", _params())
def test_conformance_kernel_compiles_and_validates(case, dtype, target, arch):
    try:
        binary = conf.compile_case(case, dtype, target, 7, arch=arch)
    except Exception as e:  # noqa: BLE001
        if case.raises is not None and isinstance(e, case.raises):
            return
        if isinstance(e, _C.CompilationError) and conf._TARGET_GAPS.search(str(e)):
            pytest.skip(str(e).splitlines()[0])
        raise
    assert binary.format == "spirv"
    data = bytes(binary.data)
    assert data[:4] == SPIRV_MAGIC and len(data) % 4 == 0
    # SPIR-V 1.2 for OpenCL 2.2 / Level Zero, 1.5 for Vulkan 1.2.
    assert data[4:8] == (b"\x00\x02\x01\x00" if target.startswith("spirv:opencl") else b"\x00\x05\x01\x00")


def test_opencl_flavour_runs_on_the_opencl_backend_and_level_zero_says_why_not():
    # The OpenCL flavour's code runs on the opencl backend (Intel's OpenCL CPU
    # runtime here, tests/python/test_opencl.py) and on Level Zero, which
    # has no driver here: a device request says why (tests/python/
    # test_level_zero.py runs that backend over a fake driver).
    assert _C.find_target("opencl")[1].backend == "opencl"
    assert _C.find_target("level_zero")[1].backend == "level_zero"
    assert "level_zero" not in _C.backend_names()
    with pytest.raises(_C.TesseraError, match=re.escape("backend 'level_zero' is not usable on this machine") +
                       ".*Level Zero"):
        _C.get_device("level_zero")
    if "opencl" not in _C.backend_names():
        pytest.skip("no OpenCL runtime here (ci/bootstrap.sh installs Intel's OpenCL CPU runtime)")
    case = next(c for c in CASES if c.name == "elementwise.exp")
    r = conf.run_case(case, "fp32", conf.Target("opencl", "run"), 7)
    assert r.status == "pass", r.message