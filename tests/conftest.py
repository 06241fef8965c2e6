"""Shared fixtures for the unit tests of reference_impl and conformance."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import reference_impl as fw


@pytest.fixture
def pool_size() -> Iterator[None]:
    """Let a test resize the worker pool; the size is restored afterwards."""
    before = fw.get_num_threads()
    yield
    fw.set_num_threads(before)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Print the mutation score when the mutant tests ran."""
    from tests import test_mutants  # noqa: PLC0415

    if test_mutants.caught:
        terminalreporter.section("forkwait suite teeth")
        terminalreporter.write_line(test_mutants.pytest_terminal_summary_text())
