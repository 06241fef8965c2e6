"""pytest-xdist's status lines, once each (and none under ``-q``).

Without a terminal xdist repeats "bringing up nodes..." at each status
change: each status line is printed once, and none under ``-q``. Workers no
longer go down when an example crashes (examples run in executor processes,
conformance/executor/), so xdist's own node-down words are left as they are:
they would mean the harness itself failed. It patches the one xdist reporter
instance of the run (pytest-xdist 3.x, pinned below 4 in pyproject.toml).
"""

from __future__ import annotations

from typing import Any

import pytest

_REPORTER = "terminaldistreporter"


def reword_worker_lines(config: pytest.Config) -> None:
    """Drop repeated status lines, and all of them under ``-q`` (controller only)."""
    manager = config.pluginmanager
    reporter: Any = manager.getplugin(_REPORTER)
    if reporter is None or not hasattr(reporter, "ensure_show_status"):
        return
    quiet = config.option.verbose < 0
    shown: list[str] = []
    show_status = reporter.ensure_show_status
    set_status = reporter.setstatus

    def ensure_show_status() -> None:
        if quiet:
            return
        if reporter._isatty:  # a terminal rewrites the status line in place
            show_status()
            return
        line = reporter.getstatus()
        if line not in shown:
            shown.append(line)
            reporter.write_line(line)

    def setstatus(spec: Any, status: Any, *, tests_collected: int, show: bool = True) -> None:
        set_status(spec, status, tests_collected=tests_collected, show=show and not quiet)

    # hooks are read from the instance when it is registered: register it again
    manager.unregister(reporter)
    reporter.ensure_show_status = ensure_show_status
    reporter.setstatus = setstatus
    manager.register(reporter, _REPORTER)


__all__ = ["reword_worker_lines"]
