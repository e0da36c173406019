"""The interpreter (tessera.interpreter): kernels run as Python over numpy
with the language's semantics; print shows values, breakpoint() and pdb
stop inside kernels, out-of-bounds accesses raise, and Triton's
triton.runtime.interpreter names work."""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import tessera
import tessera.language as tl
from tessera import interpreter

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PYTHON_DIR = os.path.join(ROOT, "python")


@tessera.jit(target="interpreter")
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=m) + tl.load(y_ptr + offs, mask=m), mask=m)


def test_vector_add_ragged():
    rng = np.random.default_rng(1)
    n = 1000
    x, y = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    out = np.full(n + 8, np.nan, dtype=np.float32)
    add_kernel[(tessera.cdiv(n, 128),)](x, y, out[:n], n, BLOCK=128)
    np.testing.assert_array_equal(out[:n], x + y)
    assert np.isnan(out[n:]).all()  # nothing written past the end


@tessera.jit
def softmax_kernel(x_ptr, out_ptr, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * stride + cols, mask=cols < n_cols, other=-float("inf"))
    z = x - tl.max(x, axis=0)
    num = tl.exp(z)
    tl.store(out_ptr + row * stride + cols, num / tl.sum(num, axis=0), mask=cols < n_cols)


def test_softmax_matches_float64_reference_and_the_compiled_kernel():
    rng = np.random.default_rng(2)
    x = rng.standard_normal((7, 100)).astype(np.float32)
    out = np.full_like(x, np.nan)
    with interpreter.enabled():
        softmax_kernel[(7,)](x, out, x.shape[1], x.shape[1], BLOCK=128)
    e = np.exp(x.astype(np.float64) - x.max(axis=1, keepdims=True))
    np.testing.assert_allclose(out, e / e.sum(axis=1, keepdims=True), rtol=1e-5)
    compiled = np.full_like(x, np.nan)
    softmax_kernel[(7,)](x, compiled, x.shape[1], x.shape[1], BLOCK=128)
    np.testing.assert_allclose(out, compiled, rtol=1e-5, atol=1e-7)


