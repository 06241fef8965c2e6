"""The session's end: the mutation matrix, when the mutant suite ran."""

from __future__ import annotations

import sys

import pytest

#: the mutant runner's module: imported by pytest only in a session that collected it
_MUTANT_RUNNER = "tests.mutants.test_mutants"


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Print the mutation matrix when the mutant tests ran. The runner is looked up, not
    imported: importing it imports every mutant, which a session that did not collect it
    (the unit tests, the differential suite) has no use for."""
    runner = sys.modules.get(_MUTANT_RUNNER)
    if runner is None:
        return
    lines = runner.mutation_matrix()
    if lines:
        terminalreporter.section("forkwait mutation coverage: requirement x mutants that fail it")
        for line in lines:
            terminalreporter.write_line(line)
