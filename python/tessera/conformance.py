"""The conformance runner: every case of the corpus (conformance/cases/*.py)
on every target, as a case x target matrix.

    python -m tessera.conformance [--target cpu] [--case PATTERN] [--seed N]
                                  [--json out.json] [--junit out.xml]

A case is a kernel, an input builder (rng, dtype) -> keyword arguments, a
numpy reference computed in float64 (exact integers for integer outputs),
tolerances by output dtype and the dtypes it applies to. Inputs are fresh
random values every run (the seed is printed; each case draws from
(seed, case, dtype), so one case reruns alone with the same inputs). Outputs
are poisoned before the launch and framed by guard zones, so unwritten
elements and stray writes past either end are caught.

Targets: one that can run here (code generator + device) runs every case;
one with a code generator but no device compiles (and assembles) every case
without running it; one without a code generator in this build is listed as
skip with the reason.

Layer 4, api (python/tessera/__init__.py lists the layers).
"""

import argparse
import contextlib
import fnmatch
import glob
import importlib.util
import io
import json
import os
import re
import sys
import tempfile
import time
import traceback
import zlib
import xml.etree.ElementTree as ET

import numpy as np

from . import _C, _array, _targets, interpreter
from . import language as tl

try:
    import ml_dtypes
except ImportError:  # bf16 and fp8 cases fail without it (ci/requirements.txt pins it)
    ml_dtypes = None

# ---- dtypes

INTS = ["i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64"]
SIGNED = ["i8", "i16", "i32", "i64"]
FLOATS = ["fp16", "bf16", "fp32", "fp64"]
FP8 = ["fp8e4nv", "fp8e5"]
ALL = INTS + FLOATS + ["i1"]

_NP = {"i1": np.bool_, "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64, "u8": np.uint8,
       "u16": np.uint16, "u32": np.uint32, "u64": np.uint64, "fp16": np.float16, "fp32": np.float32,
       "fp64": np.float64}
if ml_dtypes is not None:
    _NP.update(bf16=ml_dtypes.bfloat16, fp8e4nv=ml_dtypes.float8_e4m3fn, fp8e5=ml_dtypes.float8_e5m2)


class NoNumpyDtype(KeyError):
    """A case needs numpy arrays of a type numpy lacks (bf16, fp8) without
    ml_dtypes: the case is skipped, saying so."""


def np_dtype(name):
    """The numpy dtype of a type named in any of tl's spellings ("i32", "int32", tl.int32)."""
    if name not in _NP:
        try:
            name = tl.dtype(name).short
        except TypeError:
            pass
    if name not in _NP:
        raise NoNumpyDtype("no numpy dtype for %s (ml_dtypes is needed for bf16 and fp8: pip install ml_dtypes, "
                           "or tessera[conformance])" % name)
    return np.dtype(_NP[name])


def tl_dtype(name):
    return next(d for d in tl.dtype._registry.values() if d.short == name)


def is_float(name):
    return name.startswith("fp") or name == "bf16"


# (rtol, atol) of a float output against the float64 reference: a few ulp of
# the output type, since the kernel rounds once per op in that type.
TOLERANCES = {"fp64": (1e-12, 1e-12), "fp32": (2e-6, 1e-6), "fp16": (2e-3, 1e-3), "bf16": (1.6e-2, 1e-2),
              "fp8e4nv": (1.3e-1, 2e-2), "fp8e5": (2.6e-1, 4e-2)}

# ---- inputs


