"""Writes docs/language-reference.md from the compiler itself: every name of
tessera.language (tl), tl.math and libdevice, with its parameters as the
frontend states them (a call with an unknown keyword makes a C++ builtin name
its parameters; the functions written in the language take theirs from
frontend/prelude.py), and its semantics from tools/language_semantics.py (a
function without an entry there, or an entry without a function, stops both
the rewrite and the check).

    python tools/language_reference.py           # rewrite the page (measures every row: ~20 s)
    python tools/language_reference.py --check   # exit 1 if the page is stale

tests/python/test_language_reference.py runs the check in CI.
"""

import ast
import concurrent.futures
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAGE = os.path.join(ROOT, "docs", "language-reference.md")
sys.path.insert(0, os.path.join(ROOT, "python"))

import tessera.language as tl  # noqa: E402
from tessera import _C  # noqa: E402
from tessera.language import math as tl_math  # noqa: E402
from tessera.language.extra import libdevice  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import generated_page  # noqa: E402
import language_probes as probes  # noqa: E402
import language_semantics as semantics  # noqa: E402


def _prelude_signatures(file="prelude.py", prefix=""):
    """name -> "(a, b=1)" for the functions a file of the prelude defines
    (frontend/libdevice.py's libdevice_<name> with prefix "libdevice_")."""
    tree = ast.parse(open(os.path.join(ROOT, "frontend", file)).read())
    out = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and not node.name.startswith("_") and node.name.startswith(prefix):
            args = node.args
            defaults = [None] * (len(args.args) - len(args.defaults)) + list(args.defaults)
            parts = [a.arg + ("" if d is None else "=" + ast.unparse(d)) for a, d in zip(args.args, defaults)]
            out[node.name[len(prefix):]] = "(" + ", ".join(parts) + ")"
    return out


def _probe(callee):
    """The parameters the compiler names for `callee` (e.g. "tl.dot"), or None
    when it does not name them."""
    src = "import tessera.language as tl\nfrom tessera.language.extra import libdevice\n\n" \
          "def k(x):\n    y = %s(__no_such_parameter__=1)\n" % callee
    try:
        _C.compile(src, "k", ["*fp32"], [], "cpu")
    except _C.CompilationError as e:
        m = re.search(r"unexpected keyword argument '__no_such_parameter__' \((its parameters: (.*)|it takes no "
                      r"arguments)\)", str(e))
        if m:
            return "(" + (m.group(2) or "") + ")"
    return None


PROBE_KERNEL = ("import tessera.language as tl\nfrom tessera.language.extra import libdevice\n\n"
                "def larger(a, b):\n    return tl.maximum(a, b)\n\n"
                "def k(x, y):\n    r = tl.arange(0, 16)\n    v = tl.load(x + r)\n    %s\n")


def _compiles(body, dtype, target):
    try:
        _C.compile_binary(PROBE_KERNEL % body, "k", ["*" + dtype, "*" + dtype], [], target=target)
        return True
    except _C.TesseraError:
        return False


def measure(key):
    """(dtypes, targets) cells of row `key` ("tl.exp", "libdevice.sinpi"):
    the dtypes its probe compiles with on the cpu target, and the targets
    that compile it at the first of them."""
    space, name = key.split(".", 1)
    body = probes.TL.get(name) if space == "tl" else probes.libdevice_probe(name)
    if body is None:
        return "—", "—"
    body = body.replace("{f}", key)
    for home in ("cpu", "nvptx"):
        dtypes = [d for d in probes.DTYPES if _compiles(body, d, home)]
        if dtypes:
            break
    if not dtypes:
        return "none", "none"
    at = next(d for d in ("fp32", "i32", dtypes[0]) if d in dtypes)
    targets = [t for t in probes.TARGETS if t == home or (_C.target_available(t) and _compiles(body, at, t))]
    return " ".join(dtypes), "all" if targets == probes.TARGETS else " ".join(targets)


class SemanticsMismatch(Exception):
    """tools/language_semantics.py and the page's functions disagree."""


def documented():
    """The page's function sections (as language_semantics.SECTIONS names
    them) and the names each lists."""
    return {"tl": sorted(tl._BUILTINS), "tl.math": sorted(tl_math.__all__), "libdevice": sorted(libdevice.__all__)}


def semantics_problems(sections=None, entries=None):
    """What keeps the semantics column from matching the page: a documented
    function without an entry, an entry naming no function of its section,
    or text a table cell cannot hold. Empty when they agree."""
    sections = sections if sections is not None else documented()
    entries = entries if entries is not None else semantics.SECTIONS
    problems = []
    for section in sorted(set(sections) | set(entries)):
        names, texts = set(sections.get(section, ())), entries.get(section, {})
        problems += ["%s.%s has no semantics entry" % (section, n) for n in sorted(names - set(texts))]
        problems += ["the semantics entry %s.%s names no function of the page" % (section, n)
                     for n in sorted(set(texts) - names)]
        problems += ["the semantics entry %s.%s is empty or spans lines" % (section, n)
                     for n, text in sorted(texts.items()) if not text.strip() or "\n" in text]
    return problems


