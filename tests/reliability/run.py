"""Runs every misuse case of cases.py in its own process and counts the
outcomes: ok, crashed (a signal, or a sanitizer's report), hung (past the
time limit), or wrong (an unexpected result or error). Exits 1 unless every
case is ok. With --asan, libtessera is the AddressSanitizer build
(build-asan/capi/libtessera.so, LD_PRELOADed runtime).

    python tests/reliability/run.py [--asan BUILD_DIR] [--timeout S] [NAME...]
"""
import argparse
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def _asan_env(build):
    lib = os.path.join(build, "capi", "libtessera.so")
    # clang's (ci/build.sh builds with clang-19) ASan runtime, UBSan's handlers included.
    runtime = subprocess.run(["clang-19", "-print-file-name=libclang_rt.asan-x86_64.so"], capture_output=True,
                             text=True).stdout.strip()
    if not os.path.isabs(runtime):
        raise SystemExit("reliability: no ASan runtime for %s (clang-19 -print-file-name)" % lib)
    # Python itself is not instrumented: leaks of the interpreter are not ours.
    return {"TESSERA_LIBRARY": lib, "LD_PRELOAD": runtime,
            "ASAN_OPTIONS": "detect_leaks=0:abort_on_error=1:handle_segv=0:handle_sigbus=0:handle_sigfpe=0:use_sigaltstack=0:"
                            "allow_user_segv_handler=1",
            "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1"}


def run(names, timeout, extra_env):
    counts = {"ok": 0, "crashed": 0, "hung": 0, "wrong": 0}
    failures = []
    for name in names:
        with tempfile.TemporaryDirectory() as cache:
            env = dict(os.environ, TESSERA_CACHE_DIR=cache, **extra_env)
            env["PYTHONPATH"] = os.path.join(ROOT, "python") + os.pathsep + env.get("PYTHONPATH", "")
            env.setdefault("TESSERA_CLI", os.path.join(ROOT, "build", "tools", "tessera", "tessera"))
            try:
                r = subprocess.run([sys.executable, os.path.join(HERE, "cases.py"), name], env=env,
                                   capture_output=True, text=True, timeout=timeout)
            except subprocess.TimeoutExpired:
                outcome, detail = "hung", "no answer in %d s" % timeout
            else:
                out = r.stdout.strip().splitlines()
                sanitizer = "ERROR: AddressSanitizer" in r.stderr or "runtime error:" in r.stderr
                if r.returncode < 0 or sanitizer or r.returncode > 128:
                    outcome, detail = "crashed", "exit %d\n%s" % (r.returncode, r.stderr[-3000:])
                elif r.returncode == 0 and out and out[-1] == "ok":
                    outcome, detail = "ok", ""
                else:
                    outcome, detail = "wrong", r.stderr[-3000:] or r.stdout[-3000:]
        counts[outcome] += 1
        print("%-50s %s" % (name, outcome), flush=True)
        if outcome != "ok":
            failures.append((name, outcome, detail))
    for name, outcome, detail in failures:
        print("\n--- %s (%s)\n%s" % (name, outcome, detail))
    print("reliability: %d misuse cases: %d ok, %d crashed, %d hung, %d wrong" % (
        len(names), counts["ok"], counts["crashed"], counts["hung"], counts["wrong"]))
    return 0 if counts["ok"] == len(names) else 1


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--asan", metavar="BUILD_DIR", help="use the sanitized libtessera of this build")
    p.add_argument("--timeout", type=int, default=120)
    p.add_argument("names", nargs="*")
    args = p.parse_args(argv)
    names = args.names or subprocess.run([sys.executable, os.path.join(HERE, "cases.py"), "--list"],
                                         capture_output=True, text=True, check=True,
                                         env=dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))
                                         ).stdout.split()
    return run(names, args.timeout, _asan_env(args.asan) if args.asan else {})


if __name__ == "__main__":
    sys.exit(main())
