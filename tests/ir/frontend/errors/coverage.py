# RUN: python3 %s --frontend %S/../../../../frontend --tests %S
#
# Diagnostic coverage: every error message the frontend can emit must be
# checked by a test in this directory.
#
# The script reads frontend/*.cpp and collects the message of every
# diagnostic site: fail(loc, MSG), cg.fail(loc, MSG), diags.error(loc, MSG),
# Parser::error(loc, MSG), and the driver-level `result.errors = ...` and
# `*error = ...` messages; plus the messages of the tl.static_assert calls in
# frontend/prelude.py. A message is a C++ concatenation of string literals and
# runtime parts; it becomes a template whose runtime parts match anything.
# Ternaries choosing between literal texts (`store ? ".wb, ..." : ".ca, ..."`)
# give one template per alternative, since each is a separate diagnostic.
#
# A template is covered when some line of a test here ends with text it
# matches (the FileCheck line carrying the message) and no more specific
# template (one with more literal text) matches that line too. Sites that
# share one message text are one template. Templates that no user input can
# reach are in ALLOW, each with the reason; the run fails when a reachable
# template has no test, or when an ALLOW entry matches no site (stale) or has
# become covered (remove it).
#
# Usage: coverage.py [--frontend DIR] [--tests DIR] [--verbose]
#   --verbose also lists every covered template with the test line covering it.

import argparse
import os
import re
import sys

# Templates (as printed by this script, '*' for a runtime part) that user
# input cannot reach, with why.
ALLOW = {
    # Constexpr functions run in Python, through the C API's constexpr_call:
    # tests/python/test_constexpr_function.py checks these three messages.
    "constexpr function * takes compile-time values; its * is *":
        "reached through Python's constexpr_call only: tests/python/test_constexpr_function.py",
    "constexpr function * raised *":
        "reached through Python's constexpr_call only: tests/python/test_constexpr_function.py",
    "constexpr function * returned *, which is not a compile-time value":
        "reached through Python's constexpr_call only: tests/python/test_constexpr_function.py",
    # Extern functions run their body in Python too (frontend/ExternCall.cpp);
    # tests/ir/frontend/errors/extern.py checks the one error without Python.
    "extern function * takes numbers; its * is a *":
        "reached through Python's constexpr_call only: tests/python/test_extern_elementwise.py",
    "extern function * takes tensors and compile-time values; its * is *":
        "reached through Python's constexpr_call only: tests/python/test_extern_elementwise.py",
    "extern function * raised *":
        "reached through Python's constexpr_call only: tests/python/test_extern_elementwise.py",
    "extern function * calls *, which the * target cannot resolve: it links *, and Tessera has no version of * of "
    "its own*":
        "reached through Python's constexpr_call only: tests/python/test_extern_elementwise.py",
    "extern function * gave the compiler an answer it cannot read: *":
        "internal: python/tessera/_extern.py writes the answer as a Python literal the frontend reads",
    "extern function * gave the compiler an answer it cannot read (*): this is a bug in Tessera's extern support":
        "internal: python/tessera/_extern.py writes the answer in the form ExternCall.cpp reads",
    "__namedtuple__ takes a name, a tuple of field names and a tuple of as many values":
        "internal: only parseConstexpr's scope has __namedtuple__, and its errors read as 'cannot read * as a "
        "compile-time value' (tests/ir/frontend/namedtuples.py passes one)",
    "could not settle the types of the loop-carried variables":
        "internal: only attempts 0 and 1 may ask for a retry; attempt 2 either finishes the loop "
        "or reports the type mismatch",
    "no source file with id *":
        "internal: Parser::parse is only called with a file id the source manager just handed out",
    "internal error: the prelude does not parse:\n*":
        "internal: the prelude is compiled into the binary and parsed by every compile, so any "
        "error there fails every kernel test first",
    "*: internal error: the frontend produced invalid IR:\n*":
        "internal: IR verifier backstop; any hit is a frontend bug, not a user error",
    "unsupported statement":
        "internal: genStmts handles if statements itself and the switch has a case for every other kind",
    "unsupported expression":
        "internal: the switch has a case for every expression kind the parser builds",
    "slices with bounds are supported only on tuples":
        "internal: the parser builds slices only inside subscripts, and evalSubscript reads them "
        "without evaluating them (tuple subscripts with several indices are rejected before)",
    "break or continue outside a loop":
        "internal: the parser rejects 'break'/'continue' outside a loop before codegen runs",
    "loop-carried variable '*' is not defined at the end of the loop body":
        "internal: carried names are defined before the loop and no statement removes a name "
        "(there is no 'del'; an if keeps every name defined before it)",
}

