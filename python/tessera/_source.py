"""Assembling the module text the C++ frontend compiles for a kernel.

The text is: import lines for the module aliases the kernels use (tl,
tessera, triton, libdevice...) and for language functions they hold under
bare names (`from ...libdevice import tanh`, any alias), then the source of the kernel and of every
JITFunction it references through its globals or closure (transitively),
each dedented and starting at its ``def`` line. Compile-time globals (ints,
floats, bools, dtypes) are collected as constexprs; what every such name
held is recorded, so that a change after compiling is noticed (`stale`). A line map turns the frontend's
"<module>:line:col" back into each function's own file and line.

Layer 2, compile (python/tessera/__init__.py lists the layers).
"""

import ast
import dis
import inspect
import linecache
import re
import textwrap
import types

from . import _python_ast, language as tl
from ._specialize import is_constexpr_global
from .language.extra import libdevice

MODULE_NAME = "<tessera-module>"

# Python modules the frontend knows, by the name the kernel's import gave them.
_KNOWN_MODULES = tuple(root + sub for root in ("tessera", "triton") for sub in
                       ("", ".language", ".language.math", ".language.extra", ".language.extra.cuda",
                        ".language.extra.hip", ".language.core", ".language.standard", ".language.random",
                        ".language.semantic"))


class _Chunk:
    def __init__(self, start, count, filename, first_line, indent):
        self.start, self.count = start, count              # lines in the module text (1-based)
        self.filename, self.first_line, self.indent = filename, first_line, indent


class ModuleText:
    def __init__(self):
        self.text = ""
        self.chunks = []
        self.constexprs = {}   # name -> value (compile-time globals)
        self.dependencies = []  # (read the name's current value, the value it had)
        self.places = []        # (globals dict, name) or (closure cell, None) of each dependency
        self.missing = {}       # module variable -> why a kernel's attribute of it is not defined
        self.rewritten = {}     # a line as compiled -> as written (`m.a` read through a module is `m_a`)

    def stale(self):
        """True when a global or closure variable the text was built from now
        holds another value (a changed constant, a rebound @jit helper), or a
        function in it has had its source replaced (_unsafe_update_src)."""
        for read, was in self.dependencies:
            now = read()
            if now is not was and (type(now) is not type(was) or now != was):
                return True
        return False

    def watch(self):
        """(dict or cell, name or None, the object there now) of every
        dependency: the launch fast lane checks that the same objects are
        still there and leaves any change to stale()."""
        out = []
        for where, name in self.places:
            if name is None:
                try:
                    out.append((where, None, where.cell_contents))
                except ValueError:
                    out.append((where, None, _MISSING))
            else:
                out.append((where, name, where.get(name, _MISSING)))
        return tuple(out)

    def map_location(self, line, col):
        """(filename, line, col) in the original file, or None for header lines."""
        for c in self.chunks:
            if c.start <= line < c.start + c.count:
                return c.filename, c.first_line + (line - c.start), col + c.indent
        return None

    def map_message(self, message, default_file):
        """`message` with module locations (file:line:col, or file:line as a
        device assertion reports them) in the user's files."""
        def repl(m):
            line, col = int(m.group(1)), m.group(2)
            loc = self.map_location(line, int(col) if col else 1)
            if loc is None:
                return "%s:%d" % (default_file, line) + (":" + col if col else "")
            return "%s:%d:%d" % loc if col else "%s:%d" % loc[:2]
        message = re.sub(re.escape(MODULE_NAME) + r":(\d+)(?::(\d+))?", repl, message)
        if self.rewritten:  # the source line under a location, as the user wrote it
            message = "\n".join(self.rewritten.get(line, line) for line in message.split("\n"))
        for root, why in self.missing.items():  # the frontend knows no module variables, only their names
            message = message.replace("name '%s' is not defined" % root, why)
        # A host function called on a tensor (`math.exp(x)`): the language's function of that name is the one to use.
        message = re.sub(r"(constexpr function [\w.]*?(\w+) takes compile-time values; its [^\n]*)",
                         lambda m: m.group(1) + _language_hint(m.group(2)), message)
        return message.replace(MODULE_NAME, default_file)


_CAPTURED = "__tessera_source__"  # the function attribute capture() sets: (code object, lines, first line)


