"""python -m tessera.compat script.py [args...]
python -m tessera.compat -m module [args...]

Runs a Triton script, or a module as `python -m` would (e.g. `-m pytest`),
on Tessera: tessera.compat.install() first, then the script or module as
__main__. For pytest with worker processes (pytest-xdist), load the plugin
instead, which installs in every worker: `pytest -p tessera.compat.pytest_plugin`.

Layer 4, api (python/tessera/__init__.py lists the layers)."""

import runpy
import sys

from . import install


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help") or (argv[1] == "-m" and len(argv) < 3):
        print(__doc__.strip())
        return 0 if len(argv) >= 2 and argv[1] != "-m" else 2
    install()
    if argv[1] == "-m":
        sys.argv = argv[2:]
        runpy.run_module(argv[2], run_name="__main__", alter_sys=True)
    else:
        sys.argv = argv[1:]
        runpy.run_path(argv[1], run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