@tessera.jit(target="interpreter")
def typed_kernel(out_ptr, a_ptr, n):
    a = tl.load(a_ptr + tl.arange(0, 4))
    acc = 0                      # an int32 tile, as compiled
    for i in range(n):           # the loop variable is an int32 tile too
        acc += i
    tl.store(out_ptr + tl.arange(0, 4), (a // -3) + (a % -3) * 100 + acc * 0 + (acc.dtype == tl.int32))


def test_integer_semantics_are_c_style_and_assignments_make_tiles():
    a = np.array([7, -7, 8, -8], dtype=np.int32)
    out = np.zeros(4, dtype=np.int32)
    typed_kernel[(1,)](out, a, 5)
    # C's truncating division and remainder (Python's would floor), and acc is an int32 tile.
    np.testing.assert_array_equal(out, np.array([-2 + 100, 2 - 100, -2 + 200, 2 - 200]) + 1)


@tessera.jit(target="interpreter")
def printing_kernel(x_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    print("x =", x)
    tl.device_print("v: ", x)


def test_print_shows_a_tiles_values(capsys):
    printing_kernel[(1,)](np.array([3, 1, 4, 1], dtype=np.int32), BLOCK=4)
    out = capsys.readouterr().out
    assert "x = [3 1 4 1]" in out
    assert "pid (0, 0, 0) idx (2) v: 4" in out


@tessera.jit(target="interpreter")
def oob_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs))  # no mask: reads past x


def test_an_access_outside_the_arguments_raises_naming_the_address():
    x = np.ones(10, dtype=np.float32)
    with pytest.raises(interpreter.InterpreterError, match=r"a load of 4 bytes at address 0x[0-9a-f]+ is outside"):
        oob_kernel[(1,)](x, np.zeros(16, dtype=np.float32), BLOCK=16)


@tessera.jit
def helper_twice(x):
    return x * 2


@tessera.jit(target="interpreter")
def calls_kernel(x_ptr, out_ptr, seed, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    r = tl.rand(seed, offs)                      # the prelude's Philox, run as Python
    both = (x > 0) and (r >= 0)                  # `and` of tiles: elementwise
    tl.store(out_ptr + offs, tl.where(not both, 0.0, helper_twice(x) + r * 0))


def test_jit_helpers_prelude_functions_and_logical_operators():
    x = np.array([1, -1, 2, -2, 3, -3, 4, -4], dtype=np.float32)
    out = np.full(8, np.nan, dtype=np.float32)
    calls_kernel[(1,)](x, out, 123, BLOCK=8)
    np.testing.assert_array_equal(out, np.where(x > 0, 2 * x, 0))


@tessera.jit
def random_kernel(out_ptr, seed, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.randint(seed, offs))


def test_random_numbers_are_bit_exact_with_the_compiled_kernel():
    compiled = np.zeros(64, dtype=np.uint32)
    random_kernel[(1,)](compiled, 42, BLOCK=64)
    interpreted = np.zeros(64, dtype=np.uint32)
    with interpreter.enabled():
        random_kernel[(1,)](interpreted, 42, BLOCK=64)
    np.testing.assert_array_equal(interpreted, compiled)
    assert len(set(compiled.tolist())) == 64


@tessera.jit(target="interpreter")
def assert_kernel(x_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    tl.device_assert(x > 0, "x must be positive")


def test_device_assert_raises_with_the_program_and_message():
    with pytest.raises(tessera.DeviceAssertionError, match=r"program \(0, 0, 0\) at index \(2,\): x must be positive"):
        assert_kernel[(1,)](np.array([1, 2, -3, 4], dtype=np.int32), BLOCK=4)
    assert_kernel[(1,)](np.array([1, 2, 3, 4], dtype=np.int32), BLOCK=4)


def _run(script, env=None, stdin=None, path=None):
    full_env = dict(os.environ, PYTHONPATH=PYTHON_DIR + os.pathsep + os.environ.get("PYTHONPATH", ""))
    full_env.update(env or {})
    if path is not None:
        path.write_text(textwrap.dedent(script))
    command = [sys.executable, str(path)] if path is not None else [sys.executable, "-c", textwrap.dedent(script)]
    return subprocess.run(command, env=full_env, input=stdin, capture_output=True, text=True, timeout=120)


PDB_SCRIPT = """
    import numpy as np, tessera, tessera.language as tl

    @tessera.jit
    def k(x_ptr, BLOCK: tl.constexpr):
        x = tl.load(x_ptr + tl.arange(0, BLOCK))
        y = x * 10
        breakpoint()
        tl.store(x_ptr + tl.arange(0, BLOCK), y)

    x = np.arange(4, dtype=np.int32)
    k[(1,)](x, BLOCK=4)
    print("after", x.tolist())
"""


def test_breakpoint_stops_in_the_kernel_under_TESSERA_INTERPRET(tmp_path):
    r = _run(PDB_SCRIPT, env={"TESSERA_INTERPRET": "1", "PYTHONBREAKPOINT": "pdb.set_trace"},
             stdin="p y\np x.dtype\nc\n", path=tmp_path / "app.py")
    assert r.returncode == 0, r.stderr
    assert "app.py(9)k()" in r.stdout           # stopped in the kernel, at its line
    assert "tensor([ 0, 10, 20, 30], dtype=int32)" in r.stdout  # pdb printed the tile
    assert "int32" in r.stdout
    assert "tl.store(x_ptr" in r.stdout       # and showed the kernel's own source line
    assert "after [0, 10, 20, 30]" in r.stdout


def test_TRITON_INTERPRET_under_compat_runs_triton_code_in_the_interpreter(tmp_path):
    script = """
        import tessera.compat; tessera.compat.install()
        import numpy as np, triton, triton.language as tl
        from triton.runtime.interpreter import InterpretedFunction, TensorHandle

        @triton.jit
        def k(x_ptr, n, BLOCK: tl.constexpr):
            offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
            x = tl.load(x_ptr + offs, mask=offs < n)
            if tl.program_id(0) == 0:
                print("first", x)
            tl.store(x_ptr + offs, x + 1, mask=offs < n)

        x = np.arange(6, dtype=np.float32)
        k[(2,)](x, 6, BLOCK=4)
        print("after", x.tolist(), triton.knobs.runtime.interpret)
    """
    r = _run(script, env={"TRITON_INTERPRET": "1"}, path=tmp_path / "app.py")
    assert r.returncode == 0, r.stderr
    assert "first [0. 1. 2. 3.]" in r.stdout
    assert "after [1.0, 2.0, 3.0, 4.0, 5.0, 6.0] True" in r.stdout
    # Without the variable, the same code compiles: print runs once at compile time, not with values.
    r = _run(script, env={"TRITON_INTERPRET": "0"}, path=tmp_path / "app.py")
    assert r.returncode == 0, r.stderr
    assert "after [1.0, 2.0, 3.0, 4.0, 5.0, 6.0] False" in r.stdout


def test_a_kernel_generated_from_source_at_run_time_runs_interpreted():
    namespace = {}
    source = textwrap.dedent("""
        import tessera.language as language_alias
        def generated(x_ptr, BLOCK: language_alias.constexpr):
            offs = language_alias.arange(0, BLOCK)
            language_alias.store(x_ptr + offs, language_alias.load(x_ptr + offs) * 3)
    """)
    exec(compile(source, "<generated>", "exec"), namespace)
    kernel = tessera.jit(namespace["generated"])
    x = np.arange(8, dtype=np.int64)
    with interpreter.enabled():
        kernel[(1,)](x, BLOCK=8)
    np.testing.assert_array_equal(x, np.arange(8) * 3)


def test_triton_interpreter_names_have_tritons_semantics():
    a = np.array([2**64 - 1, 12345678901234567890, 3], dtype=np.uint64)
    b = np.array([2**64 - 1, 98765432109876543210 % 2**64, 5], dtype=np.uint64)
    want = [(int(x) * int(y)) >> 64 for x, y in zip(a, b)]
    assert interpreter.np_umulhi_u64(a, b).tolist() == want
    np.testing.assert_allclose(interpreter.np_erf_fp32(np.array([0.0, 0.5, -1.0])), [0.0, 0.5204999, -0.8427008],
                               rtol=1e-6)
    assert interpreter.np_erf_fp32(np.array([1.0])).dtype == np.float32
    handle = interpreter.TensorHandle(np.array([1.5, 2.5], dtype=np.float32), tl.float32)
    assert handle.get_element_ty() is tl.float32 and handle.clone().data.tolist() == [1.5, 2.5]
    assert interpreter.interpreter_builder.get_int32(7).data.tolist() == [7]
    assert interpreter.interpreter_builder.get_fp16_ty() is tl.float16 if hasattr(
        interpreter.interpreter_builder, "get_fp16_ty") else interpreter.interpreter_builder.get_half_ty() is tl.float16
    options = interpreter.InterpreterOptions()
    assert options.backend_name == "interpreter" and options.sanitize_overflow
    x = interpreter.TensorHandle(np.array([[1, 2], [3, 4]], dtype=np.int32), tl.int32)
    total = interpreter.ReduceOps(1, None, False)
    with pytest.raises(ValueError):
        total.apply(np.zeros(2))
    fn = interpreter.InterpretedFunction(add_kernel.fn)
    x1, y1, out = np.ones(4, np.float32), np.full(4, 2, np.float32), np.zeros(4, np.float32)
    fn[(1,)](x1, y1, out, 4, BLOCK=4)
    assert out.tolist() == [3.0] * 4
    out[:] = 0
    interpreter.GridExecutor(add_kernel, add_kernel.arg_names, (1,))(x1, y1, out, 4, BLOCK=4)
    assert out.tolist() == [3.0] * 4
    assert x.data.sum() == 10


def test_inline_asm_is_refused_with_a_clear_error():
    @tessera.jit(target="interpreter")
    def asm_kernel(x_ptr):
        x = tl.load(x_ptr)
        tl.store(x_ptr, tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [x], dtype=tl.int32, is_pure=True,
                                                  pack=1))
    with pytest.raises(interpreter.InterpreterError, match="inline_asm_elementwise cannot run in the interpreter"):
        asm_kernel[(1,)](np.zeros(1, np.int32))


def test_the_conformance_corpus_passes_in_the_interpreter(tmp_path):
    """The interpreter is a column of the conformance matrix: every case
    passes there but the documented skips (≥ 99% of the corpus)."""
    from tessera import conformance
    report = tmp_path / "interpreter.json"
    conformance.main(["--target", "interpreter", "--json", str(report)])
    import json
    results = json.loads(report.read_text())["results"]
    by_status = {}
    for r in results:
        by_status.setdefault(r["status"], []).append(r)
    assert not by_status.get("fail"), [(r["case"], r["dtype"], r["message"]) for r in by_status["fail"]][:5]
    assert len(by_status["pass"]) >= 0.99 * len(results) and len(results) > 1000
    assert all(r["message"] for r in by_status.get("skip", []))  # each skip says why


@tessera.jit
def plain_print_kernel(x_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    print("x =", x)


def test_plain_print_in_a_compiled_kernel_prints_at_run_time_as_triton(capfd):
    """Compiled, Python's print is Triton's: tl.device_print with the prefix
    made to end in ": " (the interpreter's is Python's, showing the tile)."""
    plain_print_kernel[(1,)](np.array([3, 1, 4, 1], dtype=np.int32), BLOCK=4)
    lines = [ln for ln in capfd.readouterr().out.splitlines() if "x =" in ln]
    assert sorted(lines) == ["pid (0, 0, 0) idx (%d) x =: %d" % (i, v) for i, v in enumerate([3, 1, 4, 1])]


@tessera.jit(target="interpreter")
def two_buffers_kernel(x_ptr, y_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    ptrs = tl.where(offs % 2 == 0, x_ptr + offs, y_ptr + offs)   # one tile of pointers into two arrays
    tl.store(out_ptr + offs, tl.load(ptrs))
    tl.store(tl.where(offs % 3 == 0, x_ptr + offs, y_ptr + offs), offs.to(tl.float32))


def test_a_tile_of_pointers_into_several_arguments():
    x, y = np.arange(8, dtype=np.float32), np.arange(8, dtype=np.float32) + 100
    out = np.zeros(8, np.float32)
    want_out = np.where(np.arange(8) % 2 == 0, x, y)
    two_buffers_kernel[(1,)](x, y, out, BLOCK=8)
    np.testing.assert_array_equal(out, want_out)
    third = np.arange(8) % 3 == 0
    np.testing.assert_array_equal(x[third], np.arange(8)[third])
    np.testing.assert_array_equal(y[~third], np.arange(8)[~third])
    np.testing.assert_array_equal(y[third], (np.arange(8) + 100)[third])


def test_a_host_librarys_function_in_a_kernel_is_named_as_such():
    """#51: np.exp in a kernel said "name 'np' is not defined"."""
    @tessera.jit
    def numpy_in_kernel(x_ptr):
        x = tl.load(x_ptr)
        tl.store(x_ptr, np.exp(x))

    with pytest.raises(tessera.CompilationError,
                       match=r"np\.exp is a function of module 'numpy', which runs on the host and cannot be called in "
                             r"a kernel \(use tl\.exp\)"):
        numpy_in_kernel[(1,)](np.ones(1, np.float32))
    # In the interpreter the kernel is Python: numpy's exp reaches the tile's exp method.
    x = np.ones(1, np.float32)
    with interpreter.enabled():
        numpy_in_kernel[(1,)](x)
    np.testing.assert_allclose(x, np.exp(np.float32(1)), rtol=1e-6)


def test_argument_errors_name_the_kernel():
    """#51: a missing argument's error did not say which kernel."""
    @tessera.jit
    def needs_n(x_ptr, n, BLOCK: tl.constexpr):
        pass

    with pytest.raises(TypeError, match=r"^needs_n\(\): missing a required argument: 'n'$"):
        needs_n[(1,)](np.zeros(4, np.float32), BLOCK=4)
    with pytest.raises(TypeError, match=r"^needs_n\(\): too many positional arguments$"):
        needs_n[(1,)](np.zeros(4, np.float32), 4, 8, 9)


def test_occupancy_from_warmup_then_an_interpreted_launch_under_TRITON_INTERPRET(tmp_path):
    # Triton's tutorial 02 sizes a persistent grid from warmup()'s kernel
    # (n_regs, metadata.shared) and the device's properties, then launches
    # that kernel: under TRITON_INTERPRET the launch runs in the interpreter.
    script = """
        import tessera.compat; tessera.compat.install()
        import numpy as np, torch, triton, triton.language as tl
        from triton.runtime import driver

        @triton.jit
        def softmax_kernel(out_ptr, in_ptr, stride, n_rows, n_cols, BLOCK: tl.constexpr):
            for row in tl.range(tl.program_id(0), n_rows, tl.num_programs(0)):
                cols = tl.arange(0, BLOCK)
                x = tl.load(in_ptr + row * stride + cols, mask=cols < n_cols, other=-float("inf"))
                e = tl.exp(x - tl.max(x, axis=0))
                if row == 0:
                    print("row 0 sum", tl.sum(e, axis=0) > 0)
                tl.store(out_ptr + row * stride + cols, e / tl.sum(e, axis=0), mask=cols < n_cols)

        device = driver.active.get_active_torch_device()
        props = driver.active.utils.get_device_properties(device.index)
        x = torch.randn(37, 100, device=device)
        y = torch.full_like(x, float("nan"))
        num_warps = 8
        kernel = softmax_kernel.warmup(y, x, x.stride(0), 37, 100, BLOCK=128, num_warps=num_warps, grid=(1,))
        kernel._init_handles()
        occupancy = props["max_num_regs"] // (kernel.n_regs * props["warpSize"] * num_warps)
        occupancy = min(occupancy, props["max_shared_mem"] // kernel.metadata.shared)
        programs = min(props["multiprocessor_count"] * occupancy, 37)
        kernel[(programs, 1, 1)](y, x, x.stride(0), 37, 100, 128)
        torch.testing.assert_close(y, torch.softmax(x, dim=1))
        print("programs", programs, "cores", props["multiprocessor_count"])
    """
    r = _run(script, env={"TRITON_INTERPRET": "1"}, path=tmp_path / "app.py")
    assert r.returncode == 0, r.stderr
    assert "row 0 sum True" in r.stdout  # Python's print of a tile: the interpreter ran it
    cores = os.cpu_count()
    assert "programs %d cores" % min(cores, 37) in r.stdout, r.stdout


def test_enabled_interprets_a_kernel_the_fast_lane_already_launches(capfd):
    @tessera.jit
    def bump(x_ptr):
        i = tl.arange(0, 4)
        x = tl.load(x_ptr + i)
        print("seen", x)
        tl.store(x_ptr + i, x + 1)

    x = np.zeros(4, np.float32)
    for _ in range(3):  # compiled; later launches take the fast lane (C)
        bump[(1,)](x)
    capfd.readouterr()
    with interpreter.enabled():
        bump[(1,)](x)
    out = capfd.readouterr().out
    assert "seen [3. 3. 3. 3.]" in out  # Python's print of the tile: interpreted
    bump[(1,)](x)  # compiled again after the block
    assert "seen [" not in capfd.readouterr().out
    np.testing.assert_array_equal(x, np.full(4, 5, np.float32))
