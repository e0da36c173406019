"""tessera.profiler: Triton's proton API (``import triton.profiler as
proton``) over Tessera's launches.

    session = proton.start("matmul", hook="triton")   # writes matmul.hatchet at finalize
    with proton.scope("cuBLAS", {"flops16": 2.0 * M * N * K}):
        ...
    proton.deactivate(session); proton.activate(session)
    proton.finalize()

What is measured: each scope's device time, from CUDA events recorded on
torch's current stream at its entry and exit (wall-clock time where the
work runs on the host), summed over its calls, with the metrics it was
given summed alike; and each Tessera kernel launch made while a session is
active, as a child of the innermost scope, named by its kernel, or with
hook="triton" by the kernel's ``launch_metadata`` (``@jit(launch_metadata=
fn)``: fn(grid, kernel, args) -> {"name": ..., "flops16": ..., "bytes":
...}). Unlike proton, kernels that are not Tessera's (cuBLAS, torch) are
not listed one by one: their time is their scope's.
The file is JSON in hatchet's shape (a tree of frames with "metrics" and
"children"); tessera.profiler.viewer reads it.

Layer 3, launch (python/tessera/__init__.py lists the layers).
"""
import contextlib
import importlib
import json
import time

from .. import _targets

# The module, not the function `tessera.jit` that shadows its name.
_jit = importlib.import_module("tessera.jit")

__all__ = ["start", "activate", "deactivate", "finalize", "scope", "enter_scope", "exit_scope"]

TIME = "time (ns)"
COUNT = "count"


class _Node:
    __slots__ = ("name", "metrics", "children")

    def __init__(self, name):
        self.name, self.metrics, self.children = name, {}, {}

    def child(self, name):
        node = self.children.get(name)
        if node is None:
            node = self.children[name] = _Node(name)
        return node

    def add(self, metrics):
        for key, value in metrics.items():
            self.metrics[key] = self.metrics.get(key, 0) + value

    def to_json(self):
        return {"frame": {"name": self.name, "type": "function"}, "metrics": dict(self.metrics),
                "children": [c.to_json() for c in self.children.values()]}


class _Clock:
    """Spans of device time: CUDA events on torch's current stream when torch
    has a GPU (resolved in batches: the host never waits per span), else
    the wall clock."""

    _BATCH = 4096

    def __init__(self):
        from ..runtime import driver
        self.torch = driver._torch_cuda()
        self.pending = []  # (start event, end event, node, metrics)

    def begin(self, on_host=False):
        if self.torch is None or on_host:
            return time.perf_counter_ns()
        event = self.torch.cuda.Event(enable_timing=True)
        event.record()
        return event

    def end(self, begun, node, metrics):
        if isinstance(begun, int):
            node.add(dict(metrics, **{TIME: time.perf_counter_ns() - begun, COUNT: 1}))
            return
        event = self.torch.cuda.Event(enable_timing=True)
        event.record()
        self.pending.append((begun, event, node, metrics))
        if len(self.pending) >= self._BATCH:
            self.resolve()

    def resolve(self):
        if not self.pending:
            return
        self.pending[-1][1].synchronize()
        for start, end, node, metrics in self.pending:
            node.add(dict(metrics, **{TIME: start.elapsed_time(end) * 1e6, COUNT: 1}))
        self.pending = []


class _Session:
    def __init__(self, name, hook):
        self.name, self.hook = name, hook
        self.root = _Node("ROOT")
        self.active = True
        self.clock = _Clock()


_sessions = {}   # id -> _Session
_stack = []      # the open scopes: (name, metrics, {session id: (node, begun)})
_next_id = 0


def _active():
    return [(sid, s) for sid, s in _sessions.items() if s.active]


def _node_in(sid, session):
    """The innermost open scope's node in a session (the root if none)."""
    for _, _, opened in reversed(_stack):
        if sid in opened:
            return opened[sid][0]
    return session.root


def start(name=None, *, context="shadow", data="tree", backend=None, mode=None, hook=None):
    """Starts a session recording into `name`.hatchet (default "proton"),
    written at finalize(); hook="triton" records each kernel's
    launch_metadata. Returns the session's id. data must be "tree" and hook
    None or "triton" (ValueError otherwise); proton's context, backend and
    mode are accepted and change nothing."""
    global _next_id
    if hook not in (None, "triton"):
        raise ValueError("tessera.profiler.start: hook must be None or 'triton', not %r" % (hook,))
    if data != "tree":
        raise ValueError("tessera.profiler.start: only data='tree' is recorded, not %r" % (data,))
    sid = _next_id
    _next_id += 1
    _sessions[sid] = _Session(name or "proton", hook)
    _jit.add_launch_hook(_launch)
    return sid


