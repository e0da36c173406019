"""Every name tessera.language offers is one the frontend knows (a stub
for a function the compiler rejects would be a lie), and full_like works."""
import numpy as np
import pytest

import tessera
import tessera.language as tl
from tessera import _C


@pytest.mark.parametrize("name", sorted(tl._BUILTINS))
def test_every_builtin_name_resolves_in_kernels(cpu_target, name):
    src = "import tessera.language as tl\n\ndef k(x):\n    f = tl.%s\n" % name
    try:
        _C.compile(src, "k", ["*fp32"], {}, "cpu")
    except _C.CompilationError as e:
        assert "has no attribute" not in str(e), str(e)


def test_full_like(cpu_target):
    @tessera.jit
    def k(x, out):
        r = tl.arange(0, 8)
        v = tl.load(x + r)
        tl.store(out + r, tl.full_like(v, 3) + tl.full_like(v, 2.5, dtype=tl.float32).to(tl.int32))
    x = np.arange(8, dtype=np.int32)
    out = np.zeros(8, np.int32)
    k[(1,)](x, out)
    np.testing.assert_array_equal(out, [5] * 8)
