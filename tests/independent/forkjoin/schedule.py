"""Schedules: their names, the block that chooses one, and top-level scripted calls.

``use(name)`` chooses a schedule for the top-level scripted calls made inside
its block, in this context; each such call runs under a controller of its own,
seeded afresh. A call made by a task, or by scripted code already running under
a schedule, is not top-level and runs as any call does.
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any

from . import control_hooks, pool
from .controlled import Controller, Policy

_chosen: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "forkjoin_schedule", default=None
)


def schedules(n: int) -> list[str]:
    """``n`` distinct schedule names: fifo, lifo, then seeded random orders."""
    if n < 0:
        raise ValueError(f"a number of schedules is not negative, got {n}")
    return ["fifo", "lifo", *(f"random:{seed}" for seed in range(1, n - 1))][:n]


@contextmanager
def _block(name: str) -> Iterator[None]:
    token = _chosen.set(name)
    try:
        yield
    finally:
        _chosen.reset(token)


def use(name: str) -> AbstractContextManager[None]:
    """A block inside which top-level scripted calls run under schedule ``name``."""
    Policy(name)  # a name it cannot run is refused here, before the block
    return _block(name)


def switch_point() -> None:
    """Under a schedule, let it pick which task runs on: a point besides fork and wait."""
    controller = control_hooks.active.get()
    if controller is not None and controller.owns_this_thread():
        controller.switch_point()


def scripted_call(fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """Run a scripted body in the caller's own context: under the chosen schedule when
    this is a top-level call made inside a ``use`` block, else as any call runs."""
    name = _chosen.get()
    top_level = control_hooks.active.get() is None and pool.current_task() is None
    if name is None or not top_level:
        return fn(*args, **kwargs)
    return Controller(Policy(name)).run(lambda: fn(*args, **kwargs))
