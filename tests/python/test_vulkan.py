"""The spirv target's Vulkan flavour end to end on whatever Vulkan device is
here (Mesa's lavapipe on CI machines: subgroups of 8, 32 KiB of shared
memory): tessera arrays on the device, launches, the binary's own argument
layout, and the errors a user meets. The whole conformance corpus runs on
it in ci/test.sh's matrix step."""

import numpy as np
import pytest

import tessera
import tessera.language as tl
from tessera import _C
from tessera import conformance as conf

pytestmark = pytest.mark.skipif("vulkan" not in _C.backend_names(),
                                reason="no Vulkan device (ci/bootstrap.sh installs Mesa's lavapipe)")


@tessera.jit(target="vulkan")
def axpy(x_ptr, y_ptr, out_ptr, a, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, a * x + y, mask=mask)


@tessera.jit(target="vulkan")
def softmax(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=-float("inf"))
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(out_ptr + row * n_cols + cols, e / tl.sum(e, axis=0), mask=cols < n_cols)


@tessera.jit(target="vulkan")
def mixed_args(out_ptr, flag, small, half, wide):
    # 1-, 4- and 8-byte scalars in one push-constant block (i1, i32, f32, i64).
    v = tl.where(flag, small.to(tl.float32) + half, wide.to(tl.float32))
    tl.store(out_ptr + tl.arange(0, 8), tl.full([8], 1.0, tl.float32) * v)


def test_device_and_arrays_round_trip():
    dev = _C.get_device("vulkan")
    arch = _C.device_architecture(dev) if hasattr(_C, "device_architecture") else None
    a = np.random.default_rng(1).standard_normal(1001).astype(np.float32)
    x = tessera.from_numpy(a, device="vulkan")
    assert x.device == "vulkan:0" and x.shape == (1001,)
    assert np.array_equal(x.numpy(), a)
    z = tessera.zeros((3, 5), "int16", device="vulkan")
    assert np.array_equal(z.numpy(), np.zeros((3, 5), np.int16))
    assert arch is None or arch.startswith("sg")


def test_axpy_ragged():
    rng = np.random.default_rng(2)
    n = 10_007
    x, y = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    out = tessera.from_numpy(np.full(n, np.nan, np.float32), device="vulkan")
    axpy[(triton_cdiv(n, 512),)](tessera.from_numpy(x, device="vulkan"), tessera.from_numpy(y, device="vulkan"), out,
                                 1.5, n, BLOCK=512)
    np.testing.assert_allclose(out.numpy(), 1.5 * x.astype(np.float64) + y, rtol=1e-6, atol=1e-6)


def triton_cdiv(a, b):
    return (a + b - 1) // b


@pytest.mark.parametrize("n_cols", [1, 77, 1000])
def test_softmax_rows(n_cols):
    rng = np.random.default_rng(n_cols)
    rows = 13
    x = rng.standard_normal((rows, n_cols)).astype(np.float32) * 4
    out = tessera.from_numpy(np.full((rows, n_cols), np.nan, np.float32), device="vulkan")
    softmax[(rows,)](tessera.from_numpy(x, device="vulkan"), out, n_cols, BLOCK=1024)
    ref = np.exp(x.astype(np.float64) - x.max(axis=1, keepdims=True))
    ref /= ref.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(out.numpy(), ref, rtol=1e-5, atol=1e-7)


def test_scalar_arguments_of_every_width():
    out = tessera.from_numpy(np.full(8, np.nan, np.float32), device="vulkan")
    mixed_args[(1,)](out, True, -3, 0.5, 1 << 40)
    assert out.numpy().tolist() == [-2.5] * 8
    mixed_args[(1,)](out, False, -3, 0.5, 1 << 40)
    assert out.numpy().tolist() == [float(1 << 40)] * 8


