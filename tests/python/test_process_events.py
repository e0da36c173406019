"""Launches around process events (issue #52): a child of fork() launches
CPU kernels (its own thread pool; multiprocessing's and torch's DataLoader's
fork workers), and an atexit handler launches after the runtime's teardown
began."""

import os
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import tessera
import tessera.language as tl


@tessera.jit
def _plus_one(x_ptr, o_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(o_ptr + offs, tl.load(x_ptr + offs, mask=m) + 1.0, mask=m)


def _sum_plus_one(n):
    x = np.arange(n, dtype=np.float32)
    o = np.zeros(n, np.float32)
    _plus_one[(tessera.cdiv(n, 64),)](x, o, n, BLOCK=64)
    np.testing.assert_array_equal(o, x + 1)
    return float(o.sum())


def test_fork_after_a_launch(cpu_target):
    _sum_plus_one(1000)
    pid = os.fork()
    if pid == 0:  # the child: a new pool on its first launch
        try:
            code = 0 if _sum_plus_one(1000) == _sum_plus_one(1000) else 3
        except BaseException:  # noqa: BLE001
            code = 4
        os._exit(code)
    deadline = time.time() + 60
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.time() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            pytest.fail("the forked child's launch hangs")
        time.sleep(0.02)
    assert os.waitstatus_to_exitcode(status) == 0
    assert _sum_plus_one(100) == sum(range(1, 101))  # the parent's pool still works


def test_multiprocessing_fork_pool(cpu_target):
    import multiprocessing
    sizes = [100 + 13 * i for i in range(12)]
    expected = [_sum_plus_one(n) for n in sizes]  # the parent launches first
    with multiprocessing.get_context("fork").Pool(4) as pool:
        assert pool.map_async(_sum_plus_one, sizes).get(timeout=60) == expected


class _Sums:
    def __len__(self):
        return 16

    def __getitem__(self, i):
        import torch
        return torch.tensor(_sum_plus_one(200 + i), dtype=torch.float64)


def test_torch_dataloader_fork_workers(cpu_target):
    torch = pytest.importorskip("torch")
    from torch.utils.data import DataLoader
    expected = [_sum_plus_one(200 + i) for i in range(16)]
    loader = DataLoader(_Sums(), batch_size=4, num_workers=4, multiprocessing_context="fork", timeout=60)
    assert [float(v) for batch in loader for v in batch] == expected
    assert torch.is_tensor(next(iter(loader)))


def test_launch_from_an_atexit_handler_registered_first(cpu_target):
    code = textwrap.dedent("""
        import atexit, numpy as np
        def late():
            import tessera, tessera.language as tl
            from tessera.bench.workloads import _add_kernel as k
            x = np.ones(1000, np.float32); o = np.zeros(1000, np.float32)
            k[(8,)](x, x, o, 1000, BLOCK=128)
            print("late", o.sum(), flush=True)
        atexit.register(late)
        import tessera
        from tessera.bench.workloads import _add_kernel as k
        x = np.ones(1000, np.float32); o = np.zeros(1000, np.float32)
        k[(8,)](x, x, o, 1000, BLOCK=128)
    """)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env)
    assert r.returncode == 0, r.stderr[-2000:]
    assert "late 2000.0" in r.stdout
