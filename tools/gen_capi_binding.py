#!/usr/bin/env python3
"""Generates python/tessera/_capi.py, the ctypes declarations of Tessera's C
API, from include/tessera/tessera.h: the status codes, the #define'd
constants, every struct as a ctypes.Structure and every TESSERA_API
function's result and argument types. tessera.h stays the only place the
API is declared; tests/python/test_capi_binding.py fails when the checked-in
module differs from what this makes of the header.

    tools/gen_capi_binding.py            rewrite python/tessera/_capi.py
    tools/gen_capi_binding.py --check    exit 1 (saying what differs) when it is stale

The header's C is the subset tessera.h is written in: typedefs of enums,
structs and opaque handle pointers, #define'd integers, and one function
declaration per statement. Anything else in a declaration is an error
naming it, not a guess.
"""

import argparse
import difflib
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEADER = os.path.join(ROOT, "include", "tessera", "tessera.h")
OUTPUT = os.path.join(ROOT, "python", "tessera", "_capi.py")

SCALARS = {
    "char": "ctypes.c_char", "int": "ctypes.c_int", "double": "ctypes.c_double", "size_t": "ctypes.c_size_t",
    "int32_t": "ctypes.c_int32", "int64_t": "ctypes.c_int64", "uint32_t": "ctypes.c_uint32",
    "uint64_t": "ctypes.c_uint64", "void": None,
}


class HeaderError(ValueError):
    pass


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


class Header:
    """What tessera.h declares, in its order."""

    def __init__(self, text):
        code = strip_comments(text)
        self.defines = [(m.group(1), int(m.group(2))) for m in
                        re.finditer(r"^\s*#define\s+(TESSERA_[A-Z0-9_]+)\s+(-?\d+)\s*$", code, re.M)]
        code = "\n".join(line for line in code.split("\n") if not line.lstrip().startswith("#"))
        code = re.sub(r'extern\s+"C"\s*\{|^\s*\}\s*$', " ", code, flags=re.M)
        self.enums, self.structs, self.handles, self.functions, self.callbacks = [], [], [], [], []
        for statement in self._statements(code):
            self._read(statement)

    @staticmethod
    def _statements(code):
        """Top-level statements: text up to a ';' outside braces."""
        depth, start = 0, 0
        for i, c in enumerate(code):
            if c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
            elif c == ";" and depth == 0:
                statement = " ".join(code[start:i].split())
                if statement:
                    yield statement
                start = i + 1
        if code[start:].strip():
            raise HeaderError("text after the last declaration: %r" % code[start:].strip()[:80])

    def _read(self, s):
        m = re.fullmatch(r"typedef enum (\w+) \{(.*)\} (\w+)", s)
        if m:
            members = []
            for item in filter(None, (x.strip() for x in m.group(2).split(","))):
                name, _, value = (x.strip() for x in item.partition("="))
                members.append((name, int(value, 0)))
            self.enums.append((m.group(3), members))
            return
        m = re.fullmatch(r"typedef struct (\w+) \{(.*)\} (\w+)", s)
        if m:
            fields = [self._declarator(f.strip()) for f in m.group(2).split(";") if f.strip()]
            self.structs.append((m.group(3), fields))
            return
        m = re.fullmatch(r"typedef (.+?)\(\*(\w+)\)\((.*)\)", s)
        if m:  # a function pointer type: a ctypes CFUNCTYPE
            result = m.group(1).strip()
            args = [self._declarator(p.strip())[1] for p in m.group(3).split(",")]
            self.callbacks.append((m.group(2), result, args))
            return
        m = re.fullmatch(r"typedef struct (\w+) \*(\w+)", s)
        if m:
            self.handles.append(m.group(2))
            return
        m = re.fullmatch(r"TESSERA_API (.+?)\((.*)\)", s)
        if m:
            result_type, name = self._split(m.group(1).strip())
            params = m.group(2).strip()
            args = [] if params in ("", "void") else [self._declarator(p.strip())[1] for p in params.split(",")]
            self.functions.append((name, result_type, args))
            return
        raise HeaderError("a declaration this generator does not read: %r" % s[:120])

    @staticmethod
    def _split(declaration):
        """(type text, name) of 'const char *const *name' and the like."""
        m = re.fullmatch(r"(.*?[\s*])(\w+)(\[\d*\])?", declaration)
        if not m:
            raise HeaderError("cannot read the declaration %r" % declaration)
        ty = m.group(1).strip()
        if m.group(3):  # an array parameter is a pointer
            ty += " *"
        return ty, m.group(2)

    def _declarator(self, text):
        ty, name = self._split(text)
        return name, ty


