"""Kernels reach names through module variables as Python does: a library's
module of @jit helpers (`tle.program_id(0)`), its submodules, its
constants, language functions and modules it re-exports, its plain Python
functions (called while compiling, as Triton does), and modules such as
`math` for their constants; a rebound attribute recompiles."""

import importlib.util
import sys
import textwrap

import numpy as np
import pytest

import tessera

EXT = """
import tessera
import tessera.language as tl

@tessera.jit
def program_id(axis: tl.constexpr):
    return tl.program_id(axis).to(tl.int64)

@tessera.jit
def scaled(v, s):
    return v * s

arange = tl.arange
SCALE = 3.0
"""

SUB = """
import tessera

@tessera.jit
def twice(v):
    return v * 2


def padded(n):
    # A plain Python helper, not @jit: Triton calls it while compiling.
    return max(16, 1 << (n - 1).bit_length())
"""

PKG = """
from . import sub
import tessera.language as lang
import tessera.language.extra.libdevice
OFFSET = 0.5
"""

KERNELS = """
import math
import tessera
import tessera.language as tl
import ext_lang_{tag} as tle
import helpers_{tag}

@tessera.jit
def through_modules(x, y, n, BLOCK: tl.constexpr):
    offs = tle.program_id(0) * BLOCK + tle.arange(0, BLOCK)
    m = offs < n
    v = tle.scaled(tl.load(x + offs, mask=m), tle.SCALE) + helpers_{tag}.sub.twice(helpers_{tag}.OFFSET)
    tl.store(y + offs, helpers_{tag}.lang.extra.libdevice.exp(v * math.pi / 8), mask=m)

@tessera.jit
def unknown_attribute(y):
    tl.store(y, tle.no_such_helper(1.0))


@tessera.jit
def after_unicode(y):
    tl.static_print("é →", tle.SCALE)
    tl.store(y, tle.SCALE * 2)


@tessera.jit
def host_helper(y, N: tl.constexpr):
    offs = tl.arange(0, helpers_{tag}.sub.padded(N))
    tl.store(y + offs, offs.to(tl.float32))


@tessera.jit
def host_helper_on_a_tensor(y):
    tl.store(y, helpers_{tag}.sub.padded(tl.load(y)))


@tessera.jit
def python_builtins(y):
    log2e: tl.constexpr = math.log2(math.e)
    tl.store(y, log2e)


@tessera.jit
def python_builtin_on_a_tensor(y):
    tl.store(y, math.floor(tl.load(y)) + math.pi)
"""


@pytest.fixture
def modules(tmp_path, request):
    tag = request.node.name.replace("[", "_").replace("]", "").replace("-", "_")[-20:]
    (tmp_path / ("ext_lang_%s.py" % tag)).write_text(EXT)
    pkg = tmp_path / ("helpers_%s" % tag)
    pkg.mkdir()
    (pkg / "__init__.py").write_text(PKG)
    (pkg / "sub.py").write_text(SUB)
    (tmp_path / ("kernels_%s.py" % tag)).write_text(textwrap.dedent(KERNELS.format(tag=tag)))
    sys.path.insert(0, str(tmp_path))
    try:
        yield importlib.import_module("kernels_%s" % tag), importlib.import_module("ext_lang_%s" % tag)
    finally:
        sys.path.remove(str(tmp_path))


def _expected(x):
    return np.exp((x.astype(np.float64) * 3 + 1) * np.pi / 8)


def test_names_through_library_modules(modules):
    kernels, _ = modules
    x = np.random.default_rng(5).uniform(-1, 1, 300).astype(np.float32)
    y = np.full_like(x, np.nan)
    kernels.through_modules[(tessera.cdiv(300, 128),)](x, y, 300, BLOCK=128)
    np.testing.assert_allclose(y, _expected(x), rtol=2e-6)


def test_a_rebound_module_attribute_recompiles(modules):
    kernels, ext = modules
    x = np.random.default_rng(6).uniform(-1, 1, 64).astype(np.float32)
    y = np.full_like(x, np.nan)
    kernels.through_modules[(1,)](x, y, 64, BLOCK=64)
    ext.SCALE = 5.0
    kernels.through_modules[(1,)](x, y, 64, BLOCK=64)
    np.testing.assert_allclose(y, np.exp((x.astype(np.float64) * 5 + 1) * np.pi / 8), rtol=2e-6)


def test_an_unknown_module_attribute_is_an_error_at_its_place(modules):
    kernels, _ = modules
    with pytest.raises(tessera.CompilationError) as e:
        kernels.unknown_attribute[(1,)](np.zeros(1, np.float32))
    message = str(e.value)
    assert "kernels_" in message and ":17:17:" in message and "tle.no_such_helper(1.0)" in message
    assert "tle (module 'ext_lang_" in message and "has no attribute 'no_such_helper'" in message


def test_chains_after_non_ascii_text_on_their_line(modules, capfd):
    # ast's columns count UTF-8 bytes; the rewrite places characters.
    kernels, _ = modules
    y = np.zeros(1, np.float32)
    kernels.after_unicode[(1,)](y)
    assert y[0] == 6 and "é → 3.0" in capfd.readouterr().err  # static_print writes at compile time, to stderr


@pytest.mark.parametrize("n, padded", [(5, 16), (17, 32), (64, 64)])
def test_a_plain_function_through_a_module_runs_while_compiling(modules, n, padded):
    kernels, _ = modules
    y = np.full(80, np.nan, np.float32)
    kernels.host_helper[(1,)](y, N=n)
    np.testing.assert_array_equal(y[:padded], np.arange(padded))
    assert np.isnan(y[padded:]).all()


def test_a_plain_function_through_a_module_takes_compile_time_values(modules):
    kernels, _ = modules
    with pytest.raises(tessera.CompilationError, match=r"sub\.padded takes compile-time values; its argument 1 is"):
        kernels.host_helper_on_a_tensor[(1,)](np.ones(1, np.float32))


def test_a_builtin_through_a_module_runs_while_compiling(modules):
    kernels, _ = modules
    y = np.zeros(1, np.float32)
    kernels.python_builtins[(1,)](y)
    assert y[0] == np.float32(1.4426950408889634)


def test_a_builtin_on_a_tensor_names_the_language_s_function_under_the_line_as_written(modules):
    kernels, _ = modules
    with pytest.raises(tessera.CompilationError) as e:
        kernels.python_builtin_on_a_tensor[(1,)](np.ones(1, np.float32))
    message = str(e.value)
    assert "math.floor takes compile-time values; its argument 1 is tensor of type f32 (use tl.floor)" in message
    assert "tl.store(y, math.floor(tl.load(y)) + math.pi)" in message  # not the compiled `math_floor`, `math_pi`
