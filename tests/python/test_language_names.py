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


# triton.language.__all__ of Triton 3.6, the release whose language Tessera follows.
_TRITON_36_NAMES = """
PropagateNan TRITON_MAX_TENSOR_NUMEL load_tensor_descriptor store_tensor_descriptor make_tensor_descriptor
tensor_descriptor abs add advance arange argmax argmin associative_scan assume atomic_add atomic_and atomic_cas
atomic_max atomic_min atomic_or atomic_xchg atomic_xor bfloat16 bitonic_merge block_type broadcast broadcast_to cat
cast cdiv ceil clamp condition const constexpr constexpr_type cos cumprod cumsum debug_barrier device_assert
device_print div_rn dot dot_scaled dtype erf exp exp2 expand_dims extra fdiv flip float16 float32 float64 float8e4b15
float8e4nv float8e4b8 float8e5 float8e5b16 floor fma full gather histogram inline_asm_elementwise interleave int1
int16 int32 int64 int8 join load log log2 make_block_ptr map_elementwise math max max_constancy max_contiguous maximum
min minimum mul multiple_of num_programs pair_uniform_to_normal permute philox philox_impl pi32_t pointer_type
program_id rand rand4x randint randint4x randn randn4x range ravel reduce reduce_or reshape rsqrt slice sigmoid sin
softmax sort split sqrt sqrt_rn squeeze static_assert static_print static_range store sub sum swizzle2d target_info
tensor topk to_tensor trans tuple uint16 uint32 uint64 uint8 uint_to_uniform_float umulhi unsqueeze view void where
xor_sum zeros zeros_like
""".split()


def _names_in_table(doc, heading):
    import re
    table = doc.split("## " + heading, 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"`([A-Za-z_0-9]+)`", "\n".join(l.split("|")[1] for l in table.splitlines()
                                                           if l.startswith("| `"))))


def _differences_page():
    import pathlib
    return (pathlib.Path(__file__).resolve().parents[2] / "docs" / "differences-from-triton.md").read_text()


def test_every_triton_language_name_is_here_or_listed_as_a_difference():
    listed = _names_in_table(_differences_page(), "Names not provided")
    missing = [n for n in _TRITON_36_NAMES if not hasattr(tl, n) and n not in listed]
    assert not missing, "neither in tessera.language nor on docs/differences-from-triton.md: %s" % missing
    # ... and the page lists nothing that Tessera has meanwhile gained.
    assert not [n for n in listed if hasattr(tl, n)]


def test_names_on_the_host_only_are_refused_in_kernels_by_name(cpu_target):
    host_only = _names_in_table(_differences_page(), "Names on the host only")
    assert {"slice", "block_type", "float8e4b8"} <= host_only and "tuple" not in host_only  # tl.tuple works in kernels
    for name in sorted(host_only):
        assert hasattr(tl, name), name
        src = "import tessera.language as tl\n\ndef k(x):\n    f = tl.%s\n" % name
        with pytest.raises(_C.CompilationError, match="has no attribute '%s'" % name):
            _C.compile(src, "k", ["*fp32"], {}, "cpu")
