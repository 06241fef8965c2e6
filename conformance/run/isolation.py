"""Per-example deadlines, and what happens after an example hangs or crashes its process.

Two deadlines guard each spec example. The soft one is pytest-timeout's: an
exception raised into a hang Python can interrupt. The example fails, and
its worker then *retires* (see conformance/sphinx_doctest/scheduling.py):
threads stuck in the hung example could poison whatever ran next in that
process, so the next example runs in a fresh worker. The hard one is
``faulthandler.dump_traceback_later(exit=True)``, a C thread that needs no
GIL, so it also ends a process wedged in C code that holds the GIL (as
``torch.jit.wait`` can be). Ending the process is survivable under
pytest-xdist, which replaces the worker; ``forkwait-conformance`` runs one.

Each worker's faulthandler writes to a file in a folder the controller chose,
so the controller can say, for the example that ended its worker, whether it
hung (faulthandler's "Timeout" dump) or crashed, with the stack it was in.
A hang or a crash is always a failure: no expected-failure entry absorbs it
(known ones belong in the skips list, which does not run them).

Both deadlines live in the worker, which can disarm them; the controller
enforces a third one, from outside (watchdog.py).
"""

from __future__ import annotations

import faulthandler
import re
import shutil
import time
from collections.abc import Generator, Iterator, Mapping
from pathlib import Path
from typing import IO, Any

import pytest

from conformance.catalog.requirements import Requirement
from conformance.run.failure_kinds import failure_kind
from conformance.run.spec_items import RunOptions, SpecItem, headline, requirement_from_nodeid
from conformance.run.watchdog import (
    WORKERINPUT_KEY,
    ControllerSide,
    WorkerSide,
    make_folder,
    still_running,
)
from conformance.sphinx_doctest.capped import cap_text
from conformance.sphinx_doctest.plugin import retire_worker

#: seconds past --example-timeout before the watchdog ends the process (at most)
HARD_DEADLINE_GRACE = 5.0
_DUMP_LINES = 40
_HARNESS_FRAMES = ("conformance/sphinx_doctest/", "/doctest.py")


