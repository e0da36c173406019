"""`import triton` in a Python process started by one that runs under
tessera.compat: install() puts this folder on sys.path, which Inductor's
compile workers and autotuning processes inherit as their PYTHONPATH, so
their `import triton` is Tessera too. Importing this module installs
tessera.compat and gives its `triton` in its place.

Layer 4, api (python/tessera/__init__.py lists the layers)."""

import sys

import tessera.compat

sys.modules["triton"] = tessera.compat.install(replace=True)