def ctype(ty, header):
    """The ctypes expression of a C type's text."""
    words = ty.replace("*", " * ").split()
    stars = words.count("*")
    base = [w for w in words if w not in ("const", "*")]
    if len(base) != 1:
        raise HeaderError("cannot read the type %r" % ty)
    base = base[0]
    if base in header.handles:
        base, stars = "void", stars + 1  # an opaque handle is a pointer to a struct
    if base in {c[0] for c in header.callbacks} and not stars:
        return base
    if base in dict(header.enums):
        expr = "ctypes.c_int"
    elif base in dict(header.structs):
        expr = base
    elif base in SCALARS:
        expr = SCALARS[base]
    else:
        raise HeaderError("unknown type %r in %r" % (base, ty))
    if expr == "ctypes.c_char" and stars:
        expr, stars = "ctypes.c_char_p", stars - 1
    elif expr is None:
        if not stars:
            return "None"
        expr, stars = "ctypes.c_void_p", stars - 1
    for _ in range(stars):
        expr = "ctypes.POINTER(%s)" % expr
    return expr


def generate(text):
    header = Header(text)
    out = ['"""The ctypes declarations of include/tessera/tessera.h, generated by',
           "tools/gen_capi_binding.py: do not edit (tests/python/test_capi_binding.py",
           "fails when this file and the header disagree). _C.py binds them.",
           "",
           'Layer 0, binding (python/tessera/__init__.py lists the layers)."""',
           "",
           "import ctypes", ""]
    for name, value in header.defines:
        out.append("%s = %d" % (name, value))
    for enum, members in header.enums:
        out += ["", "# enum %s" % enum]
        out += ["%s = %d" % (n, v) for n, v in members]
    for name, result, args in header.callbacks:
        out += ["", "# a function pointer type", "%s = ctypes.CFUNCTYPE(%s)" % (
            name, ", ".join([ctype(result, header)] + [ctype(a, header) for a in args]))]
    for struct, fields in header.structs:
        out += ["", "", "class %s(ctypes.Structure):" % struct, "    _fields_ = ["]
        out += ['        ("%s", %s),' % (n, ctype(t, header)) for n, t in fields]
        out.append("    ]")
    out += ["", "", "# (name, result type, argument types) of every function, in the header's order.", "FUNCTIONS = ["]
    for name, result, args in header.functions:
        out.append('    ("%s", %s, [%s]),' % (name, ctype(result, header), ", ".join(ctype(a, header) for a in args)))
    out.append("]")
    return "\n".join(out) + "\n"


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--check", action="store_true", help="only say whether %s is up to date" % OUTPUT)
    p.add_argument("--header", default=HEADER)
    p.add_argument("--output", default=OUTPUT)
    a = p.parse_args(argv)
    with open(a.header) as f:
        text = generate(f.read())
    current = open(a.output).read() if os.path.exists(a.output) else ""
    if a.check:
        if current != text:
            sys.stdout.writelines(difflib.unified_diff(current.splitlines(True), text.splitlines(True), a.output,
                                                       "generated from " + a.header))
            print("%s is stale: run tools/gen_capi_binding.py" % a.output)
            return 1
        return 0
    if current != text:
        with open(a.output, "w") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
