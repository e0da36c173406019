"""Triton's runtime surface under tessera.compat: every public name of the
inventory (python/tessera/compat/triton_api.txt, read from Triton 3.6's
sources) is present or raises an error naming it as not provided; the docs
table is current; and the runtime objects libraries read and subclass
behave as Triton's (JITFunction, KernelParam, KernelInterface)."""

import importlib
import inspect
import os
import subprocess
import sys
import textwrap
import types

import numpy as np
import pytest

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "tools"))
import triton_inventory  # noqa: E402

import tessera  # noqa: E402
import tessera.compat  # noqa: E402
import tessera.language as tl  # noqa: E402

# The names present today; a change that loses one fails here.
PRESENT_AT_LEAST = 963


@pytest.fixture
def triton():
    was = tessera.compat.installed()
    module = tessera.compat.install(replace=True)
    yield module
    if not was:
        tessera.compat.uninstall()


def test_the_inventory_is_triton_3_6():
    version, rows = triton_inventory.read_inventory()
    assert version == tessera.compat.TRITON_VERSION == "3.6.0"
    modules = {m for m, _ in rows}
    assert set(triton_inventory.MODULES) >= modules and len(rows) > 900
    assert ("triton.runtime.jit", "JITFunction") in rows and ("triton.language", "dot") in rows


def test_every_name_is_present_or_named_as_not_provided(triton):
    _, rows = triton_inventory.read_inventory()
    present, wrong = 0, []
    for module, name in rows:
        try:
            m = importlib.import_module(module)
        except ModuleNotFoundError as e:
            if "does not provide" not in str(e) or module not in str(e):
                wrong.append("%s: %s" % (module, e))
            continue
        try:
            getattr(m, name)
            present += 1
        except AttributeError as e:
            if not isinstance(e, tessera.compat.NotProvidedError) or "%s.%s" % (module, name) not in str(e) and \
                    ".%s is part of" % name not in str(e):
                wrong.append("%s.%s: %r" % (module, name, e))
    assert wrong == []
    assert present >= PRESENT_AT_LEAST


def test_a_name_outside_tritons_api_fails_as_usual(triton):
    with pytest.raises(AttributeError) as e:
        triton.language.no_such_name
    assert not isinstance(e.value, tessera.compat.NotProvidedError)
    tessera.compat.uninstall()
    with pytest.raises(AttributeError) as e:  # uninstalled: no Triton wording left on Tessera's modules
        tl.ir
    assert not isinstance(e.value, tessera.compat.NotProvidedError)


def test_the_docs_table_is_current():
    r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "triton_inventory.py"), "--check"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


# ---- the runtime objects


@tessera.jit(do_not_specialize=["n"])
def _saxpy(x_ptr, y_ptr, n, alpha: tl.float32, out_ptr: "*fp32", BLOCK: tl.constexpr = 64):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, alpha * tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)


def test_kernel_params_as_tritons():
    params = _saxpy.params
    assert [p.name for p in params] == ["x_ptr", "y_ptr", "n", "alpha", "out_ptr", "BLOCK"]
    assert [p.num for p in params] == list(range(6))
    assert [p.annotation for p in params] == ["", "", "", "fp32", "*fp32", "constexpr"]
    assert [p.annotation_type for p in params] == ["", "", "", "fp32", "*fp32", ""]
    assert [p.is_constexpr for p in params] == [False, False, False, False, False, True]
    assert [p.do_not_specialize for p in params] == [False, False, True, False, False, False]
    assert [p.has_default for p in params] == [False, False, False, False, False, True]
    assert params[5].default == 64 and params[0].default is inspect.Parameter.empty
    assert _saxpy.arg_names == ["x_ptr", "y_ptr", "n", "alpha", "out_ptr", "BLOCK"] and _saxpy.constexprs == [5]


