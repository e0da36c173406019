"""Signature building: Triton's spellings and specializations from arguments."""

import ctypes

import numpy as np
import pytest

import tessera.language as tl
from tessera._specialize import constexpr_text, specialize


@pytest.mark.parametrize("value, sig", [
    (1, "i32:1"), (16, "i32:16"), (-32, "i32:16"), (0, "i32:16"), (17, "i32"), (2**31 - 1, "i32"),
    (2**31, "i64:16"), (-2**31 - 1, "i64"), (2**63, "u64:16"), (2**64 - 1, "u64"),
    (True, "i1"), (False, "i1"), (0.5, "fp32"),
])
def test_scalars(value, sig):
    assert specialize(value)[0] == sig


def test_do_not_specialize_drops_value_facts():
    assert specialize(16, False)[0] == "i32"
    assert specialize(1, False)[0] == "i32"
    a = np.zeros(8, np.float32)
    assert specialize(a, False)[0] == "*fp32"


def test_out_of_range_and_unsupported():
    with pytest.raises(OverflowError):
        specialize(2**64)
    with pytest.raises(TypeError, match="cannot pass a str"):
        specialize("x")


@pytest.mark.parametrize("dtype, name", [
    (np.float32, "fp32"), (np.float16, "fp16"), (np.float64, "fp64"), (np.int8, "i8"), (np.int32, "i32"),
    (np.int64, "i64"), (np.uint8, "u8"), (np.uint32, "u32"), (np.bool_, "i1"),
])
def test_numpy_arrays(dtype, name):
    a = np.zeros(64, dtype)
    sig, value = specialize(a)
    addr = a.__array_interface__["data"][0]
    assert sig == "*" + name + (":16" if addr % 16 == 0 else "")
    assert isinstance(value, ctypes.c_void_p) and value.value == addr


def test_alignment_decides_16():
    a = np.zeros(64, np.float32)
    base = a.__array_interface__["data"][0]
    for off in range(4):
        view = a[off:]
        expected = "*fp32:16" if (base + 4 * off) % 16 == 0 else "*fp32"
        assert specialize(view)[0] == expected


def test_bfloat16_via_ml_dtypes():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    assert specialize(np.zeros(4, ml_dtypes.bfloat16))[0].startswith("*bf16")


def test_dlpack_and_data_ptr_objects():
    a = np.arange(16, dtype=np.float32)

    class OnlyDlpack:
        def __dlpack__(self, **kw):
            return a.__dlpack__(**kw)

        def __dlpack_device__(self):
            return a.__dlpack_device__()

    sig, value = specialize(OnlyDlpack())
    assert sig.startswith("*fp32") and value.value == a.__array_interface__["data"][0]

    class TorchLike:
        dtype = "torch.float16"

        def data_ptr(self):
            return 4096

    assert specialize(TorchLike())[0] == "*fp16:16"


def test_constexpr_text():
    assert constexpr_text(1024) == "1024" and constexpr_text(True) == "True" and constexpr_text(None) == "None"
    assert constexpr_text(0.25) == "0.25" and constexpr_text(tl.float16) == "tl.float16"
    assert constexpr_text(tl.constexpr(8)) == "8" and constexpr_text((1, 2)) == "(1, 2, )"
    assert constexpr_text("ieee") == "'ieee'"
    with pytest.raises(TypeError):
        constexpr_text(object())


def test_a_bad_argument_names_the_kernel_and_parameter():
    import tessera

    @tessera.jit
    def copy(src, dst, n):
        tl.store(dst + tl.arange(0, 16), tl.load(src + tl.arange(0, 16)))

    a = np.zeros(16, np.float32)
    with pytest.raises(TypeError, match="kernel 'copy', argument 'dst': cannot pass a bytes"):
        copy[(1,)](a, bytes(64), 16)
    with pytest.raises(OverflowError, match="kernel 'copy', argument 'n': integer argument"):
        copy[(1,)](a, a, 2**64)


def test_numpy_fast_path_matches_the_general_one():
    # The launch path's per-type extractor (numpy.ndarray) gives what
    # pointer_info does, and an unsupported dtype still names the kernel.
    import tessera
    from tessera._specialize import fast_pointer, pointer_info

    a = np.zeros(64, np.float16)
    assert fast_pointer(np.ndarray)(a) == pointer_info(a)
    assert fast_pointer(type(a[:0].view(np.matrix))) is None  # subclasses take the checked path

    @tessera.jit
    def touch(p):
        tl.store(p, tl.load(p))

    with pytest.raises(TypeError, match="kernel 'touch', argument 'p': unsupported element type 'complex64'"):
        touch[(1,)](np.zeros(4, np.complex64))


def test_an_array_with_a_null_data_pointer_is_refused():
    import tessera

    class NullArray:  # an array interface that claims 4 elements at address 0
        __array_interface__ = {"data": (0, False), "shape": (4,), "typestr": "<i4", "version": 3}

    @tessera.jit
    def fill(x):
        tl.store(x + tl.arange(0, 4), tl.arange(0, 4))

    with pytest.raises(TypeError, match="kernel 'fill', argument 'x': an array of shape \\(4,\\) with a null data"):
        fill[(1,)](NullArray())


def test_a_read_only_array_is_refused_only_where_the_kernel_stores():
    import tessera

    @tessera.jit
    def copy(src, dst):
        i = tl.arange(0, 8)
        tl.store(dst + i, tl.load(src + i) * 2.0)

    src = np.arange(8, dtype=np.float32)
    src.flags.writeable = False  # read-only input: fine
    dst = np.zeros(8, np.float32)
    copy[(1,)](src, dst)
    np.testing.assert_array_equal(dst, src * 2)
    frozen = np.zeros(8, np.float32)
    frozen.flags.writeable = False
    with pytest.raises(TypeError, match="kernel 'copy' stores through argument 'dst', a read-only array"):
        copy[(1,)](src, frozen)
    assert not frozen.any()  # nothing was written


def test_remembered_constexpr_texts_keep_types_and_signs_apart():
    from tessera._specialize import constexpr_text_cached
    for _ in range(2):  # the second round reads the memo
        assert [constexpr_text_cached(v) for v in (1, True, 0, False, None, "mean", 1.0, -0.0, 0.0)] == \
            ["1", "True", "0", "False", "None", "'mean'", "1.0", "-0.0", "0.0"]
    assert constexpr_text_cached(tl.float16) == constexpr_text(tl.float16)


def test_torch_parameters_take_the_tensor_fast_path():
    torch = pytest.importorskip("torch")
    from tessera._specialize import fast_pointer
    w = torch.nn.Parameter(torch.ones(8))
    assert fast_pointer(type(w)) is fast_pointer(torch.Tensor) is not None
    assert fast_pointer(type(w))(w)[:2] == (w.data_ptr(), "fp32")
