"""triton.runtime.jit's specialization helpers (specialize_impl, mangle_type,
create_function_from_signature, compute_cache_key, DependenciesFinder),
triton.language.standard.sort_impl and semantic.IncompatibleTypeErrorImpl
under tessera.compat, with Triton 3.6's results (read from Triton's
native_specialize_impl on the same values)."""

import ast
import inspect

import numpy as np
import pytest

import tessera
import tessera.compat


@pytest.fixture
def triton():
    was = tessera.compat.installed()
    module = tessera.compat.install(replace=True)
    yield module
    if not was:
        tessera.compat.uninstall()


class FakeTensor:
    def __init__(self, address, dtype="torch.float32"):
        self.address, self.dtype = address, dtype

    def data_ptr(self):
        return self.address


def test_specialize_impl_gives_tritons_types_and_keys(triton):
    from triton.backends.compiler import BaseBackend
    from triton.runtime.jit import specialize_impl, mangle_type
    cases = [(None, True, ("constexpr", None)), (True, True, ("u1", None)), (1, True, ("constexpr", 1)),
             (1, False, ("i32", None)), (16, True, ("i32", "D")), (17, True, ("i32", "")), (-5, True, ("i32", "")),
             (2**31, True, ("i64", "D")), (2**63 + 5, True, ("u64", "")), (1.5, True, ("fp32", None)),
             (FakeTensor(4096), True, ("*fp32", "D")), (FakeTensor(4100), True, ("*fp32", "")),
             (FakeTensor(4096), False, ("*fp32", None)), (FakeTensor(64, "torch.bfloat16"), True, ("*bf16", "D"))]
    for value, specialize, want in cases:
        assert specialize_impl(BaseBackend, value, False, specialize, True) == want, value
    assert specialize_impl(BaseBackend, FakeTensor(4096), True, True, True) == ("*kfp32", "D")
    assert specialize_impl(BaseBackend, FakeTensor(4096), False, True, False) == ("*fp32", "")
    assert specialize_impl(BaseBackend, (1, FakeTensor(32)), False, False, True) == (("constexpr", "*fp32"), (1, "D"))
    with pytest.raises(TypeError, match="failed to specialize argument of type: str"):
        specialize_impl(BaseBackend, "abc", False, True, True)
    assert (mangle_type(FakeTensor(16)), mangle_type(5), mangle_type(16, True)) == ("*fp32", "i32", "i32")


def test_create_function_from_signature_binds_and_specializes(triton):
    from triton.backends.compiler import BaseBackend
    from triton.runtime.jit import create_function_from_signature
    import triton.language as tl

    @triton.jit(do_not_specialize=["m"])
    def kernel(x_ptr, n, m, scale: tl.float32, BLOCK: tl.constexpr = 64):
        pass

    binder = create_function_from_signature(kernel.signature, kernel.params, BaseBackend)
    params, specialization, options = binder(FakeTensor(4096), 32, 48, 2.0, num_warps=4)
    assert params == {"x_ptr": params["x_ptr"], "n": 32, "m": 48, "scale": 2.0, "BLOCK": 64}
    assert specialization == [("*fp32", "D"), ("i32", "D"), ("i32", None), ("fp32", None), ("constexpr", 64)]
    assert options == {"num_warps": 4}
    with pytest.raises(ValueError):
        create_function_from_signature(kernel.signature, kernel.params[:2], BaseBackend)


def test_compute_cache_key_counts_jit_functions_by_their_key_and_memoizes(triton):
    from triton.runtime.jit import compute_cache_key

    @triton.jit
    def helper(x):
        return x

    cache = {}
    spec = [("i32", "D"), ("constexpr", helper)]
    key = compute_cache_key(cache, spec, {"num_warps": 4})
    assert helper.cache_key in key and key.endswith("{'num_warps': 4}")
    assert compute_cache_key(cache, spec, {"num_warps": 4}) is key
    assert compute_cache_key(cache, spec, {"num_warps": 8}) != key


def test_dependencies_finder_hashes_the_source_and_the_jit_functions_called(triton):
    from triton.runtime.jit import DependenciesFinder
    import triton.language as tl

    @triton.jit
    def helper(x):
        return x * 2

    SCALE = 3
    source = "def k(x):\n    return helper(x) * SCALE\n"

    def digest(g):
        finder = DependenciesFinder("k", g, {}, source)
        finder.visit(ast.parse(source))
        return finder

    first = digest({"helper": helper, "SCALE": SCALE, "tl": tl})
    assert len(first.ret) == 64 and ("SCALE", id(first.globals)) in first.used_global_vals

    @triton.jit
    def helper(x):  # noqa: F811  (an edited helper)
        return x * 4

    assert digest({"helper": helper, "SCALE": SCALE, "tl": tl}).ret != first.ret


