"""Choosing schedules: by name for a block or a call, a budget of distinct ones to explore.

What ``script`` asks (through the hook ``_interceptors.scheduler``) and what the
conformance suite's explorer uses: ``use_schedule`` and ``$FORKWAIT_SCHEDULE``
select the schedule of top-level scripted calls, ``default_schedules`` gives a
budget of distinct schedules to run an example under, ``run_scheduled`` runs
one call and returns its replayable log.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from reference_impl._thread_state import local
from reference_impl.schedules.controlled import ControlledRun
from reference_impl.schedules.policies import parse_schedule

T = TypeVar("T")

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
    thread = local.state
    outer, outer_scripted = thread.run, thread.scripted
    thread.run, thread.scripted = run, True
    try:
        try:
            result = call()
        finally:
            run.finish()  # the tasks still unfinished run to their end, even if call raised
        return result, run
    finally:
        thread.run, thread.scripted = outer, outer_scripted


def default_schedules(count: int) -> list[str]:
    """``count`` distinct schedules: fifo, lifo, three random and PCT pairs, then random seeds.

    Past the first eight only random seeds: on small programs distinct PCT
    seeds often give one interleaving (several give lifo's on a few tasks
    that each fork one subtask), and the names must give distinct
    interleavings where the program allows as many (DET-SCHEDULE-REPLAY-1).
    """
    if count < 0:
        raise ValueError(f"schedules: count must be at least 0, got {count}")
    schedules = ["fifo", "lifo"]
    for seed in (1, 2, 3):
        schedules += [f"random:{seed}", f"pct:{seed}:{2 + seed % 2}"]
    schedules += [f"random:{seed}" for seed in range(4, count - 4)]
    return schedules[:count]


class _Scheduler:
    """Controlled schedules as ``script`` sees them (``_interceptors.Scheduler``)."""

    def check(self, spec: str) -> None:
        parse_schedule(spec)

    def selected(self, explicit: str | None) -> str | None:
        return schedule_for(explicit)

    def run(self, spec: str, call: Callable[[], T]) -> T:
        result: T = run_controlled(spec, call)[0]
        return result


SCHEDULER = _Scheduler()