def capture(fn):
    """Reads fn's source now, when it is decorated, and keeps it with the
    function: the text compiled later is the one this function object was
    made from, even when its file is edited meanwhile, and a module
    reloaded after an edit (importlib.reload, IPython's autoreload) makes
    new functions with the new text (linecache is checked against the file
    first). Nothing is kept where no source can be read (exec'd code
    reads it later, as before)."""
    code = getattr(fn, "__code__", None)
    if code is None:
        return
    try:
        linecache.checkcache(code.co_filename)
        lines, first = _read_source_lines(fn)
        fn.__dict__[_CAPTURED] = (code, tuple(lines), first)
    except (OSError, TypeError, IndexError, SyntaxError, AttributeError):
        pass


def _source_lines(fn):
    """The function's source lines and first line number: those capture()
    kept at decoration, else read now."""
    kept = getattr(fn, "__dict__", {}).get(_CAPTURED)
    if kept is not None and kept[0] is fn.__code__:
        return list(kept[1]), kept[2]
    return _read_source_lines(fn)


def _read_source_lines(fn):
    """The function's source lines and first line number. The block is cut by
    indentation from linecache (cheap); inspect.getsourcelines, which
    tokenizes, is the fallback when that text does not parse."""
    code = fn.__code__
    all_lines = linecache.getlines(code.co_filename)
    start = code.co_firstlineno - 1
    if all_lines and 0 <= start < len(all_lines):
        head = all_lines[start]
        indent = len(head) - len(head.lstrip())
        end = start + 1
        seen_def = head.lstrip().startswith(("def ", "async def "))
        while end < len(all_lines):
            line = all_lines[end]
            stripped = line.strip()
            depth = len(line) - len(line.lstrip())
            if not seen_def:
                seen_def = stripped.startswith(("def ", "async def "))
            elif stripped and not stripped.startswith("#") and depth <= indent:
                break
            end += 1
        lines = all_lines[start:end]
        try:
            _python_ast.parse(textwrap.dedent("".join(lines)))
            return lines, code.co_firstlineno
        except SyntaxError:
            pass
    try:
        return inspect.getsourcelines(fn)
    except OSError as e:
        # As Triton's jit, the kernel is compiled from its source: a function exec'd from a
        # string has none unless its text is where linecache finds it (code generators
        # write a file, or register the text with linecache.cache[filename]).
        raise OSError("cannot read the source of %s (from %s): a jit function is compiled from its "
                      "source text; for code generated at run time, write it to a file and import or "
                      "exec(compile(text, path, 'exec')) it, or put the text in linecache.cache[%r]"
                      % (getattr(fn, "__qualname__", fn), code.co_filename, code.co_filename)) from e


def _function_source(fn, replaced=None):
    """(dedented source from the def line, file, def line number, indent);
    `replaced`: a source text standing in for the function's own."""
    if replaced is None:
        lines, first = _source_lines(fn)
    else:
        lines, first = replaced.splitlines(keepends=True), fn.__code__.co_firstlineno
    raw = "".join(lines)
    text = textwrap.dedent(raw)
    first_code = next((l for l in lines if l.strip()), "")
    indent = len(first_code) - len(first_code.lstrip())
    tree = _python_ast.parse(text)
    node = next(n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))
    def_index = node.lineno - 1     # skip decorators: the frontend need not see them
    body = "".join(text.splitlines(keepends=True)[def_index:])
    if not body.endswith("\n"):
        body += "\n"
    filename = fn.__code__.co_filename
    return body, filename, first + def_index, indent


def _code_of(jf):
    """The code object whose names the kernel reads: the function's, or
    that of a replaced source (JITFunction._unsafe_update_src)."""
    replaced = getattr(jf, "_replaced_src", None)
    if replaced is None:
        return jf.fn.__code__
    module = compile(textwrap.dedent(replaced), jf.fn.__code__.co_filename, "exec")
    return next(c for c in module.co_consts if isinstance(c, types.CodeType))


def _referenced_names(code):
    """Names the function reads as globals. co_names would also hold
    attribute names (the `load` of `tl.load`), which must not pull in an
    unrelated global of that name."""
    names = {ins.argval for ins in dis.get_instructions(code) if ins.opname in ("LOAD_GLOBAL", "LOAD_NAME")}
    names |= set(code.co_freevars)  # closure variables (LOAD_DEREF)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _referenced_names(const)
    return names


def _module_import(name, value):
    modname = getattr(value, "__name__", "")
    if modname in _KNOWN_MODULES or modname.endswith("libdevice"):
        return "import %s as %s" % (modname, name)
    return None


