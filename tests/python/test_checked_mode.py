"""The checked mode (debug=True, TESSERA_DEBUG=1): every load, store and
atomic is checked against the buffer of the argument it comes from; an
access out of bounds is skipped and the launch raises OutOfBoundsError with
the kernel, the access, the argument, file:line:col, the offset and the
program. Buffers are views into larger arrays whose guard elements must
keep their poison: a skipped access must not touch them."""
import os

import numpy as np
import pytest

import tessera
import tessera.language as tl
from tessera._checked import OutOfBoundsError, buffer_bytes

HERE = os.path.abspath(__file__)
POISON = -7.0


def _guarded(n, fill=POISON, guard=8, dtype=np.float32):
    """A view of n elements with `guard` poisoned elements on each side."""
    whole = np.full(n + 2 * guard, fill, dtype)
    return whole, whole[guard:guard + n]


def _line_of(text):
    with open(HERE) as f:
        return next(i for i, line in enumerate(f, 1) if text in line)


@tessera.jit(debug=True)
def _copy_unmasked(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)  # the unmasked load
    tl.store(y_ptr + offs, x)


def test_unmasked_load_past_the_end_is_reported_and_skipped():
    rng = np.random.default_rng()
    x = rng.standard_normal(10).astype(np.float32)
    whole, y = _guarded(12)
    with pytest.raises(OutOfBoundsError) as e:
        _copy_unmasked[(3,)](x, y, BLOCK=4)   # only the last program reads past x
    msg = str(e.value)
    line = _line_of("# the unmasked load")
    assert "kernel '_copy_unmasked'" in msg and "out-of-bounds load through argument 'x_ptr'" in msg, msg
    assert "%s:%d:9" % (HERE, line) in msg, msg
    assert "byte offset 40 is outside its 40-byte buffer" in msg and "program (2, 0, 0)); the access was skipped" in msg
    assert "in all" not in msg, msg
    assert isinstance(e.value, IndexError) and isinstance(e.value, tessera.TesseraError)
    np.testing.assert_array_equal(y[:10], x)       # the elements in bounds were copied
    assert (whole[:8] == POISON).all() and (whole[-8:] == POISON).all()


@tessera.jit
def _store_shifted(x_ptr, y_ptr, n, SHIFT: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=1.0)
    tl.store(y_ptr + offs + SHIFT, x * 2, mask=offs < n)


@pytest.mark.parametrize("shift,offset", [(3, 40), (-2, -8)])
def test_store_out_of_bounds_leaves_the_neighbours_alone(shift, offset):
    rng = np.random.default_rng()
    x = rng.standard_normal(10).astype(np.float32)
    whole, y = _guarded(10)
    with pytest.raises(OutOfBoundsError) as e:
        _store_shifted[(1,)](x, y, 10, SHIFT=shift, BLOCK=16, debug=True)
    msg = str(e.value)
    assert "out-of-bounds store through argument 'y_ptr'" in msg and "byte offset %d is outside" % offset in msg, msg
    assert (whole[:8] == POISON).all() and (whole[-8:] == POISON).all()   # nothing written outside y
    lo, hi = max(0, shift), min(10, 10 + shift)
    np.testing.assert_array_equal(y[lo:hi], 2 * x[lo - shift:hi - shift])


def test_in_bounds_launches_give_the_unchecked_results():
    rng = np.random.default_rng()
    for n in (1, 7, 10):  # ragged: the mask keeps every access in bounds
        x = rng.standard_normal(n).astype(np.float32)
        checked, plain = np.full(n, np.nan, np.float32), np.full(n, np.nan, np.float32)
        _store_shifted[(1,)](x, checked, n, SHIFT=0, BLOCK=16, debug=True)
        _store_shifted[(1,)](x, plain, n, SHIFT=0, BLOCK=16)
        np.testing.assert_array_equal(checked, plain)
        np.testing.assert_array_equal(checked, 2 * x)


def test_the_launch_option_and_the_environment_choose_the_mode(monkeypatch):
    x = np.arange(16, dtype=np.float32)
    whole = np.full(16, POISON, np.float32)
    view = whole[:10]   # the kernel writes 12: two land in whole[10:12] when unchecked
    _store_shifted[(1,)](x, view, 12, SHIFT=0, BLOCK=16)
    assert (whole[10:12] == 2 * x[10:12]).all()
    whole[:] = POISON
    monkeypatch.setenv("TESSERA_DEBUG", "1")
    with pytest.raises(OutOfBoundsError):
        _store_shifted[(1,)](x, view, 12, SHIFT=0, BLOCK=16)
    assert (whole[10:] == POISON).all()
    _store_shifted[(1,)](x, view, 12, SHIFT=0, BLOCK=16, debug=False)  # the launch's own option wins
    assert (whole[10:12] == 2 * x[10:12]).all()


@tessera.jit(debug=True)
def _column_sum(a_ptr, out_ptr, rows, stride, BLOCK: tl.constexpr):
    r = tl.arange(0, BLOCK)
    tl.store(out_ptr, tl.sum(tl.load(a_ptr + r * stride, mask=r < rows, other=0.0)))


