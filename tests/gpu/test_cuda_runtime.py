"""The CUDA runtime backend on a real GPU, before Tessera's nvptx code
generator exists: PTX and cubin built by nvcc from kernels.cu are loaded with
tessera._C.load_binary and launched on torch tensors (on torch's current
stream), on tessera's own arrays, and on objects that only speak
__cuda_array_interface__ or __dlpack__; driver errors must come back as
TesseraError carrying CUDA's error name and text. Every test skips, with the
reason printed, where there is no CUDA device."""

import subprocess
import sys
import textwrap

import numpy as np
import pytest

import tessera
from tessera import _C


class OnlyCai:
    """Exposes a tensor only through __cuda_array_interface__."""

    def __init__(self, t):
        self.__cuda_array_interface__ = t.__cuda_array_interface__


class OnlyDlpack:
    """Exposes a tensor only through DLPack."""

    def __init__(self, t):
        self.t = t

    def __dlpack__(self, stream=None):
        return self.t.__dlpack__()

    def __dlpack_device__(self):
        return self.t.__dlpack_device__()


def test_backend_is_listed_first(cuda_device):
    assert _C.backend_names()[0] == "cuda"
    name = _C.device_name(cuda_device)
    print("cuda device 0:", name)
    assert "sm_" in name


def test_vector_add_on_torch_tensors_and_current_stream(torch, ptx):
    k = _C.load_binary(ptx, "vadd", 4, format="ptx", threads=256)
    n = 1_000_003  # not a multiple of the block
    x, y = torch.randn(n, device="cuda"), torch.randn(n, device="cuda")
    out = torch.full((n,), float("nan"), device="cuda")
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        # Launched on torch's current stream (the side stream here): the
        # result is ordered after the fill above and before the check below.
        k.launch((tessera.cdiv(n, 256),), [x, y, out, n], stream=torch.cuda.current_stream())
        expected = x + y
        torch.testing.assert_close(out, expected, rtol=0, atol=0)
    torch.cuda.synchronize()
    # The default stream and a raw CUstream handle work as well.
    out.fill_(float("nan"))
    k.launch((tessera.cdiv(n, 256), 1, 1), [x, y, out, n])
    torch.cuda.synchronize()
    torch.testing.assert_close(out, x + y, rtol=0, atol=0)
    out.fill_(float("nan"))
    k.launch([tessera.cdiv(n, 256)], [x, y, out, n], stream=torch.cuda.current_stream().cuda_stream)
    torch.testing.assert_close(out, x + y, rtol=0, atol=0)


def test_cubin_and_a_3d_grid(torch, cubin):
    k = _C.load_binary(cubin, "grid_ids", 1, format="cubin", threads=32)
    gx, gy, gz = 7, 5, 3
    out = torch.zeros(gx * gy * gz, dtype=torch.int32, device="cuda")
    k.launch((gx, gy, gz), [out], stream=torch.cuda.current_stream())
    assert out.cpu().tolist() == list(range(1, gx * gy * gz + 1))


def test_more_than_48kb_of_dynamic_shared_memory(torch, ptx):
    n, rows = 16384, 6  # 64 KB of floats per block
    k = _C.load_binary(ptx, "reverse_rows", 3, format="ptx", threads=1024, shared_memory=n * 4)
    x = torch.randn(rows, n, device="cuda")
    out = torch.full_like(x, float("nan"))
    k.launch((rows,), [x, out, n], stream=torch.cuda.current_stream())
    torch.testing.assert_close(out, torch.flip(x, dims=[1]), rtol=0, atol=0)


def test_cuda_array_interface_and_dlpack_arguments(torch, ptx):
    k = _C.load_binary(ptx, "vadd", 4, format="ptx", threads=128)
    n = 4099
    x, y = torch.randn(n, device="cuda"), torch.randn(n, device="cuda")
    out = torch.full((n,), float("nan"), device="cuda")
    k.launch((tessera.cdiv(n, 128),), [OnlyCai(x), OnlyDlpack(y), OnlyCai(out), n],
             stream=torch.cuda.current_stream())
    torch.testing.assert_close(out, x + y, rtol=0, atol=0)


def test_tessera_arrays_without_torch(cuda_device, ptx):
    rng = np.random.default_rng(7)
    n = 10_000
    a, b = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    x, y = tessera.from_numpy(a, device="cuda"), tessera.from_numpy(b, device="cuda")
    out = tessera.from_numpy(np.full(n, np.nan, np.float32), device="cuda:0")
    assert (x.device, x.shape, x.dtype) == ("cuda:0", (n,), np.float32)
    k = _C.load_binary(ptx, "vadd", 4, format="ptx", threads=256)
    k.launch((tessera.cdiv(n, 256),), [x, y, out, n])
    np.testing.assert_array_equal(out.numpy(), a + b)  # .numpy() copies on the default stream, after the launch
    z = tessera.zeros((3, 5), "int32", device="cuda")
    np.testing.assert_array_equal(z.numpy(), np.zeros((3, 5), np.int32))
    c = tessera.empty(n, "float32", device="cuda").copy_(out)
    np.testing.assert_array_equal(c.numpy(), a + b)
    assert c.__cuda_array_interface__["data"][0] == c.data_ptr()


