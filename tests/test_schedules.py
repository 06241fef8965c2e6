"""Controlled schedules: replayable interleavings that find races, and the harness's use of them."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

import pytest

import reference_impl as fw
from tests.conftest import run_spec


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
        "from reference_impl._schedule import active_run\n"
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
