"""Per-example deadlines, and reports for examples that take their worker process down.

Two deadlines guard each spec example. The soft one is pytest-timeout's: an
exception raised into a hang Python can interrupt. The hard one is
``faulthandler.dump_traceback_later(exit=True)``, a C thread that needs no GIL,
so it also ends a process wedged in C code that holds the GIL (as
``torch.jit.wait`` can be). Ending the process is survivable under pytest-xdist,
which replaces the worker; ``forkwait-conformance`` therefore runs one.

Each worker's faulthandler writes to a file in a folder the controller chose,
so the controller can say, for the example that ended its worker, whether it
hung (faulthandler's "Timeout" dump) or crashed, with the stack it was in.
"""

from __future__ import annotations

import faulthandler
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import pytest

from conformance.collect import SpecItem, requirement_from_nodeid
from conformance.implementation import selected

DEFAULT_EXAMPLE_TIMEOUT = 30.0
#: seconds past --example-timeout before the watchdog ends the process (at most)
HARD_DEADLINE_GRACE = 5.0
_DUMP_LINES = 40
_WORKERINPUT_KEY = "forkwait_watchdog_dir"


def _spec_side(lines: list[str]) -> list[str]:
    """Each thread's frames down to the harness, the thread running the example first."""
    blocks: list[list[str]] = []
    for line in lines:
        if line.startswith(("Thread ", "Current thread ")) or not blocks:
            blocks.append([])
        blocks[-1].append(line)
    trimmed: list[tuple[bool, list[str]]] = []
    for block in blocks:
        harness = next((i for i, line in enumerate(block) if "conformance/runner.py" in line), -1)
        trimmed.append((harness >= 0, block[:harness] if harness >= 0 else block))
    trimmed.sort(key=lambda entry: not entry[0])  # stable: the example's thread first
    return [
        line
        for _, block in trimmed
        for line in block
        if line.strip() and not line.startswith("Timeout (")
    ]


class Isolation:
    """Registered by the plugin on the controller and on every worker."""

    def __init__(self, config: pytest.Config) -> None:
        self.timeout: float = config.getoption("example_timeout") or 0.0
        workerinput: dict[str, Any] | None = getattr(config, "workerinput", None)
        self.dump: IO[str] | None = None
        if workerinput is None:  # controller: the folder workers dump into
            self.folder = Path(tempfile.mkdtemp(prefix="forkwait-watchdog-"))
        else:
            self.folder = Path(workerinput[_WORKERINPUT_KEY])
            path = self.folder / f"{workerinput['workerid']}.txt"
            self.dump = path.open("w", encoding="utf-8")  # kept open: faulthandler needs it
            faulthandler.enable(file=self.dump, all_threads=True)  # crashes land here too

    # -- controller --------------------------------------------------------------

    @pytest.hookimpl(optionalhook=True)
    def pytest_configure_node(self, node: Any) -> None:
        node.workerinput[_WORKERINPUT_KEY] = str(self.folder)

    @pytest.hookimpl(optionalhook=True)
    def pytest_handlecrashitem(
        self, crashitem: str, report: pytest.TestReport, sched: object
    ) -> None:
        """Name the requirement of the example that ended its worker, and what happened."""
        requirement = requirement_from_nodeid(crashitem)
        report.user_properties = [("requirement", requirement or ""), ("profile", "")]
        reason = selected().expected_failures.get(requirement or "")
        if reason is not None:  # an expected failure, even this way
            report.outcome = "skipped"
            report.wasxfail = f"{requirement}: {reason}"
            report.longrepr = None
            return
        node = getattr(report, "node", None)
        worker = getattr(getattr(node, "gateway", None), "id", "")
        report.longrepr = self.describe(requirement or crashitem, str(worker))

    def describe(self, what: str, worker: str) -> str:
        dump_file = self.folder / f"{worker}.txt"
        dump = (
            dump_file.read_text(encoding="utf-8", errors="replace") if dump_file.is_file() else ""
        )
        if dump.lstrip().startswith("Timeout"):
            headline = (
                f"{what}: hung past --example-timeout ({self.timeout:g} s) where Python "
                "could not interrupt it (in C code holding the GIL, or an implementation "
                "swallowed the timeout); its worker process was ended"
            )
        else:
            headline = (
                f"{what}: the example crashed the interpreter (os._exit, a fatal signal, "
                "or an abort); its worker process ended"
            )
        stacks = "\n".join(_spec_side(dump.strip().splitlines())[:_DUMP_LINES])
        return headline + (f"\nthreads at that moment:\n{stacks}" if stacks else "")

    # -- worker (or a run without xdist) -----------------------------------------

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_protocol(
        self, item: pytest.Item, nextitem: pytest.Item | None
    ) -> Iterator[None]:
        """Arm the hard deadline around one spec example."""
        if not isinstance(item, SpecItem) or not self.timeout:
            return (yield)
        grace = min(HARD_DEADLINE_GRACE, max(1.0, self.timeout))
        stream = self.dump
        if stream is not None:
            stream.seek(0)
            stream.truncate()  # only the dump of the example that ends the process
        if stream is None:  # no xdist: nothing outlives this process to report it
            faulthandler.dump_traceback_later(self.timeout + grace, exit=True)
        else:
            faulthandler.dump_traceback_later(self.timeout + grace, exit=True, file=stream)
        try:
            return (yield)
        finally:
            faulthandler.cancel_dump_traceback_later()

    def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> None:
        """The soft deadline: pytest-timeout fails an example Python can interrupt."""
        if self.timeout:
            for item in items:
                if isinstance(item, SpecItem):
                    item.add_marker(pytest.mark.timeout(self.timeout))
