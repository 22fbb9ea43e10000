"""Polling instead of sleeping.

Wait for a condition with a deadline, and how long a test process may take to start on a
busy machine.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

#: Seconds a server process started by a test may take to answer (a loaded CI machine can need
#: far more than an idle one); ``TEST_START_TIMEOUT`` overrides it.
START_TIMEOUT = float(os.environ.get("TEST_START_TIMEOUT", "120"))


def wait_until(
    check: Callable[[], T | None],
    *,
    timeout: float = 10,
    interval: float = 0.05,
    message: str = "condition not met",
) -> T:
    """Call ``check`` until it returns a truthy value and return that value.

    Exceptions from ``check`` propagate (a check that must tolerate errors catches them and
    returns None). Raises ``AssertionError`` with ``message`` when ``timeout`` seconds pass
    first; ``check`` always runs at least once, and once more at the deadline.
    """
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise AssertionError(f"{message} (after {timeout:g} s)")
        time.sleep(min(interval, max(0.0, deadline - time.monotonic())))
