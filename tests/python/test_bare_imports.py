"""Language functions reach kernels however Triton code names them: as
module attributes (tl.x, tl.math.x, libdevice.x), and as bare names imported
from those modules under any alias (`from ...libdevice import tanh`,
`from tessera.language import load as ld`), with module-level constants
imported from another module. Rebinding such a name recompiles."""
import importlib
import sys
import textwrap

import numpy as np

import tessera
import tessera.language as tl
from tessera.language import arange as iota, load as ld, store
from tessera.language.extra.cuda.libdevice import floor as cuda_floor
from tessera.language.extra.libdevice import exp as accurate_exp, tanh
from tessera.language.math import rsqrt


@tessera.jit
def _bare_names(x, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + iota(0, BLOCK)
    m = offs < n
    v = ld(x + offs, mask=m, other=1.0)
    store(out + offs, tanh(v) + accurate_exp(v) + rsqrt(v) + cuda_floor(v), mask=m)


def test_functions_imported_by_name_and_alias(cpu_target):
    rng = np.random.default_rng(11)
    x = rng.uniform(0.5, 3.0, 777).astype(np.float32)
    out = np.full_like(x, np.nan)
    _bare_names[(tessera.cdiv(x.size, 128),)](x, out, x.size, BLOCK=128)
    x64 = x.astype(np.float64)
    np.testing.assert_allclose(out, np.tanh(x64) + np.exp(x64) + 1 / np.sqrt(x64) + np.floor(x64), rtol=2e-6)


def test_constants_and_functions_from_another_module(cpu_target, tmp_path, monkeypatch):
    (tmp_path / "lib_consts.py").write_text(textwrap.dedent("""
        import tessera.language as tl
        BLOCK = tl.constexpr(64)
        SCALE = 3.0
    """))
    (tmp_path / "lib_kernel.py").write_text(textwrap.dedent("""
        import tessera
        import tessera.language as tl
        from tessera.language.extra.libdevice import log1p as l1p
        from lib_consts import BLOCK, SCALE

        @tessera.jit
        def kernel(x, out, n):
            offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
            m = offs < n
            tl.store(out + offs, l1p(tl.load(x + offs, mask=m)) * SCALE, mask=m)
    """))
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module("lib_kernel")
    try:
        x = np.linspace(0, 5, 300, dtype=np.float32)
        out = np.full_like(x, np.nan)
        module.kernel[(tessera.cdiv(x.size, 64),)](x, out, x.size)
        np.testing.assert_allclose(out, np.log1p(x.astype(np.float64)) * 3.0, rtol=2e-6)
    finally:
        for name in ("lib_kernel", "lib_consts"):
            sys.modules.pop(name, None)


def test_rebinding_a_function_name_recompiles(cpu_target):
    from tessera.language.extra import libdevice
    holder = {"f": libdevice.tanh}

    def make():
        f = holder["f"]

        @tessera.jit
        def k(x, out):
            r = tl.arange(0, 16)
            tl.store(out + r, f(tl.load(x + r)))
        return k

    x = np.linspace(-1, 1, 16, dtype=np.float32)
    out = np.full_like(x, np.nan)
    k = make()
    k[(1,)](x, out)
    np.testing.assert_allclose(out, np.tanh(x), rtol=1e-6)
    holder["f"] = libdevice.sinh
    k2 = make()
    k2[(1,)](x, out)
    np.testing.assert_allclose(out, np.sinh(x), rtol=1e-6)


_FN = tanh


@tessera.jit
def _through_global(x, out):
    r = tl.arange(0, 16)
    tl.store(out + r, _FN(tl.load(x + r)))


def test_a_rebound_global_function_is_noticed(cpu_target):
    global _FN
    x = np.linspace(-1, 1, 16, dtype=np.float32)
    out = np.full_like(x, np.nan)
    try:
        _through_global[(1,)](x, out)
        np.testing.assert_allclose(out, np.tanh(x), rtol=1e-6)
        from tessera.language.extra.libdevice import atan
        _FN = atan
        _through_global[(1,)](x, out)
        np.testing.assert_allclose(out, np.arctan(x), rtol=1e-6)
    finally:
        _FN = tanh