def rand(rng, shape, dtype, low=None, high=None):
    """Random values of `dtype` (a signature name) that are never zero
    (except i1): floats uniform in +-[0.1, 4) or [low, high); integers over a
    small range or [low, high)."""
    dt = np_dtype(dtype)
    if dtype == "i1":
        return rng.integers(0, 2, shape).astype(np.bool_)
    if is_float(dtype):
        if low is None:
            x = rng.uniform(0.1, 4.0, shape) * rng.choice([-1.0, 1.0], shape)
        else:
            x = rng.uniform(low, high, shape)
            x = np.where(x == 0, (high - low) / 7 + low or 0.5, x)
        return x.astype(dt)
    info = np.iinfo(dt)
    lo = max(info.min, -100) if low is None else low
    hi = min(info.max, 100) if high is None else high
    x = rng.integers(lo, hi, shape, dtype=np.int64 if dtype != "u64" else np.uint64, endpoint=True)
    x = np.where(x == 0, 1 if lo < 1 <= hi else hi, x)
    return x.astype(dt)


def full_range(rng, shape, dtype):
    """Random bits: integers over the whole range of the type."""
    dt = np_dtype(dtype)
    x = rng.integers(0, 256, (*np.atleast_1d(np.empty(shape)).shape, dt.itemsize), dtype=np.uint8)
    return x.view(dt).reshape(shape)


class Out:
    """An output buffer the runner allocates, poisons and guards."""

    GUARD = 64  # bytes on each side

    def __init__(self, shape, dtype):
        self.shape = tuple(np.atleast_1d(shape)) if not isinstance(shape, tuple) else shape
        self.dtype = dtype

    def allocate(self):
        dt = np_dtype(self.dtype)
        n = int(np.prod(self.shape, dtype=np.int64))
        g = self.GUARD // dt.itemsize
        raw = np.empty(n + 2 * g, dt)
        _bits(raw)[:] = _bits(poison(self.dtype))[0]
        return raw, raw[g:g + n].reshape(self.shape), g


def poison(dtype):
    """One element (an array: a bool scalar would lose its bits) that no
    kernel computes: a NaN with a payload for floats, 0xA5 bytes otherwise
    (0xA5 is no valid bool either). An element still holding it was never
    written."""
    dt = np_dtype(dtype)
    bits = {"fp64": 0x7FF4A5A5A5A5A5A5, "fp32": 0x7FA5A5A5, "fp16": 0x7DA5, "bf16": 0x7FA5, "fp8e4nv": 0x7F,
            "fp8e5": 0x7D}
    if dtype in bits:
        return np.array([bits[dtype]], "u%d" % dt.itemsize).view(dt)
    return np.frombuffer(b"\xa5" * dt.itemsize, dt).copy()


def _bits(a):
    return np.ascontiguousarray(a).view("u%d" % a.dtype.itemsize)


# (mantissa bits, smallest normal exponent, largest finite value, has inf)
FLOAT_FORMATS = {"fp64": (52, -1022, np.finfo(np.float64).max, True), "fp32": (23, -126, 3.4028234663852886e38, True),
                 "fp16": (10, -14, 65504.0, True), "bf16": (7, -126, 3.3895313892515355e38, True),
                 "fp8e4nv": (3, -6, 448.0, False), "fp8e5": (2, -14, 57344.0, True)}


def round_float(x, dtype):
    """float64 values rounded once, to nearest even, to `dtype` (returned as
    that dtype). ml_dtypes rounds through float32 (twice), so it cannot be
    the reference for bf16 and fp8. Overflow gives inf, or for e4m3 (no
    infinities) the largest finite value: IR.h's saturating semantics."""
    x = np.asarray(x, np.float64)
    if dtype == "fp64":
        return x.copy()
    mbits, emin, fmax, has_inf = FLOAT_FORMATS[dtype]
    with np.errstate(all="ignore"):
        e = np.maximum(np.floor(np.log2(np.abs(np.where(np.isfinite(x) & (x != 0), x, 1.0)))), emin)
        ulp = np.exp2(e - mbits)
        q = np.round(x / ulp) * ulp
        top = np.exp2(np.floor(np.log2(fmax)) - mbits)      # the ulp at the largest binade
        over = np.abs(x) >= fmax + top / 2 if has_inf else np.abs(q) > fmax
        q = np.where(over, np.sign(x) * (np.inf if has_inf else fmax), q)
        q = np.where(np.isfinite(x), q, x if has_inf else np.where(np.isnan(x), x, np.sign(x) * fmax))
    return q.astype(np_dtype(dtype))


