#!/usr/bin/env python3
"""Tessera against Triton on AMD GPUs: the same kernels compiled by both (no
GPU needed) and their AMDGPU assembly compared, one row per kernel and
architecture.

    /tmp/tv/bin/python tools/amd_parity.py [--tessera PATH] [--arch gfx942 ...]

Run it with a Python that has Triton (3.9). Tessera's side is the
`tessera compile` CLI (its Python package is not needed); Triton's side is
triton.compile on an ASTSource. The kernels are the benchmark's
(python/tessera/bench/workloads.py): each one's `def` is read from that file
and written to two modules that differ only in their import line, `tl` being
tessera.language in one and triton.language in the other.

Each cell shows Tessera/Triton:
  MFMA        v_mfma / v_wmma instructions in the kernel (static count: a
              loop's peeled iterations count again)
  in loops    those of them in blocks on a cycle of the control flow graph
  MACs/loop   M*N*K summed over those in loops (a wave's matrix work per
              iteration; on CDNA an MFMA of a type takes passes in
              proportion to it)
  VGPR        .vgpr_count (on gfx90a, gfx94x and gfx95x this already counts
              the AGPRs: one register file)
  AGPR        .agpr_count
  scratch     .private_segment_fixed_size (bytes)
  spills      .vgpr_spill_count + .sgpr_spill_count
  LDS         .group_segment_fixed_size (bytes)
  LDS@launch  LDS the launcher adds (bytes; Triton's metadata.shared, "-"
              where the compiler does not say)
  x16B        16-byte global/buffer loads and stores (dwordx4; b128 on RDNA)
  instrs      instructions in the kernel body (no labels, directives, comments)
The bar passes when Tessera has no spills where Triton has none, the same
MFMA/WMMA count (in loops where both loop) or, where the counts differ,
fewer matrix MACs per loop iteration than Triton's (Triton's count
includes rows its waves compute twice), 16-byte global accesses where
Triton has them, and at most 1.1x Triton's vector registers (VGPRs and
AGPRs); a row where only Tessera fails to compile fails it, and one where
Triton fails is "n/a".
"""
import argparse
import ast
import importlib.util
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Optional

REPO = Path(__file__).resolve().parents[1]
WORKLOADS = REPO / "python" / "tessera" / "bench" / "workloads.py"
DEFAULT_TESSERA = REPO / "build" / "tools" / "tessera" / "tessera"
DEFAULT_ARCHS = ("gfx942", "gfx1100")
REGISTER_SLACK = 1.1


@dataclass(frozen=True)
class Kernel:
    """One kernel to compile: `entry` (a def of `source`) with the runtime
    parameters typed by `signature` (Tessera's and Triton's syntax:
    "*bf16:16" a 16-byte aligned pointer, "i32:16" an int divisible by 16,
    "i32:1" an int equal to 1, "fp32" a float) and every tl.constexpr
    parameter given by `constexprs` (Python expressions, `tl` in scope)."""
    label: str
    entry: str
    signature: str
    constexprs: dict
    num_warps: int
    num_stages: int = 2  # Triton's default on AMD
    source: Path = WORKLOADS


def _matmul(dtype, c_dtype, acc):
    # Bench arguments (a, b, c, M, N, K, K, 1, N, 1, N, 1) at 4096^3: unit
    # strides are specialized to 1, the others divisible by 16.
    sig = f"*{dtype}:16,*{dtype}:16,*{c_dtype}:16," + ",".join(["i32:16"] * 4 + ["i32:1", "i32:16"] * 2 + ["i32:1"])
    return Kernel(f"matmul {dtype}", "_matmul_kernel", sig,
                  {"BLOCK_M": "128", "BLOCK_N": "128", "BLOCK_K": "64", "GROUP_M": "8", "ACC": acc}, num_warps=4)


