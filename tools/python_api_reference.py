"""Writes docs/python-api.md from the package's docstrings: the host API a
user calls (tessera's own names, tessera.testing, tessera.compiler,
tessera.runtime.driver, tessera.interpreter, tessera.profiler), each with its
signature (inspect.signature) and its docstring as Markdown, in the order a
reader meets them: writing and launching a kernel first.

    python tools/python_api_reference.py           # rewrite the page
    python tools/python_api_reference.py --check   # exit 1 if the page is stale

An object the page lists that has no docstring of its own is an error naming
it, and so is a public name of a listed module (its __all__, else every name
without a leading underscore) or a public method of a listed class that the
page neither describes nor leaves out with a reason (LEFT_OUT, `left_out`):
new API cannot land undocumented. tests/python/test_python_api_reference.py
runs the check in CI.

The page's code blocks carry no language: signatures and docstring excerpts
are not programs, and tests/python/test_docs.py runs every ```python block
of docs/.
"""

import inspect
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAGE = os.path.join(ROOT, "docs", "python-api.md")
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import generated_page  # noqa: E402

import tessera  # noqa: E402
import tessera.compat  # noqa: E402,F401
import tessera.compiler  # noqa: E402,F401
import tessera.interpreter  # noqa: E402,F401
import tessera.profiler  # noqa: E402,F401
import tessera.runtime.driver  # noqa: E402,F401
import tessera.testing  # noqa: E402,F401
import tessera.tools.tensor_descriptor  # noqa: E402,F401


class Undocumented(ValueError):
    """A listed object without a docstring, or a public name the page does
    not place."""


class Entry:
    """One object of the page: `path` its dotted name ("tessera.jit");
    `members` the methods and properties described under it (for a class,
    or an instance such as driver.active: "utils.get_device_properties"
    reaches further; "__getitem__" is `kernel[grid](...)`); `left_out` the
    class's other public methods, {name: reason}; `prefix` how members are
    named ("JITFunction.run")."""

    def __init__(self, path, members=(), left_out=None, prefix=None):
        self.path, self.members, self.left_out = path, tuple(members), dict(left_out or {})
        self.prefix = prefix or path.rsplit(".", 1)[1]


class Section:
    """A part of the page: its title, an optional `module` whose docstring
    opens it and whose public names it must account for, its entries, and
    `left_out`: [(names, reason)] for the module's names not described."""

    def __init__(self, title, entries, module=None, left_out=(), text=None):
        self.title, self.entries, self.module, self.left_out, self.text = title, entries, module, left_out, text


TRITON_JIT = "Triton's JITFunction interface, for libraries that read or drive kernels"

