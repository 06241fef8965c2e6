"""Keeping the interpreter alive while tasks run, without a non-daemon thread per task.

Task threads are daemons: CPython's start of a non-daemon thread sweeps a lock
per live non-daemon thread, which makes a tree of thousands of waiting tasks
cost time quadratic in its size. What a non-daemon thread per task would give,
an exit that waits for every task, one *keeper* gives instead: a non-daemon
thread alive whenever a task is, which the interpreter joins at exit.
"""

from __future__ import annotations

import threading

_cond = threading.Condition()
_alive = 0


def task_started() -> None:
    """Count a task that is starting; start a keeper if it is the only one."""
    global _alive
    with _cond:
        _alive += 1
        first = _alive == 1
    if first:
        threading.Thread(target=_keep, name="threadper-keeper").start()


def task_ended() -> None:
    """Count a task that has ended, completed future and callbacks included."""
    global _alive
    with _cond:
        _alive -= 1
        if _alive == 0:
            _cond.notify_all()


def _keep() -> None:
    with _cond:
        _cond.wait_for(lambda: _alive == 0)
