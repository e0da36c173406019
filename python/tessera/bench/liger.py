"""python -m tessera.bench.liger [--ops rms_norm,...] [--tokens 4096] [--json out.json]

Liger-Kernel's ops, unmodified, on Tessera (through tessera.compat) beside
the same Liger code on a real Triton, in one run on one CUDA device: each
side runs in its own process (a process has one `triton`), times forward
plus backward at Liger's benchmark shapes (Llama-3-8B: hidden 4096,
intermediate 14336, vocabulary 128256, 32 query and 8 key/value heads of
128; bf16) with CUDA events over steps run back to back (the median of
--reps samples; each side runs twice, alternating, and keeps its better
median), and checks its results against a float32 torch reference. "host"
is a step's host time with the GPU kept busy: at these shapes most ops are
host-bound (torch's autograd and allocations), so the kernels' own times
are listed with --profile. Needs torch with CUDA, liger_kernel and, for
the peer column, triton.

Layer 4, api (python/tessera/__init__.py lists the layers)."""
import argparse
import json
import os
import subprocess
import sys
import time

from .. import _targets

HIDDEN, INTERMEDIATE, VOCAB, Q_HEADS, KV_HEADS, HEAD_DIM = 4096, 14336, 128256, 32, 8, 128
OPS = ("rms_norm", "layer_norm", "swiglu", "rope", "cross_entropy")
# Largest relative error of a bf16 forward and backward against fp32 torch.
TOLERANCE = 2e-2
STEPS_PER_SAMPLE = 5
# Each side runs this many times, alternating, and keeps its best median:
# machine noise between two processes is larger than the differences measured.
ROUNDS = 2


def _setups(torch, tokens, device):
    """op -> () -> (liger_fn, reference_fn, inputs, which need grad)."""
    dev = torch.device(device)

    def rand(*shape, dtype=torch.bfloat16, scale=1.0):
        return (torch.randn(*shape, device=dev, dtype=torch.float32) * scale).to(dtype)

    def rms_norm():
        from liger_kernel.transformers.rms_norm import LigerRMSNorm
        layer = LigerRMSNorm(HIDDEN, eps=1e-6).to(dev, torch.bfloat16)
        w = rand(HIDDEN, scale=0.1) + 1
        layer.weight.data.copy_(w)

        def ref(x):
            x = x.float()
            return w.float() * (x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6))
        return layer, ref, [rand(tokens, HIDDEN)]

    def layer_norm():
        from liger_kernel.transformers.layer_norm import LigerLayerNorm
        layer = LigerLayerNorm(HIDDEN, eps=1e-6).to(dev, torch.bfloat16)
        w, b = rand(HIDDEN, scale=0.1) + 1, rand(HIDDEN, scale=0.1)
        layer.weight.data.copy_(w)
        layer.bias.data.copy_(b)
        return layer, lambda x: torch.nn.functional.layer_norm(x.float(), (HIDDEN,), w.float(), b.float(), 1e-6), \
            [rand(tokens, HIDDEN)]

    def swiglu():
        from liger_kernel.ops.swiglu import LigerSiLUMulFunction
        return (lambda a, b: LigerSiLUMulFunction.apply(a, b),
                lambda a, b: torch.nn.functional.silu(a.float()) * b.float(),
                [rand(tokens, INTERMEDIATE), rand(tokens, INTERMEDIATE)])

    def rope():
        from liger_kernel.transformers.rope import liger_rotary_pos_emb
        seq = tokens
        inv = 1.0 / (500000.0 ** (torch.arange(0, HEAD_DIM, 2, device=dev, dtype=torch.float32) / HEAD_DIM))
        angles = torch.outer(torch.arange(seq, device=dev, dtype=torch.float32), inv)
        emb = torch.cat([angles, angles], -1)[None]
        cos, sin = emb.cos().to(torch.bfloat16), emb.sin().to(torch.bfloat16)

        def rotate(x):
            half = x.shape[-1] // 2
            return torch.cat([-x[..., half:], x[..., :half]], -1)

        def ref(q, k):
            c, s = cos.float()[:, None], sin.float()[:, None]
            return q.float() * c + rotate(q.float()) * s, k.float() * c + rotate(k.float()) * s
        q = rand(1, seq, Q_HEADS, HEAD_DIM).transpose(1, 2)
        k = rand(1, seq, KV_HEADS, HEAD_DIM).transpose(1, 2)
        return lambda q, k: liger_rotary_pos_emb(q, k, cos, sin), ref, [q, k]

    def cross_entropy():
        from liger_kernel.transformers.cross_entropy import LigerCrossEntropyLoss
        target = torch.randint(0, VOCAB, (tokens,), device=dev)
        loss = LigerCrossEntropyLoss()
        return (lambda logits: loss(logits, target),
                lambda logits: torch.nn.functional.cross_entropy(logits.float(), target),
                [rand(tokens, VOCAB, scale=2.0)])

    return {"rms_norm": rms_norm, "layer_norm": layer_norm, "swiglu": swiglu, "rope": rope,
            "cross_entropy": cross_entropy}


