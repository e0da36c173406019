"""Triton's autotune, Config and heuristics over JITFunction.

The autotuner really times every config (testing.do_bench) the first time it
sees a key and keeps the fastest; later calls with that key launch it directly.
Before timing, it compiles the configs side by side on the machine's cores
(`TESSERA_AUTOTUNE_THREADS` caps them; 1: one by one).

Layer 3, launch (python/tessera/__init__.py lists the layers).
"""

import builtins
import concurrent.futures
import hashlib
import json
import os
import tempfile
import time

from . import _C, testing
from ._specialize import pointer_info
from .jit import KernelInterface


class AutotunerError(_C.TesseraError):
    """An autotuner misuse (Triton's triton.runtime.errors.AutotunerError):
    its text is "Autotuner error: " and the message, as Triton's."""

    def __init__(self, message=""):
        super().__init__(_C.ERROR_INVALID_ARGUMENT, "Autotuner error: " + (message or ""))
        self.error_message = message


class Config:
    """One configuration of an autotuned kernel: `kwargs` maps constexpr
    parameters to their values, and num_warps, num_stages, num_ctas and
    maxnreg are the launch options it runs with (None leaves an option to
    the launch). pre_hook, when given, is called with the launch's arguments
    by name (this configuration's values included) before each run of it.
    ir_override (Triton's IR files) raises NotImplementedError."""

    def __init__(self, kwargs, num_warps=4, num_stages=3, num_ctas=1, maxnreg=None, pre_hook=None, ir_override=None):
        if ir_override is not None:
            raise NotImplementedError("Config(ir_override=...): Tessera compiles kernels from their source; "
                                      "it takes no IR files")
        self.kwargs = dict(kwargs)
        self.num_warps, self.num_stages, self.num_ctas = num_warps, num_stages, num_ctas
        self.maxnreg, self.pre_hook, self.ir_override = maxnreg, pre_hook, None

    def all_kwargs(self):
        """The keyword arguments a launch with this configuration passes:
        `kwargs` and the options that are not None."""
        options = (("num_warps", self.num_warps), ("num_ctas", self.num_ctas), ("num_stages", self.num_stages),
                   ("maxnreg", self.maxnreg))
        return {**self.kwargs, **{k: v for k, v in options if v is not None}}

    def __str__(self):
        parts = ["%s: %s" % (k, v) for k, v in self.kwargs.items()]
        parts += ["num_warps: %s" % self.num_warps, "num_stages: %s" % self.num_stages]
        return ", ".join(parts)

    __repr__ = __str__


class _Wrapper(KernelInterface):
    """Shared by Autotuner and Heuristics: the wrapped fn, its parameter
    names in `arg_names`."""
    __tessera_wrapper__ = True

    def _warmup_run(self, args, kwargs):
        """Triton's run(..., warmup=True): the wrapper's warmup (no grid)."""
        kwargs.pop("grid", None)
        return self.warmup(*args, **kwargs)


def _zero(x):
    if hasattr(x, "zero_"):
        x.zero_()
    else:
        x[...] = 0


def _copy_of(x):
    return x.clone() if hasattr(x, "clone") else x.copy()


def _restore(x, saved):
    if hasattr(x, "copy_"):
        x.copy_(saved)
    else:
        x[...] = saved