def test_jit_function_attributes_as_tritons():
    fn = _saxpy.fn
    assert _saxpy.__globals__ is fn.__globals__ and _saxpy.__qualname__ == fn.__qualname__
    assert _saxpy.module == fn.__module__
    assert _saxpy.src.startswith("def _saxpy(") and "@tessera.jit" not in _saxpy.src
    assert _saxpy.raw_src[0].startswith("@tessera.jit(do_not_specialize")
    assert _saxpy.repr(None) == fn.__module__ + "._saxpy"
    assert _saxpy.get_capture_scope()["tl"] is tl and not _saxpy.is_gluon()
    with pytest.raises(AttributeError, match="_unsafe_update_src"):
        _saxpy.src = "def f(): pass"
    key = _saxpy.cache_key
    assert len(key) == 64 and key == _saxpy.cache_key


def _module_from_source(name, text, directory):
    """What code-generating libraries do: the text written where linecache
    finds it (as Triton too needs a kernel's source), exec'd into a fresh
    module."""
    path = os.path.join(str(directory), name + ".py")
    with open(path, "w") as f:
        f.write(text)
    module = types.ModuleType(name)
    module.__file__ = path
    exec(compile(text, path, "exec"), module.__dict__)
    return module


def test_cache_key_follows_the_source_and_what_it_calls(tmp_path):
    # Two copies of a kernel that differ only in a callee: different keys;
    # the same text again: the same key.
    def write(name, body):
        path = tmp_path / (name + ".py")
        path.write_text(textwrap.dedent("""
            import tessera
            import tessera.language as tl

            @tessera.jit
            def helper(x):
                return %s

            @tessera.jit
            def kernel(p):
                tl.store(p, helper(tl.load(p)))
        """ % body))
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    a, b, c = write("ck_a", "x + 1"), write("ck_b", "x + 2"), write("ck_c", "x + 1")
    assert a.kernel.cache_key != b.kernel.cache_key
    assert a.kernel.cache_key == c.kernel.cache_key
    assert a.kernel.src == b.kernel.src  # the difference is the callee's


def test_kernel_interface_subclasses_get_triton_s_calls():
    calls = []

    class Library(tessera.jit.__globals__["KernelInterface"]):
        def run(self, *args, grid, warmup, **kwargs):
            calls.append((args, grid, warmup, kwargs))
            return "ran"

    k = Library()
    assert k[(3,)](1, 2, BLOCK=4) == "ran"
    assert k.warmup(5, grid=(1,)) == "ran"
    assert calls == [((1, 2), (3,), False, {"BLOCK": 4}), ((5,), (1,), True, {})]
    with pytest.raises(NotImplementedError):
        tessera.jit.__globals__["KernelInterface"]().run(grid=(1,), warmup=False)


def test_run_with_warmup_compiles_without_launching():
    x = np.arange(64, dtype=np.float32)
    out = np.full(64, -1.0, np.float32)
    k = _saxpy.run(x, x, 64, 2.0, out, grid=(1,), warmup=True)
    assert k.metadata.name == "_saxpy" and (out == -1).all()
    _saxpy.run(x, x, 64, 2.0, out, grid=(1,), warmup=False)
    np.testing.assert_array_equal(out, 3 * x)


def test_pre_run_hooks_see_every_launch():
    @tessera.jit
    def twice(p, BLOCK: tl.constexpr):
        i = tl.arange(0, BLOCK)
        tl.store(p + i, tl.load(p + i) * 2)

    seen = []
    twice.add_pre_run_hook(lambda *args, **kwargs: seen.append(sorted(kwargs)))
    x = np.ones(8, np.float32)
    for _ in range(3):  # the fast lane would skip the hook from the second launch on
        twice[(1,)](x, BLOCK=8)
    assert seen == [["BLOCK"]] * 3 and (x == 8).all()
    with pytest.raises(TypeError, match="callable"):
        twice.add_pre_run_hook(3)


