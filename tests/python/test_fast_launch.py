"""The launch fast lane (capi/python/launcher.c through tessera/_launch.py):
after the Python path has launched a specialization once, later launches
with the same key go through C. Each test checks that the fast lane ran and
that it launched exactly the kernel the Python path would have chosen, with
the same values, on the host CPU target."""

import collections
import os
import subprocess
import sys

import numpy as np
import pytest

import tessera
import tessera.language as tl
from tessera import _C, _launch
from tessera.jit import _IGNORED_OPTIONS

pytestmark = pytest.mark.skipif(not _C.target_available("cpu"), reason="no CPU code generator")

OFFSET = 0


@tessera.jit
def record(out, a, b, c, flag, x, BLOCK: tl.constexpr, MODE: tl.constexpr = 1):
    """Stores its scalar arguments (as float64) and a global: what arrived."""
    i = tl.arange(0, BLOCK)
    v = tl.where(i == 0, a.to(tl.float64), tl.where(i == 1, b.to(tl.float64), c.to(tl.float64)))
    v = tl.where(i == 3, flag.to(tl.float64), v)
    v = tl.where(i == 4, x.to(tl.float64), v)
    v = tl.where(i == 5, MODE * 1.0 + OFFSET, v)
    tl.store(out + i, v, mask=i < 6)


def python_choice(kernel, args, kwargs, num_warps=None, num_stages=None):
    """The compiled kernel the Python path picks for these arguments."""
    kwargs = {k: v for k, v in kwargs.items() if k not in _IGNORED_OPTIONS}
    key = kernel.specialization(kernel.bind(args, kwargs), num_warps, num_stages)[0]
    return kernel.cache[key]


def launch_twice(kernel, grid, args, kwargs):
    """Two launches with the same key: the second is the fast lane's."""
    first = kernel[grid](*args, **kwargs)
    before = kernel._fast.launches()
    second = kernel[grid](*args, **kwargs)
    assert kernel._fast and kernel._fast.launches() == before + 1, "the second launch did not take the fast lane"
    assert second is first is python_choice(kernel, args, kwargs)
    return second


def test_extension_is_built():
    # CI builds it beside libtessera.so; without it every launch is Python's.
    assert _launch.extension() is not None


@pytest.mark.parametrize("a, b, c", [
    (3, 1, 16), (-7, 48, 2**31 - 1), (-2**31, 2**31, -2**40), (2**63 - 1, 2**63, 2**64 - 16), (0, -16, -17),
])
def test_integers_keep_their_types_and_facts(a, b, c):
    out = np.full(8, np.nan)
    launch_twice(record, (1,), (out, a, b, c, True, 0.25), {"BLOCK": 8})
    # float64 holds these to 2^53; the larger ones are checked by their i64/u64 kernels' keys above.
    want = [float(np.int64(v)) if v < 2**63 else float(v) for v in (a, b, c)]
    np.testing.assert_array_equal(out[:3], want)
    np.testing.assert_array_equal(out[3:6], [1.0, 0.25, 1.0])


def test_bool_and_float_and_constexpr_types():
    for flag, x, mode in [(False, -1.5, 2), (True, 3.0, True), (True, 3.0, 1)]:
        out = np.full(8, np.nan)
        launch_twice(record, (1,), (out, 1, 2, 3, flag, x), {"BLOCK": 8, "MODE": mode})
        np.testing.assert_array_equal(out[3:6], [float(flag), x, float(mode)])
    # True and 1 are different constexprs to the Python path: so to the fast lane.
    assert python_choice(record, (out, 1, 2, 3, True, 3.0), {"BLOCK": 8, "MODE": True}) is not \
        python_choice(record, (out, 1, 2, 3, True, 3.0), {"BLOCK": 8, "MODE": 1})


