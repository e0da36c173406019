"""tessera.compat: unmodified Triton code (`import triton`) runs on Tessera,
through install() or `python -m tessera.compat script.py`."""
import os
import subprocess
import sys
import textwrap
import types

import pytest

import tessera.compat as compat

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

TRITON_SCRIPT = textwrap.dedent('''
    import numpy as np
    import triton
    import triton.language as tl
    from triton.language.extra.libdevice import tanh
    from triton.language.extra.cuda import libdevice
    from triton.language.math import rsqrt

    @triton.autotune(configs=[triton.Config({"BLOCK": 64}), triton.Config({"BLOCK": 128})], key=["n"])
    @triton.jit
    def kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        m = offs < n
        x = tl.load(x_ptr + offs, mask=m, other=1.0)
        tl.store(out_ptr + offs, tanh(x) + libdevice.exp(x) + rsqrt(x), mask=m)

    x = np.linspace(0.5, 2.0, 1000, dtype=np.float32)
    out = np.full_like(x, np.nan)
    kernel[lambda meta: (triton.cdiv(x.size, meta["BLOCK"]),)](x, out, x.size)
    ref = np.tanh(x) + np.exp(x) + 1 / np.sqrt(x)
    err = float(np.abs(out - ref).max())
    assert err < 1e-5, err
    assert triton.__version__.startswith("3.6.0+tessera")
    print("ok", triton.__version__, triton.testing.do_bench(lambda: None, warmup=1, rep=1) >= 0)
''')


def test_a_triton_script_runs_unmodified(cpu_target, tmp_path):
    script = tmp_path / "triton_script.py"
    script.write_text(TRITON_SCRIPT)
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))
    r = subprocess.run([sys.executable, "-m", "tessera.compat", str(script)], capture_output=True, text=True, env=env,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("ok 3.6.0+tessera"), r.stdout


def test_install_maps_tritons_module_names():
    saved = {n: m for n, m in sys.modules.items() if n == "triton" or n.startswith("triton.")}
    try:
        for n in saved:
            del sys.modules[n]
        triton = compat.install()
        import tessera
        import tessera.language
        assert compat.installed() and sys.modules["triton"] is triton
        assert triton.jit is tessera.jit and triton.cdiv is tessera.cdiv and triton.Config is tessera.Config
        assert issubclass(triton.CompilationError, triton.TritonError)
        assert sys.modules["triton.language"] is tessera.language
        assert sys.modules["triton.language.core"].program_id is tessera.language.program_id  # a view of the language
        assert sys.modules["triton.language.extra.cuda.libdevice"] is sys.modules["tessera.language.extra.libdevice"]
        from triton.runtime.jit import JITFunction
        assert JITFunction is tessera.JITFunction
        import importlib.util
        for name in [n for n in sys.modules if n == "triton" or n.startswith("triton.")]:
            # torch's CUDA initialization calls find_spec("triton"): it raises on a module without a spec.
            assert importlib.util.find_spec(name) is not None, name
        assert tessera.language.core.view is tessera.language.view  # torch reads triton.language.core.view
        compat.uninstall()
        assert "triton" not in sys.modules and not hasattr(tessera.language, "core")
    finally:
        compat.uninstall()
        sys.modules.update(saved)


def test_language_classes_name_tritons_module_while_installed(tmp_path):
    # Code generators (Inductor) write `cls.__module__ + "." + cls.__name__`
    # into modules that import triton, not tessera.
    import tessera.language as tl
    saved = {n: m for n, m in sys.modules.items() if n == "triton" or n.startswith("triton.")}
    try:
        for n in saved:
            del sys.modules[n]
        triton = compat.install()
        for cls in (tl.constexpr, tl.dtype, tl.tensor, tl.block_type, tl.pointer_type):
            assert cls.__module__ == "triton.language.core", cls
            path = "%s.%s" % (cls.__module__, cls.__name__)
            assert eval(path, {"triton": triton}) is cls, path
        namespace = {}
        exec("import triton\nimport triton.language as tl\n_MODE: triton.language.core.constexpr = tl.constexpr(2)",
             namespace)
        assert namespace["_MODE"].value == 2
        # Processes that take this one's sys.path as their PYTHONPATH (Inductor's
        # compile workers) import Tessera as triton, though a real Triton is installed.
        out = subprocess.run([sys.executable, "-c", "import triton, triton.language as tl; "
                              "print(triton.__tessera_compat__, tl.constexpr.__module__)"],
                             env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)),
                             capture_output=True, text=True, timeout=120)
        assert out.returncode == 0, out.stderr
        assert out.stdout.split() == ["True", "triton.language.core"]
        compat.uninstall()
        assert tl.constexpr.__module__ == "tessera.language" and tl.tensor.__module__.startswith("tessera.")
        assert not any(p.endswith("subprocess_path") for p in sys.path)
    finally:
        compat.uninstall()
        sys.modules.update(saved)


