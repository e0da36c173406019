"""The benchmark on a CUDA device: the same Tessera kernels on torch tensors,
timed with CUDA events, beside Triton (the very same kernel source, compiled
by triton.jit with triton.language in place of tessera.language) and torch
(cuBLAS for matmul), and against a device-to-device copy of the same bytes.
Needs torch; Triton rows are left out where triton is not installed.

Layer 4, api (python/tessera/__init__.py lists the layers)."""
import types

import tessera
import tessera.language
from . import workloads as W


def triton_port(jit_fn):
    """The kernel of a @tessera.jit function compiled by Triton: the same
    source with `tl` bound to triton.language (porting is an import change),
    the @tessera.jit functions it calls ported likewise."""
    import triton
    import triton.language
    fn = jit_fn.fn
    g = dict(fn.__globals__)
    g["tl"] = triton.language
    for name in fn.__code__.co_names:
        callee = g.get(name)
        if isinstance(callee, tessera.JITFunction) and callee is not jit_fn:
            g[name] = triton_port(callee)
    f = types.FunctionType(fn.__code__, g, fn.__name__, fn.__defaults__, fn.__closure__)
    f.__module__, f.__qualname__, f.__doc__ = fn.__module__, fn.__qualname__, fn.__doc__
    # Annotations were evaluated with tessera's tl: point them at Triton's.
    f.__annotations__ = {k: (triton.language.constexpr if v is tessera.language.constexpr else v)
                         for k, v in fn.__annotations__.items()}
    return triton.jit(f)


def host_us(torch, fn, reps, busy_cycles_per_rep=40_000):
    """Host time of one call of fn (µs), measured while the GPU works
    through a sleep queued ahead, so that no call waits for it."""
    import time
    fn()
    torch.cuda.synchronize()
    torch.cuda._sleep(reps * busy_cycles_per_rep)
    t0 = time.perf_counter()
    for _ in range(reps):
        fn()
    us = (time.perf_counter() - t0) / reps * 1e6
    torch.cuda.synchronize()
    return us