def _cell(text):
    return text.replace("|", "\\|")


def _rows(names, callee, prelude, cells, texts):
    rows = []
    for name in names:
        signature = prelude.get(name) or _probe(callee % name) or "(...)"
        key = ("libdevice." if callee.startswith("libdevice") else "tl.") + name
        dtypes, targets = cells[key]
        rows.append("| `%s%s` | %s | %s | %s |" % (name, signature, dtypes, targets, _cell(texts[name])))
    return rows


HEADER = ["| function | dtypes | targets | semantics |", "| --- | --- | --- | --- |"]


def keys():
    """Every measured row: tl.<name> (tl.math's are tl's) and libdevice.<name>."""
    return ["tl." + n for n in sorted(set(tl._BUILTINS) | set(tl_math.__all__))] + \
        ["libdevice." + n for n in sorted(libdevice.__all__)]


def measure_all(rows=None):
    with concurrent.futures.ThreadPoolExecutor(max(2, os.cpu_count() or 2)) as pool:
        rows = rows or keys()
        return dict(zip(rows, pool.map(measure, rows)))


def _resolves_in_kernels(name):
    """Whether a kernel may name tl.<name> (some of tl's names are for host
    code only: differences-from-triton.md lists them)."""
    try:
        _C.compile("import tessera.language as tl\n\ndef k(x):\n    f = tl.%s\n" % name, "k", ["*fp32"], {}, "cpu")
    except _C.CompilationError as e:
        return "has no attribute" not in str(e)
    return True


def generate(cells=None):
    """The page; `cells` (by row key) instead of measuring them anew. Raises
    SemanticsMismatch when tools/language_semantics.py disagrees with it."""
    problems = semantics_problems()
    if problems:
        raise SemanticsMismatch("tools/language_semantics.py disagrees with the page's functions:\n  " +
                                "\n  ".join(problems))
    cells = cells if cells is not None else measure_all()
    prelude = _prelude_signatures()
    names = [n for n in tl.__all__ if _resolves_in_kernels(n)]
    dtypes = [n for n in names if isinstance(getattr(tl, n), tl.dtype)]
    builtins = sorted(n for n in tl._BUILTINS)
    others = sorted(n for n in names if n not in dtypes and n not in builtins)
    lines = [
        "# Tessera language reference",
        "",
        "Generated by `python tools/language_reference.py` from the compiler (do not edit by hand;",
        "`tests/python/test_language_reference.py` fails when this page and the compiler disagree).",
        "Every name here resolves in kernels (`tests/python/test_language_names.py`); what Triton 3.6",
        "has and Tessera does not is in [differences-from-triton.md](differences-from-triton.md).",
        "Parameters are as the frontend takes them, positionally or by keyword;",
        "`(...)` marks a function whose parameters vary (Python-style overloads).",
        "The dtypes and targets are measured: a probe kernel per function (`tools/language_probes.py`)",
        "compiled with its input of each dtype (%s) on the cpu target, and at" % ", ".join(probes.DTYPES),
        "fp32 (else i32, else the first that compiles) for each target (%s; `all`: every one)." % ", ".join(probes.TARGETS),
        "The semantics are what each function computes in Tessera, kept in `tools/language_semantics.py` (checked",
        "against the frontend, the IR's contract in `ir/IR.h` and the targets; this page cannot be written or pass",
        "its check while a function lacks an entry there or an entry names no function). Rules they all share:",
        "",
    ]
    lines += ["- " + rule for rule in semantics.COMMON]
    lines += ["", "## Functions (`tl.*`, %d)" % len(builtins), ""] + HEADER
    lines += _rows(builtins, "tl.%s", prelude, cells, semantics.TL)
    lines += ["", "## `tl.math` (%d)" % len(tl_math.__all__), ""] + HEADER
    lines += _rows(sorted(tl_math.__all__), "tl.math.%s", prelude, cells, semantics.MATH)
    lines += ["", "## `libdevice` (`tl.extra.libdevice`, %d)" % len(libdevice.__all__), ""] + HEADER
    lines += _rows(sorted(libdevice.__all__), "libdevice.%s", _prelude_signatures("libdevice.py", "libdevice_"), cells,
                   semantics.LIBDEVICE)
    lines += ["", "## Types (%d)" % len(dtypes), "", "| dtype | signature name | bits |", "| --- | --- | --- |"]
    for n in dtypes:
        d = getattr(tl, n)
        lines.append("| `tl.%s` | `%s` | %d |" % (n, d.short if not d.is_ptr() else "*" + d.element_ty.short,
                                                   d.primitive_bitwidth))
    lines += ["", "## Other names (%d)" % len(others), "", ", ".join("`%s`" % n for n in others), ""]
    return "\n".join(lines)


def main(argv):
    try:
        text = generate()
    except SemanticsMismatch as e:
        print(e, file=sys.stderr)
        return 1
    return generated_page.write_or_check(PAGE, text, argv, "tools/language_reference.py")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
