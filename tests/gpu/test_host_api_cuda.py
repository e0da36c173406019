"""Triton's host API on the H200: cuBLASLt through
tessera._C.libtriton, the profiler's device times."""
import json
import sys

import pytest

import tessera
import tessera.language as tl


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32"])
def test_cublaslt_matmul_is_a_times_b_transposed(torch, dtype):
    from tessera._C.libtriton import nvidia
    blas = nvidia.cublas.CublasLt(torch.empty(32 * 1024 * 1024, device="cuda", dtype=torch.uint8))
    t = getattr(torch, dtype)
    m, n, k = 256, 192, 128   # (M, N, K): distinct, so a transposed operand cannot pass
    a = (torch.randn(m, k, device="cuda") / 4).to(t)
    b = (torch.randn(n, k, device="cuda") / 4).to(t)
    c = torch.full((m, n), float("nan"), device="cuda").to(t)
    blas.matmul(a, b, c)
    expected = a.double() @ b.double().T
    tol = {"float16": 2e-2, "bfloat16": 6e-2, "float32": 2e-2}[dtype]
    torch.testing.assert_close(c.double(), expected, atol=tol, rtol=tol)
    with pytest.raises(ValueError, match="do not make c = a @ b.T"):
        blas.matmul(a, b.T.contiguous(), c)
    f8 = torch.zeros(16, 16, device="cuda").to(torch.float8_e4m3fn)
    with pytest.raises(TypeError, match="float8_e4m3fn is not one of"):
        blas.matmul(f8, f8, f8)


def _meta(grid, kernel, args):
    return {"name": "scale [N=%d]" % args["n"], "bytes": 8 * args["n"]}


@tessera.jit(launch_metadata=_meta)
def _scale(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 3.0, mask=offs < n)


def test_profiler_times_launches_and_scopes_on_the_device(torch, tmp_path):
    import tessera.profiler as proton
    import tessera.profiler.viewer as viewer
    n = 1 << 26
    x = torch.randn(n, device="cuda")
    y = torch.empty_like(x)
    grid = (tessera.cdiv(n, 1024),)
    _scale[grid](x, y, n, BLOCK=1024)
    # The fastest of several launches: other tests may share the GPU (one
    # sample read 0.43 ms where the profiled ten averaged 0.14).
    times = []
    for _ in range(10):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        _scale[grid](x, y, n, BLOCK=1024)
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end))
    kernel_ms = min(times)
    proton.start(str(tmp_path / "p"), hook="triton")
    for _ in range(10):
        with proton.scope("torch copy", {"bytes": 8 * n}):
            y.copy_(x)
        _scale[grid](x, y, n, BLOCK=1024)
    proton.finalize()
    torch.testing.assert_close(y, 3 * x)
    tree, _ = viewer.parse(["time/ms"], str(tmp_path / "p.hatchet"))
    frames = {f.name: f for f in tree.children}
    assert frames["scale [N=%d]" % n].derived("count") == 10 and frames["torch copy"].derived("count") == 10
    per_launch_ms = frames["scale [N=%d]" % n].derived("time/ms") / 10
    assert 0.5 * kernel_ms < per_launch_ms < 4.0 * kernel_ms, (per_launch_ms, kernel_ms)
    assert frames["torch copy"].derived("gbyte/s") > 500    # HBM, not a host copy


def test_triton_testing_peaks_on_this_gpu(torch):
    # Triton's formulas over the device's own properties: an H100/H200
    # reports 3.3-4.8 TB/s of HBM and ~1000 dense fp16 TFLOP/s at its clock.
    gbps = tessera.testing.get_dram_gbps()
    assert 1000 < gbps < 10000, gbps
    clock_khz = tessera.runtime.driver.active.utils.get_device_properties(0)["sm_clock_rate"]
    fp16 = tessera.testing.get_max_tensorcore_tflops(torch.float16, clock_khz)
    assert 100 < fp16 < 5000 and tessera.testing.get_max_tensorcore_tflops(torch.int8, clock_khz) == 2 * fp16
    assert 10 < tessera.testing.get_max_simd_tflops(torch.float32, clock_khz) < fp16
