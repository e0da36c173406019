"""Triton's JITFunction host API: warmup (compile without launching),
params and src."""
import numpy as np

import tessera
import tessera.language as tl


@tessera.jit(do_not_specialize=["n"])
def _scale(x_ptr, out_ptr, n, factor, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * factor, mask=offs < n)


def test_warmup_compiles_without_launching_and_the_launch_reuses_it():
    x = np.random.default_rng().standard_normal(40).astype(np.float32)
    out = np.full(40, np.nan, np.float32)
    kernel = _scale.warmup(x, out, 40, 2.5, BLOCK=64, grid=(1,))
    assert np.isnan(out).all()                       # nothing ran
    assert kernel.num_params == 4
    launched = _scale[(1,)](x, out, 40, 2.5, BLOCK=64)
    assert launched is kernel                        # the same compiled kernel
    np.testing.assert_allclose(out, x.astype(np.float64) * 2.5, rtol=1e-6)


def test_params_and_src_as_triton_gives_them():
    params = _scale.params
    assert [p.name for p in params] == ["x_ptr", "out_ptr", "n", "factor", "BLOCK"]
    assert [p.num for p in params] == [0, 1, 2, 3, 4]
    assert [p.is_constexpr for p in params] == [False, False, False, False, True]
    assert [p.do_not_specialize for p in params] == [False, False, True, False, False]
    assert _scale.src.startswith("@tessera.jit(do_not_specialize=[\"n\"])\ndef _scale(")
    assert "tl.store(out_ptr + offs" in _scale.src
