"""The adapter check: mistakes that would fail many examples for one cause, named once, up front.

``Adapter.validate`` stops a run whose ``fw`` lacks a name a claimed profile
needs. What passes it can still be unusable as the examples use it: a future
type that cannot annotate, a ``fork`` result that is no ``fw.Future`` or lacks
``done()``. The executor tries those once (conformance/executor/describe.py)
and the run lists what it found in one block of its header; the run goes on.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from conformance.adapter import load_adapter
from conformance.executor.describe import surface_problems
from conformance.reports.json_report import read_report
from tests.paths import REPO, checkout_on_path

ROOT = REPO
BROKEN = "tests.suite.adapters.unusable_future:adapter"


def test_each_mistake_is_named_in_one_line() -> None:
    problems = surface_problems(load_adapter(BROKEN))
    assert len(problems) == 4, problems
    subscript, instance, done, wait = problems
    assert subscript.startswith("fw.Future[int] (the examples annotate with it) raised TypeError")
    # each says what is wrong, in words that cannot read as a pass
    assert instance == "fw.fork's result (a Handle) is not an fw.Future"
    assert done == "fw.fork's result (a Handle) has no done() method"
    assert wait == "fw.fork's result (a Handle) has no wait() method"


def test_the_shipped_adapters_have_only_the_problems_they_declare() -> None:
    assert surface_problems(load_adapter("reference")) == []
    # concurrent.futures.Future has result(), not wait(): threads_xfails.toml declares
    # MODULE-RETURNS-FUTURES-1, the core example that calls it
    assert surface_problems(load_adapter("threads")) == [
        "fw.fork's result (a Future) has no wait() method"
    ]


def test_the_run_lists_them_once_before_the_examples_and_goes_on(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    result = subprocess.run(
        [
            sys.executable, "-m", "conformance.cli", "--impl", BROKEN, "--quick",
            "-k", "FORK-RETURNS-FUTURE-1 or FUTURE-DONE-FAILED-1 or FORK-CALLS-1",
            "--report", str(report), "-p", "no:hypothesispytest",
        ],
        capture_output=True, text=True, timeout=300, check=False, cwd=ROOT,
        env=checkout_on_path(),
    )  # fmt: skip
    output = result.stdout
    assert result.returncode == 1, output + result.stderr
    header = "adapter check: 4 problem(s) with what the claimed profiles need (the run goes on):"
    assert output.count(header) == 1, output
    assert output.count("fw.fork's result (a Handle) has no done() method") == 1, output
    # in the run's header, before any example is collected or run
    assert output.index(header) < output.index("collected ")
    outcomes = {r.id: r.outcome for r in read_report(report).requirements}
    assert outcomes["FORK-CALLS-1"] == "passed"  # the run went on and ran what it could
    assert outcomes["FORK-RETURNS-FUTURE-1"] == "failed"
    assert outcomes["FUTURE-DONE-FAILED-1"] == "failed"


def test_a_run_says_the_check_ran_when_it_finds_nothing(tmp_path: Path) -> None:
    result = subprocess.run(
        [
            sys.executable, "-m", "conformance.cli", "--impl", "reference", "--quick",
            "-k", "FORK-CALLS-1", "-p", "no:hypothesispytest",
        ],
        capture_output=True, text=True, timeout=300, check=False, cwd=ROOT,
        env=checkout_on_path(),
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    said = [line for line in result.stdout.splitlines() if line.startswith("adapter check:")]
    assert said == [
        "adapter check: it tried a fork/wait round trip and what the claimed profiles use of "
        "fw.script, fw.Future[int] and the methods of fork's result, no problem found"
    ]
