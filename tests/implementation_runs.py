"""Runs of ``forkwait-conformance`` against implementations of this project's tests.

The mutant suite (implementations wrong in one way) and the latitude catalogue
(implementations right in a way the reference is not) both run the command in a
process of its own, as a third party would, several at a time, and read the JSON
report. This module is that run, once; preloaded_command.py starts the process.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from conformance.reports.json_report import RunReport, read_report
from conformance.reports.results import PARTLY_CHECKED
from tests import preloaded_command
from tests.paths import REPO, checkout_on_path
from tests.preloaded_command import run_command

#: each run's --example-timeout. No passing example may come near it under load, or its
#: verdict depends on the machine: the slowest, LIFECYCLE-EXIT-1's, starts a new
#: interpreter, which takes seconds beside CPU hogs. Probes that give up on their own do so
#: after the spec's start bound (conformance.probe_kit.START_BOUND), which an implementation
#: that passes never reaches: one that fails may end as a timeout instead. An implementation
#: that hangs waits the deadline out, so it stays short of the default 30 s.
EXAMPLE_TIMEOUT = "10"
#: an independent implementation (and a variant of one) runs as its author would run it, under
#: the suite's default deadline: EXAMPLE_TIMEOUT is short to keep the reference's hanging
#: variants cheap, and a design the reference did not shape may take seconds on the deepest
#: probes where the reference takes less
INDEPENDENT_ARGS = ("--example-timeout", "30")
#: runs at a time: the slowest sleep out deadlines and probes' patience (a run of the
#: reference itself spends half its time asleep), so eight runs share two cores
PARALLEL_RUNS = 8


@dataclass(frozen=True)
class Run:
    """One run's exit status, its terminal output, its JSON report and its wall time."""

    returncode: int
    output: str
    report: RunReport
    seconds: float

    def failed(self) -> set[str]:
        """The requirements that ran with any outcome but passed (whole, or what ran of it)
        or skipped; not-run is a requirement outside the selection."""
        return {
            r.id
            for r in self.report.requirements
            if r.outcome not in ("passed", PARTLY_CHECKED, "skipped", "not-run")
        }

    def not_run(self) -> set[str]:
        return {r.id for r in self.report.requirements if r.outcome == "not-run"}

    def failed_examples(self, levels: tuple[str, ...]) -> set[tuple[str, int]]:
        """(requirement, example) of every example that failed, of a requirement of ``levels``."""
        return {
            (record.id, result.example)
            for record in self.report.requirements
            if record.level in levels
            for result in record.results
            if result.outcome not in ("passed", "skipped", "not-run")
        }


def run_suite(
    impl: str, report: Path, args: Iterable[str] = (), env: Mapping[str, str] | None = None
) -> Run:
    """``forkwait-conformance --impl impl`` with ``args``, this checkout on ``PYTHONPATH``
    (so that ``tests.mutants.NAME:adapter`` imports) and ``env`` added to the environment."""
    environment = checkout_on_path({**os.environ, **(env or {})})
    environment.pop("FORKWAIT_IMPL", None)
    command = [
        "--impl", impl,
        "--example-timeout", EXAMPLE_TIMEOUT, "--report", str(report), "-q",
        # a pytest option: hypothesis's plugin (installed for this project's own tests)
        # costs two seconds of a one-second run, importing hypothesis at its end
        "-p", "no:hypothesispytest",
        *args,
    ]  # fmt: skip
    output = report.with_suffix(".out")
    start = time.monotonic()
    returncode = run_command(command, environment, REPO, output)
    seconds = time.monotonic() - start
    printed = (
        output.read_text(encoding="utf-8", errors="replace")
        if output.is_file()
        else f"(the run's process ended with status {returncode} before it printed anything)"
    )
    return Run(returncode, printed, read_report(report), seconds)


def run_all(runs: Mapping[str, Callable[[], Run]]) -> dict[str, Run]:
    """Every run, :data:`PARALLEL_RUNS` at a time, started in the order given (put the
    slowest first: the rest fill in around them)."""
    try:
        with ThreadPoolExecutor(max_workers=PARALLEL_RUNS) as pool:
            futures = {name: pool.submit(run) for name, run in runs.items()}
            return {name: future.result() for name, future in futures.items()}
    finally:
        preloaded_command.stop()
