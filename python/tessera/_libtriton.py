"""tessera._C.libtriton: the vendor BLAS handles Triton exposes as
``triton._C.libtriton.nvidia.cublas.CublasLt`` (its persistent-matmul
tutorial measures its kernels against one), here cuBLASLt itself through
ctypes (no torch in the way).

    blas = nvidia.cublas.CublasLt(workspace)   # workspace: a uint8 CUDA tensor
    blas.matmul(a, b, c)                       # c = a @ b.T, row-major, on torch's current stream

a is (M, K), b is (N, K) and c is (M, N), contiguous CUDA tensors of one
type: float16, bfloat16 or float32 (accumulated in f32). fp8 is refused:
cuBLASLt answered an fp8 D with a bf16 C with CUBLAS_STATUS_INVALID_VALUE on
the H200 (its fp8 outputs want scale pointers this class does not set yet).

Layer 0, binding (python/tessera/__init__.py lists the layers).
"""
import ctypes
import glob
import os
import site
import types


def open_cuda_library(stem):
    """A CUDA toolkit library (stem: "cublas", "cublasLt") from a pip wheel
    (nvidia/cublas/lib), /usr/local/cuda or the loader's path."""
    candidates = []
    for d in site.getsitepackages() + [site.getusersitepackages()]:
        candidates += sorted(glob.glob(os.path.join(d, "nvidia", "cublas", "lib", "lib%s.so*" % stem)))
    candidates += sorted(glob.glob("/usr/local/cuda/lib64/lib%s.so*" % stem))
    candidates += ["lib%s.so" % stem, "lib%s.so.13" % stem, "lib%s.so.12" % stem]
    errors = []
    for path in candidates:
        try:
            return ctypes.CDLL(path), path
        except OSError as e:
            errors.append(str(e))
    raise OSError("lib%s not found (%s)" % (stem, "; ".join(errors[-2:])))


# cublasLt.h, library_types.h and cublas_api.h.
_CUDA_TYPES = {"float16": 2, "bfloat16": 14, "float32": 0}
_COMPUTE_32F, _CUDA_R_32F = 68, 0
_DESC_TRANSA, _DESC_TRANSB, _DESC_SCALE_TYPE = 3, 4, 1
_PREF_MAX_WORKSPACE_BYTES = 1
_OP_N, _OP_T = 0, 1


class _HeuristicResult(ctypes.Structure):
    _fields_ = [("algo", ctypes.c_uint64 * 8), ("workspaceSize", ctypes.c_size_t), ("state", ctypes.c_int),
                ("wavesCount", ctypes.c_float), ("reserved", ctypes.c_int * 4)]