def test_a_strided_view_is_checked_against_its_own_span():
    rng = np.random.default_rng()
    a = rng.standard_normal((6, 5)).astype(np.float32)
    col = a[:, 3]     # strided: spans 5 rows of 20 bytes + 4 from its first element
    out = np.full(1, np.nan, np.float32)
    _column_sum[(1,)](col, out, 6, 5, BLOCK=8)
    # an f32 sum of 6 terms: its error scales with the terms' magnitudes, not with the (maybe tiny) sum
    col64 = a[:, 3].astype(np.float64)
    np.testing.assert_allclose(out[0], col64.sum(), rtol=1e-5, atol=1e-6 * np.abs(col64).sum())
    with pytest.raises(OutOfBoundsError, match="byte offset 160 is outside its 104-byte buffer"):
        _column_sum[(1,)](col, out, 6, 20, BLOCK=8)   # a wrong stride: the third element lies past the view


def test_a_torch_view_reaches_the_end_of_its_storage():
    torch = pytest.importorskip("torch")
    a = torch.randn(6, 5)
    window = a.as_strided((2, 5), (5, 1))  # rows 0-1; the kernel reads down the whole column
    out = torch.full((1,), float("nan"))
    _column_sum[(1,)](window[:, 3:], out, 6, 5, BLOCK=8)
    col64 = a[:, 3].double()
    torch.testing.assert_close(out[0].double(), col64.sum(), rtol=1e-5, atol=1e-6 * col64.abs().sum().item())
    with pytest.raises(OutOfBoundsError, match="byte offset 120 is outside its 108-byte buffer"):
        _column_sum[(1,)](window[:, 3:], out, 7, 5, BLOCK=8)  # a seventh row: past the storage