def _outputs(result):
    return list(result) if isinstance(result, (tuple, list)) else [result]


def _relative_error(got, want):
    got, want = got.float(), want.float()
    return float((got - want).abs().max() / want.abs().max().clamp_min(1e-6))


def _kernel_times(torch, step, steps=10):
    """The GPU kernels of `steps` runs of `step`: [name, µs per step], slowest first."""
    from torch.profiler import ProfilerActivity, profile
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(steps):
            step()
        torch.cuda.synchronize()
    rows = []
    for e in prof.key_averages():
        us = getattr(e, "device_time_total", None)
        us = getattr(e, "cuda_time_total", 0) if us is None else us
        if us > 0:
            rows.append([e.key[:60], us / steps])
    return sorted(rows, key=lambda r: -r[1])[:8]


def _measure(torch, op, setup, reps, device, profile=False):
    """(median ms of forward+backward, largest relative error, kernel times
    or None, host ms per step or None)."""
    fn, ref, inputs = setup()
    leaves = [x.detach().clone().requires_grad_(True) for x in inputs]
    ref_leaves = [x.detach().float().requires_grad_(True) for x in inputs]
    outs, ref_outs = _outputs(fn(*leaves)), _outputs(ref(*ref_leaves))
    grads = [torch.randn_like(o, dtype=torch.float32) for o in ref_outs]
    torch.autograd.backward(outs, [g.to(o.dtype) for g, o in zip(grads, outs)])
    torch.autograd.backward(ref_outs, grads)
    error = max([_relative_error(o, r) for o, r in zip(outs, ref_outs)] +
                [_relative_error(x.grad, r.grad) for x, r in zip(leaves, ref_leaves)])

    def step():
        for x in leaves:
            x.grad = None
        y = _outputs(fn(*leaves))
        torch.autograd.backward(y, [g.to(o.dtype) for g, o in zip(grads, y)])

    for _ in range(5):
        step()
    times = []
    on_host = _targets.timer_of(_targets.target_of_device(device)) == "host_clock"
    for _ in range(reps):
        if on_host:  # the host target runs launches synchronously
            start = time.perf_counter()
            step()
            times.append((time.perf_counter() - start) * 1e3)
            continue
        # Steps back to back, as training runs them (and as Triton's
        # do_bench times): the GPU time of a step, or its host time where
        # that is longer.
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(STEPS_PER_SAMPLE):
            step()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) / STEPS_PER_SAMPLE)
    times.sort()
    kernels = _kernel_times(torch, step) if profile and not on_host else None
    host = _host_ms(torch, step) if not on_host else None
    return times[len(times) // 2], error, kernels, host


def _host_ms(torch, step, steps=20):
    """Host time of one step (ms) while the GPU is kept busy: what Python,
    torch and the launches cost, apart from the kernels."""
    from .cuda import host_us
    return host_us(torch, step, steps, busy_cycles_per_rep=10_000_000) / 1e3


def child(side, ops, tokens, reps, device, profile=False):
    if side == "tessera":
        import tessera.compat
        tessera.compat.install()
    import torch
    import triton
    torch.manual_seed(0)
    setups = _setups(torch, tokens, device)
    on_host = _targets.timer_of(_targets.target_of_device(device)) == "host_clock"
    result = {"triton": triton.__version__}
    for op in ops:
        try:
            ms, error, kernels, host = _measure(torch, op, setups[op], reps, device, profile)
            result[op] = {"ms": ms, "error": error}
            if host is not None:
                result[op]["host_ms"] = host
            if kernels:
                result[op]["kernels_us"] = kernels
        except Exception as e:  # one op's failure is its row's, not the run's
            result[op] = {"failed": "%s: %s" % (type(e).__name__, str(e).splitlines()[0] if str(e) else "")}
        if not on_host:
            torch.cuda.empty_cache()
    print("RESULT " + json.dumps(result), flush=True)


def _run_side(side, args):
    command = [sys.executable, "-m", "tessera.bench.liger", "--child", side, "--ops", ",".join(args.ops),
               "--tokens", str(args.tokens), "--reps", str(args.reps), "--device", args.device] + \
        (["--profile"] if args.profile else [])
    r = subprocess.run(command, capture_output=True, text=True, env=dict(os.environ))
    line = next((l for l in r.stdout.splitlines() if l.startswith("RESULT ")), None)
    if line is None:
        tail = (r.stderr or r.stdout).strip().splitlines()[-1:] or [""]
        return {"failed": "exit %d: %s" % (r.returncode, tail[0])}
    return json.loads(line[len("RESULT "):])


def _best(kept, new):
    """Per op, the row with the lower time of two runs of one side."""
    if kept is None or "failed" in kept:
        return new
    if "failed" in new:
        return kept
    for op, row in new.items():
        if isinstance(row, dict) and "ms" in row and (not isinstance(kept.get(op), dict) or
                                                     row["ms"] < kept[op].get("ms", float("inf"))):
            kept[op] = row
    return kept


def _cell(row):
    if "failed" in row:
        return "failed: " + row["failed"][:60]
    mark = "" if row["error"] <= TOLERANCE else " WRONG (err %.2g)" % row["error"]
    host = " (host %.3f)" % row["host_ms"] if "host_ms" in row else ""
    return "%.3f ms%s%s" % (row["ms"], host, mark)


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m tessera.bench.liger", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--ops", default=",".join(OPS), help="comma-separated: " + ", ".join(OPS))
    p.add_argument("--tokens", type=int, default=4096, help="batch x sequence (default 4096)")
    p.add_argument("--reps", type=int, default=30, help="samples of %d steps each" % STEPS_PER_SAMPLE)
    p.add_argument("--device", default="cuda", help="torch device (cpu: Tessera's host target; a smoke test)")
    p.add_argument("--profile", action="store_true", help="also list each op's GPU kernels and their times")
    p.add_argument("--json", help="write both sides' results here")
    p.add_argument("--child", choices=("tessera", "triton"), help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    args.ops = args.ops.split(",")
    unknown = [o for o in args.ops if o not in OPS]
    if unknown:
        p.error("unknown op(s) %s (have: %s)" % (", ".join(unknown), ", ".join(OPS)))
    if args.child:
        child(args.child, args.ops, args.tokens, args.reps, args.device, args.profile)
        return 0
    sides = {}
    for _ in range(ROUNDS):
        for side in ("tessera", "triton"):
            sides[side] = _best(sides.get(side), _run_side(side, args))
    print("Liger-Kernel forward+backward, bf16, %d tokens on %s (tessera %s | triton %s)"
          % (args.tokens, args.device, sides["tessera"].get("triton", "-"), sides["triton"].get("triton", "-")))
    print("%-14s %-36s %-36s %s" % ("op", "on Tessera", "on Triton", "time ratio"))
    for op in args.ops:
        t, r = (sides[s].get(op, {"failed": sides[s].get("failed", "?")}) for s in ("tessera", "triton"))
        ratio = "%.2fx" % (t["ms"] / r["ms"]) if "ms" in t and "ms" in r else "-"
        print("%-14s %-36s %-36s %s" % (op, _cell(t), _cell(r), ratio))
    if args.profile:
        for op in args.ops:
            for side in ("tessera", "triton"):
                kernels = sides[side].get(op, {}).get("kernels_us")
                if kernels:
                    print("%s on %s, GPU µs per step: %s" % (op, side, "; ".join("%s %.1f" % (n, us) for n, us in kernels)))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(sides, f, indent=1)
    failed = any("ms" not in sides["tessera"].get(op, {}) or sides["tessera"][op]["error"] > TOLERANCE
                 for op in args.ops)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
