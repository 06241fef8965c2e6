"""Per-example deadlines and faults, enforced from outside the process that runs examples.

Every spec example runs in an executor process (conformance/executor/), never
in pytest's. This plugin arms the executor's deadline around each example
(from before its setup, as pytest-timeout measured it), records each failure's
kind and cause (diagnosis.py), and tells a crash or a hang of the executor as
a failure of the example that caused it: the signal or exit status, the
example's source at its true lines, and the stacks faulthandler dumped. A hang
or a crash is always a failure: no expected-failure entry absorbs it (known
ones belong in the skips list, which does not run them). An example that hung,
timed out or crashed is never replayed to rebuild a namespace in the fresh
executor that follows.

What an example printed or raised reaches the terminal and JUnit capped (the
head and tail of at most FAILURE_SHOWN characters) and indented under the
failure's headline, so that no line of it reads as a line of the harness
(``MUST: 4/4 passed``). An xdist worker that dies while an example runs is
reported on that example. At the end of the session the executor is ended
before any report is written: nothing an example left running writes there.
"""

from __future__ import annotations

import textwrap
from collections.abc import Generator, Iterator

import pytest

from conformance.executor.handle import ExecutorFault, ExecutorHandle, ExecutorUnavailable
from conformance.executor.remote import RebuildFailed
from conformance.run.diagnosis import Diagnosis, boundary, diagnose_call
from conformance.run.spec_items import SpecItem, requirement_of
from conformance.sphinx_doctest.capped import cap_text
from conformance.sphinx_doctest.failures import describe_result, numbered_source
from conformance.sphinx_doctest.outcome import FailureKind
from conformance.sphinx_doctest.runners import ExampleFailure

#: characters of one failure text (and of each section of a report) that are shown
FAILURE_SHOWN = 64 * 1024
_PHASES = {
    "setup": "while its group's namespace was made (its setup, or a replay of earlier tests)",
    "call": "",
    "teardown": "while its group's cleanup ran",
}
_REBUILD = pytest.StashKey[str]()


