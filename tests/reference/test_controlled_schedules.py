"""Controlled schedules: replayable interleavings that find races, and the harness's use of them."""

from __future__ import annotations

import hashlib
import os
import random
import subprocess
import sys
import threading
import time
from typing import Any

import pytest

import reference_impl as fw
from reference_impl.schedules.carriers import Carriers, GreenletCarrier
from reference_impl.schedules.idset import IdSet
from reference_impl.schedules.policies import RandomPolicy, Task
from tests.running import run_spec


def fib(n: int) -> int:
    if n < 2:
        return n
    left, right = fw.fork(fib, n - 1), fw.fork(fib, n - 2)
    return fw.wait(left) + fw.wait(right)


@pytest.mark.parametrize("spec", ["fifo", "lifo", "random:7", "pct:7:3"])
def test_the_same_schedule_gives_the_same_event_log_every_time(spec: str) -> None:
    runs = [fw.run_scheduled(spec, fib, 7) for _ in range(20)]
    assert {result for result, _ in runs} == {13}
    first_log = runs[0][1]
    assert len(first_log) > 100
    assert all(log == first_log for _, log in runs)


@pytest.mark.parametrize(
    ("spec", "digest"),
    [
        ("fifo", "7160d2ef8c617060"),
        ("lifo", "0b7a06a4e9c3a107"),
        ("random:7", "d23b4ee1837a5d1f"),
        ("pct:7:3", "6d063e63db0c5ceb"),
    ],
)
def test_each_policy_keeps_its_exact_interleaving(spec: str, digest: str) -> None:
    """Each policy's log of fib(6), pinned: a schedule's name means the same interleaving
    in every version, so a failure found under it replays after the scheduler changes."""
    result, log = fw.run_scheduled(spec, fib, 6)
    assert result == 8
    assert hashlib.sha256("\n".join(log).encode()).hexdigest()[:16] == digest


def test_different_seeds_explore_different_interleavings() -> None:
    logs = {tuple(fw.run_scheduled(f"random:{seed}", fib, 6)[1]) for seed in range(8)}
    assert len(logs) > 4


def test_default_schedules_are_distinct_and_parse() -> None:
    schedules = fw.default_schedules(8)
    assert len(set(schedules)) == 8
    assert schedules[:2] == ["fifo", "lifo"]
    for spec in schedules:
        fw.parse_schedule(spec)


@pytest.mark.parametrize("bad", ["", "random", "random:x", "pct:1:0", "fast", "fifo:1"])
def test_bad_schedules_are_clear_errors(bad: str) -> None:
    with pytest.raises(ValueError, match=r"bad schedule|depth"):
        fw.parse_schedule(bad)
    with pytest.raises(ValueError, match=r"bad schedule|depth"):
        fw.script(fib, schedule=bad)


# -- a racy program and its fix ------------------------------------------------

shared: dict[str, int] = {}


def identity(value: int) -> int:
    return value


def racy_increment() -> int:
    value = shared["n"]  # read ...
    fw.wait(fw.fork(identity, value))  # ... a switch point in between ...
    shared["n"] = value + 1  # ... write: another task's increment can be lost
    return 0


def fixed_increment() -> int:
    step = fw.wait(fw.fork(identity, 1))
    shared["n"] += step  # read-modify-write with no switch point inside
    return 0


def two_increments(increment: Any) -> int:
    shared["n"] = 0
    first, second = fw.fork(increment), fw.fork(increment)
    fw.wait(first)
    fw.wait(second)
    return shared["n"]


def explore(increment: Any) -> list[str]:
    """The default budget's schedules under which the count comes out wrong."""
    return [
        spec
        for spec in fw.default_schedules(8)
        if fw.run_scheduled(spec, two_increments, increment)[0] != 2
    ]


def test_the_explorer_finds_the_race_within_the_default_budget_every_time() -> None:
    found = [explore(racy_increment) for _ in range(5)]
    assert found[0], "no schedule of the default budget exposed the lost update"
    assert all(f == found[0] for f in found)  # deterministic: the same schedules each time
    # and the failing schedule replays: same wrong result, same log
    spec = found[0][0]
    result, log = fw.run_scheduled(spec, two_increments, racy_increment)
    assert (result, log) == fw.run_scheduled(spec, two_increments, racy_increment)
    assert result == 1


