"""Compiling without launching, as Triton's `triton.compile(ASTSource(...))`.

    src = tessera.compiler.ASTSource(add_kernel, {"x": "*fp32", "n": "i32", "BLOCK": "constexpr"},
                                     constexprs={"BLOCK": 1024})
    k = tessera.compile(src, target=GPUTarget("cuda", 90, 32), options={"num_warps": 4})
    k.asm["ptx"], k.asm["cubin"], k.metadata.shared, k.metadata.num_warps

Any target and architecture compiles on any machine (no device is opened):
GPUTarget's backend is a target name or alias ("cuda", "hip", "cpu",
"vulkan", "level_zero"), its arch Triton's (90 or "sm_90"; "gfx942").

Layer 2, compile (python/tessera/__init__.py lists the layers).
"""

import collections

from . import _C, _ttir
from ._specialize import constexpr_text
from .runtime.driver import GPUTarget

__all__ = ["ASTSource", "CompiledKernel", "GPUTarget", "compile"]

# What a compiled binary is called in `asm`, per format (Triton's key first).
_ASM_KEYS = {"cubin": ("ptx", "cubin"), "ptx": ("ptx", None), "hsaco": ("amdgcn", "hsaco"),
             "spirv": ("spvasm", "spv"), "elf-shared-object": ("asm", "so")}

KernelMetadata = collections.namedtuple("KernelMetadata",
                                        "name target num_warps num_stages shared threads_per_program debug")


class ASTSource:
    """A kernel and the specialization to compile it for (Triton's ASTSource).

    `signature` maps every parameter name to its type ("*fp32", "i32",
    "fp16", ... or "constexpr"); `constexprs` maps names (or Triton's
    `(index,)` paths) to values; `attrs` maps `(index,)` to Triton's
    attribute lists, of which `["tt.divisibility", 16]` and, for pointers
    into allocations under 2 GiB (amdgpu's buffer accesses),
    `["tt.pointer_range", 32]` are used."""

    def __init__(self, fn, signature, constexprs=None, attrs=None):
        if not hasattr(fn, "arg_names"):
            raise TypeError("ASTSource: fn must be a @tessera.jit function, not %r" % (fn,))
        for key in signature:
            if not isinstance(key, str):
                raise TypeError("Signature keys must be string")
        self.fn, self.name = fn, fn.__name__
        self.signature = dict(signature)
        self.constants = {}
        for key, value in (constexprs or {}).items():
            if isinstance(key, str):
                if key not in fn.arg_names:
                    raise TypeError("ASTSource: '%s' is not a parameter of '%s' (%s)"
                                    % (key, self.name, ", ".join(fn.arg_names)))
                key = (fn.arg_names.index(key),)
            if not isinstance(key, tuple) or len(key) != 1:
                raise TypeError("ASTSource: a constexpr key is a parameter name or (index,), not %r" % (key,))
            self.constants[key] = value
        self.attrs = dict(attrs or {})

    def _divisible(self, index):
        return any(list(a) == ["tt.divisibility", 16] for a in self.attrs.get((index,), ()))

    def _ranged(self, index):
        return any(list(a) == ["tt.pointer_range", 32] for a in self.attrs.get((index,), ()))

    def make_ir(self, target, options, codegen_fns, module_map, context):
        """Triton's TTIR of the kernel, as far as torch's Inductor reads it:
        which runtime arguments it may write (a WritesModule of tessera/_ttir.py,
        from kernel_writes)."""
        if any(str(t).startswith("tensordesc") for t in self.signature.values()):
            raise NotImplementedError("ASTSource.make_ir: a kernel taking tensor descriptors has no Triton IR here "
                                      "(Inductor then assumes every argument is written)")
        return _ttir.WritesModule(self.name, kernel_writes(self, target))

    def specialization(self):
        """(signature, constexprs) in the C API's form."""
        unknown = [n for n in self.signature if n not in self.fn.arg_names]
        if unknown:
            raise TypeError("ASTSource: %s not parameters of '%s' (%s)"
                            % (", ".join(map(repr, unknown)), self.name, ", ".join(self.fn.arg_names)))
        signature, constexprs = [], []
        for index, name in enumerate(self.fn.arg_names):
            ty = self.signature.get(name)
            if (index,) in self.constants or ty == "constexpr" or name in self.fn.constexpr_names:
                if (index,) not in self.constants:
                    raise TypeError("ASTSource: constexpr parameter '%s' of '%s' has no value in constexprs"
                                    % (name, self.name))
                constexprs.append((name, constexpr_text(self.constants[(index,)])))
                continue
            if ty is None:
                raise TypeError("ASTSource: the signature gives no type for parameter '%s' of '%s'"
                                % (name, self.name))
            divisible = self._divisible(index) and (ty.startswith("*") or ty in ("i32", "i64"))
            ranged = self._ranged(index) and ty.startswith("*")
            signature.append(ty + (":16" if divisible else "") + (":r32" if ranged else ""))
        return signature, constexprs


def asm_of(binary):
    """A Binary's texts and bytes under Triton's asm keys."""
    text_key, data_key = _ASM_KEYS.get(binary.format, ("asm", binary.format))
    asm = {text_key: binary.assembly}
    if data_key is not None:
        asm[data_key] = binary.data
    return asm