CALL_RE = re.compile(r"(?<![\w:])(?:cg\.|diags_?\.)?(fail|error)\s*\(")
ASSIGN_RE = re.compile(r"(?:result\.errors|\*error)\s*=\s*")
DEFINITION_RE = re.compile(r"(?:void|\]\])\s+(?:\w+::)?(?:fail|error)\s*\($")


def strip_comments(src):
    """Blank out // and /* */ comments, keeping string literals and offsets."""
    out, i, n = [], 0, len(src)
    while i < n:
        c = src[i]
        if c in "\"'":
            j = i + 1
            while j < n and src[j] != c:
                j += 2 if src[j] == "\\" else 1
            out.append(src[i:j + 1])
            i = j + 1
        elif src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif src.startswith("/*", i):
            j = src.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", src[i:j]))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def scan_to(src, i, stops):
    """Index of the first top-level char in `stops` at or after i (or len)."""
    depth = 0
    n = len(src)
    while i < n:
        c = src[i]
        if c in "\"'":
            j = i + 1
            while j < n and src[j] != c:
                j += 2 if src[j] == "\\" else 1
            i = j + 1
            continue
        if depth == 0 and c in stops:
            return i
        if c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                return i
            depth -= 1
        i += 1
    return n


def split_top(expr, sep):
    parts, i = [], 0
    while True:
        j = scan_to(expr, i, sep)
        parts.append(expr[i:j].strip())
        if j >= len(expr):
            return parts
        i = j + 1


def unescape(lit):
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), lit)


STR_LIT = re.compile(r'"((?:[^"\\]|\\.)*)"')
WILD = object()


def templates(expr, context=""):
    """The message templates of a C++ string expression: tuples of str and WILD."""
    expr = expr.strip()
    # Top-level ternary: cond ? a : b.
    q = scan_to(expr, 0, "?")
    if q < len(expr):
        colon = scan_to(expr, q + 1, ":")
        while colon + 1 < len(expr) and expr[colon + 1] == ":":  # skip '::'
            colon = scan_to(expr, colon + 2, ":")
        a, b = expr[q + 1:colon], expr[colon + 1:]
        return templates(a, context) + templates(b, context)
    result = [[]]
    for part in split_top(expr, "+"):
        if re.fullmatch(r'(?:"(?:[^"\\]|\\.)*"\s*)+', part):
            alts = [["".join(unescape(m) for m in STR_LIT.findall(part))]]
        else:
            if re.fullmatch(r"std::string\s*\(\s*\)", part):
                continue  # the empty string
            m = re.fullmatch(r'std::string\s*\((.*)\)', part, re.S)
            inner = m.group(1) if m else part
            if inner.startswith("(") and scan_to(inner, 1, "") == len(inner) - 1:
                inner = inner[1:-1]
            if re.fullmatch(r'(?:"(?:[^"\\]|\\.)*"\s*)+', inner.strip()) or scan_to(inner, 0, "?") < len(inner):
                alts = [list(x) for x in templates(inner, context)]
            elif re.fullmatch(r"\w+", inner) and context:
                # A buffer filled by snprintf just above: use its format.
                fm = re.findall(r"snprintf\(\s*" + inner + r"\s*,[^,]*,\s*\"((?:[^\"\\]|\\.)*)\"", context)
                alts = [printf_template(fm[-1])] if fm else [[WILD]]
            else:
                alts = [[WILD]]
        result = [r + a for r in result for a in alts]
    return [normalize(t) for t in result]


def printf_template(fmt):
    pieces = re.split(r"%[-#0-9.]*[a-zA-Z]", unescape(fmt))
    out = []
    for i, p in enumerate(pieces):
        out += [WILD, p] if i else [p]
    return out


def normalize(t):
    out = []
    for p in t:
        if p is WILD:
            if not out or out[-1] is not WILD:
                out.append(WILD)
        elif p:
            if out and out[-1] is not WILD:
                out[-1] += p
            else:
                out.append(p)
    return tuple(out)


def show(t):
    return "".join("*" if p is WILD else p for p in t)


def first_line(t):
    """A multi-line message is checked (and covered) by its first line."""
    out = []
    for p in t:
        if p is not WILD and "\n" in p:
            out.append(p.split("\n")[0])
            break
        out.append(p)
    return normalize(out)


def literal_length(t):
    return sum(len(p) for p in t if p is not WILD)


