"""python -m tessera.compat script.py [args...]: runs a Triton script on
Tessera (tessera.compat.install() first, then the script as __main__)."""

import runpy
import sys

from . import install


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(argv) >= 2 else 2
    install()
    sys.argv = argv[1:]
    runpy.run_path(argv[1], run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
