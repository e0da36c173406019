"""f-strings in kernels, as Triton accepts them: every field a compile-time
value (tl.constexpr parameters, globals, literals, constexpr arithmetic),
formatted into a constant string at compile time, for tl.static_print,
tl.static_assert's message, tl.device_print's prefix and tl.device_assert's
message. The text is Python's own: conversions and format specs as Python
applies them (the differential test below formats the same fields in Python).
A field holding a runtime value is an error at the field."""

import importlib
import inspect
import sys

import numpy as np
import pytest

import tessera
import tessera.language as tl
from tessera import _C

LABEL = tl.constexpr("blk")  # a string global is a constexpr as Triton asks (numbers need not be)
RATE = 0.1


@tessera.jit
def printed(x_ptr, y_ptr, N: tl.constexpr, SCALE: tl.constexpr):
    tl.static_print(f"N={N} SCALE={SCALE} {LABEL!r} rate={RATE} {N * SCALE:.2f}|{N:>4}|{N:#06x}|{N=}")
    tl.static_assert(N % 4 == 0, f"N={N} is not a multiple of 4 (remainder {N % 4})")
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    tl.device_print(f"{LABEL}[{N}] x*{SCALE:g}: ", x * SCALE)
    tl.device_assert(x >= 0, f"{LABEL}: negative x in a block of {N} (scale {SCALE!r})")
    tl.store(y_ptr + offs, x * SCALE)


def test_static_print_shows_the_formatted_string_at_compile_time(capfd):
    x = np.arange(4, dtype=np.float32)
    y = np.zeros_like(x)
    printed[(1,)](x, y, N=4, SCALE=2.5)
    out, err = capfd.readouterr()
    assert "N=4 SCALE=2.5 'blk' rate=0.1 10.00|   4|0x0004|N=4\n" in err  # static_print writes to stderr
    np.testing.assert_array_equal(y, x * 2.5)


def test_device_print_takes_an_f_string_prefix(capfd):
    x = np.array([3, 1, 4, 1], dtype=np.float32)
    printed[(1,)](x, np.zeros_like(x), N=4, SCALE=2.0)
    lines = sorted(ln for ln in capfd.readouterr().out.splitlines() if "blk[4]" in ln)
    assert lines == ["pid (0, 0, 0) idx (%d) blk[4] x*2: %s" % (i, v) for i, v in
                     enumerate(["6.000000", "2.000000", "8.000000", "2.000000"])], lines


def test_a_failed_static_assert_shows_its_formatted_message():
    x = np.zeros(8, dtype=np.float32)
    with pytest.raises(tessera.CompileTimeAssertionFailure) as info:
        printed[(1,)](x, np.zeros_like(x), N=2, SCALE=1.0)
    assert "static_assert failed: N=2 is not a multiple of 4 (remainder 2)" in str(info.value)


def test_a_failed_device_assert_shows_its_formatted_message():
    x = np.array([1, -1, 2, 3], dtype=np.float32)
    with pytest.raises(tessera.DeviceAssertionError, match=r"blk: negative x in a block of 4 \(scale 1\.5\)"):
        printed[(1,)](x, np.zeros_like(x), N=4, SCALE=1.5)


@tessera.jit
def runtime_field(x_ptr, n):
    x = tl.load(x_ptr + tl.arange(0, 4))
    tl.device_print(f"n={n} ", x)


def test_a_runtime_value_in_a_field_is_an_error_at_the_field():
    lines, first = inspect.getsourcelines(runtime_field.fn)
    line = next(i for i, text in enumerate(lines) if "device_print" in text)
    col = lines[line].index("{n}") + 2  # the field's expression
    with pytest.raises(tessera.CompilationError) as info:
        runtime_field[(1,)](np.zeros(4, np.float32), 3)
    message = str(info.value)
    assert "%s:%d:%d: error: f-string value 'n' is not a compile-time constant (it is a tensor of type i32)" % (
        __file__, first + line, col) in message, message
    assert 'tl.device_print(f"n={n} ", x)' in message and "^" in message
    assert isinstance(info.value, _C.UnsupportedLanguageConstruct)  # Triton's class for it
    assert "formatting runtime values is not supported" in str(info.value.__cause__)


