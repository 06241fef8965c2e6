"""The session's end: what the latitude runs failed and cost, when they ran."""

from __future__ import annotations

import pytest


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    from tests.latitudes import test_latitudes  # noqa: PLC0415

    lines = test_latitudes.summary()
    if lines:
        terminalreporter.section("forkwait suite latitudes: right implementations, every MUST")
        for line in lines:
            terminalreporter.write_line(line)
