"""`tessera`, the console command the package installs, and
`python -m tessera`: the same commands as the tessera executable
(`tessera --help`). targets, compile and version are libtessera's own
command line (tessera_cli_main); bench and conformance are this package's
programs, run in this process.

Layer 4, api (python/tessera/__init__.py lists the layers)."""
import ctypes
import sys

PYTHON_PROGRAMS = ("bench", "conformance")


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in PYTHON_PROGRAMS:
        if argv[0] == "bench":
            from tessera.bench.__main__ import main as program
        else:
            from tessera.conformance import main as program
        return program(argv[1:], prog="tessera " + argv[0]) or 0
    from tessera import _C
    words = [b"tessera"] + [a.encode() for a in argv]
    sys.stdout.flush()
    sys.stderr.flush()
    return _C.library().tessera_cli_main(len(words), (ctypes.c_char_p * len(words))(*words))


if __name__ == "__main__":
    sys.exit(main())