SECTIONS = [
    Section("Writing and launching kernels", [
        Entry("tessera.jit"),
        Entry("tessera.JITFunction",
              ["__getitem__", "run", "warmup", "preload", "compile_only", "add_pre_run_hook", "target", "src",
               "cache_key", "device_caches", "params"],
              left_out={"raw_src": TRITON_JIT, "starting_line_number": TRITON_JIT, "get_capture_scope": TRITON_JIT,
                        "is_gluon": TRITON_JIT, "repr": TRITON_JIT, "hash": TRITON_JIT, "parse": TRITON_JIT,
                        "type": TRITON_JIT, "used_global_vals": TRITON_JIT,
                        "bind": "steps of a launch", "specialization": "steps of a launch",
                        "compile": "steps of a launch", "module_text": "steps of a launch"}),
        Entry("tessera.cdiv"),
        Entry("tessera.next_power_of_2"),
        Entry("tessera.default_target"),
        Entry("tessera.set_allocator"),
    ]),
    Section("Arrays", [
        Entry("tessera.Array", ["numpy", "copy_from_numpy", "copy_", "data_ptr"],
              left_out={"ndim": "attributes (the class's docstring)", "is_cuda": "attributes (the class's docstring)"}),
        Entry("tessera.empty"),
        Entry("tessera.zeros"),
        Entry("tessera.from_numpy"),
    ]),
    Section("Tensor descriptors and reinterpreted memory", [
        Entry("tessera.tools.tensor_descriptor.TensorDescriptor", ["from_tensor"]),
        Entry("tessera.reinterpret"),
        Entry("tessera.TensorWrapper", left_out={name: "torch's tensor methods, answered by `base`" for name in (
            "data_ptr", "stride", "element_size", "numel", "dim", "size", "is_contiguous", "cpu", "to", "clone",
            "copy_", "new_empty")}),
    ]),
    Section("Checking results and timing: `tessera.testing`", [
        Entry("tessera.testing.assert_close"),
        Entry("tessera.testing.do_bench"),
        Entry("tessera.testing.do_bench_cudagraph"),
        Entry("tessera.testing.perf_report"),
        Entry("tessera.testing.Benchmark"),
        Entry("tessera.testing.Report", ["run"]),
        Entry("tessera.testing.get_dram_gbps"),
        Entry("tessera.testing.get_max_tensorcore_tflops"),
        Entry("tessera.testing.get_max_simd_tflops"),
        Entry("tessera.testing.nvsmi"),
        Entry("tessera.testing.set_gpu_clock"),
        Entry("tessera.testing.cuda_memcheck"),
    ], module="tessera.testing"),
    Section("Autotuning", [
        Entry("tessera.autotune"),
        Entry("tessera.Config", ["all_kwargs"]),
        Entry("tessera.Autotuner", ["run", "warmup", "prune_configs", "bench_times"]),
        Entry("tessera.heuristics"),
        Entry("tessera.Heuristics", ["run", "warmup"]),
    ]),
    Section("Errors", [
        Entry("tessera.TesseraError"),
        Entry("tessera.CompilationError", ["error_message"]),
        Entry("tessera.CompileTimeAssertionFailure"),
        Entry("tessera.OutOfResources"),
        Entry("tessera.DeviceAssertionError"),
    ]),
    Section("Debugging in the interpreter: `tessera.interpreter`", [
        Entry("tessera.interpreter.enabled"),
        Entry("tessera.interpreter.active"),
        Entry("tessera.interpreter.InterpreterError"),
    ], module="tessera.interpreter", left_out=[
        (("launch",), "what a launch calls when active() says so"),
        (("InterpretedFunction", "GridExecutor", "TensorHandle", "BlockPointerHandle", "TensorDescHandle",
          "InterpreterOptions", "InterpreterBuilder", "ReduceOps", "ScanOps", "ReduceScanOpInterface",
          "ExtraFunctions", "ASTTransformer", "FunctionRewriter", "np_erf_fp32", "np_erf_fp64", "np_umulhi_u64",
          "interpreter_builder", "interpreter_semantic", "T"),
         "Triton's triton.runtime.interpreter names, for code written against Triton's interpreter"),
    ]),
    Section("Constexpr functions", [
        Entry("tessera.constexpr_function"),
        Entry("tessera.ConstexprFunction"),
    ]),
    Section("Compiling without launching: `tessera.compiler`", [
        Entry("tessera.compiler.ASTSource", ["make_ir"], left_out={"specialization": "the compile's own step"}),
        Entry("tessera.compile"),
        Entry("tessera.compiler.kernel_writes"),
        Entry("tessera.compiler.CompiledKernel"),
        Entry("tessera.compiler.GPUTarget"),
    ], module="tessera.compiler"),
    Section("The active device: `tessera.runtime.driver`", [
        Entry("tessera.runtime.driver.active",
              ["get_current_target", "get_current_device", "get_active_torch_device", "get_current_stream",
               "utils.get_device_properties", "get_benchmarker", "get_empty_cache_for_benchmark", "clear_cache",
               "get_device_interface", "is_active"], prefix="driver.active"),
        Entry("tessera.runtime.driver.set_active"),
        Entry("tessera.runtime.driver.reset_active"),
        Entry("tessera.runtime.driver.DriverBase",
              left_out={name: "what a driver answers: driver.active's methods above" for name in (
                  "is_active", "get_current_target", "get_active_torch_device", "get_benchmarker")}),
    ], module="tessera.runtime.driver", left_out=[
        (("driver", "DriverConfig"), "Triton's `triton.runtime.driver.driver` and its class: the same answers "
                                     "as this module's `active`, `set_active` and `reset_active`"),
        (("default",), "Tessera's driver: `active` until set_active replaces it"),
        (("backends",), "Triton's registry of backends' drivers, empty: Tessera's runtime answers for every device"),
    ]),
    Section("Profiling: `tessera.profiler`", [
        Entry("tessera.profiler.start"),
        Entry("tessera.profiler.scope"),
        Entry("tessera.profiler.enter_scope"),
        Entry("tessera.profiler.exit_scope"),
        Entry("tessera.profiler.activate"),
        Entry("tessera.profiler.deactivate"),
        Entry("tessera.profiler.finalize"),
    ], module="tessera.profiler"),
    Section("Triton's names: `tessera.compat`", [], module="tessera.compat", text=(
        "Under `tessera.compat`, `import triton` is Tessera: every public name of Triton 3.6's runtime modules is "
        "present or says it is not provided. [triton-api.md](triton-api.md) lists them module by module, and "
        "[differences-from-triton.md](differences-from-triton.md) says what differs.")),
    Section("The kernel language: `tessera.language`", [], module="tessera.language", text=(
        "[language-reference.md](language-reference.md) lists every name of `tl`, `tl.math` and `libdevice` with "
        "its parameters, semantics, dtypes and targets (generated from the compiler).")),
]