def test_numpy_arrays_are_copied_in_and_out():
    rng = np.random.default_rng(5)
    n = 1001
    x, y = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    for launch in range(3):  # the first launches learn device arrays; numpy ones still take the copies
        if launch == 1:
            axpy[(8,)](tessera.from_numpy(x, device="vulkan"), tessera.from_numpy(y, device="vulkan"),
                       tessera.empty(n, device="vulkan"), 1.0, n, BLOCK=128)
        out = np.full(n, np.nan, np.float32)
        axpy[(8,)](x, y, out, 2.0 + launch, n, BLOCK=128)
        np.testing.assert_allclose(out, (2.0 + launch) * x + y, rtol=1e-6)
    # warmup compiles what such a launch runs: the launch after it compiles nothing.
    kernels = len(axpy.cache)
    axpy.warmup(x, y, out, 1.0, n, BLOCK=64, grid=(1,))
    assert len(axpy.cache) == kernels + 1
    axpy[(16,)](x, y, out, 1.0, n, BLOCK=64)
    assert len(axpy.cache) == kernels + 1
    np.testing.assert_allclose(out, x + y, rtol=1e-6)
    # Read-only inputs are copied in, and stay unwritten.
    ro = x.copy()
    ro.flags.writeable = False
    out = np.full(n, np.nan, np.float32)
    axpy[(8,)](ro, y, out, 3.0, n, BLOCK=128)
    np.testing.assert_allclose(out, 3.0 * x + y, rtol=1e-6)
    assert np.array_equal(ro, x)


def test_host_arrays_the_launch_cannot_copy_are_refused_with_the_reason():
    x = np.zeros(8, np.float32)
    ro = x.copy()
    ro.flags.writeable = False
    with pytest.raises(TypeError, match="stores through argument 'out_ptr', a read-only array"):
        axpy[(1,)](x, x, ro, 1.0, 8, BLOCK=8)
    with pytest.raises(tessera.TesseraError, match="argument 'out_ptr' is a numpy array that is not C-contiguous"):
        axpy[(1,)](x, x, np.zeros((8, 2), np.float32)[:, 0], 1.0, 8, BLOCK=8)
    # Mixed with a device array: no hint to pass the target the kernel has.
    with pytest.raises(tessera.TesseraError, match=r"are on different devices: .*; move them to one device$"):
        axpy[(1,)](tessera.from_numpy(x, device="cpu"), tessera.from_numpy(x, device="vulkan"), x, 1.0, 8, BLOCK=8)
    # Another host array (a tessera array in host memory) is not copied.
    with pytest.raises(tessera.TesseraError, match="is on cpu, but the kernel is compiled for vulkan devices"):
        host = tessera.from_numpy(x, device="cpu")
        axpy[(1,)](host, host, host, 1.0, 8, BLOCK=8)


def test_binary_for_another_subgroup_size_is_refused():
    dev = _C.get_device("vulkan")
    sg = _C.device_attribute(dev, "warpSize")
    other = 64 if sg != 64 else 32
    binary = axpy.compile_only("vulkan", np.zeros(8, np.float32), np.zeros(8, np.float32), np.zeros(8, np.float32), 1.0,
                               8, BLOCK=512, arch="sg%d-16k" % other)
    assert binary.format == "spirv" and bytes(binary.data[:4]) == b"\x03\x02\x23\x07"
    with pytest.raises(tessera.TesseraError, match="compiled for subgroups of %d lanes" % other):
        _C.load_binary(bytes(binary.data), "axpy", 5, format="spirv", threads=binary.threads)


@tessera.jit(target="vulkan")
def many_arguments(out_ptr, p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11, p12, p13, p14, p15, flag, small, half,
                   wide, n, BLOCK: tl.constexpr):
    # 17 pointers and 5 scalars of 1 to 8 bytes: 160 bytes, beyond the 128 of push constants.
    offs = tl.arange(0, BLOCK)
    m = offs < n
    acc = tl.load(p0 + offs, mask=m) + tl.load(p1 + offs, mask=m) + tl.load(p2 + offs, mask=m)
    acc += tl.load(p3 + offs, mask=m) + tl.load(p4 + offs, mask=m) + tl.load(p5 + offs, mask=m)
    acc += tl.load(p6 + offs, mask=m) + tl.load(p7 + offs, mask=m) + tl.load(p8 + offs, mask=m)
    acc += tl.load(p9 + offs, mask=m) + tl.load(p10 + offs, mask=m) + tl.load(p11 + offs, mask=m)
    acc += tl.load(p12 + offs, mask=m) + tl.load(p13 + offs, mask=m) + tl.load(p14 + offs, mask=m)
    acc += tl.load(p15 + offs, mask=m)
    tl.device_assert(small > 0, "small must be positive")
    extra = tl.where(flag, small.to(tl.float32) * half, wide.to(tl.float32))
    tl.store(out_ptr + offs, acc + extra, mask=m)


