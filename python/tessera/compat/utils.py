"""triton._utils under tessera.compat: the helpers of Triton's private
_utils module that code outside Triton calls (torch's Inductor builds a
user kernel's specialization with find_paths_if and get_iterable_path).

Layer 4, api (python/tessera/__init__.py lists the layers)."""

import functools
import operator


def _nested(value):
    return isinstance(value, (list, tuple))  # tl.tuple is a tuple


def find_paths_if(iterable, pred):
    """The index paths (tuples) of the leaves of a nested list/tuple for
    which pred(path, leaf) holds, in order; `()` for a non-nested value
    that satisfies it."""
    found = []

    def visit(path, value):
        if _nested(value):
            for i, item in enumerate(value):
                visit(path + (i,), item)
        elif pred(path, value):
            found.append(path)
    visit((), iterable)
    return found


def get_iterable_path(iterable, path):
    """The element of a nested list/tuple at an index path."""
    return functools.reduce(operator.getitem, path, iterable)


def set_iterable_path(iterable, path, value):
    """Sets the element at an index path of nested lists (the last level must be mutable)."""
    if not path:
        raise ValueError("set_iterable_path needs a non-empty path")
    get_iterable_path(iterable, path[:-1])[path[-1]] = value


def is_power_of_two(x):
    return x > 0 and (x & (x - 1)) == 0