class CudaTimer:
    """Median GPU time of a launch with CUDA events on the current stream;
    L2 is flushed (a 256 MiB write) before each rep when the data could stay
    in it; warm-up excluded."""

    def __init__(self, torch, device, reps=50):
        self.torch, self.device, self.reps = torch, device, reps
        self.l2 = torch.cuda.get_device_properties(0).L2_cache_size
        self._flush = torch.empty(256 << 20, dtype=torch.uint8, device=device)
        self.busy_cycles = 400_000  # ~0.2 ms at 2 GHz

    def launch_us_each(self, fns, rounds=9, reps=200):
        """{name: µs}: host time per launch of each fn, taken in rounds that
        alternate between them, each keeping its fastest round: the host's
        noise (other processes, frequency changes) only ever adds time, and
        alternating gives every launch path the same machine."""
        best = {name: float("inf") for name in fns}
        for _ in range(rounds):
            for name, fn in fns.items():
                best[name] = min(best[name], host_us(self.torch, fn, reps))
        return best

    def bare_launch(self):
        """A launch with as little around it as torch has: the host cost's
        floor on this machine, beside the kernels' launch paths."""
        self.torch.cuda._sleep(0)

    def median_ms(self, fn, data_bytes):
        return self.median_ms_each({"fn": fn}, data_bytes)["fn"]

    def median_ms_each(self, fns, data_bytes, rounds=5):
        """{name: median ms} of several launches timed side by side: in
        `rounds` turns of reps / rounds each, so that a clock drifting as
        the GPU heats under its power cap touches all of them alike (timed
        one after another, the last would run hottest). A launch that
        raises is left out: {name: the exception} instead."""
        torch = self.torch
        flush = data_bytes < 4 * self.l2
        result, samples = {}, {}
        for name, fn in fns.items():
            try:
                fn()
                fn()
                torch.cuda.synchronize()
                samples[name] = []
            except Exception as e:  # noqa: BLE001  (the caller reports which launch failed, and why)
                result[name] = e
        per_round = max(1, self.reps // rounds)
        for _ in range(rounds):
            for name in samples:
                fn = fns[name]
                starts = [torch.cuda.Event(enable_timing=True) for _ in range(per_round)]
                ends = [torch.cuda.Event(enable_timing=True) for _ in range(per_round)]
                for s, e in zip(starts, ends):
                    if flush:
                        self._flush.zero_()
                    # Keep the GPU busy while the host launches, so that the events
                    # time the kernel and not Python's launch path (launch_us_each reports that apart).
                    torch.cuda._sleep(self.busy_cycles)
                    s.record()
                    fn()
                    e.record()
                torch.cuda.synchronize()
                samples[name] += [s.elapsed_time(e) for s, e in zip(starts, ends)]
        for name, times in samples.items():
            times.sort()
            result[name] = times[len(times) // 2]
        return result


class CopyCeiling:
    """Device-to-device copy bandwidth (bytes read + written per second) for
    the same number of bytes, measured in the run."""

    def __init__(self, torch, timer):
        self.torch, self.timer, self._cache = torch, timer, {}

    def gbps(self, nbytes):
        n = max(1, nbytes // 2)
        if n not in self._cache:
            src = self.torch.ones(n, dtype=self.torch.uint8, device=self.timer.device)
            dst = self.torch.empty_like(src)
            ms = self.timer.median_ms(lambda: dst.copy_(src), 2 * n)
            self._cache[n] = 2 * n / ms * 1e-6
        return self._cache[n]


class Cublas:
    """cuBLAS through its own library (dlopen with ctypes, no torch in the
    way): the vendor ceiling for matmul. Row-major C = A @ B is column-major
    C^T = B^T A^T, one cublasGemmEx."""

    _TYPES = {"fp32": 0, "fp16": 2, "bf16": 14}  # cudaDataType
    COMPUTE_32F = 68
    COMPUTE_32F_FAST_TF32 = 77  # fp32 on tensor cores: what tl.dot's default tf32 is measured against
    _instance = None

    @classmethod
    def shared(cls, torch):
        """One library handle per process (a handle owns workspace memory)."""
        if cls._instance is None:
            cls._instance = cls(torch)
        return cls._instance

    def __init__(self, torch):
        import ctypes
        self.ctypes, self.torch = ctypes, torch
        from .._libtriton import open_cuda_library
        self.lib, self.path = open_cuda_library("cublas")
        self.handle = ctypes.c_void_p()
        self._check(self.lib.cublasCreate_v2(ctypes.byref(self.handle)), "cublasCreate")

    def _check(self, status, what):
        if status != 0:
            raise RuntimeError("%s failed with cublasStatus %d" % (what, status))

    def matmul_fn(self, a, b, c, dtype):
        """A launch of C = A @ B (row-major torch tensors) on torch's stream."""
        ctypes = self.ctypes
        m, k = a.shape
        n = b.shape[1]
        t = self._TYPES[dtype]
        alpha, beta = ctypes.c_float(1.0), ctypes.c_float(0.0)
        lib, h = self.lib, self.handle
        stream = self.torch.cuda.current_stream().cuda_stream
        self._check(lib.cublasSetStream_v2(h, ctypes.c_void_p(stream)), "cublasSetStream")
        args = (h, 0, 0, n, m, k, ctypes.byref(alpha), ctypes.c_void_p(b.data_ptr()), t, n,
                ctypes.c_void_p(a.data_ptr()), t, k, ctypes.byref(beta), ctypes.c_void_p(c.data_ptr()), t, n,
                self.COMPUTE_32F_FAST_TF32 if dtype == "fp32" else self.COMPUTE_32F, -1)

        def run():
            self._check(lib.cublasGemmEx(*args), "cublasGemmEx")
        return run


def matmul_launcher(torch, tessera_side, a, b, c, acc_dtype="float32"):
    """launch(cfg) for C = A @ B: cfg is (BLOCK_M, BLOCK_N, BLOCK_K, warps,
    stages, kind) of the matmul configurations, kind "pointers",
    "descriptors", "descriptors-ws" or "persistent-ws"; it returns a launch
    of that kernel on Tessera's side or Triton's (the same source). B is
    k x n; a k-major B (fp8: torch._scaled_mm's layout) is the transpose of
    an (n, k) tensor, which the descriptor kernels read as such."""
    m, k = a.shape
    n = b.shape[1]
    b_kmajor = b.stride(0) == 1 and b.stride(1) != 1
    if tessera_side:
        pointers, descriptors = W._matmul_kernel, W._matmul_desc_kernel
        persistent = W._matmul_persistent_kernel
        from tessera.tools.tensor_descriptor import TensorDescriptor
        lang = tessera.language
    else:
        pointers, descriptors = triton_port(W._matmul_kernel), triton_port(W._matmul_desc_kernel)
        persistent = triton_port(W._matmul_persistent_kernel)
        from triton.tools.tensor_descriptor import TensorDescriptor
        import triton.language as lang
        import triton
        # Triton builds the maps of descriptors made in a kernel in
        # global scratch it asks for.
        triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8, device=a.device))
    sms = torch.cuda.get_device_properties(a.device).multi_processor_count
    b_nk = b.t() if b_kmajor else b  # the descriptor kernels read a k-major B as (N, K)

    def launch(cfg):
        bm_, bn_, bk_, warps, stages, kind = cfg
        grid = (tessera.cdiv(m, bm_) * tessera.cdiv(n, bn_),)
        tiles = dict(BLOCK_M=bm_, BLOCK_N=bn_, BLOCK_K=bk_, GROUP_M=8, num_warps=warps, num_stages=stages)
        if kind == "persistent-ws":
            programs = min(sms, grid[0])
            return lambda: persistent[(programs,)](a, b_nk, c, m, n, k, B_KMAJOR=b_kmajor, NUM_PROGRAMS=programs,
                                                   WARP_SPECIALIZE=True, **tiles)
        if kind.startswith("descriptors"):
            descs = (TensorDescriptor.from_tensor(a, [bm_, bk_]),
                     TensorDescriptor.from_tensor(b_nk, [bn_, bk_] if b_kmajor else [bk_, bn_]),
                     TensorDescriptor.from_tensor(c, [bm_, bn_]))
            ws = kind == "descriptors-ws"
            return lambda: descriptors[grid](*descs, m, n, k, B_KMAJOR=b_kmajor, WARP_SPECIALIZE=ws, **tiles)
        if kind != "pointers":
            raise ValueError("no matmul kernel of kind " + kind)
        # ACC passed explicitly: a default would be Tessera's dtype in Triton's kernel too.
        return lambda: pointers[grid](a, b, c, m, n, k, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                                      c.stride(0), c.stride(1), ACC=getattr(lang, acc_dtype), **tiles)
    return launch


_TORCH_DTYPES = {"fp16": "float16", "bf16": "bfloat16", "fp32": "float32", "fp64": "float64", "i8": "int8",
                 "fp8": "float8_e4m3fn"}


# The configurations both Tessera and Triton choose from, by measured speed:
# (BLOCK_M, BLOCK_N, BLOCK_K, num_warps, num_stages), as in Triton's matmul
# tutorial (and 128x256 in 4 stages, which warp-specialized kernels fill); each with the kernel that loads the tiles ("pointers", or on
# Hopper also "descriptors" and "descriptors-ws", warp-specialized, and
# for tiles of 128 x 128 or more "persistent-ws": tutorial 09's kernel, one
# program per SM, its tile loop warp-specialized).
MATMUL_CONFIGS = [(128, 256, 64, 8, 3), (128, 256, 64, 8, 4), (256, 128, 64, 8, 3), (128, 128, 64, 4, 4),
                  (128, 128, 32, 4, 4), (64, 128, 32, 4, 4), (128, 64, 32, 4, 4)]
# fp8: the same bytes of k per stage (Triton's tutorial 03 lists these for fp8).
FP8_MATMUL_CONFIGS = [(128, 256, 128, 8, 3), (256, 128, 128, 8, 3), (128, 128, 128, 4, 4), (128, 256, 64, 8, 4),
                      (128, 128, 64, 4, 4), (64, 128, 128, 4, 4)]
# fp32 (tf32 dots): the same bytes of k per stage, half the elements
# (256x128 in 4 stages too, which the warp-specialized kernel fills).
TF32_MATMUL_CONFIGS = [(128, 256, 32, 8, 3), (256, 128, 32, 8, 3), (256, 128, 32, 8, 4), (128, 128, 32, 4, 4),
                       (256, 128, 16, 8, 6), (128, 128, 16, 4, 6), (64, 128, 16, 4, 4)]


_l2_flush = []  # one 256 MiB buffer, made at first use


def _autotune(torch, launch, configs, reps=5, data_bytes=None):
    """W.autotune timed with CUDA events. With `data_bytes` (what a launch
    reads and writes) under 4x the L2 cache, each launch is timed on its
    own after a flush of the cache, as the row's figure is (CudaTimer) and
    as Triton's do_bench times its autotuning: the configuration chosen is
    then the fastest by the measure reported (back to back, the next
    launch found the last one's data in L2)."""
    flush = data_bytes is not None and data_bytes < 4 * torch.cuda.get_device_properties(0).L2_cache_size
    if flush and not _l2_flush:
        _l2_flush.append(torch.empty(256 << 20, dtype=torch.uint8, device="cuda"))

    def time_ms(fn):
        if not flush:
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            for _ in range(reps):
                fn()
            end.record()
            end.synchronize()
            return start.elapsed_time(end) / reps
        events = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in range(reps)]
        for start, end in events:
            _l2_flush[0].zero_()
            start.record()
            fn()
            end.record()
        torch.cuda.synchronize()
        return sum(start.elapsed_time(end) for start, end in events) / reps
    return W.autotune(time_ms, launch, configs)