def test_keywords_defaults_and_ignored_options():
    out = np.full(8, np.nan)
    kwargs = dict(out=out, a=5, b=6, c=7, flag=False, x=0.5, BLOCK=8, num_ctas=1)
    launch_twice(record, (1,), (), kwargs)
    np.testing.assert_array_equal(out[:6], [5, 6, 7, 0, 0.5, 1])
    before = record._fast.launches()
    with pytest.raises(TypeError):  # a missing argument: the Python path words it
        record[(1,)](out, 1, 2, 3, True, BLOCK=8)
    with pytest.raises(TypeError):
        record[(1,)](out, 1, 2, 3, True, 1.0, BLOCK=8, nonsense=1)
    assert record._fast.launches() == before


def test_grids():
    n, block = 1000, 128

    @tessera.jit
    def fill(out, n, value, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        tl.store(out + offs, value + offs * 0.0, mask=offs < n)

    seen = []

    def grid(meta):
        seen.append(dict(meta))
        return (tessera.cdiv(meta["n"], meta["BLOCK"]),)

    for g in (grid, tessera.cdiv(n, block), (tessera.cdiv(n, block), 1, 1), [tessera.cdiv(n, block)]):
        out = np.full(n, np.nan, np.float32)
        fill[g](out, n, 1.5, BLOCK=block)
        out2 = np.full(n, np.nan, np.float32)
        fill[g](out2, n, 2.5, BLOCK=block)
        np.testing.assert_array_equal(out, 1.5)
        np.testing.assert_array_equal(out2, 2.5)
        if g is grid:
            fast_meta_out = out2
    assert fill._fast.launches() == 7  # all but the first
    assert len(seen) == 2 and seen[-1]["out"] is fast_meta_out
    assert {k: v for k, v in seen[-1].items() if k != "out"} == {"n": n, "value": 2.5, "BLOCK": block}
    with pytest.raises(ValueError, match="grid dimensions"):
        fill[(1, 70000)](out, n, 1.0, BLOCK=block)
    with pytest.raises(TypeError, match="grid"):
        fill[lambda meta: "x"](out, n, 1.0, BLOCK=block)


def test_changed_global_recompiles():
    global OFFSET
    out = np.full(8, np.nan)
    args = (out, 1, 2, 3, True, 0.5)
    launch_twice(record, (1,), args, {"BLOCK": 8, "MODE": 4})
    assert out[5] == 4
    try:
        OFFSET = 10
        record[(1,)](*args, BLOCK=8, MODE=4)
        assert out[5] == 14
        record[(1,)](*args, BLOCK=8, MODE=4)
        assert out[5] == 14
    finally:
        OFFSET = 0
    record[(1,)](*args, BLOCK=8, MODE=4)
    assert out[5] == 4


def test_read_only_array_still_refused():
    out = np.full(8, np.nan)
    launch_twice(record, (1,), (out, 1, 2, 3, True, 0.5), {"BLOCK": 8})
    frozen = np.zeros(8)
    frozen.flags.writeable = False
    for _ in range(2):
        with pytest.raises(TypeError, match="read-only"):
            record[(1,)](frozen, 1, 2, 3, True, 0.5, BLOCK=8)


def test_do_not_specialize_and_alignment():
    @tessera.jit(do_not_specialize=["n"])
    def copy(src, dst, n, BLOCK: tl.constexpr):
        i = tl.arange(0, BLOCK)
        tl.store(dst + i, tl.load(src + i, mask=i < n), mask=i < n)

    base = np.arange(40, dtype=np.float32)
    for src, n in [(base, 16), (base, 1), (base[1:], 16), (base[1:], 7)]:
        dst = np.full(32, np.nan, np.float32)
        launch_twice(copy, (1,), (src, dst, n), {"BLOCK": 32})
        np.testing.assert_array_equal(dst[:n], src[:n])
    # n is never specialized: one kernel per source alignment.
    assert len(copy.cache) == 2


def test_do_not_specialize_on_alignment_keeps_only_the_value_1():
    # Triton's: a value equal to 1 is still compiled in; multiples of 16 and
    # 16-byte aligned pointers are not told apart. Both lanes key alike.
    @tessera.jit(do_not_specialize_on_alignment=["src", "n"])
    def copy(src, dst, n, BLOCK: tl.constexpr):
        i = tl.arange(0, BLOCK)
        tl.store(dst + i, tl.load(src + i, mask=i < n), mask=i < n)

    base = np.arange(40, dtype=np.float32)
    for src, n in [(base, 16), (base, 1), (base[1:], 16), (base[1:], 7), (base, 32), (base[1:], 1)]:
        dst = np.full(32, np.nan, np.float32)
        launch_twice(copy, (1,), (src, dst, n), {"BLOCK": 32})
        np.testing.assert_array_equal(dst[:n], src[:n])
    # n == 1 or not; src never split by alignment (dst is: it is specialized)
    assert sorted(key[0] for key in copy.cache) == [("*fp32", "*fp32:16", "i32"), ("*fp32", "*fp32:16", "i32:1")]


Pair = collections.namedtuple("Pair", "scale offset")


def test_tuple_arguments_take_the_fast_lane():
    # Each runtime leaf packed in order; None and a 1 (specialized) are compile-time leaves.
    @tessera.jit
    def affine(outs, ins, p):
        i = tl.arange(0, 8)
        for k in tl.static_range(len(outs)):
            if ins[k] is not None:
                tl.store(outs[k] + i, tl.load(ins[k] + i) * p.scale + p.offset)

    rng = np.random.default_rng()
    a, b = (rng.standard_normal(8).astype(np.float32) for _ in range(2))
    for scale, offset in [(2.0, 3), (0.5, 1), (4.0, 16), (2.0, 7)]:
        outs = tuple(np.full(8, np.nan, np.float32) for _ in range(3))
        launch_twice(affine, (1,), (outs, (a, None, b), Pair(scale, offset)), {})
        for out, x in ((outs[0], a), (outs[2], b)):
            np.testing.assert_allclose(out, x * np.float32(scale) + np.float32(offset), rtol=1e-6)
        assert np.isnan(outs[1]).all()
    # offset 1 is compiled in, 16 is a multiple of 16: three specializations of the one kernel
    assert len(affine.cache) == 3


def test_launch_error_from_the_fast_lane():
    @tessera.jit
    def poke(out, at):
        tl.store(out + at, 1.0)

    out = np.zeros(64, np.float32)
    launch_twice(poke, (1,), (out, 3), {})
    with pytest.raises(_C.TesseraError):
        poke[(1,)](out, 2**31 - 15)  # i32 and not a multiple of 16: the same key, far outside any mapping
    assert poke._fast.launches() == 1
    poke[(1,)](out, 5)
    assert out[5] == 1 and poke._fast.launches() == 2


def test_disabled_by_environment(tmp_path):
    code = ("import numpy as np, tessera, tessera.language as tl\n"
            "@tessera.jit\ndef k(o):\n    tl.store(o, 1.0)\n"
            "o = np.zeros(1, np.float32)\nk[(1,)](o); k[(1,)](o)\n"
            "print(repr(k._fast), o[0])\n")
    script = tmp_path / "k.py"
    script.write_text(code)
    package_root = os.path.dirname(os.path.dirname(os.path.abspath(tessera.__file__)))
    env = dict(os.environ, TESSERA_FAST_LAUNCH="0",
               PYTHONPATH=os.pathsep.join(filter(None, [package_root, os.environ.get("PYTHONPATH")])))
    r = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["False", "1.0"]


def test_launch_options_through_kernel_grid():
    @tessera.jit
    def scale(out, x, BLOCK: tl.constexpr):
        i = tl.arange(0, BLOCK)
        tl.store(out + i, tl.load(x + i) * 2)

    x = np.arange(16, dtype=np.float32)
    out = np.zeros(16, np.float32)
    scale[(1,)](out, x, BLOCK=16)
    launcher = scale[(1,)]
    assert type(launcher).__name__ == "GridLaunch"  # kernel[grid] is the fast lane's now
    for num_warps in (None, 2, 2):
        out[:] = 0
        assert launcher(out, x, BLOCK=16, num_warps=num_warps) is \
            python_choice(scale, (out, x), {"BLOCK": 16}, num_warps=num_warps)
        np.testing.assert_array_equal(out, 2 * x)
    assert scale._fast.launches() == 2  # num_warps=2's first launch was Python's
    out[:] = 0
    scale[(1,)](out, x, BLOCK=16, debug=True)  # the checked mode: the Python path
    np.testing.assert_array_equal(out, 2 * x)
    assert scale._fast.launches() == 2
    out[:] = 0  # grid= overrides kernel[grid], as with functools.partial(run, grid=...)
    scale[(0,)](out, x, BLOCK=16, grid=(1,))
    np.testing.assert_array_equal(out, 2 * x)


def test_a_new_target_starts_afresh():
    @tessera.jit
    def one(out):
        tl.store(out, 1.0)

    out = np.zeros(1, np.float32)
    launch_twice(one, (1,), (out,), {})
    one.target = "cpu"  # the same code here, but the lane keys no target: it must forget
    before = one._fast.launches()
    one[(1,)](out)
    assert one._fast.launches() == before and one.target == "cpu"
    one[(1,)](out)
    assert one._fast.launches() == before + 1 and out[0] == 1


def test_kernels_with_a_fast_lane_are_collected():
    # A JITFunction holds its Launcher, whose error callback is the
    # JITFunction's bound method: the collector must see through the
    # Launcher to free kernels made and dropped at run time.
    import gc
    import weakref

    def make(step):
        @tessera.jit
        def bump(x, n, B: tl.constexpr):
            o = tl.arange(0, B)
            tl.store(x + o, tl.load(x + o, mask=o < n) + step, mask=o < n)
        return bump

    x = np.zeros(16, np.float32)
    refs = []
    for step in (1.0, 2.0, 3.0):
        kernel = make(step)
        launch_twice(kernel, (1,), (x, 16), {"B": 16})
        refs.append(weakref.ref(kernel))
        del kernel
    gc.collect()
    assert [r() for r in refs] == [None] * 3
    assert (x == 2 * (1 + 2 + 3)).all()


def test_launched_kernels_carry_tritons_facts():
    # What Triton's tutorials read from a launch's or warmup's result.
    @tessera.jit
    def copy(src, dst, BLOCK: tl.constexpr):
        i = tl.arange(0, BLOCK)
        tl.store(dst + i, tl.load(src + i))

    src, dst = np.arange(64, dtype=np.float32), np.zeros(64, np.float32)
    kernel = copy.warmup(src, dst, BLOCK=64, num_warps=2, grid=(1,))
    kernel._init_handles()
    assert kernel is copy[(1,)](src, dst, BLOCK=64, num_warps=2)
    np.testing.assert_array_equal(dst, src)
    meta = kernel.metadata
    assert (meta.name, meta.target, meta.num_warps, meta.debug) == ("copy", "cpu", 2, False)
    assert meta.threads_per_program == kernel.attribute("threads") == 1  # the host runs a program on one thread
    assert meta.shared == kernel.attribute("shared_bytes") >= 0
    # A program runs alone on a core: its 2 warps share the core's vector registers (test_host_occupancy.py).
    props = tessera.runtime.driver.active.utils.get_device_properties(0)
    assert kernel.n_regs == props["max_num_regs"] // 2 and kernel.n_spills == 0
    with pytest.raises(tessera.TesseraError, match="no attribute 'regs'.*num_regs"):
        kernel.attribute("regs")


@tessera.jit
def typed_fill(out, x, DTYPE: tl.constexpr, BLOCK: tl.constexpr):
    """out[:BLOCK] = x rounded through DTYPE (Triton's `ACC: tl.constexpr = tl.float32` style)."""
    i = tl.arange(0, BLOCK)
    tl.store(out + i, (tl.zeros([BLOCK], dtype=tl.float32) + x).to(DTYPE).to(tl.float64))


def test_dtype_constexprs_take_the_lane_and_key_by_dtype():
    # 1/3 rounded through fp16, bf16 and fp32 gives three different values.
    got = {}
    for dtype in (tl.float16, tl.bfloat16, tl.float32, tl.float16):
        out = np.full(4, np.nan)
        launch_twice(typed_fill, (1,), (out, 1.0 / 3.0), {"DTYPE": dtype, "BLOCK": 4})
        got.setdefault(dtype.name, set()).add(float(out[0]))
    assert {k: len(v) for k, v in got.items()} == {"fp16": 1, "bf16": 1, "fp32": 1}
    values = [next(iter(got[n])) for n in ("fp16", "bf16", "fp32")]
    assert values == [float(np.float16(1 / 3)), 0.333984375, float(np.float32(1 / 3))]
    # A pointer type is a dtype subclass: still the Python path's, and still right.
    out = np.full(4, np.nan)
    typed_fill[(1,)](out, 0.5, DTYPE=tl.float32, BLOCK=4)
    assert out[0] == 0.5


@tessera.jit
def _scale_block(x_desc, z_desc, BM: tl.constexpr, BN: tl.constexpr):
    i = tl.program_id(0) * BM
    j = tl.program_id(1) * BN
    z_desc.store([i, j], x_desc.load([i, j]) * 2.0 + 1.0)


@pytest.mark.parametrize("rows, cols, offset", [(32, 64, 0), (40, 70, 0), (48, 80, 1), (16, 16, 3)])
def test_tensor_descriptors_take_the_lane_with_the_pythons_facts(rows, cols, offset):
    # The key keeps the tensor-map fact (aligned base, strides) and the
    # extents' %16 fact apart; shape and strides are launch values.
    from tessera.tools.tensor_descriptor import TensorDescriptor
    buf = np.random.default_rng().standard_normal(rows * cols + offset).astype(np.float32)
    x = buf[offset:].reshape(rows, cols)
    z = np.full_like(x, np.nan)
    grid = (tessera.cdiv(rows, 16), tessera.cdiv(cols, 32))
    args = (TensorDescriptor.from_tensor(x, [16, 32]), TensorDescriptor.from_tensor(z, [16, 32]))
    launch_twice(_scale_block, grid, args, {"BM": 16, "BN": 32})
    np.testing.assert_allclose(z, 2 * x.astype(np.float64) + 1, rtol=1e-6)
    signature = _scale_block.specialization(_scale_block.bind(args, {"BM": 16, "BN": 32}), None, None)[1]
    ready = offset % 4 == 0 and cols * 4 % 16 == 0  # 16-byte base and row stride
    e16 = rows % 16 == 0 and cols % 16 == 0
    assert (":16" in signature[0]) == ready and (":e16" in signature[0]) == e16, signature


def test_a_descriptors_new_block_shape_and_extents_reach_the_kernel():
    # Tutorial 09's autotune pre_hook sets block_shape on the same object;
    # a same-key descriptor of other extents launches with its own.
    from tessera.tools.tensor_descriptor import TensorDescriptor
    x = np.random.default_rng().standard_normal((64, 64)).astype(np.float32)
    z = np.full_like(x, np.nan)
    xd, zd = TensorDescriptor.from_tensor(x, [16, 32]), TensorDescriptor.from_tensor(z, [16, 32])
    launch_twice(_scale_block, (4, 2), (xd, zd), {"BM": 16, "BN": 32})
    xd.block_shape = zd.block_shape = [32, 32]
    z[:] = np.nan
    launch_twice(_scale_block, (2, 2), (xd, zd), {"BM": 32, "BN": 32})
    np.testing.assert_allclose(z, 2 * x.astype(np.float64) + 1, rtol=1e-6)
    small = np.full((40, 48), np.nan, np.float32)      # a part of x's rows, same facts
    z[:] = np.nan
    _scale_block[(2, 2)](TensorDescriptor.from_tensor(x[:40, :48].copy(), [32, 32]),
                         TensorDescriptor.from_tensor(small, [32, 32]), BM=32, BN=32)
    np.testing.assert_allclose(small, 2 * x[:40, :48].astype(np.float64) + 1, rtol=1e-6)


def test_a_read_only_descriptor_base_is_still_refused():
    from tessera.tools.tensor_descriptor import TensorDescriptor
    x = np.ones((16, 32), np.float32)
    z = np.zeros_like(x)
    launch_twice(_scale_block, (1, 1), (TensorDescriptor.from_tensor(x, [16, 32]), TensorDescriptor.from_tensor(z, [16, 32])),
                 {"BM": 16, "BN": 32})
    z.flags.writeable = False
    for _ in range(2):
        with pytest.raises(TypeError, match="read-only"):
            _scale_block[(1, 1)](TensorDescriptor.from_tensor(x, [16, 32]), TensorDescriptor.from_tensor(z, [16, 32]),
                                 BM=16, BN=32)


def test_kernel_subscript_in_c_answers_as_pythons():
    # Once the extension is loaded, JITFunction.__getitem__ is the C
    # Subscript: the lane's GridLaunch only with a Launcher, no checked mode
    # and no profiler hook; otherwise run() through a partial, as before.
    jit_module = sys.modules["tessera.jit"]  # tessera.jit is the decorator

    @tessera.jit
    def scale(out, x, BLOCK: tl.constexpr):
        i = tl.arange(0, BLOCK)
        tl.store(out + i, tl.load(x + i) * 3)

    x = np.arange(16, dtype=np.float32)
    out = np.zeros(16, np.float32)
    assert type(scale[(1,)]).__name__ == "partial"  # no Launcher yet
    scale[(1,)](out, x, BLOCK=16)
    assert type(type(scale).__dict__["__getitem__"]).__name__ == "Subscript"
    assert type(scale[(1,)]).__name__ == "GridLaunch"
    scale.debug = True
    assert type(scale[(1,)]).__name__ == "partial"
    scale.debug = None
    jit_module.launch_hook, saved = (lambda *a, **k: None), jit_module.launch_hook
    try:
        assert type(scale[(1,)]).__name__ == "partial"
    finally:
        jit_module.launch_hook = saved
    bound = scale.__getitem__
    out[:] = 0
    before = scale._fast.launches()
    bound((1,))(out, x, BLOCK=16)
    np.testing.assert_array_equal(out, 3 * x)
    assert scale._fast.launches() == before + 1
    with pytest.raises(TypeError):
        type(scale).__dict__["__getitem__"](scale)


@pytest.mark.parametrize("call", ["positional", "keywords", "mixed"])
def test_vectorcall_binds_like_a_call_with_a_dict(call):
    # kernel[grid](...) arrives through vectorcall (names beside the values);
    # a call through a tuple and a dict takes the other way in: both bind alike.
    out = np.zeros(8)
    args = (out, 1, 2, 3, True, 0.5)
    kwargs = {"BLOCK": 8, "MODE": 2}
    if call == "keywords":
        args, kwargs = (), dict(out=out, a=1, b=2, c=3, flag=True, x=0.5, **kwargs)
    elif call == "mixed":
        args, kwargs = args[:3], dict(c=3, flag=True, x=0.5, **kwargs)
    launch_twice(record, (1,), args, kwargs)
    np.testing.assert_array_equal(out[:6], [1, 2, 3, 1, 0.5, 2])
    out[:] = 0
    before = record._fast.launches()
    record[(1,)].__call__(*args, **kwargs)  # tp_call: a tuple and a dict
    assert record._fast.launches() == before + 1
    np.testing.assert_array_equal(out[:6], [1, 2, 3, 1, 0.5, 2])


@pytest.mark.parametrize("value, lane", [("1", False), ("0", True), ("", True), ("yes", False)])
def test_tessera_debug_set_after_the_lane_opened(monkeypatch, value, lane):
    # The lane reads TESSERA_DEBUG from os.environ at every launch, as the
    # Python path does: the checked mode is the Python path's.
    out = np.zeros(8)
    args, kwargs = (out, 1, 2, 3, True, 0.5), {"BLOCK": 8}
    launch_twice(record, (1,), args, kwargs)
    monkeypatch.setenv("TESSERA_DEBUG", value)
    before = record._fast.launches()
    record[(1,)](*args, **kwargs)
    assert (record._fast.launches() == before + 1) == lane
    monkeypatch.delenv("TESSERA_DEBUG")
    record[(1,)](*args, **kwargs)
    assert record._fast.launches() == before + 1 + lane
