"""docs/language-reference.md is what tools/language_reference.py makes of
the compiler now: a name, parameter, type, or a measured dtype or target
changed without regenerating the page fails here (~20 s: every probe kernel
compiled again)."""
import importlib.util
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_the_language_reference_matches_the_compiler():
    spec = importlib.util.spec_from_file_location("language_reference", ROOT / "tools" / "language_reference.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
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
