"""pytest-xdist's worker lines, said the way a conformance run means them.

In a conformance run a worker that goes down is no accident to puzzle over:
an example crashed it, hung it past the deadline, or the worker retired after
a timeout, and a fresh one takes over (isolation.py). xdist prints "[gw0] node
down: Not properly terminated" for all three, and, without a terminal, repeats
"bringing up nodes..." each time its status changes. This rewords the first
and prints each status line once. It patches the one xdist reporter instance
of the run (pytest-xdist 3.x, pinned below 4 in pyproject.toml), nothing else.
"""

from __future__ import annotations

from typing import Any

import pytest

_PLUGIN = "terminaldistreporter"


def reword_worker_lines(config: pytest.Config) -> None:
    """Reword xdist's node-down line and drop repeated status lines (controller only)."""
    manager = config.pluginmanager
    reporter: Any = manager.getplugin(_PLUGIN)
    if reporter is None or not hasattr(reporter, "ensure_show_status"):
        return
    shown: list[str] = []
    show_status = reporter.ensure_show_status

    def ensure_show_status() -> None:
        if reporter._isatty:  # a terminal rewrites the status line in place
            show_status()
            return
        line = reporter.getstatus()
        if line not in shown:
            shown.append(line)
            reporter.write_line(line)

    def pytest_testnodedown(node: Any, error: object) -> None:
        if error:
            reporter.write_line(
                f"[{node.gateway.id}] worker ended (an example crashed or hung it, or it "
                "retired after a timeout: see the failures); a fresh worker takes over"
            )

    # hooks are read from the instance when it is registered: register it again
    manager.unregister(reporter)
    reporter.ensure_show_status = ensure_show_status
    reporter.pytest_testnodedown = pytest_testnodedown
    manager.register(reporter, _PLUGIN)
