"""Triton's runtime hooks (triton.knobs.runtime and knobs.compilation.listener)
called by Tessera's launches and compiles under tessera.compat:

    launch_enter_hook, launch_exit_hook   each launch, with its LazyDict of metadata
                                          ("name", "function", "stream", and what the
                                          kernel's launch_metadata adds when asked)
    jit_cache_hook                        before a compile; True declines it (warmup gives None)
    jit_post_compile_hook                 after a compile
    kernel_load_start_hook, _end_hook     around a compile (Tessera loads as it compiles)
    compilation.listener                  after a compile, with its times and cache_hit

While none is set, launches keep the fast lane: the launch hook is in place
only while a launch hook is. add_stages_inspection_hook changes Triton's
MLIR pipeline, which Tessera does not have: setting it is an error.

Layer 4, api (python/tessera/__init__.py lists the layers)."""

import dataclasses
import importlib
import json
import time
import typing

_jit = importlib.import_module("tessera.jit")  # the module: tessera.jit is also the decorator

F = typing.TypeVar("F", bound=typing.Callable)
KernelAttr = typing.List[typing.Union[str, int]]  # [attribute name, value]


class LazyDict:
    """A dict whose extra entries come from functions called on first read
    (Triton's, which launch hooks receive)."""

    def __init__(self, data):
        self.data = data
        self.extras = []

    def get(self):
        for fn, args in self.extras:
            self.data.update(fn(*args))
        self.extras.clear()
        return self.data

    def add(self, fn, args):
        self.extras.append((fn, args))


class HookChain(typing.Generic[F]):
    """Hooks of one kind called in order (reversed=True: last added first)."""

    def __init__(self, reversed=False, on_change=None):
        self.calls = []
        self.reversed = reversed
        self._on_change = on_change

    def add(self, func):
        if func not in self.calls:
            self.calls.append(func)
        if self._on_change:
            self._on_change()

    def remove(self, func):
        if func in self.calls:
            self.calls.remove(func)
        if self._on_change:
            self._on_change()

    def __call__(self, *args, **kwargs):
        for call in (reversed(self.calls) if self.reversed else self.calls):
            call(*args, **kwargs)


class LaunchHook(typing.Protocol):
    def __call__(self, metadata: LazyDict) -> None: ...


class InitHandleHook(typing.Protocol):
    def __call__(self, module, function, name: str, metadata_group: dict, hash: str) -> None: ...


class JITHook(typing.Protocol):
    def __call__(self, *, key, repr: str, fn, compile: dict, is_manual_warmup: bool,
                 already_compiled: bool) -> typing.Optional[bool]: ...


class PipelineStagesHook(typing.Protocol):
    def __call__(self, stages, options, language, capability): ...


class CompilationListener(typing.Protocol):
    def __call__(self, *, src, metadata: dict, metadata_group: dict, times, cache_hit: bool) -> None: ...


class JITHookCompileInfo(typing.TypedDict):
    key: str
    signature: dict
    device: int
    constants: None
    num_warps: int
    num_ctas: int
    num_stages: int
    enable_fp_fusion: bool
    launch_cooperative_grid: bool
    extern_libs: tuple
    configs: list
    specialization_data: str
    is_warmup: bool


@dataclasses.dataclass(frozen=True)
class CompileTimes:
    """A compile's times in microseconds (Tessera's compile is one stage)."""
    ir_initialization: int
    lowering_stages: list
    store_results: int

    @property
    def total_lowering(self):
        return sum(stage[1] for stage in self.lowering_stages)

    @property
    def total(self):
        return self.ir_initialization + self.total_lowering + self.store_results


class JitFunctionInfo:
    """What a jit hook is told of the function: its module, name and object."""

    def __init__(self, module, name, jit_function):
        self.module, self.name, self.jit_function = module, name, jit_function


def serialize_specialization_data(name, signature, constants, attrs, options, key):
    """A compile's specialization as JSON text (what jit hooks receive)."""
    def plain(value):
        return value if isinstance(value, (int, float, str, bool, type(None))) else repr(value)
    return json.dumps({"name": name, "signature": {getattr(k, "name", k): plain(v) for k, v in signature.items()},
                       "constant_keys": [list(k) if isinstance(k, tuple) else k for k in constants],
                       "constant_vals": [plain(v) for v in constants.values()],
                       "attrs_keys": [list(k) if isinstance(k, tuple) else k for k in attrs],
                       "attrs_vals": [plain(v) for v in attrs.values()],
                       "options": {k: plain(v) for k, v in options.items()}, "key": repr(key)})


# ---- launches


def _launch_hooks(runtime):
    return runtime.launch_enter_hook, runtime.launch_exit_hook


def _active(hook):
    return bool(hook.calls) if isinstance(hook, HookChain) else hook is not None