# Fields formatted by the frontend and by Python, for the same values: each
# line of the kernel's static_print output must be Python's text.
FIELDS = [
    "{N}", "{N!r}", "{N!s:>6}", "{NAME!r}", "{NAME!a}", "{NAME:^9}", "{NAME:*<7.2}", "{NAME!r:>8}",
    "{N:08b}", "{N:#o}", "{N:#x}", "{N:#X}", "{-N:+d}", "{N: d}", "{N:=+8}", "{N:<5}|", "{N:^7}", "{N:c}",
    "{BIG:,}", "{BIG:_}", "{BIG:_b}", "{-BIG:015,}", "{BIG:x}", "{BIG:e}", "{BIG:.3g}", "{BIG:%}",
    "{F}", "{F:.3f}", "{F:10.4f}", "{F:e}", "{F:.2E}", "{F:g}", "{F:G}", "{F:%}", "{F:.1%}", "{F:+.1f}",
    "{F:010.2f}", "{F:,.2f}", "{F * 1000:_.1f}", "{F:.3}", "{F:#.0f}", "{F:#g}", "{TINY}", "{TINY:.1f}",
    "{TINY:z.1f}", "{-0.0}", "{0.1 + 0.2}", "{1 / 3}", "{2.0 ** 60}", "{1e-7}", "{1e16}", "{123456789.0:g}",
    "{float('inf')}", "{-float('inf'):>6}", "{float('nan'):E}", "{100.0:.3}", "{12.0:.3}",
    "{FLAG}", "{FLAG:d}", "{FLAG:>6}", "{not FLAG!r}", "{None}", "{(N, F, NAME)}", "{(N,)}", "{()}",
    "{N=}", "{ N + 1 = }", "{F=:.2f}", "{NAME=!s}", "{N:{W}}", "{F:>{W}.{P}f}", "{{}}", "{'a' 'b'}",
    "{f'{N}' + 'x'}", "{N if FLAG else F}", "{N // 5}, {N % 5}, {N ** 2}, {N << 3}", "{tl.float32}",
    "{tl.int8!r}",
]
MODULE = '''
import tessera
import tessera.language as tl

NAME = tl.constexpr("ab\\'c")
BIG = 1234567
TINY = -0.04
W = 12
P = 3


@tessera.jit
def fields(x_ptr, N: tl.constexpr, F: tl.constexpr, FLAG: tl.constexpr):
%s
'''


def test_fields_format_as_python_formats_them(tmp_path, capfd):
    lines = "".join('    tl.static_print(f"%s")\n' % f for f in FIELDS)
    (tmp_path / "fstring_fields.py").write_text(MODULE % lines)
    sys.path.insert(0, str(tmp_path))
    try:
        module = importlib.import_module("fstring_fields")
    finally:
        sys.path.remove(str(tmp_path))
    module.fields[(1,)](np.zeros(1, np.float32), N=42, F=3.14159, FLAG=True)
    printed = capfd.readouterr().err.splitlines()
    # Python formats the values the kernel sees (a tl.constexpr global: its value).
    scope = {k: v.value if isinstance(v, tl.constexpr) else v for k, v in vars(module).items()}
    scope.update(N=42, F=3.14159, FLAG=True, tl=tl)
    want = [eval('f"%s"' % f, scope) for f in FIELDS]
    got = printed[-len(FIELDS):]
    assert len(got) == len(FIELDS), printed
    assert [(f, g) for f, g, w in zip(FIELDS, got, want) if g != w] == [], list(zip(FIELDS, got, want))


@tessera.jit(target="interpreter")
def interpreted(x_ptr, y_ptr, N: tl.constexpr):
    tl.static_print(f"interpreted N={N:>3} rate={RATE!r} {'tag'!r}")
    tl.static_assert(N > 0, f"N={N} must be positive")
    x = tl.load(x_ptr + tl.arange(0, N))
    tl.device_print(f"N={N} x: ", x)
    tl.store(y_ptr + tl.arange(0, N), x + N)


def test_the_interpreter_runs_f_strings_as_python(capsys):
    """Under the interpreter the kernel is Python: its f-strings are Python's.
    (A tl.constexpr global shows there as Python shows the wrapper,
    constexpr['blk'], as in Triton's interpreter; compiled, its value.)"""
    x = np.array([5, 7], dtype=np.int32)
    y = np.zeros_like(x)
    interpreted[(1,)](x, y, N=2)
    out = capsys.readouterr()
    assert "interpreted N=  2 rate=0.1 'tag'" in out.out + out.err
    assert "N=2 x: 5" in out.out and "N=2 x: 7" in out.out
    np.testing.assert_array_equal(y, x + 2)