def test_tessera_arrays_exchange_with_torch(torch, ptx):
    t = tessera.from_numpy(np.arange(12, dtype=np.float32).reshape(3, 4), device="cuda")
    viewed = torch.from_dlpack(t)                    # tessera's DLPack capsule, no copy
    assert viewed.device.type == "cuda" and viewed.data_ptr() == t.data_ptr()
    torch.testing.assert_close(viewed.cpu(), torch.arange(12, dtype=torch.float32).reshape(3, 4))
    as_tensor = torch.as_tensor(t, device="cuda")    # __cuda_array_interface__
    assert as_tensor.data_ptr() == t.data_ptr()
    viewed.mul_(2)                                   # torch writes, tessera reads
    torch.cuda.synchronize()
    np.testing.assert_array_equal(t.numpy(), 2 * np.arange(12, dtype=np.float32).reshape(3, 4))


BAD_PTX = """.version 8.0
.target sm_90
.address_size 64
.visible .entry broken()
{
  bogus.instruction %r1;
  ret;
}
"""


def test_bad_ptx_reports_the_driver_error(cuda_device):
    with pytest.raises(tessera.TesseraError) as e:
        _C.load_binary(BAD_PTX, "broken", 0, format="ptx")
    msg = str(e.value)
    print(msg)
    # The driver's JIT log names the offending line.
    assert "cuModuleLoadDataEx (ptx) failed: CUDA_ERROR_INVALID_PTX" in msg and "JIT log" in msg, msg
    with pytest.raises(tessera.TesseraError, match="cuModuleLoadDataEx.*CUDA_ERROR_INVALID_IMAGE"):
        _C.load_binary(b"this is not PTX", "vadd", 4, format="ptx")
    with pytest.raises(tessera.TesseraError, match="not an ELF file"):
        _C.load_binary(b".version 8.0", "vadd", 4, format="cubin")
    with pytest.raises(tessera.TesseraError, match="loads 'ptx' and 'cubin'"):
        _C.load_binary(b"\x7fELF", "vadd", 4, format="elf-shared-object", device="cuda")


def test_missing_entry(ptx):
    with pytest.raises(tessera.TesseraError, match="no kernel entry 'nope'.*CUDA_ERROR_NOT_FOUND"):
        _C.load_binary(ptx, "nope", 0, format="ptx")


def test_bad_launches_report_the_driver_error(torch, ptx):
    n = 1024
    x = torch.randn(n, device="cuda")
    k = _C.load_binary(ptx, "vadd", 4, format="ptx", threads=2048)  # above the 1024-thread limit
    with pytest.raises(tessera.TesseraError, match="cuLaunchKernel of 'vadd'.*CUDA_ERROR_INVALID_VALUE") as e:
        k.launch((1,), [x, x, x, n])
    print(e.value)
    big = _C.load_binary(ptx, "reverse_rows", 3, format="ptx", threads=1024, shared_memory=1 << 20)  # 1 MB
    with pytest.raises(tessera.TesseraError, match="cuFuncSetAttribute.*CUDA_ERROR_INVALID_VALUE"):
        big.launch((1,), [x, x, n])
    with pytest.raises(TypeError, match="takes 4 runtime arguments"):
        k.launch((1,), [x, x, n])
    # The context is still usable after these (they are not sticky errors).
    ok = _C.load_binary(ptx, "vadd", 4, format="ptx", threads=256)
    out = torch.empty_like(x)
    ok.launch((4,), [x, x, out, n], stream=torch.cuda.current_stream())
    torch.testing.assert_close(out, 2 * x)


def test_a_faulting_kernel_raises_at_synchronize(cuda_device, ptx, tmp_path):
    # A fault poisons the CUDA context for the rest of the process, so it runs
    # in a child process of its own.
    path = tmp_path / "k.ptx"
    path.write_bytes(ptx)
    script = textwrap.dedent("""
        import ctypes, sys
        from tessera import _C
        k = _C.load_binary(open(sys.argv[1], "rb").read(), "store_one", 1, format="ptx")
        k.launch((1,), [ctypes.c_void_p(16)])   # an unmapped address
        try:
            _C._check(_C.library().tessera_device_synchronize(_C.get_device("cuda")))
        except _C.TesseraError as e:
            print("ERROR:", e)
    """)
    r = subprocess.run([sys.executable, "-c", script, str(path)], capture_output=True, text=True, timeout=120)
    print(r.stdout, r.stderr)
    assert "ERROR: cuCtxSynchronize failed: CUDA_ERROR_ILLEGAL_ADDRESS" in r.stdout, r.stdout + r.stderr


def test_jit_on_torch_tensors_follows_their_device_and_stream(torch):
    import tessera.language as tl

    @tessera.jit
    def add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        tl.store(out_ptr + offs, tl.load(x_ptr + offs) + tl.load(y_ptr + offs), mask=offs < n)

    n = 100003  # ragged: the last program is partly masked
    x, y = torch.randn(n, device="cuda"), torch.randn(n, device="cuda")
    out = torch.full((n,), float("nan"), device="cuda")
    stream = torch.cuda.Stream()
    with torch.cuda.stream(stream):  # the launch must go to the current stream
        torch.cuda._sleep(10_000_000)
        add[(tessera.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
    stream.synchronize()
    torch.testing.assert_close(out, x + y, rtol=0, atol=0)
    with pytest.raises(tessera.TesseraError, match="different devices"):
        add[(1,)](x, x.cpu(), x, 64, BLOCK=64)