class Isolation:
    """Registered by the plugin in every pytest process that runs spec examples."""

    def __init__(self, config: pytest.Config, handle: ExecutorHandle) -> None:
        self.timeout: float = config.getoption("example_timeout") or 0.0
        self.handle = handle
        #: xdist controller: the properties of each example running on a worker
        self.running: dict[str, list[tuple[str, object]]] = {}
        #: this process's name in the report: its xdist worker, or "" for a plain run
        self.worker = str(getattr(config, "workerinput", {}).get("workerid", ""))
        #: how many examples this process has begun: the order they ran in
        self.begun = 0

    def pytest_unconfigure(self) -> None:
        """End the executor and everything it started; remove its files."""
        self.handle.stop()

    @pytest.hookimpl(wrapper=True, tryfirst=True)
    def pytest_sessionfinish(self) -> Generator[None, None, None]:
        """End the executor before any plugin writes a report (a thread an example left
        could write there too)."""
        self.handle.stop_process()
        return (yield)

    @pytest.hookimpl(wrapper=True, tryfirst=True)
    def pytest_runtest_protocol(
        self, item: pytest.Item, nextitem: pytest.Item | None
    ) -> Iterator[None]:
        if not isinstance(item, SpecItem):
            return (yield)
        self.begun += 1
        item.user_properties += [("worker", self.worker), ("order", str(self.begun))]
        self.handle.arm(self.timeout)
        try:
            return (yield)
        finally:
            self.handle.disarm()

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(
        self, item: pytest.Item, call: pytest.CallInfo[None]
    ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
        """Record the failure's diagnosis; a fault's report; what the executor printed."""
        # the adapter's files are looked up only once a phase fails: entry points are slow to read
        adapter = boundary(self.handle.launch.impl) if call.excinfo is not None else None
        diagnosis = diagnose_call(call, adapter)
        report: pytest.TestReport = yield
        if not isinstance(item, SpecItem):
            return report
        # which executor ran it (the one in place when the phase ended): a cascade's
        # victims run after its start in the same or the next executor (reports/cascades.py)
        report.user_properties.append(("executor", str(self.handle.generation)))
        if diagnosis is not None:
            report.user_properties += diagnosis.properties()
            if diagnosis.kind.stops_the_process:
                item.sphinx.replayable = False  # never again: not even to rebuild a namespace
        error = call.excinfo.value if call.excinfo else None
        if isinstance(error, ExecutorUnavailable) and not hasattr(item.config, "workerinput"):
            # every later example would fail alike (an xdist worker cannot stop the run:
            # each of its examples fails with this error instead, at once)
            pytest.exit(
                f"implementation {self.handle.launch.impl!r} loaded in the executor that "
                "described it, but a fresh executor (which imports it afresh) could not "
                "load it, so no example can run; check what differs there (environment "
                f"variables, working directory, sys.path). Its error:\n\n{error.traceback}",
                returncode=pytest.ExitCode.USAGE_ERROR,
            )
        if isinstance(error, ExecutorUnavailable):  # on an xdist worker: said, not traced
            report.longrepr = f"{item.headline()}\n\n{item.name}: not run: {error.traceback}"
        elif isinstance(error, ExecutorFault):
            report.longrepr = self.crash_report(item, error, call.when)
        elif isinstance(error, RebuildFailed):  # its text tells the rebuild
            report.longrepr = item.headline() + "\n\n" + rebuild_failed(item, error)
        if not isinstance(error, RebuildFailed):
            self._rebuilt(item, report, call.when)
        output = self.handle.output()
        if output:
            report.sections.append((f"Captured executor output {call.when}", output))
        if report.failed and isinstance(report.longrepr, str):
            report.longrepr = shielded(report.longrepr, item.headline())
        report.sections = [(title, _indented(text)) for title, text in report.sections]
        return report

    def _rebuilt(self, item: SpecItem, report: pytest.TestReport, when: str) -> None:
        """A rebuild's failed replays: a section, and a note in a failure after it."""
        rebuild = item.sphinx.sphinx_document.run.replay_failures if when == "setup" else []
        if rebuild:
            text = "\n\n".join(
                f"replaying test {index + 1} of group {item.sphinx.spec.group!r} failed:\n"
                + describe_result(result, "code")
                for index, result in rebuild
            )
            item.user_properties.append(("rebuild_failed", "1"))
            report.sections.append(("namespace rebuilt in a fresh executor", text))
            item.stash[_REBUILD] = text
        if report.failed and _REBUILD in item.stash and isinstance(report.longrepr, str):
            report.longrepr += (
                "\n\nNote: this example ran in a fresh executor, whose rebuild of the "
                "group's namespace failed:\n" + item.stash[_REBUILD]
            )

    def crash_report(self, item: SpecItem, fault: ExecutorFault, when: str) -> str:
        """What happened, to which example, where, and the stacks at that moment."""
        phase = _PHASES.get(when, "")
        lines = [f"{item.name}: {fault.summary}" + (f" ({phase})" if phase else "")]
        code = item.sphinx.spec.code
        if code is not None:
            kind = FailureKind.CRASH
            failure = ExampleFailure(code.code, code.location, code.location.line, kind, "")
            lines += [f"the example, at {code.location}:", *numbered_source(failure)]
        if fault.dump:
            lines += ["threads at that moment:", fault.dump]
        return item.headline() + "\n\n" + "\n".join(lines)

    # -- xdist's controller: a worker that died while an example ran --------------------

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if not hasattr(report, "node"):
            return  # not the controller of workers
        if report.when == "setup":
            self.running[report.nodeid] = list(report.user_properties)
        elif report.when == "teardown":
            self.running.pop(report.nodeid, None)

    @pytest.hookimpl(optionalhook=True)
    def pytest_handlecrashitem(self, crashitem: str, report: pytest.TestReport) -> None:
        """The example a dead worker was running fails as a crash, with its properties."""
        known = self.running.pop(crashitem, None)  # none if it died before its setup's end
        properties = known or [("requirement", requirement_of(crashitem))]
        ended = Diagnosis(
            FailureKind.CRASH,
            "its pytest worker ended while it ran (killed by the example or from outside)",
        )
        report.user_properties = [*properties, *ended.properties()]
        report.location = (report.location[0], None, crashitem.rpartition("::")[2])
        worker = getattr(getattr(getattr(report, "node", None), "gateway", None), "id", "?")
        report.longrepr = (
            f"{crashitem}: the pytest worker running this example ({worker}) ended while it "
            "ran: killed by the example itself (an example that signals its own harness) or "
            "from outside; a fresh worker runs the examples after it"
        )
        report.forkwait_ended_worker = True  # type: ignore[attr-defined]  # reporter.py


def rebuild_failed(item: SpecItem, error: RebuildFailed) -> str:
    """Why the example did not run: which earlier tests behaved otherwise when replayed."""
    replays = "\n\n".join(
        f"test {index + 1} of group {error.group!r} passed when it ran, and failed when "
        "replayed:\n" + describe_result(result, "code")
        for index, result in error.failures
    )
    return (
        f"{item.name}: not run: in the fresh executor that replaced a crashed or ended one, "
        "the rebuild of its group's namespace failed where the same tests had passed, so "
        "this example would run in a namespace Sphinx would not have made (the fault is "
        f"the replayed tests', not this example's):\n\n{replays}"
    )


def shielded(text: str, headline: str) -> str:
    """A failure text capped, each line after the harness's headline indented."""
    text = cap_text(text, FAILURE_SHOWN, "a failure's text")
    if not text.startswith(headline):
        return text  # pytest's own (an unexpected pass), or the harness's error
    return headline + textwrap.indent(text[len(headline) :], "  ")


def _indented(text: str) -> str:
    return textwrap.indent(cap_text(text, FAILURE_SHOWN, "captured output"), "  ")


__all__ = ["FAILURE_SHOWN", "Isolation"]
