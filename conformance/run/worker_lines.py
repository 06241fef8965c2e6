"""pytest-xdist's worker lines, said the way a conformance run means them.

In a conformance run a worker that goes down is no accident to puzzle over:
an example timed out and its worker retired (threads stuck in it could spoil
the next example), an example hung it where Python could not interrupt it,
or an example crashed it; a fresh worker takes over (isolation.py). xdist
says "[gw0] node down: Not properly terminated" and "replacing crashed
worker gw0" for all three; this says which one it was, once the controller
knows (a hang's or crash's report comes after xdist's node-down line). Without
a terminal xdist repeats "bringing up nodes..." at each status change: each
status line is printed once, and none under ``-q``. It patches the one xdist
reporter and session instance of the run (pytest-xdist 3.x, pinned below 4
in pyproject.toml), nothing else.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from conformance.sphinx_doctest.plugin import RETIRE_PROPERTY

_REPORTER = "terminaldistreporter"
_SESSION = "dsession"
_REPLACING = re.compile(r"^\s*replacing crashed worker (\S+)$")

#: what ended a worker, by the failure kind of the example that ended it
ENDED_BY = {
    "timeout": "retired: an example timed out, and threads it left stuck could spoil the next",
    "hang": "ended: an example hung past --example-timeout where Python could not interrupt it",
    "crash": "ended: an example crashed its process",
}
_UNKNOWN = "ended (no example was running: see the failures)"


def worker_ended_line(worker: str, kind: str) -> str:
    """The line said when ``worker`` goes down, ``kind`` being what ended it."""
    return f"[{worker}] worker {ENDED_BY.get(kind, _UNKNOWN)}; a fresh worker takes over"


class WorkerEnds:
    """Remembers, per worker, the failure kind of the example that ended it."""

    def __init__(self) -> None:
        self.kinds: dict[str, str] = {}

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        worker = getattr(getattr(getattr(report, "node", None), "gateway", None), "id", None)
        if worker is None:
            return
        props = dict(report.user_properties)
        ended = getattr(report, "forkwait_ended_worker", False)
        if ended or RETIRE_PROPERTY in props:
            self.kinds[str(worker)] = str(props.get("failure_kind", "timeout"))


def reword_worker_lines(config: pytest.Config) -> None:
    """Reword xdist's worker-down lines and drop repeated status lines (controller only)."""
    manager = config.pluginmanager
    reporter: Any = manager.getplugin(_REPORTER)
    session: Any = manager.getplugin(_SESSION)
    if reporter is None or not hasattr(reporter, "ensure_show_status"):
        return
    quiet = config.option.verbose < 0
    ends = WorkerEnds()
    manager.register(ends, "forkwait-worker-ends")
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

    def pytest_testnodedown(node: Any, error: object) -> None:
        """Said when xdist replaces the worker: by then its last example's report is in."""

    # hooks are read from the instance when it is registered: register it again
    manager.unregister(reporter)
    reporter.ensure_show_status = ensure_show_status
    reporter.setstatus = setstatus
    reporter.pytest_testnodedown = pytest_testnodedown
    manager.register(reporter, _REPORTER)
    if session is not None and hasattr(session, "report_line"):
        report_line = session.report_line

        def reworded(line: str) -> None:
            replacing = _REPLACING.match(line)
            if replacing is None:
                report_line(line)
                return
            worker = replacing.group(1)
            reporter.write_line(worker_ended_line(worker, ends.kinds.pop(worker, "")))

        session.report_line = reworded