def _spec_side(lines: list[str]) -> list[str]:
    """Each thread's frames down to the harness, the thread running the example first."""
    blocks: list[list[str]] = []
    for line in lines:
        if line.startswith(("Thread ", "Current thread ")) or not blocks:
            blocks.append([])
        blocks[-1].append(line)
    trimmed: list[tuple[bool, list[str]]] = []
    for block in blocks:
        harness = next(
            (i for i, line in enumerate(block) if any(h in line for h in _HARNESS_FRAMES)), -1
        )
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

    def __init__(
        self, config: pytest.Config, catalog: Mapping[str, Requirement], options: RunOptions
    ) -> None:
        self.timeout: float = config.getoption("example_timeout") or 0.0
        #: time.monotonic() when the current item began (its deadlines start after it)
        self.item_started = 0.0
        self.catalog = catalog
        self.options = options
        workerinput: dict[str, Any] | None = getattr(config, "workerinput", None)
        self.dump: IO[str] | None = None
        self.owns_folder = workerinput is None
        #: the controller's watch over its workers, once it has some
        self.watch: ControllerSide | None = None
        self.worker: WorkerSide | None = None
        if workerinput is None:  # controller: the folder workers dump into
            self.folder = make_folder()
        else:
            self.folder = Path(workerinput[WORKERINPUT_KEY])
            self.worker = WorkerSide(self.folder, workerinput["workerid"])
            path = self.folder / f"{workerinput['workerid']}.txt"
            self.dump = path.open("w", encoding="utf-8")  # kept open: faulthandler needs it
            faulthandler.enable(file=self.dump, all_threads=True)  # crashes land here too

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self, exitstatus: int) -> None:
        """An interrupted run (Ctrl-C, SIGTERM) ends its workers now: a hung one would
        keep xdist waiting."""
        if self.watch is not None and exitstatus == pytest.ExitCode.INTERRUPTED:
            self.watch.stop()

    def pytest_unconfigure(self) -> None:
        """The controller ends what its workers left running and removes their dump
        folder (else one per run piles up in the temp dir). Workers have ended by now;
        each leaves its dump file open to the end, as faulthandler writes to it."""
        if self.watch is not None:
            self.watch.stop()
        if self.owns_folder:
            shutil.rmtree(self.folder, ignore_errors=True)

    # -- controller --------------------------------------------------------------

    @pytest.hookimpl(optionalhook=True)
    def pytest_configure_node(self, node: Any) -> None:
        node.workerinput[WORKERINPUT_KEY] = str(self.folder)
        if self.watch is None:
            self.watch = ControllerSide(self.folder)

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node: Any, error: object | None) -> None:
        """A worker that crashed or was killed: end what it left running (one that
        finished normally is still exiting; it is ended at the end of the run)."""
        if error is None or self.watch is None:
            return
        worker = str(node.gateway.id)
        self.watch.worker_down(worker)
        failed = self.watch.setup_error(worker)
        if failed is not None:  # every replacement would fail the same way
            pytest.exit(
                f"the implementation loads in this process, but worker {worker} (which "
                "imports it afresh) could not load it, so no example can run; check what "
                "differs there (environment variables, working directory, sys.path). "
                f"Its error:\n\n{failed.rstrip()}",
                returncode=pytest.ExitCode.USAGE_ERROR,
            )

    @pytest.hookimpl(optionalhook=True)
    def pytest_handlecrashitem(
        self, crashitem: str, report: pytest.TestReport, sched: object
    ) -> None:
        """Name the requirement of the example that ended its worker, and what happened."""
        requirement = requirement_from_nodeid(crashitem)
        node = getattr(report, "node", None)
        worker = getattr(getattr(node, "gateway", None), "id", "")
        hung, text = self.describe(requirement or crashitem, str(worker))
        known = self.catalog.get(requirement or "")
        number = _example_number(crashitem)
        if known is not None:
            schedule = crashitem.partition("[schedule ")[2].rstrip("]") or None
            text = f"{headline(known, int(number or 0), schedule, self.options)}\n\n{text}"
        report.longrepr = text
        report.user_properties = [
            ("requirement", requirement or ""),
            ("profile", known.profile if known else ""),
            ("level", known.level if known else ""),
            ("example", number),
            ("failure_kind", "hang" if hung else "crash"),
        ]
        # the item's name, not its file, heads the failure (as for any other failure)
        report.location = (report.location[0], None, crashitem.rpartition("::")[2])
        report.when = "call"  # its test failed (xdist says "???": JUnit would call it an error)
        report.forkwait_ended_worker = True  # type: ignore[attr-defined]

    def describe(self, what: str, worker: str) -> tuple[bool, str]:
        """Whether the example hung (rather than crashed), and a report saying so."""
        dump_file = self.folder / f"{worker}.txt"
        dump = (
            dump_file.read_text(encoding="utf-8", errors="replace") if dump_file.is_file() else ""
        )
        killed = self.watch.hang_message(what, worker) if self.watch is not None else None
        if killed is not None:
            return True, killed
        hung = dump.lstrip().startswith("Timeout")
        if hung:
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
        if not hung and self.watch is not None:
            headline += still_running(self.watch.last_beacon(worker))
        stacks = "\n".join(_spec_side(dump.strip().splitlines())[:_DUMP_LINES])
        return hung, headline + (f"\nthreads at that moment:\n{stacks}" if stacks else "")

    # -- worker (or a run without xdist) -----------------------------------------

    @pytest.hookimpl(wrapper=True, tryfirst=True)
    def pytest_runtest_protocol(
        self, item: pytest.Item, nextitem: pytest.Item | None
    ) -> Iterator[None]:
        """Arm the hard deadline around one spec example (outside pytest-timeout's
        wrapper: its deadline starts after ``item_started``, set last before it)."""
        if not isinstance(item, SpecItem) or not self.timeout:
            return (yield)
        grace = min(HARD_DEADLINE_GRACE, max(1.0, self.timeout))
        if self.worker is not None:  # the controller's deadline comes a grace later
            self.worker.started(item.nodeid, self.timeout + 2 * grace)
        stream = self.dump
        if stream is not None:
            stream.seek(0)
            stream.truncate()  # only the dump of the example that ends the process
        if stream is None:  # no xdist: nothing outlives this process to report it
            faulthandler.dump_traceback_later(self.timeout + grace, exit=True)
        else:
            faulthandler.dump_traceback_later(self.timeout + grace, exit=True, file=stream)
        self.item_started = time.monotonic()
        try:
            return (yield)
        finally:
            faulthandler.cancel_dump_traceback_later()
            if self.worker is not None:
                self.worker.finished()

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_call(self, item: pytest.Item) -> Iterator[None]:
        """A deadline the example swallowed still fails it.

        pytest-timeout raises into whatever frame runs when the deadline strikes.
        If that is the code under test, the exception can be caught there, or kept
        as the outcome of a task nobody waits on (a plain fork runs its task in the
        caller's frame; so do the tasks of a controlled schedule), and the example
        would go on to pass. The item outlasting the deadline (measured, as
        pytest-timeout measures it, from before the item's setup) shows the timeout
        struck and never surfaced.
        """
        if not isinstance(item, SpecItem) or not self.timeout:
            return (yield)
        result = yield
        elapsed = time.monotonic() - self.item_started
        if elapsed >= self.timeout:
            raise pytest.fail.Exception(
                f"Timeout (>{self.timeout:g}s): the example ran {elapsed:.1f} s, past "
                "--example-timeout, and the timeout raised into it never surfaced (the "
                "code under test caught it, or kept it as the outcome of a task nobody "
                "waited on)",
                pytrace=False,
            )
        return result

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(
        self, item: pytest.Item, call: pytest.CallInfo[None]
    ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
        """Label the failure's kind; after a soft timeout the worker retires (nothing
        else may run in a process whose threads are stuck in the hung example). What
        was captured is capped."""
        kind = failure_kind(call)
        if kind == "timeout":
            retire_worker(item)  # before the report is made: it carries the request
        report: pytest.TestReport = yield
        if kind:
            report.user_properties.append(("failure_kind", kind))
        if kind == "timeout":
            report.sections = [_other_threads(section) for section in report.sections]
        # what pytest captured (stderr, writes to the file descriptors) is capped as the
        # example's stdout is (sphinx_doctest/capped.py): the report goes to the controller
        report.sections = [(title, cap_text(text)) for title, text in report.sections]
        return report

    def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> None:
        """The soft deadline: pytest-timeout fails an example Python can interrupt."""
        if self.timeout:
            for item in items:
                if isinstance(item, SpecItem):
                    item.add_marker(pytest.mark.timeout(self.timeout))


_STACK_HEADER = re.compile(r"^~+ Stack of .* ~+$")
_NOT_THE_EXAMPLES = ("execnet/", "pytest_timeout.py")


def _other_threads(section: tuple[str, str]) -> tuple[str, str]:
    """pytest-timeout's dump of every thread, without the harness's own idle ones."""
    _, text = section
    if "+ Timeout +" not in text:
        return section
    stacks: list[list[str]] = []
    for line in text.splitlines():
        if _STACK_HEADER.match(line) or line.startswith("+"):
            stacks.append([line] if _STACK_HEADER.match(line) else [])
        elif stacks:
            stacks[-1].append(line)
    kept = [s for s in stacks if s and not any(m in "\n".join(s) for m in _NOT_THE_EXAMPLES)]
    body = "\n".join(line for stack in kept for line in stack) or "(no other thread)"
    return "other threads when the deadline struck", body + "\n"


def _example_number(nodeid: str) -> str:
    name = nodeid.rpartition("::")[2]
    number = name.partition("[")[2].partition("]")[0]
    return number if number.isdigit() else ""


__all__ = ["Isolation"]
