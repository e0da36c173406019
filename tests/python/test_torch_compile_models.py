"""torch.compile of real models on Tessera, on the CPU: GPT-2, Llama and
BERT from transformers, built from small configs with random weights (no
download), under Inductor's Triton backend (cpu_backend="triton"), whose
kernels tessera.compat compiles with Tessera's cpu target. The forward
pass and two training steps (forward, backward, SGD with momentum) match
eager PyTorch: logits, losses, every gradient and every updated parameter. Each model runs in its
own process (compat replaces `triton`). max-autotune is not run here:
torch 2.11 writes a broken benchmark module for CPU Triton kernels
(an indented import), with Triton as with Tessera."""

import os
import subprocess
import sys
import textwrap

import pytest

pytest.importorskip("torch", reason="torch is pinned in ci/requirements.txt; this environment lacks it")
pytest.importorskip("transformers", reason="transformers is pinned in ci/requirements.txt; this environment lacks it")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

MODELS = {
    "gpt2": "GPT2LMHeadModel(GPT2Config(n_layer=2, n_head=4, n_embd=64, vocab_size=512, n_positions=128, "
            "bos_token_id=0, eos_token_id=0))",
    "llama": "LlamaForCausalLM(LlamaConfig(num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2, "
             "hidden_size=64, intermediate_size=128, vocab_size=512, max_position_embeddings=128))",
    "bert": "BertForMaskedLM(BertConfig(num_hidden_layers=2, num_attention_heads=4, hidden_size=64, "
            "intermediate_size=128, vocab_size=512, max_position_embeddings=128))",
}

PRELUDE = """
import copy, os
import tessera, tessera.compat
tessera.compat.install()
import torch, triton
import torch._inductor.config as config
from torch._inductor import metrics
from transformers import GPT2Config, GPT2LMHeadModel, LlamaConfig, LlamaForCausalLM, BertConfig, BertForMaskedLM
config.cpu_backend = "triton"
config.compile_threads = 1
assert "+tessera" in triton.__version__, triton.__version__
torch.manual_seed(int.from_bytes(os.urandom(4), "little"))
model = {model}
ids = torch.randint(0, 512, (2, 37))  # a ragged length
"""

FORWARD = """
model.eval()
with torch.no_grad():
    want = model(ids).logits
    got = torch.compile(model)(ids).logits
torch.testing.assert_close(got, want, rtol=1e-4, atol=1e-4)
"""

TRAIN = """
for module in model.modules():
    if isinstance(module, torch.nn.Dropout):
        module.p = 0.0  # the same steps on both sides
reference = copy.deepcopy(model)
model.train(); reference.train()
compiled = torch.compile(model)
# SGD with momentum: the update is linear in the gradients, so parameters
# compare as tightly as gradients do (Adam's m / sqrt(v) turns float noise in
# near-zero gradients into steps of +-lr).
optimizers = [torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9) for m in (model, reference)]
for _ in range(2):
    losses = []
    for m, optimizer in zip((compiled, reference), optimizers):
        loss = m(input_ids=ids, labels=ids).loss
        loss.backward()
        losses.append(loss.detach())
    torch.testing.assert_close(losses[0], losses[1], rtol=1e-4, atol=1e-4)
    for (name, got), (_, want) in zip(model.named_parameters(), reference.named_parameters()):
        torch.testing.assert_close(got.grad, want.grad, rtol=1e-3, atol=1e-5, msg=lambda m: name + ": " + m)
    for optimizer in optimizers:
        optimizer.step()
        optimizer.zero_grad()
for (name, got), (_, want) in zip(model.named_parameters(), reference.named_parameters()):
    torch.testing.assert_close(got, want, rtol=1e-4, atol=1e-5, msg=lambda m: name + ": " + m)
"""

EPILOGUE = """
assert metrics.generated_kernel_count > 0, "Inductor generated no Triton kernel"
print("KERNELS", metrics.generated_kernel_count)
"""


@pytest.mark.parametrize("model", sorted(MODELS))
@pytest.mark.parametrize("step", ["forward", "train"])
def test_model_under_torch_compile_matches_eager(model, step, tmp_path):
    script = textwrap.dedent(PRELUDE).format(model=MODELS[model]) + (FORWARD if step == "forward" else TRAIN) + EPILOGUE
    path = tmp_path / "scenario.py"
    path.write_text(script)
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"), TORCHINDUCTOR_CACHE_DIR=str(tmp_path / "inductor"),
               TESSERA_CACHE_DIR=str(tmp_path / "tessera"), TRANSFORMERS_OFFLINE="1", HF_HUB_OFFLINE="1")
    r = subprocess.run([sys.executable, str(path)], env=env, capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-6000:]
    assert int(r.stdout.split("KERNELS")[1].split()[0]) >= (8 if step == "forward" else 30), r.stdout


def test_the_torch_compile_bench_reports_cold_warm_and_kernel_compile_times(tmp_path):
    out = tmp_path / "bench.json"
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))
    r = subprocess.run([sys.executable, "-m", "tessera.bench.torch_compile", "--device", "cpu", "--model", "bert",
                        "--step", "forward", "--steps", "2", "--json", str(out)], env=env, capture_output=True,
                       text=True, timeout=900, cwd=tmp_path)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert "no Triton column: Triton has no CPU target" in r.stdout
    import json
    (row,) = json.loads(out.read_text())["rows"]
    cold, warm = row["cold"], row["warm"]
    assert row["backend"] == "tessera" and cold["kernels"] >= 8 and cold["generated"] >= 8
    assert 0 < cold["kernel_compile_s"] < cold["first_call_s"]
    # The warm process finds Inductor's and Tessera's caches filled: nothing to compile.
    assert warm["kernels"] == 0 or warm["kernel_compile_s"] < cold["kernel_compile_s"]
    assert warm["first_call_s"] < cold["first_call_s"] and row["steady"]["step_ms"] > 0
    assert cold["max_rel_diff"] < 1e-4  # the compiled model's logits against eager's


def test_the_torch_compile_bench_with_inductors_compile_workers(tmp_path):
    out = tmp_path / "bench.json"
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))
    bench = [sys.executable, "-m", "tessera.bench.torch_compile", "--device", "cpu", "--model", "llama",
             "--step", "forward", "--steps", "1"]
    r = subprocess.run(bench + ["--compile-threads", "0"], env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "--compile-threads takes a positive number or 'inductor'" in r.stderr
    r = subprocess.run(bench + ["--compile-threads", "inductor", "--json", str(out)], env=env, capture_output=True,
                       text=True, timeout=900, cwd=tmp_path)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert "compile_threads: its default (compile workers)" in r.stdout
    import json
    (row,) = json.loads(out.read_text())["rows"]
    cold = row["cold"]
    # The kernels compile in the workers: their time is not this process's to report.
    assert cold["kernel_compile_s"] is None and cold["kernels"] is None and cold["generated"] >= 8
    assert cold["max_rel_diff"] < 1e-4 and row["steady"]["step_ms"] > 0
