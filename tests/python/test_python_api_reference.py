"""docs/python-api.md is what tools/python_api_reference.py makes of the
package's docstrings now: a docstring or signature of the host API changed
without regenerating the page fails here, and so does an object the page
lists without a docstring, or a public name it does not place (new API
cannot land undocumented)."""
import importlib.util
import pathlib
import re

import pytest

import tessera

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def tool():
    spec = importlib.util.spec_from_file_location("python_api_reference", ROOT / "tools" / "python_api_reference.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_python_api_reference_matches_the_docstrings(tool):
    page = (ROOT / "docs" / "python-api.md").read_text()
    assert page == tool.generate(), "docs/python-api.md is stale: run python tools/python_api_reference.py"
    # Launching comes first, then what a reader needs next; every name of tessera.__all__ is on the page.
    assert re.findall(r"^## (.*)$", page, re.MULTILINE) == [
        "Contents", "Writing and launching kernels", "Arrays", "Tensor descriptors and reinterpreted memory",
        "Checking results and timing: `tessera.testing`", "Autotuning", "Errors",
        "Debugging in the interpreter: `tessera.interpreter`", "Constexpr functions",
        "Compiling without launching: `tessera.compiler`", "The active device: `tessera.runtime.driver`",
        "Profiling: `tessera.profiler`", "Triton's names: `tessera.compat`", "The kernel language: `tessera.language`"]
    for name in tessera.__all__:
        assert "tessera.%s" % name in page, name
    assert "#### `kernel[grid](...)`" in page
    assert "tessera.jit(fn=None, *, target=None, do_not_specialize=(), debug=None," in page
    assert "(triton-api.md)" in page and "(language-reference.md)" in page


def test_an_object_without_a_docstring_is_an_error(tool, monkeypatch):
    monkeypatch.setattr(tessera.cdiv, "__doc__", None)
    with pytest.raises(tool.Undocumented, match=r"tessera\.cdiv has no docstring"):
        tool.generate()


def test_a_method_without_a_docstring_is_an_error(tool, monkeypatch):
    monkeypatch.setattr(tessera.JITFunction.run, "__doc__", None)
    with pytest.raises(tool.Undocumented, match=r"JITFunction\.run has no docstring"):
        tool.generate()


def test_a_public_name_the_page_does_not_place_is_an_error(tool, monkeypatch):
    def brand_new(x):
        """Documented, but not on the page."""
    monkeypatch.setattr(tessera, "brand_new", brand_new, raising=False)
    monkeypatch.setattr(tessera, "__all__", tessera.__all__ + ["brand_new"])
    with pytest.raises(tool.Undocumented, match=r"tessera\.brand_new"):
        tool.generate()


def test_a_public_method_the_page_does_not_place_is_an_error(tool, monkeypatch):
    def brand_new(self):
        """Documented, but not on the page."""
    monkeypatch.setattr(tessera.Config, "brand_new", brand_new, raising=False)
    with pytest.raises(tool.Undocumented, match=r"tessera\.Config has public methods .*: brand_new"):
        tool.generate()
