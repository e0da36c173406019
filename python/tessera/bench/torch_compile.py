"""python -m tessera.bench.torch_compile [--device cuda] [--model gpt2,llama,bert]
        [--mode default,max-autotune-no-cudagraphs] [--step forward,train] [--json F]

torch.compile's warm-up and steady speed with its Triton kernels compiled by
Tessera (tessera.compat) beside Inductor on Triton itself, in the same run:
transformers models built from configs with random weights (no download).
Each measurement is a fresh process: "cold" with fresh Inductor, Triton and
Tessera caches, then "warm" with the caches the cold process filled. For
each it reports the first call's time (the whole torch.compile warm-up), the
part of it spent compiling kernels (time inside `triton.compile`, which
Inductor calls once per kernel and configuration, whichever compiler is
behind it; Inductor compiles in this process: compile_threads=1, unless
--compile-threads says otherwise, where that part is not measured), the
kernels compiled, and how far the first call's outputs are from eager's on
the same inputs and weights (dropout off); then a third process, with the
warm caches and alone on the device, times the steady steps (median).
--jobs N runs N cases' warm-ups at a time (compiles are CPU work, one
thread each). On the CPU, Inductor's Triton backend (cpu_backend="triton")
runs on Tessera only: Triton has no CPU target.

Layer 4, api (python/tessera/__init__.py lists the layers)."""
import argparse
import concurrent.futures
import copy
import json
import os
import statistics
import subprocess
import sys
import tempfile

MODELS = {
    # name: (constructor, small config for the CPU, larger for a GPU)
    "gpt2": ("GPT2LMHeadModel", "GPT2Config",
             dict(n_layer=2, n_head=4, n_embd=64, vocab_size=512, n_positions=128, bos_token_id=0, eos_token_id=0),
             dict(n_layer=6, n_head=12, n_embd=768, vocab_size=32768, n_positions=1024, bos_token_id=0, eos_token_id=0)),
    "llama": ("LlamaForCausalLM", "LlamaConfig",
              dict(num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2, hidden_size=64,
                   intermediate_size=128, vocab_size=512, max_position_embeddings=128),
              dict(num_hidden_layers=6, num_attention_heads=16, num_key_value_heads=4, hidden_size=1024,
                   intermediate_size=2816, vocab_size=32768, max_position_embeddings=2048)),
    "bert": ("BertForMaskedLM", "BertConfig",
             dict(num_hidden_layers=2, num_attention_heads=4, hidden_size=64, intermediate_size=128, vocab_size=512,
                  max_position_embeddings=128),
             dict(num_hidden_layers=6, num_attention_heads=12, hidden_size=768, intermediate_size=3072,
                  vocab_size=30522, max_position_embeddings=512)),
}
SHAPES = {"cpu": (2, 37), "cuda": (8, 512)}  # (batch, sequence)
# "vs eager": the largest difference of the compiled model's outputs (logits;
# or loss and gradients) from eager's on the same inputs and weights, relative
# to the largest magnitude of each; a case fails above this and above twice
# Inductor-on-Triton's difference in the same run.
ALLOWED_DIFFERENCE = 1e-3


def worker(a):
    """One measurement in this (fresh) process; prints one JSON line."""
    if a.backend == "tessera":
        import tessera.compat
        tessera.compat.install()
    import time

    import torch
    import torch._inductor.config as config
    import transformers
    import triton
    from torch._inductor import metrics

    in_process = a.compile_threads != "inductor"  # else Inductor's own default: its compile workers
    if in_process:
        config.compile_threads = int(a.compile_threads)
    if a.device == "cpu":
        config.cpu_backend = "triton"
    compiling = {"seconds": 0.0, "calls": 0}
    compile_kernel = triton.compile

    def timed_compile(*args, **kwargs):
        start = time.perf_counter()
        try:
            return compile_kernel(*args, **kwargs)
        finally:
            compiling["seconds"] += time.perf_counter() - start
            compiling["calls"] += 1

    triton.compile = timed_compile
    torch.manual_seed(0)
    model_class, config_class, small, large = MODELS[a.model]
    settings = small if a.device == "cpu" else large
    model_config = getattr(transformers, config_class)(**settings)
    for name, value in model_config.to_dict().items():
        if name.endswith(("dropout", "pdrop", "dropout_prob")) and isinstance(value, float):
            setattr(model_config, name, 0.0)  # eager and compiled take the same steps: no random masks
    model = getattr(transformers, model_class)(model_config).to(a.device)
    vocab = settings["vocab_size"]
    ids = torch.randint(0, vocab, SHAPES[a.device], device=a.device)
    reference = copy.deepcopy(model)
    compiled = torch.compile(model, mode=None if a.mode == "default" else a.mode)
    sync = torch.cuda.synchronize if a.device == "cuda" else (lambda: None)
    if a.step == "forward":
        model.eval()
        reference.eval()

        def run(m):
            with torch.no_grad():
                return [m(ids).logits]

        def update():
            pass
    else:
        model.train()
        reference.train()
        optimizer = torch.optim.SGD(model.parameters(), lr=1e-3, momentum=0.9)

        def run(m):
            loss = m(input_ids=ids, labels=ids).loss
            loss.backward()
            return [loss.detach()] + [p.grad for p in m.parameters() if p.grad is not None]

        def update():
            optimizer.step()
            optimizer.zero_grad()

    def step():
        run(compiled)
        update()

    want = run(reference)
    del reference
    start = time.perf_counter()
    got = run(compiled)
    update()  # SGD reads the gradients and zero_grad drops them: `got` still holds them
    sync()
    first = time.perf_counter() - start
    difference = _largest_difference(got, want)
    del got, want
    # With compile workers the compiles happen in other processes: not measured here.
    measured = in_process and config.compile_threads == 1
    warmup_compile, kernels = (compiling["seconds"], compiling["calls"]) if measured else (None, None)
    times = []
    if a.steps:
        for _ in range(3):
            step()
        sync()
        for _ in range(a.steps):
            start = time.perf_counter()
            step()
            sync()
            times.append(time.perf_counter() - start)
    print("RESULT " + json.dumps({"first_call_s": first, "kernel_compile_s": warmup_compile, "kernels": kernels,
                                  "max_rel_diff": difference,
                                  "generated": metrics.generated_kernel_count,
                                  "step_ms": 1e3 * statistics.median(times) if times else None}))