class Autotuner(_Wrapper):
    """Triton's Autotuner, with its constructor and attributes (libraries
    subclass it): `cache` maps a key (the `key` arguments' values, then the
    dtype of every argument that has one, as Triton builds it) to the best
    Config; `pre_hook(nargs, reset_only=False)` and `post_hook(nargs,
    exception)` zero `reset_to_zero` and restore `restore_value` around each
    timed run unless the user gave hooks. After a launch, `best_config` is
    the configuration it ran, and `configs_timings` (config -> [median, p20,
    p80] ms), `bench_time` (seconds) tell of the last tuning;
    TRITON_PRINT_AUTOTUNING=1 prints each tuning's result."""

    def __init__(self, fn, arg_names, configs, key, reset_to_zero, restore_value, pre_hook=None, post_hook=None,
                 prune_configs_by=None, warmup=None, rep=None, use_cuda_graph=False, do_bench=None,
                 cache_results=False):
        self.fn, self.base_fn = fn, fn
        while hasattr(self.base_fn, "fn"):
            self.base_fn = self.base_fn.fn
        self.arg_names = list(arg_names)
        self.configs = list(configs) or [Config({})]
        self.keys = list(key)
        self.reset_to_zero = list(reset_to_zero or [])
        self.restore_value = list(restore_value or [])
        self.restore_copies = {}
        self.user_defined_pre_hook, self.user_defined_post_hook = pre_hook is not None, post_hook is not None
        self.pre_hook = pre_hook or self._default_pre_hook
        self.post_hook = post_hook or self._default_post_hook
        prune = prune_configs_by or {}
        self.perf_model = prune.get("perf_model")
        self.configs_top_k = prune.get("top_k", 1.0)
        self.early_config_prune = prune.get("early_config_prune")
        self.num_warmups, self.num_reps = warmup, rep
        self.use_cuda_graph, self.cache_results = use_cuda_graph, cache_results
        self.do_bench = do_bench or (lambda f, quantiles: testing.do_bench(
            f, warmup=25 if warmup is None else warmup, rep=100 if rep is None else rep, quantiles=quantiles))
        self.cache = {}
        self.nargs = None
        self.best_config = None
        self.bench_time = 0.0
        self.configs_timings = {}  # config -> (median, p20, p80) ms, from the last tuning

    @property
    def bench_times(self):
        """config -> median ms of the last tuning."""
        return {c: _median(t) for c, t in self.configs_timings.items()}

    def _default_pre_hook(self, nargs, reset_only=False):
        for name in self.reset_to_zero:
            if nargs.get(name) is not None:
                _zero(nargs[name])
        if not reset_only:
            self.restore_copies = {n: _copy_of(nargs[n]) for n in self.restore_value if nargs.get(n) is not None}

    def _default_post_hook(self, nargs, exception):
        for name, saved in self.restore_copies.items():
            _restore(nargs[name], saved)
        self.restore_copies = {}

    def _key(self, all_args):
        args = {k: v for k, v in all_args.items() if k in self.arg_names}
        key = [args[k] for k in self.keys if k in args]
        key += [str(v.dtype) for v in args.values() if hasattr(v, "dtype")]
        return tuple(key)

    def prune_configs(self, kwargs):
        """The configurations to time: early_config_prune(configs, nargs,
        **kwargs), then the perf_model's top_k (a count, or a fraction of
        those left, one at least), as Triton prunes; AutotunerError when
        early_config_prune keeps none."""
        configs = self.configs
        if self.early_config_prune:
            configs = self.early_config_prune(self.configs, self.nargs, **kwargs)
            if not configs:
                raise AutotunerError("No valid autotuner configs after pruning. `early_config_prune` should return "
                                     "at least one config.")
        if self.perf_model:
            top_k = self.configs_top_k
            if isinstance(top_k, float) and top_k <= 1.0:  # a fraction of those left, keeping one at least
                top_k = max(1, int(len(configs) * top_k))
            elif not isinstance(top_k, int):
                raise TypeError("prune_configs_by's top_k is an int or a float <= 1.0, got %r" % (top_k,))
            if len(configs) > top_k:
                estimate = {c: self.perf_model(**self.nargs, **kwargs, **c.all_kwargs()) for c in configs}
                configs = sorted(estimate, key=estimate.get)[:top_k]
        return configs

    def _bench(self, *args, config, **meta):
        clash = meta.keys() & config.kwargs.keys()
        if clash:
            raise ValueError("Conflicting meta-parameters: %s. Make sure that you don't re-define auto-tuned "
                             "symbols." % ", ".join(sorted(clash)))
        current = dict(meta, **config.all_kwargs())
        nargs = {**self.nargs, **current}

        def call():
            if config.pre_hook:
                config.pre_hook(nargs)
            self.pre_hook(nargs)
            try:
                self.fn.run(*args, **current)
            except Exception as e:
                self.post_hook(nargs, exception=e)
                raise
            self.post_hook(nargs, exception=None)

        try:
            return self.do_bench(call, quantiles=(0.5, 0.2, 0.8))
        except (_C.OutOfResources, _C.CompileTimeAssertionFailure):
            # As Triton's: a configuration too big for the device, or one
            # its kernel's static_assert refuses, is skipped (if every one
            # is, the launch with the "best" raises the error).
            return [float("inf")] * 3

    def _compile_all(self, args, kwargs, configs):
        """Compiles `configs` on threads before they are timed one by one:
        the compiler releases the GIL, so the machine's cores share the
        work. Best effort: a config that fails to compile here is compiled
        again when timed, which reports (or skips) it as before."""
        workers = min(len(configs), os.cpu_count() or 1, int(os.environ.get("TESSERA_AUTOTUNE_THREADS") or 64))
        if workers < 2 or not hasattr(self.fn, "warmup"):
            return

        def compile_one(config):
            try:
                self.fn.warmup(*args, **kwargs, **config.all_kwargs())
            except Exception:  # noqa: BLE001 (reported when the config is timed)
                pass

        with concurrent.futures.ThreadPoolExecutor(workers) as pool:
            list(pool.map(compile_one, configs))

    def run(self, *args, **kwargs):
        """Launches the kernel with the best configuration for these
        arguments (``kernel[grid](...)`` calls it with grid=). The first
        launch with a new key compiles the configurations prune_configs
        keeps, side by side, then times each with do_bench and keeps the
        fastest in `cache`; a configuration that is out of resources or fails
        a tl.static_assert is skipped. With one configuration nothing is
        timed. Returns what the kernel's run returns."""
        if kwargs.pop("warmup", False):
            return self._warmup_run(args, kwargs)
        self.nargs = dict(zip(self.arg_names, args))
        tuned = False
        key = None
        if len(self.configs) > 1:
            key = self._key({**self.nargs, **kwargs})
            if key not in self.cache:
                tuned = True
                start = time.time()
                configs = self.prune_configs(kwargs)
                timings = self._cached_timings(key, configs, args)
                if timings is None:
                    self._compile_all(args, kwargs, configs)
                    # One left after pruning: nothing to compare, so nothing is timed.
                    timings = {c: self._bench(*args, config=c, **kwargs) for c in configs} if len(configs) > 1 else \
                        {configs[0]: [0.0] * 3}
                    self._store_timings(key, configs, args, timings)
                self.bench_time = time.time() - start
                self.configs_timings = timings
                self.cache[key] = builtins.min(timings, key=lambda c: _median(timings[c]))
                self.pre_hook({**self.nargs, **kwargs, **self.cache[key].all_kwargs()}, reset_only=True)
            config = self.cache[key]
        else:
            config = self.configs[0]
        self.best_config = config
        if tuned and os.environ.get("TRITON_PRINT_AUTOTUNING") == "1":
            print("Triton autotuning for function %s,\nwith key as %s,\nfinished after %.2fs,\nbest config "
                  "selected: %s;" % (self.base_fn.__name__, key, self.bench_time, config))
        if config.pre_hook is not None:
            config.pre_hook({**self.nargs, **kwargs, **config.all_kwargs()})
        try:
            return self.fn.run(*args, **kwargs, **config.all_kwargs())
        finally:
            self.nargs = None

    # Tuning results on disk (Triton's cache_results=True or
    # TRITON_CACHE_AUTOTUNING=1): one JSON file per kernel, tuning key,
    # configurations and devices, in the compile cache's directory; a new
    # process with the same ones launches the best configuration untimed.
    def _results_path(self, key, configs, args):
        if not (self.cache_results or os.environ.get("TRITON_CACHE_AUTOTUNING") == "1") or not key:
            return None
        if any(c.pre_hook for c in configs):
            return None  # as Triton's: hooks cannot be written down, so the configurations are timed
        jit_function = self.fn
        while not hasattr(jit_function, "cache_key") and hasattr(jit_function, "fn"):  # through Heuristics
            jit_function = jit_function.fn
        source = getattr(jit_function, "cache_key", None)
        if source is None:
            return None
        devices = set()
        for arg in args:
            info = pointer_info(arg) if not isinstance(arg, (int, float, bool)) else None
            if info is not None:
                device = _C.get_device(info[2])
                devices.add((info[2], _C.device_name(device), _C.device_architecture(device)))
        text = json.dumps([_C.version(), source, repr(key), sorted(devices), [str(c) for c in configs]])
        folder = os.environ.get("TESSERA_CACHE_DIR") or os.path.join(
            os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "tessera")
        name = "%s.%s.autotune.json" % (self.base_fn.__name__[:100], hashlib.sha256(text.encode()).hexdigest()[:32])
        return os.path.join(folder, "autotune", name)

    def _cached_timings(self, key, configs, args):
        path = self._results_path(key, configs, args)
        try:
            with open(path) as f:
                stored = json.load(f)
            return {configs[i]: timing for i, timing in stored["timings"]}
        except (TypeError, OSError, ValueError, KeyError, IndexError):
            return None  # none stored (or unreadable): time them

    def _store_timings(self, key, configs, args, timings):
        path = self._results_path(key, configs, args)
        if path is None:
            return
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            fd, temp = tempfile.mkstemp(dir=os.path.dirname(path))
            with os.fdopen(fd, "w") as f:
                json.dump({"key": repr(key), "timings": [[configs.index(c), t] for c, t in timings.items()]}, f)
            os.replace(temp, path)  # whole or not at all, for processes reading it meanwhile
        except OSError:
            pass  # an unwritable cache: the next process times them again

    def warmup(self, *args, **kwargs):
        """Compiles every configuration prune_configs keeps, launching none."""
        self.nargs = dict(zip(self.arg_names, args))
        try:
            return [self.fn.warmup(*args, **kwargs, **c.all_kwargs()) for c in self.prune_configs(kwargs)]
        finally:
            self.nargs = None


