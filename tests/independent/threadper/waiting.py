"""What a wait does besides reading the future: the moves around blocking.

Before blocking, a wait that would close a cycle of tasks raises; a task gives
back its running slot while it blocks and takes one again after; under a
controlled schedule the baton passes on instead. Then tracing hears of the
wait. The future's own blocking is its condition (``wait_until_done``).
"""

from __future__ import annotations

from typing import Any

from . import deadlock, recording, schedules, slots


def block_until_done(future: Any) -> None:
    """Return once ``future`` is done, blocking the caller as its kind of thread must."""
    member = schedules.current_participant()
    task = slots.current_task()
    if member is not None:
        if future.done():
            member.schedule.switch(member)
            return
        with deadlock.waiting(task, future):
            member.schedule.block_on(member, future)
        return
    if future.done():
        return
    with deadlock.waiting(task, future):
        if task is None:
            future.wait_until_done()
            return
        had_slot = task.holds_slot
        slots.give_slot(task)
        try:
            future.wait_until_done()
        finally:
            if had_slot:
                slots.take_slot(task)


def note_waited(future: object, value: object) -> None:
    """Tell the trace being recorded, if any, that a wait gave ``value``."""
    recorder = recording.ACTIVE.get()
    if recorder is not None:
        recorder.waited(future, value)
