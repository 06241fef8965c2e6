"""The future's lock discipline, under interleavings forced at its lock.

Each test pauses one thread at the moment where a careless future loses
something (just before it takes the future's lock, or just after it leaves
it) while another thread completes the future, so the race happens every
run instead of once in thousands. ``future_class`` is a parameter so that a
variant of the package (tests/mutants/forkjoin_*) can be checked the same way:
call these functions with its ``Future``.
"""

from __future__ import annotations

import linecache
import sys
import threading
import time
from collections.abc import Callable
from types import FrameType
from typing import Any

import pytest

from tests.independent.forkjoin.future import Future

PAUSE = 0.2

Tracer = Callable[[FrameType, str, Any], Any]


def pause_at_lock_line(function: str) -> Tracer:
    """A trace function that pauses at each ``with self._lock`` line of ``function``."""

    def on_line(frame: FrameType, event: str, arg: Any) -> Any:
        if event == "line" and "with self._lock" in linecache.getline(
            frame.f_code.co_filename, frame.f_lineno
        ):
            time.sleep(PAUSE)
        return on_line

    def on_call(frame: FrameType, event: str, arg: Any) -> Any:
        return on_line if frame.f_code.co_name == function else None

    return on_call


def pause_after_unlock(frame: FrameType, event: str, arg: Any) -> None:
    """A profile function that pauses just after ``_complete`` leaves the future's lock."""
    if (
        event == "c_return"
        and frame.f_code.co_name == "_complete"
        and getattr(arg, "__name__", "") == "__exit__"
    ):
        time.sleep(PAUSE)


def _in_thread(target: Callable[[], None], hook: Callable[[], None]) -> threading.Thread:
    def run() -> None:
        hook()
        target()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def test_a_wait_during_completion_gets_the_value(future_class: type[Future[int]]) -> None:
    fut = future_class()
    setter = _in_thread(lambda: fut.set_result(42), lambda: sys.setprofile(pause_after_unlock))
    while not fut.done():
        time.sleep(0.001)
    assert fut.wait() == 42
    assert fut.value() == 42
    setter.join()


def test_a_callback_added_during_completion_runs(future_class: type[Future[int]]) -> None:
    fut = future_class()
    calls: list[int] = []
    adder = _in_thread(
        lambda: fut.add_done_callback(lambda f: calls.append(f.value())),
        lambda: sys.settrace(pause_at_lock_line("add_done_callback")),
    )
    time.sleep(PAUSE / 4)
    fut.set_result(1)
    adder.join(5)
    assert calls == [1]


def test_a_waiter_arriving_during_completion_wakes(future_class: type[Future[str]]) -> None:
    fut = future_class()
    got: list[str] = []
    waiter = _in_thread(
        lambda: got.append(fut.wait()), lambda: sys.settrace(pause_at_lock_line("_block"))
    )
    time.sleep(PAUSE / 4)
    fut.set_result("set")
    waiter.join(5)
    assert got == ["set"]


@pytest.fixture
def future_class() -> type[Future[Any]]:
    return Future
