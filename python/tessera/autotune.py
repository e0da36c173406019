"""Triton's autotune, Config and heuristics over JITFunction.

The autotuner really times every config (testing.do_bench) the first time it
sees a key and keeps the fastest; later calls with that key launch it directly.
"""

import builtins

from . import _C, testing
from .jit import JITFunction, KernelInterface


class Config:
    """Meta-parameters (constexpr values) plus launch options for one run."""

    def __init__(self, kwargs, num_warps=4, num_stages=3, num_ctas=1, maxnreg=None, pre_hook=None):
        self.kwargs = dict(kwargs)
        self.num_warps, self.num_stages, self.num_ctas = num_warps, num_stages, num_ctas
        self.maxnreg, self.pre_hook = maxnreg, pre_hook

    def all_kwargs(self):
        return {**self.kwargs, "num_warps": self.num_warps, "num_stages": self.num_stages}

    def __str__(self):
        parts = ["%s: %s" % (k, v) for k, v in self.kwargs.items()]
        parts += ["num_warps: %s" % self.num_warps, "num_stages: %s" % self.num_stages]
        return ", ".join(parts)

    __repr__ = __str__


class _Wrapper(KernelInterface):
    """Shared by Autotuner and Heuristics: the wrapped fn."""
    __tessera_wrapper__ = True

    @property
    def arg_names(self):
        return self.fn.arg_names

    def _base(self):
        fn = self.fn
        while not isinstance(fn, JITFunction):
            fn = fn.fn
        return fn


class Autotuner(_Wrapper):
    def __init__(self, fn, configs, key, prune_configs_by=None, reset_to_zero=None, restore_value=None,
                 pre_hook=None, post_hook=None, warmup=None, rep=None, do_bench=None):
        self.fn = fn
        self.configs = list(configs) or [Config({})]
        self.keys = list(key)
        self.reset_to_zero = list(reset_to_zero or [])
        self.restore_value = list(restore_value or [])
        self.pre_hook, self.post_hook = pre_hook, post_hook
        self.prune_configs_by = prune_configs_by or {}
        self.warmup = 25 if warmup is None else warmup
        self.rep = 100 if rep is None else rep
        self.do_bench = do_bench or (lambda f, quantiles: testing.do_bench(f, warmup=self.warmup, rep=self.rep,
                                                                            quantiles=quantiles))
        self.cache = {}
        self.best_config = None
        self.bench_times = {}    # config -> ms, from the last tuning

    def _key(self, bound):
        key = [bound[k] for k in self.keys if k in bound]
        key += [str(v.dtype) for v in bound.values() if hasattr(v, "dtype")]
        return tuple(key)

    def _pruned(self, bound):
        configs = self.configs
        early = self.prune_configs_by.get("early_config_prune")
        if early:
            configs = early(configs, bound)
        return configs

    def _bench(self, config, args, grid, kwargs, bound):
        saved = {n: bound[n].copy() for n in self.restore_value if hasattr(bound.get(n), "copy")}

        def call():
            for n in self.reset_to_zero:
                bound[n][...] = 0
            if config.pre_hook:
                config.pre_hook({**bound, **config.all_kwargs()})
            if self.pre_hook:
                self.pre_hook({**bound, **config.all_kwargs()})
            self.fn.run(*args, grid=grid, **config.all_kwargs(), **kwargs)
            if self.post_hook:
                self.post_hook({**bound, **config.all_kwargs()}, None)

        try:
            return self.do_bench(call, quantiles=(0.5, 0.2, 0.8))
        except _C.OutOfResources:
            # As Triton's: a configuration too big for the device is skipped
            # (if every one is, the launch with the "best" raises the error).
            return (float("inf"),) * 3
        finally:
            for n, v in saved.items():
                bound[n][...] = v

    def run(self, *args, grid, **kwargs):
        base = self._base()
        bound = base.signature.bind_partial(*args, **kwargs).arguments
        key = self._key(bound)
        if key not in self.cache:
            configs = self._pruned(bound)
            if len(configs) == 1:
                self.cache[key] = configs[0]
            else:
                timings = {c: self._bench(c, args, grid, kwargs, bound) for c in configs}
                self.bench_times = {c: (t[0] if isinstance(t, (list, tuple)) else t) for c, t in timings.items()}
                self.cache[key] = builtins.min(self.bench_times, key=self.bench_times.get)
        config = self.best_config = self.cache[key]
        if config.pre_hook:
            config.pre_hook({**bound, **config.all_kwargs()})
        return self.fn.run(*args, grid=grid, **config.all_kwargs(), **kwargs)


def autotune(configs, key, prune_configs_by=None, reset_to_zero=None, restore_value=None, pre_hook=None,
             post_hook=None, warmup=None, rep=None, use_cuda_graph=False, do_bench=None):
    """Triton's @autotune: picks the fastest of `configs` per value of `key`."""
    def decorator(fn):
        return Autotuner(fn, configs, key, prune_configs_by, reset_to_zero, restore_value, pre_hook, post_hook,
                         warmup, rep, do_bench)
    return decorator


class Heuristics(_Wrapper):
    def __init__(self, fn, values):
        self.fn, self.values = fn, dict(values)

    def run(self, *args, grid, **kwargs):
        bound = self._base().signature.bind_partial(*args, **kwargs).arguments
        meta = {**bound, **kwargs}
        for name, rule in self.values.items():
            kwargs[name] = rule(meta)
            meta[name] = kwargs[name]
        return self.fn.run(*args, grid=grid, **kwargs)


def heuristics(values):
    """Triton's @heuristics: constexpr values computed from the arguments."""
    def decorator(fn):
        return Heuristics(fn, values)
    return decorator