# Modules whose public names the page must account for; tessera.compat and
# tessera.language have pages of their own.
CHECKED = ["tessera", "tessera.testing", "tessera.compiler", "tessera.interpreter", "tessera.runtime.driver",
           "tessera.profiler"]

# Paragraphs of module docstrings for the package's developers, left off the page.
DEVELOPER_NOTE = re.compile(r"^(Layer \d|The package is built in layers)")


def resolve(path):
    """The object at a dotted path ("tessera.runtime.driver.active")."""
    parts = path.split(".")
    obj = sys.modules[parts[0]]
    for i, part in enumerate(parts[1:], 1):
        # An attribute before a submodule of its name (tessera.jit, the function).
        obj = getattr(obj, part) if hasattr(obj, part) else sys.modules[".".join(parts[:i + 1])]
    return obj


def kind_of(obj):
    if inspect.ismodule(obj):
        return "module"
    if inspect.isclass(obj):
        return "class"
    if inspect.isroutine(obj):
        return "function"
    return "instance"


def own_doc(obj, name):
    """The docstring `obj` has itself (a class's own, not one inherited or
    generated for a dataclass or namedtuple; an instance's class's), or an
    Undocumented error naming it."""
    if isinstance(obj, property):
        doc = obj.__doc__
    elif inspect.isclass(obj):
        doc = obj.__dict__.get("__doc__")
        if doc and re.match(r"%s\(.*\)$" % re.escape(obj.__name__), doc.strip(), re.DOTALL):
            doc = None  # what dataclass and namedtuple write
    elif kind_of(obj) == "instance":
        doc = type(obj).__dict__.get("__doc__")
    else:
        doc = getattr(obj, "__doc__", None)
    if not doc or not doc.strip():
        raise Undocumented("%s has no docstring: every object docs/python-api.md lists needs one "
                           "(tools/python_api_reference.py)" % name)
    return inspect.cleandoc(doc)


# ---- docstrings as Markdown

# Code spans (``x`` or `x`), and private names in prose shown as code
# (_unsafe_update_src, __dlpack__).
_SPAN = re.compile(r"``(?!`)(.+?)``|`([^`]+)`|(?<![\w`])(_[\w.]*\w)")


def _escape(text):
    """Prose outside code spans, with what Markdown would read as markup escaped."""
    out = []
    for i, ch in enumerate(text):
        if ch in "\\*[]~$" or (ch == "<" and re.match(r"[A-Za-z/!?]", text[i + 1:i + 2])):
            out.append("\\" + ch)
        elif ch == "_" and not (i > 0 and text[i - 1].isalnum() and i + 1 < len(text) and text[i + 1].isalnum()):
            out.append("\\_")  # an underscore that could open or close emphasis
        else:
            out.append(ch)
    return "".join(out)