def _median(t):
    return t[0] if isinstance(t, (list, tuple)) else t


def autotune(configs, key, prune_configs_by=None, reset_to_zero=None, restore_value=None, pre_hook=None,
             post_hook=None, warmup=None, rep=None, use_cuda_graph=False, do_bench=None, cache_results=False):
    """Triton's @autotune: picks the fastest of `configs` (Config objects)
    per value of `key`, and launches it.

        @tessera.autotune(configs=[tessera.Config({"BLOCK": 256}, num_warps=4),
                                   tessera.Config({"BLOCK": 1024}, num_warps=8)], key=["n"])
        @tessera.jit
        def kernel(x_ptr, n, BLOCK: tl.constexpr): ...

    key names the arguments whose values, with the dtype of every argument
    that has one, select an entry of the cache: a new combination tunes
    again. prune_configs_by: a dict of early_config_prune(configs, nargs,
    **kwargs) -> configs, and a perf_model (called with the arguments and a
    configuration's values by name, returning a predicted time) with top_k
    (a count, or a fraction of the configurations) keeping the best.
    reset_to_zero and restore_value name arguments zeroed, and saved and
    restored, around each timed run (for kernels that accumulate into their
    outputs); pre_hook(nargs, reset_only) and post_hook(nargs, exception)
    replace that handling. warmup and rep are the ms do_bench spends on each
    configuration (25 and 100 when None); do_bench(fn, quantiles) replaces
    the timing. cache_results=True (or TRITON_CACHE_AUTOTUNING=1) keeps
    each tuning's timings on disk, beside the compile cache
    (TESSERA_CACHE_DIR/autotune), keyed by the kernel's cache key, the tuning
    key, the configurations and the arguments' devices, so another process
    skips the timing; as in Triton, not with configurations that have a
    pre_hook. use_cuda_graph is kept and changes nothing. Returns a decorator that makes an Autotuner of a JITFunction
    (or of a Heuristics)."""
    def decorator(fn):
        return Autotuner(fn, fn.arg_names, configs, key, reset_to_zero, restore_value, pre_hook=pre_hook,
                         post_hook=post_hook, prune_configs_by=prune_configs_by, warmup=warmup, rep=rep,
                         use_cuda_graph=use_cuda_graph, do_bench=do_bench, cache_results=cache_results)
    return decorator