KERNELS = [
    Kernel("vector_add fp32", "_add_kernel", "*fp32:16,*fp32:16,*fp32:16,i32:16", {"BLOCK": "1024"}, num_warps=4),
    # One row per program, 4096 columns.
    Kernel("softmax fp32", "_softmax_kernel", "*fp32:16,*fp32:16,i32:16,i32:16,i32:16,i32:16", {"BLOCK": "4096"},
           num_warps=8),
    Kernel("softmax bf16", "_softmax_kernel", "*bf16:16,*bf16:16,i32:16,i32:16,i32:16,i32:16", {"BLOCK": "4096"},
           num_warps=8),
    # 8192 columns; the bench's warps, min(BLOCK // 256, 8).
    Kernel("layernorm bf16", "_layernorm_kernel", "*bf16:16,*bf16:16,*bf16:16,*bf16:16,i32:16,i32:16,fp32",
           {"BLOCK": "8192"}, num_warps=8),
    _matmul("bf16", "bf16", "tl.float32"),
    _matmul("fp16", "fp16", "tl.float32"),
    _matmul("i8", "i32", "tl.int32"),
    # The bench's first configuration at head dim 128 in bf16: (128, 64, 8 warps).
    Kernel("attention bf16", "_attention_kernel", "*bf16:16,*bf16:16,*bf16:16,*bf16:16,fp32,i32:16,i32:16,i32:16",
           {"D": "128", "BLOCK_M": "128", "BLOCK_N": "64", "CAUSAL": "False"}, num_warps=8),
]


# --- Kernel sources ---------------------------------------------------------

def _kernel_def(path, entry):
    """(source of `def entry` in `path` without its decorators, its parameter names)."""
    text = path.read_text()
    for node in ast.parse(text).body:
        if isinstance(node, ast.FunctionDef) and node.name == entry:
            lines = text.splitlines(keepends=True)[node.lineno - 1:node.end_lineno]
            return "".join(lines), [a.arg for a in node.args.args]
    raise ValueError(f"no 'def {entry}' in {path}")


class KernelModules:
    """Each kernel's def written to a module per language under `root`."""

    def __init__(self, root):
        self.root = Path(root)
        self.defs = {}  # (source, entry) -> (def text, parameter names)

    def _def(self, kernel):
        key = (kernel.source, kernel.entry)
        if key not in self.defs:
            self.defs[key] = _kernel_def(kernel.source, kernel.entry)
        return self.defs[key]

    def path(self, kernel, language):
        """The module for `language` ("tessera" or "triton")."""
        out = self.root / f"{kernel.source.stem}_{kernel.entry.strip('_')}_{language}.py"
        if not out.exists():
            out.write_text(f"import {language}.language as tl\n\n\n{self._def(kernel)[0]}")
        return out

    def runtime_params(self, kernel):
        """The parameters the signature types, in order (the others are constexprs)."""
        params = [p for p in self._def(kernel)[1] if p not in kernel.constexprs]
        types = kernel.signature.split(",")
        if len(params) != len(types):
            raise ValueError(f"{kernel.label}: {len(types)} types in the signature for {len(params)} runtime "
                             f"parameters ({', '.join(params)})")
        return list(zip(params, types))


# --- Compiling ----------------------------------------------------------------

class CompileError(Exception):
    pass


def _first_line(text):
    return next((line.strip() for line in str(text).splitlines() if line.strip()), "unknown error")


class Tessera:
    def __init__(self, exe, pointer_range):
        self.exe = str(exe)
        self.pointer_range = pointer_range
        try:
            usage = subprocess.run([self.exe, "compile", "--help"], capture_output=True, text=True).stdout
        except OSError as e:
            sys.exit(f"cannot run {self.exe}: {e} (build Tessera or pass --tessera)")
        self.has_num_stages = "--num-stages" in usage  # else the target's default

    def signature(self, kernel):
        """The kernel's signature as a launch on tensors within 2 GiB makes
        it for amdgpu: pointers marked ":r32", unless told otherwise."""
        if not self.pointer_range:
            return kernel.signature
        return ",".join(ty + ":r32" if ty.startswith("*") else ty for ty in kernel.signature.split(","))

    def compile(self, kernel, modules, arch):
        path = modules.path(kernel, "tessera")
        cmd = [self.exe, "compile", str(path), "--entry", kernel.entry, "--signature", self.signature(kernel),
               "--target", "amdgpu", "--arch", arch, "--num-warps", str(kernel.num_warps), "--emit", "asm"]
        for name, value in kernel.constexprs.items():
            cmd += ["-D", f"{name}={value}"]
        if self.has_num_stages:
            cmd += ["--num-stages", str(kernel.num_stages)]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            message = _first_line(r.stderr.replace(str(path) + ":", ""))
            raise CompileError(message.removeprefix("tessera: "))
        return r.stdout, None  # the CLI does not tell LDS sized at launch


