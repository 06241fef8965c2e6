"""fork and wait in plain Python and in scripted code: values, arguments, errors."""

from __future__ import annotations

import gc
import threading
import time
import traceback
from collections.abc import Callable
from typing import Any, NoReturn, get_type_hints

import pytest

import reference_impl as fw
from reference_impl._pool import get_pool

MODES = ["plain", "script"]


def run(mode: str, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Call ``fn`` as plain Python or as scripted code."""
    return (fw.script(fn) if mode == "script" else fn)(*args, **kwargs)


def add(a: int, b: int = 10, *, c: int = 100) -> Any:
    return a + b + c


@pytest.mark.parametrize("mode", MODES)
def test_wait_returns_the_task_value(mode: str) -> None:
    assert run(mode, lambda: fw.wait(fw.fork(add, 1, 2, c=3))) == 6


@pytest.mark.parametrize("mode", MODES)
def test_fork_returns_a_future(mode: str) -> None:
    future = run(mode, lambda: fw.fork(add, 1))
    assert isinstance(future, fw.Future)
    assert fw.wait(future) == 111


@pytest.mark.parametrize("mode", MODES)
def test_repeated_wait_gives_the_same_object_and_runs_the_task_once(mode: str) -> None:
    calls = []

    def make() -> Any:
        calls.append(1)
        return ["fresh", "list"]

    def body() -> Any:
        future = fw.fork(make)
        return fw.wait(future), fw.wait(future), future.wait()

    first, second, third = run(mode, body)
    assert first is second is third
    assert calls == [1]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    ("args", "kwargs", "expected"),
    [
        ((1,), {}, 111),
        ((1, 2), {}, 103),
        ((1,), {"b": 2}, 103),
        ((), {"a": 1, "b": 2, "c": 3}, 6),
        ((), {"c": 3, "a": 1}, 14),
        ((1, 2), {"c": 3}, 6),
    ],
)
def test_arguments_reach_the_function_unchanged(
    mode: str, args: tuple[Any, ...], kwargs: dict[str, Any], expected: int
) -> None:
    assert run(mode, lambda: fw.wait(fw.fork(add, *args, **kwargs))) == expected


def test_arguments_are_passed_not_copied() -> None:
    box: list[int] = []
    fw.wait(fw.fork(box.append, 1))
    assert box == [1]


class Counter:
    def __init__(self) -> None:
        self.total = 0

    def bump(self, by: int = 1) -> Any:
        self.total += by
        return self.total

    def __call__(self, x: Any) -> Any:
        return x * 2


class Doubler(fw.Module):
    def forward(self, x: Any, scale: int = 2) -> Any:
        return x * scale


@pytest.mark.parametrize("mode", MODES)
def test_any_callable_can_be_forked(mode: str) -> None:
    counter = Counter()

    def body() -> Any:
        return (
            fw.wait(fw.fork(lambda x: x + 1, 1)),
            fw.wait(fw.fork(counter.bump, by=5)),
            fw.wait(fw.fork(counter, 4)),
            fw.wait(fw.fork(Doubler(), 3, scale=3)),
            fw.wait(fw.fork(len, "abc")),
        )

    assert run(mode, body) == (2, 5, 8, 9, 3)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("bad", [3, "f", None, [len]])
def test_fork_of_a_non_callable_is_a_type_error_at_fork_time(mode: str, bad: Any) -> None:
    with pytest.raises(TypeError, match=rf"callable.*{type(bad).__name__}"):
        run(mode, fw.fork, bad)


@pytest.mark.parametrize("bad", [3, None, "future", threading.Event()])
def test_wait_on_a_non_future_is_a_type_error(bad: Any) -> None:
    with pytest.raises(TypeError, match=rf"Future.*{type(bad).__name__}"):
        fw.wait(bad)


def fail(message: str) -> NoReturn:
    raise ValueError(message)


@pytest.mark.parametrize("mode", MODES)
def test_exceptions_surface_at_wait_with_type_and_traceback(mode: str) -> None:
    future = run(mode, fw.fork, fail, "boom")  # fork itself must not raise
    with pytest.raises(ValueError, match="boom") as info:
        fw.wait(future)
    frames = [frame.name for frame in traceback.extract_tb(info.value.__traceback__)]
    assert "fail" in frames
    with pytest.raises(ValueError, match="boom") as again:
        fw.wait(future)
    assert again.value is info.value
    assert traceback.extract_tb(again.value.__traceback__)[-1].name == "fail"


class Stop(BaseException):
    pass


def stop() -> NoReturn:
    raise Stop


@pytest.mark.parametrize("mode", MODES)
def test_base_exceptions_are_kept_for_wait_too(mode: str) -> None:
    future = run(mode, fw.fork, stop)
    with pytest.raises(Stop):
        fw.wait(future)


def test_future_is_generic_for_annotations() -> None:
    def typed(x: fw.Future[int]) -> list[fw.Future[int]]:
        return [x]

    hints = get_type_hints(typed)
    assert hints["x"] == fw.Future[int]
    assert typed(fw.fork(int, "1"))[0].wait() == 1


def test_plain_fork_is_done_at_once_and_runs_on_the_calling_thread() -> None:
    future = fw.fork(threading.get_ident)
    assert future.done()
    assert fw.wait(future) == threading.get_ident()


@pytest.mark.parametrize("mode", MODES)
def test_unretrieved_failure_warns_when_collected(mode: str) -> None:
    future = run(mode, fw.fork, fail, "lost")
    fw.collect_all([future]).wait()  # completes it without retrieving the error
    with pytest.warns(fw.UnretrievedExceptionWarning, match="lost"):
        del future
        drain_pool()


def drain_pool() -> None:
    """Let workers drop the queue's references to tasks that already ran inline."""
    deadline = time.monotonic() + 10
    while get_pool().pending() and time.monotonic() < deadline:
        time.sleep(0.001)
    time.sleep(0.05)
    gc.collect()


@pytest.mark.parametrize("mode", MODES)
def test_retrieved_failure_does_not_warn(mode: str, recwarn: pytest.WarningsRecorder) -> None:
    drain_pool()
    recwarn.clear()
    future = run(mode, fw.fork, fail, "seen")
    with pytest.raises(ValueError, match="seen"):
        fw.wait(future)
    del future
    drain_pool()
    assert not [w for w in recwarn if issubclass(w.category, fw.UnretrievedExceptionWarning)]


def test_repr_tells_the_state() -> None:
    assert repr(fw.fork(int, "2")) == "<Future done value=2>"
    failed = fw.fork(fail, "x")
    assert "exception=ValueError('x')" in repr(failed)
    with pytest.raises(ValueError, match="x"):
        failed.wait()
