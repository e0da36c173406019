"""The benchmark's attention kernel (dot, online softmax, a loop with
loop-carried tiles) on the test target against a float64 reference, with a
sequence length that is not a multiple of the blocks."""

import numpy as np
import pytest

import tessera
from tessera.bench import workloads as W

pytestmark = pytest.mark.usefixtures("cpu_target")


@pytest.mark.parametrize("seq", [1, 77, 200])
def test_attention_matches_float64(seq):
    rng = np.random.default_rng(seq)
    bh, d = 3, 32
    q, k, v = (rng.standard_normal((bh, seq, d)).astype(np.float32) for _ in range(3))
    out = np.full_like(q, np.nan)
    W._attention_kernel[(tessera.cdiv(seq, 64), bh)](q, k, v, out, d ** -0.5, seq, seq * d, d, D=d, BLOCK_M=64,
                                                    BLOCK_N=32)
    q64, k64, v64 = (x.astype(np.float64) for x in (q, k, v))
    w = q64 @ k64.transpose(0, 2, 1) * d ** -0.5
    w = np.exp(w - w.max(axis=2, keepdims=True))
    ref = (w / w.sum(axis=2, keepdims=True)) @ v64
    np.testing.assert_allclose(out, ref, rtol=2e-5, atol=2e-6)