def _largest_difference(got, want):
    """The largest difference of compiled to eager over the outputs (logits; or loss and every gradient),
    each relative to its eager tensor's largest magnitude, or to a thousandth of the largest over all
    of them where that is more: a gradient that is zero in exact arithmetic (an attention key's bias,
    which softmax's shift invariance cancels) holds only rounding noise on both sides (BERT's: 1e-12),
    which relative to itself differs by 100%."""
    if len(got) != len(want):
        return float("inf")  # a gradient missing on one side
    floor = 1e-3 * max(float(w.abs().max()) for w in want)
    worst = 0.0
    for g, w in zip(got, want):
        g, w = g.double(), w.double()
        worst = max(worst, float((g - w).abs().max()) / max(float(w.abs().max()), floor, 1e-30))
    return worst


def _measure(model, mode, step, backend, device, steps, caches, compile_threads="1"):
    env = dict(os.environ, TORCHINDUCTOR_CACHE_DIR=os.path.join(caches, "inductor"),
               TESSERA_CACHE_DIR=os.path.join(caches, "tessera"), TRITON_CACHE_DIR=os.path.join(caches, "triton"),
               TRANSFORMERS_OFFLINE="1", HF_HUB_OFFLINE="1")
    command = [sys.executable, "-m", "tessera.bench.torch_compile", "--worker", "--backend", backend, "--model", model,
               "--mode", mode, "--step", step, "--device", device, "--steps", str(steps),
               "--compile-threads", compile_threads]
    r = subprocess.run(command, env=env, capture_output=True, text=True, timeout=1800)
    line = next((x for x in r.stdout.splitlines() if x.startswith("RESULT ")), None)
    if r.returncode or line is None:
        tail = (r.stderr or r.stdout).strip().splitlines()[-1:] or ["no output"]
        return {"error": tail[0][:200]}
    return json.loads(line[len("RESULT "):])


def _triton_usable(device):
    if device == "cpu":
        return "Triton has no CPU target"
    try:
        import triton  # noqa: F401  (the real one: this process has not installed compat)
    except ImportError as e:
        return "no Triton: %s" % e
    return None