_chosen = W.chosen


def make_case(w, shape, dtype, torch, device):
    """A workloads.Case on the GPU: run, peers (triton, torch), check.
    `device`: torch's device type of the target's memory (the registry's)."""
    t = getattr(torch, _TORCH_DTYPES[dtype])
    try:
        import triton  # noqa: F401
        port = triton_port
    except ImportError:
        port = None
    peers = {}
    if w.name == "vector_add":
        (n,) = shape
        x, y = torch.rand(n, device=device, dtype=t), torch.rand(n, device=device, dtype=t)
        out = torch.full_like(x, float("nan"))
        grid = (tessera.cdiv(n, 1024),)
        kernel = W._add_kernel  # a closure variable, as Triton's k below: the launch rows time the same Python
        run = lambda: kernel[grid](x, y, out, n, BLOCK=1024)
        if port:
            k = port(W._add_kernel)
            peers["triton"] = lambda: k[grid](x, y, out, n, BLOCK=1024)
        peers["torch"] = lambda: torch.add(x, y, out=out)
        # The checked mode's cost (each launch also reads its report back).
        peers["tessera checked"] = lambda: W._add_kernel[grid](x, y, out, n, BLOCK=1024, debug=True)
        check = lambda: _rel_err(torch, out, x.double() + y.double())
        return W.Case(run, peers, check, 3 * x.nbytes, 3 * x.nbytes, outputs=(out,))
    if w.name == "softmax":
        m, n = shape
        x = torch.randn(m, n, device=device, dtype=t)
        out = torch.full_like(x, float("nan"))
        block = tessera.next_power_of_2(n)
        grid = (m,)
        configs = W.SOFTMAX_WARPS

        def launcher(kernel):
            return lambda warps: lambda: kernel[grid](out, x, n, n, m, n, BLOCK=block, num_warps=warps)
        run = _autotune(torch, launcher(W._softmax_kernel), configs)
        if port:
            peers["triton"] = _autotune(torch, launcher(port(W._softmax_kernel)), configs)
        peers["torch"] = lambda: torch.softmax(x, dim=1)
        check = lambda: _rel_err(torch, out, torch.softmax(x.double(), dim=1))
        return _chosen(W.Case(run, peers, check, 2 * x.nbytes, 2 * x.nbytes, outputs=(out,)))
    if w.name == "layernorm":
        m, n = shape
        x = torch.randn(m, n, device=device, dtype=t)
        wt, b = torch.rand(n, device=device, dtype=t), torch.rand(n, device=device, dtype=t)
        out = torch.full_like(x, float("nan"))
        block = tessera.next_power_of_2(n)
        warps = W.layernorm_warps(block)
        run = lambda: W._layernorm_kernel[(m,)](x, out, wt, b, n, n, 1e-5, BLOCK=block, num_warps=warps)
        if port:
            k = port(W._layernorm_kernel)
            peers["triton"] = lambda: k[(m,)](x, out, wt, b, n, n, 1e-5, BLOCK=block, num_warps=warps)
        ln = torch.nn.functional.layer_norm
        peers["torch"] = lambda: ln(x, (n,), wt, b, 1e-5)
        check = lambda: _rel_err(torch, out, ln(x.double(), (n,), wt.double(), b.double(), 1e-5))
        return W.Case(run, peers, check, 2 * x.nbytes + 2 * wt.nbytes, 2 * x.nbytes, outputs=(out,))
    if w.name == "matmul":
        m, n, k_ = shape
        int8, fp8 = dtype == "i8", dtype == "fp8"
        if int8:  # int8 x int8 -> int32 (torch._int_mm is the peer)
            a = torch.randint(-128, 128, (m, k_), device=device, dtype=torch.int8)
            bm = torch.randint(-128, 128, (k_, n), device=device, dtype=torch.int8)
            c = torch.full((m, n), -1, device=device, dtype=torch.int32)
        elif fp8:  # e4m3 x e4m3 -> bf16 with B k-major, the layout torch._scaled_mm (cuBLASLt) takes
            a = torch.randn(m, k_, device=device).to(t)
            bm = torch.randn(n, k_, device=device).to(t).t()
            c = torch.full((m, n), float("nan"), device=device, dtype=torch.bfloat16)
        else:
            a, bm = torch.randn(m, k_, device=device, dtype=t), torch.randn(k_, n, device=device, dtype=t)
            c = torch.full((m, n), float("nan"), device=device, dtype=t)
        acc_dtype = "int32" if int8 else "float32"
        # Hopper: the same tiles also through host tensor descriptors (TMA),
        # and those warp-specialized (a producer warp issuing the copies).
        hopper = torch.cuda.get_device_capability()[0] == 9 and not int8
        kinds = ["pointers"] + (["descriptors", "descriptors-ws"] if hopper else [])
        listed = FP8_MATMUL_CONFIGS if fp8 else TF32_MATMUL_CONFIGS if dtype == "fp32" else MATMUL_CONFIGS
        configs = [cfg + (kind,) for kind in kinds for cfg in listed]
        if hopper:
            configs += [cfg + ("persistent-ws",) for cfg in listed if cfg[0] * cfg[1] >= 128 * 128]
        data = a.nbytes + bm.nbytes + c.nbytes
        run = _autotune(torch, matmul_launcher(torch, True, a, bm, c, acc_dtype), configs, data_bytes=data)
        if port:
            try:
                peers["triton"] = _autotune(torch, matmul_launcher(torch, False, a, bm, c, acc_dtype), configs,
                                             data_bytes=data)
            except RuntimeError as e:  # the row shows no Triton figure rather than no row
                print("triton matmul %s: %s" % (dtype, e))
        if int8:
            peers["torch"] = lambda: torch._int_mm(a, bm)
            check = lambda: float((c != torch._int_mm(a, bm)).sum())  # mismatches (exact int32 sums): 0
            return _chosen(W.Case(run, peers, check, 2 * m * n * k_, a.nbytes + bm.nbytes + c.nbytes, outputs=(c,)))
        if fp8:
            one = torch.ones((), device=device)
            peers["scaled_mm"] = lambda: torch._scaled_mm(a, bm, scale_a=one, scale_b=one, out_dtype=torch.bfloat16)
            check = lambda: _rel_err(torch, c, a.double() @ bm.double(), scale=k_ ** 0.5)
            return _chosen(W.Case(run, peers, check, 2 * m * n * k_, a.nbytes + bm.nbytes + c.nbytes, outputs=(c,)))
        try:
            cublas = Cublas.shared(torch)
            peers["cublas"] = cublas.matmul_fn(a, bm, torch.empty_like(c), dtype)
        except (OSError, RuntimeError, AttributeError, KeyError):
            pass
        peers["torch"] = lambda: torch.matmul(a, bm)
        check = lambda: _rel_err(torch, c, a.double() @ bm.double(), scale=k_ ** 0.5)
        return _chosen(W.Case(run, peers, check, 2 * m * n * k_, a.nbytes + bm.nbytes + c.nbytes, outputs=(c,)))
    if w.name in ("attention", "attention_causal"):
        bh, s_, d = shape
        q, k_, v = (torch.randn(bh, s_, d, device=device, dtype=t) for _ in range(3))
        out = torch.full_like(q, float("nan"))
        scale = 1.0 / d ** 0.5
        args = (q, k_, v, out, scale, s_, s_ * d, d)

        def launcher(kernel):
            def launch(cfg):
                block_m, block_n, warps, stages = cfg
                grid = (tessera.cdiv(s_, block_m), bh)
                meta = dict(D=d, BLOCK_M=block_m, BLOCK_N=block_n, CAUSAL=w.causal)
                return lambda: kernel[grid](*args, **meta, num_warps=warps, num_stages=stages)
            return launch
        configs = w.configs(d, dtype)
        data = 4 * q.nbytes
        run = _autotune(torch, launcher(W._attention_kernel), configs, data_bytes=data)
        if port:
            try:
                peers["triton"] = _autotune(torch, launcher(port(W._attention_kernel)), configs, data_bytes=data)
            except RuntimeError as e:
                print("triton attention %s: %s" % (dtype, e))
        sdpa = torch.nn.functional.scaled_dot_product_attention
        peers["sdpa"] = lambda: sdpa(q[None], k_[None], v[None], is_causal=w.causal)
        check = lambda: _rel_err(torch, out, sdpa(q.double()[None], k_.double()[None], v.double()[None],
                                                  is_causal=w.causal)[0])
        work = 4 * bh * s_ * s_ * d // (2 if w.causal else 1)
        return _chosen(W.Case(run, peers, check, work, 4 * q.nbytes, outputs=(out,)))
    raise ValueError("no CUDA version of workload " + w.name)


def _rel_err(torch, got, want, scale=1.0):
    got = got.double()
    if torch.isnan(got).any():
        return float("inf")
    return float(((got - want).abs() / (want.abs() + scale)).max())