class Triton:
    def __init__(self, pointer_range):
        os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")  # its default, without the warning
        try:
            import triton
            import triton.language
        except ImportError as e:
            sys.exit(f"{e}: run this with a Python that has Triton (e.g. /tmp/tv/bin/python)")
        self.triton = triton
        self.pointer_range = pointer_range
        self.version = triton.__version__
        self.jitted = {}

    def _jit(self, kernel, modules):
        path = modules.path(kernel, "triton")
        if path not in self.jitted:
            spec = importlib.util.spec_from_file_location(path.stem, path)
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            self.jitted[path] = self.triton.jit(getattr(module, kernel.entry))
        return self.jitted[path]

    def compile(self, kernel, modules, arch):
        """amdgcn assembly, specialized as a launch would specialize the
        signature's arguments: ":16" divisibility, ":1" a constexpr 1, and
        pointers within 2 GiB (tt.pointer_range 32) unless told otherwise."""
        triton = self.triton
        fn = self._jit(kernel, modules)
        scope = {"tl": triton.language}
        constexprs = {name: eval(value, scope) for name, value in kernel.constexprs.items()}
        signature, attrs = {}, {}
        for name, ty in modules.runtime_params(kernel):
            ty, _, hint = ty.partition(":")
            if hint == "1":
                constexprs[name] = 1
                continue
            signature[name] = ty
            index = (fn.arg_names.index(name),)
            if hint == "16":
                attrs.setdefault(index, []).append(["tt.divisibility", 16])
            if ty.startswith("*") and self.pointer_range:
                attrs.setdefault(index, []).append(["tt.pointer_range", 32])
        signature.update({name: "constexpr" for name in constexprs})
        signature = {name: signature[name] for name in fn.arg_names}
        src = triton.compiler.ASTSource(fn=fn, signature=signature, constexprs=constexprs, attrs=attrs)
        wave_size = 32 if arch.startswith(("gfx10", "gfx11", "gfx12")) else 64  # RDNA: wave32, as Triton's
        target = triton.backends.compiler.GPUTarget("hip", arch, wave_size)
        try:
            compiled = triton.compile(src, target=target,
                                      options={"num_warps": kernel.num_warps, "num_stages": kernel.num_stages})
        except Exception as e:  # noqa: BLE001  (any failure is a row's note, not the end of the run)
            message = getattr(e, "error_message", None) or str(e) or type(e).__name__
            raise CompileError(_first_line(message)) from None
        return compiled.asm["amdgcn"], compiled.metadata.shared  # LDS the launcher asks for


# --- Reading the assembly -------------------------------------------------------

WIDE_ACCESS = re.compile(r"^(global|buffer)_(load|store)_(dwordx4|b128)\b")
MATRIX_OP = re.compile(r"^v_(mfma|wmma)")
MATRIX_SHAPE = re.compile(r"^v_(?:mfma|wmma)_\w+?_(\d+)x(\d+)x(\d+)")
BRANCH = re.compile(r"^s_(cbranch_\w+|branch)\s+(\S+)")


@dataclass
class Stats:
    mfma: int
    loop_mfma: int
    loop_macs: int  # multiply-adds of the matrix instructions in loops, per lane group (M*N*K each)
    vgpr: int
    agpr: int
    scratch: int
    spills: int
    lds: int
    launch_lds: Optional[int]  # None where the compiler does not say
    wide: int
    instructions: int
    unified_vgprs: bool

    @property
    def registers(self):
        """Vector registers a wave holds (AGPRs included)."""
        return self.vgpr if self.unified_vgprs else self.vgpr + self.agpr


def _metadata(asm, key):
    m = re.search(rf"^[\s-]*\.{key}:\s*(\d+)", asm, re.M)  # "  - .agpr_count: 8" opens a kernel's map
    return int(m.group(1)) if m else 0


def _body(asm, entry):
    """The instructions and labels of `entry`, from its label to the end of
    the function, without directives and comments."""
    code = [line.split(";", 1)[0].split("//", 1)[0].strip() for line in asm.splitlines()]
    if entry + ":" not in code:
        raise CompileError(f"no '{entry}:' label in the assembly")
    body = []
    for line in code[code.index(entry + ":") + 1:]:
        if line.startswith((".Lfunc_end", ".size")):
            break
        if line and (not line.startswith(".") or line.endswith(":")):  # instructions, labels (.LBB0_3:)
            body.append(line)
    return body


