"""@tessera.jit without a code generator: grids, specialization keys, the
in-memory cache, the module text sent to the frontend, and errors. Launches
use the hand-written ABI kernels (abi_kernels.c) in place of compiled code."""

import enum

import numpy as np
import pytest

import tessera
import tessera.language as tl
from tessera import _C
from tessera.jit import normalize_grid

BLOCK_GLOBAL = 64
SCALE = 0.5
DTYPE = tl.float16


@tessera.jit
def helper(x):
    return x * SCALE


@tessera.jit
def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(output_ptr + offsets, helper(x) + y + BLOCK_GLOBAL * 0, mask=mask)


class Recorder:
    """Stands in for _C.compile: records requests, returns a real kernel."""

    def __init__(self, abi_kernels, entry="add_kernel", params=4):
        self.calls, self.abi, self.entry, self.params = [], abi_kernels, entry, params

    def __call__(self, source, entry, signature, constexprs, **kw):
        self.calls.append(dict(source=source, entry=entry, signature=list(signature),
                               constexprs=dict(constexprs), **kw))
        return _C.load_binary(self.abi, self.entry, self.params)


@pytest.fixture
def recorder(monkeypatch, abi_kernels):
    r = Recorder(abi_kernels)
    monkeypatch.setattr(_C, "compile", r)
    return r


def test_grid_forms():
    assert normalize_grid((4,), {}) == (4, 1, 1)
    assert normalize_grid([2, 3], {}) == (2, 3, 1)
    assert normalize_grid(7, {}) == (7, 1, 1)
    assert normalize_grid(lambda meta: (tessera.cdiv(meta["n"], meta["B"]),), {"n": 100, "B": 32}) == (4, 1, 1)
    assert normalize_grid((tl.constexpr(2), 1, 1), {}) == (2, 1, 1)
    for bad in [(), (1, 2, 3, 4), (-1,), (2**31,), (2**20, 2**20, 2**20), (1, 65536), (1, 1, 65536)]:
        with pytest.raises(ValueError):
            normalize_grid(bad, {})
    assert normalize_grid(np.int64(5), {}) == (5, 1, 1)
    assert normalize_grid((np.int32(2), 3), {}) == (2, 3, 1)


@pytest.mark.parametrize("bad", ["12", b"12", 2.0, (2.7,), ("4",), None, {"x": 1}.keys()])
def test_grids_that_are_not_integers_are_refused(bad):
    # '12' used to be read as (1, 2) and 2.7 as 2: silently wrong launches.
    with pytest.raises(TypeError, match="grid"):
        normalize_grid(bad, {})


def test_parameters_and_direct_call():
    assert add_kernel.arg_names == ["x_ptr", "y_ptr", "output_ptr", "n_elements", "BLOCK_SIZE"]
    assert add_kernel.constexpr_names == {"BLOCK_SIZE"}
    with pytest.raises(RuntimeError, match=r"add_kernel\[grid\]"):
        add_kernel(1, 2)


def test_launch_compiles_once_per_specialization(recorder):
    n = 1000  # the arrays hold 1024: the launches below also pass n = 1024
    x, y = np.random.rand(1024).astype(np.float32), np.random.rand(1024).astype(np.float32)
    out = np.full(1024, np.nan, np.float32)
    grid = lambda meta: (tessera.cdiv(meta["n_elements"], meta["BLOCK_SIZE"]),)
    add_kernel[grid](x, y, out, n, BLOCK_SIZE=64)
    np.testing.assert_array_equal(out[:n], x[:n] + y[:n])  # the hand-written kernel ran on the arrays
    assert np.isnan(out[n:]).all()
    call = recorder.calls[0]
    assert call["entry"] == "add_kernel" and call["target"] == "cpu"
    assert call["signature"][3] == "i32"                 # 1000 % 16 != 0
    assert call["constexprs"]["BLOCK_SIZE"] == "64"
    # module-level compile-time globals the kernels read, by name
    assert call["constexprs"]["BLOCK_GLOBAL"] == "64" and call["constexprs"]["SCALE"] == "0.5"
    assert "DTYPE" not in call["constexprs"]            # not referenced
    # the helper JITFunction and the module alias travel with the kernel
    assert "def helper(x):" in call["source"] and "def add_kernel(" in call["source"]
    assert "import tessera.language as tl" in call["source"]
    assert "@tessera.jit" not in call["source"]

    add_kernel[(16,)](x, y, out, n, BLOCK_SIZE=64)       # same key: no compile
    assert len(recorder.calls) == 1
    add_kernel[(16,)](x, y, out, 1024, BLOCK_SIZE=64)   # n % 16 == 0: new specialization
    assert recorder.calls[-1]["signature"][3] == "i32:16"
    add_kernel[(16,)](x[1:], y, out, n - 1, BLOCK_SIZE=64)  # misaligned pointer
    assert recorder.calls[-1]["signature"][0] == "*fp32"
    add_kernel[(16,)](x, y, out, n, BLOCK_SIZE=64, num_warps=8)
    assert recorder.calls[-1]["num_warps"] == 8
    assert len(recorder.calls) == 4
    assert len(add_kernel.cache) >= 4