def prose(text):
    """One paragraph (its lines joined) as a Markdown line: code spans kept
    (``x`` becomes `x`), the rest escaped."""
    text = " ".join(line.strip() for line in text.splitlines())
    out, at = [], 0
    for m in _SPAN.finditer(text):
        out.append(_escape(text[at:m.start()]))
        code = next(g for g in m.groups() if g is not None)
        out.append("`%s`" % code if "`" not in code else "``%s``" % code)
        at = m.end()
    out.append(_escape(text[at:]))
    line = "".join(out)
    if re.match(r"[-+#=>]|\d+[.)]", line):
        line = "\\" + line if not line[0].isdigit() else re.sub(r"^(\d+)([.)])", r"\1\\\2", line)
    return line


def blocks(doc):
    """[("prose", text) or ("code", text)] of a cleaned docstring: paragraphs
    split at blank lines; indented lines are code (consecutive code
    paragraphs make one block); developer notes end it."""
    out = []
    for para in re.split(r"\n\s*\n", doc.strip("\n")):
        lines = para.splitlines()
        if DEVELOPER_NOTE.match(lines[0]):
            break
        first_code = next((i for i, line in enumerate(lines) if line[:1].isspace()), None)
        if first_code is None:
            out.append(("prose", para))
            continue
        if first_code > 0:
            out.append(("prose", "\n".join(lines[:first_code])))
        code = "\n".join(lines[first_code:])
        indent = min(len(line) - len(line.lstrip()) for line in lines[first_code:] if line.strip())
        code = "\n".join(line[indent:] for line in code.splitlines())
        if out and out[-1][0] == "code" and first_code == 0:
            out[-1] = ("code", out[-1][1] + "\n\n" + code)
        else:
            out.append(("code", code))
    return out


def markdown(doc):
    """The lines of a docstring as Markdown."""
    lines = []
    for kind, text in blocks(doc):
        if kind == "prose":
            lines += [prose(text), ""]
        else:
            lines += ["```"] + text.splitlines() + ["```", ""]
    return lines


def summary(doc):
    """The first paragraph, as one Markdown line ("" when code comes first)."""
    parts = blocks(doc)
    return prose(parts[0][1]) if parts and parts[0][0] == "prose" else ""


# ---- signatures

def _split_top(text):
    """`text` split at the commas outside brackets and quotes."""
    parts, depth, quote, start = [], 0, None, 0
    for i, ch in enumerate(text):
        if quote:
            if ch == quote and text[i - 1] != "\\":
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    parts.append(text[start:].strip())
    return [p for p in parts if p]


def call_text(name, params, width=100):
    """`name(params)`, one parameter list wrapped under its opening
    parenthesis when longer than `width`."""
    text = "%s(%s)" % (name, params)
    if "at 0x" in text:
        raise ValueError("the signature of %s shows an address (not deterministic): %s" % (name, text))
    if len(text) <= width:
        return text
    lines, line, pad = [], name + "(", " " * (len(name) + 1)
    for part in _split_top(params):
        piece = part + ", "
        if len(line) + len(piece) > width and line.strip() not in ("", name + "("):
            lines.append(line.rstrip())
            line = pad
        line += piece
    lines.append(line.rstrip().rstrip(",") + ")")
    return "\n".join(lines)


def parameters(obj, drop_self=False):
    """The parameter list of a callable as inspect writes it."""
    sig = inspect.signature(obj)
    if drop_self:
        sig = sig.replace(parameters=list(sig.parameters.values())[1:])
    return str(sig)[1:-1] if sig.return_annotation is inspect.Signature.empty else \
        str(sig)[1:].split(") ->")[0]


def class_line(cls, path, names):
    """`class path(constructor parameters)`, or `class path(bases)` for
    exceptions and classes without a constructor (interfaces)."""
    if issubclass(cls, BaseException) or (cls.__init__ is object.__init__ and cls.__new__ is object.__new__):
        bases = [names.get(id(b)) or (b.__name__ if b.__module__ == "builtins" else b.__module__ + "." + b.__name__)
                 for b in cls.__bases__ if b is not object]
        return "class %s(%s)" % (path, ", ".join(bases)) if bases else "class " + path
    return call_text("class " + path, parameters(cls))