def test_sort_impl_and_incompatible_type_error(triton):
    import triton.language as tl
    from triton.language.standard import sort_impl
    from triton.language.semantic import IncompatibleTypeErrorImpl

    @triton.jit
    def kernel(x_ptr, out_ptr, top_ptr, N: tl.constexpr, K: tl.constexpr):
        x = tl.load(x_ptr + tl.arange(0, N))
        tl.store(out_ptr + tl.arange(0, N), sort_impl(x))
        tl.store(top_ptr + tl.arange(0, K), sort_impl(x, k=K, descending=True))

    x = np.random.default_rng(3).permutation(32).astype(np.float32)
    out, top = np.zeros(32, np.float32), np.zeros(4, np.float32)
    kernel[(1,)](x, out, top, N=32, K=4)
    np.testing.assert_array_equal(out, np.sort(x))
    np.testing.assert_array_equal(top, np.sort(x)[::-1][:4])
    error = IncompatibleTypeErrorImpl(tl.float32, tl.int8)
    assert str(error) == "invalid operands of type tl.float32 and tl.int8" and error.type_b is tl.int8


def test_target_info_answers_for_the_active_driver_at_compile_time(triton):
    import triton.language as tl
    import triton.language.target_info as ti
    from triton.language.target_info import current_target, is_cuda

    assert tl.target_info is ti
    target = current_target()
    assert target == triton.runtime.driver.active.get_current_target()
    assert is_cuda() == (target.backend == "cuda") and ti.is_hip() == (target.backend == "hip")
    assert ti.cuda_capability_geq(8, 0) == (target.backend == "cuda" and target.arch >= 80)

    @triton.jit
    def kernel(out_ptr):
        if is_cuda():
            tl.store(out_ptr, 1)
        elif ti.is_hip_cdna3():
            tl.store(out_ptr, 2)
        else:
            tl.store(out_ptr, 3)

    out = np.zeros(1, np.int32)
    kernel[(1,)](out)
    assert out[0] == (1 if target.backend == "cuda" else 2 if target.arch == "gfx942" else 3)


def test_standard_private_helpers(triton):
    # The underscore helpers of triton.language.standard that libraries import
    # (FlagGems' topk: _log2; hand-written reductions: the combine functions).
    import triton.language as tl
    from triton.language.standard import (_argmax_combine_tie_break_left, _argmin_combine_tie_break_fast,
                                          _elementwise_max, _get_flip_dim, _is_power_of_two, _log2, _pick_sum_dtype,
                                          _prod_combine, _sum_combine, _xor_combine)
    assert [_log2(i) for i in (0, 1, 2, 3, 64, 65, 1 << 40)] == [0, 0, 1, 1, 6, 6, 40]
    assert [_is_power_of_two(i) for i in (0, 1, 6, 64)] == [False, True, False, True]
    assert _pick_sum_dtype(tl.int8, None) == tl.int32 and _pick_sum_dtype(tl.uint16, None) == tl.uint32
    assert _pick_sum_dtype(tl.int1, None) == tl.uint32  # Triton's int1 is unsigned
    assert _pick_sum_dtype(tl.float16, None) is None and _pick_sum_dtype(tl.int8, tl.int64) == tl.int64
    assert _get_flip_dim(None, (4, 8)) == 1 and _get_flip_dim(-2, (4, 8)) == 0

    @triton.jit
    def kernel(x_ptr, i_ptr, out_ptr, N: tl.constexpr):
        offs = tl.arange(0, N)
        x = tl.load(x_ptr + offs)
        LOG: tl.constexpr = _log2(N)
        v, i = tl.reduce((x, offs), 0, _argmax_combine_tie_break_left)
        w, j = tl.reduce((x, offs), 0, _argmin_combine_tie_break_fast)
        tl.store(i_ptr, i)
        tl.store(i_ptr + 1, j)
        tl.store(out_ptr, v)
        tl.store(out_ptr + 1, w)
        tl.store(out_ptr + 2, tl.reduce(x, 0, _sum_combine))
        tl.store(out_ptr + 3, tl.reduce(x, 0, _elementwise_max))
        tl.store(out_ptr + 4, tl.reduce(x * 0.01 + 1.0, 0, _prod_combine))
        tl.store(i_ptr + 2, tl.reduce(offs * 7, 0, _xor_combine) + LOG * 1000)

    rng = np.random.default_rng()
    x = rng.integers(-8, 8, 64).astype(np.float32)  # repeated values: ties break to the left
    idx, out = np.full(3, -1, np.int32), np.full(5, np.nan, np.float32)
    kernel[(1,)](x, idx, out, N=64)
    xor = 0
    for k in range(64):
        xor ^= 7 * k
    assert idx[0] == np.argmax(x) and idx[2] == xor + 6000
    assert x[idx[1]] == x.min()  # tie_break_fast: any index of the minimum
    np.testing.assert_allclose(out, [x.max(), x.min(), x.sum(), x.max(), np.prod(x.astype(np.float64) * 0.01 + 1)],
                               rtol=1e-5)
