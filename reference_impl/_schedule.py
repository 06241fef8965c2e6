"""Controlled schedules: scripted forks run one at a time, in an order a policy picks.

Under a controlled schedule only the task holding the *baton* runs; the baton
moves only at fork and wait points (and when a task ends), to the runnable
task the policy chooses. With the same policy and seed the same choices are
made, so the same interleaving - and the same event log - comes out every
time. That is what makes a race found by exploring schedules replayable.

Policies (``FORKWAIT_SCHEDULE`` or ``script(fn, schedule=...)``), defined in
``_policies``:

``fifo``
    the running task keeps the baton until it waits; then the oldest runnable.
``lifo``
    the newest runnable task runs first (a fork switches to the child at once).
``random:SEED``
    a seeded uniform choice among runnable tasks at every point.
``pct:SEED:DEPTH``
    probabilistic concurrency testing (Burckhardt et al., ASPLOS 2010; as in
    Microsoft Coyote): random distinct priorities, the highest runnable runs, and
    at DEPTH-1 random points the running task drops to the lowest priority.

How a run moves the baton between its tasks is in ``_controlled``: they run on
the calling thread, each on a greenlet of its own (``_crew``). A wait that
would close a cycle of waits raises :class:`DeadlockError` in the task that
waits, as on the pool. A call that raises still lets its tasks run to their
end, and every greenlet of the run has ended when the call returns.

Tasks must synchronise through fork and wait only: a task blocked on a lock or
an event holds the baton (and the thread), and the run stalls until that wait
gives up. As every task of a run shares the caller's thread, thread identity
(``threading.get_ident()``, an ``RLock`` re-entered) cannot tell them apart.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from reference_impl._controlled import ControlledRun, active_run
from reference_impl._policies import PCT_HORIZON, Policy, Task, default_schedules, parse_schedule
from reference_impl._state import local

__all__ = [
    "ENV_SCHEDULE",
    "PCT_HORIZON",
    "ControlledRun",
    "Policy",
    "Task",
    "active_run",
    "default_schedules",
    "parse_schedule",
    "run_controlled",
    "run_scheduled",
    "schedule_for",
    "use_schedule",
]

ENV_SCHEDULE = "FORKWAIT_SCHEDULE"
_default_schedule: list[str | None] = [None]


def schedule_for(explicit: str | None) -> str | None:
    """The schedule a top-level scripted call uses: explicit, selected, or from the env."""
    return explicit or _default_schedule[0] or os.environ.get(ENV_SCHEDULE) or None


@contextmanager
def use_schedule(spec: str | None) -> Iterator[None]:
    """Run top-level scripted calls under ``spec`` (None: the thread pool) in this block."""
    if spec is not None:
        parse_schedule(spec)  # reject a bad spec now, not at the first call
    outer = _default_schedule[0]
    _default_schedule[0] = spec
    try:
        yield
    finally:
        _default_schedule[0] = outer


def run_scheduled(
    spec: str, func: Callable[..., Any], *args: Any, **kwargs: Any
) -> tuple[Any, list[str]]:
    """Call ``func`` as scripted code under schedule ``spec``; its result and event log.

    The log (``fork 0->1 <function f>``, ``run 1``, ``wait 0 on 1``, ``done 1``)
    is the same on every call with the same spec: that is what replay means.
    """
    result, run = run_controlled(spec, lambda: func(*args, **kwargs))
    return result, run.log


def run_controlled(spec: str, call: Callable[[], Any]) -> tuple[Any, ControlledRun]:
    """Run ``call`` (already scripted) as the caller task of a controlled run.

    Returns the result and the run (its ``log`` is formatted only if read).
    """
    run = ControlledRun(parse_schedule(spec))
    context = local.context
    outer, outer_scripted = context.run, context.scripted
    context.run, context.scripted = run, True
    try:
        try:
            result = call()
        finally:
            run.finish()  # the tasks still unfinished run to their end, even if call raised
        return result, run
    finally:
        context.run, context.scripted = outer, outer_scripted
