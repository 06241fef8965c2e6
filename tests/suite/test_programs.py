"""The generated-program probe (conformance/programs): its programs' meaning, what it
catches, and the least failing program it prints, which runs as printed."""

from __future__ import annotations

import contextlib
import importlib
import io
import warnings

import pytest

import reference_impl as fw
from conformance.programs.check import check_programs, compare, run_program
from conformance.programs.sequential import SequentialFw
from conformance.programs.shapes import Fork, Task
from conformance.programs.source import render

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
