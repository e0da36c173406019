"""torch.compile on CUDA with Inductor's generated Triton kernels compiled and
launched by Tessera (tessera.compat), against eager on the same inputs: a
fused pointwise-and-reduction function, and a small MLP's training step
(forward, backward, SGD). Each in its own process: compat replaces `triton`.
Both of Inductor's launch paths: its static CUDA launcher (its C++ launcher
of the cubin Tessera leaves in the Triton cache; strict: a kernel it cannot
launch so is an error), and CompiledKernel.run; the kernels compile in
Inductor's compile workers, which must import Tessera as triton too."""
import os
import subprocess
import sys

import pytest

SCRIPT = r'''
import os, sys
import tessera.compat
tessera.compat.install()
import torch
import torch.nn.functional as F
import torch._inductor.config
torch._inductor.config.use_static_cuda_launcher = sys.argv[1] == "static"
torch._inductor.config.strict_static_cuda_launcher = sys.argv[1] == "static"
# Inductor's compile workers, ready before the first compile so that they
# compile: they must import Tessera as triton too (the real Triton is
# installed beside torch here).
from torch._inductor.async_compile import AsyncCompile
torch._inductor.config.compile_threads = max(2, torch._inductor.config.compile_threads)
AsyncCompile.use_process_pool()
AsyncCompile.wait_pool_ready()
assert AsyncCompile.use_process_pool()

def fused(x, y):
    return torch.relu(x * 2 + y).sum(dim=-1), torch.softmax(x, dim=-1) * torch.sigmoid(y)

torch.manual_seed(0)
x, y = torch.randn(257, 1000, device="cuda"), torch.randn(257, 1000, device="cuda")
for got, want in zip(torch.compile(fused)(x, y), fused(x.double(), y.double())):
    torch.testing.assert_close(got.double(), want, rtol=1e-4, atol=1e-4)

def model_and_data():
    torch.manual_seed(1)
    model = torch.nn.Sequential(torch.nn.Linear(64, 128), torch.nn.GELU(), torch.nn.LayerNorm(128),
                                torch.nn.Linear(128, 10)).cuda()
    return model, torch.randn(32, 64, device="cuda"), torch.randint(0, 10, (32,), device="cuda")

def step(model, data, target):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    loss = F.cross_entropy(model(data), target)
    loss.backward()
    optimizer.step()
    return loss.detach(), [p.detach().clone() for p in model.parameters()]

eager_model, data, target = model_and_data()
compiled_model, _, _ = model_and_data()
eager_loss, eager_params = step(eager_model, data, target)
compiled_loss, compiled_params = torch.compile(step)(compiled_model, data, target)
torch.testing.assert_close(compiled_loss, eager_loss, rtol=1e-4, atol=1e-5)
for got, want in zip(compiled_params, eager_params):
    torch.testing.assert_close(got, want, rtol=1e-4, atol=1e-5)
print("torch.compile on Tessera: OK")
'''


@pytest.mark.parametrize("launcher", ["static", "run"])
def test_torch_compile_runs_inductors_kernels_on_tessera(torch, tmp_path, launcher):
    env = dict(os.environ, TORCHINDUCTOR_CACHE_DIR=str(tmp_path / "inductor"), TRITON_CACHE_DIR=str(tmp_path / "t"))
    env["PYTHONPATH"] = os.pathsep.join([os.path.dirname(os.path.dirname(__import__("tessera").__file__)),
                                         env.get("PYTHONPATH", "")])
    done = subprocess.run([sys.executable, "-c", SCRIPT, launcher], env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0 and "OK" in done.stdout, done.stdout[-3000:] + done.stderr[-6000:]
    # Tessera compiled the kernels: it leaves their cubins in the Triton cache, and no
    # Triton IR (which Triton writes there with every compile) was written.
    written = [os.path.join(d, f) for d, _, files in os.walk(tmp_path / "t") for f in files]
    assert any(p.endswith(".cubin") for p in written), written
    assert not [p for p in written if p.endswith((".ttir", ".ttgir", ".llir"))], written
