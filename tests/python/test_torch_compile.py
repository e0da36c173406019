"""torch.compile on Tessera, on the CPU: Inductor's Triton backend
(cpu_backend="triton") generates Triton kernels, and tessera.compat compiles
and launches them with Tessera's cpu target. Each scenario runs in its own
process (compat replaces `triton`) and compares the compiled function with
eager PyTorch in float64 on fresh random, ragged inputs; the process also
checks that Inductor generated kernels and that Tessera compiled them."""

import os
import subprocess
import sys
import textwrap

import pytest

torch = pytest.importorskip("torch", reason="torch is pinned in ci/requirements.txt; this environment lacks it")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

PRELUDE = """
import tessera, tessera.compat
tessera.compat.install()
import torch, triton
import torch._inductor.config as config
from torch._inductor import metrics
config.cpu_backend = "triton"
config.compile_threads = 1
assert "+tessera" in triton.__version__, triton.__version__
torch.manual_seed(int.from_bytes(__import__("os").urandom(4), "little"))

def check(got, want, rtol=1e-4, atol=1e-5):
    for g, w in zip(got if isinstance(got, (tuple, list)) else [got], want if isinstance(want, (tuple, list)) else [want]):
        torch.testing.assert_close(g.double(), w.double(), rtol=rtol, atol=atol)
"""

EPILOGUE = """
assert metrics.generated_kernel_count > 0, "Inductor generated no Triton kernel"
print("KERNELS", metrics.generated_kernel_count)
"""


def run(script, tmp_path):
    path = tmp_path / "scenario.py"
    path.write_text(textwrap.dedent(PRELUDE) + textwrap.dedent(script) + textwrap.dedent(EPILOGUE))
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"), TORCHINDUCTOR_CACHE_DIR=str(tmp_path / "inductor"),
               TESSERA_CACHE_DIR=str(tmp_path / "tessera"))
    r = subprocess.run([sys.executable, str(path)], env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-6000:]
    assert "KERNELS" in r.stdout
    return r.stdout + r.stderr


def test_fused_pointwise_reductions_and_softmax(tmp_path):
    run("""
        def f(x, y):
            return torch.relu(x * 2 + y).sum(dim=-1), torch.softmax(x, dim=-1) * torch.sigmoid(y), (x - y).amax(0)
        for shape in [(257, 1000), (3, 7), (1, 4097)]:
            x, y = torch.randn(shape), torch.randn(shape)
            check(torch.compile(f)(x, y), f(x.double(), y.double()))
    """, tmp_path)


def test_mlp_training_step_matches_eager(tmp_path):
    run("""
        import copy
        torch.manual_seed(1)
        model = torch.nn.Sequential(torch.nn.Linear(64, 128), torch.nn.GELU(), torch.nn.LayerNorm(128),
                                    torch.nn.Linear(128, 10))
        twin = copy.deepcopy(model)
        x, target = torch.randn(33, 64), torch.randint(0, 10, (33,))

        def step(m, opt):
            opt.zero_grad()
            loss = torch.nn.functional.cross_entropy(m(x), target)
            loss.backward()
            opt.step()
            return loss

        compiled = torch.compile(model)
        opt_c, opt_e = torch.optim.SGD(compiled.parameters(), lr=0.1), torch.optim.SGD(twin.parameters(), lr=0.1)
        for _ in range(3):
            check(step(compiled, opt_c), step(twin, opt_e), rtol=1e-4, atol=1e-5)
        for a, b in zip(model.parameters(), twin.parameters()):
            check(a, b, rtol=1e-4, atol=1e-5)
    """, tmp_path)


def test_a_user_triton_kernel_inside_torch_compile(tmp_path):
    run("""
        import triton.language as tl

        @triton.jit
        def double_kernel(x, out, n, BLOCK: tl.constexpr):
            o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
            tl.store(out + o, tl.load(x + o, mask=o < n) * 2, mask=o < n)

        def f(x):
            y = x + 1
            out = torch.empty_like(y)
            double_kernel[(triton.cdiv(y.numel(), 64),)](y, out, y.numel(), BLOCK=64)
            return out.relu()

        x = torch.randn(1001)
        check(torch.compile(f)(x), ((x.double() + 1) * 2).relu())
    """, tmp_path)


