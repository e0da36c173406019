"""Fork with CUDA in use: a DataLoader's fork workers launch kernels on the
CPU target while the parent keeps launching on CUDA (the reliability issue's
GPU case). A forked child inherits a CUDA context it must never touch; its
CPU launches must neither hang nor reach the parent's device state."""

import numpy as np

import tessera
import tessera.language as tl


@tessera.jit
def scale_add(x, y, out, n, alpha, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out + offs, alpha * tl.load(x + offs, mask=m) + tl.load(y + offs, mask=m), mask=m)


def _cpu_sum(i):
    n = 700 + 37 * i  # ragged
    rng = np.random.default_rng(i)
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    out = np.full(n, np.nan, np.float32)
    scale_add[(tessera.cdiv(n, 128),)](x, y, out, n, 0.5, BLOCK=128)  # numpy arrays: the cpu target
    np.testing.assert_allclose(out, 0.5 * x.astype(np.float64) + y, rtol=1e-6, atol=1e-6)
    return float(out.astype(np.float64).sum())


def _cuda_check(torch, seed):
    n = 100_003
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.randn(n, device="cuda", generator=g)
    y = torch.randn(n, device="cuda", generator=g)
    out = torch.full((n,), float("nan"), device="cuda")
    scale_add[(tessera.cdiv(n, 1024),)](x, y, out, n, -2.0, BLOCK=1024)
    torch.testing.assert_close(out.double(), -2.0 * x.double() + y.double(), rtol=1e-6, atol=1e-6)


def test_dataloader_fork_workers_on_cpu_while_the_parent_launches_on_cuda(torch):
    from torch.utils.data import DataLoader, Dataset

    class Sums(Dataset):
        def __len__(self):
            return 32

        def __getitem__(self, i):
            return torch.tensor(_cpu_sum(i), dtype=torch.float64)

    _cuda_check(torch, 0)  # CUDA is initialized and a kernel loaded before the fork
    expected = [_cpu_sum(i) for i in range(32)]
    loader = DataLoader(Sums(), batch_size=4, num_workers=4, multiprocessing_context="fork", timeout=120)
    got = []
    for step, batch in enumerate(loader):
        _cuda_check(torch, step + 1)  # the parent launches on CUDA between batches
        got.extend(float(v) for v in batch)
    assert got == expected
    _cuda_check(torch, 99)
    torch.cuda.synchronize()