def test_arguments_beyond_the_push_constants_go_to_a_parameter_buffer():
    # Launches back to back with different arguments each see their own
    # (the parameter buffer is written in stream order), assertions included.
    rng = np.random.default_rng(11)
    n, block = 100, 128
    ins = [rng.standard_normal(n).astype(np.float32) for _ in range(16)]
    dev_ins = [tessera.from_numpy(a, device="vulkan") for a in ins]
    outs = [tessera.from_numpy(np.full(n, np.nan, np.float32), device="vulkan") for _ in range(3)]
    args = [(True, 3, 0.5, 1 << 40), (False, 7, 2.0, -(1 << 33)), (True, 9, -1.5, 5)]
    for out, (flag, small, half, wide) in zip(outs, args):
        many_arguments[(1,)](out, *dev_ins, flag, small, half, wide, n, BLOCK=block)
    total = np.sum(np.stack(ins).astype(np.float64), axis=0)
    for out, (flag, small, half, wide) in zip(outs, args):
        extra = np.float32(small * half) if flag else np.float32(wide)
        np.testing.assert_allclose(out.numpy(), total + extra, rtol=1e-5, atol=1e-3)
    with pytest.raises(tessera.DeviceAssertionError, match="small must be positive"):
        many_arguments[(1,)](outs[0], *dev_ins, True, 0, 1.0, 0, n, BLOCK=block)
    many_arguments[(1,)](outs[0], *dev_ins, True, 2, 1.0, 0, n, BLOCK=block)
    np.testing.assert_allclose(outs[0].numpy(), total + 2.0, rtol=1e-5, atol=1e-3)


# The conformance corpus' unary kernel; tessera arrays on the Vulkan device pick the target.
UNARY = next(c for c in conf.load_corpus() if c.name == "elementwise.exp").kernel


_RNG = np.random.default_rng(7)
# (op, dtype, inputs, ulps): f64 functions are Tessera's own (GLSL.std.450 has
# none); f32 sin/cos too (Vulkan's are accurate to 2^-11 absolute only).
# Results stay normal: Vulkan devices may flush subnormals.
_MATH = [
    ("exp", "float64", np.concatenate([_RNG.uniform(-700, 709.7, 4000), [0.0, -0.0, 709.78, -745.2, np.inf, -np.inf, np.nan]]), 2),
    ("exp2", "float64", _RNG.uniform(-1020, 1023.9, 4000), 2),
    ("log", "float64", np.concatenate([np.exp(_RNG.uniform(-700, 700, 4000)), [1.0, 0.0, -1.0, np.inf, np.nan]]), 2),
    ("log2", "float64", np.concatenate([np.exp(_RNG.uniform(-700, 700, 4000)), [2.0 ** -1000, 2.0 ** 1000]]), 2),
    ("sin", "float64", np.concatenate([_RNG.uniform(-10, 10, 4000), _RNG.uniform(-1e6, 1e6, 4000), [0.0, -0.0]]), 3),
    ("cos", "float64", np.concatenate([_RNG.uniform(-10, 10, 4000), _RNG.uniform(-1e6, 1e6, 4000)]), 3),
    ("erf", "float64", np.concatenate([_RNG.uniform(-7, 7, 4000), _RNG.uniform(-1e-3, 1e-3, 1000)]), 24),
    ("sin", "float32", np.concatenate([_RNG.uniform(-10, 10, 4000), _RNG.uniform(-8000, 8000, 4000)]), 2),
    ("cos", "float32", np.concatenate([_RNG.uniform(-10, 10, 4000), _RNG.uniform(-8000, 8000, 4000)]), 2),
    ("erf", "float32", _RNG.uniform(-6, 6, 4000), 4),
]


@pytest.mark.parametrize("op,dtype,x,ulps", _MATH, ids=["%s-%s" % (m[0], m[1]) for m in _MATH])
def test_math_accuracy_in_ulps(op, dtype, x, ulps):
    import math
    x = x.astype(dtype)
    out = tessera.from_numpy(np.full(x.size, 12345.0, dtype), device="vulkan")
    UNARY[(triton_cdiv(x.size, 256),)](tessera.from_numpy(x, device="vulkan"), out, x.size, OP=op, BLOCK=256)
    got = out.numpy().astype(np.float64)
    with np.errstate(all="ignore"):
        ref = np.vectorize(math.erf)(x.astype(np.float64)) if op == "erf" else getattr(np, op)(x.astype(np.float64))
    special = ~np.isfinite(ref)
    assert np.array_equal(np.isnan(got[special]), np.isnan(ref[special]))
    assert np.array_equal(got[special & ~np.isnan(ref)], ref[special & ~np.isnan(ref)])
    err = np.abs(got[~special] - ref[~special]) / np.spacing(np.abs(ref[~special]).astype(dtype)).astype(np.float64)
    worst = int(np.argmax(err))
    assert err.max() <= ulps, "%s(%r) = %r, expected %r (%.1f ulp)" % (
        op, x[~special][worst], got[~special][worst], ref[~special][worst], err.max())


