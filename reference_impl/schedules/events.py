"""The event log of a controlled run: ints while it runs, text when read.

``fork 0->1 <function f>``, ``run 1``, ``wait 0 on 1``, ``done 1``,
``deadlock 2``: the log a replay must reproduce exactly.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reference_impl._errors import describe_callable

# Events are ints, ``id << 3 | kind``, a wait followed by the waited id and a fork
# by the child's: a run of 10,000 forks logs 50,000 events, and ints, unlike
# tuples, give the garbage collector nothing to traverse.
FORK, WAIT, RUN, DONE, DEADLOCK = range(5)


def describe_events(events: list[int], forked: list[Callable[..., Any]]) -> list[str]:
    lines: list[str] = []
    codes, funcs = iter(events), iter(forked)
    for code in codes:
        kind, who = code & 7, code >> 3
        if kind == RUN:
            lines.append(f"run {who}")
        elif kind == WAIT:
            lines.append(f"wait {who} on {next(codes)}")
        elif kind == DONE:
            lines.append(f"done {who}")
        elif kind == FORK:
            lines.append(f"fork {who}->{next(codes)} {describe_callable(next(funcs))}")
        else:
            lines.append(f"deadlock {who}")
    return lines
