"""The docs' code blocks run. Every fenced block with a language, in
README.md, DEVELOPERS.md and docs/*.md, is run, checked, or says why not:

    ```python           runs: a page's Python blocks run in order in one
                        process, from a file that keeps each block on its
                        page's line numbers (a traceback names the page's line)
    <!-- doc-test: run -->             before a ```sh block: it runs, after
                        the page's earlier sh blocks, in bash -euo pipefail,
                        in a scratch folder, with `tessera` and `python` on PATH
    <!-- doc-test: requires cuda -->   before a block: it runs where that
                        runtime backend has a device (tessera._C.backend_names())
    <!-- doc-test: excerpt PATH -->    the block's lines appear in the file
                        PATH in this order (the docs quote code that exists)
    <!-- doc-test: skip REASON -->     not run; the reason is required

A ```sh, ```c or ```cpp block without a directive is an error, so a new
block cannot slip past. Blocks without a language (output, grammar) are
prose."""
import os
import re
import shutil
import subprocess
import sys
import textwrap

import pytest

from tessera import _C

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PAGES = ["README.md", "DEVELOPERS.md"] + sorted(
    os.path.join("docs", f) for f in os.listdir(os.path.join(ROOT, "docs")) if f.endswith(".md"))
FENCE = re.compile(r"^```([\w+-]*)\s*$")
DIRECTIVE = re.compile(r"^<!--\s*doc-test:\s*([\w-]+)\s*(.*?)\s*-->\s*$")
CHECKED_LANGUAGES = ("python", "sh", "c", "cpp")


class Block:
    def __init__(self, page, line, language, text, directive, argument):
        self.page, self.line, self.language, self.text = page, line, language, text
        self.directive, self.argument = directive, argument

    def __repr__(self):
        return "%s:%d (```%s)" % (self.page, self.line, self.language)


def blocks_of(page):
    """The fenced blocks of a page; `line` is the first line of the code."""
    lines = open(os.path.join(ROOT, page)).read().split("\n")
    out, i, pending = [], 0, None
    while i < len(lines):
        directive = DIRECTIVE.match(lines[i])
        fence = FENCE.match(lines[i])
        if directive:
            pending = directive.groups()
        elif fence:
            end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("```"))
            directive, argument = pending or (None, "")
            out.append(Block(page, i + 2, fence.group(1), "\n".join(lines[i + 1:end]), directive, argument))
            pending, i = None, end
        elif lines[i].strip():
            pending = None  # a directive belongs to the block right after it
        i += 1
    return out


ALL_BLOCKS = [b for page in PAGES for b in blocks_of(page)]


def problem(block):
    """Why a block is neither run, checked nor excused, or None."""
    d, lang = block.directive, block.language
    if d == "skip":
        return None if block.argument else "a skip needs its reason"
    if d == "excerpt":
        path = os.path.join(ROOT, block.argument)
        return None if os.path.isfile(path) else "excerpt of a file that does not exist: %r" % block.argument
    if d == "requires":
        return None if block.argument in ("cuda", "hip", "vulkan", "opencl", "level_zero") else \
            "requires names a runtime backend (cuda, hip, vulkan, opencl, level_zero), not %r" % block.argument
    if d == "run":
        return None if lang == "sh" else "run goes before a ```sh block"
    if d is not None:
        return "unknown directive %r" % d
    if lang in ("sh", "c", "cpp"):
        return "a ```%s block needs a doc-test directive (run, excerpt PATH or skip REASON)" % lang
    return None


def test_every_block_is_run_checked_or_excused():
    problems = ["%r: %s" % (b, problem(b)) for b in ALL_BLOCKS if problem(b)]
    assert not problems, "\n".join(problems)
    assert any(b.page == os.path.join("docs", "getting-started.md") for b in ALL_BLOCKS)


def _runs_here(block):
    if block.directive == "skip":
        return False
    if block.directive == "requires":
        return block.argument in _C.backend_names()
    return True


def _normalized(text):
    return [line.rstrip() for line in textwrap.dedent(text).strip("\n").split("\n")]


@pytest.mark.parametrize("block", [b for b in ALL_BLOCKS if b.directive == "excerpt"], ids=repr)
def test_excerpt_is_in_its_file(block):
    source = _normalized(open(os.path.join(ROOT, block.argument)).read())
    quoted = [line for line in _normalized(block.text) if line.strip() not in ("", "...", "// ...", "# ...")]
    at = 0
    for line in quoted:
        found = next((i for i in range(at, len(source)) if source[i].strip() == line.strip()), None)
        assert found is not None, "%r: %r is not in %s (after line %d)" % (block, line, block.argument, at)
        at = found + 1


def _scratch(tmp_path):
    """A folder with `tessera` (this checkout's package) and `python` on PATH."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name, command in (("tessera", '"%s" -m tessera' % sys.executable), ("python", '"%s"' % sys.executable)):
        (bin_dir / name).write_text('#!/bin/sh\nexec %s "$@"\n' % command)
        (bin_dir / name).chmod(0o755)
    env = dict(os.environ, PATH="%s:%s" % (bin_dir, os.environ["PATH"]),
               PYTHONPATH=os.path.join(ROOT, "python"), TESSERA_CACHE_DIR=str(tmp_path / "cache"))
    for knob in ("TESSERA_INTERPRET", "TRITON_INTERPRET"):
        env.pop(knob, None)
    work = tmp_path / "work"
    work.mkdir()
    return work, env


def _report(result, what):
    assert result.returncode == 0, "%s failed (exit %d):\n%s\n%s" % (what, result.returncode, result.stdout[-4000:],
                                                                     result.stderr[-6000:])


PYTHON_PAGES = sorted({b.page for b in ALL_BLOCKS if b.language == "python" and _runs_here(b)})
SH_PAGES = sorted({b.page for b in ALL_BLOCKS if b.language == "sh" and b.directive == "run"})


@pytest.mark.parametrize("page", PYTHON_PAGES)
def test_python_blocks_run(page, tmp_path):
    work, env = _scratch(tmp_path)
    lines = open(os.path.join(ROOT, page)).read().split("\n")
    program = [""] * len(lines)
    for b in blocks_of(page):
        if b.language == "python" and _runs_here(b):
            for k, text in enumerate(b.text.split("\n")):
                program[b.line - 1 + k] = text
    script = work / (os.path.basename(page) + ".py")
    script.write_text("\n".join(program) + "\n")
    _report(subprocess.run([sys.executable, str(script)], cwd=work, env=env, capture_output=True, text=True,
                           timeout=600), "the Python blocks of %s" % page)


@pytest.mark.parametrize("page", SH_PAGES)
def test_sh_blocks_run(page, tmp_path):
    if shutil.which("bash") is None:
        pytest.skip("no bash")
    work, env = _scratch(tmp_path)
    script = ["set -euo pipefail"]
    for b in blocks_of(page):
        if b.language == "sh" and b.directive == "run":
            script += ["echo '--- %s:%d' >&2" % (page, b.line), b.text]
    _report(subprocess.run(["bash", "-c", "\n".join(script)], cwd=work, env=env, capture_output=True, text=True,
                           timeout=600), "the sh blocks of %s" % page)
