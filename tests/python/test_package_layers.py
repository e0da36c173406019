"""The Python package's import graph: layers, and no circles.

Every module of python/tessera names its layer in its opening comment
("Layer N, name"); python/tessera/__init__.py lists the layers. An import
(at the top of a module or inside a function, or importlib.import_module of
a constant name) may reach its own layer or a lower one, and the graph of
all imports has no cycle.
"""

import ast
import os
import re

import pytest

PACKAGE = os.path.join(os.path.dirname(__file__), "..", "..", "python", "tessera")
LAYER_NAMES = {0: "binding", 1: "targets", 2: "compile", 3: "launch", 4: "api"}


def modules(root, package):
    """{dotted module name: path} of every .py file under `root`."""
    found = {}
    for directory, _, files in os.walk(root):
        for f in files:
            if not f.endswith(".py"):
                continue
            path = os.path.join(directory, f)
            parts = [package] + os.path.relpath(path, root)[:-3].split(os.sep)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _imported_names(module, path, node):
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    base = module if path.endswith("__init__.py") else module.rpartition(".")[0]
    if node.level:
        base = ".".join(base.split(".")[: len(base.split(".")) - (node.level - 1)])
        base = base + ("." + node.module if node.module else "")
    else:
        base = node.module
    # `from p import name`: the submodule p.name where there is one, else p.
    return [base + "." + a.name for a in node.names]


def import_graph(found):
    """{module: set of modules it imports}, within `found`."""
    graph = {}
    for module, path in found.items():
        with open(path) as f:
            tree = ast.parse(f.read(), path)
        targets = set()
        for node in ast.walk(tree):
            names = []
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names = _imported_names(module, path, node)
            elif (isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "import_module" and node.args
                  and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                names = [node.args[0].value]
            for name in names:
                while name and name not in found:
                    name = name.rpartition(".")[0]
                if name and name != module:
                    targets.add(name)
        graph[module] = targets
    return graph


def cycles(graph):
    """The strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def layer_of(path):
    with open(path) as f:
        doc = ast.get_docstring(ast.parse(f.read())) or ""
    m = re.search(r"\bLayer (\d), (\w+)", doc)
    return (int(m.group(1)), m.group(2)) if m else None


FOUND = modules(PACKAGE, "tessera")
GRAPH = import_graph(FOUND)


def test_the_package_has_no_import_cycle():
    assert cycles(GRAPH) == []


@pytest.mark.parametrize("module", sorted(FOUND))
def test_each_module_names_its_layer(module):
    layer = layer_of(FOUND[module])
    assert layer is not None, "%s's opening comment does not say 'Layer N, name'" % module
    assert LAYER_NAMES.get(layer[0]) == layer[1], "%s: layer %d is '%s'" % (module, layer[0],
                                                                           LAYER_NAMES.get(layer[0]))


def test_imports_go_to_the_same_layer_or_below():
    layers = {m: layer_of(p) for m, p in FOUND.items()}
    upward = ["%s (layer %d) imports %s (layer %d)" % (m, layers[m][0], t, layers[t][0])
              for m in sorted(GRAPH) for t in sorted(GRAPH[m])
              if layers[m] and layers[t] and layers[t][0] > layers[m][0]]
    assert upward == []


def test_the_checks_find_a_cycle_and_an_upward_import(tmp_path):
    # The checker itself, on a package made to break both rules.
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text('"""Layer 4, api."""\nfrom . import low\n')
    (pkg / "low.py").write_text('"""Layer 0, binding."""\ndef f():\n    from .sub import high\n')
    (pkg / "sub" / "__init__.py").write_text('"""Layer 3, launch."""\n')
    (pkg / "sub" / "high.py").write_text('"""Layer 3, launch."""\nimport importlib\n'
                                         'importlib.import_module("pkg.low")\n')
    found = modules(str(pkg), "pkg")
    graph = import_graph(found)
    assert graph["pkg.low"] == {"pkg.sub.high"} and graph["pkg.sub.high"] == {"pkg.low"}
    assert cycles(graph) == [["pkg.low", "pkg.sub.high"]]
    assert layer_of(found["pkg.low"]) == (0, "binding") and layer_of(found["pkg.sub.high"]) == (3, "launch")
