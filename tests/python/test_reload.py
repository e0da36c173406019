"""A kernel's source is the one its function was made from (issue #52): it
is read at decoration, so editing the file changes nothing until the module
is reloaded (importlib.reload, IPython's autoreload), and then the reloaded
module's kernel compiles the new text."""

import importlib
import os
import sys
import time

import numpy as np

TEMPLATE = """import tessera
import tessera.language as tl


@tessera.jit
def k(o_ptr):
    tl.store(o_ptr, {expr})
"""


def _write(path, expr):
    with open(path, "w") as f:
        f.write(TEMPLATE.format(expr=expr))
    # A new mtime, as an editor's save gives (the same second would let
    # Python's bytecode cache and linecache take it for the old file).
    t = time.time() + 10 * len(expr)
    os.utime(path, (t, t))


def _run(kernel):
    o = np.zeros(1, np.int32)
    kernel[(1,)](o)
    return int(o[0])


def test_reload_compiles_the_new_text(cpu_target, tmp_path, monkeypatch):
    path = tmp_path / "reloaded_kernel.py"
    _write(path, "11")
    monkeypatch.syspath_prepend(str(tmp_path))
    sys.dont_write_bytecode, saved = True, sys.dont_write_bytecode
    try:
        import reloaded_kernel as m
        old = m.k
        assert _run(old) == 11
        key = old.cache_key
        _write(path, "22 + 0")
        assert _run(old) == 11  # the old function's text, still
        importlib.reload(m)
        assert m.k is not old
        assert _run(m.k) == 22
        assert m.k.cache_key != key
        assert "22 + 0" in m.k.src
        assert _run(old) == 11
    finally:
        sys.dont_write_bytecode = saved
        sys.modules.pop("reloaded_kernel", None)


def test_source_is_read_at_decoration(cpu_target, tmp_path, monkeypatch):
    path = tmp_path / "edited_kernel.py"
    _write(path, "5")
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        import edited_kernel as m
        _write(path, "6 + 0")  # edited before the first launch, not reloaded
        assert _run(m.k) == 5
        assert "6 + 0" not in m.k.src
    finally:
        sys.modules.pop("edited_kernel", None)
