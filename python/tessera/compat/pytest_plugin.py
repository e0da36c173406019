"""A pytest plugin that runs a Triton project's tests on Tessera:
`pytest -p tessera.compat.pytest_plugin` installs tessera.compat before
the tests are collected, in the main process and in each pytest-xdist
worker (which load the same plugins).

Layer 4, api (python/tessera/__init__.py lists the layers)."""

from . import install

install()