def _launch(runtime):
    def hook(fn, grid, args, kwargs, options, run):
        enter, leave = _launch_hooks(runtime)
        kernel = fn.warmup(*args, grid=grid, **options, **kwargs)
        metadata = LazyDict({"name": getattr(kernel, "name", fn.__name__), "function": kernel,
                             "stream": _stream()})
        if fn.launch_metadata is not None:
            bound = dict(fn.bind(args, {k: v for k, v in kwargs.items() if k in fn.arg_names}))
            resolved = grid(bound) if callable(grid) else grid
            metadata.add(fn.launch_metadata, (tuple(resolved), getattr(kernel, "metadata", kernel), bound))
        if _active(enter):
            enter(metadata)
        result = run(*args, grid=grid, **options, **kwargs)
        if _active(leave):
            leave(metadata)
        return result
    return hook


def _stream():
    from ..runtime import driver
    try:
        return driver.active.get_current_stream()
    except Exception:  # a target without streams (the host)
        return 0


# ---- compiles


class _CompileObserver:
    def __init__(self, runtime, compilation):
        self.runtime, self.compilation = runtime, compilation
        self.started = {}

    def _told(self, fn, key, bound, signature, constexprs, options, warmup):
        params = fn.params
        sig = {p: signature[i] if i < len(signature) else "constexpr" for i, p in enumerate(params)}
        constants = {(i,): value for i, (name, value) in enumerate(bound.items()) if name in dict(constexprs)}
        opts = dict(num_warps=options["num_warps"] or 4, num_ctas=1, num_stages=options["num_stages"] or 3,
                    enable_fp_fusion=options["enable_fp_fusion"], launch_cooperative_grid=False, extern_libs=())
        arg_reprs = ", ".join("%s: %s" % (p.name, t) for p, t in sig.items())
        text = "%s[num_warps=%d, num_ctas=1, num_stages=%d, enable_fp_fusion=%s, launch_cooperative_grid=False](%s)" \
            % (fn.fn.__qualname__, opts["num_warps"], opts["num_stages"], opts["enable_fp_fusion"], arg_reprs)
        compile_info = dict(key=key, signature=sig, device=options["device"], constants=constants,
                            configs=[{}], is_warmup=warmup,
                            specialization_data=serialize_specialization_data(
                                "%s.%s" % (fn.fn.__module__, fn.fn.__qualname__), sig, constants, {}, opts, key), **opts)
        compile_info["key"] = key = fn._triton_key(key)  # Triton's text key, as device_caches holds kernels by
        return dict(key=key, repr=text, fn=JitFunctionInfo(fn.fn.__module__, fn.fn.__qualname__, fn),
                    compile=compile_info, is_manual_warmup=warmup)

    def before(self, fn, key, bound, signature, constexprs, options, warmup):
        told = self._told(fn, key, bound, signature, constexprs, options, warmup)
        hook = self.runtime.jit_cache_hook
        if hook is not None and hook(already_compiled=False, **told):
            return True
        self.started[key] = (time.perf_counter(), told)  # after() reuses what the hooks were told
        if _active(self.runtime.kernel_load_start_hook):
            self.runtime.kernel_load_start_hook(None, None, fn.__name__, {}, str(hash(key)))
        return False

    def after(self, fn, key, bound, signature, constexprs, options, warmup):
        began, told = self.started.pop(key)
        elapsed_us = int((time.perf_counter() - began) * 1e6)
        kernel = fn.cache.get(key)
        if _active(self.runtime.kernel_load_end_hook):
            self.runtime.kernel_load_end_hook(kernel, kernel, getattr(kernel, "name", fn.__name__), {}, str(hash(key)))
        hook = self.runtime.jit_post_compile_hook
        if hook is not None:
            hook(already_compiled=True, **told)
        listener = self.compilation.listener
        if listener is not None:
            metadata = {"name": getattr(kernel, "name", fn.__name__), "num_warps": options["num_warps"],
                        "num_stages": options["num_stages"], "target": options["target"]}
            listener(src=fn, metadata=metadata, metadata_group={}, cache_hit=bool(getattr(kernel, "from_cache", False)),
                     times=CompileTimes(ir_initialization=0, lowering_stages=[("tessera", elapsed_us)],
                                        store_results=0))


def sync(runtime, compilation):
    """Puts Tessera's launch hook and compile observer in place while a
    Triton hook needs them, and takes them away when none does."""
    launch = getattr(runtime, "_tessera_launch_hook", None)
    if launch is None:
        launch = runtime._tessera_launch_hook = _launch(runtime)
    if any(_active(h) for h in _launch_hooks(runtime)):
        _jit.add_launch_hook(launch)
    else:
        _jit.remove_launch_hook(launch)
    wanted = (runtime.jit_cache_hook is not None or runtime.jit_post_compile_hook is not None
              or compilation.listener is not None or _active(runtime.kernel_load_start_hook)
              or _active(runtime.kernel_load_end_hook))
    current = _jit.compile_observer
    if wanted and not isinstance(current, _CompileObserver):
        _jit.compile_observer = _CompileObserver(runtime, compilation)
    elif not wanted and isinstance(current, _CompileObserver):
        _jit.compile_observer = None
