"""python -m tessera.compat script.py [args...]
python -m tessera.compat -m module [args...]

Runs a Triton script, or a module as `python -m` would (e.g. `-m pytest`),
on Tessera: tessera.compat.install() first, then the script or module as
__main__. The Python processes it starts run on Tessera too: PYTHONPATH
begins with the folder whose `triton` installs tessera.compat (pytest-xdist's
workers, a script's `subprocess.run([sys.executable, ...])`).

Layer 4, api (python/tessera/__init__.py lists the layers)."""

import os
import runpy
import sys

from . import _SUBPROCESS_PATH, install


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help") or (argv[1] == "-m" and len(argv) < 3):
        print(__doc__.strip())
        return 0 if len(argv) >= 2 and argv[1] != "-m" else 2
    install()
    os.environ["PYTHONPATH"] = os.pathsep.join([_SUBPROCESS_PATH] + [
        p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p and p != _SUBPROCESS_PATH])
    if argv[1] == "-m":
        sys.argv = argv[2:]
        runpy.run_module(argv[2], run_name="__main__", alter_sys=True)
    else:
        sys.argv = argv[1:]
        runpy.run_path(argv[1], run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