def test_a_real_triton_is_not_hidden_unless_asked():
    saved = {n: m for n, m in sys.modules.items() if n == "triton" or n.startswith("triton.")}
    try:
        sys.modules["triton"] = types.ModuleType("triton")  # stands for an imported Triton
        with pytest.raises(RuntimeError, match="a real Triton .* is already imported"):
            compat.install()
        assert compat.install(replace=True) is sys.modules["triton"] and compat.installed()
    finally:
        compat.uninstall()
        sys.modules.update(saved)


def test_usage_without_a_script():
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))
    r = subprocess.run([sys.executable, "-m", "tessera.compat"], capture_output=True, text=True, env=env, timeout=60)
    assert r.returncode == 2 and "python -m tessera.compat script.py" in r.stdout


def test_a_module_runs_as_python_dash_m(cpu_target, tmp_path):
    (tmp_path / "triton_module.py").write_text(TRITON_SCRIPT)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.join(ROOT, "python"), str(tmp_path)]))
    r = subprocess.run([sys.executable, "-m", "tessera.compat", "-m", "triton_module"], capture_output=True,
                       text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("ok 3.6.0+tessera"), r.stdout


def test_python_processes_a_compat_run_starts_run_on_tessera_too(tmp_path):
    # The real Triton is installed beside torch here: a child that got it says so.
    (tmp_path / "parent.py").write_text(textwrap.dedent("""
        import subprocess, sys
        out = subprocess.run([sys.executable, "-c", "import triton; print(getattr(triton, '__tessera_compat__', False))"],
                             capture_output=True, text=True, check=True).stdout
        print("child", out.strip())
    """))
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))
    r = subprocess.run([sys.executable, "-m", "tessera.compat", str(tmp_path / "parent.py")], capture_output=True,
                       text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["child", "True"], r.stdout


def test_the_pytest_plugin_installs_in_xdist_workers(tmp_path):
    (tmp_path / "test_uses_triton.py").write_text(textwrap.dedent('''
        import os
        import triton

        def test_triton_is_tessera():
            assert os.environ.get("PYTEST_XDIST_WORKER"), "not run in a worker"
            assert triton.__tessera_compat__ and triton.__version__.startswith("3.6.0+tessera")
    '''))
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-n", "1", "-p", "no:cacheprovider",
                        "-p", "tessera.compat.pytest_plugin", str(tmp_path / "test_uses_triton.py")],
                       capture_output=True, text=True, env=env, timeout=300, cwd=tmp_path)
    assert r.returncode == 0 and "1 passed" in r.stdout, r.stdout + r.stderr


def test_the_reported_triton_version_can_be_chosen(tmp_path):
    # For libraries that refuse a Triton release over one of Triton's own bugs.
    script = tmp_path / "version.py"
    script.write_text("import triton\nprint(triton.__version__)\n")
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"), TESSERA_TRITON_VERSION="3.7.1")
    r = subprocess.run([sys.executable, "-m", "tessera.compat", str(script)], capture_output=True, text=True, env=env,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().startswith("3.7.1+tessera."), r.stdout


def test_tritons_private_utils_that_inductor_calls():
    from tessera.compat import utils
    nested = [1, ("a", [2, "b"]), 3]
    assert utils.find_paths_if(nested, lambda path, x: isinstance(x, str)) == [(1, 0), (1, 1, 1)]
    assert utils.find_paths_if(nested, lambda path, x: path == (2,)) == [(2,)]
    assert utils.find_paths_if("leaf", lambda path, x: True) == [()]
    assert utils.find_paths_if(7, lambda path, x: False) == []
    assert utils.get_iterable_path(nested, (1, 1, 1)) == "b" and utils.get_iterable_path(nested, ()) is nested
    utils.set_iterable_path(nested, (1, 1, 0), 5)
    assert nested[1][1] == [5, "b"]
    with pytest.raises(ValueError):
        utils.set_iterable_path(nested, (), 0)
    assert [x for x in range(9) if utils.is_power_of_two(x)] == [1, 2, 4, 8]
