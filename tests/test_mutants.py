"""The suite has teeth: every deliberately broken implementation in tests/mutants fails it.

Each mutant runs through ``forkwait-conformance`` in a subprocess, as a third
party would run it, and must fail at least the requirements its mutation
breaks. Hanging and crashing mutants must be reported without stopping the run.
The mutation score is printed in the terminal summary.
"""

from __future__ import annotations

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from conformance.report import RunReport, read_report

ROOT = Path(__file__).resolve().parent.parent
# seventeen suite runs happen in the first test's setup: more than the default 120 s
pytestmark = pytest.mark.timeout(1800)

#: mutant module -> requirements it must fail (it may fail more)
EXPECTED: dict[str, set[str]] = {
    "drops_kwargs": {"KWARGS-PERMUTATIONS-1", "KWARGS-DEFAULTS-1", "FORK-CALLS-1"},
    "swaps_args": {"KWARGS-PERMUTATIONS-1"},
    "runs_twice": {"WAIT-SAME-OBJECT-1"},
    "copies_on_wait": {"WAIT-SAME-OBJECT-1"},
    "raises_at_fork": {"ERR-AT-WAIT-1"},
    "swallows_exceptions": {"ERR-AT-WAIT-1", "ERR-SCRIPT-AT-WAIT-1", "ERR-WAIT-AGAIN-1"},
    # a synchronous fork does start its task without a wait: ASYNC-STARTS-1 holds
    "never_concurrent": {"ASYNC-RETURNS-EARLY-1", "ASYNC-CONCURRENT-1", "WAIT-FROM-PYTHON-1"},
    "lazy_forks": {"ASYNC-STARTS-1", "ASYNC-CONCURRENT-1", "NEST-UNWAITED-RUNS-1"},
    "deadlocks_on_nested_wait": {"NEST-LEVELS-1", "SCRIPT-DYNAMIC-1"},
    "trace_without_fork_nodes": {
        "TRACE-FORK-WAIT-1",
        "TRACE-ONE-NODE-PER-FORK-1",
        "TRACE-NESTED-1",
    },
    "flattens_nested_forks": {"TRACE-NESTED-1"},
    "ignores_unwaited_forks": {"TRACE-UNWAITED-1"},
    "wrong_future_type": {"FORK-RETURNS-FUTURE-1"},
    "accepts_non_callable": {"FORK-NOT-CALLABLE-1"},
    "crashes_on_lambda": {"FORK-CALLABLES-1", "SCRIPT-DYNAMIC-1"},
    "wedges_in_c": {"WAIT-FROM-PYTHON-1"},
    "wait_all_reversed": {"FUTURE-WAIT-ALL-1"},
}

#: short enough to keep hanging mutants quick, long enough for a loaded CI machine
EXAMPLE_TIMEOUT = "3"


def run_mutant(name: str, report: Path) -> tuple[subprocess.CompletedProcess[str], RunReport]:
    env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    env.pop("FORKWAIT_IMPL", None)
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "conformance.cli",
            "--impl",
            f"tests.mutants.{name}:adapter",
            "--example-timeout",
            EXAMPLE_TIMEOUT,
            "--report",
            str(report),
            "-q",
        ],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
        env=env,
        cwd=ROOT,
    )
    return result, read_report(report)


@pytest.fixture(scope="module")
def mutant_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Any, RunReport]]:
    """Every mutant's run, two at a time (the machine has two cores)."""
    folder = tmp_path_factory.mktemp("mutants")
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = {
            name: pool.submit(run_mutant, name, folder / f"{name}.json") for name in EXPECTED
        }
        return {name: future.result() for name, future in futures.items()}


caught: dict[str, bool] = {}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_the_suite_catches_the_mutant(name: str, mutant_runs: dict[str, Any]) -> None:
    result, report = mutant_runs[name]
    failed = {r.id for r in report.requirements if r.outcome == "failed"}
    missed = EXPECTED[name] - failed
    caught[name] = result.returncode != 0 and not missed
    assert result.returncode == 1, result.stdout[-3000:] + result.stderr[-3000:]
    assert not missed, f"{name} passed {sorted(missed)}; it failed only {sorted(failed)}"
    # the run went on to the end: every requirement has a result
    assert len(report.requirements) == len(
        read_report(ROOT / "docs" / "_results" / "reference.json").requirements
    )


def test_a_hang_and_a_crash_fail_only_their_examples(mutant_runs: dict[str, Any]) -> None:
    for name, requirement, expected_message in [
        ("wedges_in_c", "WAIT-FROM-PYTHON-1", "hung past --example-timeout (3 s)"),
        ("wedges_in_c", "WAIT-FROM-PYTHON-1", "in wait\n"),  # the stack it hung in
        ("crashes_on_lambda", "FORK-CALLABLES-1", "crashed the interpreter"),
    ]:
        result, report = mutant_runs[name]
        record = report.by_id()[requirement]
        assert expected_message in record.message, record.message
        assert "node down" in result.stdout + result.stderr  # and the run went on
        passed = [r for r in report.requirements if r.outcome == "passed"]
        assert len(passed) > 30, f"{name}: the run did not go on after the crash"


def pytest_terminal_summary_text() -> str:
    return f"mutation score: {sum(caught.values())}/{len(EXPECTED)} mutants caught"