def test_a_kernel_generated_from_source_through_a_module_alias(triton, tmp_path):
    # What code-generating libraries do: exec a kernel's text into a fresh
    # module whose `tl` is a module variable, then triton.jit it.
    text = textwrap.dedent("""
        import triton
        import triton.language as language_alias

        def scaled_copy(src, dst, n, SCALE: language_alias.constexpr, BLOCK: language_alias.constexpr):
            offs = language_alias.program_id(0) * BLOCK + language_alias.arange(0, BLOCK)
            mask = offs < n
            language_alias.store(dst + offs, language_alias.load(src + offs, mask=mask) * SCALE, mask=mask)
    """)
    module = _module_from_source("generated_kernels", text, tmp_path)
    kernel = triton.jit(module.scaled_copy)
    x = np.random.default_rng(3).standard_normal(1000).astype(np.float32)
    y = np.full_like(x, np.nan)
    kernel[(triton.cdiv(1000, 256),)](x, y, 1000, SCALE=3, BLOCK=256)
    np.testing.assert_allclose(y, 3 * x, rtol=1e-6)
    assert kernel.src.startswith("def scaled_copy(")


def test_a_kernel_from_a_string_without_a_file(triton):
    # exec of a bare string: no text for the compiler to read, said with the way out;
    # the same text registered with linecache (no file, no __name__ in its globals) runs.
    import linecache
    text = textwrap.dedent("""
        def tripled(x, n, BLOCK: lang.constexpr):
            offs = lang.arange(0, BLOCK)
            lang.store(x + offs, lang.load(x + offs, mask=offs < n) * 3, mask=offs < n)
    """)
    scope = {"lang": triton.language}
    exec(text, scope)
    with pytest.raises(OSError, match=r"cannot read the source of tripled \(from <string>\).*linecache.cache"):
        triton.jit(scope["tripled"])[(1,)](np.zeros(4, np.float32), 4, BLOCK=4)
    name = "<generated tripled>"
    linecache.cache[name] = (len(text), None, text.splitlines(True), name)
    try:
        scope = {"lang": triton.language}
        exec(compile(text, name, "exec"), scope)
        x = np.random.default_rng(5).standard_normal(13).astype(np.float32)
        want = 3 * x
        triton.jit(scope["tripled"])[(1,)](x, 13, BLOCK=16)
        np.testing.assert_allclose(x, want, rtol=1e-6)
    finally:
        del linecache.cache[name]


# ---- triton.knobs


def test_knobs_read_tritons_variables_until_set(triton, monkeypatch):
    knobs = triton.knobs
    monkeypatch.setenv("TRITON_REDIS_PORT", "7000")
    monkeypatch.setenv("TRITON_KERNEL_DUMP", "1")
    assert knobs.redis.port == 7000 and knobs.compilation.dump_ir is True
    for text, value in (("ON", True), ("True", True), ("yes", False), ("maybe", False), ("", False)):
        monkeypatch.setenv("TRITON_KERNEL_DUMP", text)  # Triton's getenv_bool: on, true, 1
        assert knobs.compilation.dump_ir is value, text
    monkeypatch.setenv("TRITON_REDIS_PORT", "x")
    with pytest.raises(RuntimeError, match="Unable to use TRITON_REDIS_PORT=x: expected int"):
        knobs.redis.port
    monkeypatch.setenv("TRITON_KERNEL_DUMP", "1")
    with knobs.compilation.scope():
        knobs.compilation.dump_ir = False  # sets the variable too, as Triton's knobs do
        assert knobs.compilation.dump_ir is False and os.environ["TRITON_KERNEL_DUMP"] == "0"
        knobs.compilation.dump_ir = knobs.env  # back to the variable
        assert knobs.compilation.dump_ir is False
        knobs.propagate_env = False
        try:
            knobs.compilation.dump_ir = True
            assert knobs.compilation.dump_ir is True and os.environ["TRITON_KERNEL_DUMP"] == "0"
        finally:
            knobs.propagate_env = True
    assert os.environ["TRITON_KERNEL_DUMP"] == "1" and knobs.compilation.dump_ir is True  # the scope restored both
    monkeypatch.setenv("TRITON_KERNEL_DUMP", "0")
    assert knobs.compilation.dump_ir is False and knobs.amd.use_buffer_ops is True
    assert knobs.compilation.knobs["dump_ir"] is False and "always_compile" in knobs.compilation.knobs
    assert not knobs.runtime.launch_enter_hook.calls and knobs.compilation.listener is None


