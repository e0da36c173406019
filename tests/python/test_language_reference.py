"""docs/language-reference.md is what tools/language_reference.py makes of
the compiler now: a name, parameter, type, or a measured dtype or target
changed without regenerating the page fails here (~20 s: every probe kernel
compiled again), and so does a function without semantics in
tools/language_semantics.py, or semantics for a function the page lacks."""
import importlib.util
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _tool():
    spec = importlib.util.spec_from_file_location("language_reference", ROOT / "tools" / "language_reference.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    return tool


def test_the_language_reference_matches_the_compiler():
    tool = _tool()
    page = (ROOT / "docs" / "language-reference.md").read_text()
    assert page == tool.generate(), "docs/language-reference.md is stale: run python tools/language_reference.py"
    # The parameters come from the compiler: spot-check a few it must state.
    assert "| `dot(input, other, acc, input_precision, allow_tf32, max_num_imprecise_acc, out_dtype)` |" in page
    assert "| `dot_scaled(lhs, lhs_scale, lhs_format, rhs, rhs_scale, rhs_format, acc=None," in page
    assert "| `debug_barrier()` |" in page
    # The measured cells say what the targets do: spot-check a few.
    assert "| `inline_asm_elementwise(asm, constraints, args, dtype, is_pure, pack)` | " in page
    assert "| `jn(n, x)` | fp16 bf16 fp32 fp64 | cpu nvptx |" in page
    assert "| `add_rz(x, y)` | fp32 fp64 | all |" in page
    # Every row ends in its semantics.
    assert "| `atomic_add(pointer, val, mask, sem, scope)` | " in page and "returns the values there before" in page
    rows = [line for line in page.splitlines() if line.startswith("| `") and "`tl." not in line.split("|")[1]]
    assert rows and all(line.count(" | ") == 3 and not line.endswith("|  |") for line in rows)


def test_semantics_cover_exactly_the_documented_functions(monkeypatch):
    tool = _tool()
    assert tool.semantics_problems() == []
    entries = {section: dict(texts) for section, texts in tool.semantics.SECTIONS.items()}
    del entries["tl"]["dot"]
    entries["libdevice"]["no_such_function"] = "Computes nothing."
    entries["tl.math"]["exp"] = "two\nlines"
    assert tool.semantics_problems(tool.documented(), entries) == [
        "the semantics entry libdevice.no_such_function names no function of the page",
        "tl.dot has no semantics entry",
        "the semantics entry tl.math.exp is empty or spans lines",
    ]
    # Writing or checking the page stops before measuring anything.
    monkeypatch.setattr(tool.semantics, "SECTIONS", entries)
    with pytest.raises(tool.SemanticsMismatch, match="tl.dot has no semantics entry"):
        tool.generate()
    assert tool.main(["--check"]) == 1
