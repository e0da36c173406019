"""tessera.compile(ASTSource(...), target=GPUTarget(...)): Triton's way of
compiling without a launch, for any target and arch, with no device."""
import sys

import pytest

import tessera
import tessera.compat as compat
import tessera.language as tl
from tessera.compiler import ASTSource, GPUTarget


@tessera.jit
def scale(x_ptr, out_ptr, n, alpha, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=m) * alpha, mask=m)


SIGNATURE = {"x_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32", "alpha": "fp32", "BLOCK": "constexpr"}


def source(**kw):
    return ASTSource(scale, SIGNATURE, constexprs={"BLOCK": 256}, **kw)


@pytest.mark.parametrize("target, text_key, data_key, marker", [
    (GPUTarget("cuda", 90, 32), "ptx", "cubin", ".target sm_90"),
    (GPUTarget("cuda", "sm_80", 32), "ptx", "cubin", ".target sm_80"),
    (GPUTarget("hip", "gfx942", 64), "amdgcn", "hsaco", "gfx942"),
    (GPUTarget("vulkan", "", 32), "spvasm", "spv", "OpCapability Shader"),
    ("cpu", "asm", "so", "scale"),
])
def test_compiles_for_any_target_without_a_device(target, text_key, data_key, marker):
    k = tessera.compile(source(), target=target, options={"num_warps": 2})
    assert marker in k.asm[text_key], k.asm[text_key][:400]
    if data_key == "cubin" and data_key not in k.asm:
        pytest.skip("no ptxas here: PTX only")
    assert isinstance(k.asm[data_key], bytes) and len(k.asm[data_key]) > 64
    assert k.name == "scale" and k.metadata.num_warps == 2 and k.metadata.target == target
    if target != "cpu":
        assert k.metadata.threads_per_program == 2 * target.warp_size


def test_constexpr_keys_by_index_and_divisibility_attrs():
    by_index = ASTSource(scale, SIGNATURE, constexprs={(4,): 256}, attrs={(0,): [["tt.divisibility", 16]]})
    assert by_index.specialization() == (["*fp32:16", "*fp32", "i32", "fp32"], [("BLOCK", "256")])
    k = tessera.compile(by_index, target=GPUTarget("cuda", 90, 32))
    assert ".entry scale" in k.asm["ptx"]


@pytest.mark.parametrize("make, message", [
    (lambda: ASTSource(scale, dict(SIGNATURE, BLOCK="constexpr")), "constexpr parameter 'BLOCK' of 'scale' has no value"),
    (lambda: ASTSource(scale, {k: v for k, v in SIGNATURE.items() if k != "n"}, constexprs={"BLOCK": 8}),
     "no type for parameter 'n'"),
    (lambda: ASTSource(scale, dict(SIGNATURE, y="*fp32"), constexprs={"BLOCK": 8}), "'y' not parameters of 'scale'"),
    (lambda: ASTSource(scale, SIGNATURE, constexprs={"BLOK": 8}), "'BLOK' is not a parameter of 'scale'"),
    (lambda: ASTSource(lambda x: x, SIGNATURE), "must be a @tessera.jit function"),
    (lambda: ASTSource(scale, {0: "*fp32"}), "Signature keys must be string"),
])
def test_bad_sources_are_type_errors(make, message):
    with pytest.raises(TypeError, match=message):
        tessera.compile(make(), target="cpu")


def test_bad_options_and_targets():
    with pytest.raises(TypeError, match="unknown options num_wraps"):
        tessera.compile(source(), target="cpu", options={"num_wraps": 4})
    with pytest.raises(tessera.TesseraError, match="nvptx"):  # the error lists the known targets
        tessera.compile(source(), target=GPUTarget("metal", "", 32))
    with pytest.raises(TypeError, match="takes an ASTSource"):
        tessera.compile(scale, target="cpu")


def test_compile_errors_point_into_the_users_file():
    @tessera.jit
    def broken(x_ptr, BLOCK: tl.constexpr):
        tl.store(x_ptr + tl.arange(0, BLOCK), undefined_name)  # noqa: F821

    with pytest.raises(tessera.CompilationError, match="test_compile_api.py:.*undefined_name"):
        tessera.compile(ASTSource(broken, {"x_ptr": "*fp32"}, constexprs={"BLOCK": 4}), target="cpu")


def test_compat_maps_tritons_compiler_modules():
    saved = {n: m for n, m in sys.modules.items() if n == "triton" or n.startswith("triton.")}
    try:
        for n in saved:
            del sys.modules[n]
        triton = compat.install()
        from triton.backends.compiler import GPUTarget as TritonTarget
        from triton.compiler.compiler import ASTSource as TritonSource
        import triton.compiler
        assert TritonTarget is GPUTarget and TritonSource is ASTSource
        from tessera.compat.compiler import compile as compat_compile, CompiledKernel
        assert triton.compile is compat_compile and triton.compiler.ASTSource is ASTSource
        assert issubclass(triton.compiler.CompiledKernel, tessera.compiler.CompiledKernel) and CompiledKernel is triton.compiler.CompiledKernel
    finally:
        compat.uninstall()
        sys.modules.update(saved)


def test_a_kernel_too_big_for_the_target_is_out_of_resources():
    @tessera.jit
    def matmul(a_ptr, b_ptr, c_ptr, K, BLOCK: tl.constexpr):
        r = tl.arange(0, BLOCK)
        acc = tl.zeros((BLOCK, BLOCK), dtype=tl.float32)
        for k in range(0, K, BLOCK):
            a = tl.load(a_ptr + r[:, None] * K + (k + r)[None, :])
            b = tl.load(b_ptr + (k + r)[:, None] * BLOCK + r[None, :])
            acc = tl.dot(a, b, acc)
        tl.store(c_ptr + r[:, None] * BLOCK + r[None, :], acc)

    def source(block):
        return ASTSource(matmul, {"a_ptr": "*fp32", "b_ptr": "*fp32", "c_ptr": "*fp32", "K": "i32"},
                         constexprs={"BLOCK": block})
    with pytest.raises(tessera.OutOfResources, match="needs .* bytes of shared memory; sm_90a has 232448") as e:
        tessera.compile(source(128), target=GPUTarget("cuda", 90, 32), options={"num_stages": 3})
    assert isinstance(e.value, tessera.CompilationError) and e.value.status == 13
    assert "mma" in tessera.compile(source(32), target=GPUTarget("cuda", 90, 32)).asm["ptx"]