def _in_loops(body):
    """For each line of `body`, whether its basic block lies on a cycle of
    the control flow graph (the loops, however the blocks are laid out)."""
    blocks, labels = [[]], {}  # blocks as lists of line numbers; label -> block
    for i, line in enumerate(body):
        if line.endswith(":"):
            if blocks[-1]:
                blocks.append([])
            labels[line[:-1]] = len(blocks) - 1
        blocks[-1].append(i)
        if BRANCH.match(line) or line.startswith("s_endpgm"):
            blocks.append([])
    successors = []
    for b, lines in enumerate(blocks):
        last = body[lines[-1]] if lines else ""
        m = BRANCH.match(last)
        succ = {labels[m.group(2)]} if m and m.group(2) in labels else set()
        if not (last.startswith(("s_branch", "s_endpgm", "s_setpc")) or b + 1 == len(blocks)):
            succ.add(b + 1)  # falls through
        successors.append(succ)

    def on_cycle(b):
        seen, todo = set(), list(successors[b])
        while todo:
            n = todo.pop()
            if n == b:
                return True
            if n not in seen:
                seen.add(n)
                todo.extend(successors[n])
        return False

    inside = [False] * len(body)
    for b, lines in enumerate(blocks):
        if lines and on_cycle(b):
            for i in lines:
                inside[i] = True
    return inside


def _macs(instruction):
    """M*N*K of a matrix instruction (v_mfma_f32_32x32x8_bf16: 8192)."""
    m = MATRIX_SHAPE.match(instruction)
    return int(m.group(1)) * int(m.group(2)) * int(m.group(3)) if m else 0


def analyze(asm, entry, arch, launch_lds=None):
    body = _body(asm, entry)
    loops = _in_loops(body)
    instructions = [line for line in body if not line.endswith(":")]
    return Stats(mfma=sum(bool(MATRIX_OP.match(i)) for i in instructions),
                 loop_mfma=sum(bool(MATRIX_OP.match(i)) and inside for i, inside in zip(body, loops)),
                 loop_macs=sum(_macs(i) for i, inside in zip(body, loops) if inside),
                 vgpr=_metadata(asm, "vgpr_count"),
                 agpr=_metadata(asm, "agpr_count"),
                 scratch=_metadata(asm, "private_segment_fixed_size"),
                 spills=_metadata(asm, "vgpr_spill_count") + _metadata(asm, "sgpr_spill_count"),
                 lds=_metadata(asm, "group_segment_fixed_size"),
                 launch_lds=launch_lds,
                 wide=sum(bool(WIDE_ACCESS.match(i)) for i in instructions),
                 instructions=len(instructions),
                 unified_vgprs=arch.startswith(("gfx90a", "gfx94", "gfx95")))


def bar(tessera, triton):
    """'PASS', or 'FAIL' with the criteria Tessera misses. Matrix
    instructions are compared per loop iteration where both kernels loop:
    Triton peels the last iteration of a pipelined loop into an epilogue,
    which doubles its total without changing the work."""
    misses = []
    if triton.spills == 0 and tessera.spills > 0:
        misses.append("spills")
    looped = tessera.loop_mfma and triton.loop_mfma
    if (tessera.loop_mfma != triton.loop_mfma) if looped else (tessera.mfma != triton.mfma):
        # A different count passes only where both loop on matrix cores and
        # Tessera's loop asks less of them: Triton's attention at 8 waves
        # has each wave compute 32 rows of a 16-row share, so its count is
        # reached only by computing rows twice. CDNA's MFMA of a type take
        # passes in proportion to M*N*K, so fewer MACs is less matrix time.
        if not (looped and tessera.loop_macs < triton.loop_macs):
            misses.append("mfma")
    if triton.wide > 0 and tessera.wide == 0:
        misses.append("x16B")
    if tessera.registers > REGISTER_SLACK * triton.registers:
        misses.append("vgpr")
    return "PASS" if not misses else "FAIL " + ",".join(misses)


# --- The table --------------------------------------------------------------------