# ---- cases


class Case:
    """One kernel of the corpus.

    name: "group.op"; kernel: a JITFunction; inputs(rng, dtype) -> the
    kernel's keyword arguments (arrays, scalars, constexprs and Out buffers);
    grid: a tuple or a callable of those arguments; reference(args) -> dict
    of expected outputs by argument name, computed from the inputs (floats
    upcast to float64), or a callable(actual) returning an error or None for
    statistical checks; dtypes: what `inputs` accepts; tol: (rtol, atol)
    overriding TOLERANCES, or a dict by output dtype; raises: an exception
    type (and `match`) the launch must raise; stdout: the reference also
    gets the kernel's printed text as args["stdout"]; upcast=False gives the
    reference the inputs as launched (for bit-level references); xfail/skip:
    a reason, or a dict of reasons by dtype.
    """

    registry = []

    def __init__(self, name, kernel, inputs, reference, dtypes=("fp32",), grid=(1,), tol=None, raises=None,
                 match=None, stdout=False, upcast=True, xfail=None, skip=None, skip_run_on=None):
        self.name, self.kernel, self.inputs, self.reference = name, kernel, inputs, reference
        self.dtypes, self.grid, self.tol = list(dtypes), grid, tol
        self.raises, self.match, self.stdout, self.upcast = raises, match, stdout, upcast
        self.xfail, self.skip = xfail, skip
        self.skip_run_on = skip_run_on or {}  # target (or alias) -> why it is compiled but not run there
        self.module = None
        Case.registry.append(self)

    def reason(self, which, dtype):
        r = getattr(self, which)
        return r.get(dtype) if isinstance(r, dict) else r

    def tolerance(self, dtype):
        t = self.tol
        if isinstance(t, dict):
            t = t.get(dtype)
        return t or TOLERANCES.get(dtype, (0, 0))


def corpus_dir():
    """$TESSERA_CONFORMANCE_DIR, else the corpus a wheel carries in the
    package (tessera/conformance_cases), else the source tree's."""
    env = os.environ.get("TESSERA_CONFORMANCE_DIR")
    if env:
        return env
    for folder in _C.package_folders():
        if os.path.isdir(os.path.join(folder, "conformance_cases")):
            return os.path.join(folder, "conformance_cases")
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.join(os.path.dirname(os.path.dirname(here)), "conformance", "cases")


def load_corpus(directory=None):
    """Imports every conformance/cases/*.py once; returns the cases."""
    if not Case.registry:
        for path in sorted(glob.glob(os.path.join(directory or corpus_dir(), "*.py"))):
            stem = os.path.splitext(os.path.basename(path))[0]
            spec = importlib.util.spec_from_file_location("tessera_conformance_cases." + stem, path)
            module = importlib.util.module_from_spec(spec)
            start = len(Case.registry)
            spec.loader.exec_module(module)
            for c in Case.registry[start:]:
                c.module = stem
    return list(Case.registry)

# ---- targets


# The column of the interpreter (tessera.interpreter): kernels run as Python
# over numpy, on the host's arrays.
INTERPRETER = "interpreter"


class Target:
    def __init__(self, name, mode, reason=""):
        self.name, self.mode, self.reason = name, mode, reason  # mode: run or skip


def known_targets():
    """(target, runtime backend) of every row of the target registry, in its
    order: its default flavour, and each other flavour whose device is here
    (spirv:opencl where an OpenCL runtime is installed). A flavour without
    its device is left out: its code is its default flavour's or compiled
    by `--target` alone."""
    here = set(_C.backend_names())
    out = []
    for row in _C.targets():
        out.append((row.name, row.flavours[0].backend))
        out += [("%s:%s" % (row.name, f.name), f.backend) for f in row.flavours[1:] if f.backend in here]
    return out


