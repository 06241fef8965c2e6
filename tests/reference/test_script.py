"""script: asynchronous forks on the pool, same results as plain Python."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

import reference_impl as fw


def test_scripted_fork_returns_before_the_task_finishes() -> None:
    release = threading.Event()

    def blocked() -> Any:
        assert release.wait(timeout=10)
        return "done"

    @fw.script
    def body() -> Any:
        return fw.fork(blocked)

    future = body()
    assert not future.done()
    release.set()
    assert fw.wait(future) == "done"
    assert future.done()


def test_scripted_forks_start_without_being_waited() -> None:
    started = threading.Event()

    @fw.script
    def body() -> Any:
        future = fw.fork(started.set)
        assert started.wait(timeout=10), "the forked task never started by itself"
        return future

    fw.wait(body())


def test_scripted_forks_run_concurrently() -> None:
    barrier = threading.Barrier(2, timeout=10)

    @fw.script
    def body() -> Any:
        first, second = fw.fork(barrier.wait), fw.fork(barrier.wait)
        return sorted([fw.wait(first), fw.wait(second)])

    assert body() == [0, 1]


def test_scripted_tasks_run_on_worker_threads() -> None:
    def napping_thread_name() -> Any:
        time.sleep(0.05)  # releases the GIL, so idle workers can take queued tasks
        return threading.current_thread().name

    @fw.script
    def body() -> Any:
        futures = [fw.fork(napping_thread_name) for _ in range(4)]
        return {fw.wait(f) for f in futures}

    names = body()
    assert any(name.startswith("forkwait-worker") for name in names)


def test_script_preserves_name_and_result() -> None:
    def area(w: int, h: int = 2) -> int:
        return w * h

    scripted = fw.script(area)
    assert scripted.__name__ == "area"
    assert scripted(3, h=4) == area(3, h=4) == 12


def test_script_rejects_non_callables() -> None:
    with pytest.raises(TypeError, match="function or a Module, got int"):
        fw.script(3)  # type: ignore[call-overload]


class Inner(fw.Module):
    def forward(self, x: Any) -> Any:
        return x + 1


class Outer(fw.Module):
    def __init__(self) -> None:
        self.inner = Inner()
        self.offset = 10

    def forward(self, x: Any) -> Any:
        future = fw.fork(self.inner, x)
        return fw.wait(future) + self.offset, fw.wait(fw.fork(threading.current_thread))


def test_script_of_a_module_runs_forward_scripted_and_delegates_attributes() -> None:
    scripted = fw.script(Outer())
    assert isinstance(scripted, fw.ScriptModule)
    value, thread = scripted(1)
    assert value == 12
    assert scripted.forward(1)[0] == 12
    assert scripted.offset == 10
    assert isinstance(scripted.inner, Inner)
    assert fw.script(scripted) is scripted
    assert isinstance(scripted.original, Outer)
    # plain call: forks are synchronous on this thread
    assert Outer()(1)[1] is threading.current_thread()
    del thread


def test_module_without_forward_names_the_class() -> None:
    class Empty(fw.Module):
        pass

    with pytest.raises(NotImplementedError, match="Empty"):
        Empty()()


def test_ignore_is_identity_and_checks_callables() -> None:
    def helper(x: Any) -> Any:
        return x

    assert fw.ignore(helper) is helper
    with pytest.raises(TypeError, match="ignore"):
        fw.ignore(1)  # type: ignore[arg-type]


def test_plain_python_after_a_scripted_call_is_synchronous_again() -> None:
    fw.script(lambda: None)()
    assert fw.fork(threading.get_ident).wait() == threading.get_ident()


def test_scripted_futures_can_be_waited_from_plain_python() -> None:
    release = threading.Event()

    def slow(x: Any) -> Any:
        release.wait(timeout=10)
        return x * 3

    futures = fw.script(lambda: [fw.fork(slow, i) for i in range(8)])()
    release.set()
    assert [fw.wait(f) for f in futures] == [i * 3 for i in range(8)]


def test_collect_all_and_wait_all() -> None:
    def fail() -> Any:
        raise KeyError("k")

    @fw.script
    def body() -> Any:
        futures = [fw.fork(int, "1"), fw.fork(fail), fw.fork(int, "3")]
        collected = fw.wait(fw.collect_all(futures))
        return futures, collected

    futures, collected = body()
    assert collected == futures
    assert all(f.done() for f in futures)
    assert fw.wait_all([futures[0], futures[2]]) == [1, 3]
    with pytest.raises(KeyError):
        fw.wait_all(futures)
    with pytest.raises(TypeError, match="item 1 is int"):
        fw.wait_all([futures[0], 1])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="collect_all"):
        fw.collect_all([None])  # type: ignore[arg-type]


class Member(fw.Module):
    def __init__(self, weight: int) -> None:
        self.weight = weight

    def forward(self, x: int) -> int:
        return x * self.weight


class Ensemble(fw.Module):
    """Forks one task per member of a ModuleList attribute, waits on them in order."""

    def __init__(self) -> None:
        self.members = fw.ModuleList([Member(1), Member(2)])
        self.members.append(Member(3))

    def forward(self, x: int) -> list[int]:
        futures = [fw.fork(member, x) for member in self.members]
        return [fw.wait(future) for future in futures]


def test_a_module_list_keeps_its_modules_in_order_even_of_one_class() -> None:
    members = fw.ModuleList([Member(1), Member(2)])
    assert len(members) == 2
    assert [m(1) for m in members] == [1, 2]
    assert members[1](1) == 2
    assert members.append(Member(3)) is members
    assert [m(1) for m in members] == [1, 2, 3]


def test_a_scripted_ensemble_forks_over_its_module_list() -> None:
    assert fw.script(Ensemble())(2) == [2, 4, 6]
    assert Ensemble()(2) == [2, 4, 6]