COLUMNS = [("MFMA", "mfma"), ("in loops", "loop_mfma"), ("MACs/loop", "loop_macs"), ("VGPR", "vgpr"), ("AGPR", "agpr"), ("scratch", "scratch"),
           ("spills", "spills"), ("LDS", "lds"), ("LDS@launch", "launch_lds"), ("x16B", "wide"),
           ("instrs", "instructions")]


def _cell(stats, attr):
    if stats is None:
        return "err"
    value = getattr(stats, attr)
    return "-" if value is None else str(value)


def run(kernels, archs, tessera, triton, modules, dump=None):
    rows = []
    for arch in archs:
        for kernel in kernels:
            stats, notes = {}, []
            for name, compiler in (("tessera", tessera), ("triton", triton)):
                try:
                    asm, launch_lds = compiler.compile(kernel, modules, arch)
                    if dump:
                        stem = f"{kernel.label}.{arch}.{name}".replace(" ", "_")
                        (dump / f"{stem}.s").write_text(asm)
                    stats[name] = analyze(asm, kernel.entry, arch, launch_lds)
                except (CompileError, ValueError) as e:
                    stats[name] = None
                    notes.append(f"{name}: {e}")
            tes, tri = stats["tessera"], stats["triton"]
            if tes and tri:
                verdict = bar(tes, tri)
            else:
                verdict = "n/a" if tri is None else "FAIL compile"
            cells = [f"{_cell(tes, attr)}/{_cell(tri, attr)}" for _, attr in COLUMNS]
            rows.append([kernel.label, arch, f"{kernel.num_warps}/{kernel.num_stages}", *cells, verdict,
                         "; ".join(notes)])
            print(f"  {kernel.label} on {arch}: {verdict}", file=sys.stderr, flush=True)
    return rows


def format_table(rows):
    header = ["kernel", "arch", "warps/stages", *(title for title, _ in COLUMNS), "bar", "notes"]
    widths = [max(len(str(r[i])) for r in [header] + rows) for i in range(len(header) - 1)]
    lines = ["  ".join(str(v).ljust(w) for v, w in zip(r, widths)) + "  " + r[-1] for r in [header] + rows]
    lines.insert(1, "-" * (sum(widths) + 2 * len(widths) + len("notes")))
    return "\n".join(line.rstrip() for line in lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tessera", type=Path, default=DEFAULT_TESSERA, help="the tessera CLI (default: %(default)s)")
    parser.add_argument("--arch", action="append", help="an AMDGPU architecture; repeat for several "
                        f"(default: {' and '.join(DEFAULT_ARCHS)})")
    parser.add_argument("--kernel", action="append", help="only kernels whose label contains this; repeatable")
    parser.add_argument("--num-stages", type=int, help="compile every kernel with this many stages (default: 2)")
    parser.add_argument("--no-pointer-range", action="store_true",
                        help="compile Triton's side as for tensors past 2 GiB (no tt.pointer_range: no buffer ops)")
    parser.add_argument("--dump", type=Path, help="write each compiler's assembly of each kernel into this folder")
    args = parser.parse_args(argv)
    if args.dump:
        args.dump.mkdir(parents=True, exist_ok=True)

    archs = args.arch or list(DEFAULT_ARCHS)
    kernels = [k for k in KERNELS if not args.kernel or any(s in k.label for s in args.kernel)]
    if args.num_stages:
        kernels = [replace(k, num_stages=args.num_stages) for k in kernels]
    tessera = Tessera(args.tessera, pointer_range=not args.no_pointer_range)
    triton = Triton(pointer_range=not args.no_pointer_range)
    with tempfile.TemporaryDirectory(prefix="amd_parity_") as tmp:
        rows = run(kernels, archs, tessera, triton, KernelModules(tmp), args.dump)

    print(f"Tessera: {args.tessera}")
    print(f"Triton {triton.version}" + ("" if triton.pointer_range else " (no tt.pointer_range)"))
    if tessera.has_num_stages:
        print("Cells: Tessera/Triton; both compile with the row's warps and stages.\n")
    else:
        print("Cells: Tessera/Triton; both compile with the row's warps, Tessera with its default stages "
              "(its CLI has no --num-stages).\n")
    print(format_table(rows))


if __name__ == "__main__":
    main()