def test_compile_workers_and_a_kernel_reading_an_annotated_constexpr_global(tmp_path):
    # Inductor's defaults: kernels compile in worker processes, which import
    # triton afresh (the real Triton is installed beside torch here: a worker
    # that got it fails with "0 compatible backends"). It re-emits a user
    # kernel's globals with their annotations' class paths
    # (`_SCALE: triton.language.core.constexpr = ...`) and pickles the
    # kernel's autotuner back from the worker with its JITFunction's fields
    # cleared (used_global_vals = None...). Liger-Kernel's kl_div does all this.
    run("""
        import triton.language as tl
        from torch._inductor.async_compile import AsyncCompile
        config.compile_threads = 2
        AsyncCompile.use_process_pool()  # starts the workers
        AsyncCompile.wait_pool_ready()
        assert AsyncCompile.use_process_pool()

        _SCALE: tl.constexpr = tl.constexpr(3)

        @triton.jit
        def scale_kernel(x, out, n, BLOCK: tl.constexpr):
            o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
            tl.store(out + o, tl.load(x + o, mask=o < n) * _SCALE, mask=o < n)

        def f(x):
            y = torch.sin(x) + 1
            out = torch.empty_like(y)
            scale_kernel[(triton.cdiv(y.numel(), 128),)](y, out, y.numel(), BLOCK=128)
            return out.sum(-1), out.amax(0)

        x = torch.randn(37, 203)
        y = (x.double().sin() + 1) * 3
        check(torch.compile(f)(x), (y.sum(-1), y.amax(0)))
    """, tmp_path)


def test_a_triton_op_and_wrap_triton_in_a_full_graph(tmp_path):
    # torch.library.triton_op / wrap_triton: the user kernel is traced into
    # the graph (fullgraph: no break) and Inductor launches it beside its own.
    run("""
        import triton.language as tl
        from torch.library import triton_op, wrap_triton

        @triton.jit
        def add_scaled_kernel(x, y, out, n, alpha, BLOCK: tl.constexpr):
            o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
            m = o < n
            tl.store(out + o, tl.load(x + o, mask=m) + alpha * tl.load(y + o, mask=m), mask=m)

        @triton_op("tesseratest::add_scaled", mutates_args={})
        def add_scaled(x: torch.Tensor, y: torch.Tensor, alpha: float) -> torch.Tensor:
            out = torch.empty_like(x)
            wrap_triton(add_scaled_kernel)[(triton.cdiv(x.numel(), 128),)](x, y, out, x.numel(), alpha, BLOCK=128)
            return out

        def f(x, y):
            return torch.ops.tesseratest.add_scaled(x.sin(), y, 0.5).relu() * 2

        def g(x, y):
            out = torch.empty_like(x)
            wrap_triton(add_scaled_kernel)[(triton.cdiv(x.numel(), 128),)](x, y, out, x.numel(), 2.0, BLOCK=128)
            return out.cos()

        for n in (1000, 129):
            x, y = torch.randn(n), torch.randn(n)
            check(torch.compile(f, fullgraph=True)(x, y), ((x.double().sin() + 0.5 * y.double()).relu() * 2))
            check(torch.compile(g, fullgraph=True)(x, y), (x.double() + 2 * y.double()).cos())
    """, tmp_path)


def test_inductor_learns_which_tensors_a_user_kernel_writes(tmp_path):
    # torch's mutation analysis of user kernels reads Triton's IR through
    # triton._C.libtriton.ir and ASTSource.make_ir; Tessera answers from its
    # frontend (tessera.compiler.kernel_writes), never missing a write, and
    # Inductor no longer falls back to "every input is written".
    out = run("""
        import triton.language as tl
        from torch._higher_order_ops.triton_kernel_wrap import identify_mutated_tensors

        @triton.jit
        def add_into(x, y, count, n, BLOCK: tl.constexpr):
            o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
            m = o < n
            tl.store(x + o, tl.load(x + o, mask=m) + tl.load(y + o, mask=m), mask=m)
            tl.atomic_add(count, 1)

        @triton.jit(noinline=True)
        def put(p, v):
            tl.store(p, v)

        @triton.jit
        def through_a_call_and_a_loop(a, b, c, n):
            put(b + 1, tl.load(a))
            p = c
            for i in range(n):
                tl.store(p, tl.load(a + i))
                p += 1

        @triton.jit
        def through_a_loaded_pointer(a, b, table):
            tl.store(tl.load(table).to(tl.pointer_type(tl.float32)), tl.load(a))

        t = lambda: torch.randn(64)
        assert identify_mutated_tensors(add_into, dict(x=t(), y=t(), count=torch.zeros(1, dtype=torch.int32),
                                                       n=64, BLOCK=64), {}) == ["x", "count"]
        assert identify_mutated_tensors(through_a_call_and_a_loop, dict(a=t(), b=t(), c=t(), n=3), {}) == ["b", "c"]
        assert identify_mutated_tensors(through_a_loaded_pointer,  # not traced: every pointer may be written
                                        dict(a=t(), b=t(), table=torch.zeros(1, dtype=torch.int64)), {}) == [
                                            "a", "b", "table"]

        def f(x, y):
            x = x * 1  # a graph input is not written in place
            count = torch.zeros(1, dtype=torch.int32)
            add_into[(triton.cdiv(x.numel(), 128),)](x, y, count, x.numel(), BLOCK=128)
            return x.sin() + y, count

        for n in (1000, 129):
            x, y = torch.randn(n), torch.randn(n)
            got, count = torch.compile(f, fullgraph=True)(x, y)
            check(got, (x.double() + y.double()).sin() + y.double())
            assert int(count) == triton.cdiv(n, 128)
    """, tmp_path)
    assert "assuming every input is mutated" not in out
