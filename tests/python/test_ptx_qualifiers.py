"""What the PTX says about memory semantics (nvptx, assembled by ptxas where
present): atomics carry their sem and scope (LLVM 19's NVPTX back end would
drop them), loads and stores their cache modifier and eviction policy, and
hints on a variable hold even when the hint call's result is dropped."""
import re

import numpy as np
import pytest

import tessera
import tessera.language as tl
from tessera import _C

pytestmark = pytest.mark.skipif(not _C.target_available("nvptx"), reason="no nvptx code generator in this build")


def _atoms(ptx):
    return sorted(set(re.findall(r"\b(atom\.[\w.:]+|fence\.[\w.]+)", ptx)))


@tessera.jit
def _atomics(Z, X, L, SEM: tl.constexpr, SCOPE: tl.constexpr):
    r = tl.arange(0, 32)
    x = tl.load(X + r)
    tl.atomic_add(Z + r, x, sem=SEM, scope=SCOPE)
    tl.atomic_max(L + r, r, sem=SEM, scope=SCOPE)
    tl.atomic_xchg(L + r, r, sem=SEM, scope=SCOPE, mask=r < 5)
    while tl.atomic_cas(L, 0, 1, SEM, SCOPE) == 1:
        pass


@pytest.mark.parametrize("sem", ["relaxed", "acquire", "release", "acq_rel"])
@pytest.mark.parametrize("scope", ["cta", "gpu", "sys"])
def test_atomics_carry_sem_and_scope(sem, scope):
    f, i = np.zeros(32, np.float32), np.zeros(32, np.int32)
    atoms = _atoms(_atomics.compile_only("nvptx", f, f, i, SEM=sem, SCOPE=scope).assembly)
    assert atoms == sorted(["atom.global.%s.%s.add.f32" % (scope, sem), "atom.global.%s.%s.max.s32" % (scope, sem),
                            "atom.global.%s.%s.exch.b32" % (scope, sem), "atom.global.%s.%s.cas.b32" % (sem, scope)])


@tessera.jit
def _float_max(Z, X, MAX: tl.constexpr):
    if MAX:
        tl.atomic_max(Z + tl.arange(0, 32), tl.load(X + tl.arange(0, 32)), sem="acq_rel")
    else:
        tl.atomic_min(Z + tl.arange(0, 32), tl.load(X + tl.arange(0, 32)), sem="acq_rel")


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_float_max_and_min_are_integer_atomics_on_the_bits(dtype):
    f = np.zeros(32, dtype)
    bits = 32 if dtype == np.float32 else 64
    for is_max, want in ((True, ("max.s", "min.u")), (False, ("min.s", "max.u"))):
        atoms = _atoms(_float_max.compile_only("nvptx", f, f, MAX=is_max).assembly)
        assert atoms == sorted("atom.global.gpu.acq_rel.%s%d" % (w, bits) for w in want)


@tessera.jit
def _bf16_add(Z, X):
    tl.atomic_add(Z + tl.arange(0, 32), tl.load(X + tl.arange(0, 32)), sem="acq_rel")


def test_atomics_without_a_ptx_instruction_are_fenced():
    import ml_dtypes
    b = np.zeros(32, ml_dtypes.bfloat16)
    atoms = _atoms(_bf16_add.compile_only("nvptx", b, b, arch="sm_80").assembly)
    # Before sm_90 PTX has no bf16 atom.add: a compare-and-swap loop, ordered by fences.
    assert "fence.acq_rel.gpu" in atoms and any(a.startswith("atom.global.cas") for a in atoms), atoms


@tessera.jit
def _copy(dst, src, LOAD: tl.constexpr, STORE: tl.constexpr, EVICT: tl.constexpr, MASKED: tl.constexpr):
    o = tl.arange(0, 128)
    m = o < 100 if MASKED else None
    tl.store(dst + o, tl.load(src + o, mask=m, cache_modifier=LOAD), mask=m, cache_modifier=STORE, eviction_policy=EVICT)


@pytest.mark.parametrize("masked", [False, True])
@pytest.mark.parametrize("load,store,evict,want", [
    ("", "", "", ("ld.global.v4", "st.global.v4")),
    (".ca", ".wt", "", ("ld.global.ca.v4", "st.global.wt.v4")),
    (".cg", ".cs", "", ("ld.global.cg.v4", "st.global.cs.v4")),
    (".cv", ".wb", "", ("ld.global.cv.v4", "st.global.wb.v4")),
    ("", "", "evict_last", ("ld.global.v4", "st.global.L1::evict_last.v4")),
    ("", "", "evict_first", ("ld.global.v4", "st.global.L1::evict_first.v4")),
])
def test_cache_modifiers_and_eviction_policies(load, store, evict, want, masked):
    f = np.zeros(128, np.float32)
    ptx = _copy.compile_only("nvptx", f, f, LOAD=load, STORE=store, EVICT=evict, MASKED=masked).assembly
    memory = re.findall(r"\b((?:ld|st)\.global[\w.:]*)", ptx)
    assert any(m.startswith(want[0]) for m in memory) and any(m.startswith(want[1]) for m in memory), memory
    for other in (".ca", ".cg", ".cv", ".wb", ".wt", ".cs", "evict_"):
        if other not in load + store + evict:
            assert not any(other in m for m in memory), (other, memory)


@tessera.jit
def _hinted(dst, src, off, N, HINT: tl.constexpr):
    offsets = tl.arange(0, 1024) + tl.load(off)
    if HINT:
        tl.max_contiguous(tl.multiple_of(offsets, 1024), 1024)  # the result is dropped, as in Triton's tests
    tl.store(dst + offsets, tl.load(src + offsets, mask=offsets < N), mask=offsets < N)


def test_a_dropped_hint_still_marks_the_variable():
    f, o = np.zeros(1024, np.float32), np.zeros(1, np.int32)
    assert "ld.global.v4.b32" not in _hinted.compile_only("nvptx", f, f, o, 1024, HINT=False).assembly
    assert "ld.global.v4.b32" in _hinted.compile_only("nvptx", f, f, o, 1024, HINT=True).assembly
