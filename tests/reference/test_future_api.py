"""The Future API of ``torch.futures.Future`` on ``fw.Future``: made by users, set, chained.

The reference follows what torch 2.13 (CPU) does except where noted: a ``then``
callback's exception reaches the chained future with its own type (torch wraps it
in RuntimeError), and ``set_exception`` accepts any BaseException (torch: Exception
only).
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from collections.abc import Callable
from typing import Any, NoReturn

import pytest

import reference_impl as fw


def later(seconds: float, action: Callable[[], object]) -> threading.Thread:
    """Run ``action`` on another thread after ``seconds``."""

    def body() -> None:
        time.sleep(seconds)
        action()

    thread = threading.Thread(target=body, daemon=True)
    thread.start()
    return thread


# -- Future(), set_result, set_exception, done, value, wait -----------------------------


def test_a_future_made_by_the_user_is_not_done_until_set() -> None:
    future: fw.Future[int] = fw.Future()
    assert not future.done()
    assert repr(future) == "<Future pending>"
    future.set_result(5)
    assert future.done()
    assert future.value() == 5
    assert future.wait() == 5
    assert fw.wait(future) == 5
    assert repr(future) == "<Future done value=5>"


def test_the_value_is_the_object_set() -> None:
    future: fw.Future[list[int]] = fw.Future()
    value = [1, 2]
    future.set_result(value)
    assert future.wait() is value
    assert fw.wait(future) is value


@pytest.mark.parametrize(
    "second",
    [lambda f: f.set_result(2), lambda f: f.set_exception(ValueError("late"))],
    ids=["set_result", "set_exception"],
)
def test_completing_a_done_future_again_is_a_runtime_error(
    second: Callable[[fw.Future[int]], None],
) -> None:
    future: fw.Future[int] = fw.Future()
    future.set_result(1)
    with pytest.raises(RuntimeError, match="completed Future as complete again"):
        second(future)
    assert future.value() == 1  # unchanged (torch 2.13 corrupts it on set_exception)


def test_a_forked_tasks_future_cannot_be_set() -> None:
    future = fw.fork(int, "1")
    with pytest.raises(RuntimeError, match="complete again"):
        future.set_result(2)
    release = threading.Event()
    running = fw.script(lambda: fw.fork(release.wait, 10))()
    with pytest.raises(RuntimeError, match="forked task"):
        running.set_result(True)
    release.set()
    assert fw.wait(running) is True


def chained_error() -> ValueError:
    try:
        try:
            raise KeyError("inner")
        except KeyError as inner:
            raise ValueError("outer") from inner
    except ValueError as outer:
        return outer


def test_set_exception_is_raised_by_wait_value_and_fw_wait_with_its_chain() -> None:
    error = chained_error()
    future: fw.Future[int] = fw.Future()
    future.set_exception(error)
    assert future.done()
    for get in (future.wait, future.value, lambda: fw.wait(future)):
        with pytest.raises(ValueError, match="outer") as info:
            get()
        assert info.value is error
        assert isinstance(info.value.__cause__, KeyError)


class Stop(BaseException):
    pass


def test_set_exception_accepts_base_exceptions_and_rejects_other_objects() -> None:
    future: fw.Future[int] = fw.Future()
    future.set_exception(Stop())
    with pytest.raises(Stop):
        fw.wait(future)
    for bad in (3, ValueError, "error"):
        with pytest.raises(TypeError, match="exception"):
            fw.Future().set_exception(bad)  # type: ignore[arg-type]


def test_value_of_a_future_not_done_is_a_runtime_error() -> None:
    future: fw.Future[int] = fw.Future()
    with pytest.raises(RuntimeError, match="not done"):
        future.value()
    future.set_result(1)
    assert future.value() == 1


def test_done_is_false_while_a_scripted_task_runs_and_true_after_success_or_failure() -> None:
    release = threading.Event()

    def fail() -> NoReturn:
        assert release.wait(timeout=10)
        raise ValueError("failed")

    futures = fw.script(lambda: [fw.fork(release.wait, 10), fw.fork(fail)])()
    assert not any(f.done() for f in futures)
    release.set()
    fw.collect_all(futures).wait()
    assert all(f.done() for f in futures)
    with pytest.raises(ValueError, match="failed"):
        futures[1].wait()


def test_setting_from_another_thread_wakes_every_kind_of_waiter() -> None:
    future: fw.Future[str] = fw.Future()
    results: list[str] = []

    def task_waiting() -> str:
        return fw.wait(future) + " in a task"

    waiters = [
        threading.Thread(target=lambda: results.append(fw.wait(future))),
        threading.Thread(target=lambda: results.append(future.wait())),
        threading.Thread(target=lambda: results.append(fw.script(task_waiting)())),
        threading.Thread(target=lambda: results.append(fw.wait(fw.script(fw.fork)(task_waiting)))),
    ]
    for waiter in waiters:
        waiter.start()
    time.sleep(0.05)
    assert not results
    later(0, lambda: future.set_result("set"))
    for waiter in waiters:
        waiter.join(10)
    assert sorted(results) == ["set", "set", "set in a task", "set in a task"]


# -- then ------------------------------------------------------------------------------


def test_then_gives_a_future_of_the_callbacks_value_once_the_source_completes() -> None:
    source: fw.Future[int] = fw.Future()
    seen: list[fw.Future[int]] = []

    def double(future: fw.Future[int]) -> int:
        seen.append(future)
        return future.value() * 2

    chained = source.then(double)
    assert isinstance(chained, fw.Future)
    assert not chained.done()
    source.set_result(21)
    assert chained.done()
    assert chained.wait() == 42
    assert seen == [source]


def test_a_callback_added_to_a_done_future_runs_at_once_on_the_calling_thread() -> None:
    future = fw.fork(int, "1")
    where: list[int] = []

    def record(f: fw.Future[int]) -> str:
        where.append(threading.get_ident())
        return "ran"

    chained = future.then(record)
    assert where == [threading.get_ident()]
    assert chained.done()
    assert fw.wait(chained) == "ran"


def test_a_callbacks_exception_fails_the_chained_future_with_its_type() -> None:
    source: fw.Future[int] = fw.Future()

    def fails(future: fw.Future[int]) -> int:
        raise KeyError("in the callback")

    chained = source.then(fails)
    source.set_result(1)  # the callback's failure is not set_result's
    with pytest.raises(KeyError, match="in the callback"):
        chained.wait()
    assert source.value() == 1


def test_then_on_a_failed_future_runs_the_callback_which_sees_the_failure() -> None:
    source: fw.Future[int] = fw.Future()
    source.set_exception(ValueError("source failed"))
    with pytest.raises(ValueError, match="source failed"):
        source.then(lambda f: f.value()).wait()
    assert source.then(lambda f: "recovered").wait() == "recovered"


def test_chains_of_then() -> None:
    source: fw.Future[int] = fw.Future()

    def plus_one(f: fw.Future[int]) -> int:
        return f.wait() + 1

    def times_ten(f: fw.Future[int]) -> int:
        return f.wait() * 10

    chained = source.then(plus_one).then(times_ten).then(lambda f: str(f.value()))
    source.set_result(1)
    assert chained.wait() == "20"


def test_a_callback_returning_a_future_gives_that_future_as_the_value() -> None:
    inner = fw.fork(int, "7")
    assert fw.fork(int, "1").then(lambda f: inner).wait() is inner


def test_callbacks_run_in_the_order_they_were_added() -> None:
    source: fw.Future[int] = fw.Future()
    order: list[int] = []

    def record(i: int, _: fw.Future[int]) -> None:
        order.append(i)

    for i in range(5):
        source.add_done_callback(functools.partial(record, i))
        source.then(functools.partial(record, 10 + i))
    source.set_result(0)
    assert order == [0, 10, 1, 11, 2, 12, 3, 13, 4, 14]


def test_then_on_scripted_tasks_runs_when_the_task_ends() -> None:
    release = threading.Event()

    def slow(x: int) -> int:
        assert release.wait(timeout=10)
        return x

    @fw.script
    def body() -> list[fw.Future[int]]:
        return [fw.fork(slow, i).then(lambda f: f.value() + 100) for i in range(4)]

    chained = body()
    assert not any(f.done() for f in chained)
    release.set()
    assert fw.wait_all(chained) == [100, 101, 102, 103]


@pytest.mark.usefixtures("pool_size")
@pytest.mark.parametrize("size", [1, 2])
def test_callbacks_that_wait_on_other_futures_do_not_deadlock_the_pool(size: int) -> None:
    fw.set_num_threads(size)

    def leaf(x: int) -> int:
        return x

    def waits_in_callback(future: fw.Future[int]) -> int:
        return future.value() + fw.wait(fw.script(fw.fork)(leaf, 1000))

    @fw.script
    def body() -> list[int]:
        chained = [fw.fork(leaf, i).then(waits_in_callback) for i in range(4 * size)]
        return [fw.wait(f) for f in chained]

    assert body() == [1000 + i for i in range(4 * size)]


def test_a_task_waiting_on_its_own_chained_future_is_a_deadlock_error() -> None:
    holder: list[fw.Future[Any]] = []
    ready = threading.Event()

    def wait_on_own_chain() -> Any:
        assert ready.wait(timeout=10)
        return fw.wait(holder[0])

    @fw.script
    def body() -> fw.Future[Any]:
        future = fw.fork(wait_on_own_chain)
        holder.append(future.then(lambda f: f.value()))
        ready.set()
        return future

    with pytest.raises(fw.DeadlockError):
        fw.wait(body())


def test_then_and_add_done_callback_need_a_callable() -> None:
    future: fw.Future[int] = fw.Future()
    with pytest.raises(TypeError, match="callable"):
        future.then(3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="callable"):
        future.add_done_callback(None)  # type: ignore[arg-type]


# -- add_done_callback -------------------------------------------------------------------


def test_add_done_callback_runs_on_completion_or_at_once() -> None:
    future: fw.Future[int] = fw.Future()
    seen: list[Any] = []
    future.add_done_callback(lambda f: seen.append(f.value()))
    assert seen == []
    future.set_result(3)
    assert seen == [3]
    future.add_done_callback(lambda f: seen.append("late"))
    assert seen == [3, "late"]


def test_an_exception_in_a_done_callback_is_logged_and_harms_nothing(
    caplog: pytest.LogCaptureFixture,
) -> None:
    future: fw.Future[int] = fw.Future()
    after: list[int] = []

    def fails(f: fw.Future[int]) -> None:
        raise ValueError("callback failed")

    future.add_done_callback(fails)
    future.add_done_callback(lambda f: after.append(f.value()))
    with caplog.at_level(logging.ERROR, logger="reference_impl"):
        future.set_result(1)  # does not raise
        future.add_done_callback(fails)  # on a done future: runs now, logged, not raised
    assert after == [1]
    assert future.value() == 1
    failures = [r for r in caplog.records if r.exc_info and "callback failed" in str(r.exc_info[1])]
    assert len(failures) == 2


# -- collect_all and wait_all ------------------------------------------------------------


def test_collect_all_and_wait_all_of_nothing() -> None:
    collected: fw.Future[list[fw.Future[int]]] = fw.collect_all([])
    assert collected.done()
    assert fw.wait(collected) == []
    assert fw.wait_all([]) == []


def test_collect_all_returns_at_once_and_completes_when_every_future_has() -> None:
    first: fw.Future[int] = fw.Future()
    second: fw.Future[int] = fw.Future()
    collected = fw.collect_all([first, second])  # must not block: nobody else sets them
    first.set_exception(ValueError("first failed"))
    assert not collected.done()
    second.set_result(2)
    assert collected.done()
    futures = fw.wait(collected)
    assert futures == [first, second]
    assert futures[1].wait() == 2
    with pytest.raises(ValueError, match="first failed"):
        futures[0].wait()


def test_wait_all_raises_the_first_failure_without_waiting_for_the_rest() -> None:
    slow: fw.Future[int] = fw.Future()
    failing: fw.Future[int] = fw.Future()
    later(0.05, lambda: failing.set_exception(ValueError("failed early")))
    started = time.monotonic()
    with pytest.raises(ValueError, match="failed early"):
        fw.wait_all([slow, failing])
    assert time.monotonic() - started < 5
    assert not slow.done()
    slow.set_result(1)


def test_wait_all_raises_the_first_failure_in_list_order_when_several_have_failed() -> None:
    futures: list[fw.Future[int]] = [fw.Future() for _ in range(3)]
    futures[2].set_exception(KeyError("third, failed first"))
    futures[0].set_exception(ValueError("first, failed second"))
    futures[1].set_result(1)
    with pytest.raises(ValueError, match="first, failed second"):
        fw.wait_all(futures)


def test_wait_all_in_scripted_code_returns_at_a_tasks_failure() -> None:
    """A task running elsewhere is not waited for; one still queued, the wait may run itself."""
    started, release = threading.Event(), threading.Event()

    def slow() -> bool:
        started.set()
        return release.wait(timeout=10)

    def fails() -> NoReturn:
        raise KeyError("task failed")

    @fw.script
    def body() -> list[Any]:
        running = fw.fork(slow)
        assert started.wait(timeout=10)  # on a worker
        return fw.wait_all([running, fw.fork(fails)])

    begun = time.monotonic()
    with pytest.raises(KeyError, match="task failed"):
        body()
    assert time.monotonic() - begun < 5
    release.set()


def test_user_futures_work_with_collect_all_and_wait_all_in_scripted_code() -> None:
    futures: list[fw.Future[int]] = [fw.Future() for _ in range(3)]

    def waits_all() -> list[int]:
        return fw.wait_all(futures)

    def collects() -> list[int]:
        collected: list[fw.Future[int]] = fw.wait(fw.collect_all(futures))
        return [f.value() for f in collected]

    @fw.script
    def body() -> tuple[list[int], list[int]]:
        first, second = fw.fork(waits_all), fw.fork(collects)
        for i, future in enumerate(futures):
            later(0.01 * i, functools.partial(future.set_result, i))
        return fw.wait(first), fw.wait(second)

    assert body() == ([0, 1, 2], [0, 1, 2])