class CompiledKernel:
    """What compile() made: `asm` (Triton's keys: "ptx"/"cubin",
    "amdgcn"/"hsaco", "spvasm"/"spv", and "asm"/"so" for the host),
    `metadata`, `name`, and the Binary itself as `binary`."""

    def __init__(self, binary, metadata):
        self.binary, self.metadata, self.name = binary, metadata, metadata.name
        self.asm = asm_of(binary)

    def __repr__(self):
        return "CompiledKernel(%s, %s, %s)" % (self.name, self.metadata.target, ", ".join(self.asm))


def kernel_writes(src, target=None):
    """Which of the kernel's runtime arguments (in `src`'s specialization,
    tuples flattened) it may write through, from its frontend alone: a list
    of bools that never misses a write (torch's Inductor reads it to know
    which tensors a user's kernel mutates)."""
    if not isinstance(src, ASTSource):
        raise TypeError("tessera.compiler.kernel_writes takes an ASTSource, not %s" % type(src).__name__)
    return _through_frontend(_C.kernel_writes, src, target, None, None)[1]


def _through_frontend(compile_fn, src, target, num_warps, num_stages, **options):
    """(target name, compile_fn's result) for `src`'s kernel and
    specialization: compile_fn is _C.compile_binary or _C.kernel_writes."""
    name, arch = _target_and_arch(target)
    _C.find_target(name)  # an unknown name is an error listing the known ones
    signature, constexprs = src.specialization()
    src.fn._forget_if_stale()
    return name, src.fn._compile_module(compile_fn, signature, constexprs, num_warps, num_stages, target=name,
                                        arch=arch, **options)


def _target_and_arch(target):
    if target is None:
        from .runtime import driver
        target = driver.active.get_current_target()
    if isinstance(target, str):
        return target, None
    backend, arch = target.backend, target.arch
    row, flavour = _C.find_target(backend)  # an unknown name is an error listing the known ones
    if arch in (None, "", flavour.triton_backend):  # ("cpu", "cpu", 1): no architecture to choose
        return backend, None
    if row.arch_prefix and not str(arch).startswith(row.arch_prefix):  # Triton's 90 is "sm_90"
        arch = row.arch_prefix + str(arch)
    return backend, str(arch)


# Triton's options that only tune speed on some vendor (programmatic dependent
# launch, AMD's waves per EU and MFMA shape, Triton's instrumentation): accepted
# and left to Tessera's own choices.
_SPEED_HINTS = ("launch_pdl", "waves_per_eu", "matrix_instr_nonkdim", "kpack", "instrumentation_mode")
# Options Tessera has at one value only: another is an error.
_FIXED = {"num_ctas": 1, "launch_cooperative_grid": False, "extern_libs": None}


def compile(src, target=None, options=None):
    """Compiles `src` (an ASTSource) for `target` (a GPUTarget, a target
    name, or None: the active device's) without a device: a CompiledKernel.
    options (Triton's keys): num_warps, num_stages, debug (the checked mode,
    unless sanitize_overflow=False: device asserts only, which Tessera always
    checks), enable_fp_fusion, maxnreg, enable_reflect_ftz; Triton's speed hints (launch_pdl,
    waves_per_eu...) are accepted and left to Tessera; num_ctas,
    launch_cooperative_grid and extern_libs only at their defaults. Other
    keys are a TypeError, as a misspelt option would otherwise be lost."""
    if not isinstance(src, ASTSource):
        raise TypeError("tessera.compile takes an ASTSource, not %s" % type(src).__name__)
    options = dict(options or {})
    num_warps, num_stages = options.pop("num_warps", None), options.pop("num_stages", None)
    debug = bool(options.pop("debug", False))
    fp_fusion = options.pop("enable_fp_fusion", None)
    maxnreg = options.pop("maxnreg", None) or 0
    ftz = bool(options.pop("enable_reflect_ftz", False))
    for hint in _SPEED_HINTS:
        options.pop(hint, None)
    # Triton's debug=True turns on its device asserts, and with sanitize_overflow (its
    # default) overflow checks: that is Tessera's checked mode (bounds, overflow, asserts).
    # debug=True with sanitize_overflow=False (what torch's Inductor passes) asks for the
    # asserts alone, which Tessera always checks: a plain compile.
    checked = options.pop("sanitize_overflow", True) is not False and debug
    for name, default in _FIXED.items():
        value = options.pop(name, default)
        if value != default and (name == "num_ctas" or value):  # extern_libs: None or empty
            raise NotImplementedError("tessera.compile: %s=%r is not supported (only %r)" % (name, value, default))
    if options:
        raise TypeError("tessera.compile: unknown options %s (known: num_warps, num_stages, debug, enable_fp_fusion, "
                        "maxnreg, enable_reflect_ftz, and Triton's %s)"
                        % (", ".join(sorted(options)), ", ".join(_SPEED_HINTS + tuple(_FIXED) + ("sanitize_overflow",))))
    if type(maxnreg) is not int or maxnreg < 0:
        raise ValueError("maxnreg must be a non-negative int, not %r" % (maxnreg,))
    codegen = {} if fp_fusion in (None, True) and not maxnreg and not ftz else \
        dict(fp_fusion=fp_fusion is not False, max_registers=maxnreg, flush_subnormals=ftz)
    name, binary = _through_frontend(_C.compile_binary, src, target, num_warps, num_stages, checked=checked, **codegen)
    metadata = KernelMetadata(src.name, target if target is not None else name, num_warps, num_stages,
                              binary.shared_memory, binary.threads, checked)
    return CompiledKernel(binary, metadata)
