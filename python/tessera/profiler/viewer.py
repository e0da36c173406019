"""tessera.profiler.viewer: reads what tessera.profiler wrote, as proton's
viewer (``parse(metric_names, file) -> (tree, metrics)``,
``print_tree(tree, metrics)``).

Metrics are derived from each frame's recorded "time (ns)", "count",
"bytes" and "flops<bits>": time/s, time/ms, time/us, time/ns, count,
gbyte/s, tbyte/s, and gflop/s, tflop/s (all flops) or gflop<bits>/s,
tflop<bits>/s.

Layer 3, launch (python/tessera/__init__.py lists the layers).
"""
import json
import re
import sys

from . import COUNT, TIME

_TIME_UNITS = {"time/s": 1e9, "time/ms": 1e6, "time/us": 1e3, "time/ns": 1.0}
_RATE = re.compile(r"^(g|t)(flop(\d*)|byte)/s$")


class Frame:
    """One node of the profile: its name, recorded metrics and children."""

    def __init__(self, name, metrics, children):
        self.name, self.metrics, self.children = name, metrics, children

    def derived(self, metric):
        m = self.metrics
        if metric in _TIME_UNITS:
            return m.get(TIME, 0.0) / _TIME_UNITS[metric]
        if metric == COUNT:
            return m.get(COUNT, 0)
        rate = _RATE.match(metric)
        if rate is None:
            raise ValueError("unknown metric %r: known are %s, count, g/tbyte/s, g/tflop/s and g/tflop<bits>/s"
                             % (metric, ", ".join(_TIME_UNITS)))
        scale = 1e9 if rate.group(1) == "g" else 1e12
        if rate.group(2) == "byte":
            amount = m.get("bytes", 0.0)
        elif rate.group(3):
            amount = m.get("flops" + rate.group(3), 0.0)
        else:
            amount = sum(v for k, v in m.items() if re.fullmatch(r"flops\d*", k))
        seconds = m.get(TIME, 0.0) / 1e9
        return amount / seconds / scale if seconds > 0 else 0.0


def _frame(node):
    return Frame(node["frame"]["name"], node.get("metrics", {}), [_frame(c) for c in node.get("children", [])])


def parse(metric_names, filename, include=None, exclude=None, threshold=None):
    """The profile in `filename` and the metrics to show: (tree, metrics).
    include / exclude: regular expressions on frame names; threshold: the
    least share of the root's first metric a frame must have to be kept."""
    with open(filename) as f:
        data = json.load(f)
    root = _frame(data[0] if isinstance(data, list) else data)
    metrics = list(metric_names)
    for metric in metrics:
        root.derived(metric)  # an unknown name fails here, not while printing
    if include or exclude or threshold:
        keep = _filter(re.compile(include) if include else None, re.compile(exclude) if exclude else None,
                       threshold * root.derived(metrics[0]) if threshold and metrics else None, metrics)
        root.children = [c for c in (keep(c) for c in root.children) if c is not None]
    return root, metrics


def _filter(include, exclude, least, metrics):
    def keep(frame):
        children = [c for c in (keep(c) for c in frame.children) if c is not None]
        if exclude is not None and exclude.search(frame.name):
            return None
        if least is not None and frame.derived(metrics[0]) < least:
            return None
        if include is not None and not include.search(frame.name) and not children:
            return None
        frame.children = children
        return frame
    return keep


def print_tree(tree, metrics, depth=100, format=None, print_sorted=False, file=None):
    """Prints the tree with each frame's metrics before its name (sorted by
    the first metric, largest first, when print_sorted)."""
    out = file or sys.stdout
    print("  ".join(metrics) + "  name", file=out)

    def show(frame, prefix, level):
        values = " ".join("%.3f" % frame.derived(m) for m in metrics)
        print("%s%s %s" % (prefix, values, frame.name), file=out)
        if level >= depth:
            return
        children = frame.children
        if print_sorted and metrics:
            children = sorted(children, key=lambda c: c.derived(metrics[0]), reverse=True)
        for i, child in enumerate(children):
            last = i == len(children) - 1
            show(child, prefix.replace("├─ ", "│  ").replace("└─ ", "   ") + ("└─ " if last else "├─ "), level + 1)
    show(tree, "", 0)