def main(argv=None, prog="python -m tessera.bench.torch_compile"):
    p = argparse.ArgumentParser(prog=prog, description=__doc__.split("\n\n")[1].replace("\n", " "))
    p.add_argument("--device", default=None, help="cuda or cpu (default: cuda when torch sees a GPU, else cpu)")
    p.add_argument("--model", default=",".join(MODELS), help="comma-separated: " + ", ".join(MODELS))
    p.add_argument("--mode", default="default,max-autotune-no-cudagraphs",
                   help="comma-separated torch.compile modes (default: both; on the CPU, default only)")
    p.add_argument("--step", default="forward,train", help="comma-separated: forward, train (forward, backward, SGD)")
    p.add_argument("--steps", type=int, default=20, help="timed steady steps (default 20)")
    p.add_argument("--jobs", type=int, default=1,
                   help="cold and warm warm-ups run this many at a time (default 1); the steady steps always one by one")
    p.add_argument("--compile-threads", default="1",
                   help="Inductor's compile_threads: 1 (default: kernels compile in the measured process, and the "
                        "time they take is reported), N, or 'inductor' (its own default, compile workers for "
                        "both compilers, as users run it; the kernel-compile part is then not measured)")
    p.add_argument("--json", help="write the results as JSON here")
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--backend", help=argparse.SUPPRESS)
    a = p.parse_args(argv)
    if a.compile_threads != "inductor" and not (a.compile_threads.isdigit() and int(a.compile_threads) >= 1):
        p.error("--compile-threads takes a positive number or 'inductor', not %r" % a.compile_threads)
    if a.worker:
        return worker(a)
    import torch
    device = a.device or ("cuda" if torch.cuda.is_available() else "cpu")
    models = a.model.split(",")
    unknown = [m for m in models if m not in MODELS]
    if unknown:
        p.error("unknown model(s) %s (have: %s)" % (", ".join(unknown), ", ".join(MODELS)))
    modes = a.mode.split(",")
    if device == "cpu" and a.mode == p.get_default("mode"):
        modes = ["default"]  # torch 2.11's max-autotune writes a broken benchmark module for CPU Triton kernels
    why_not_triton = _triton_usable(device)
    backends = ["tessera"] + ([] if why_not_triton else ["triton"])
    print("torch.compile on %s: Tessera%s; Inductor's compile_threads: %s" % (
        device, " beside Triton" if not why_not_triton else " (no Triton column: %s)" % why_not_triton,
        "its default (compile workers)" if a.compile_threads == "inductor" else a.compile_threads))
    header = "%-6s %-26s %-7s %-7s | %9s %9s %7s | %9s | %9s | %9s" % (
        "model", "mode", "step", "backend", "cold s", "kernels s", "kernels", "warm s", "step ms", "vs eager")
    print(header + "\n" + "-" * len(header))
    cases = [(model, mode, step, backend) for model in models for mode in modes for step in a.step.split(",")
             for backend in backends]
    with tempfile.TemporaryDirectory(prefix="tessera-bench-tc-") as root:
        caches = {case: os.path.join(root, "-".join(case)) for case in cases}

        def warm_up(case):  # cold (fresh caches), then warm (the caches cold filled); no steady steps
            cold = _measure(*case, device, 0, caches[case], a.compile_threads)
            return cold, (_measure(*case, device, 0, caches[case], a.compile_threads) if "error" not in cold
                          else {"error": "not run"})
        with concurrent.futures.ThreadPoolExecutor(max(1, a.jobs)) as pool:
            warm_ups = list(pool.map(warm_up, cases))
        rows = []
        for case, (cold, warm) in zip(cases, warm_ups):  # the steady steps one process at a time, warm caches
            steady = (_measure(*case, device, a.steps, caches[case], a.compile_threads) if "error" not in cold
                      else {"error": "not run"})
            model, mode, step, backend = case
            rows.append(dict(model=model, mode=mode, step=step, backend=backend, cold=cold, warm=warm, steady=steady))
            if "error" in cold:
                print("%-6s %-26s %-7s %-7s | error: %s" % (model, mode, step, backend, cold["error"]))
                continue
            print("%-6s %-26s %-7s %-7s | %9.2f %9s %7s | %9s | %9s | %9.1e" % (
                model, mode, step, backend, cold["first_call_s"],
                "-" if cold["kernel_compile_s"] is None else "%.2f" % cold["kernel_compile_s"],
                "-" if cold["kernels"] is None else cold["kernels"],
                "%.2f" % warm["first_call_s"] if "error" not in warm else "error",
                "%.2f" % steady["step_ms"] if "error" not in steady else "error", cold["max_rel_diff"]), flush=True)
    mismatches = _print_ratios(rows)
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"device": device, "rows": rows}, f, indent=2)
    return 1 if mismatches or any("error" in r["cold"] for r in rows) else 0


def _print_ratios(rows):
    """Tessera / Triton for each measurement both ran; returns the cases where Tessera's
    outputs are further from eager than allowed: ALLOWED_DIFFERENCE, or twice Triton's."""
    pairs = {}
    for r in rows:
        pairs.setdefault((r["model"], r["mode"], r["step"]), {})[r["backend"]] = r
    lines, mismatches = [], []
    for key, by in pairs.items():
        t, p = by.get("tessera"), by.get("triton")
        if t and "error" not in t["cold"]:
            peer = 2 * p["cold"]["max_rel_diff"] if p and "error" not in p["cold"] else 0.0
            if t["cold"]["max_rel_diff"] > max(ALLOWED_DIFFERENCE, peer):
                mismatches.append("%s %s %s: %.1e from eager" % (*key, t["cold"]["max_rel_diff"]))
        if not t or not p or "error" in t["cold"] or "error" in p["cold"]:
            continue
        ratio = lambda f: "%.2fx" % (f(t) / f(p)) if f(p) and f(t) is not None else "-"
        lines.append("%-6s %-26s %-7s | cold %s, kernel compiles %s, warm %s, step %s" % (
            *key, ratio(lambda r: r["cold"]["first_call_s"]), ratio(lambda r: r["cold"]["kernel_compile_s"]),
            ratio(lambda r: r["warm"].get("first_call_s", 0)), ratio(lambda r: r["steady"].get("step_ms") or 0)))
    if lines:
        print("\nTessera / Triton (below 1: Tessera takes less)")
        print("\n".join(lines))
    if mismatches:
        print("\nTessera's outputs further from eager than %.0e and than twice Triton's:\n  %s" % (
            ALLOWED_DIFFERENCE, "\n  ".join(mismatches)))
    return mismatches


if __name__ == "__main__":
    sys.exit(main())