def _each(session):
    if session is None:
        return list(_sessions.values())
    if session not in _sessions:
        raise ValueError("tessera.profiler: no session %r (started: %s)" % (session, sorted(_sessions)))
    return [_sessions[session]]


def activate(session=None):
    """Records again into `session` (None: every session)."""
    for s in _each(session):
        s.active = True


def deactivate(session=None, flushing=True):
    """Stops recording into `session` (None: every session) until activate()."""
    for s in _each(session):
        s.active = False
        s.clock.resolve()


def finalize(session=None, output_format="hatchet"):
    """Ends `session` (None: every session) and writes its file."""
    if output_format != "hatchet":
        raise ValueError("tessera.profiler.finalize writes hatchet files, not %r" % (output_format,))
    for sid in list(_sessions) if session is None else [session]:
        s = _each(sid)[0]
        s.clock.resolve()
        _total_children(s.root)
        with open(s.name + ".hatchet", "w") as f:
            json.dump([s.root.to_json(), {"tessera": True}], f)
        del _sessions[sid]
    if not _sessions:
        _jit.remove_launch_hook(_launch)


def _total_children(root):
    """The root's metrics: the sum of its children's (proton's inclusive
    totals)."""
    for child in root.children.values():
        root.add(child.metrics)


def enter_scope(name, *, triton_op=False, metrics=None):
    """Opens a scope named `name` in every active session, inside the
    innermost open one, with `metrics` (a dict) to add when it closes; what
    `with scope(name, metrics):` does on entry. triton_op changes nothing."""
    opened = {}
    for sid, s in _active():
        node = _node_in(sid, s).child(name)
        opened[sid] = (node, s.clock.begin())
    _stack.append((name, dict(metrics or {}), opened))


def exit_scope(name=None, **kwargs):
    """Closes the innermost open scope, adding its time and metrics; a
    RuntimeError when no scope is open or `name` is not the innermost
    one's."""
    if not _stack:
        raise RuntimeError("tessera.profiler.exit_scope without an open scope")
    scope_name, metrics, opened = _stack.pop()
    if name is not None and name != scope_name:
        raise RuntimeError("tessera.profiler.exit_scope(%r) while scope %r is open" % (name, scope_name))
    for sid, (node, begun) in opened.items():
        if sid in _sessions:
            _sessions[sid].clock.end(begun, node, metrics)


class scope(contextlib.ContextDecorator):
    """``with proton.scope(name, metrics):`` or ``@proton.scope(name)``:
    times what runs inside, adding `metrics` (e.g. {"flops16": ...,
    "bytes": ...}) once per call."""

    def __init__(self, name, metrics=None):
        self.name, self.metrics = name, metrics

    def __enter__(self):
        enter_scope(self.name, metrics=self.metrics)
        return self

    def __exit__(self, *exc):
        exit_scope(self.name)
        return False


def _launch(fn, grid, args, kwargs, options, run):
    """jit's launch hook: the launch as a child of the innermost scope of
    each active session."""
    active = _active()
    if not active:
        return run(*args, grid=grid, **options, **kwargs)
    # The kernel is compiled (or found) first, so that the span holds its
    # run on the device and not the compiler's time.
    kernel = fn.warmup(*args, grid=grid, **options, **kwargs)
    name, metrics = getattr(kernel, "name", fn.__name__), {}
    if fn.launch_metadata is not None and any(s.hook == "triton" for _, s in active):
        bound = dict(fn.bind(args, {k: v for k, v in kwargs.items() if k in fn.arg_names}))
        resolved = grid(bound) if callable(grid) else grid
        metrics = dict(fn.launch_metadata(tuple(resolved), kernel, bound) or {})
        name = metrics.pop("name", name)
    nodes = [(s, _node_in(sid, s).child(name)) for sid, s in active]
    target = getattr(getattr(kernel, "metadata", None), "target", None)
    on_host = target is not None and _targets.timer_of(target) == "host_clock"
    begun = [s.clock.begin(on_host) for s, _ in nodes]
    result = run(*args, grid=grid, **options, **kwargs)
    for (s, node), b in zip(nodes, begun):
        s.clock.end(b, node, metrics)
    return result