def test_do_not_specialize(recorder):
    @tessera.jit(do_not_specialize=["n_elements"])
    def k(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
        pass

    a = np.zeros(32, np.float32)
    k[(1,)](a, a, a, 16, BLOCK_SIZE=64)
    k[(1,)](a, a, a, 17, BLOCK_SIZE=64)
    assert recorder.calls[0]["signature"][3] == "i32" and len(recorder.calls) == 1


def test_none_arguments_are_constexpr(recorder):
    @tessera.jit
    def k(x_ptr, y_ptr, output_ptr, n_elements, bias_ptr=None, BLOCK_SIZE: tl.constexpr = 64):
        pass

    a = np.zeros(32, np.float32)
    k[(1,)](a, a, a, 32)
    assert recorder.calls[0]["constexprs"] == {"bias_ptr": "None", "BLOCK_SIZE": "64"}
    assert len(recorder.calls[0]["signature"]) == 4


def test_wrong_argument_count_is_a_python_error(recorder):
    a = np.zeros(4, np.float32)
    with pytest.raises(TypeError):
        add_kernel[(1,)](a, a, BLOCK_SIZE=64)


def test_frontend_errors_point_into_the_original_file():
    @tessera.jit
    def broken(x_ptr, N: tl.constexpr):
        offs = tl.arange(0, N)
        y = tl.load(x_ptr + offs) + not_defined_anywhere
        tl.store(x_ptr + offs, y)

    import inspect
    first = inspect.getsourcelines(broken.fn)[1]
    with pytest.raises(tessera.CompilationError) as info:
        broken[(1,)](np.zeros(16, np.float32), N=16)
    message = str(info.value)
    assert "%s:%d:" % (__file__, first + 3) in message, message
    assert "name 'not_defined_anywhere' is not defined" in message
    assert "^" in message
    # the column is the original file's (the kernel is indented in this file)
    line = inspect.getsourcelines(broken.fn)[0][3]
    assert ":%d:%d:" % (first + 3, line.index("not_defined_anywhere") + 1) in message, message


def test_device_assertion_becomes_an_exception(monkeypatch, abi_kernels):
    monkeypatch.setattr(_C, "compile", Recorder(abi_kernels, "assert_kernel", 1))

    @tessera.jit
    def checks(bad_pid):
        pass

    checks[(10,)](-1)
    with pytest.raises(tessera.DeviceAssertionError, match="kernel.py:42"):
        checks[(10,)](7)


def test_num_stages_as_a_kernel_parameter(recorder):
    # Triton's softmax tutorial: num_stages is both a launch option and a constexpr parameter.
    @tessera.jit
    def k(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr, num_stages: tl.constexpr):
        pass

    a = np.zeros(64, np.float32)
    k[(1,)](a, a, a, 64, BLOCK_SIZE=64, num_stages=2)
    assert recorder.calls[0]["constexprs"]["num_stages"] == "2" and recorder.calls[0]["num_stages"] == 2


def test_attribute_names_do_not_pull_in_globals():
    # `tl.load` must not make a module global named `load` part of the
    # specialization (it would change the cache key from run to run).
    from tessera import _source

    def kernel(p):
        tl.load(p)

    names = _source._referenced_names(kernel.__code__)
    assert "tl" in names and "load" not in names


_SCALE = tl.constexpr(3)


@tessera.jit
def _scaled(x):
    return x * _SCALE


@tessera.jit
def _scale_in_place(x_ptr):
    tl.store(x_ptr, _scaled(tl.load(x_ptr)))


def test_tritons_jit_function_attributes_parse_type_hash_and_used_globals():
    _scale_in_place.hash = None
    assert _scale_in_place.hash is None  # Triton's: None until the cache key is computed
    x = np.full(1, 2.0, np.float32)
    _scale_in_place[(1,)](x)
    assert x[0] == 6.0
    assert _scale_in_place.hash == _scale_in_place.cache_key
    used = {name: value for (name, _), (value, _) in _scale_in_place.used_global_vals.items()}
    assert used["_SCALE"] == 3 and used["_scaled"] is _scaled  # what it and its callee read
    tree = _scale_in_place.parse()
    assert [type(node).__name__ for node in tree.body] == ["FunctionDef"] and tree.body[0].name == "_scale_in_place"
    assert _scale_in_place.type == tl.constexpr_type(_scale_in_place)
    with pytest.raises(AttributeError, match="only None"):
        _scale_in_place.hash = "x"


class _Mode(enum.IntEnum):
    SUM = 0
    MAX = 1


class _Activation(str, enum.Enum):
    RELU = "relu"
    GELU = "gelu"


@tessera.jit
def _by_mode(out, MODE: tl.constexpr, ACT: tl.constexpr):
    tl.store(out, 7 if MODE == 1 else 3)
    tl.store(out + 1, 1 if ACT == "relu" else 2)


def test_enum_constexprs_are_the_values_they_hold():
    # An IntEnum is the int it holds, a str Enum its string, as they compare in Triton's kernels.
    out = np.zeros(2, np.int32)
    for mode, act, want in [(_Mode.SUM, _Activation.RELU, [3, 1]), (_Mode.MAX, _Activation.GELU, [7, 2])]:
        _by_mode[(1,)](out, mode, act)
        np.testing.assert_array_equal(out, want)
