"""Triton's compile path under tessera.compat, as torch's Inductor drives
it: make_backend and its options, triton.compile's CompiledKernel (hash,
metadata, the launcher Inductor calls with every parameter), Triton's
debug=True as the checked mode, and torch.compile with Inductor's Triton
CPU backend (where torch is installed)."""
import numpy as np
import pytest

import tessera
import tessera.compat
from tessera import _C


@pytest.fixture
def triton(cpu_target):
    was = tessera.compat.installed()
    module = tessera.compat.install(replace=True)
    yield module
    if not was:
        tessera.compat.uninstall()


def scale_kernel(triton):
    import triton.language as tl

    @triton.jit
    def scale(x, out, n, FACTOR: tl.constexpr, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        tl.store(out + offs, tl.load(x + offs, mask=offs < n) * FACTOR, mask=offs < n)
    return scale


def compiled(triton, debug=False, block=16, sanitize_overflow=False):
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    src = ASTSource(scale_kernel(triton), {"x": "*fp32", "out": "*fp32", "n": "i32", "FACTOR": "constexpr",
                                           "BLOCK": "constexpr"}, {"FACTOR": 3.0, "BLOCK": block})
    return triton.compile(src, target=GPUTarget("cpu", "", 32),
                          options={"num_warps": 2, "debug": debug, "launch_pdl": False,
                                   "sanitize_overflow": sanitize_overflow})


def test_backends_answer_by_vendor_and_target(triton):
    from triton.backends import backends, BaseBackend
    from triton.backends.compiler import GPUTarget
    from triton.compiler.compiler import make_backend
    assert {"nvidia", "amd", "cpu"} <= set(backends)
    nvidia = make_backend(GPUTarget("cuda", 90, 32))
    assert isinstance(nvidia, BaseBackend) and isinstance(nvidia, backends["nvidia"].compiler)
    assert "cuda" in nvidia.hash() and nvidia.hash() != make_backend(GPUTarget("cuda", 80, 32)).hash()
    options = nvidia.parse_options({"num_warps": 8, "unknown_option": 1})
    assert options.__dict__["num_warps"] == 8 and options.arch == 90 and options.num_ctas == 1
    with pytest.raises(AssertionError, match="power of 2"):
        nvidia.parse_options({"num_warps": 3})
    with pytest.raises(NotImplementedError, match="MLIR stages"):
        nvidia.add_stages({}, options)
    assert isinstance(make_backend(GPUTarget("cpu", "", 1)), backends["cpu"].compiler)
    with pytest.raises(RuntimeError, match="0 compatible backends"):
        make_backend(GPUTarget("metal", 1, 32))
    assert BaseBackend.parse_attr("D") == [["tt.divisibility", 16]] and BaseBackend.get_int_specialization(32, align=True) == "D"


def test_compiled_kernel_launches_as_inductor_launches_it(triton):
    kernel = compiled(triton)
    assert len(kernel.hash) == 64 and kernel.metadata.num_warps == 2 and kernel.metadata.cluster_dims == (1, 1, 1)
    assert kernel.metadata.name == "scale" and kernel.packed_metadata[0] == 2 and kernel.function is None
    assert kernel.kernel == kernel.binary.data and kernel.metadata_group == {}  # a host object, not put in the cache
    x = np.random.default_rng(5).standard_normal(37).astype(np.float32)
    out = np.full(37, np.nan, np.float32)
    kernel[(3,)](x, out, 37)
    np.testing.assert_allclose(out, 3 * x, rtol=1e-6)
    out[:] = np.nan
    kernel._init_handles()
    # Inductor's launcher passes every parameter, constexprs included.
    kernel.run(3, 1, 1, 0, kernel.function, kernel.packed_metadata, None, None, None, x, out, 37, 3.0, 16)
    np.testing.assert_allclose(out, 3 * x, rtol=1e-6)
    with pytest.raises(TypeError, match="takes 3 runtime arguments \\(or all 5 parameters\\), got 2"):
        kernel.run(3, 1, 1, 0, kernel.function, None, None, None, None, x, out)


def test_a_cuda_kernel_leaves_its_cubin_for_inductors_static_launcher(triton, tmp_path, monkeypatch):
    if not _C.target_available("nvptx"):
        pytest.skip("no nvptx code generator in this build")
    torch = pytest.importorskip("torch")
    from torch._inductor.runtime.runtime_utils import triton_hash_to_path_key
    from torch._inductor.runtime.static_triton_launcher import StaticallyLaunchedCudaKernel
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    monkeypatch.setenv("TRITON_CACHE_DIR", str(tmp_path))  # as Inductor sets it before compiling
    signature = {"x": "*fp32", "out": "*fp32", "n": "i32", "FACTOR": "constexpr", "BLOCK": "constexpr"}
    fn = scale_kernel(triton)

    def compile_for_cuda(debug):
        src = ASTSource(fn, signature, {"FACTOR": 3.0, "BLOCK": 128})
        return triton.compile(src, target=GPUTarget("cuda", 90, 32), options={"num_warps": 4, "debug": debug})
    kernel = compile_for_cuda(False)
    # Where Inductor's can_statically_launch looks for it: the cache folder of the kernel's hash.
    path = tmp_path / triton_hash_to_path_key(kernel.hash) / "scale.cubin"
    assert path.read_bytes() == kernel.asm["cubin"] == kernel.kernel
    assert kernel.metadata_group == {"scale.cubin": str(path)}
    kernel._cubin_path = str(path)  # what can_statically_launch sets
    static = StaticallyLaunchedCudaKernel(kernel)
    # The cubin's parameters are the runtime arguments in order; Inductor's launcher passes
    # the two pointers and the i32, then a null for the global scratch, which the kernel
    # does not declare (cuLaunchKernel reads only the parameters a kernel has).
    assert (static.name, static.arg_tys, static.num_warps, static.shared) == ("scale", "OOi", 4, 0)
    assert ".entry scale(" in kernel.asm["ptx"] and kernel.asm["ptx"].count(".param ") == 3
    # The checked mode's kernel takes its buffers' sizes too: Inductor must launch it through `run`.
    checked = compile_for_cuda(True)
    assert not (tmp_path / triton_hash_to_path_key(checked.hash)).exists()
    del torch


def test_debug_is_the_checked_mode(triton):
    kernel = compiled(triton, debug=True, sanitize_overflow=True)  # Triton's default sanitize_overflow
    x, out = np.ones(16, np.float32), np.zeros(8, np.float32)  # out is too short for n=16
    from tessera._checked import OutOfBoundsError
    with pytest.raises(OutOfBoundsError, match="argument 'out'"):
        kernel[(1,)](x, out, 16)
    kernel[(1,)](x, np.zeros(16, np.float32), 16)
    assert kernel.metadata.debug


def test_debug_without_overflow_checks_is_a_plain_compile(triton):
    # What torch's Inductor asks for (debug=True, sanitize_overflow=False): Triton's device
    # asserts, which Tessera always checks; no bounds checks, so no hidden parameters (its
    # static CUDA launcher passes the signature's arguments alone).
    kernel = compiled(triton, debug=True, sanitize_overflow=False)
    assert not kernel.metadata.debug and kernel._num_params() == 3
    x = np.random.default_rng(2).standard_normal(16).astype(np.float32)
    out = np.full(16, np.nan, np.float32)
    kernel[(1,)](x, out, 16)
    np.testing.assert_allclose(out, 3 * x, rtol=1e-6)


def test_compile_options(triton):
    with pytest.raises(TypeError, match="unknown options misspelt"):
        compiled_with(triton, misspelt=1)
    with pytest.raises(NotImplementedError, match="num_ctas=2"):
        compiled_with(triton, num_ctas=2)
    with pytest.raises(NotImplementedError, match="launch_cooperative_grid=True"):
        compiled_with(triton, launch_cooperative_grid=True)
    assert compiled_with(triton, enable_fp_fusion=False, waves_per_eu=2, maxnreg=64).metadata.name == "scale"


def compiled_with(triton, **options):
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    src = ASTSource(scale_kernel(triton), {"x": "*fp32", "out": "*fp32", "n": "i32", "FACTOR": "constexpr",
                                           "BLOCK": "constexpr"}, {"FACTOR": 1.0, "BLOCK": 16})
    return triton.compile(src, target=GPUTarget("cpu", "", 32), options=options)


@pytest.fixture
def inductor_on_triton_cpu(triton, tmp_path, monkeypatch):
    """torch.compile with Inductor's Triton CPU backend, compiling in-process."""
    torch = pytest.importorskip("torch")
    import torch._inductor.config as config
    monkeypatch.setenv("TORCHINDUCTOR_CACHE_DIR", str(tmp_path))
    with config.patch(cpu_backend="triton", compile_threads=1):  # torch's config is no plain module
        torch._dynamo.reset()
        yield torch
        torch._dynamo.reset()


def test_torch_compile_through_inductors_triton_cpu_backend(inductor_on_triton_cpu):
    torch = inductor_on_triton_cpu

    def f(x, y):
        return torch.relu(x * 2 + y).sum(dim=-1), torch.sigmoid(y).t() @ x

    x, y = torch.randn(33, 70), torch.randn(33, 70)
    got, expected = torch.compile(f)(x, y), f(x.double(), y.double())
    for g, e in zip(got, expected):
        torch.testing.assert_close(g.double(), e, rtol=1e-4, atol=1e-4)


def test_a_users_triton_kernel_inside_torch_compile(inductor_on_triton_cpu, triton):
    torch = inductor_on_triton_cpu
    import triton.language as tl

    @triton.jit
    def double_kernel(x, out, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        tl.store(out + offs, tl.load(x + offs, mask=offs < n) * 2, mask=offs < n)

    def f(x):
        y = x + 1
        out = torch.empty_like(y)
        double_kernel[(triton.cdiv(y.numel(), 64),)](y, out, y.numel(), BLOCK=64)
        return out.relu()

    x = torch.randn(100)
    # torch reads Triton's IR to learn what the kernel writes; without it, it assumes every argument is written.
    torch.testing.assert_close(torch.compile(f)(x), f(x))
