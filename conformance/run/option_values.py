"""What each of the suite's options accepts: a value outside it is refused as it is parsed.

These are argparse ``type=`` functions, so the pytest plugin and
``forkwait-conformance`` refuse the same values with the same message (a usage
error, status 4; argparse names the option) giving the valid range. A value that would
silently mean something else is refused too: an empty name (an unset ``$IMPL``
in CI would run the default implementation, or write no report), a timeout too
small to be a float (``1e-400`` reads as 0, which means *no* deadline), a
count of schedules no run could hold in memory.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from decimal import Decimal, InvalidOperation

#: the longest --example-timeout: a day (0 sets no limit at all; timers overflow near 1e18 s)
MAX_EXAMPLE_TIMEOUT = 86400.0
#: the shortest deadline but none: below a millisecond the harness's own work is the deadline
MIN_EXAMPLE_TIMEOUT = 0.001
#: the most --schedules: each explored example runs once per schedule, and the names are
#: held in memory by every process of the run
MAX_SCHEDULES = 10_000
#: --probe-seed: hypothesis takes any integer; an unsigned 64-bit one is plenty and stays
#: readable in the failure that names it
MAX_PROBE_SEED = 2**64 - 1


def non_empty(text: str) -> str:
    """A name or path: an empty (or blank) one is refused rather than read as "not given"."""
    if not text.strip():
        raise argparse.ArgumentTypeError(
            "empty: give a value, or leave the option out (an unset variable on a "
            "command line gives an empty one)"
        )
    return text


def example_timeout(text: str) -> float:
    """Seconds: 0 (no deadline), or from MIN_EXAMPLE_TIMEOUT to MAX_EXAMPLE_TIMEOUT."""
    valid = (
        f"must be 0 (no limit) or a number of seconds from "
        f"{MIN_EXAMPLE_TIMEOUT:g} to {MAX_EXAMPLE_TIMEOUT:g}, got {text!r}"
    )
    try:
        exact = Decimal(text.strip())
    except InvalidOperation:
        raise argparse.ArgumentTypeError(valid) from None
    if exact.is_zero():  # 0, 0.0, -0, 0e5: no deadline
        return 0.0
    if not (exact.is_finite() and MIN_EXAMPLE_TIMEOUT <= exact <= MAX_EXAMPLE_TIMEOUT):
        raise argparse.ArgumentTypeError(valid)
    return float(exact)


def _integer(low: int, high: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        valid = f"must be a whole number from {low} to {high}, got {text!r}"
        try:
            value = int(text.strip())
        except ValueError:  # also a number of more digits than int() reads
            raise argparse.ArgumentTypeError(valid) from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(valid)
        return value

    return parse


schedules = _integer(0, MAX_SCHEDULES)
probe_seed = _integer(0, MAX_PROBE_SEED)

__all__ = [
    "MAX_EXAMPLE_TIMEOUT",
    "MAX_PROBE_SEED",
    "MAX_SCHEDULES",
    "MIN_EXAMPLE_TIMEOUT",
    "example_timeout",
    "non_empty",
    "probe_seed",
    "schedules",
]