@tessera.jit(target="vulkan")
def positive(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=1)
    tl.device_assert(x > 0, "x must be positive")


def test_device_assert_reports_the_users_line_and_the_device_goes_on():
    import inspect
    x = np.arange(1, 301, dtype=np.int32)
    positive[(3,)](tessera.from_numpy(x, device="vulkan"), 300, BLOCK=128)  # holds: no error
    x[217] = -4
    line = inspect.getsourcelines(positive.fn)[1] + 4  # the decorator, def, offs, x, then the assertion
    with pytest.raises(tessera.DeviceAssertionError, match=r"test_vulkan\.py:%d: device assertion failed: x must be "
                                                           r"positive" % line):
        positive[(3,)](tessera.from_numpy(x, device="vulkan"), 300, BLOCK=128)
    # Unlike CUDA's, a Vulkan device survives a failed assertion.
    x[217] = 4
    positive[(3,)](tessera.from_numpy(x, device="vulkan"), 300, BLOCK=128)


def test_bench_rows_on_the_vulkan_device(tmp_path):
    # The bench's Vulkan row: Vulkan timestamps, a correct result and the
    # device's own copy ceiling (the faster of vkCmdCopyBuffer and a copy kernel).
    import json
    from tessera.bench.__main__ import main
    out = tmp_path / "bench.json"
    main(["--target", "vulkan", "--workload", "vector_add", "--shape", "262144", "--reps", "3", "--no-compile-time",
          "--json", str(out)])
    rows = [r for r in json.loads(out.read_text())["rows"] if r.get("workload") == "vector_add"]
    assert len(rows) == 1 and "skip" not in rows[0], rows
    row = rows[0]
    assert row["target"] == "vulkan" and row["value"] > 0 and row["ceiling"] > 0
    assert row["ceiling_name"] in ("memory copy (vkCmdCopyBuffer)", "memory copy (copy kernel)")
    assert row["max_rel_err"] < 1e-6


@tessera.jit(target="vulkan")
def masked_far(x_ptr, out_ptr, n, far, BLOCK: tl.constexpr):
    # Masked-off lanes point far outside any buffer (and at null when far is 0).
    offs = tl.arange(0, BLOCK)
    inside = offs < n
    where = tl.where(inside, offs, offs * far)
    a = tl.load(x_ptr + where, mask=inside, other=-1.0)
    b = tl.load(x_ptr + where, mask=offs >= BLOCK, other=2.0)  # every lane masked off
    tl.store(out_ptr + offs, a + b)


@pytest.mark.parametrize("far", [1 << 20, -(1 << 26)])
def test_masked_off_loads_never_touch_their_addresses(far):
    # Masked loads read the runtime's safe bytes where the mask is off (no
    # branch); the far addresses must never be read and `other` comes back.
    n, block = 37, 128
    x = np.random.default_rng(3).standard_normal(n).astype(np.float32)
    out = tessera.from_numpy(np.full(block, np.nan, np.float32), device="vulkan")
    masked_far[(1,)](tessera.from_numpy(x, device="vulkan"), out, n, far, BLOCK=block)
    expect = np.concatenate([x, np.full(block - n, -1.0, np.float32)]) + 2.0
    np.testing.assert_array_equal(out.numpy(), expect)


@tessera.jit(target="vulkan")
def printing(x_ptr, f_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    tl.device_print("x: ", x)
    tl.device_print("f=", tl.load(f_ptr + tl.arange(0, BLOCK)))
    tl.device_print("h=", x, hex=True)
    tl.device_print("scalar 100%")


def test_device_print_prints_what_the_cpu_target_prints(capfd):
    # Records written by the kernel, formatted by the runtime after the launch.
    x = np.arange(-3, 5, dtype=np.int32)
    f = np.linspace(-1, 1, 8)
    printing[(2,)](tessera.from_numpy(x, device="vulkan"), tessera.from_numpy(f, device="vulkan"), BLOCK=8)
    got = sorted(capfd.readouterr().out.splitlines())
    want = []
    for pid in range(2):
        want.append("pid (%d, 0, 0) scalar 100%%" % pid)
        for i in range(8):
            want += ["pid (%d, 0, 0) idx (%d) x: %d" % (pid, i, x[i]), "pid (%d, 0, 0) idx (%d) f=: %f" % (pid, i, f[i]),
                     "pid (%d, 0, 0) idx (%d) h=: 0x%08x" % (pid, i, int(x[i]) & 0xFFFFFFFF)]  # Triton's prefix form
    assert got == sorted(want)


@tessera.jit(target="vulkan")
def print_many(x_ptr, BLOCK: tl.constexpr):
    tl.device_print("v", tl.load(x_ptr + tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)))


