"""The generated-program probe (conformance/programs): its programs' meaning, what it
catches, and the least failing program it prints, which runs as printed."""

from __future__ import annotations

import contextlib
import functools
import importlib
import io
import os
import subprocess
import sys
import threading
import warnings
from pathlib import Path

import pytest

import reference_impl as fw
from conformance.adapter import load_adapter
from conformance.programs.check import check_programs, compare, run_program, told
from conformance.programs.pickling import unpicklable_part
from conformance.programs.sequential import SequentialFw
from conformance.programs.shapes import Fork, Task
from conformance.programs.source import render
from tests.paths import REPO

SUCCESS = "every generated program gives its sequential result, plain and scripted\n"


def _leaf(scale: int = 2, bias: int = 1, raises: bool = False) -> Task:
    return Task(scale, bias, (), (), raises, nested_script=False)


def _printed(adapter_fw: object, seed: int) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        check_programs(adapter_fw, seed=seed)
    return out.getvalue()


def test_a_program_means_what_it_does_when_fork_is_a_direct_call() -> None:
    # t0 forks t1 (x + 1 positionally, bias 1) and t2 (fails), waits t2 then t1
    root = Task(
        3,
        0,
        (Fork(_leaf(), "positional", True), Fork(_leaf(raises=True), "default", True)),
        wait_order=(1, 0),
        raises=False,
        nested_script=False,
    )
    rendered = render(root)
    assert "f0 = fw.fork(t1, x + 1, 1)" in rendered.source
    assert "raise ValueError('task t2 failed')" in rendered.source
    # x = 1, bias 7 (the default): total = 10; t2 failed, caught: 10 * 3 + (1000 + 2);
    # then t1 = 2 * 2 + 1 = 5
    expected = (10 * 3 + 1002) * 3 + 5
    assert run_program(rendered, SequentialFw(), 1, "plain").result == f"returned {expected}"
    assert rendered.awaited == {0, 1, 2}
    assert compare(root, fw, 1) is None


def test_a_failure_left_to_travel_up_stops_the_waits_after_it() -> None:
    failing = Fork(_leaf(raises=True), "default", True, caught=False)
    root = Task(1, 0, (Fork(_leaf(), "default", True), failing), (0, 1), False, False)
    rendered = render(root)
    assert run_program(rendered, SequentialFw(), 0, "plain").result == "raised"
    assert compare(root, fw, 0) is None


@pytest.mark.parametrize("seed", range(4))
def test_the_reference_agrees_and_leaves_no_failure_unretrieved(seed: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # an unwaited failed future would warn
        assert _printed(fw, seed) == SUCCESS


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
@pytest.mark.parametrize(
    ("mutant", "seed"),
    [("swaps_args", 2), ("ignores_defaults", 0), ("forgets_failure", 0), ("runs_twice", 0),
     ("hides_subtask_failures", 0), ("swallows_exceptions", 0), ("raises_at_scripted_fork", 0)],
)  # fmt: skip
def test_a_wrong_implementation_gets_its_least_program_printed(mutant: str, seed: int) -> None:
    wrong = importlib.import_module(f"tests.mutants.{mutant}").adapter().fw
    header = f"a generated program (seed {seed}; --probe-seed {seed} finds it"
    first, again = _printed(wrong, seed), _printed(wrong, seed)
    # the seed finds a failure again; the least program is the same one unless the
    # mutant's bug shows by timing (un-waited tasks that ran or not: measured under load
    # for swallows_exceptions), which can stop hypothesis's shrinking at another program
    for text in (first, again):
        assert text.startswith(header), text
        _runs_to_its_expected_result(text)


def test_the_least_program_is_the_same_every_time_for_a_deterministic_bug() -> None:
    wrong = importlib.import_module("tests.mutants.swaps_args").adapter().fw
    assert _printed(wrong, 2) == _printed(wrong, 2)


def _runs_to_its_expected_result(text: str) -> None:
    """The program as printed runs: under the sequential meaning it gives "expected"."""
    source = text.split("\n\n", 1)[1].rpartition("\nexpected")[0]
    expected = text.rpartition("expected (fork as a direct call): ")[2].splitlines()[0]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            exec(source, {"fw": SequentialFw()})
        except Exception:  # noqa: BLE001 - the program's own failure: its outcome
            print("raised")
    first = out.getvalue().split(" [")[0].strip()
    assert expected == ("raised" if first == "raised" else f"returned {first}")


PICKLING = "tests.suite.adapters.pickling:adapter"


def test_a_pickling_failure_names_what_does_not_pickle_and_reproduces_alone(
    tmp_path: Path,
) -> None:
    # an engine that sends each task to another process, as Dask on a cluster or loky does
    text = _printed(load_adapter(PICKLING).fw, 0)
    assert text.startswith("a generated program (seed 0;"), text
    got = text.rpartition("\ngot ")[2]
    assert "raised (TypeError: cannot pickle '_thread.lock' object; what does not pickle: " in got
    assert "t1 -> its global note -> its global lock (_thread.lock), with cloudpickle" in got
    # the least program, as printed, run alone with the same adapter fails the same way
    program = tmp_path / "least.py"
    source = text.split("\n\n", 1)[1].rpartition("\nexpected")[0]
    program.write_text(
        f"from conformance.adapter import load_adapter\nfw = load_adapter({PICKLING!r}).fw\n"
        + source
    )
    alone = subprocess.run(
        [sys.executable, str(program)], capture_output=True, text=True, timeout=120,
        check=False, env={**os.environ, "PYTHONPATH": str(REPO)},
    )  # fmt: skip
    assert alone.returncode == 1, alone.stdout + alone.stderr
    assert alone.stderr.rstrip().endswith("TypeError: cannot pickle '_thread.lock' object")


def test_an_exception_is_told_with_the_ones_it_came_from() -> None:
    try:
        try:
            raise TypeError("cannot pickle 'generator' object")
        except TypeError as exc:
            raise RuntimeError("Could not pickle the task to send it to the workers.") from exc
    except RuntimeError as error:
        told_text = told(error, {"t0": abs}, 1)
    assert told_text == (
        "RuntimeError: Could not pickle the task to send it to the workers.; from TypeError: "
        "cannot pickle 'generator' object; every task pickles here"
    )


def test_unpicklable_parts_are_found_through_closures_defaults_and_wrappers() -> None:
    lock = threading.Lock()

    def inner() -> bool:
        return lock.locked()

    def task(x: int, helper: object = functools.partial(print, inner)) -> int:
        return x

    assert unpicklable_part("task", task) == (
        "task -> its default helper -> its argument 1 -> its closure cell lock (_thread.lock), "
        "with cloudpickle: TypeError: cannot pickle '_thread.lock' object"
    )
    assert unpicklable_part("abs", abs) is None