def regex(t):
    return re.compile("".join(".*" if p is WILD else re.escape(p) for p in t) + r"\s*$")


def collect_sites(frontend):
    sites = {}  # template -> [file:line]
    for name in sorted(os.listdir(frontend)):
        if not name.endswith(".cpp"):
            continue
        raw = open(os.path.join(frontend, name), encoding="utf-8").read()
        src = strip_comments(raw)
        for rx, is_call in ((CALL_RE, True), (ASSIGN_RE, False)):
            for m in rx.finditer(src):
                line_start = src.rfind("\n", 0, m.start()) + 1
                if is_call and DEFINITION_RE.search(src[line_start:m.end()]):
                    continue
                if is_call:
                    end = scan_to(src, m.end(), "")
                    args = split_top(src[m.end():end], ",")
                    if len(args) != 2:
                        continue
                    msg = args[1]
                else:
                    msg = src[m.end():scan_to(src, m.end(), ";")]
                msg = re.sub(r"^std::move\((.*)\)$", r"\1", msg.strip(), flags=re.S)
                lineno = src.count("\n", 0, m.start()) + 1
                context = src[max(0, line_start - 600):m.start()]
                for t in templates(msg, context):
                    if not any(p is not WILD for p in t):
                        continue  # forwards a message built elsewhere
                    sites.setdefault(t, []).append("%s:%d" % (name, lineno))
    prelude = os.path.join(frontend, "prelude.py")
    if os.path.exists(prelude):
        for lineno, line in enumerate(open(prelude, encoding="utf-8"), 1):
            m = re.search(r"tl\.static_assert\(.*,\s*\"([^\"]*)\"\)", line)
            if m:
                # Reported at the user's call, with " (in tl.NAME)" appended.
                sites.setdefault(("static_assert failed: " + m.group(1), WILD), []).append("prelude.py:%d" % lineno)
    return sites


def test_lines(tests):
    """(where, text) of every line of the tests in this directory."""
    lines = []
    for name in sorted(os.listdir(tests)):
        if name.endswith(".py") and name != os.path.basename(__file__):
            with open(os.path.join(tests, name), encoding="utf-8", errors="replace") as f:
                for lineno, line in enumerate(f, 1):
                    lines.append(("%s:%d" % (name, lineno), line.rstrip("\n")))
    return lines


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--frontend", default=os.path.join(here, "..", "..", "..", "..", "frontend"))
    ap.add_argument("--tests", default=here)
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()

    sites = collect_sites(args.frontend)
    lines = test_lines(args.tests)
    # Each test line counts for the most specific templates it matches (the
    # most literal text), so "load() got an unexpected keyword argument 'x'"
    # covers "*() got an unexpected keyword argument '*'" but
    # "device_print() got an unexpected keyword argument 'x'" covers only
    # the device_print() message.
    regexes = {t: regex(first_line(t)) for t in sites}
    hits = {}
    for where, text in lines:
        matched = [t for t, rx in regexes.items() if rx.search(text)]
        if matched:
            best = max(literal_length(t) for t in matched)
            for t in matched:
                if literal_length(t) == best:
                    hits.setdefault(t, where)
    covered, missing, allowed = [], [], []
    def order(item):
        name, line = item[1][0].rsplit(":", 1)
        return name, int(line)

    for t, where in sorted(sites.items(), key=order):
        key = show(t)
        hit = hits.get(t)
        if key in ALLOW:
            if hit:
                missing.append((key, where, "allow-listed but covered by %s; remove it from ALLOW" % hit))
            else:
                allowed.append((key, where, ALLOW[key]))
        elif hit:
            covered.append((key, where, hit))
        else:
            missing.append((key, where, "no test"))
    stale = sorted(set(ALLOW) - {show(t) for t in sites})

    nsites = sum(len(w) for w in sites.values())
    print("%d diagnostic sites, %d distinct messages: %d covered, %d allow-listed (unreachable), %d missing"
          % (nsites, len(sites), len(covered), len(allowed), len(missing)))
    if args.verbose:
        for key, where, hit in covered:
            print("  covered  %-28s %r by %s" % (", ".join(where), key, hit))
    for key, where, why in allowed:
        print("  allowed  %-28s %r: %s" % (", ".join(where), key, why))
    for key, where, why in missing:
        print("  MISSING  %-28s %r: %s" % (", ".join(where), key, why))
    for key in stale:
        print("  STALE    ALLOW entry %r matches no diagnostic site" % key)
    return 1 if missing or stale else 0


if __name__ == "__main__":
    sys.exit(main())
