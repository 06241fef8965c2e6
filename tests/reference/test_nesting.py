"""Nested forks: progress at any pool size, errors through levels, futures crossing boundaries.

Scripted trees wider and deeper than the pool
complete at 1, 2 and 8 workers; a failure three levels down reaches the
outermost wait with its type and chaining; futures travel as arguments, results
and inside containers; several Python threads share the one pool.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any, NoReturn

import pytest

import reference_impl as fw
from reference_impl._pool import get_pool

# -- item 3: progress whatever the pool size (unrolled: no recursion) --------------------

FAN_OUT = 9  # wider than the largest pool tried


def leaf(x: int) -> int:
    return x + 1


def level1(x: int) -> int:
    futures = [fw.fork(leaf, x * FAN_OUT + i) for i in range(FAN_OUT)]
    return sum(fw.wait(f) for f in futures)


def level2(x: int) -> int:
    futures = [fw.fork(level1, x * FAN_OUT + i) for i in range(FAN_OUT)]
    return sum(fw.wait(f) for f in futures)


def level3(x: int) -> int:
    futures = [fw.fork(level2, x * FAN_OUT + i) for i in range(FAN_OUT)]
    return sum(fw.wait(f) for f in futures)


def chain_of(depth: int) -> int:
    """A chain of ``depth`` tasks, each waiting on the next (forks built up front)."""
    value = 0
    for _ in range(depth):
        value = fw.wait(fw.fork(leaf, value))
    return value


def wait_in_reverse(x: int) -> int:
    futures = [fw.fork(level1, x + i) for i in range(FAN_OUT)]
    return sum(fw.wait(f) for f in reversed(futures))


@pytest.mark.usefixtures("pool_size")
@pytest.mark.parametrize("threads", [1, 2, 8])
def test_trees_wider_and_deeper_than_the_pool_complete(threads: int) -> None:
    fw.set_num_threads(threads)
    leaves = FAN_OUT**3  # 729 leaves under 91 waiting tasks, four levels deep
    expected = sum(range(1, leaves + 1))
    assert fw.script(level3)(0) == level3(0) == expected
    assert fw.script(wait_in_reverse)(0) == wait_in_reverse(0)
    assert fw.script(chain_of)(200) == 200
    deadline = time.monotonic() + 10  # a shrunk pool's surplus workers exit as they can
    while get_pool().thread_count() > threads and time.monotonic() < deadline:
        time.sleep(0.01)
    assert get_pool().thread_count() <= threads


@pytest.mark.usefixtures("pool_size")
@pytest.mark.parametrize("threads", [1, 2])
def test_waiting_tasks_never_hold_the_workers_their_subtasks_need(threads: int) -> None:
    fw.set_num_threads(threads)

    def middle(x: int) -> int:
        futures = [fw.fork(level2, x + i) for i in range(2 * threads + 1)]
        return sum(fw.wait(f) for f in futures)

    @fw.script
    def top() -> int:
        futures = [fw.fork(middle, i) for i in range(2 * threads + 1)]
        return sum(fw.wait(f) for f in futures)

    assert top() == sum(middle(i) for i in range(2 * threads + 1))


# -- item 4: errors through nested forks ---------------------------------------------


class Stop(BaseException):
    """A BaseException a task may raise (neither an Exception nor an interpreter signal)."""


def innermost(kind: str) -> NoReturn:
    if kind == "cause":
        try:
            raise KeyError("root cause")
        except KeyError as root:
            raise ValueError("explicitly chained") from root
    if kind == "context":
        try:
            raise KeyError("while handling")
        except KeyError:
            raise ValueError("implicitly chained")  # noqa: B904 - the implicit chain is the point
    raise Stop("a base exception")


def middle_level(kind: str) -> Any:
    return fw.wait(fw.fork(innermost, kind))


def outer_level(kind: str) -> Any:
    return fw.wait(fw.fork(middle_level, kind))


def three_levels(kind: str) -> Any:
    return fw.wait(fw.fork(outer_level, kind))


RUNNERS: dict[str, Callable[[str], Any]] = {
    "plain": three_levels,
    "script": fw.script(three_levels),
    "fifo": lambda kind: fw.run_scheduled("fifo", three_levels, kind)[0],
    "lifo": lambda kind: fw.run_scheduled("lifo", three_levels, kind)[0],
    "random": lambda kind: fw.run_scheduled("random:3", three_levels, kind)[0],
}


@pytest.mark.parametrize("runner", RUNNERS)
def test_an_explicitly_chained_error_crosses_three_levels_with_its_cause(runner: str) -> None:
    with pytest.raises(ValueError, match="explicitly chained") as info:
        RUNNERS[runner]("cause")
    assert isinstance(info.value.__cause__, KeyError)
    assert info.value.__cause__.args == ("root cause",)


@pytest.mark.parametrize("runner", RUNNERS)
def test_an_implicitly_chained_error_crosses_three_levels_with_its_context(runner: str) -> None:
    with pytest.raises(ValueError, match="implicitly chained") as info:
        RUNNERS[runner]("context")
    assert info.value.__cause__ is None
    assert isinstance(info.value.__context__, KeyError)


@pytest.mark.parametrize("runner", RUNNERS)
def test_a_base_exception_crosses_three_levels(runner: str) -> None:
    with pytest.raises(Stop, match="a base exception"):
        RUNNERS[runner]("stop")


# -- item 6: futures crossing boundaries ---------------------------------------------


def wait_for(future: fw.Future[int]) -> int:
    return fw.wait(future) * 10


def forks_and_returns(x: int) -> fw.Future[int]:
    return fw.fork(leaf, x)


def in_containers(
    x: int,
) -> tuple[fw.Future[int], dict[str, fw.Future[int]], fw.Future[int] | None]:
    return fw.fork(leaf, x), {"key": fw.fork(leaf, x + 1)}, fw.fork(leaf, x + 2) if x else None


MODES = ["plain", "script", "lifo"]


def call(mode: str, func: Any, *args: Any) -> Any:
    if mode == "script":
        return fw.script(func)(*args)
    if mode == "lifo":
        return fw.run_scheduled("lifo", func, *args)[0]
    return func(*args)


@pytest.mark.parametrize("mode", MODES)
def test_a_future_passed_to_a_task_is_waited_there(mode: str) -> None:
    def body() -> list[int]:
        first = fw.fork(leaf, 1)
        waiters = [fw.fork(wait_for, first) for _ in range(3)]
        return [fw.wait(w) for w in waiters]

    assert call(mode, body) == [20, 20, 20]


@pytest.mark.parametrize("mode", MODES)
def test_a_future_returned_by_a_task_is_waited_by_its_caller(mode: str) -> None:
    def body() -> int:
        inner = fw.wait(fw.fork(forks_and_returns, 4))
        assert isinstance(inner, fw.Future)
        return fw.wait(inner)

    assert call(mode, body) == 5
    returned = fw.script(forks_and_returns)(6)  # out of scripted code, into plain Python
    assert fw.wait(returned) == 7


@pytest.mark.parametrize("mode", MODES)
def test_futures_inside_tuples_dicts_and_optionals(mode: str) -> None:
    def body() -> list[Any]:
        plain, mapping, optional = fw.wait(fw.fork(in_containers, 1))
        _, _, nothing = fw.wait(fw.fork(in_containers, 0))
        assert nothing is None
        assert optional is not None
        return [fw.wait(plain), fw.wait(mapping["key"]), fw.wait(optional)]

    assert call(mode, body) == [2, 3, 4]


class Splitter(fw.Module):
    """A module returning a value with a future, and a list of futures."""

    def forward(self, x: int) -> tuple[int, fw.Future[int], list[fw.Future[int]]]:
        return x, fw.fork(leaf, x), [fw.fork(leaf, x + i) for i in range(3)]


def test_a_module_returns_a_value_with_a_future_and_a_list_of_futures() -> None:
    value, future, futures = fw.script(Splitter())(10)
    assert value == 10
    assert fw.wait(future) == 11
    assert fw.wait_all(futures) == [11, 12, 13]

    def body(x: int) -> list[int]:
        _, inner, more = fw.wait(fw.fork(Splitter(), x))
        return [fw.wait(inner), *fw.wait_all(more)]

    assert fw.script(body)(1) == [2, 2, 3, 4]


# -- item 7: one pool per process, shared by concurrent callers ------------------------


def fib(n: int) -> int:
    if n < 2:
        return n
    left, right = fw.fork(fib, n - 1), fw.fork(fib, n - 2)
    return fw.wait(left) + fw.wait(right)


@pytest.mark.usefixtures("pool_size")
def test_python_threads_calling_scripted_code_at_once_share_one_pool() -> None:
    fw.set_num_threads(2)
    pool = get_pool()
    scripted = fw.script(fib)
    start = threading.Barrier(6, timeout=10)
    results: dict[int, Any] = {}

    def caller(i: int) -> None:
        start.wait()
        results[i] = (scripted(12 + i % 3), get_pool() is pool)

    threads = [threading.Thread(target=caller, args=(i,)) for i in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert results == {i: (fib(12 + i % 3), True) for i in range(6)}
    assert pool.thread_count() <= 2


# -- NEST-LEVELS-1: depth is not bounded by the first caller's stack ------------------------

CHAIN = 3_000  # three times CPython's default recursion limit, in frames


def chain(n: int) -> int:
    """A task that forks the next link and waits on it: n levels of nested forks."""
    return 0 if n == 0 else fw.wait(fw.fork(chain, n - 1)) + 1


@pytest.mark.parametrize("mode", ["plain", "scripted"])
def test_a_chain_deeper_than_the_recursion_limit_completes(mode: str) -> None:
    run = chain if mode == "plain" else fw.script(chain)
    assert run(CHAIN) == CHAIN
