"""@tessera.jit(target="level_zero") end to end over a fake Level Zero loader
(tests/unit/runtime/fake_libze_loader.c: host memory, launches recorded but
not run), in a fresh process since the backend is probed once per process:
arrays on the device, the OpenCL-flavour SPIR-V compiled for the device's
arch, each argument set with its size, the group size and grid."""
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
FAKE = ROOT / "tests" / "unit" / "runtime" / "fake_libze_loader.c"

SCRIPT = r'''
import ctypes, sys
import numpy as np
import tessera
import tessera.language as tl
from tessera import _C

@tessera.jit(target="level_zero")
def axpy(x_ptr, out_ptr, a, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, a * tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)

dev = _C.get_device("level_zero")
print("device", _C.device_name(dev), _C.device_attribute(dev, "warpSize"))
x = tessera.from_numpy(np.arange(100, dtype=np.float32), device="level_zero")
out = tessera.from_numpy(np.full(100, 7.0, np.float32), device="level_zero")
axpy[(2,)](x, out, 1.5, 100, BLOCK=64)
fake = ctypes.CDLL(sys.argv[1])
group, count = (ctypes.c_uint * 3)(), (ctypes.c_uint * 3)()
nargs, sizes, args = ctypes.c_uint(), (ctypes.c_size_t * 16)(), (ctypes.c_ubyte * 128)()
launches = fake.fake_ze_last_launch(group, count, ctypes.byref(nargs), sizes, args)
raw = bytes(args)
print("launches", launches, "group", list(group), "count", list(count), "sizes", list(sizes)[:nargs.value])
print("ptrs", int.from_bytes(raw[0:8], "little") == x.data_ptr(), int.from_bytes(raw[8:16], "little") == out.data_ptr())
print("scalars", np.frombuffer(raw[16:20], np.float32)[0], int.from_bytes(raw[24:28], "little"))
print("unrun", float(out.numpy()[0]), float(x.numpy()[99]))
'''


@pytest.fixture(scope="module")
def fake_loader(tmp_path_factory):
    cc = shutil.which("cc") or shutil.which("gcc")
    if not cc:
        pytest.skip("no C compiler to build the fake Level Zero loader")
    if not FAKE.exists():
        pytest.skip("no %s here (the GPU machines' bundle has no Level Zero fake)" % FAKE.name)
    out = tmp_path_factory.mktemp("ze") / "libze_fake.so"
    r = subprocess.run([cc, "-shared", "-fPIC", "-DINIT_RESULT=0", "-DDEVICE_COUNT=1", "-o", str(out), str(FAKE)],
                       capture_output=True, text=True)
    if r.returncode != 0 and "level_zero/ze_api.h" in r.stderr:
        pytest.skip("no Level Zero headers here (Debian's libze-dev; ci/bootstrap.sh installs it)")
    assert r.returncode == 0, r.stderr
    return out


def test_jit_launch_on_a_fake_level_zero_device(fake_loader, tmp_path):
    script = tmp_path / "run.py"
    script.write_text(SCRIPT)
    env = dict(os.environ, TESSERA_LIBZE_LOADER=str(fake_loader), TESSERA_CACHE_DIR=str(tmp_path / "cache"),
               PYTHONPATH=str(ROOT / "python"))
    r = subprocess.run([sys.executable, str(script), str(fake_loader)], env=env, capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    lines = dict(line.split(" ", 1) for line in r.stdout.splitlines())
    assert lines["device"] == "Fake Intel GPU 16"
    # 4 subgroups of 16 (num_warps 4), 2 programs; pointer, pointer, f32, i32.
    assert lines["launches"] == "1 group [64, 1, 1] count [2, 1, 1] sizes [8, 8, 4, 4]"
    assert lines["ptrs"] == "True True"
    assert lines["scalars"] == "1.5 100"
    # The fake runs nothing: the output keeps what was copied in.
    assert lines["unrun"] == "7.0 99.0"
