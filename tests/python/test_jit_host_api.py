"""Triton's JITFunction host API: warmup (compile without launching),
params and src."""
import numpy as np
import pytest

import tessera
import tessera.language as tl


@tessera.jit(do_not_specialize=["n"])
def _scale(x_ptr, out_ptr, n, factor, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * factor, mask=offs < n)


def test_warmup_compiles_without_launching_and_the_launch_reuses_it():
    x = np.random.default_rng().standard_normal(40).astype(np.float32)
    out = np.full(40, np.nan, np.float32)
    kernel = _scale.warmup(x, out, 40, 2.5, BLOCK=64, grid=(1,))
    assert np.isnan(out).all()                       # nothing ran
    assert kernel.num_params == 4
    launched = _scale[(1,)](x, out, 40, 2.5, BLOCK=64)
    assert launched is kernel                        # the same compiled kernel
    np.testing.assert_allclose(out, x.astype(np.float64) * 2.5, rtol=1e-6)


@tessera.jit
def _rows(y_ptr, x_ptr, n_rows, BLOCK: tl.constexpr, num_stages: tl.constexpr):
    for row in tl.range(tl.program_id(0), n_rows, tl.num_programs(0), num_stages=num_stages):
        offs = row * BLOCK + tl.arange(0, BLOCK)
        tl.store(y_ptr + offs, tl.load(x_ptr + offs) + 1.0)


def test_the_warmed_up_kernel_launches_with_every_parameter_as_tritons_compiled_kernel():
    # Triton's softmax tutorial: warmup, then kernel[grid](all arguments,
    # constexprs included), num_stages being both an option and a parameter.
    rng = np.random.default_rng()
    x = rng.standard_normal((7, 32)).astype(np.float32)
    y = np.full_like(x, np.nan)
    kernel = _rows.warmup(y, x, 7, BLOCK=32, num_stages=2, num_warps=2, grid=(1,))
    assert np.isnan(y).all()
    kernel._init_handles()
    assert kernel.metadata.num_warps == 2 and kernel.metadata.shared >= 0
    assert kernel[(3, 1, 1)](y, x, 7, 32, 2) is kernel
    np.testing.assert_array_equal(y, x + 1)
    y[:] = np.nan
    kernel[(2,)](y, x, n_rows=7, BLOCK=32, num_stages=2)
    np.testing.assert_array_equal(y, x + 1)
    with pytest.raises(TypeError, match="specialize '_rows' differently"):
        kernel[(1,)](y, x, 7, 16, 2)               # another BLOCK is another kernel
    with pytest.raises(TypeError, match="loaded from a binary"):
        tessera._C.Kernel.__getitem__(type("Loaded", (), {"_launch_as_compiled": None})(), (1,))


def test_params_and_src_as_triton_gives_them():
    params = _scale.params
    assert [p.name for p in params] == ["x_ptr", "out_ptr", "n", "factor", "BLOCK"]
    assert [p.num for p in params] == [0, 1, 2, 3, 4]
    assert [p.is_constexpr for p in params] == [False, False, False, False, True]
    assert [p.do_not_specialize for p in params] == [False, False, True, False, False]
    # As Triton's: src starts at the def (libraries regenerate kernels from
    # it), raw_src keeps the decorator.
    assert _scale.src.startswith("def _scale(")
    assert "tl.store(out_ptr + offs" in _scale.src
    assert _scale.raw_src[0].startswith("@tessera.jit(do_not_specialize=[\"n\"])")
    assert _scale.starting_line_number == _scale.fn.__code__.co_firstlineno


@tessera.jit
def _template(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, GENERATE)  # noqa: F821 (replaced before each launch)


_OFFSET = 3.0