class Heuristics(_Wrapper):
    """Triton's Heuristics(fn, arg_names, values): each rule sees the
    positional arguments by name and the keyword ones, with the values of
    the rules before it."""

    def __init__(self, fn, arg_names, values):
        self.fn, self.arg_names, self.values = fn, list(arg_names), dict(values)

    def _with_values(self, args, kwargs):
        for name, rule in self.values.items():
            kwargs[name] = rule({**dict(zip(self.arg_names, args)), **kwargs})
        return kwargs

    def run(self, *args, **kwargs):
        """Launches the kernel with each rule's value added to the keyword
        arguments (``kernel[grid](...)`` calls it with grid=); returns what
        the kernel's run returns."""
        if kwargs.pop("warmup", False):
            return self._warmup_run(args, kwargs)
        return self.fn.run(*args, **self._with_values(args, kwargs))

    def warmup(self, *args, **kwargs):
        """Compiles what run would launch (the rules applied), launching nothing."""
        return self.fn.warmup(*args, **self._with_values(args, kwargs))


def heuristics(values):
    """Triton's @heuristics: constexpr values computed from the arguments.
    `values` maps parameter names to rules, each a function of the launch's
    arguments by name (with the values of the rules before it) whose result
    is passed as that parameter.

        @tessera.heuristics({"BLOCK": lambda args: tessera.next_power_of_2(args["n"])})
        @tessera.jit
        def kernel(x_ptr, n, BLOCK: tl.constexpr): ...

    Returns a decorator that makes a Heuristics of a JITFunction (or of an
    Autotuner)."""
    def decorator(fn):
        return Heuristics(fn, fn.arg_names, values)
    return decorator