def test_knobs_tessera_honours_set_tesseras_variables(triton, monkeypatch, tmp_path):
    knobs = triton.knobs
    for name in ("TESSERA_CACHE_DIR", "TRITON_CACHE_DIR", "TESSERA_ALWAYS_COMPILE", "TRITON_ALWAYS_COMPILE",
                 "TESSERA_DEBUG", "TRITON_DEBUG"):
        monkeypatch.delenv(name, raising=False)
    with knobs.cache.scope(), knobs.compilation.scope(), knobs.runtime.scope():
        knobs.cache.dir = str(tmp_path / "c")
        knobs.compilation.always_compile = True
        knobs.runtime.debug = True
        assert os.environ["TESSERA_CACHE_DIR"] == str(tmp_path / "c")
        assert os.environ["TESSERA_ALWAYS_COMPILE"] == "1" and os.environ["TESSERA_DEBUG"] == "1"
        assert knobs.cache.dir == str(tmp_path / "c") and knobs.compilation.always_compile is True

        @tessera.jit
        def add_one(p):
            tl.store(p, tl.load(p) + 1)

        x = np.zeros(1, np.float32)
        add_one[(1,)](x)
        assert x[0] == 1 and add_one.cache and not next(iter(add_one.cache.values())).from_cache
    assert "TESSERA_CACHE_DIR" not in os.environ and "TESSERA_ALWAYS_COMPILE" not in os.environ
    assert "TESSERA_DEBUG" not in os.environ


def test_tritons_variables_set_tesseras_at_install(monkeypatch, tmp_path):
    tessera.compat.uninstall()
    monkeypatch.delenv("TESSERA_CACHE_DIR", raising=False)
    monkeypatch.setenv("TRITON_CACHE_DIR", str(tmp_path))
    try:
        tessera.compat.install()
        assert os.environ["TESSERA_CACHE_DIR"] == str(tmp_path)
        assert sys.modules["triton.knobs"].cache.dir == str(tmp_path)
    finally:
        tessera.compat.uninstall()
        monkeypatch.delenv("TESSERA_CACHE_DIR", raising=False)


def test_default_fp_fusion_knob_reaches_the_jit(triton):
    jit_module = sys.modules["tessera.jit"]
    with triton.knobs.language.scope():
        triton.knobs.language.default_fp_fusion = False
        assert jit_module._DEFAULT_FP_FUSION is False
        assert jit_module._Codegen.of().fp_fusion is False
    assert jit_module._DEFAULT_FP_FUSION is True  # the scope's end restores it


# ---- triton.runtime.cache, errors, helpers, tl.extra.hip


