"""The spirv target's OpenCL flavour end to end on the OpenCL backend, on
whatever OpenCL device is here (Intel's OpenCL CPU runtime on CI machines,
from ci/requirements.txt: subgroups of 4 to 64, 256 KiB of local memory):
tessera arrays on the device, numpy arrays copied in and out, ragged
shapes, outputs prefilled with poison and compared whole against numpy's
float64, device print and assertions, the errors a user meets, and a
sample of the conformance corpus (all of it runs in ci/test.sh's matrix
step, and with TESSERA_TEST_TARGET=opencl in test_conformance.py)."""

import os
import subprocess
import sys

import numpy as np
import pytest

import tessera
import tessera.language as tl
from tessera import _C
from tessera import conformance as conf

pytestmark = pytest.mark.skipif("opencl" not in _C.backend_names(),
                                reason="no OpenCL device (ci/bootstrap.sh installs Intel's OpenCL CPU runtime)")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def cdiv(a, b):
    return (a + b - 1) // b


def poisoned(shape, dtype=np.float32):
    """An output array on the device full of NaN: an element the kernel
    does not write shows up in the comparison."""
    return tessera.from_numpy(np.full(shape, np.nan, dtype), device="opencl")


@tessera.jit(target="opencl")
def axpy(x_ptr, y_ptr, out_ptr, a, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, a * x + y, mask=mask)


@tessera.jit(target="opencl")
def softmax(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=-float("inf"))
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(out_ptr + row * n_cols + cols, e / tl.sum(e, axis=0), mask=cols < n_cols)


