"""The interpreter with CUDA tensors: their storage is copied to the host for
the launch and back after it, strided views keep their offsets, and the
results match the same kernel compiled for nvptx."""
import pytest

torch = pytest.importorskip("torch")
if not torch.cuda.is_available():
    pytest.skip("no CUDA device", allow_module_level=True)

import tessera  # noqa: E402
import tessera.language as tl  # noqa: E402
from tessera import interpreter  # noqa: E402


@tessera.jit
def scale_kernel(x_ptr, out_ptr, n, stride, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs * stride, mask=offs < n)
    tl.store(out_ptr + offs, tl.exp(x.to(tl.float32)) * 2, mask=offs < n)


def test_cuda_tensors_run_interpreted_and_match_the_compiled_kernel():
    torch.manual_seed(0)
    base = torch.randn(2 * 1000 + 1, device="cuda", dtype=torch.float16)
    x = base[1::2]  # a strided view at an offset into its storage
    interpreted = torch.full((1000,), float("nan"), device="cuda")
    with interpreter.enabled():
        scale_kernel[(tessera.cdiv(1000, 256),)](x, interpreted, 1000, x.stride(0), BLOCK=256)
    compiled = torch.full((1000,), float("nan"), device="cuda")
    scale_kernel[(tessera.cdiv(1000, 256),)](x, compiled, 1000, x.stride(0), BLOCK=256)
    want = torch.exp(x.double()) * 2
    torch.testing.assert_close(interpreted.double(), want, rtol=1e-6, atol=1e-6)
    torch.testing.assert_close(interpreted, compiled, rtol=1e-5, atol=1e-5)