def find_targets(names=None):
    """The matrix's columns: `names` (targets or aliases; default: every
    known target), each to run, compile only or skip here."""
    if names:
        chosen = [(name, INTERPRETER if name == INTERPRETER else _targets.backend_of(name))
                  for name in names]  # an unknown name raises, listing the known ones
    else:
        chosen = known_targets() + [(INTERPRETER, INTERPRETER)]
    out = []
    for name, backend in chosen:
        if name == INTERPRETER:
            out.append(Target(name, "run"))
            continue
        if not _C.target_available(name):
            out.append(Target(name, "skip", "no code generator in this build yet"))
            continue
        try:
            _C.get_device(backend)
            out.append(Target(name, "run"))
        except _C.TesseraError as e:
            # No device: compile (and assemble) every case, run nothing.
            out.append(Target(name, "compile", "no %s device here: compile-only (%s)"
                              % (backend, str(e).splitlines()[0])))
    return out

# ---- running one case


def _memory_span(a):
    """A 1-D view of the memory from a's first element to its last (a's
    strides must be non-negative): what a kernel given a's address and
    strides may read."""
    if a.flags.c_contiguous:
        return a.reshape(-1)
    if any(st < 0 for st in a.strides):
        raise ValueError("conformance inputs with negative strides are not supported on devices")
    span = sum((n - 1) * st for n, st in zip(a.shape, a.strides)) + a.itemsize if a.size else 0
    return np.lib.stride_tricks.as_strided(a, shape=(span // a.itemsize,), strides=(a.itemsize,))


class _DeviceView:
    """Elements [offset, offset + prod(shape)) of a device Array: an output
    between its guard zones, passed to kernels like a tensor."""

    def __init__(self, array, offset, shape):
        self._array, self._offset, self.shape = array, offset, tuple(shape)
        self.dtype, self.device = array.dtype, array.device
        self._tessera_device = array.device

    def data_ptr(self):
        return self._array.data_ptr() + self._offset * self.dtype.itemsize


class Result:
    def __init__(self, case, dtype, target, status, message="", seconds=0.0):
        self.case, self.dtype, self.target = case, dtype, target
        self.status, self.message, self.seconds = status, message, seconds

    @property
    def id(self):
        return "%s[%s]" % (self.case, self.dtype)


def case_rng(seed, case, dtype):
    return np.random.default_rng([seed, zlib.crc32(("%s[%s]" % (case.name, dtype)).encode())])


@contextlib.contextmanager
def captured_stdout(enabled):
    """Compiled kernels print with dprintf(1, ...): capture file descriptor
    1; the interpreter prints through sys.stdout: capture it too."""
    if not enabled:
        yield lambda: ""
        return
    sys.stdout.flush()
    saved = os.dup(1)
    with tempfile.TemporaryFile(mode="w+b") as f, contextlib.redirect_stdout(io.StringIO()) as python_text:
        os.dup2(f.fileno(), 1)
        text = []
        try:
            yield lambda: "".join(text)
        finally:
            os.dup2(saved, 1)
            os.close(saved)
            f.seek(0)
            text.append(f.read().decode("utf-8", "replace") + python_text.getvalue())


def _as_reference_input(v):
    if isinstance(v, np.ndarray) and (v.dtype.kind == "f" or v.dtype.name in ("bfloat16", "float8_e4m3fn",
                                                                               "float8_e5m2")):
        return v.astype(np.float64)
    return v


def compare(name, actual, expected, dtype, tol, poisoned):
    """An error message, or None when `actual` matches."""
    if callable(expected):
        return expected(actual)
    expected = np.asarray(expected)
    if expected.shape != actual.shape:
        expected = np.broadcast_to(expected, actual.shape)
    if not is_float(dtype):
        exp = expected.astype(actual.dtype) if expected.dtype != actual.dtype else expected
        bad = actual != exp
        shown = exp
    else:
        rtol, atol = tol
        with np.errstate(invalid="ignore", over="ignore"):
            a, e = actual.astype(np.float64), expected.astype(np.float64)
            close = np.abs(a - e) <= atol + rtol * np.abs(e)
        close |= (np.isnan(a) & np.isnan(e)) | (a == e)
        bad = ~close
        shown = e
    if poisoned is not None:
        # A NaN poison never equals itself: compare bits.
        unwritten = _bits(actual) == _bits(poisoned)
        unwritten &= bad
        if unwritten.any():
            i = tuple(int(k) for k in np.argwhere(unwritten)[0])
            return "%s: %d of %d elements never written (still poison), first at %s" % (
                name, int(unwritten.sum()), actual.size, i)
    if not bad.any():
        return None
    if is_float(dtype):
        with np.errstate(invalid="ignore", over="ignore"):
            err = np.where(bad, np.abs(actual.astype(np.float64) - shown), 0)
        err = np.where(np.isnan(err), np.inf, err)
        i = np.unravel_index(int(np.argmax(err)), err.shape) if err.ndim else ()
    else:
        i = tuple(int(k) for k in np.argwhere(bad)[0])
    i = tuple(int(k) for k in i)
    return "%s: %d of %d elements differ; worst at %s: got %r, expected %r" % (
        name, int(bad.sum()), actual.size, i, actual[i].item() if actual.ndim else actual.item(),
        shown[i].item() if shown.ndim else shown.item())


# Compile errors in which a target states what it lacks (a device limit, or a
# feature not built yet): the result is "unsupported", listed with the
# message, not a failure. Only compile-time refusals match: a kernel that
# compiles and computes a wrong result always fails.
_TARGET_GAPS = re.compile(r"not supported on the \w+ target yet|has no Vulkan instruction|"
                          r"needs \d+ bytes of shared memory; \S+ has \d+")
# ... and a device's refusal to load a kernel that needs a feature it lacks
# (a Vulkan device without shaderFloat64, say): the same case passes on a
# device that has it.
_DEVICE_GAPS = re.compile(r"the kernel needs SPIR-V capability \d+ \((Vulkan|Level Zero|OpenCL)'s \w+\), which .* does not have")


def run_case(case, dtype, target, seed):
    """Runs one case for one dtype on a target: a Result."""
    start = time.perf_counter()
    status, message = "pass", ""
    skip = case.reason("skip", dtype)
    if skip:
        return Result(case.name, dtype, target.name, "skip", skip)
    if target.mode == "compile":
        return _compile_only(case, dtype, target, seed, start)
    why = _skip_run_reason(case, target.name)
    if why:
        return Result(case.name, dtype, target.name, "skip", why)
    try:
        message = _run(case, dtype, target, seed)
        if message:
            status = "fail"
    except NoNumpyDtype as e:
        status, message = "skip", e.args[0]
    except Exception as e:  # noqa: BLE001  (any failure is a result)
        status = "fail"
        message = "%s: %s" % (type(e).__name__, e) if isinstance(e, (_C.TesseraError, AssertionError)) else \
            "".join(traceback.format_exception_only(type(e), e)).strip()
        if isinstance(e, _C.CompilationError) and _TARGET_GAPS.search(str(e)) or \
                isinstance(e, _C.TesseraError) and _DEVICE_GAPS.search(str(e)):
            status = "unsupported"
    xfail = case.reason("xfail", dtype)
    if xfail:
        status, message = ("xfail", xfail + " | " + message) if status == "fail" else ("xpass", xfail)
    return Result(case.name, dtype, target.name, status, message, time.perf_counter() - start)


def _skip_run_reason(case, target_name):
    """Why `case` is compiled but not run on this target: its skip_run_on
    keys are target names or aliases, matched through the registry's rows."""
    if target_name == INTERPRETER:
        return case.skip_run_on.get(INTERPRETER)
    row = _C.find_target(target_name)[0]
    return next((why for name, why in case.skip_run_on.items()
                 if name != INTERPRETER and _C.find_target(name)[0] is row), None)


def compile_case(case, dtype, target_name, seed, arch=None):
    """Compiles one case for a target without running it: a _C.Binary."""
    args = case.inputs(case_rng(seed, case, dtype), dtype)
    call = {k: (v.allocate()[1] if isinstance(v, Out) else v) for k, v in args.items()}
    return case.kernel.compile_only(target_name, arch=arch, **call)


def _compile_only(case, dtype, target, seed, start):
    """Compiles a case for a target with no device here: "compiled" when the
    code generator and its assembler (ptxas for nvptx) accept it."""
    status, message = "compiled", ""
    try:
        binary = compile_case(case, dtype, target.name, seed)
        message = "%s, %d bytes" % (binary.format, len(binary.data))
        # A fallback format (PTX without ptxas) means the assembler was not run.
        complete = _C.find_target(target.name)[0].formats[0]
        if binary.format != complete:
            message += " (not assembled to %s here: its assembler is missing)" % complete
    except Exception as e:  # noqa: BLE001
        if case.raises is not None and isinstance(e, case.raises):
            status, message = "compiled", "raised %s at compile time, as expected" % type(e).__name__
        else:
            status, message = "fail", "%s: %s" % (type(e).__name__, e)
    return Result(case.name, dtype, target.name, status, message, time.perf_counter() - start)


def _run(case, dtype, target, seed):
    rng = case_rng(seed, case, dtype)
    args = case.inputs(rng, dtype)
    outs = {}
    call = {}
    for k, v in args.items():
        if isinstance(v, Out):
            raw, view, g = v.allocate()
            outs[k] = (v, raw, g)
            call[k] = view
        else:
            call[k] = v
    device = {}  # name -> (device array, host array it mirrors)
    backend = _C.HOST if target.name == INTERPRETER else _targets.backend_of(target.name)
    if backend != _C.HOST:
        for k, v in list(call.items()):
            if isinstance(v, np.ndarray):
                # The memory the array spans, as it is laid out: a strided
                # view keeps its strides on the device.
                host = outs[k][1] if k in outs else _memory_span(v)
                dev = _array.from_numpy(host, device=backend)
                device[k] = (dev, host)
                call[k] = _DeviceView(dev, outs[k][2] if k in outs else 0, v.shape)
    ref_in = {k: _as_reference_input(v) if case.upcast else v for k, v in args.items() if not isinstance(v, Out)}
    # In/out arrays (atomics) are compared after the run: keep their inputs.
    ref_in = {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in ref_in.items()}
    grid = case.grid(call) if callable(case.grid) else case.grid
    kernel = case.kernel
    with captured_stdout(case.stdout) as text, \
            (interpreter.enabled() if target.name == INTERPRETER else contextlib.nullcontext()):
        if case.raises is not None:
            try:
                kernel[grid](**call)
            except case.raises as e:
                if case.match and case.match not in str(e):
                    return "raised %s without %r: %s" % (type(e).__name__, case.match, e)
                return None
            return "expected %s, the launch returned normally" % case.raises.__name__
        kernel[grid](**call)
        # Copying back waits for the kernel (and flushes its printf output).
        for k, (dev, host) in device.items():
            host[...] = dev.numpy()
            call[k] = outs[k][1][outs[k][2]:outs[k][2] + host.size - 2 * outs[k][2]].reshape(args[k].shape) \
                if k in outs else args[k]
    if case.stdout:
        ref_in["stdout"] = text()
    expected = case.reference(ref_in)
    errors = []
    for k, (out, raw, g) in outs.items():
        guard = np.concatenate([raw[:g], raw[len(raw) - g:]])
        if (_bits(guard) != _bits(poison(out.dtype))).any():
            errors.append("%s: a write past the end of the buffer (guard zone changed)" % k)
    for k, exp in expected.items():
        actual = call[k]
        dt = outs[k][0].dtype if k in outs else _dtype_name(actual.dtype)
        err = compare(k, actual, exp, dt, case.tolerance(dt), poison(dt) if k in outs else None)
        if err:
            errors.append(err)
    return "; ".join(errors) or None


def _dtype_name(np_dt):
    for k, v in _NP.items():
        if np.dtype(v) == np_dt:
            return k
    raise KeyError(np_dt)

# ---- the matrix


def select(cases, patterns):
    if not patterns:
        return [(c, d) for c in cases for d in c.dtypes]
    out = []
    for c in cases:
        for d in c.dtypes:
            cid = "%s[%s]" % (c.name, d)
            if any(fnmatch.fnmatchcase(cid, p) or fnmatch.fnmatchcase(c.name, p) or p in c.name for p in patterns):
                out.append((c, d))
    return out


def write_json(path, seed, targets, results):
    data = {"seed": seed, "version": _C.version(),
            "targets": [{"name": t.name, "mode": t.mode, "reason": t.reason} for t in targets],
            "results": [{"case": r.case, "dtype": r.dtype, "target": r.target, "status": r.status,
                         "message": r.message, "seconds": round(r.seconds, 4)} for r in results]}
    with open(path, "w") as f:
        json.dump(data, f, indent=1)


# Characters XML 1.0 cannot hold (control characters, lone surrogates), which
# compiler messages may carry; JUnit readers reject a file with them.
_NOT_XML = re.compile("[^\x09\x0a\x0d\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _xml_text(text):
    return _NOT_XML.sub("\ufffd", text)


def write_junit(path, seed, targets, results):
    """The matrix as JUnit XML: a testsuite per target, a testcase per case
    and dtype; fail and xpass are failures, the rest not passed are skipped."""
    root = ET.Element("testsuites", name="tessera conformance")
    for t in targets:
        rs = [r for r in results if r.target == t.name]
        count = lambda *s: sum(r.status in s for r in rs)  # noqa: E731
        suite = ET.SubElement(root, "testsuite", name="conformance." + t.name, tests=str(len(rs)),
                              failures=str(count("fail", "xpass")),
                              skipped=str(count("skip", "xfail", "unsupported")),
                              time="%.3f" % sum(r.seconds for r in rs))
        ET.SubElement(ET.SubElement(suite, "properties"), "property", name="seed", value=str(seed))
        for r in rs:
            case = ET.SubElement(suite, "testcase", classname="conformance.%s.%s" % (t.name, r.case), name=r.dtype,
                                 time="%.3f" % r.seconds)
            if r.status in ("fail", "xpass"):
                ET.SubElement(case, "failure", message=_xml_text(r.message[:2000]))
            elif r.status not in ("pass", "compiled"):
                ET.SubElement(case, "skipped", message=_xml_text(r.message[:2000]))
    tree = ET.ElementTree(root)
    ET.indent(tree)
    tree.write(path, encoding="UTF-8", xml_declaration=True)


def run_matrix(targets, selected, seed, progress=None):
    results = []
    total = len(selected) * len(targets)
    for t in targets:
        for c, d in selected:
            if t.mode == "skip":
                results.append(Result(c.name, d, t.name, "skip", t.reason))
            else:
                results.append(run_case(c, d, t, seed))
            if progress:
                progress(len(results), total, results[-1])
    return results


def print_matrix(targets, selected, results, out=sys.stdout):
    by = {(r.case, r.dtype, r.target): r for r in results}
    width = max([len("%s[%s]" % (c.name, d)) for c, d in selected] + [4]) + 2
    out.write("case".ljust(width) + "".join(t.name.ljust(10) for t in targets) + "\n")
    for c, d in selected:
        row = "%s[%s]" % (c.name, d)
        out.write(row.ljust(width) + "".join(by[(c.name, d, t.name)].status.ljust(10) for t in targets) + "\n")
    problems = [r for r in results if r.status in ("fail", "xpass")]
    if problems:
        out.write("\nfailures:\n")
        for r in problems:
            out.write("  %s on %s: %s\n" % (r.id, r.target, r.message))
    xfails = [r for r in results if r.status in ("xfail", "unsupported") or (r.status == "skip" and r.message not in
                                                            [t.reason for t in targets])]
    if xfails:
        out.write("\nexpected failures and skipped cases:\n")
        for r in xfails:
            out.write("  %s on %s: %s %s\n" % (r.id, r.target, r.status, r.message.split(" | ")[0]))
    for t in targets:
        if t.mode == "skip":
            out.write("\ntarget %s: skip (%s)" % (t.name, t.reason))
    out.write("\n")


def summary(results):
    counts = {}
    for r in results:
        counts[r.status] = counts.get(r.status, 0) + 1
    return ", ".join("%d %s" % (n, s) for s, n in sorted(counts.items()))


def default_seed():
    env = os.environ.get("TESSERA_SEED")
    return int(env) if env else int.from_bytes(os.urandom(4), "little") & 0x7FFFFFFF


def main(argv=None, prog="python -m tessera.conformance"):
    p = argparse.ArgumentParser(prog=prog, description=__doc__.split("\n\n")[0])
    p.add_argument("--target", action="append", help="only these targets (repeatable; default: all known)")
    p.add_argument("--case", action="append", help="only cases matching (glob or substring; repeatable)")
    p.add_argument("--seed", type=int, default=None, help="input seed (default: random, or $TESSERA_SEED)")
    p.add_argument("--json", help="write the results as JSON here")
    p.add_argument("--junit", help="write the results as JUnit XML here")
    p.add_argument("--list", action="store_true", help="list the cases and exit")
    a = p.parse_args(argv)
    seed = a.seed if a.seed is not None else default_seed()
    corpus = load_corpus()
    if not corpus:
        p.error("no conformance cases in %s (set TESSERA_CONFORMANCE_DIR to a corpus)" % corpus_dir())
    selected = select(corpus, a.case)
    if not selected:
        p.error("no case matches --case %s (--list shows them)" % " ".join(a.case))
    if a.list:
        for c, d in selected:
            print("%s[%s]" % (c.name, d))
        return 0
    try:
        targets = find_targets(a.target)
    except _C.TesseraError as e:
        p.error(str(e))
    print("tessera conformance: %d cases x %d targets, seed %d (rerun with --seed %d)" % (
        len(selected), len(targets), seed, seed))
    tty = sys.stderr.isatty()

    def progress(done, total, r):
        line = "[%d/%d] %s on %s: %s" % (done, total, r.id, r.target, r.status)
        if tty:
            sys.stderr.write("\r\033[K" + line)
        elif r.status in ("fail", "xpass") or done % 50 == 0 or done == total:
            sys.stderr.write(line + "\n")
        sys.stderr.flush()

    results = run_matrix(targets, selected, seed, progress)
    if tty:
        sys.stderr.write("\r\033[K")
    print_matrix(targets, selected, results)
    print("summary: %s (seed %d)" % (summary(results), seed))
    if a.json:
        write_json(a.json, seed, targets, results)
    if a.junit:
        write_junit(a.junit, seed, targets, results)
    return 1 if any(r.status in ("fail", "xpass") for r in results) else 0


if __name__ == "__main__":
    # Run the imported module's main: the corpus registers its cases with
    # tessera.conformance, which is not this __main__ copy.
    from tessera.conformance import main as _main
    sys.exit(_main())