# ---- the page

def anchor_of(heading, seen):
    """GitHub's anchor for a heading (lower case; punctuation other than
    hyphens and underscores dropped; spaces as hyphens; -1, -2 for repeats)."""
    base = re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
    n = seen.get(base, 0)
    seen[base] = n + 1
    return base if n == 0 else "%s-%d" % (base, n)


def _member(owner, name):
    """(object, how to show it) of a member of a class or an instance: "property",
    "method" (drop self), or "function"."""
    target = owner
    for part in name.split(".")[:-1]:
        target = getattr(target, part)
    last = name.split(".")[-1]
    if inspect.isclass(target):
        static = inspect.getattr_static(target, last)
        if isinstance(static, property):
            return static, "property"
        if isinstance(static, staticmethod):
            return getattr(target, last), "function"
        if isinstance(static, classmethod):
            return getattr(target, last), "function"
        return static, "method"
    static = inspect.getattr_static(type(target), last, None)
    if isinstance(static, property):
        return static, "property"
    return getattr(target, last), "function"


def public_methods(cls):
    """The methods and properties a class defines itself, without a leading underscore."""
    return sorted(n for n, v in vars(cls).items() if not n.startswith("_") and
                  (isinstance(v, (property, staticmethod, classmethod)) or inspect.isfunction(v)))


def render_entry(entry, obj, names, seen):
    """The lines of one entry and its members."""
    kind = kind_of(obj)
    heading = entry.path
    lines = ["### `%s`" % heading, ""]
    doc = own_doc(obj, entry.path)
    if kind == "class":
        lines += ["```", class_line(obj, entry.path, names), "```", ""]
    elif kind == "function":
        lines += ["```", call_text(entry.path, parameters(obj)), "```", ""]
    else:
        lines += ["```", entry.path, "```", ""]
    lines += markdown(doc)
    cls = obj if kind == "class" else type(obj) if kind == "instance" else None
    if cls is not None:
        listed = {m.split(".")[0] for m in entry.members}
        missing = [n for n in public_methods(cls) if n not in listed and n not in entry.left_out]
        if missing:
            raise Undocumented("%s has public methods the page neither describes nor leaves out: %s (add them to its "
                               "Entry in tools/python_api_reference.py)" % (entry.path, ", ".join(missing)))
    for name in entry.members:
        member, how = _member(obj, name)
        if name == "__getitem__" and hasattr(obj, "_python_getitem"):
            # Once a kernel has launched, the fast lane's C Subscript stands in
            # for JITFunction.__getitem__; the Python one holds the documentation.
            member = obj._python_getitem
        label = "%s.%s" % (entry.prefix, name)
        mdoc = own_doc(member, label)
        if name == "__getitem__":
            run = inspect.signature(obj.run)
            params = [p for p in run.parameters.values() if p.name not in ("self", "grid", "warmup")]
            anchor_of("kernel[grid](...)", seen)
            lines += ["#### `kernel[grid](...)`", "", "```",
                      call_text("kernel[grid]", str(run.replace(parameters=params))[1:-1]), "```", ""]
        elif how == "property":
            anchor_of(label, seen)
            lines += ["#### `%s`" % label, "", "```", "%s  # a property" % label, "```", ""]
        else:
            anchor_of(label, seen)
            lines += ["#### `%s`" % label, "", "```",
                      call_text(label, parameters(member, drop_self=how == "method")), "```", ""]
        lines += markdown(mdoc)
    if entry.left_out:
        by_reason = {}
        for name, reason in entry.left_out.items():
            by_reason.setdefault(reason, []).append(name)
        for reason, members in by_reason.items():
            lines += ["Also on `%s`, not described here (%s): %s." % (
                entry.prefix, reason, ", ".join("`%s`" % m for m in members)), ""]
    return lines


def public_names(module):
    names = getattr(module, "__all__", None)
    if names is None:
        names = [n for n, v in vars(module).items() if not n.startswith("_") and not inspect.ismodule(v)]
    return list(names)