def test_file_cache_manager_as_tritons(triton, monkeypatch, tmp_path):
    from triton.runtime.cache import FileCacheManager, get_cache_manager, get_dump_manager, make_so_cache_key
    monkeypatch.setenv("TRITON_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("TRITON_DUMP_DIR", str(tmp_path / "dump"))
    key = "ab" * 32
    m = get_cache_manager(key)
    assert isinstance(m, FileCacheManager) and m.cache_dir.startswith(str(tmp_path / "cache"))
    assert m.get_file("k.bin") is None
    path = m.put(b"\x00\x01", "k.bin")
    text = m.put({"a": 1}, "k.json")  # not bytes: stored as its text
    assert open(path, "rb").read() == b"\x00\x01" and open(text).read() == "{'a': 1}"
    assert m.get_file("k.bin") == path and get_cache_manager(key).get_file("k.bin") == path
    m.put_group("k.group", {"bin": path, "gone": str(tmp_path / "missing")})
    assert m.get_group("k.group") == {"bin": path} and m.get_group("nothing") is None
    assert sorted(os.listdir(m.cache_dir)) == ["__grp__k.group", "k.bin", "k.json"]  # no temporaries left
    with pytest.raises(ValueError, match="no directory part"):
        m.put(b"x", "../escape")
    assert get_dump_manager(key).cache_dir.startswith(str(tmp_path / "dump"))
    a = make_so_cache_key("v", {"x": "*fp32", "n": "i32"}, {"B": 4}, [0])
    assert a == make_so_cache_key("v", {"x": "*fp16", "n": "i32"}, {"B": 4}, [0])  # pointers are pointers
    assert a != make_so_cache_key("v", {"x": "*fp32", "n": "i64"}, {"B": 4}, [0])


def test_cache_manager_class_knob(triton, monkeypatch, tmp_path):
    from triton.runtime.cache import get_cache_manager
    monkeypatch.setenv("TRITON_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("TRITON_CACHE_MANAGER", "triton.runtime.cache:FileCacheManager")
    assert type(get_cache_manager("00" * 32)).__name__ == "FileCacheManager"
    monkeypatch.setenv("TRITON_CACHE_MANAGER", "no_such_module:Manager")
    with pytest.raises(RuntimeError, match="names no class"):
        get_cache_manager("00" * 32)


def test_error_classes_as_tritons(triton):
    from triton.compiler.errors import CompilationError, UnsupportedLanguageConstruct
    from triton.runtime.errors import AutotunerError, OutOfResources, PTXASError
    assert issubclass(CompilationError, triton.TritonError) and issubclass(OutOfResources, triton.TritonError)
    assert str(PTXASError("ptxas said no")) == "PTXAS error: ptxas said no" and issubclass(AutotunerError, triton.TritonError)
    assert str(AutotunerError("no configs")) == "Autotuner error: no configs"

    @triton.jit
    def uses_lambda(p):
        f = lambda v: v + 1  # noqa: E731
        tl.store(p, f(1.0))

    with pytest.raises(UnsupportedLanguageConstruct, match="lambda expressions are not supported"):
        uses_lambda[(1,)](np.zeros(1, np.float32))

    @triton.jit
    def bad_name(p):
        tl.store(p, no_such_name)  # noqa: F821

    with pytest.raises(CompilationError) as e:
        bad_name[(1,)](np.zeros(1, np.float32))
    assert not isinstance(e.value, UnsupportedLanguageConstruct)


def test_runtime_helpers_as_tritons(triton):
    import collections
    from triton.runtime import jit as rj
    assert rj.get_full_name(_saxpy.fn) == __name__ + "._saxpy"
    assert rj.is_namedtuple(collections.namedtuple("P", "a b")) and not rj.is_namedtuple(tuple)
    assert rj.convert_to_tuple_if_list([1, [2, (3, [4])]]) == (1, (2, (3, (4,))))
    nested = [1, ("a", [2, 3.0])]
    paths = rj.find_paths_if(nested, lambda path, v: isinstance(v, int))
    assert paths == [(0,), (1, 1, 0)] and [rj.get_iterable_path(nested, p) for p in paths] == [1, 2]
    assert rj.find_paths_if(5, lambda path, v: True) == [()]
    assert rj.get_jit_fn_file_line(_saxpy) == (__file__.replace(".pyc", ".py"), _saxpy.starting_line_number)
    assert len(triton.runtime.cache.triton_key()) > 8


def test_hip_libdevice_in_kernels(triton):
    from triton.language.extra.hip import libdevice as hip_libdevice

    @triton.jit
    def k(x, y, BLOCK: tl.constexpr):
        i = tl.arange(0, BLOCK)
        v = tl.load(x + i)
        tl.store(y + i, hip_libdevice.exp(v) + tl.extra.hip.libdevice.log(v))

    x = np.random.default_rng(8).uniform(0.5, 2, 32).astype(np.float32)
    y = np.full_like(x, np.nan)
    k[(1,)](x, y, BLOCK=32)
    np.testing.assert_allclose(y, np.exp(x) + np.log(x), rtol=2e-6)


def test_language_core_helpers_as_tritons(triton):
    core = triton.language.core
    assert core.is_builtin(core.load) and core.is_builtin(triton.language.math.exp)
    assert core.is_builtin(triton.language.extra.libdevice.tanh) and not core.is_builtin(len)

    @core.builtin
    def my_builtin(x, _semantic=None):
        return x + 1

    assert core.is_builtin(my_builtin) and my_builtin(1, _semantic=object()) == 2
    with pytest.raises(ValueError, match="Did you forget to add @triton.jit"):
        my_builtin(1)
    assert core.must_use_result(my_builtin) is my_builtin and my_builtin._must_use_result is True
    assert core.must_use_result("why")(my_builtin)._must_use_result == "why"
    assert core.get_int_dtype(1, True) is core.int1 and core.get_int_dtype(8, False) is core.uint8
    assert core.get_int_dtype(64, True) is core.int64
    with pytest.raises(ValueError, match="Unsupported bitwidth"):
        core.get_int_dtype(12, True)
    assert [core.get_primitive_bitwidth(n) for n in ("fp16", "bfloat16", "u1", "i64", "void", "fp8e5")] == \
        [16, 16, 1, 64, 0, 8]
    assert core.validate_block_shape([16, 64]) == 1024
    with pytest.raises(ValueError, match="power of 2"):
        core.validate_block_shape([16, 48])
    with pytest.raises(TypeError, match="constexpr\\[int\\]"):
        core.validate_block_shape([16.0])
    with pytest.raises(ValueError, match="exceeds triton maximum tensor numel"):
        core.validate_block_shape([2048, 1024])


def test_jit_takes_tritons_keywords_and_refuses_others():
    def body(x_ptr, n):
        pass

    jf = tessera.jit(version=2, noinline=True, do_not_specialize_on_alignment=[0], do_not_specialize=["n"])(body)
    assert (jf.version, jf.noinline) == (2, True)
    assert [p.do_not_specialize_on_alignment for p in jf.params] == [True, False]
    assert [p.do_not_specialize for p in jf.params] == [False, True]
    with pytest.raises(TypeError, match="unexpected keyword argument 'tagret' \\(it takes target, do_not_specialize"):
        tessera.jit(tagret="nvptx")


def test_testing_helpers_as_tritons(triton, monkeypatch):
    testing = triton.testing
    assert testing.Mark is testing.Report and testing.tl is triton.language
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(FileNotFoundError):
        testing.nvsmi(["clocks.max.sm"])
    if triton.runtime.driver.active.get_current_target().backend == "cpu":
        with pytest.raises(KeyError):  # the host reports no memory clock
            testing.get_dram_gbps()


def test_warmup_with_mock_tensors_compiles_what_a_launch_runs(triton):
    @triton.jit
    def scale(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2, mask=offs < n)

    mock = triton.MockTensor(tl.float32, shape=[4, 8])
    assert mock.data_ptr() == 0 and mock.stride() == (8, 1) and triton.MockTensor.wrap_dtype(3) == 3
    k = scale.warmup(mock, triton.MockTensor(tl.float32), 64, BLOCK=64, grid=(1,))
    assert k.metadata.name == "scale" and len(scale.cache) == 1
    x = np.arange(64, dtype=np.float32)
    y = np.zeros_like(x)
    scale[(1,)](x, y, 64, BLOCK=64)
    np.testing.assert_array_equal(y, 2 * x)
    assert len(scale.cache) == 1  # the launch found what warmup compiled (aligned pointers, as mocks are)


def test_async_compile_mode_compiles_warmups_side_by_side(triton):
    import concurrent.futures

    def make(scale):
        @triton.jit
        def k(x_ptr, BLOCK: tl.constexpr):
            i = tl.arange(0, BLOCK)
            tl.store(x_ptr + i, tl.load(x_ptr + i) * SCALE)  # noqa: F821
        k.fn.__globals__["SCALE"] = scale
        return k

    x = np.ones(16, np.float32)
    kernels = [make(2.0)]
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        with triton.AsyncCompileMode(pool) as mode:
            with pytest.raises(RuntimeError, match="already active"):
                triton.AsyncCompileMode(pool).__enter__()
            futures = [kernels[0].warmup(x, BLOCK=16, grid=(1,)), kernels[0].warmup(x, BLOCK=32, grid=(1,))]
            again = kernels[0].warmup(x, BLOCK=16, grid=(1,))
            assert all(isinstance(f, triton.FutureKernel) for f in futures) and again is futures[0]
            assert len(mode.raw_futures) == 2
        assert len(kernels[0].cache) == 2 and futures[0].result() in kernels[0].cache.values()
        kernels[0][(1,)](x, BLOCK=16)
        np.testing.assert_array_equal(x, 2)
        assert len(kernels[0].cache) == 2  # the launch found the warmed kernel

        @triton.jit
        def broken(x_ptr, BLOCK: tl.constexpr):
            tl.store(x_ptr, undefined_name)  # noqa: F821

        with pytest.raises(triton.compiler.errors.CompilationError):
            with triton.AsyncCompileMode(pool):
                broken.warmup(x, BLOCK=16, grid=(1,))
        with triton.AsyncCompileMode(pool, ignore_errors=True):
            failed = broken.warmup(x, BLOCK=16, grid=(1,))
        assert failed.result(ignore_errors=True) is None and len(broken.cache) == 0


def test_driver_config_as_tritons(triton):
    from triton.runtime import driver as module
    assert module.driver.active is module.active is module.driver.default and module.backends == {}
    assert module.active.get_benchmarker() is triton.testing.do_bench and module.active.is_active()

    class Mine(module.DriverBase):
        @classmethod
        def is_active(cls):
            return True

        def get_current_target(self):
            return triton.backends.compiler.GPUTarget("mine", 1, 1)

        def get_active_torch_device(self):
            return "cpu"

        def get_benchmarker(self):
            return None

    with pytest.raises(TypeError):  # abstract
        module.DriverBase()
    try:
        module.driver.set_active(Mine())
        assert triton.runtime.driver.active.get_current_target().backend == "mine"
    finally:
        module.driver.reset_active()
    assert triton.runtime.driver.active is module.driver.default
    # triton.runtime.driver is Triton's DriverConfig: its calls work on it too.
    triton.runtime.driver.set_active(Mine())
    assert triton.runtime.driver.active.get_current_target().backend == "mine"
    triton.runtime.driver.reset_active()
    assert triton.runtime.driver.active is triton.runtime.driver.default


def test_language_submodules_are_modules_of_their_own(triton, cpu_target, tmp_path, monkeypatch):
    from triton.language import core, random, semantic, standard
    import triton.language as tl
    assert core.__name__ == "triton.language.core" and core.dtype is tl.dtype and core.program_id is tl.program_id
    assert core.knobs is triton.knobs and isinstance(triton.jit(lambda x: None), core.JITCallable)
    assert random.tl is tl and random.jit is triton.jit and standard.jit is triton.jit and semantic.tl is tl
    assert tl.core is core and random.N_ROUNDS_DEFAULT == 10
    with pytest.raises(tessera.compat.NotProvidedError, match="triton.language.core.ir"):
        core.ir
    # In kernels, each names the language, as `import triton.language.core as core` does in Triton's sources.
    (tmp_path / "views_kernel.py").write_text(
        "import triton\nfrom triton.language import core, standard\n\n"
        "@triton.jit\ndef k(x, out, BLOCK: core.constexpr):\n"
        "    offs = core.program_id(0) * BLOCK + core.arange(0, BLOCK)\n"
        "    core.store(out + offs, standard.sigmoid(core.load(x + offs)))\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import numpy as np
    from views_kernel import k
    x = np.random.default_rng(3).standard_normal(64).astype(np.float32)
    out = np.full(64, np.nan, np.float32)
    k[(4,)](x, out, BLOCK=16)
    np.testing.assert_allclose(out, 1 / (1 + np.exp(-x)), rtol=1e-5)
