#!/usr/bin/env python3
"""Triton's runtime surface, name by name, and what Tessera gives for each.

    python tools/triton_inventory.py --from-triton SITE/triton   # read Triton's sources: rewrite the inventory
    python tools/triton_inventory.py                             # rewrite docs/triton-api.md from it
    python tools/triton_inventory.py --check                     # exit 1 if the page is stale

The inventory (python/tessera/compat/triton_api.txt) lists, per module of
Triton's runtime surface, its public names: the module's `__all__` where it
has one, else every top-level definition, assignment and relative import
whose name does not start with "_". It is read from the sources of the
Triton release Tessera follows (3.6.0: `pip download triton==3.6.0`, unzip,
point --from-triton at its `triton` folder); nothing of Triton is imported.
tessera.compat answers each name: present, or an AttributeError that names
it as not provided (tests/python/test_triton_api.py checks both and the page).
"""

import argparse
import ast
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
INVENTORY = os.path.join(ROOT, "python", "tessera", "compat", "triton_api.txt")
PAGE = os.path.join(ROOT, "docs", "triton-api.md")

# Triton's runtime surface, as the surface issue names it.
MODULES = [
    "triton", "triton.errors", "triton.runtime", "triton.runtime.jit", "triton.runtime.autotuner",
    "triton.runtime.errors", "triton.runtime.cache", "triton.runtime.driver", "triton.runtime.interpreter",
    "triton.compiler", "triton.compiler.compiler", "triton.compiler.errors", "triton.backends",
    "triton.backends.compiler", "triton.testing", "triton.knobs", "triton.tools", "triton.tools.tensor_descriptor",
    "triton.language", "triton.language.core", "triton.language.standard", "triton.language.semantic",
    "triton.language.math", "triton.language.random", "triton.language.extra", "triton.language.extra.libdevice",
    "triton.language.extra.cuda", "triton.language.extra.cuda.libdevice", "triton.language.extra.hip",
]


def _source_path(triton_dir, module):
    parts = module.split(".")[1:]
    base = os.path.join(triton_dir, *parts)
    return os.path.join(base, "__init__.py") if os.path.isdir(base) else base + ".py"


def public_names(path):
    """A module's public names, read from its source."""
    with open(path) as f:
        tree = ast.parse(f.read(), path)
    names, declared = [], None
    for node in tree.body:
        targets = []
        if isinstance(node, ast.Assign):
            targets = [t.id for t in node.targets if isinstance(t, ast.Name)]
            if "__all__" in targets and isinstance(node.value, (ast.List, ast.Tuple)):
                declared = [e.value for e in node.value.elts if isinstance(e, ast.Constant)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            targets = [node.target.id]
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            targets = [node.name]
        elif isinstance(node, ast.ImportFrom) and node.level:
            targets = [a.asname or a.name for a in node.names if a.name != "*"]
        names += targets
    if declared is not None:
        return list(dict.fromkeys(declared))
    return [n for n in dict.fromkeys(names) if not n.startswith("_")]


def read_triton(triton_dir):
    version = "?"
    init = os.path.join(triton_dir, "__init__.py")
    for line in open(init):
        if line.startswith("__version__"):
            version = ast.literal_eval(line.split("=", 1)[1].strip())
    rows = []
    for module in MODULES:
        path = _source_path(triton_dir, module)
        if not os.path.exists(path):
            raise SystemExit("no %s in %s (%s)" % (module, triton_dir, path))
        rows += [(module, name) for name in public_names(path)]
    return version, rows


def read_inventory(path=INVENTORY):
    """(Triton's version, [(module, name)])."""
    version, rows = "?", []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line.startswith("# triton "):
                version = line.split()[2]
            elif line and not line.startswith("#"):
                module, name = line.split()
                rows.append((module, name))
    return version, rows


def write_inventory(version, rows, path=INVENTORY):
    with open(path, "w") as f:
        f.write("# The public names of Triton's runtime surface, per module (tools/triton_inventory.py --from-triton).\n")
        f.write("# triton %s\n" % version)
        for module, name in rows:
            f.write("%s %s\n" % (module, name))


def status(module, name):
    """"present", or "not provided" with the error's words."""
    import importlib
    try:
        m = importlib.import_module(module)
    except ImportError as e:
        return "module not provided: %s" % e
    try:
        getattr(m, name)
        return "present"
    except AttributeError as e:
        return "not provided" if "not provided" in str(e) else "missing: %s" % e


def page():
    sys.path.insert(0, os.path.join(ROOT, "python"))
    import tessera.compat
    tessera.compat.install(replace=True)
    version, rows = read_inventory()
    by_module = {}
    for module, name in rows:
        by_module.setdefault(module, []).append((name, status(module, name)))
    present = sum(s == "present" for names in by_module.values() for _, s in names)
    out = ["# Triton's runtime surface under tessera.compat",
           "",
           "Generated by `tools/triton_inventory.py` from `python/tessera/compat/triton_api.txt`, the public names",
           "of Triton %s's runtime modules read from its sources. Under `tessera.compat` (`import triton` is" % version,
           "Tessera), each name is present or raises an `AttributeError` that names it as not provided.",
           "",
           "**%d of %d names present (%.1f%%).**" % (present, len(rows), 100.0 * present / max(1, len(rows))),
           "",
           "| module | present | not provided |",
           "| --- | --- | --- |"]
    for module, names in by_module.items():
        have = [n for n, s in names if s == "present"]
        lack = [n for n, s in names if s != "present"]
        out.append("| `%s` | %d of %d | %s |" % (module, len(have), len(names),
                                                  ", ".join("`%s`" % n for n in lack) or "none"))
    return "\n".join(out) + "\n"


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--from-triton", metavar="DIR", help="Triton's package folder (its triton/) to read the names from")
    p.add_argument("--check", action="store_true", help="exit 1 when docs/triton-api.md is stale")
    a = p.parse_args(argv)
    if a.from_triton:
        version, rows = read_triton(a.from_triton)
        write_inventory(version, rows)
        print("%s: %d names of triton %s" % (INVENTORY, len(rows), version))
        return 0
    text = page()
    current = open(PAGE).read() if os.path.exists(PAGE) else ""
    if a.check:
        if current != text:
            print("%s is stale: run python tools/triton_inventory.py" % PAGE)
            return 1
        return 0
    with open(PAGE, "w") as f:
        f.write(text)
    print(text.splitlines()[6])
    return 0


if __name__ == "__main__":
    sys.exit(main())