def _function_import(name, value):
    """`from M import f as name` for a kernel global bound to a language
    function (a Tessera stub, or Triton's own when Triton code runs here),
    or None."""
    source = getattr(value, "_tessera_source", None)
    if source is None and callable(value) and not isinstance(value, type):
        module = getattr(value, "__module__", None) or ""
        if module == "triton.language" or module.startswith("triton.language."):
            source = (module, getattr(value, "__name__", ""))
    if not source or not source[1].isidentifier():
        return None
    return "from %s import %s as %s" % (source[0], source[1], name)


_MISSING = object()


def _reader(name, fn_globals, cells):
    """A function returning the current value of `name` as the kernel sees it."""
    if name in cells:
        cell = cells[name]

        def read_cell():
            try:
                return cell.cell_contents
            except ValueError:  # an empty cell
                return _MISSING
        return read_cell
    return lambda: fn_globals.get(name, _MISSING)


def _attribute_chains(body, modules):
    """[(start offset of the root name in `body`, [names])] of each attribute
    chain `m.a.b` in the function text whose root `m` is one of `modules`
    (the longest chain at each place: `m.a.b(...)` gives m, a, b)."""
    tree = _python_ast.parse(body)
    lines = body.splitlines(keepends=True)
    line_starts = [0]
    for line in lines:
        line_starts.append(line_starts[-1] + len(line))
    chains, inner = [], set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute) or id(node) in inner:
            continue
        names, base = [node.attr], node.value
        while isinstance(base, ast.Attribute):
            inner.add(id(base))
            names.append(base.attr)
            base = base.value
        if isinstance(base, ast.Name) and base.id in modules and isinstance(base.ctx, ast.Load):
            line = lines[base.lineno - 1]
            column = len(line.encode("utf-8")[:base.col_offset].decode("utf-8"))  # ast counts UTF-8 bytes
            chains.append((line_starts[base.lineno - 1] + column, [base.id] + names[::-1]))
    return chains


def _resolve_through_modules(body, g, unwrap):
    """The module variables a function reads attributes of that the frontend
    does not know as language modules (a library's module of @jit helpers,
    `tle.program_id(0)`; chains through its submodules): each such chain
    `m.a.b` becomes the name `m_a_b` (the same length, so error columns
    stay right) bound to what it resolves to. Returns (body, [(name, value,
    (dict, key))] for the names bound, {module variable: why} for chains
    naming nothing); chains that resolve to nothing the frontend takes are
    left as written."""
    modules = {n for n, v in g.items() if isinstance(v, types.ModuleType) and _module_import(n, v) is None}
    if not modules or not any(m + "." in body for m in modules):
        return body, [], {}
    text, bound, missing = list(body), {}, {}
    for start, names in _attribute_chains(body, modules):
        value, owner = g[names[0]], None
        for i, attr in enumerate(names[1:], 1):
            module, owner, value = value, (value.__dict__, attr), getattr(value, attr, _MISSING)
            if value is _MISSING:
                missing.setdefault(names[0], "%s (module %r) has no attribute %r"
                                   % (".".join(names[:i]), module.__name__, attr))
                break
            if isinstance(value, types.ModuleType) and _module_import(attr, value) is None:
                continue  # a submodule of helpers: keep walking
            name = "_".join(names[:i + 1])
            written = ".".join(names[:i + 1])
            if body[start:start + len(written)] != written:
                break  # spaces or a line break around a dot: left as written
            # Through a module, any constant reads as Triton reads it (`torch.version.hip is not None`).
            if (unwrap(value) is not None or is_constexpr_global(value) or _function_import(name, value)
                    or _called_while_compiling(value) or isinstance(value, (types.ModuleType, str, type(None)))):
                pos = start
                for part in names[:i]:  # the dots of the resolved part become underscores
                    pos += len(part)
                    text[pos] = "_"
                    pos += 1
                bound[name] = (value, owner)
            elif callable(value):
                missing.setdefault(names[0], _foreign_function(names[:i + 1], module))
            break
    return "".join(text), [(n, v, o) for n, (v, o) in bound.items()], missing


def _called_while_compiling(value):
    """A plain Python function of a library's module (`mylib.block_for(N)`,
    `math.log2(N)`): Triton calls whatever a kernel reaches through a module
    while compiling, so it runs as a constexpr function does, on
    compile-time values."""
    return isinstance(value, (types.FunctionType, types.BuiltinFunctionType)) and \
        not (value.__module__ or "").startswith(("tessera", "triton"))