def test_the_fixed_program_passes_every_schedule() -> None:
    assert explore(fixed_increment) == []
    assert fw.script(two_increments)(fixed_increment) == 2


def test_a_wait_cycle_under_a_schedule_is_a_deadlock_error() -> None:
    futures: dict[str, Any] = {}

    def first() -> Any:
        return fw.wait(futures["second"])

    def second() -> Any:
        return fw.wait(futures["first"])

    def both() -> Any:
        futures["first"] = fw.fork(first)
        futures["second"] = fw.fork(second)
        return fw.wait(futures["first"])

    with pytest.raises(fw.DeadlockError):
        fw.run_scheduled("fifo", both)


def test_the_environment_selects_a_schedule() -> None:
    code = (
        "import reference_impl as fw\n"
        "def leaf(x): return x\n"
        "def run(): return [fw.wait(f) for f in [fw.fork(leaf, i) for i in range(3)]]\n"
        "from reference_impl.schedules import active_run\n"
        "def probe(): return active_run() is not None\n"
        "print(fw.script(run)(), fw.script(probe)())\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={**os.environ, "FORKWAIT_SCHEDULE": "lifo"},
    )
    assert result.stdout.split() == ["[0,", "1,", "2]", "True"], result.stderr


def test_unwaited_tasks_still_finish_under_a_schedule() -> None:
    done: list[int] = []

    def mark(x: int) -> int:
        done.append(x)
        return x

    def fire_and_forget() -> int:
        fw.fork(mark, 1)
        return 0

    fw.run_scheduled("fifo", fire_and_forget)
    assert done == [1]


def threads_back_to(baseline: int) -> bool:
    deadline = time.monotonic() + 10
    while threading.active_count() > baseline and time.monotonic() < deadline:
        time.sleep(0.01)
    return threading.active_count() <= baseline


@pytest.fixture
def carriers(monkeypatch: pytest.MonkeyPatch) -> list[GreenletCarrier]:
    """Every carrier (greenlet) the runs of the test make, kept to check each one ended.

    A carrier left suspended would be killed only when the garbage collector
    finds it, running its task's ``finally`` blocks at some random later time.
    """
    made: list[GreenletCarrier] = []
    take = Carriers.take

    def recording(carriers: Carriers) -> GreenletCarrier:
        carrier = take(carriers)
        made.append(carrier)
        return carrier

    monkeypatch.setattr(Carriers, "take", recording)
    return made


def all_ended(carriers: list[GreenletCarrier]) -> bool:
    return all(carrier.glet.dead for carrier in carriers)


def test_tasks_of_a_run_run_on_greenlets_of_the_calling_thread(
    carriers: list[GreenletCarrier],
) -> None:
    """No thread per task: a switch between tasks is a greenlet switch, not two OS wake-ups."""
    threads: set[int] = set()

    def leaf(i: int) -> int:
        threads.add(threading.get_ident())
        return i

    def program() -> int:
        futures = [fw.fork(leaf, i) for i in range(20)]
        return sum(fw.wait(future) for future in futures)

    for spec in fw.default_schedules(6):
        assert fw.run_scheduled(spec, program)[0] == sum(range(20))
    assert threads == {threading.get_ident()}
    assert carriers, "lifo and random start tasks on carriers of their own"
    assert all_ended(carriers)


@pytest.mark.parametrize("spec", ["fifo", "lifo", "random:3", "pct:2:3"])
def test_a_scheduled_call_that_raises_still_runs_its_tasks_and_leaks_no_thread(
    spec: str, carriers: list[GreenletCarrier]
) -> None:
    ran: list[int] = []

    def mark(i: int) -> None:
        ran.append(i)

    def forks_then_fails(i: int) -> None:
        fw.fork(mark, i)
        raise ValueError("the caller failed")

    baseline = threading.active_count()
    for i in range(50):
        with pytest.raises(ValueError, match="the caller failed"):
            fw.run_scheduled(spec, forks_then_fails, i)
    assert sorted(ran) == list(range(50))
    assert threads_back_to(baseline), f"{threading.active_count() - baseline} threads leaked"
    assert all_ended(carriers), "a carrier was left suspended"


