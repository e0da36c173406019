"""Pickling and copying a kernel (issue #52): a module-level @jit kernel
pickles by reference, as a function does, before and after launches, and
unpickles (in this process and a fresh one) to a working kernel; deepcopy
gives the same kernel; loaded binaries never travel."""

import copy
import os
import pickle
import subprocess
import sys

import numpy as np
import pytest

import tessera
import tessera.language as tl
from tessera.bench.workloads import _add_kernel


def _add(kernel, n=100):
    x = np.arange(n, dtype=np.float32)
    o = np.zeros(n, np.float32)
    kernel[(tessera.cdiv(n, 64),)](x, x, o, n, BLOCK=64)
    np.testing.assert_array_equal(o, 2 * x)


def test_pickle_after_a_launch(cpu_target):
    _add(_add_kernel)
    data = pickle.dumps(_add_kernel)
    assert len(data) < 200  # a reference, no binaries
    assert pickle.loads(data) is _add_kernel
    _add(pickle.loads(data))
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        assert pickle.loads(pickle.dumps(_add_kernel, protocol)) is _add_kernel


def test_unpickle_in_a_fresh_process(cpu_target):
    _add(_add_kernel)
    code = ("import pickle, sys, numpy as np\n"
            "k = pickle.loads(sys.stdin.buffer.read())\n"
            "x = np.arange(100, dtype=np.float32); o = np.zeros(100, np.float32)\n"
            "k[(2,)](x, x, o, 100, BLOCK=64)\n"
            "assert (o == 2 * x).all(); print(type(k).__name__, 'ok')\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    r = subprocess.run([sys.executable, "-c", code], input=pickle.dumps(_add_kernel), capture_output=True,
                       timeout=120, env=env)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.decode().strip() == "JITFunction ok"


def test_deepcopy_and_copy(cpu_target):
    _add(_add_kernel)
    assert copy.deepcopy(_add_kernel) is _add_kernel
    assert copy.deepcopy({"k": _add_kernel})["k"] is _add_kernel
    shallow = copy.copy(_add_kernel)
    assert shallow is not _add_kernel
    _add(shallow)


def test_local_kernel_is_a_clear_error():
    @tessera.jit
    def local(o_ptr):
        tl.store(o_ptr, 1)
    with pytest.raises(pickle.PicklingError, match="defined inside a function"):
        pickle.dumps(local)
    assert copy.deepcopy(local) is local


def test_a_kernel_without_its_function_pickles_by_value(cpu_target):
    # Inductor's compile workers clear fn, __globals__ and used_global_vals
    # before pickling a kernel's autotuner back to the parent (Triton's
    # JITFunction pickles only so) and put them back after.
    _add(_add_kernel)
    saved = _add_kernel.fn, _add_kernel.__globals__, _add_kernel.used_global_vals
    try:
        _add_kernel.fn = _add_kernel.__globals__ = _add_kernel.used_global_vals = None
        assert _add_kernel.used_global_vals is None
        copy_ = pickle.loads(pickle.dumps(_add_kernel))
    finally:
        _add_kernel.fn, _add_kernel.__globals__, _add_kernel.used_global_vals = saved
    assert _add_kernel.used_global_vals == saved[2] and "_used_global_vals" not in _add_kernel.__dict__
    assert copy_ is not _add_kernel and copy_.fn is None
    assert copy_.arg_names == _add_kernel.arg_names and copy_.constexprs == _add_kernel.constexprs
    assert copy_.src == _add_kernel.src and copy_.__name__ == "_add_kernel"
    assert [p.name for p in copy_.params] == _add_kernel.arg_names
    with pytest.raises(RuntimeError, match="has no Python function"):
        _add(copy_)
    _add(_add_kernel)