@tessera.jit(debug=True)
def _scalar_and_atomics(x_ptr, counts_ptr, out_ptr, i, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.atomic_add(counts_ptr + offs, 1)
    old = tl.atomic_cas(counts_ptr + offs, 1, 5)
    tl.store(out_ptr + offs, old.to(tl.float32) + tl.load(x_ptr + i))


def test_scalar_loads_and_atomics_are_checked():
    x = np.arange(4, dtype=np.float32)
    counts = np.zeros(8, np.int32)
    out = np.full(8, np.nan, np.float32)
    _scalar_and_atomics[(1,)](x, counts, out, 3, BLOCK=8)
    np.testing.assert_array_equal(counts, np.full(8, 5))
    np.testing.assert_array_equal(out, np.full(8, 4.0))
    with pytest.raises(OutOfBoundsError, match="load through argument 'x_ptr'.*byte offset 16 is outside its 16"):
        _scalar_and_atomics[(1,)](x, np.zeros(8, np.int32), out, 4, BLOCK=8)
    whole = np.full(12, -1, np.int32)
    with pytest.raises(OutOfBoundsError, match="atomic through argument 'counts_ptr'.*byte offset 24 is outside"):
        _scalar_and_atomics[(1,)](x, whole[:6], out, 0, BLOCK=8)
    assert (whole[6:] == -1).all()   # neither atomic touched the elements past the view


def test_every_failed_access_is_counted():
    x = np.zeros(10, np.float32)
    with pytest.raises(OutOfBoundsError, match=r"the access was skipped \(2 checks failed in all; this is the first\)"):
        _copy_unmasked[(4,)](x, np.zeros(16, np.float32), BLOCK=4)   # programs 2 and 3 read past x


def test_an_empty_array_admits_no_access():
    x = np.zeros(0, np.float32)
    y = np.full(4, POISON, np.float32)
    with pytest.raises(OutOfBoundsError, match="byte offset 0 is outside its 0-byte buffer"):
        _copy_unmasked[(1,)](x, y, BLOCK=4)


def test_buffer_sizes_of_each_kind_of_argument():
    a = np.zeros((4, 6), np.float64)
    assert buffer_bytes(a) == 192
    assert buffer_bytes(a[:, 2]) == 3 * 48 + 8
    assert buffer_bytes(a[::-1]) == -1      # elements before the pointer: not checked
    assert buffer_bytes(tessera.zeros((3, 5), "float16", device="cpu")) == 30

    class Interface:
        __array_interface__ = {"shape": (3, 4), "typestr": "<i4", "data": (0, False), "version": 3, "strides": None}
    assert buffer_bytes(Interface()) == 48
    assert buffer_bytes(12345) == -1


def test_checked_ir_shows_the_hidden_arguments():
    ptx_free = _copy_unmasked.compile_only("cpu", np.zeros(4, np.float32), np.zeros(4, np.float32), BLOCK=4)
    assert ptx_free.format == "elf-shared-object"
    plain = _store_shifted.compile_only("cpu", np.zeros(4, np.float32), np.zeros(4, np.float32), 4, SHIFT=0, BLOCK=4)
    checked = _store_shifted.compile_only("cpu", np.zeros(4, np.float32), np.zeros(4, np.float32), 4, SHIFT=0,
                                          BLOCK=4, debug=True)
    assert plain.data != checked.data


# ---- no false alarms: the conformance corpus in the checked mode, on
# TESSERA_TEST_TARGET (cpu here, nvptx on the GPU machine), one dtype per case.

def _corpus():
    # One dtype per case, the widest: the checked mode also reports signed
    # overflow (as Triton's debug mode does), which the corpus's narrow
    # integer cases have on purpose (numpy's wrapped results are the reference).
    from tessera import conformance as conf
    rank = ["fp32", "fp64", "i64", "i32", "fp16", "bf16"]
    for case in conf.load_corpus():
        dtype = min(case.dtypes, key=lambda d: rank.index(d) if d in rank else len(rank))
        if not (case.reason("xfail", dtype) or case.reason("skip", dtype)):
            yield pytest.param(case, dtype, id="%s[%s]" % (case.name, dtype))


@pytest.mark.usefixtures("test_target")
@pytest.mark.parametrize("case,dtype", _corpus())
def test_conformance_corpus_in_checked_mode(case, dtype, conformance_seed, monkeypatch):
    from tessera import conformance as conf
    monkeypatch.setenv("TESSERA_DEBUG", "1")
    r = conf.run_case(case, dtype, conf.Target(os.environ.get("TESSERA_TEST_TARGET", "cpu"), "run"), conformance_seed)
    if r.status == "skip":
        pytest.skip(r.message)
    assert r.status == "pass", "%s (seed %d)" % (r.message, conformance_seed)


@tessera.jit(debug=True)
def _scaled_index(x_ptr, out_ptr, scale, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    big = offs * scale  # i32: overflows when scale is large
    tl.store(out_ptr + offs, (big % 7).to(tl.float32) + tl.load(x_ptr + offs))


def test_signed_overflow_is_reported_as_triton_debug_mode_does():
    from tessera._checked import IntegerOverflowError
    x = np.zeros(8, np.float32)
    out = np.full(8, np.nan, np.float32)
    _scaled_index[(1,)](x, out, 1000, BLOCK=8)
    np.testing.assert_array_equal(out, (np.arange(8) * 1000 % 7).astype(np.float32))
    line = _line_of("# i32: overflows when scale is large")
    with pytest.raises(IntegerOverflowError) as e:
        _scaled_index[(1,)](x, out, 1 << 30, BLOCK=8)
    msg = str(e.value)
    assert "kernel '_scaled_index': integer overflow at %s:%d:11" % (HERE, line) in msg, msg
    assert "the exact result 2147483648 does not fit in a signed 32-bit integer" in msg, msg
    assert isinstance(e.value, OverflowError)


@tessera.jit(debug=True)
def _wide_and_unsigned(a_ptr, b_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(a_ptr + offs, tl.load(a_ptr + offs) * n)   # i64: not checked (as in Triton)
    tl.store(b_ptr + offs, tl.load(b_ptr + offs) * 3)   # u32: wraps by definition


def test_64_bit_and_unsigned_arithmetic_is_not_checked():
    a = np.full(8, 1 << 40, np.int64)
    b = np.full(8, 0xF0000000, np.uint32)
    _wide_and_unsigned[(1,)](a, b, 1 << 30, BLOCK=8)
    np.testing.assert_array_equal(a, np.zeros(8, np.int64))   # 2**70 wraps to 0 in 64 bits
    np.testing.assert_array_equal(b, np.full(8, (0xF0000000 * 3) & 0xFFFFFFFF, np.uint32))


@tessera.jit(debug=True)
def _through_descriptors(src, dst, out_ptr, n, B: tl.constexpr):
    rows = tl.program_id(0) * B + tl.arange(0, B)
    block = src.load([tl.program_id(0) * B, 0])
    dst.store([tl.program_id(0) * B, 0], block * 2)
    tl.store(out_ptr + rows[:, None] * 16 + tl.arange(0, 16)[None, :] + n, block)  # past out_ptr when n > 0


def test_descriptors_are_checked_and_later_arguments_keep_their_names():
    # A host descriptor is several kernel arguments (base, extents,
    # strides): the launch passes its base's size, and a report about an
    # argument after it names that argument.
    from tessera.tools.tensor_descriptor import TensorDescriptor
    rng = np.random.default_rng()
    x = rng.standard_normal((32, 16)).astype(np.float32)
    y = np.full((32, 16), POISON, np.float32)
    whole, out = _guarded(32 * 16)
    descs = (TensorDescriptor.from_tensor(x, [16, 16]), TensorDescriptor.from_tensor(y, [16, 16]))
    _through_descriptors[(2,)](*descs, out, 0, B=16)
    np.testing.assert_array_equal(y, 2 * x)
    np.testing.assert_array_equal(out.reshape(32, 16), x)
    with pytest.raises(OutOfBoundsError) as e:
        _through_descriptors[(2,)](*descs, out, 4, B=16)
    msg = str(e.value)
    assert "out-of-bounds store through argument 'out_ptr'" in msg and "outside its 2048-byte buffer" in msg, msg
    assert (whole[:8] == POISON).all() and (whole[-8:] == POISON).all()