def test_a_wait_cycle_fails_in_a_task_of_the_cycle_and_every_task_ends(
    carriers: list[GreenletCarrier],
) -> None:
    futures: dict[str, Any] = {}
    raised_in: list[str] = []

    def waits_on(name: str, other: str) -> Any:
        try:
            return fw.wait(futures[other])
        except fw.DeadlockError:
            raised_in.append(name)
            raise

    def cycle() -> Any:
        futures["first"] = fw.fork(waits_on, "first", "second")
        futures["second"] = fw.fork(waits_on, "second", "first")
        return fw.wait(futures["first"])

    baseline = threading.active_count()
    with pytest.raises(fw.DeadlockError):
        fw.run_scheduled("fifo", cycle)
    assert futures["first"].done()
    assert futures["second"].done()
    assert set(raised_in) == {"first", "second"}  # raised in the cycle, not in the caller
    assert threads_back_to(baseline)
    assert all_ended(carriers)


@pytest.mark.parametrize("spec", fw.default_schedules(4))
def test_wait_all_and_collect_all_are_wait_points_of_the_schedule(spec: str) -> None:
    def times_ten(x: int) -> int:
        return fw.wait(fw.fork(identity, x)) * 10

    def gather() -> tuple[list[int], list[int]]:
        futures = [fw.fork(times_ten, i) for i in range(3)]
        collected = fw.wait(fw.collect_all(futures))
        return fw.wait_all(futures), [fw.wait(f) for f in collected]

    result: list[Any] = []
    thread = threading.Thread(  # a run that blocked here would hang the test: run it aside
        target=lambda: result.append(fw.run_scheduled(spec, gather)), daemon=True
    )
    thread.start()
    thread.join(30)
    assert result, f"hung under {spec}"
    value, log = result[0]
    assert value == ([0, 10, 20], [0, 10, 20])
    assert log == fw.run_scheduled(spec, gather)[1]


def test_the_runnable_index_picks_the_kth_smallest_id_at_any_size() -> None:
    rng = random.Random(5)
    for span, steps in ((100, 2_000), (5_000, 4_000)):  # a sorted list, then a Fenwick tree
        ids, members = IdSet(), set[int]()
        for step in range(steps):
            if members and rng.random() < 0.45:
                gone = rng.choice(sorted(members))
                members.remove(gone)
                ids.remove(gone)
            else:
                new = rng.randrange(span)
                if new not in members:
                    members.add(new)
                    ids.add(new)
            assert len(ids) == len(members)
            if members and step % 5 == 0:
                ordered = sorted(members)
                k = rng.randrange(len(ordered))
                assert ids.kth(k) == ordered[k]
        assert (len(members) > IdSet.SMALL) == (span > 100)  # both forms were exercised


def test_the_random_policy_draws_as_random_choice_over_the_runnable_tasks() -> None:
    """Its draws are written out for speed: they must stay random.choice's, at any size."""
    rng = random.Random(11)
    for seed in range(4):
        policy, plain = RandomPolicy(seed), random.Random(seed)
        runnable: set[int] = set()
        tasks = [Task(number, None) for number in range(600)]  # past IdSet.SMALL
        for task in tasks:
            policy.new_task(task)
        for step in range(3_000):
            if runnable and rng.random() < 0.25:
                gone = rng.choice(sorted(runnable))
                runnable.remove(gone)
                policy.remove(tasks[gone])
            else:
                new = rng.randrange(len(tasks))
                if new not in runnable:
                    runnable.add(new)
                    policy.add(tasks[new])
            if runnable:
                expected = plain.choice(sorted(runnable))
                assert policy.choose(None, step).id == expected
        assert len(runnable) > IdSet.SMALL  # the Fenwick tree's form was drawn from too