def generate():
    """The page."""
    objects = {}  # path -> object
    names = {}    # id(object) -> path, for the entries
    for section in SECTIONS:
        for entry in section.entries:
            obj = resolve(entry.path)
            objects[entry.path] = obj
            names.setdefault(id(obj), entry.path)
    seen = {}
    for heading in ("Tessera's Python API", "Contents"):
        anchor_of(heading, seen)
    anchors = {}
    toc = []
    body = []
    aliases = {s.module: [] for s in SECTIONS if s.module}
    module_sections = {s.module for s in SECTIONS if s.module}
    # Every public name of a checked module: on the page, the same object as
    # an entry (noted in the module's section), or left out with a reason.
    left_out = {}
    for section in SECTIONS:
        for group, _ in section.left_out:
            for n in group:
                left_out["%s.%s" % (section.module, n)] = True
    unplaced = []
    for module_name in CHECKED:
        module = sys.modules[module_name]
        for n in public_names(module):
            path = "%s.%s" % (module_name, n)
            obj = getattr(module, n)
            if path in objects or path in module_sections or path in left_out:
                continue
            if inspect.ismodule(obj) and obj.__name__ in module_sections:
                continue
            if id(obj) in names and module_name in aliases:
                aliases[module_name].append((path, names[id(obj)]))
                continue
            unplaced.append(path)
    if unplaced:
        raise Undocumented("public names docs/python-api.md does not place: %s (add an Entry, or a left_out reason, "
                           "in tools/python_api_reference.py)" % ", ".join(unplaced))

    for section in SECTIONS:
        anchor = anchor_of(section.title.replace("`", ""), seen)
        toc.append("- [%s](#%s)" % (section.title, anchor))
        body += ["## %s" % section.title, ""]
        if section.module:
            module = sys.modules[section.module]
            if section.text is not None:  # a module with a page of its own: its summary and the link
                parts = blocks(own_doc(module, section.module))
                body += [prose(parts[0][1]), ""]
                if len(parts) > 1 and parts[1][0] == "code":
                    body += ["```"] + parts[1][1].splitlines() + ["```", ""]
                body += [section.text, ""]
                continue
            body += markdown(own_doc(module, section.module))
        rows = []
        entry_lines = []
        for entry in section.entries:
            obj = objects[entry.path]
            anchors[entry.path] = anchor_of(entry.path, seen)
            entry_lines += render_entry(entry, obj, names, seen)
            rows.append("| [`%s`](#%s) | %s |" % (entry.path, anchors[entry.path],
                                                  summary(own_doc(obj, entry.path)).replace("|", "\\|")))
        body += ["| name | what it is |", "| --- | --- |"] + rows + [""] + entry_lines
        notes = []
        for path, target in aliases.get(section.module, []):
            notes.append("`%s` is [`%s`](#%s)." % (path, target, anchors.get(target) or anchor_of(target, {})))
        for group, reason in section.left_out:
            notes.append("Not described here (%s): %s." % (reason, ", ".join("`%s`" % n for n in group)))
        if notes:
            body += ["### Other names of `%s`" % section.module, ""] + ["- " + n for n in notes] + [""]
            anchor_of("Other names of " + section.module, seen)

    lines = [
        "# Tessera's Python API",
        "",
        "Generated by `python tools/python_api_reference.py` from the package's docstrings (do not edit by hand;",
        "`tests/python/test_python_api_reference.py` fails when this page and the docstrings disagree). It covers",
        "the host API: what a program calls to compile, launch, check, time and profile kernels. The names kernels",
        "use are in [language-reference.md](language-reference.md); Triton's names under `tessera.compat` in",
        "[triton-api.md](triton-api.md).",
        "",
    ]
    lines += markdown(own_doc(tessera, "tessera"))
    lines += ["## Contents", ""] + toc + [""] + body
    while lines and lines[-1] == "":
        lines.pop()
    return "\n".join(lines) + "\n"


def main(argv):
    try:
        text = generate()
    except Undocumented as e:
        print("tools/python_api_reference.py: %s" % e, file=sys.stderr)
        return 1
    return generated_page.write_or_check(PAGE, text, argv, "tools/python_api_reference.py")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