def test_unsafe_update_src_compiles_the_new_text_with_the_names_it_reads():
    # Triton's own tests patch a template kernel's source this way.
    kernel = tessera.JITFunction(_template.fn)
    x = np.random.default_rng().standard_normal(16).astype(np.float32)
    out = np.full(16, np.nan, np.float32)
    kernel._unsafe_update_src(kernel.src.replace("GENERATE", "x * 2.0"))
    kernel[(1,)](x, out, BLOCK=16)
    np.testing.assert_allclose(out, x.astype(np.float64) * 2.0, rtol=1e-6)
    assert "x * 2.0" in kernel.src
    # A second text replaces the first (nothing compiled for it is reused),
    # and a global only the new text reads resolves.
    kernel._unsafe_update_src(kernel.src.replace("x * 2.0", "tl.abs(x) + _OFFSET"))
    out[:] = np.nan
    kernel[(1,)](x, out, BLOCK=16)
    np.testing.assert_allclose(out, np.abs(x.astype(np.float64)) + _OFFSET, rtol=1e-6)
    # The template itself is untouched.
    assert "GENERATE" in _template.src


@tessera.jit
def _step(i):
    return i + 1


@tessera.jit
def _calls_step(x_ptr, i):
    tl.store(x_ptr, _step(i))


def test_a_callee_s_replaced_source_recompiles_its_callers():
    # As Triton's test_cache.py does (test_nested1_change): a stale kernel would store 2.
    out = np.zeros(1, np.int32)
    _calls_step[(1,)](out, 1)
    key = _calls_step.cache_key
    assert out[0] == 2
    _step._unsafe_update_src(_step.src.replace("i + 1", "i + 5"))
    assert _calls_step.cache_key != key
    _calls_step[(1,)](out, 1)  # the launch fast lane's kernel is dropped too
    assert out[0] == 6


@tessera.jit
def _copy_bits(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs) >> 1)


def test_reinterpret_gives_a_kernel_the_memory_as_another_element_type():
    x = np.random.default_rng().standard_normal(32).astype(np.float32)
    src = tessera.from_numpy(x)
    out = tessera.from_numpy(np.full(32, 7, np.int32))
    as_unsigned = tessera.reinterpret(src, tl.uint32)
    assert isinstance(as_unsigned, tessera.TensorWrapper) and as_unsigned.dtype == tl.uint32
    assert as_unsigned.base is src and as_unsigned.data_ptr() == src.data_ptr()
    # A logical shift: the sign bit of the float's bits is not spread.
    _copy_bits[(1,)](as_unsigned, tessera.reinterpret(out, tl.uint32), BLOCK=32)
    assert any("*u32" in str(key) for key in _copy_bits.cache)  # specialized on the wrapper's type
    np.testing.assert_array_equal(out.numpy().view(np.uint32), x.view(np.uint32) >> 1)
    # Back to the base's own type gives the base; sizes must agree.
    assert tessera.reinterpret(as_unsigned, tl.float32) is src
    with pytest.raises(TypeError, match="32 bits.*16 bits"):
        tessera.reinterpret(src, tl.float16)
    with pytest.raises(TypeError, match="takes a tensor"):
        tessera.reinterpret(3, tl.int32)


def test_dtypes_by_name_and_triton_type_lists():
    assert tl.dtype("int8") == tl.int8 and tl.dtype("fp16") == tl.float16
    assert tl.dtype("bf16").primitive_bitwidth == 16
    assert [tl.dtype(n).name for n in tl.dtype.SINT_TYPES] == ["int8", "int16", "int32", "int64"]
    assert all(tl.dtype(n).is_floating() for n in tl.dtype.STANDARD_FP_TYPES + tl.dtype.FP_TYPES)
    assert tl.str_to_ty("*fp32").element_ty == tl.float32 and tl.str_to_ty("u64") == tl.uint64
    with pytest.raises(TypeError, match="no dtype is named 'fp7'"):
        tl.dtype("fp7")


def test_a_launched_kernel_shows_its_assembly_as_triton_asm():
    x = np.random.default_rng().standard_normal(40).astype(np.float32)
    out = np.empty_like(x)
    kernel = _scale[(1,)](x, out, 40, 1.5, BLOCK=64)
    asm = kernel.asm
    assert set(asm) == {"asm", "so"} and asm["so"][:4] == b"\x7fELF"
    assert "_scale" in asm["asm"] and kernel.asm is asm  # compiled once
    # The text of the kernel that ran, not of a source replaced afterwards.
    patched = tessera.JITFunction(_template.fn)
    patched._unsafe_update_src(patched.src.replace("GENERATE", "x * 3.0"))
    first = patched[(1,)](x, out, BLOCK=16)
    patched._unsafe_update_src(patched.src.replace("x * 3.0", "tl.sqrt(tl.abs(x))"))
    assert "sqrt" not in first.asm["asm"]
    assert "sqrt" in patched[(1,)](x, out, BLOCK=16).asm["asm"]