@tessera.jit(target="opencl")
def matmul(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    acc = tl.zeros((BM, BN), tl.float32)
    for k in range(0, K, BK):
        rk = k + tl.arange(0, BK)
        a = tl.load(a_ptr + rm[:, None] * K + rk[None, :], mask=(rm[:, None] < M) & (rk[None, :] < K), other=0.0)
        b = tl.load(b_ptr + rk[:, None] * N + rn[None, :], mask=(rk[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


@tessera.jit(target="opencl")
def mixed_args(out_ptr, flag, small, half, wide):
    # 1-, 4- and 8-byte scalars as kernel parameters (i1, i32, f32, i64).
    v = tl.where(flag, small.to(tl.float32) + half, wide.to(tl.float32))
    tl.store(out_ptr + tl.arange(0, 8), tl.full([8], 1.0, tl.float32) * v)


def test_device_names_its_runtime_and_arrays_round_trip():
    dev = _C.get_device("opencl")
    name = _C.device_name(dev)
    assert name.endswith(("CPU)", "GPU)")), name
    sg = _C.device_attribute(dev, "warpSize")
    assert sg in (4, 8, 16, 32, 64) and _C.device_attribute(dev, "max_shared_mem") >= 32 * 1024
    a = np.random.default_rng().standard_normal(1001).astype(np.float32)
    x = tessera.from_numpy(a, device="opencl")
    assert x.device == "opencl:0" and x.shape == (1001,)
    assert np.array_equal(x.numpy(), a)
    assert np.array_equal(tessera.zeros((3, 5), "int16", device="opencl").numpy(), np.zeros((3, 5), np.int16))


@pytest.mark.parametrize("n", [1, 127, 10_007])
def test_axpy_ragged_sizes_against_float64(n):
    rng = np.random.default_rng()
    x, y = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    out = poisoned(n)
    axpy[(cdiv(n, 512),)](tessera.from_numpy(x, device="opencl"), tessera.from_numpy(y, device="opencl"), out, 1.5, n,
                          BLOCK=512)
    np.testing.assert_allclose(out.numpy(), 1.5 * x.astype(np.float64) + y, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("n_cols", [1, 77, 1000])
def test_softmax_ragged_rows_against_float64(n_cols):
    rng = np.random.default_rng()
    rows = 13
    x = rng.standard_normal((rows, n_cols)).astype(np.float32) * 4
    out = poisoned((rows, n_cols))
    softmax[(rows,)](tessera.from_numpy(x, device="opencl"), out, n_cols, BLOCK=1024)
    ref = np.exp(x.astype(np.float64) - x.max(axis=1, keepdims=True))
    ref /= ref.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(out.numpy(), ref, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("m,n,k", [(64, 64, 64), (70, 33, 45)])
def test_matmul_ragged_shapes_against_float64(m, n, k):
    # Shared memory, barriers and subgroup shuffles in one kernel.
    rng = np.random.default_rng()
    a, b = rng.standard_normal((m, k)).astype(np.float32), rng.standard_normal((k, n)).astype(np.float32)
    c = poisoned((m, n))
    matmul[(cdiv(m, 32), cdiv(n, 32))](tessera.from_numpy(a, device="opencl"), tessera.from_numpy(b, device="opencl"), c,
                                       m, n, k, BM=32, BN=32, BK=16)
    np.testing.assert_allclose(c.numpy(), a.astype(np.float64) @ b.astype(np.float64), rtol=1e-4, atol=1e-4)


def test_scalar_arguments_of_every_width():
    out = poisoned(8)
    mixed_args[(1,)](out, True, -3, 0.5, 1 << 40)
    assert out.numpy().tolist() == [-2.5] * 8
    mixed_args[(1,)](out, False, -3, 0.5, 1 << 40)
    assert out.numpy().tolist() == [float(1 << 40)] * 8


def test_numpy_arrays_are_copied_in_and_out():
    rng = np.random.default_rng()
    n = 1001
    x, y = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    out = np.full(n, np.nan, np.float32)
    axpy[(8,)](x, y, out, 2.0, n, BLOCK=128)
    np.testing.assert_allclose(out, 2.0 * x.astype(np.float64) + y, rtol=1e-6, atol=1e-6)
    # Read-only inputs are copied in, and stay unwritten.
    ro = x.copy()
    ro.flags.writeable = False
    out = np.full(n, np.nan, np.float32)
    axpy[(8,)](ro, y, out, 3.0, n, BLOCK=128)
    np.testing.assert_allclose(out, 3.0 * x.astype(np.float64) + y, rtol=1e-6, atol=1e-6)
    assert np.array_equal(ro, x)


def test_views_at_an_offset_are_pointers_inside_an_allocation():
    # The launch passes base + offset (the conformance runner's view between
    # guard zones): an SVM pointer inside the allocation, not its start.
    rng = np.random.default_rng()
    x = rng.standard_normal(300).astype(np.float32)
    dev = tessera.from_numpy(x, device="opencl")
    out = poisoned(100)
    axpy[(1,)](conf._DeviceView(dev, 200, (100,)), conf._DeviceView(dev, 100, (100,)), out, 1.0, 100, BLOCK=128)
    np.testing.assert_allclose(out.numpy(), x[200:].astype(np.float64) + x[100:200], rtol=1e-6, atol=1e-6)


def test_launch_errors_are_exceptions_with_codes():
    x = np.zeros(8, np.float32)
    binary = axpy.compile_only("opencl", x, x, x, 1.0, 8, BLOCK=64)
    assert binary.format == "spirv" and bytes(binary.data[4:8]) == b"\x00\x02\x01\x00"  # SPIR-V 1.2
    with pytest.raises(_C.TesseraError, match="kernel 'axpy' takes 5 arguments, not 4") as e:
        _C.load_binary(bytes(binary.data), "axpy", 4, format="spirv", threads=binary.threads, device="opencl")
    assert e.value.status == _C.ERROR_INVALID_ARGUMENT
    with pytest.raises(_C.TesseraError, match="has no kernel 'nope'"):
        _C.load_binary(bytes(binary.data), "nope", 5, format="spirv", threads=binary.threads, device="opencl")
    with pytest.raises(_C.TesseraError, match="loads SPIR-V modules, not 'cubin'"):
        _C.load_binary(bytes(binary.data), "axpy", 5, format="cubin", threads=binary.threads, device="opencl")


def test_a_module_the_driver_cannot_build_reports_the_call_and_its_error():
    x = np.zeros(8, np.float32)
    data = bytearray(axpy.compile_only("opencl", x, x, x, 1.0, 8, BLOCK=64).data)
    # Keep the header and the reflected declarations; scribble over the code.
    for i in range(len(data) // 2 & ~3, len(data) - 8, 4):
        data[i:i + 4] = b"\xff\xff\x00\x00"
    with pytest.raises(_C.TesseraError, match=r"clCreateProgramWithIL|clBuildProgram|malformed SPIR-V") as e:
        _C.load_binary(bytes(data), "axpy", 5, format="spirv", threads=64, device="opencl")
    assert e.value.status != _C.SUCCESS


def test_binary_for_another_subgroup_size_is_refused():
    dev = _C.get_device("opencl")
    sg = _C.device_attribute(dev, "warpSize")
    x = np.zeros(8, np.float32)
    binary = axpy.compile_only("opencl", x, x, x, 1.0, 8, BLOCK=512, arch="sg128-16k")
    with pytest.raises(tessera.TesseraError, match="compiled for subgroups of 128 lanes"):
        _C.load_binary(bytes(binary.data), "axpy", 5, format="spirv", threads=binary.threads, device="opencl")
    assert sg != 128


@tessera.jit(target="opencl")
def positive(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=1)
    tl.device_assert(x > 0, "x must be positive")


def test_device_assert_reports_the_users_line_and_the_device_goes_on():
    import inspect
    x = np.arange(1, 301, dtype=np.int32)
    positive[(3,)](tessera.from_numpy(x, device="opencl"), 300, BLOCK=128)  # holds: no error
    x[217] = -4
    line = inspect.getsourcelines(positive.fn)[1] + 4  # the decorator, def, offs, x, then the assertion
    with pytest.raises(tessera.DeviceAssertionError,
                       match=r"test_opencl\.py:%d: device assertion failed: x must be positive" % line):
        positive[(3,)](tessera.from_numpy(x, device="opencl"), 300, BLOCK=128)
    x[217] = 4
    positive[(3,)](tessera.from_numpy(x, device="opencl"), 300, BLOCK=128)


@tessera.jit(target="opencl")
def printing(x_ptr, f_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    tl.device_print("x: ", x)
    tl.device_print("f=", tl.load(f_ptr + tl.arange(0, BLOCK)))
    tl.device_print("h=", x, hex=True)
    tl.device_print("scalar 100%")


def test_device_print_prints_what_the_cpu_target_prints(capfd):
    # OpenCL's printf: the driver prints when the kernel completes (the copy back waits for it).
    x = np.arange(-3, 5, dtype=np.int32)
    f = np.linspace(-1, 1, 8)
    xs = tessera.from_numpy(x, device="opencl")
    printing[(2,)](xs, tessera.from_numpy(f, device="opencl"), BLOCK=8)
    xs.numpy()
    got = sorted(capfd.readouterr().out.splitlines())
    want = []
    for pid in range(2):
        want.append("pid (%d, 0, 0) scalar 100%%" % pid)
        for i in range(8):
            want += ["pid (%d, 0, 0) idx (%d) x: %d" % (pid, i, x[i]), "pid (%d, 0, 0) idx (%d) f=: %f" % (pid, i, f[i]),
                     "pid (%d, 0, 0) idx (%d) h=: 0x%08x" % (pid, i, int(x[i]) & 0xFFFFFFFF)]  # Triton's prefix form
    assert got == sorted(want)


def test_events_time_the_device_and_streams_order_work():
    dev = _C.get_device("opencl")
    stream = _C.Stream(dev)
    start, end = _C.Event(dev), _C.Event(dev)
    n = 1 << 16
    x = tessera.from_numpy(np.ones(n, np.float32), device="opencl")
    out = poisoned(n)
    start.record(stream)
    for _ in range(3):
        axpy[(cdiv(n, 1024),)](x, x, out, 2.0, n, BLOCK=1024)
    end.record(stream)
    end.synchronize()
    assert end.elapsed_ms(start) >= 0
    assert np.array_equal(out.numpy(), np.full(n, 3.0, np.float32))


def test_bench_row_on_the_opencl_device(tmp_path):
    # Device timestamps, a correct result and the device's own copy ceiling.
    import json
    from tessera.bench.__main__ import main
    out = tmp_path / "bench.json"
    main(["--target", "opencl", "--workload", "vector_add", "--shape", "262144", "--reps", "3", "--no-compile-time",
          "--json", str(out)])
    rows = [r for r in json.loads(out.read_text())["rows"] if r.get("workload") == "vector_add"]
    assert len(rows) == 1 and "skip" not in rows[0], rows
    row = rows[0]
    assert row["target"] == "opencl" and row["value"] > 0 and row["ceiling"] > 0
    assert row["ceiling_name"] in ("memory copy (clEnqueueSVMMemcpy)", "memory copy (copy kernel)")
    assert row["max_rel_err"] < 1e-6


def _probe_in_a_fresh_process(tmp_path, **env):
    code = ("from tessera import _C\n"
            "try:\n    _C.get_device('opencl')\nexcept _C.TesseraError as e:\n    print(e.status, e)\n")
    full = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"), TESSERA_CACHE_DIR=str(tmp_path), **env)
    r = subprocess.run([sys.executable, "-c", code], env=full, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_a_missing_loader_says_what_to_install(tmp_path):
    out = _probe_in_a_fresh_process(tmp_path, TESSERA_LIBOPENCL="/nonexistent/libOpenCL.so.1")
    assert out.startswith(str(_C.ERROR_UNAVAILABLE)), out
    assert "cannot load the OpenCL ICD loader /nonexistent/libOpenCL.so.1" in out and "ocl-icd-libopencl1" in out


def test_a_missing_driver_says_what_to_install(tmp_path):
    out = _probe_in_a_fresh_process(tmp_path, OCL_ICD_VENDORS=str(tmp_path / "no-vendors"))
    assert out.startswith(str(_C.ERROR_UNAVAILABLE)), out
    assert "no OpenCL platform on this machine" in out and "pip install intel-opencl-rt" in out


# A sample of the corpus: every eighth case (each dtype of it), so that
# each family meets this device in the Python suite too.
SAMPLE = [pytest.param(c, d, id="%s[%s]" % (c.name, d))
          for i, c in enumerate(conf.load_corpus()) if i % 8 == 0 for d in c.dtypes if not c.reason("skip", d)]


@pytest.mark.parametrize("case,dtype", SAMPLE)
def test_conformance_sample(case, dtype, conformance_seed):
    r = conf.run_case(case, dtype, conf.Target("opencl", "run"), conformance_seed)
    if r.status == "unsupported":
        pytest.skip(r.message)
    assert r.status in ("pass", "xfail", "skip"), "%s (seed %d)" % (r.message, conformance_seed)
