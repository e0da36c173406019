"""A failed tl.device_assert names the user's file and line (issue 16: it
named the generated module, '<tessera-module>:N')."""

import inspect

import numpy as np
import pytest

import tessera
import tessera.language as tl


@tessera.jit
def _positive(x_ptr, n):
    offs = tl.arange(0, 16)
    x = tl.load(x_ptr + offs, mask=offs < n, other=1)
    tl.device_assert(x > 0, "x must be positive")


def test_failed_assertion_names_the_users_file_and_line():
    lines, first = inspect.getsourcelines(_positive.fn)
    line = first + next(i for i, text in enumerate(lines) if "device_assert" in text)
    _positive[(1,)](np.ones(16, np.int32), 16)  # passes: no error
    with pytest.raises(tessera.DeviceAssertionError) as info:
        _positive[(1,)](np.full(16, -1, np.int32), 16)
    message = str(info.value)
    assert "%s:%d:" % (__file__, line) in message, message
    assert "<tessera-module>" not in message and "x must be positive" in message