AT_THE_RECURSION_LIMIT = """
import contextlib, sys, threading, traceback
import reference_impl as fw

futures = []

def chain(n):
    if n == 0:
        return "leaf"
    future = fw.fork(chain, n - 1)
    futures.append(future)
    return fw.wait(future)

def at_every_limit(spec):
    scripted = fw.script(chain, schedule=spec)
    base = len(traceback.extract_stack())
    old_limit = sys.getrecursionlimit()
    for extra in range(8, 50):
        try:
            sys.setrecursionlimit(base + extra)
            with contextlib.suppress(RecursionError, RuntimeError):
                scripted(60)
        finally:
            sys.setrecursionlimit(old_limit)

for spec in fw.default_schedules(4):
    runner = threading.Thread(target=at_every_limit, args=(spec,), daemon=True)
    runner.start()
    runner.join(60)
    assert not runner.is_alive(), f"a run under {spec} hung"
    assert threading.active_count() == 1, f"threads left behind under {spec}"
assert all(future.done() for future in futures), "a future never ended"
for future in futures:
    with contextlib.suppress(RecursionError, RuntimeError):
        assert fw.wait(future) == "leaf", "wait invented a result"
print("ok", len(futures))
"""


def test_at_the_recursion_limit_a_scheduled_run_ends_every_task_and_hangs_nothing() -> None:
    # in a subprocess: at such limits pytest's own hooks fail in other threads
    result = subprocess.run(
        [sys.executable, "-c", AT_THE_RECURSION_LIMIT],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.startswith("ok"), result.stdout


def test_ten_thousand_scheduled_forks_take_far_less_than_quadratic_time() -> None:
    """A complexity guard with wide slack (the 5x figure is in benchmarks/schedules.py)."""

    def fan_out(n: int) -> int:
        futures = [fw.fork(abs, -i) for i in range(n)]
        return sum(fw.wait(future) for future in futures)

    started = time.perf_counter()
    result, log = fw.run_scheduled("random:1", fan_out, 10_000)
    elapsed = time.perf_counter() - started
    assert result == sum(range(10_000))
    assert len(log) > 30_000
    assert elapsed < 10, f"10,000 scheduled forks took {elapsed:.1f} s"


# -- the harness -----------------------------------------------------------------

pytest_plugins = ["pytester"]


def run_harness(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    return run_spec(
        pytester,
        "racy.rst",
        "-rf",
        *args,
        fixture="racy.rst",
    )


def test_the_harness_reports_a_failing_schedule_with_its_replay_command(
    pytester: pytest.Pytester,
) -> None:
    result = run_harness(pytester, "--schedules", "4")
    outcomes = result.parseoutcomes()
    assert outcomes.get("failed", 0) >= 1  # some schedule loses the update
    assert outcomes["passed"] + outcomes["failed"] == 1 + 4 + 1 + 4  # racy and fixed
    text = result.stdout.str()
    assert "RACE-LOST-UPDATE-1" in text
    assert (
        "under schedule fifo; replay with: forkwait-conformance --impl reference "
        "--schedule fifo -k RACE-LOST-UPDATE-1" in text
    )
    assert "RACE-FIXED-1" not in "".join(
        line for line in result.outlines if line.startswith("FAILED")
    )


def test_replaying_one_schedule_runs_exactly_it(pytester: pytest.Pytester) -> None:
    result = run_harness(pytester, "--schedule", "fifo", "-k", "RACE-LOST-UPDATE-1 and fifo")
    result.assert_outcomes(failed=1, deselected=3)  # fifo loses the update, every time


# -- self-waits and user futures under a schedule -----------------------------------


def wait_on_promised(promise: fw.Future[Any]) -> Any:
    """Wait on the future ``promise`` is set to (once the caller has it: lifo runs us first)."""
    return fw.wait(fw.wait(promise))


@pytest.mark.parametrize("spec", fw.default_schedules(4))
def test_a_task_waiting_on_its_own_future_under_a_schedule_is_a_deadlock_error(
    spec: str,
) -> None:
    def body() -> Any:
        promise: fw.Future[Any] = fw.Future()
        future = fw.fork(wait_on_promised, promise)
        promise.set_result(future)
        return fw.wait(future)

    with pytest.raises(fw.DeadlockError):
        fw.run_scheduled(spec, body)


@pytest.mark.parametrize("spec", fw.default_schedules(4))
def test_a_three_task_cycle_under_a_schedule_is_a_deadlock_error(spec: str) -> None:
    def body() -> list[Any]:
        promises: list[fw.Future[Any]] = [fw.Future() for _ in range(3)]
        futures = [fw.fork(wait_on_promised, promises[(i + 1) % 3]) for i in range(3)]
        for promise, future in zip(promises, futures, strict=True):
            promise.set_result(future)
        outcomes = []
        for future in futures:
            try:
                outcomes.append(fw.wait(future))
            except fw.DeadlockError:
                outcomes.append("deadlock")
        return outcomes

    outcomes, _log = fw.run_scheduled(spec, body)
    assert outcomes == ["deadlock"] * 3


@pytest.mark.parametrize("spec", fw.default_schedules(4))
def test_a_task_blocked_on_a_user_future_does_not_stall_the_schedule(spec: str) -> None:
    """The thread completing the future first waits on a task of the run: the turn must pass."""
    promise: fw.Future[int] = fw.Future()

    def blocked_on_promise() -> int:
        return fw.wait(promise) + 1

    def body() -> list[int]:
        waiting = fw.fork(blocked_on_promise)
        producer = fw.fork(identity, 41)
        setter = threading.Thread(target=lambda: promise.set_result(fw.wait(producer)))
        setter.start()
        result = [fw.wait(waiting), fw.wait(producer)]
        setter.join(10)
        return result

    done: list[Any] = []
    runner = threading.Thread(target=lambda: done.append(fw.run_scheduled(spec, body)))
    runner.start()
    runner.join(30)
    assert done, f"the run stalled under {spec}"
    assert done[0][0] == [42, 41]


@pytest.mark.parametrize("spec", fw.default_schedules(6))
def test_a_user_future_set_by_another_task_of_the_run_replays_exactly(spec: str) -> None:
    def waits(promise: fw.Future[int]) -> int:
        return fw.wait(promise) * 2

    def sets(promise: fw.Future[int], value: int) -> int:
        promise.set_result(value)
        return value

    def body() -> list[int]:
        promises: list[fw.Future[int]] = [fw.Future() for _ in range(3)]
        waiting = [fw.fork(waits, p) for p in promises]
        setting = [fw.fork(sets, p, i) for i, p in enumerate(promises)]
        chained = promises[0].then(lambda f: f.value() + 100)
        return [*(fw.wait(f) for f in waiting + setting), fw.wait(chained)]

    value, log = fw.run_scheduled(spec, body)
    assert value == [0, 2, 4, 0, 1, 2, 100]
    assert (value, log) == fw.run_scheduled(spec, body)


@pytest.mark.parametrize("spec", fw.default_schedules(4))
def test_future_wait_and_then_under_a_schedule_are_its_wait_points(spec: str) -> None:
    def body() -> list[int]:
        futures = [fw.fork(identity, i) for i in range(3)]
        chained = futures[1].then(lambda f: f.value() * 10)
        return [futures[0].wait(), fw.wait(chained), *fw.wait_all(futures)]

    value, log = fw.run_scheduled(spec, body)
    assert value == [0, 10, 0, 1, 2]
    assert "wait 0 on 1" in log  # future.wait() went through the schedule
    if spec == "fifo":  # task 2 has not run when the chained future is waited
        assert "wait 0 on 2" in log  # so waiting on it waited on its source


notes: list[str] = []


def noted_subtask(x: int) -> int:
    notes.append(f"sub {x}")
    return x


def noted_task(x: int) -> int:
    notes.append(f"start {x}")
    value = fw.wait(fw.fork(noted_subtask, x))
    notes.append(f"end {x}")
    return value


def four_tasks() -> int:
    """Four tasks, each noting its start and end around a subtask: thousands of orders."""
    futures = [fw.fork(noted_task, i) for i in range(4)]
    return sum(fw.wait(future) for future in futures)


def notes_under(spec: str) -> tuple[str, ...]:
    notes.clear()
    fw.run_scheduled(spec, four_tasks)
    return tuple(notes)


def test_sixty_four_default_schedules_give_sixty_four_interleavings() -> None:
    """DET-SCHEDULE-REPLAY-1 for n = 64, where distinct PCT seeds may repeat one interleaving."""
    schedules = fw.default_schedules(64)
    assert len(set(schedules)) == 64
    assert len({notes_under(spec) for spec in schedules}) == 64


def test_a_negative_count_of_schedules_is_refused() -> None:
    with pytest.raises(ValueError, match="at least 0"):
        fw.default_schedules(-1)