def _language_hint(attr):
    """" (use tl.exp)" where the language has a function named `attr`."""
    for prefix, namespace in (("tl.", tl), ("libdevice.", libdevice)):
        if callable(getattr(namespace, attr, None)) and not isinstance(getattr(namespace, attr), type):
            return " (use %s%s)" % (prefix, attr)
    return ""


def _foreign_function(names, module):
    """Why a kernel cannot call a host library's function (np.exp): it
    runs in Python on the host; the language's function of that name is
    the one to use, where there is one."""
    return "%s is a function of module %r, which runs on the host and cannot be called in a kernel%s" % (
        ".".join(names), module.__name__, _language_hint(names[-1]))


def build(root, unwrap, exclude_globals=(), extra_roots=()):
    """ModuleText for JITFunction `root` (and `extra_roots`, functions passed
    as tl.constexpr arguments); `unwrap(value)` returns the JITFunction
    behind a global (or None)."""
    out = ModuleText()
    imports, bodies, seen = {}, [], set()
    order = [(jf, None) for jf in [root] + list(extra_roots)]  # (function, the name it is emitted under)
    while order:
        jf, emitted_as = order.pop(0)
        if (id(jf), emitted_as) in seen:
            continue
        seen.add((id(jf), emitted_as))
        replaced = getattr(jf, "_replaced_src", None)
        body, filename, first, indent = _function_source(jf.fn, replaced)
        out.dependencies.append(((lambda f=jf: getattr(f, "_replaced_src", None)), replaced))
        if emitted_as is not None:  # reached as module.name: defined under the name the callers use
            body = re.sub(r"^(\s*(?:async\s+)?def\s+)\w+", lambda m: m.group(1) + emitted_as, body, count=1)
        # Kernels defined inside functions (tests, notebooks) see their
        # enclosing variables as well as the module's globals.
        fn_globals = jf.fn.__globals__
        cells = dict(zip(jf.fn.__code__.co_freevars, jf.fn.__closure__ or ()))
        g = dict(fn_globals)
        g.update(inspect.getclosurevars(jf.fn).nonlocals)
        for name, value in g.items():
            if isinstance(value, types.ModuleType):
                line = _module_import(name, value)
                if line:
                    imports.setdefault(name, line)
        written = body
        body, through_modules, missing = _resolve_through_modules(body, g, unwrap)
        if body != written:
            out.rewritten.update((now, was) for now, was in zip(body.split("\n"), written.split("\n")) if now != was)
        for root, why in missing.items():
            out.missing.setdefault(root, why)
        bodies.append((body, filename, first, indent))
        for name, value, (where, key) in through_modules:
            dep = unwrap(value)
            if dep is not None:
                order.append((dep, name))
            elif isinstance(value, types.ModuleType):
                imports.setdefault(name, _module_import(name, value))
            elif is_constexpr_global(value) or isinstance(value, (str, type(None))):
                out.constexprs.setdefault(name, value)
            elif _called_while_compiling(value):
                out.constexprs.setdefault(name, tl.constexpr(value))
            else:
                imports.setdefault(name, _function_import(name, value))
            out.dependencies.append(((lambda w=where, k=key: w.get(k, _MISSING)), value))
            out.places.append((where, key))
        for name in sorted(_referenced_names(_code_of(jf))):
            if name not in g:
                continue
            value = g[name]
            dep = unwrap(value)
            if dep is not None:
                order.append((dep, None))
            elif is_constexpr_global(value) and name not in exclude_globals:
                out.constexprs.setdefault(name, value)
                function_id = getattr(value, "_tessera_constexpr_function_id", None)
                if function_id is not None:  # a constexpr function whose source may be replaced
                    out.dependencies.append(((lambda v=value: v._tessera_constexpr_function_id), function_id))
            elif (line := _function_import(name, value)) is not None:
                imports.setdefault(name, line)
            else:
                continue
            out.dependencies.append((_reader(name, fn_globals, cells), value))
            out.places.append((cells[name], None) if name in cells else (fn_globals, name))
    header = "\n".join(imports[n] for n in sorted(imports))
    text = header + "\n\n" if header else ""
    line = text.count("\n") + 1
    for body, filename, first, indent in bodies:
        count = body.count("\n")
        out.chunks.append(_Chunk(line, count, filename, first, indent))
        text += body + "\n"
        line += count + 1
    out.text = text
    return out
