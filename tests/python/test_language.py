"""tessera.language on the Python side: dtypes, constexpr, builtin stubs, and
the package's small helpers."""

import pytest

import tessera
import tessera.language as tl


def test_dtypes_have_tritons_names():
    assert str(tl.float32) == "fp32" and repr(tl.float32) == "tl.float32" and tl.float32.name == "fp32"
    assert str(tl.bfloat16) == "bf16" and str(tl.int1) == "int1" and str(tl.uint64) == "uint64"
    assert tl.int1.short == "i1" and tl.uint64.short == "u64" and tl.float32.short == "fp32"
    assert tl.float16.is_floating() and not tl.int32.is_floating()
    assert tl.int8.is_int_signed() and tl.uint8.is_int_unsigned()
    assert tl.float16.primitive_bitwidth == 16
    assert tl.float32 == tl.float32 and tl.float32 != tl.float16
    assert str(tl.pointer_type(tl.float16)) == "pointer<fp16>" and tl.pointer_type(tl.float16).short == "*fp16"


def test_constexpr_wraps_values():
    c = tl.constexpr(128)
    assert c == 128 and int(c) == 128 and tl.constexpr(c).value == 128
    assert list(range(4))[tl.constexpr(1)] == 1


def test_builtins_resolve_but_only_run_in_kernels():
    for name in ["program_id", "arange", "load", "store", "dot", "sum", "where", "atomic_add",
                 "static_range", "device_assert", "rand", "softmax"]:
        assert callable(getattr(tl, name))
    with pytest.raises(RuntimeError, match="inside a @tessera.jit kernel"):
        tl.program_id(0)
    assert callable(tl.math.exp)


def test_cdiv_and_next_power_of_2():
    assert tessera.cdiv(10, 4) == 3 and tessera.cdiv(8, 4) == 2 and tessera.cdiv(0, 4) == 0
    assert [tessera.next_power_of_2(n) for n in (0, 1, 2, 3, 5, 1024, 1025)] == [1, 1, 2, 4, 8, 1024, 2048]
