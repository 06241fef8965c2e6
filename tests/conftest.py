"""The session's end: the mutation matrix, when the mutant suite ran."""

from __future__ import annotations

import pytest


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Print the mutation matrix when the mutant tests ran."""
    from tests.mutants import test_mutants  # noqa: PLC0415

    lines = test_mutants.mutation_matrix()
    if lines:
        terminalreporter.section("forkwait mutation coverage: requirement x mutants that fail it")
        for line in lines:
            terminalreporter.write_line(line)
