"""``fork``: every task on a thread of its own, started at once.

The task runs in a copy of the forker's context, taken at the fork. Its thread
takes a running slot (or, under a controlled schedule, waits for the baton),
runs the call, completes the future with what it returned or raised (any
``BaseException``: a task's failure is its future's, never its thread's), and
gives the slot back. The interpreter does not exit while a task runs
(:mod:`.keeper`), so work forked and never waited is not lost.
"""

from __future__ import annotations

import contextvars
import itertools
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from . import keeper, recording, schedules, slots
from .futures import Future, complete_forked

T = TypeVar("T")

_numbers = itertools.count(1)
_Finished = Callable[[object, BaseException | None], None]


def fork(func: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
    """Start ``func(*args, **kwargs)`` as a task on a new thread; return its future."""
    if not callable(func):
        raise TypeError(f"fork() needs a callable, got {type(func).__name__}")
    future: Future[T] = Future()
    task = slots.Task(future)
    future._owner = task
    context = contextvars.copy_context()
    recorder = recording.ACTIVE.get()
    finished = recorder.forked(future, func, args, kwargs, context) if recorder else None
    forker = schedules.current_participant()
    member = forker.schedule.add() if forker is not None else None
    start = _Start(task, member, context, func, args, kwargs, finished)
    thread = threading.Thread(
        target=_run, args=(start,), name=f"threadper-task-{next(_numbers)}", daemon=True
    )
    keeper.task_started()
    thread.start()
    if forker is not None:
        forker.schedule.switch(forker)
    return future


@dataclass(frozen=True)
class _Start:
    """What a task's thread is handed."""

    task: slots.Task
    member: schedules.Participant | None
    context: contextvars.Context
    func: Callable[..., Any]
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    finished: _Finished | None


def _run(start: _Start) -> None:
    task, member = start.task, start.member
    slots.set_current_task(task)
    schedules.set_participant(member)
    if member is not None:
        member.schedule.await_turn(member)
    else:
        slots.take_slot(task)
    value: object = None
    error: BaseException | None = None
    try:
        value = start.context.run(start.func, *start.args, **start.kwargs)
    except BaseException as raised:  # noqa: BLE001 - a task's failure belongs to its future
        error = raised
    try:
        if start.finished is not None:
            start.finished(value, error)
        complete_forked(task.future, value, error)
    finally:
        slots.give_slot(task)
        if member is not None:
            member.schedule.finish(member)
        keeper.task_ended()
