"""A task runs in its forking caller's contextvars context, as of the fork, wherever it runs.

Upstream propagates the caller's thread-local state (grad mode, profiler and
autograd contexts) into forked tasks; in Python terms that state is the
``contextvars`` context. A task sees the values the caller had set when it
forked - on a pool worker, inline in the thread that waits, under a controlled
schedule, in a forked task of a forked task - and the values it sets itself
stay its own.
"""

from __future__ import annotations

import contextvars
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import reference_impl as fw

VAR: contextvars.ContextVar[str] = contextvars.ContextVar("VAR", default="default")


@pytest.fixture(autouse=True)
def own_context() -> Iterator[None]:
    """Each test sets VAR freely: reset it afterwards."""
    token = VAR.set("default")
    yield
    VAR.reset(token)


def read() -> str:
    return VAR.get()


def read_after(event: threading.Event) -> str:
    assert event.wait(timeout=10)
    return VAR.get()


def set_and_read(value: str) -> str:
    VAR.set(value)
    return VAR.get()


MODES = ["plain", "script"]


def run(mode: str, body: Callable[[], Any]) -> Any:
    return (fw.script(body) if mode == "script" else body)()


@pytest.mark.parametrize("mode", MODES)
def test_a_task_sees_the_value_the_caller_had_set_when_it_forked(mode: str) -> None:
    def body() -> str:
        VAR.set("at fork")
        future = fw.fork(read)
        VAR.set("after fork")
        return fw.wait(future)

    assert run(mode, body) == "at fork"


def test_a_task_on_a_pool_worker_sees_the_callers_value() -> None:
    started, changed = threading.Event(), threading.Event()

    def on_a_worker() -> tuple[str, str]:
        started.set()
        return read_after(changed), threading.current_thread().name

    @fw.script
    def body() -> tuple[str, str]:
        VAR.set("at fork")
        future = fw.fork(on_a_worker)
        assert started.wait(timeout=10)  # it runs on a worker, not in this wait
        VAR.set("after fork")
        changed.set()
        return fw.wait(future)

    value, thread = body()
    assert value == "at fork"
    assert thread.startswith("forkwait-worker")


@pytest.mark.usefixtures("pool_size")
def test_a_task_run_inline_by_its_waiter_sees_the_value_as_of_the_fork() -> None:
    fw.set_num_threads(1)
    busy, release = threading.Event(), threading.Event()

    def hold_the_only_worker() -> None:
        busy.set()
        assert release.wait(timeout=10)

    def where() -> tuple[str, int]:
        return VAR.get(), threading.get_ident()

    @fw.script
    def body() -> tuple[str, int]:
        holder = fw.fork(hold_the_only_worker)
        assert busy.wait(timeout=10)
        VAR.set("at fork")
        queued = fw.fork(where)  # no free worker: it waits in the queue
        VAR.set("after fork")
        try:
            return fw.wait(queued)  # so this wait runs it, here
        finally:
            release.set()
            fw.wait(holder)

    value, thread = body()
    assert value == "at fork"
    assert thread == threading.get_ident()


@pytest.mark.parametrize("mode", MODES)
def test_what_a_task_sets_does_not_leak_back_to_its_caller(mode: str) -> None:
    def body() -> tuple[str, str]:
        VAR.set("caller's")
        inner = fw.wait(fw.fork(set_and_read, "task's"))
        return inner, VAR.get()

    assert run(mode, body) == ("task's", "caller's")


@pytest.mark.usefixtures("pool_size")
def test_what_a_task_run_inline_sets_does_not_leak_into_its_waiter() -> None:
    fw.set_num_threads(1)
    busy, release = threading.Event(), threading.Event()

    def hold_the_only_worker() -> None:
        busy.set()
        assert release.wait(timeout=10)

    @fw.script
    def body() -> tuple[str, str]:
        holder = fw.fork(hold_the_only_worker)
        assert busy.wait(timeout=10)
        VAR.set("caller's")
        inner = fw.wait(fw.fork(set_and_read, "task's"))  # run inline by this wait
        release.set()
        fw.wait(holder)
        return inner, VAR.get()

    assert body() == ("task's", "caller's")


def forks_a_reader(value: str) -> str:
    VAR.set(value)
    future = fw.fork(read)
    VAR.set("changed later")
    return fw.wait(future)


@pytest.mark.parametrize("mode", MODES)
def test_a_nested_task_sees_what_its_forking_task_had_set(mode: str) -> None:
    def body() -> list[str]:
        VAR.set("caller's")
        futures = [fw.fork(forks_a_reader, f"task {i}") for i in range(4)]
        return [*(fw.wait(f) for f in futures), VAR.get()]

    assert run(mode, body) == ["task 0", "task 1", "task 2", "task 3", "caller's"]


@pytest.mark.parametrize("spec", fw.default_schedules(4))
def test_under_a_schedule_tasks_see_the_value_as_of_their_fork(spec: str) -> None:
    def body() -> list[str]:
        futures = []
        for i in range(3):
            VAR.set(f"fork {i}")
            futures.append(fw.fork(forks_a_reader, f"nested {i}"))
            futures.append(fw.fork(read))
        VAR.set("caller's")
        return [*(fw.wait(f) for f in futures), VAR.get()]

    value, _log = fw.run_scheduled(spec, body)
    assert value == ["nested 0", "fork 0", "nested 1", "fork 1", "nested 2", "fork 2", "caller's"]


def test_while_tracing_a_forked_function_sees_the_callers_value_and_keeps_its_own() -> None:
    seen: list[str] = []

    def forked(x: fw.Tensor) -> fw.Tensor:
        seen.append(VAR.get())
        VAR.set("set while traced")
        return x + 1

    def traced(x: fw.Tensor) -> fw.Tensor:
        VAR.set("tracer's")
        return fw.wait(fw.fork(forked, x))

    graph = fw.trace(traced, fw.tensor(1))
    assert seen == ["tracer's"]
    assert VAR.get() == "tracer's"  # traced() ran here; what the forked function set did not
    assert graph(fw.tensor(2)).item() == 3


def test_each_python_thread_calling_scripted_code_gives_its_own_context() -> None:
    results: dict[str, list[str]] = {}

    @fw.script
    def body(name: str) -> list[str]:
        VAR.set(name)
        return [fw.wait(f) for f in [fw.fork(read) for _ in range(8)]]

    def caller(name: str) -> None:
        results[name] = body(name)

    threads = [threading.Thread(target=caller, args=(f"thread {i}",)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert results == {f"thread {i}": [f"thread {i}"] * 8 for i in range(4)}
