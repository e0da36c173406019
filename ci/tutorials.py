"""Runs Triton's tutorials on Tessera with only their imports changed
(ci/tutorials.sh run). A tutorial passes when it exits with 0 and printed
no failed check (its own "❌" lines, or an assertion)."""

import json
import os
import re
import subprocess
import sys
import time

# The only edits: the modules a tutorial imports, Triton's -> Tessera's.
_IMPORTS = [
    (re.compile(r"^(\s*)import triton\s*$", re.M), r"\1import tessera as triton"),
    (re.compile(r"^(\s*)import triton\.([\w.]+) as (\w+)\s*$", re.M), r"\1import tessera.\2 as \3"),
    (re.compile(r"^(\s*)import triton\.([\w.]+)\s*$", re.M), r"\1import tessera.\2"),
    (re.compile(r"^(\s*)from triton(\.[\w.]+)? import", re.M), r"\1from tessera\2 import"),
]


def port(source):
    """The tutorial with Tessera's modules imported in place of Triton's
    (the code below the imports untouched: `triton.x` names resolve on the
    module bound to the name `triton`)."""
    for pattern, replacement in _IMPORTS:
        source = pattern.sub(replacement, source)
    return source


def verdict(rc, log):
    if rc == 124:
        return "fail", "timed out"
    failed = [line for line in log.splitlines() if "\u274c" in line]
    if rc != 0:
        lines = [line for line in log.splitlines() if line.strip()]
        errors = [line for line in lines if re.match(r"^\w*(Error|Exception)\b", line)]
        return "fail", (errors[-1] if errors else lines[-1] if lines else "exit %d" % rc)[:200]
    if failed:
        return "fail", failed[0].strip()[:200]
    return "pass", ""


def run_one(src, out, name, seconds):
    ported = os.path.join(out, name)
    with open(os.path.join(src, name)) as f, open(ported, "w") as g:
        g.write(port(f.read()))
    t0 = time.time()
    run = subprocess.run(["timeout", str(seconds), sys.executable, ported], cwd=out, capture_output=True,
                         text=True, env=dict(os.environ, MPLBACKEND="Agg", PYTHONUNBUFFERED="1"))
    log = run.stdout + run.stderr
    with open(os.path.join(out, name[:-3] + ".log"), "w") as f:
        f.write(log)
    status, why = verdict(run.returncode, log)
    row = {"tutorial": name, "status": status, "seconds": round(time.time() - t0, 1), "why": why}
    print("%-40s %-5s %7.1f s  %s" % (name, status, row["seconds"], why), flush=True)
    return row


def main(src, out, only):
    """TUTORIAL_JOBS > 1 runs that many at once: the verdicts hold, but
    the tutorials' own benchmark figures then share the device."""
    from concurrent.futures import ThreadPoolExecutor
    seconds = int(os.environ.get("TUTORIAL_SECONDS", "600"))
    names = [n for n in sorted(os.listdir(src)) if n.endswith(".py") and (not only or n[:2] in only)]
    with ThreadPoolExecutor(max_workers=max(1, int(os.environ.get("TUTORIAL_JOBS", "1")))) as pool:
        rows = list(pool.map(lambda n: run_one(src, out, n, seconds), names))
    with open(os.path.join(out, "tutorials.json"), "w") as f:
        json.dump(rows, f, indent=1)
    print("%d of %d passed" % (sum(r["status"] == "pass" for r in rows), len(rows)))
    return 0 if rows and all(r["status"] == "pass" for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], set(sys.argv[3:])))