class CublasLt:
    """One cuBLASLt handle and its workspace; matmul plans (descriptors and
    the heuristic's algorithm) are kept per shape and type."""

    def __init__(self, workspace):
        if not getattr(workspace, "is_cuda", False):
            raise TypeError("CublasLt needs its workspace as a CUDA tensor")
        self.workspace = workspace
        self.workspace_bytes = workspace.numel() * workspace.element_size()
        self.lib, self.path = open_cuda_library("cublasLt")
        self.handle = ctypes.c_void_p()
        self._check(self.lib.cublasLtCreate(ctypes.byref(self.handle)), "cublasLtCreate")
        self._plans = {}

    @staticmethod
    def _check(status, what):
        if status != 0:
            raise RuntimeError("%s failed with cublasStatus %d" % (what, status))

    def _layout(self, cuda_type, rows, cols, ld):
        layout = ctypes.c_void_p()
        self._check(self.lib.cublasLtMatrixLayoutCreate(ctypes.byref(layout), cuda_type, ctypes.c_uint64(rows),
                                                        ctypes.c_uint64(cols), ctypes.c_int64(ld)),
                    "cublasLtMatrixLayoutCreate")
        return layout

    def _plan(self, m, n, k, dtype):
        key = (m, n, k, dtype)
        plan = self._plans.get(key)
        if plan is not None:
            return plan
        lib = self.lib
        t = _CUDA_TYPES[dtype]
        desc = ctypes.c_void_p()
        self._check(lib.cublasLtMatmulDescCreate(ctypes.byref(desc), _COMPUTE_32F, _CUDA_R_32F),
                    "cublasLtMatmulDescCreate")
        # Row-major c = a @ b.T is column-major c^T = op_T(b) @ a: b's
        # memory is a k x n column-major matrix, a's k x m.
        for attribute, op in ((_DESC_TRANSA, _OP_T), (_DESC_TRANSB, _OP_N)):
            value = ctypes.c_int32(op)
            self._check(lib.cublasLtMatmulDescSetAttribute(desc, attribute, ctypes.byref(value), 4),
                        "cublasLtMatmulDescSetAttribute")
        a_layout, b_layout = self._layout(t, k, n, k), self._layout(t, k, m, k)
        c_layout = d_layout = self._layout(t, n, m, n)
        pref = ctypes.c_void_p()
        self._check(lib.cublasLtMatmulPreferenceCreate(ctypes.byref(pref)), "cublasLtMatmulPreferenceCreate")
        limit = ctypes.c_uint64(self.workspace_bytes)
        self._check(lib.cublasLtMatmulPreferenceSetAttribute(pref, _PREF_MAX_WORKSPACE_BYTES, ctypes.byref(limit), 8),
                    "cublasLtMatmulPreferenceSetAttribute")
        result, count = _HeuristicResult(), ctypes.c_int(0)
        self._check(lib.cublasLtMatmulAlgoGetHeuristic(self.handle, desc, a_layout, b_layout, c_layout, d_layout, pref,
                                                       1, ctypes.byref(result), ctypes.byref(count)),
                    "cublasLtMatmulAlgoGetHeuristic")
        if count.value < 1:
            raise RuntimeError("cuBLASLt has no algorithm for a %dx%dx%d %s matmul" % (m, n, k, dtype))
        plan = self._plans[key] = (desc, a_layout, b_layout, c_layout, d_layout, result)
        return plan

    def matmul(self, a, b, c):
        """c = a @ b.T: a (M, K), b (N, K), c (M, N), contiguous, one type."""
        import torch
        dtype = str(a.dtype).replace("torch.", "")
        if dtype not in _CUDA_TYPES:
            raise TypeError("CublasLt.matmul: %s is not one of %s" % (a.dtype, ", ".join(_CUDA_TYPES)))
        if b.dtype != a.dtype or c.dtype != a.dtype:
            raise TypeError("CublasLt.matmul takes a, b and c of one type, not %s, %s, %s" % (a.dtype, b.dtype, c.dtype))
        if a.dim() != 2 or b.dim() != 2 or c.dim() != 2:
            raise ValueError("CublasLt.matmul takes 2-d a, b and c")
        (m, k), (n, kb) = a.shape, b.shape
        if kb != k or tuple(c.shape) != (m, n):
            raise ValueError("CublasLt.matmul: a %s, b %s and c %s do not make c = a @ b.T"
                             % (tuple(a.shape), tuple(b.shape), tuple(c.shape)))
        if not (a.is_contiguous() and b.is_contiguous() and c.is_contiguous()):
            raise ValueError("CublasLt.matmul takes contiguous tensors")
        desc, a_layout, b_layout, c_layout, d_layout, result = self._plan(m, n, k, dtype)
        alpha, beta = ctypes.c_float(1.0), ctypes.c_float(0.0)
        stream = ctypes.c_void_p(torch.cuda.current_stream(a.device).cuda_stream)
        self._check(self.lib.cublasLtMatmul(
            self.handle, desc, ctypes.byref(alpha), ctypes.c_void_p(b.data_ptr()), a_layout,
            ctypes.c_void_p(a.data_ptr()), b_layout, ctypes.byref(beta), ctypes.c_void_p(c.data_ptr()), c_layout,
            ctypes.c_void_p(c.data_ptr()), d_layout, ctypes.byref(result, 0), ctypes.c_void_p(self.workspace.data_ptr()),
            ctypes.c_size_t(self.workspace_bytes), stream), "cublasLtMatmul")


nvidia = types.SimpleNamespace(cublas=types.SimpleNamespace(CublasLt=CublasLt))