def test_kernel_names_from_triton_repr():
    seen = []

    def name(specialization):
        seen.append(specialization)
        ones = "_".join(k for k, v in specialization.constants.items() if v == 1)
        return "scale_%s_%s" % (specialization.signature["n"], ones)

    kernel = tessera.jit(repr=name)(_scale.fn)
    x = np.ones(8, np.float32)
    assert kernel.warmup(x, np.empty_like(x), 2**40, 1.0, BLOCK=8, grid=(1,)).name == "scale_i64_"
    assert seen[-1].constants == {"BLOCK": 8}
    k = kernel.warmup(x, np.empty_like(x), 1, 2.0, BLOCK=1, grid=(1,))
    assert k.name == "scale_i32_n_BLOCK"  # n is 1 (specialized), BLOCK a constexpr 1
    assert seen[-1].signature == {"x_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32", "factor": "fp32"}
    assert _scale.warmup(x, np.empty_like(x), 8, 2.0, BLOCK=8, grid=(1,)).name == "_scale"


def test_tritons_launch_options_that_change_no_result_are_accepted_and_unknown_ones_refused():
    # Tutorials 07 and 11 pass extern_libs and launch_pdl.
    x = np.random.default_rng().standard_normal(40).astype(np.float32)
    out = np.full(40, np.nan, np.float32)
    _scale[(1,)](x, out, 40, 3.0, BLOCK=64, extern_libs={"libdevice": "/nowhere/libdevice.10.bc"},
                 launch_pdl=True, num_ctas=1)
    np.testing.assert_allclose(out, x.astype(np.float64) * 3.0, rtol=1e-6)
    with pytest.raises(TypeError, match="launch_pld"):
        _scale[(1,)](x, out, 40, 3.0, BLOCK=64, launch_pld=True)


@tessera.jit
def _ramp(x_ptr, n, BLOCK: tl.constexpr, SCALE: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, offs * SCALE, mask=offs < n)


def test_device_caches_as_triton_keys_them():
    kernel = tessera.JITFunction(_ramp.fn)
    x = np.zeros(64, np.float32)
    kernel[(1,)](x, 10, 64, 1.5)
    kernel[(1,)](x, 10, BLOCK=32, SCALE=True)
    kernel[(1,)](x, 16, BLOCK=32, SCALE=True)
    kernel[(1,)](x, 1, BLOCK=32, SCALE=True)
    caches = kernel.device_caches
    assert list(caches) == ["cpu"] and len(caches["cpu"]) == 5 and len(caches["cpu"][0]) == 4
    kernels, _, target, _, binder = caches["cpu"]
    assert target == "cpu" and binder(x, 1, 2, 3)["SCALE"] == 3
    assert sorted(kernels) == sorted([
        "[('*fp32', 'D'), ('i32', ''), ('constexpr', 64), ('constexpr', 1.5)]{}",
        "[('*fp32', 'D'), ('i32', ''), ('constexpr', 32), ('constexpr', True)]{}",
        "[('*fp32', 'D'), ('i32', 'D'), ('constexpr', 32), ('constexpr', True)]{}",
        "[('*fp32', 'D'), ('constexpr', 1), ('constexpr', 32), ('constexpr', True)]{}"])  # Triton's key for a 1
    assert set(map(id, kernels.values())) == set(map(id, kernel.cache.values()))
    # Without a GPU the driver's current device is 0, and it names the host too (libraries read
    # device_caches[driver.active.get_current_device()]).
    from tessera.runtime import driver
    if driver.active.get_current_target().backend == "cpu":
        assert sorted(caches[driver.active.get_current_device()][0]) == sorted(kernels)
