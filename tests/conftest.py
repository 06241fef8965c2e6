"""Shared fixtures for the unit tests of reference_impl and conformance."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

import reference_impl as fw

FIXTURES = Path(__file__).parent / "fixtures"


def run_spec(pytester: pytest.Pytester, *args: str, fixture: str | None = None) -> pytest.RunResult:
    """Run the plugin in a subprocess on the spec documents in ``pytester.path``.

    ``fixture`` (a file of tests/fixtures) is copied there first.
    """
    if fixture is not None:
        shutil.copy(FIXTURES / fixture, pytester.path / fixture)
    return pytester.runpytest_subprocess(
        "-p", "conformance.run.plugin", "-p", "no:doctest", "-p", "no:cacheprovider",
        "--spec-root", str(pytester.path), *args,
    )  # fmt: skip


@pytest.fixture
def pool_size() -> Iterator[None]:
    """Let a test resize the worker pool; the size is restored afterwards."""
    before = fw.get_num_threads()
    yield
    fw.set_num_threads(before)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Print the mutation matrix when the mutant tests ran."""
    from tests import test_mutants  # noqa: PLC0415

    lines = test_mutants.mutation_matrix()
    if lines:
        terminalreporter.section("forkwait suite teeth: mutation matrix")
        for line in lines:
            terminalreporter.write_line(line)
