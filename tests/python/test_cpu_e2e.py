"""End to end on the host CPU: @tessera.jit kernels compiled by the CPU
target and run on numpy arrays, autotuning, and the on-disk compile cache
shared by concurrent processes. Skipped (with the reason printed) while
createTarget("cpu") returns null."""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import tessera
import tessera.language as tl

pytestmark = pytest.mark.usefixtures("cpu_target")

OFFSET = 2.0


@tessera.jit
def scale(x, factor):
    return x * factor


@tessera.jit
def axpy_kernel(x_ptr, y_ptr, out_ptr, n, alpha, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, scale(x, alpha) + y + OFFSET, mask=mask)


def test_axpy_with_helper_and_globals():
    rng = np.random.default_rng(0)
    for n in (1, 1000, 4096, 100003):
        x = rng.standard_normal(n).astype(np.float32)
        y = rng.standard_normal(n).astype(np.float32)
        out = np.full(n, np.nan, np.float32)
        axpy_kernel[lambda m: (tessera.cdiv(m["n"], m["BLOCK"]),)](x, y, out, n, 1.5, BLOCK=256)
        ref = x.astype(np.float64) * 1.5 + y + OFFSET
        np.testing.assert_allclose(out, ref, rtol=1e-6, atol=1e-6)


def test_autotune_on_the_cpu():
    @tessera.autotune(configs=[tessera.Config({"BLOCK": b}) for b in (64, 256, 1024)], key=["n"], warmup=1, rep=3)
    @tessera.jit
    def copy_kernel(src, dst, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        tl.store(dst + offs, tl.load(src + offs, mask=offs < n), mask=offs < n)

    n = 50000
    src = np.random.rand(n).astype(np.float32)
    dst = np.zeros_like(src)
    copy_kernel[lambda m: (tessera.cdiv(m["n"], m["BLOCK"]),)](src, dst, n)
    np.testing.assert_array_equal(dst, src)
    assert copy_kernel.best_config.kwargs["BLOCK"] in (64, 256, 1024)


WORKER = textwrap.dedent("""
    import sys
    sys.path.insert(0, sys.argv[1])
    import numpy as np
    import tessera
    import tessera.language as tl

    @tessera.jit
    def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)

    n = 5000
    x, y = np.random.rand(n).astype(np.float32), np.random.rand(n).astype(np.float32)
    out = np.zeros(n, np.float32)
    k = add_kernel[(tessera.cdiv(n, 512),)](x, y, out, n, BLOCK=512)
    assert np.array_equal(out, x + y)
    print("HIT" if k.from_cache else "MISS")
""")


def test_processes_share_the_compile_cache(tmp_path):
    script = tmp_path / "worker.py"
    script.write_text(WORKER)
    env = dict(os.environ, TESSERA_CACHE_DIR=str(tmp_path / "cache"))
    python = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(__file__))), "python")
    procs = [subprocess.Popen([sys.executable, str(script), python], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(6)]
    results = [p.communicate(timeout=300) + (p.returncode,) for p in procs]
    for out, err, rc in results:
        assert rc == 0, err
    entries = os.listdir(tmp_path / "cache")
    assert len(entries) == 1 and entries[0].endswith(".tkc"), entries   # one whole entry, no temp files
    again = subprocess.run([sys.executable, str(script), python], env=env, capture_output=True, text=True)
    assert again.returncode == 0 and again.stdout.strip() == "HIT", again.stderr
    always = subprocess.run([sys.executable, str(script), python], env=dict(env, TESSERA_ALWAYS_COMPILE="1"),
                            capture_output=True, text=True)
    assert always.stdout.strip() == "MISS", always.stderr


@tessera.jit
def _big_add(x, y, out, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = i < n
    a = tl.load(x + i, mask=m)
    b = tl.load(y + i, mask=m)
    tl.store(out + i, a * b + a + tl.sqrt(b), mask=m)


def test_tiles_at_the_size_limit_run():
    # 2^20-element tiles (the documented limit): a handful of them is more
    # than a thread's stack holds, so they live in the thread's scratch area.
    block = 1 << 20
    n = 2 * block + 77  # ragged: three programs, the last mostly masked
    rng = np.random.default_rng(7)
    x, y = rng.random(n).astype(np.float32), rng.random(n).astype(np.float32)
    out = np.full(n, np.nan, np.float32)
    _big_add[(tessera.cdiv(n, block),)](x, y, out, n, BLOCK=block)
    ref = x.astype(np.float64) * y + x + np.sqrt(y.astype(np.float64))
    np.testing.assert_allclose(out, ref, rtol=1e-6)


def test_ctrl_c_stops_a_kernel_that_never_ends(tmp_path):
    # SIGINT during a host launch: the kernel's loops see it at their next
    # iteration, the launch returns, Python raises KeyboardInterrupt and the
    # process goes on (a fresh process, so the signal touches nothing else).
    script = textwrap.dedent("""
        import faulthandler, os, signal, threading, time
        import numpy as np, tessera, tessera.language as tl
        faulthandler.dump_traceback_later(60, exit=True)  # a hang shows where it waits
        # A suite started in the background (`pytest ... &`) hands its children
        # SIGINT ignored, and a launch leaves an ignored SIGINT ignored.
        signal.signal(signal.SIGINT, signal.default_int_handler)

        @tessera.jit
        def spin(x, n):
            i = 0
            acc = tl.load(x)
            while i >= 0:
                acc = acc * 1.0000001 + 1.0
                i = (i + 1) % n
            tl.store(x, acc)

        x = np.zeros(1, np.float32)
        threading.Timer(2.0, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
        t0 = time.time()
        try:
            spin[(4,)](x, 7)
            print("RETURNED")
        except KeyboardInterrupt as e:
            print("INTERRUPTED", round(time.time() - t0), e)
        y = np.zeros(1, np.float32)  # the process is still usable:

        @tessera.jit
        def inc(y):
            tl.store(y, tl.load(y) + 1.0)
        inc[(1,)](y)
        print("AFTER", y[0])
    """)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in [os.path.dirname(os.path.dirname(tessera.__file__)),
                                                                   os.environ.get("PYTHONPATH", "")] if p))
    path = tmp_path / "spin.py"  # kernels need a source file
    path.write_text(script)
    r = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=120, env=env)
    assert r.returncode == 0, r.stderr
    assert "INTERRUPTED" in r.stdout and "interrupted (SIGINT)" in r.stdout, r.stdout + r.stderr
    assert "AFTER 1.0" in r.stdout, r.stdout


@tessera.jit
def _far_load(x, far):
    i = tl.arange(0, 16)
    tl.store(x + i, tl.load(x + far + i))  # unmasked, far past the array


def test_a_memory_fault_in_a_kernel_is_an_error_and_the_process_goes_on():
    x = np.ones(16, np.float32)
    with pytest.raises(tessera.TesseraError, match=r"faulted: SIGSEGV at address 0x[0-9a-f]+ .* may be corrupted"):
        _far_load[(8,)](x, 1 << 40)
    y = np.arange(16, dtype=np.float32)
    _far_load[(1,)](y, 0)  # the same kernel in bounds, and the process, still work
    np.testing.assert_array_equal(y, np.arange(16, dtype=np.float32))
