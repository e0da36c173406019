"""tessera.h is the only declaration of the C API: python/tessera/_capi.py is
generated from it (tools/gen_capi_binding.py), and this fails when the two
disagree."""

import ctypes
import importlib.util
import os
import re

import pytest

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
HEADER = os.path.join(ROOT, "include", "tessera", "tessera.h")
BINDING = os.path.join(ROOT, "python", "tessera", "_capi.py")


def _load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


gen = _load(os.path.join(ROOT, "tools", "gen_capi_binding.py"), "gen_capi_binding")


def header_text():
    with open(HEADER) as f:
        return f.read()


def test_the_binding_is_what_the_header_generates():
    with open(BINDING) as f:
        assert f.read() == gen.generate(header_text()), "run tools/gen_capi_binding.py"
    assert gen.main(["--check"]) == 0


@pytest.mark.parametrize("edit", [
    # A parameter's type changes.
    (r"tessera_kernel_set_launch_params\(tessera_kernel kernel, int threads_per_program",
     "tessera_kernel_set_launch_params(tessera_kernel kernel, int64_t threads_per_program"),
    # A field is added to a struct.
    (r"  int flush_subnormals;\n", "  int flush_subnormals;\n  int new_option;\n"),
    # A function is added.
    (r"TESSERA_API int tessera_target_count\(void\);",
     "TESSERA_API int tessera_target_count(void);\nTESSERA_API int tessera_new_function(const char *name);"),
    # A status code is added.
    (r"TESSERA_ERROR_OUT_OF_RESOURCES = 13", "TESSERA_ERROR_OUT_OF_RESOURCES = 13,\n  TESSERA_ERROR_NEW = 14"),
])
def test_a_changed_declaration_makes_the_check_fail(tmp_path, edit, capsys):
    pattern, replacement = edit
    changed, n = re.subn(pattern, lambda m: replacement, header_text())
    assert n == 1
    header = tmp_path / "tessera.h"
    header.write_text(changed)
    assert gen.main(["--check", "--header", str(header), "--output", BINDING]) == 1
    assert "is stale" in capsys.readouterr().out
    # Regenerated, the binding follows the header again.
    out = tmp_path / "_capi.py"
    assert gen.main(["--header", str(header), "--output", str(out)]) == 0
    assert gen.main(["--check", "--header", str(header), "--output", str(out)]) == 0


def test_declarations_it_cannot_read_are_errors_not_guesses():
    with pytest.raises(gen.HeaderError, match="does not read"):
        gen.generate(header_text() + "\nstatic const int helper = 0;\n")
    with pytest.raises(gen.HeaderError, match="unknown type"):
        gen.generate(header_text().replace("TESSERA_API int tessera_target_count(void);",
                                           "TESSERA_API float tessera_target_count(void);"))


def test_the_library_exports_every_declared_function_with_these_types():
    from tessera import _C, _capi
    lib = _C.library()
    for name, result, args in _capi.FUNCTIONS:
        f = getattr(lib, name)  # AttributeError: declared but not exported
        assert f.restype is result and f.argtypes == args, name
    # The structs as the library fills them: every row reports its own size.
    info = lib.tessera_target_info_at(0).contents
    assert info.struct_size == ctypes.sizeof(_capi.tessera_target_info)
    assert info.flavours[0].contents.struct_size == ctypes.sizeof(_capi.tessera_target_flavour)
    assert _C.ERROR_OUT_OF_RESOURCES == _capi.TESSERA_ERROR_OUT_OF_RESOURCES == 13
