"""The launch fast lane (capi/python/launcher.c) with torch CUDA tensors:
after one launch through the Python path, the same key launches from C, on
torch's current stream, with the same results."""

import pytest

import tessera
import tessera.language as tl
from tessera import _launch


@tessera.jit
def axpy(x, y, out, n, alpha, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out + offs, alpha * tl.load(x + offs, mask=m).to(tl.float32) + tl.load(y + offs, mask=m), mask=m)


def _fast_launches():
    return axpy._fast.launches() if axpy._fast else 0


@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16"])
def test_torch_tensors_take_the_fast_lane(torch, dtype):
    assert _launch.extension() is not None
    n = 5003  # ragged
    x = torch.randn(n, device="cuda", dtype=getattr(torch, dtype))
    y = torch.randn(n, device="cuda")
    for alpha in (0.5, -2.0, 3.25):
        before = _fast_launches()
        out = torch.full((n,), float("nan"), device="cuda")
        axpy[lambda meta: (tessera.cdiv(n, meta["BLOCK"]),)](x, y, out, n, alpha, BLOCK=1024)
        torch.testing.assert_close(out.double(), alpha * x.double() + y.double(), rtol=1e-6, atol=1e-6)
    assert _fast_launches() == before + 1  # the last launch at least


def test_parameters_and_views(torch):
    n = 4096
    w = torch.nn.Parameter(torch.randn(2 * n, device="cuda"))
    y = torch.randn(n, device="cuda")
    for view in (w[:n], w[1:n + 1], w[:n]):  # 16-byte aligned, then not, then again
        out = torch.full((n,), float("nan"), device="cuda")
        axpy[(4,)](view, y, out, n, 1.0, BLOCK=1024)
        torch.testing.assert_close(out, view.detach() + y)
    assert _fast_launches() > 0


def test_follows_torch_current_stream(torch):
    # Each launch reads x right after a slow fill on a non-blocking stream:
    # a launch on any other stream would read the old values.
    n = 1 << 20
    y = torch.zeros(n, device="cuda")
    streams = [torch.cuda.Stream(), torch.cuda.Stream()]
    before = _fast_launches()
    for round_ in range(3):
        for k, s in enumerate(streams):
            x = torch.zeros(n, device="cuda")
            out = torch.full((n,), float("nan"), device="cuda")
            torch.cuda.synchronize()
            with torch.cuda.stream(s):
                torch.cuda._sleep(20_000_000)
                x.fill_(round_ * 2 + k + 1)
                axpy[(n // 1024,)](x, y, out, n, 1.0, BLOCK=1024)
            s.synchronize()
            assert torch.all(out == round_ * 2 + k + 1), (round_, k)
    assert _fast_launches() - before >= 4  # every launch after each stream's first


def test_launched_kernels_report_registers(torch):
    # Tutorial 02 reads these to size its grid by occupancy.
    n = 4096
    x, y, out = (torch.randn(n, device="cuda") for _ in range(3))
    kernel = axpy.warmup(x, y, out, n, 1.0, BLOCK=1024, num_warps=4, grid=(1,))
    kernel._init_handles()
    assert 0 < kernel.n_regs <= 255 and kernel.n_spills >= 0
    assert kernel.metadata.threads_per_program == 128 and kernel.metadata.num_warps == 4
    assert kernel.metadata.shared >= 0 and kernel.metadata.target == "nvptx"


@pytest.mark.parametrize("where", ["cpu", "meta"])
@pytest.mark.parametrize("position", [0, 1, 2])
def test_a_tensor_on_another_device_leaves_the_lane(torch, where, position):
    # The lane reads the first tensor's device in full and only get_device()
    # of the others: a CPU or meta tensor in any place must still reach the
    # Python path's error, never a launch with its pointer.
    n = 4096
    args = [torch.randn(n, device="cuda") for _ in range(3)]
    for _ in range(2):
        axpy[(4,)](*args, n, 1.0, BLOCK=1024)
    before = _fast_launches()
    args[position] = torch.randn(n, device=where)
    with pytest.raises((tessera.TesseraError, TypeError), match="device"):
        axpy[(4,)](*args, n, 1.0, BLOCK=1024)
    assert _fast_launches() == before
    args[position] = torch.randn(n, device="cuda")
    args[2] = torch.full((n,), float("nan"), device="cuda")
    axpy[(4,)](*args, n, 1.0, BLOCK=1024)
    torch.testing.assert_close(args[2], args[0] + args[1])
    assert _fast_launches() == before + 1


def test_kernel_subscript_is_the_fast_lanes_in_c(torch):
    # _launch.py puts JITFunction.__getitem__ in C once the extension loads;
    # it must answer as the Python one: the lane's GridLaunch, else run().
    n = 4096
    x, y = torch.randn(n, device="cuda"), torch.randn(n, device="cuda")
    out = torch.full((n,), float("nan"), device="cuda")
    axpy[(4,)](x, y, out, n, 2.0, BLOCK=1024)
    assert type(type(axpy).__dict__["__getitem__"]).__name__ == "Subscript"
    assert type(axpy[(4,)]).__name__ == "GridLaunch"
    axpy.debug = True
    try:
        assert type(axpy[(4,)]).__name__ != "GridLaunch"  # the checked mode is the Python path's
    finally:
        axpy.debug = None
    bound = axpy.__getitem__((4,))
    before = _fast_launches()
    bound(x, y, out, n, 2.0, BLOCK=1024)
    torch.testing.assert_close(out, 2.0 * x + y)
    assert _fast_launches() == before + 1
