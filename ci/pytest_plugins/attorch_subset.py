"""attorch's `--subset` mode as a selection: its tests return at once (and
pass) for shapes outside `tests.utils.default_shapes(subset=True)`; this
plugin deselects those cases instead, so the counts are of tests that ran.
Loaded by ci/attorch.sh with `-p attorch_subset`."""


def pytest_collection_modifyitems(config, items):
    if not config.getoption("--subset", default=False):
        return
    from tests.utils import default_shapes  # attorch's, from its source folder

    subset = set(default_shapes(subset=True))

    def runs(item):
        params = getattr(getattr(item, "callspec", None), "params", {})
        return "shape" not in params or params["shape"] in subset

    config.hook.pytest_deselected(items=[item for item in items if not runs(item)])
    items[:] = [item for item in items if runs(item)]
