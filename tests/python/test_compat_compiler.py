"""triton.compiler.compiler's helpers under tessera.compat, on Tessera's
own compiles: PTX prototypes, SASS, compile timing, cache-invalidating
variables, tracebacks without the compiler's frames."""
import re
import shutil

import pytest

import tessera
import tessera.compat
import tessera.language as tl


@pytest.fixture
def cc():
    was = tessera.compat.installed()
    tessera.compat.install(replace=True)
    import triton.compiler.compiler as module
    yield module
    if not was:
        tessera.compat.uninstall()


@tessera.jit
def add_kernel(x, y, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out + offs, tl.load(x + offs, mask=offs < n) + tl.load(y + offs, mask=offs < n), mask=offs < n)


def compiled_for_hopper():
    src = tessera.compiler.ASTSource(add_kernel, {"x": "*fp32", "y": "*fp32", "out": "*fp32", "n": "i32",
                                                  "BLOCK": "constexpr"}, constexprs={"BLOCK": 256})
    return tessera.compile(src, target=tessera.compiler.GPUTarget("cuda", 90, 32))


def test_ptx_prototype_and_argument_patterns_read_tesseras_ptx(cc):
    ptx = compiled_for_hopper().asm["ptx"]
    name, params = re.search(cc.prototype_pattern["ptx"], ptx).groups()
    assert name == "add_kernel"
    types = re.findall(cc.arg_type_pattern["ptx"], params)
    assert len(types) >= 4 and types[0] == "u64" and "u32" in types


def test_parse_reads_a_stage_back_as_tritons_compile_does(cc, tmp_path):
    kernel = compiled_for_hopper()
    (tmp_path / "k.ptx").write_text(kernel.asm["ptx"])
    (tmp_path / "k.cubin").write_bytes(kernel.asm["cubin"])
    assert cc.parse(str(tmp_path / "k.ptx"), "ptx", None) == kernel.asm["ptx"]
    assert cc.parse(str(tmp_path / "k.cubin"), "cubin", None) == kernel.asm["cubin"]
    assert cc.parse(str(tmp_path / "k.ptx"), "json", None) is None
    (tmp_path / "k.ttgir").write_text("module {}")
    with pytest.raises(NotImplementedError, match=r"parse of a \.ttgir file .*MLIR levels"):
        cc.parse(str(tmp_path / "k.ttgir"), "ttgir", None)


def test_convert_type_repr(cc):
    assert cc.convert_type_repr("!tt.ptr<f32> {tt.divisibility = 16 : i32}") == "*f32"
    assert cc.convert_type_repr("!tt.ptr<!tt.ptr<bf16>>") == "**bf16"
    assert cc.convert_type_repr("i32") == "i32"
    assert cc.convert_type_repr("!tt.ptr<i8> {tt.nv_tma_desc = 1 : i32}") == "nvTmaDesc"


def test_sass_through_cuobjdump_or_a_clear_error(cc):
    cubin = compiled_for_hopper().asm.get("cubin")
    if cubin is None:
        pytest.skip("no ptxas here: the PTX was not assembled")
    asm = cc.AsmDict(cubin=cubin)
    try:
        tool = cc.knobs.nvidia.cuobjdump
    except RuntimeError as e:
        assert "Cannot find cuobjdump" in str(e)
        with pytest.raises(RuntimeError, match="Cannot find cuobjdump"):
            asm["sass"]
        return
    assert tool.version
    assert "add_kernel" in asm["sass"] and "sass" in asm
    with pytest.raises(KeyError, match="Unknown key: 'llir2'"):
        asm["llir2"]


def test_compile_timer(cc, monkeypatch):
    clock = iter([100.0, 100.5, 101.0, 101.25, 102.0])
    import tessera.compat.compiler as names
    monkeypatch.setattr(names.time, "time", lambda: next(clock))
    timer = cc.CompileTimer()
    timer.finished_ir_initialization()
    timer.stage_finished("ptx")
    timer.stage_finished("cubin")
    times = timer.end()
    assert times.ir_initialization == 500000 and times.lowering_stages == [("ptx", 500000), ("cubin", 250000)]
    assert times.store_results == 750000 and times.total == 2000000


def test_cache_invalidating_variables(cc, monkeypatch):
    monkeypatch.delenv("TESSERA_NVPTX_ARCH", raising=False)
    before = cc.get_cache_invalidating_env_vars()
    monkeypatch.setenv("TESSERA_NVPTX_ARCH", "sm_80")
    monkeypatch.setenv("TESSERA_CACHE_DIR", "/tmp/x")  # where, not what: no part of the key
    after = cc.get_cache_invalidating_env_vars()
    assert after == dict(before, TESSERA_NVPTX_ARCH="sm_80")


def test_filter_traceback_keeps_the_users_frames(cc, cpu_target):
    @tessera.jit
    def broken(x):
        tl.store(x, tl.no_such_function(1))

    import numpy as np
    with pytest.raises(tessera.CompilationError) as info:
        broken[(1,)](np.zeros(1, np.float32))
    error = info.value
    files = lambda e: [t.tb_frame.f_code.co_filename for t in _walk(e.__traceback__)]
    assert any(f.endswith("jit.py") for f in files(error))
    cc.filter_traceback(error)
    assert files(error) and not any(f.endswith(("tessera/jit.py", "tessera/_C.py")) for f in files(error))
    assert any(f.endswith("test_compat_compiler.py") for f in files(error))


def _walk(tb):
    while tb is not None:
        yield tb
        tb = tb.tb_next


def test_reexports_are_the_runtime_objects(cc):
    import triton
    assert cc.knobs is triton.knobs and cc.get_cache_manager is triton.runtime.cache.get_cache_manager
    assert cc.OutOfResources is triton.runtime.errors.OutOfResources and cc.driver is triton.runtime.driver.driver
    assert cc.max_shared_mem(0) > 0 and cc.LazyDict is triton.compiler.LazyDict
