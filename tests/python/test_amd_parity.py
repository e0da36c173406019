"""tools/amd_parity.py's reading of AMD assembly and its bar (Triton's side
needs Triton, which CI's venv lacks: these test the parts of our own)."""
import importlib.util
from dataclasses import replace
from pathlib import Path

import pytest

TOOL = Path(__file__).resolve().parents[2] / "tools" / "amd_parity.py"
spec = importlib.util.spec_from_file_location("amd_parity", TOOL)
ap = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ap)

LOOP = """k:
\ts_load_dwordx2 s[0:1], s[4:5], 0x0
.LBB0_1:
\tv_mfma_f32_32x32x8_bf16 v[0:15], v[16:17], v[18:19], v[0:15]
\tv_mfma_f32_32x32x8_bf16 v[0:15], v[20:21], v[22:23], v[0:15]
\ts_cbranch_scc1 .LBB0_1
\tv_mfma_f32_16x16x16_bf16 v[0:3], v[16:17], v[18:19], v[0:3]
\tbuffer_store_dwordx4 v[0:3], v4, s[0:3], 0 offen
\ts_endpgm
.Lfunc_end0:
    .vgpr_count: 24
"""


def test_reads_matrix_work_in_loops():
    s = ap.analyze(LOOP, "k", "gfx942")
    assert (s.mfma, s.loop_mfma, s.loop_macs, s.wide, s.vgpr) == (3, 2, 2 * 32 * 32 * 8, 1, 24)
    assert ap._macs("v_wmma_f32_16x16x16_f16 v[0:7], v[8:15], v[16:23], v[0:7]") == 4096
    assert ap._macs("v_add_f32 v0, v1, v2") == 0


def _stats(**kw):
    base = ap.Stats(mfma=64, loop_mfma=32, loop_macs=262144, vgpr=100, agpr=0, scratch=0, spills=0, lds=0,
                    launch_lds=None, wide=4, instructions=500, unified_vgprs=True)
    return replace(base, **kw)


@pytest.mark.parametrize("tessera, triton, verdict", [
    (_stats(), _stats(), "PASS"),
    (_stats(vgpr=110), _stats(), "PASS"),
    (_stats(vgpr=111), _stats(), "FAIL vgpr"),
    (_stats(spills=1), _stats(), "FAIL spills"),
    (_stats(spills=3), _stats(spills=1), "PASS"),
    (_stats(wide=0), _stats(), "FAIL x16B"),
    # A different count: less matrix work per iteration passes, the same or more fails.
    (_stats(loop_mfma=64, loop_macs=262144), _stats(loop_mfma=48, loop_macs=393216), "PASS"),
    (_stats(loop_mfma=64, loop_macs=262144), _stats(loop_mfma=32, loop_macs=262144), "FAIL mfma"),
    (_stats(loop_mfma=0, mfma=0, loop_macs=0), _stats(), "FAIL mfma"),
])
def test_bar(tessera, triton, verdict):
    assert ap.bar(tessera, triton) == verdict


def test_tesseras_side_marks_pointers_as_tritons_gets_pointer_range():
    kernel = next(k for k in ap.KERNELS if k.label == "vector_add fp32")
    ranged = ap.Tessera.__new__(ap.Tessera)
    ranged.pointer_range = True
    assert ranged.signature(kernel) == "*fp32:16:r32,*fp32:16:r32,*fp32:16:r32,i32:16"
    ranged.pointer_range = False
    assert ranged.signature(kernel) == kernel.signature


def test_tesseras_vector_add_takes_tritons_registers(tmp_path):
    """The row that needed buffer accesses: Triton 3.9's vector add is 9
    VGPRs with 3 buffer accesses of 16 bytes on gfx942 (18 on gfx1100)."""
    if not ap.DEFAULT_TESSERA.exists():
        pytest.skip("no tessera CLI in build/")
    kernel = next(k for k in ap.KERNELS if k.label == "vector_add fp32")
    modules = ap.KernelModules(tmp_path)
    for arch, vgprs in (("gfx942", 9), ("gfx1100", 18)):
        asm, _ = ap.Tessera(ap.DEFAULT_TESSERA, pointer_range=True).compile(kernel, modules, arch)
        stats = ap.analyze(asm, kernel.entry, arch)
        assert (stats.vgpr, stats.wide, stats.spills) == (vgprs, 3 if arch == "gfx942" else 6, 0), arch
        assert "buffer_load" in asm and "s_cbranch_execz" not in asm