def test_device_print_overflow_keeps_what_fits_and_says_so(capfd):
    # 48-byte records: a MiB holds 21845 of the 32768 printed.
    x = np.arange(32768, dtype=np.int32)
    print_many[(8,)](tessera.from_numpy(x, device="vulkan"), BLOCK=4096)
    out, err = capfd.readouterr()
    lines = out.splitlines()
    assert len(lines) == (1 << 20) // 48
    assert all(line.startswith("pid (") and " v" in line for line in lines)
    assert "printed more than 1048576 bytes of records; the rest was dropped" in err


def test_a_device_lacking_a_feature_refuses_the_kernel_and_conformance_says_unsupported(tmp_path):
    # The same f64 cases on this device, then with shaderFloat64 hidden (as
    # on a device without it): pass, then "unsupported" naming the feature.
    import os
    import subprocess
    import sys
    cmd = [sys.executable, "-m", "tessera.conformance", "--target", "vulkan", "--case", "cast.to_fp64", "--seed", "5"]
    env = dict(os.environ, TESSERA_CACHE_DIR=str(tmp_path / "cache"),
               PYTHONPATH=os.path.dirname(os.path.dirname(tessera.__file__)))
    full = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
    assert full.returncode == 0 and "unsupported" not in full.stdout.split("summary:")[-1], full.stdout[-2000:]
    env["TESSERA_VULKAN_HIDE_FEATURES"] = "shaderFloat64"
    hidden = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
    assert hidden.returncode == 0, hidden.stdout[-2000:]
    summary = hidden.stdout.split("summary:")[-1]
    assert " pass" not in summary and "unsupported" in summary, summary
    assert "(Vulkan's shaderFloat64), which" in hidden.stdout and "does not have" in hidden.stdout


@tessera.autotune(configs=[tessera.Config({"BLOCK": 128}), tessera.Config({"BLOCK": 16})], key=["K"])
@tessera.jit(target="vulkan")
def square_matmul(a_ptr, b_ptr, c_ptr, K, BLOCK: tl.constexpr):
    r = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK, BLOCK), dtype=tl.float32)
    for k in range(0, K, BLOCK):
        a = tl.load(a_ptr + r[:, None] * K + (k + r)[None, :], mask=(r[:, None] < 16) & ((k + r)[None, :] < K),
                    other=0.0)
        b = tl.load(b_ptr + (k + r)[:, None] * 16 + r[None, :], mask=((k + r)[:, None] < K) & (r[None, :] < 16),
                    other=0.0)
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + r[:, None] * 16 + r[None, :], acc, mask=(r[:, None] < 16) & (r[None, :] < 16))


def test_autotune_skips_a_configuration_too_big_for_the_device():
    # BLOCK=128 needs more workgroup memory than the device has: skipped as
    # Triton's autotuner skips OutOfResources, not an error.
    rng = np.random.default_rng(7)
    a, b = rng.standard_normal((16, 40), np.float32), rng.standard_normal((40, 16), np.float32)
    out = tessera.from_numpy(np.full((16, 16), np.nan, np.float32), device="vulkan")
    square_matmul[(1,)](tessera.from_numpy(a, device="vulkan"), tessera.from_numpy(b, device="vulkan"), out, 40)
    assert square_matmul.best_config.kwargs == {"BLOCK": 16}
    assert square_matmul.bench_times[square_matmul.configs[0]] == float("inf")
    np.testing.assert_allclose(out.numpy(), a.astype(np.float64) @ b, rtol=1e-4, atol=1e-4)
    with pytest.raises(tessera.OutOfResources, match="bytes of shared memory"):
        square_matmul.fn[(1,)](tessera.from_numpy(a, device="vulkan"), tessera.from_numpy(b, device="vulkan"), out, 40,
                               BLOCK=128)
